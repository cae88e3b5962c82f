//! Checks that need code rather than one regex. A rule names one with `check = "..."`.
//!
//! Every check reads the normalised view and reports byte ranges of the *view*; the engine maps
//! them back to the original text. A check with a note adds it to the rule's message.

mod email;
mod foreign_id;
mod intro_line;
mod length;
pub(crate) mod long_number;
mod placeholder;
mod promise;

use std::ops::Range;

use crate::normalize::Normalized;
use crate::rules::schema::CheckName;
use crate::screen::Context;

/// Where a check reports a match: a view range and an optional note for the message.
pub(crate) type Emit<'e> = dyn FnMut(Range<usize>, Option<String>) + 'e;

/// Runs the named check. `ctx` is `None` on the input side (no ticket to compare against);
/// checks that need it report nothing then.
pub(crate) fn run(
    check: CheckName,
    view: &Normalized<'_>,
    ctx: Option<&Context>,
    emit: &mut Emit<'_>,
) {
    match check {
        CheckName::ForeignId => {
            if let Some(ctx) = ctx {
                foreign_id::run(view.as_str(), ctx, emit);
            }
        }
        CheckName::Placeholder => placeholder::run(view.as_str(), emit),
        CheckName::IntroLine => intro_line::run(view.as_str(), emit),
        CheckName::Email => email::run(view.as_str(), ctx, emit),
        CheckName::LongNumber => long_number::run(view.as_str(), emit),
        CheckName::Promise => promise::run(view.as_str(), emit),
        CheckName::Length => {
            if let Some(ctx) = ctx {
                length::run(view.as_str(), ctx.word_limit(), emit);
            }
        }
    }
}

/// Runs a check that needs no context over `text` and collects what it reports, for the checks'
/// unit tests: (matched text, note).
#[cfg(test)]
pub(crate) fn collect(run: fn(&str, &mut Emit<'_>), text: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    run(text, &mut |r: Range<usize>, note: Option<String>| {
        out.push((&text[r], note.unwrap_or_default()));
    });
    out
}
