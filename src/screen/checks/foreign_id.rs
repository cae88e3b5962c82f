//! UUIDs in the draft that are not this ticket's. (being written)
use super::Emit;
use crate::screen::Context;
pub(crate) fn run(_view: &str, _ctx: &Context, _emit: &mut Emit<'_>) {}
