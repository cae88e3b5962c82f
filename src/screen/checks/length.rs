//! `length`: a draft with more words than the context's limit.
//!
//! Long replies bury the answer and take longer to review. Words are counted as the engine
//! counts them (see `crate::rules::words`). The span covers the whole draft; the note gives the
//! count and the limit ("93 words, limit 80"). A draft of fewer than `2 × limit` bytes cannot
//! be over the limit and is not counted at all; a screen has the count from the engine's pass.

use super::Emit;
use crate::rules::{WordTally, count_words};

/// Reports the whole draft when it has more than `limit` words; `tally` is the view's count
/// from another pass, if one was made.
pub(crate) fn run(view: &str, limit: usize, tally: Option<&WordTally>, emit: &mut Emit<'_>) {
    // Every word but the last needs at least two bytes (a character and a separator).
    if view.len().div_ceil(2) <= limit {
        return;
    }
    let count = match tally {
        Some(t) => t.words(view.as_bytes()),
        None => count_words(view),
    };
    if count > limit {
        emit(0..view.len(), Some(note(count, limit)));
    }
}

/// "93 words, limit 80", without the formatting machinery (which took a tenth of the time of
/// screening a long draft).
fn note(count: usize, limit: usize) -> String {
    let mut s = String::with_capacity(40);
    push_decimal(&mut s, count);
    s.push_str(" words, limit ");
    push_decimal(&mut s, limit);
    s
}

fn push_decimal(s: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        s.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    fn found(text: &str, limit: usize) -> Option<(Range<usize>, String)> {
        let mut out = None;
        run(
            text,
            limit,
            None,
            &mut |r: Range<usize>, note: Option<String>| {
                out = Some((r, note.unwrap_or_default()));
            },
        );
        out
    }

    #[test]
    fn the_note_spells_both_numbers_in_decimal() {
        for (count, limit) in [
            (0, 0),
            (9, 1),
            (10, 9),
            (81, 80),
            (1_000_007, 80),
            (usize::MAX, 42),
        ] {
            assert_eq!(note(count, limit), format!("{count} words, limit {limit}"));
        }
    }

    #[test]
    fn over_the_limit_spans_the_whole_draft_with_count_and_limit() {
        let text = vec!["word"; 93].join(" ");
        assert_eq!(
            found(&text, 80),
            Some((0..text.len(), "93 words, limit 80".to_owned()))
        );
    }

    #[test]
    fn at_the_limit_is_fine() {
        let text = vec!["w"; 80].join(" ");
        assert_eq!(found(&text, 80), None);
        let text = vec!["w"; 81].join(" ");
        assert_eq!(
            found(&text, 80).map(|(_, n)| n),
            Some("81 words, limit 80".to_owned())
        );
        // Punctuation tokens do not count.
        let text = format!("{} - - - -", vec!["w"; 80].join(" "));
        assert_eq!(found(&text, 80), None);
    }

    #[test]
    fn a_zero_limit_flags_any_word() {
        assert!(found("hi", 0).is_some());
        assert!(found("", 0).is_none());
        assert!(found("--", 0).is_none());
    }
}
