//! Checks that need code rather than one regex. A rule names one with `check = "..."`.
//!
//! Every check reads the normalised view and reports byte ranges of the *view*; the engine maps
//! them back to the original text. A check with a note adds it to the rule's message.

mod email;
mod foreign_id;
mod intro_line;
pub(crate) mod length;
pub(crate) mod long_number;
mod placeholder;
mod promise;

use std::ops::Range;

use crate::normalize::Normalized;
use crate::rules::schema::CheckName;
use crate::screen::Context;

/// Where a check reports a match: a view range and an optional note for the message.
pub(crate) type Emit<'e> = dyn FnMut(Range<usize>, Option<String>) + 'e;

/// The literals a check needs at a word start before it can report anything there, if it has
/// such anchors: the rule engine finds them with every other rule's literals and passes their
/// offsets to [`run`], and skips the check on a text without one. The words come in lists,
/// matched ASCII case-insensitively.
pub(crate) fn anchor_literals(check: CheckName) -> Option<&'static [&'static [&'static str]]> {
    match check {
        CheckName::Promise => Some(promise::ANCHOR_LITERALS),
        CheckName::Placeholder => Some(placeholder::ANCHOR_LITERALS),
        _ => None,
    }
}

/// Whether every span the check reports holds a run of at least
/// [`crate::decode::SHORTEST_RUN`] encoding bytes, so a view without one needs no run of it:
/// a UUID is 32 hex digits, or 36 bytes of hex digits and hyphens, in a row.
pub(crate) fn needs_long_run(check: CheckName) -> bool {
    matches!(check, CheckName::ForeignId)
}

/// Runs the named check. `ctx` is `None` on the input side (no ticket to compare against);
/// checks that need it report nothing then. `anchors` are the view offsets where the check's
/// [`anchor_literals`] occur (ascending), or `None` for the check to find its own.
pub(crate) fn run(
    check: CheckName,
    view: &Normalized<'_>,
    ctx: Option<&Context>,
    anchors: Option<&[usize]>,
    words: Option<&length::WordTally>,
    emit: &mut Emit<'_>,
) {
    match check {
        CheckName::ForeignId => {
            if let Some(ctx) = ctx {
                foreign_id::run(view.as_str(), ctx, emit);
            }
        }
        CheckName::Placeholder => placeholder::run(view.as_str(), anchors, emit),
        CheckName::IntroLine => intro_line::run(view.as_str(), emit),
        CheckName::Email => email::run(view.as_str(), ctx, emit),
        CheckName::LongNumber => long_number::run_allowing(view.as_str(), ctx, emit),
        CheckName::Promise => promise::run(view.as_str(), anchors, emit),
        CheckName::Length => {
            if let Some(ctx) = ctx {
                length::run(view.as_str(), ctx.word_limit(), words, emit);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_checks_have_words_to_look_for() {
        for check in [CheckName::Promise, CheckName::Placeholder] {
            let lists = anchor_literals(check).expect("anchored");
            assert!(lists.iter().flat_map(|l| l.iter()).all(|w| !w.is_empty()));
            assert!(
                lists.iter().map(|l| l.len()).sum::<usize>() > 0,
                "{check:?}"
            );
        }
    }
}
