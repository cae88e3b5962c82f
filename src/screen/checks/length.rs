//! `length`: a draft with more words than the context's limit.
//!
//! Long replies bury the answer and take longer to review. A word is a whitespace-separated
//! token with at least one letter or digit in it (any script), so "-", "&" and emoji on their
//! own do not count. The span covers the whole draft; the note gives the count and the limit
//! ("93 words, limit 80").
//!
//! Speed: a draft of fewer than `2 × limit` bytes cannot be over the limit and is not counted
//! at all. Otherwise the count is split in two: tokens that start with an ASCII letter or digit
//! are counted by a branch-free pass the compiler vectorises (several GB/s); only the rarer
//! tokens that start with anything else (`(and`, `"Hi`, `$5`, `—`) are looked at one by one.

use super::Emit;

/// Reports the whole draft when it has more than `limit` words.
pub(crate) fn run(view: &str, limit: usize, emit: &mut Emit<'_>) {
    // Every word but the last needs at least two bytes (a character and a separator).
    if view.len().div_ceil(2) <= limit {
        return;
    }
    let count = count_words(view);
    if count > limit {
        emit(0..view.len(), Some(format!("{count} words, limit {limit}")));
    }
}

/// Pairs of bytes looked at per block; a block's start count fits in a `u8`.
const BLOCK: usize = 128;

fn is_space(c: u8) -> bool {
    c == b' ' || c.wrapping_sub(b'\t') < 5
}

fn is_alnum(c: u8) -> bool {
    ((c | 0x20).wrapping_sub(b'a') < 26) | (c.wrapping_sub(b'0') < 10)
}

/// Whitespace-separated tokens holding at least one alphanumeric character.
fn count_words(view: &str) -> usize {
    let b = view.as_bytes();
    let Some(&first) = b.first() else {
        return 0;
    };
    let mut count = usize::from(!is_space(first) && is_word_at(b, 0));
    let pairs = b.len() - 1;
    let mut i = 0;
    while i < pairs {
        let end = (i + BLOCK).min(pairs);
        let mut starts: u8 = 0;
        let mut odd = false;
        for (&prev, &cur) in b[i..end].iter().zip(&b[i + 1..=end]) {
            let after_space = is_space(prev);
            let alnum = is_alnum(cur);
            starts += u8::from(after_space & alnum);
            odd |= after_space & !alnum & !is_space(cur);
        }
        count += usize::from(starts);
        if odd {
            count += (i..end)
                .filter(|&k| {
                    is_space(b[k])
                        && !is_space(b[k + 1])
                        && !is_alnum(b[k + 1])
                        && is_word_at(b, k + 1)
                })
                .count();
        }
        i = end;
    }
    count
}

/// Whether the token starting at `start` holds a letter or digit of any script.
fn is_word_at(b: &[u8], start: usize) -> bool {
    let end = b[start..]
        .iter()
        .position(|&c| is_space(c))
        .map_or(b.len(), |k| start + k);
    let token = &b[start..end];
    if token.iter().any(|&c| is_alnum(c)) {
        return true;
    }
    // Tokens are split at ASCII bytes, so a non-ASCII token is still valid UTF-8.
    !token.is_ascii()
        && std::str::from_utf8(token).is_ok_and(|s| s.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    fn found(text: &str, limit: usize) -> Option<(Range<usize>, String)> {
        let mut out = None;
        run(text, limit, &mut |r: Range<usize>, note: Option<String>| {
            out = Some((r, note.unwrap_or_default()));
        });
        out
    }

    #[test]
    fn words_are_tokens_with_a_letter_or_digit() {
        assert_eq!(count_words("Thanks, Sam. Your refund is on its way."), 8);
        assert_eq!(count_words("a - b & c — d 👍 e"), 5);
        assert_eq!(count_words("naïve café 東京 42 x1"), 5);
        assert_eq!(count_words(" lead\nand trail "), 3);
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words("... !!! ---"), 0);
        assert_eq!(count_words("(and) \"quoted\" $5 \t tab\r\nline"), 5);
        assert_eq!(count_words("x"), 1);
        assert_eq!(count_words(" "), 0);
    }

    #[test]
    fn the_block_count_matches_a_plain_split_at_every_length() {
        let words = [
            "a",
            "(b",
            "--",
            "\u{1F44D}",
            "\u{6771}",
            "c.d",
            "\"",
            "x1",
            "...",
        ];
        let mut text = String::new();
        for k in 0..700 {
            text.push_str(words[k % words.len()]);
            text.push(if k % 7 == 0 { '\n' } else { ' ' });
            let want = text
                .split_ascii_whitespace()
                .filter(|t| t.chars().any(char::is_alphanumeric))
                .count();
            assert_eq!(count_words(&text), want, "{k}");
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
