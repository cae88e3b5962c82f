//! (being written)
use super::Emit;
use crate::screen::Context;
pub(crate) fn run(_view: &str, _ctx: Option<&Context>, _emit: &mut Emit<'_>) {}
