//! (being written)
use super::Emit;
pub(crate) fn run(_view: &str, _limit: usize, _emit: &mut Emit<'_>) {}
