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
    let mut count = match tally {
        Some(t) => t.words(view.as_bytes()),
        None => count_words(view),
    };
    // Words joined by something that is not a blank (`one·two·three`, braille blanks,
    // `one_two_three`) are one token to the count above but several words to a reader. Only a
    // view holding one of those joiners is counted again, so prose pays for a few vectorised
    // searches.
    if count <= limit && has_joiner(view.as_bytes()) {
        count = count.max(count_letter_runs(view));
    }
    if count > limit {
        emit(0..view.len(), Some(note(count, limit)));
    }
}

/// Characters that join words without a blank: underscore, middle dot, bullet, hyphenation
/// point, dot operator, katakana middle dot, braille blank, and the other blank-looking
/// characters that are not whitespace to the view (Hangul filler, figure-like dots).
const JOINERS: &[&str] = &[
    "\u{b7}", "\u{2022}", "\u{2027}", "\u{2219}", "\u{22c5}", "\u{30fb}", "\u{2800}", "\u{3164}",
    "\u{2024}", "\u{2e31}",
];

fn has_joiner(view: &[u8]) -> bool {
    memchr::memchr(b'_', view).is_some()
        || (!view.is_ascii()
            && JOINERS
                .iter()
                .any(|j| memchr::memmem::find(view, j.as_bytes()).is_some()))
}

/// Words as a reader sees them: runs of letters and digits (any script), separated by any run
/// of other characters, except that an apostrophe, hyphen or dot between two letters or
/// digits joins them (`don't`, `e-mail`, `example.com` are one word each).
pub(crate) fn count_letter_runs(view: &str) -> usize {
    let mut count = 0;
    let mut in_word = false;
    let mut joiner = false;
    for c in view.chars() {
        if c.is_alphanumeric() {
            if !in_word && !joiner {
                count += 1;
            }
            in_word = true;
            joiner = false;
        } else if in_word && matches!(c, '\'' | '-' | '.') {
            in_word = false;
            joiner = true;
        } else {
            in_word = false;
            joiner = false;
        }
    }
    count
}

/// "93 words, limit 80", without the formatting machinery (a visible share of screening a long
/// draft, which gets this note every time).
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
    fn words_joined_by_other_separators_count_one_by_one() {
        let joined = [
            "one\u{2800}two\u{2800}three\u{2800}four\u{2800}five\u{2800}six",
            "one\u{b7}two\u{b7}three\u{b7}four\u{b7}five\u{b7}six",
            "one_two_three_four_five_six",
        ];
        for text in joined {
            assert_eq!(count_letter_runs(text), 6, "{text}");
            let (span, note) = found(text, 5).unwrap();
            assert_eq!(span, 0..text.len());
            assert!(note.starts_with("6 words"), "{note}");
        }
        assert_eq!(count_letter_runs("don't e-mail example.com, ok?"), 4);
        assert!(found("don't e-mail example.com, ok? fine then", 6).is_none());
    }

    #[test]
    fn a_zero_limit_flags_any_word() {
        assert!(found("hi", 0).is_some());
        assert!(found("", 0).is_none());
        assert!(found("--", 0).is_none());
    }
}
