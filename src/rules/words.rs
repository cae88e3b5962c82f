//! Words as the draft checks count them, from one shared definition: a word is a token between
//! blanks (whitespace, or any other ASCII control byte) with at least one letter or digit in it
//! (any script), so "-", "&" and emoji on their own do not count.
//!
//! The engine's prefilter pass classes every 64 bytes of the view into letters and digits and
//! blanks; a [`WordTally`] counts from those masks, so a check that needs the count gets it
//! from the pass (see [`super::check::Pass`]). Without a pass, [`count_words`] counts in
//! blocks: tokens that start with an ASCII letter or digit in bulk, the rarer ones that start
//! with anything else (`(and`, `"Hi`, `$5`, `—`) one by one. Each byte gets two keys, zero
//! exactly for a blank and zero exactly for a letter or digit, from saturating byte operations
//! with no branch, so the compiler vectorises the pass: a counter per lane, summed every 256
//! pairs; only a block with a lane of more blanks than word starts is looked at again.

use std::ops::Range;

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
pub(crate) fn count_words(view: &str) -> usize {
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

/// Letters, digits, apostrophes and hyphens: the bytes of a word as the draft checks read
/// words ("you'll", "e-mail", "24-hour"). One table load per byte.
static WORD_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || b == b'\'' || b == b'-';
        c += 1;
    }
    table
};

/// Whether `c` is part of a word as the checks read words (see [`WORD_BYTE`]).
pub(crate) fn is_word_byte(c: u8) -> bool {
    WORD_BYTE[usize::from(c)]
}

/// Every word of `b` (a maximal run of [`is_word_byte`] bytes), in order.
pub(crate) fn words(b: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let s = i + b.get(i..)?.iter().position(|&c| is_word_byte(c))?;
        let e = s + b[s..].iter().take_while(|&&c| is_word_byte(c)).count();
        i = e;
        Some(s..e)
    })
}

/// The word after `pos` (one space allowed before it); `None` at punctuation or the end.
pub(crate) fn next_word(b: &[u8], pos: usize) -> Option<Range<usize>> {
    let mut s = pos;
    if b.get(s) == Some(&b' ') {
        s += 1;
    }
    let mut e = s;
    while e < b.len() && is_word_byte(b[e]) {
        e += 1;
    }
    (e > s).then_some(s..e)
}

/// The word before `pos` (one space allowed after it), not reaching below `floor`; `None` at
/// punctuation, at the start or at `floor`.
pub(crate) fn prev_word(b: &[u8], pos: usize, floor: usize) -> Option<Range<usize>> {
    let mut e = pos;
    if e > floor && b[e - 1] == b' ' {
        e -= 1;
    }
    let mut s = e;
    while s > floor && is_word_byte(b[s - 1]) {
        s -= 1;
    }
    (e > s).then_some(s..e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_byte_table_is_letters_digits_apostrophes_and_hyphens() {
        for c in 0..=255u8 {
            let want = c.is_ascii_alphanumeric() || c == b'\'' || c == b'-';
            assert_eq!(is_word_byte(c), want, "{c:#04x}");
        }
    }

    #[test]
    fn words_are_runs_of_word_bytes() {
        let text = "  jane's e-mail (dot) co.uk!";
        let got: Vec<&str> = words(text.as_bytes()).map(|r| &text[r]).collect();
        assert_eq!(got, ["jane's", "e-mail", "dot", "co", "uk"]);
        assert_eq!(words(b"").count(), 0);
        assert_eq!(words(b" .,").count(), 0);
        assert_eq!(words(b"a").next(), Some(0..1));
    }

    #[test]
    fn words_next_to_a_position() {
        let b = b"we'll ship it, by 24-hour post";
        assert_eq!(next_word(b, 0), Some(0..5));
        assert_eq!(next_word(b, 5), Some(6..10));
        assert_eq!(next_word(b, 13), None); // at the comma
        assert_eq!(next_word(b, 14), Some(15..17));
        assert_eq!(prev_word(b, 10, 0), Some(6..10));
        assert_eq!(prev_word(b, 11, 0), Some(6..10));
        assert_eq!(prev_word(b, 25, 0), Some(18..25));
        assert_eq!(prev_word(b, 10, 8), Some(8..10));
        assert_eq!(prev_word(b, 0, 0), None);
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
        ) {
            let text: String = chars.into_iter().collect();
            let want = plain_count(&text);
            proptest::prop_assert_eq!(count_words(&text), want, "{:?}", text);
            // The tally, fed the byte-class masks of every 64 bytes, counts the same.
            proptest::prop_assert_eq!(tally_count(&text), want, "{:?}", text);
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
}
