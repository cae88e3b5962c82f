//! (being written)
use super::Emit;
pub(crate) fn run(_view: &str, _emit: &mut Emit<'_>) {}
