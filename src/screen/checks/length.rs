//! `length`: a draft with more words than the context's limit.
//!
//! Long replies bury the answer and take longer to review. A word is a token between blanks
//! (whitespace, or any other ASCII control byte: the bytes up to a space) with at least one
//! letter or digit in it (any script), so "-", "&" and emoji on their own do not count. The
//! span covers the whole draft; the note gives the count and the limit ("93 words, limit 80").
//!
//! Speed: a draft of fewer than `2 × limit` bytes cannot be over the limit and is not counted
//! at all. Otherwise the count is split in two: tokens that start with an ASCII letter or digit
//! are counted in bulk, the rarer ones that start with anything else (`(and`, `"Hi`, `$5`, `—`)
//! are read one by one. A screen has the count already: the prefilter's pass classes every 64
//! bytes of the view into letters and digits and blanks, and a [`WordTally`] counts from those
//! masks (a few instructions per 64 bytes). Without one, each byte gets two keys, zero exactly
//! for a blank and zero exactly for a letter or digit, from saturating byte operations with no
//! branch, so the compiler vectorises the pass: a counter per lane, summed every 256 pairs; only
//! a block with a lane of more blanks than word starts is looked at again.

use super::Emit;

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

/// Pairs of bytes looked at side by side: one SSE2 register of byte lanes.
const LANES: usize = 16;
/// Groups of `LANES` pairs per block. A lane counts at most one pair per group, and the block
/// at most one word start per two pairs, which `lane_sum` needs to stay below 256.
const GROUPS: usize = 16;
const _: () = assert!(GROUPS * LANES / 2 < 256);

/// A byte between words: a space or an ASCII control byte.
fn is_space(c: u8) -> bool {
    c <= b' '
}

fn is_alnum(c: u8) -> bool {
    ((c | 0x20).wrapping_sub(b'a') < 26) | (c.wrapping_sub(b'0') < 10)
}

/// Zero exactly when `is_space(c)`.
fn space_key(c: u8) -> u8 {
    c.saturating_sub(b' ')
}

/// Zero exactly when `is_alnum(c)`: letters of either case map to 0..=25, digits to 16..=25
/// (saturating, so bytes below `0` do not wrap into range), and every other byte above 25.
fn alnum_key(c: u8) -> u8 {
    let letter = (c | 0x20).wrapping_sub(b'a');
    let digit = c.wrapping_sub(b'0').saturating_add(16);
    letter.min(digit).saturating_sub(25)
}

/// The sum of 16 lanes whose total is below 256: the two halves added (no lane carries),
/// then the eight bytes summed into the top one by a multiplication.
fn lane_sum(lanes: &[u8; LANES]) -> usize {
    let [a, b, c, d, e, f, g, h, rest @ ..] = *lanes;
    let low = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
    let high = u64::from_le_bytes(rest);
    ((low + high).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Words counted from masks of 64 bytes at a time, fed in order by a pass that makes them
/// anyway (the prefilter's; see [`crate::byte_class::WordMasks`]): tokens that start with an
/// ASCII letter or digit counted at once, the others kept to be read when the count is asked
/// for.
#[derive(Debug, Default)]
pub(crate) struct WordTally {
    count: usize,
    /// The byte before the next group is a blank (or there is none).
    after_blank: bool,
    /// Where tokens start with a byte that is not an ASCII letter or digit.
    others: Vec<usize>,
}

impl WordTally {
    /// Ready for the first group of a text (its start counts as after a blank). Keeps the
    /// memory it had.
    pub(crate) fn reset(&mut self) {
        self.count = 0;
        self.after_blank = true;
        self.others.clear();
    }

    /// The group of up to 64 bytes at `at`: its letters and digits and its blanks, bits past
    /// the text's end clear in `within`.
    #[inline(always)]
    pub(crate) fn add(&mut self, at: usize, alnum: u64, blank: u64, within: u64) {
        let starts = !blank & ((blank << 1) | u64::from(self.after_blank)) & within;
        self.after_blank = blank >> 63 == 1;
        self.count += (starts & alnum).count_ones() as usize;
        let mut others = starts & !alnum;
        while others != 0 {
            self.others.push(at + others.trailing_zeros() as usize);
            others &= others - 1;
        }
    }

    /// The words of `view`, the text whose groups were added.
    pub(crate) fn words(&self, view: &[u8]) -> usize {
        self.count + self.others.iter().filter(|&&k| is_word_at(view, k)).count()
    }
}

/// Tokens between blanks holding at least one alphanumeric character.
fn count_words(view: &str) -> usize {
    let b = view.as_bytes();
    let Some(&first) = b.first() else {
        return 0;
    };
    let mut count = usize::from(!is_space(first) && is_word_at(b, 0));
    // Every other token starts at `k + 1` for a pair (`b[k]`, `b[k + 1]`) of whitespace and
    // not; it counts at once when `b[k + 1]` is a letter or digit.
    let pairs = b.len() - 1;
    let mut i = 0;
    while pairs - i >= LANES {
        let end = i + (pairs - i).min(GROUPS * LANES) / LANES * LANES;
        // Per lane: pairs that start a word, and pairs whose first byte is whitespace. They
        // differ when a token starts with another byte (or whitespace repeats, never in a
        // view). Two instructions a group; testing each group instead would need a byte mask
        // moved out of the vector register, which portable code does not get.
        let mut starts = [0u8; LANES];
        let mut spaces = [0u8; LANES];
        let prevs = b[i..end].chunks_exact(LANES);
        for (prev, cur) in prevs.zip(b[i + 1..=end].chunks_exact(LANES)) {
            for l in 0..LANES {
                let space = space_key(prev[l]);
                starts[l] += u8::from((space | alnum_key(cur[l])) == 0);
                spaces[l] += u8::from(space == 0);
            }
        }
        count += lane_sum(&starts);
        if starts != spaces {
            count += other_starts(b, i, end);
        }
        i = end;
    }
    for k in i..pairs {
        let cur = b[k + 1];
        if is_space(b[k]) && !is_space(cur) && (is_alnum(cur) || is_word_at(b, k + 1)) {
            count += 1;
        }
    }
    count
}

/// Words among the tokens that start at `k + 1` for `k` in `from..to` (a whole number of
/// groups) with a byte that is not an ASCII letter or digit. Rarely called, so kept out of
/// line, away from the counting loop's registers.
#[inline(never)]
fn other_starts(b: &[u8], from: usize, to: usize) -> usize {
    let mut count = 0;
    let prevs = b[from..to].chunks_exact(LANES);
    for (at, (prev, cur)) in (from + 1..)
        .step_by(LANES)
        .zip(prevs.zip(b[from + 1..=to].chunks_exact(LANES)))
    {
        let mut other = [false; LANES];
        for l in 0..LANES {
            other[l] = (space_key(prev[l]) == 0) & (alnum_key(cur[l]) != 0);
        }
        if other != [false; LANES] {
            count += (0..LANES)
                .filter(|&l| other[l] && !is_space(cur[l]) && is_word_at(b, at + l))
                .count();
        }
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
    fn the_keys_are_zero_exactly_for_blanks_and_for_letters_and_digits() {
        for c in 0..=255u8 {
            assert_eq!(space_key(c) == 0, is_space(c), "{c:#04x}");
            assert_eq!(alnum_key(c) == 0, is_alnum(c), "{c:#04x}");
        }
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

    /// What `run` counts: the blank-split count, or the letter-run count when the text can hold
    /// words joined by something other than a blank and the blank count is within the limit.
    fn reader_count(text: &str, blank_count: usize, limit: usize) -> usize {
        if blank_count <= limit && has_joiner(text.as_bytes()) {
            blank_count.max(count_letter_runs(text))
        } else {
            blank_count
        }
    }

    /// The definition: tokens between blanks (a space or an ASCII control character) with an
    /// alphanumeric character of any script.
    fn plain_count(text: &str) -> usize {
        text.split(|c: char| c <= ' ')
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .count()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// The block count equals the plain split on texts of every length up to two blocks
        /// and a bit, made of the bytes it tells apart: whitespace of each kind, letters and
        /// digits, tokens that start otherwise ('(', '_', control bytes, the separators other
        /// tools count as whitespace), and non-ASCII letters and symbols.
        #[test]
        fn block_count_matches_a_plain_split(
            chars in proptest::collection::vec(
                proptest::sample::select(
                    " \t\n\u{0B}\u{0C}\r aZz09(_.-\u{1}\u{1C}\u{85}\u{e9}\u{2014}\u{6771}\u{1F44D}"
                        .chars()
                        .collect::<Vec<_>>(),
                ),
                0..560,
            ),
            limit in 0usize..300,
        ) {
            let text: String = chars.into_iter().collect();
            let want = plain_count(&text);
            proptest::prop_assert_eq!(count_words(&text), want, "{:?}", text);
            // The tally, fed the byte-class masks of every 64 bytes, counts the same.
            proptest::prop_assert_eq!(tally_count(&text), want, "{:?}", text);
            let mut got = None;
            run(&text, limit, None, &mut |r: Range<usize>, note: Option<String>| {
                got = Some((r, note.unwrap_or_default()));
            });
            let read = reader_count(&text, want, limit);
            let note = format!("{read} words, limit {limit}");
            proptest::prop_assert_eq!(got, (read > limit).then_some((0..text.len(), note)));
        }

        /// The same on mostly-prose texts, where whitespace is a single space or newline
        /// between words and a token now and then starts otherwise, around block boundaries.
        #[test]
        fn block_count_matches_a_plain_split_on_prose(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "the", "a", "Refund", "42", "x1", "(and", "\"Hi", "$5", "-", "\u{2014}",
                    "caf\u{e9}", "\u{6771}", "\u{1F44D}", "...", "it's", "_", "\u{1}",
                ]),
                0..200,
            ),
            seps in proptest::collection::vec(
                proptest::sample::select(vec![" ", " ", " ", "\n", "  ", "\t", "\r\n", ""]),
                1..8,
            ),
        ) {
            let mut text = String::new();
            for (k, w) in words.iter().enumerate() {
                text.push_str(w);
                text.push_str(seps[k % seps.len()]);
            }
            proptest::prop_assert_eq!(count_words(&text), plain_count(&text), "{:?}", text);
            proptest::prop_assert_eq!(tally_count(&text), plain_count(&text), "{:?}", text);
        }

    }

    /// The count of a [`WordTally`] fed every group of `text` (zero-padded at the end, as the
    /// prefilter's window is).
    fn tally_count(text: &str) -> usize {
        let b = text.as_bytes();
        let mut tally = WordTally::default();
        tally.reset();
        for at in (0..b.len()).step_by(64) {
            let mut group = [0u8; 64];
            let n = (b.len() - at).min(64);
            group[..n].copy_from_slice(&b[at..at + n]);
            let m = crate::byte_class::word_masks(&group);
            let within = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            tally.add(at, m.alnum, m.blank, within);
        }
        tally.words(b)
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
