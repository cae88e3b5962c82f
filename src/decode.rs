//! Bounded decoding of encoded runs (base64, hex, percent-encoding) so a credential hidden in
//! an encoded blob is still found.
//!
//! A model can be steered to write a key as `Z2hwX3h4...` instead of `ghp_xx...`. The screener
//! decodes such runs and runs the credential rules over the result; a finding's span covers
//! the encoded run in the original text. Every step is bounded: runs shorter than a minimum are
//! skipped (ordinary words), decoded output that is not mostly printable text is dropped
//! (images, hashes, random keys), each run decodes at most 16 KiB, a text
//! at most 256 KiB and 256 runs, and nested encodings are followed two levels deep.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::byte_class;

/// Shortest base64 run that is decoded (shorter runs are words and ids).
pub(crate) const MIN_BASE64_LEN: usize = 24;
/// Shortest hex run that is decoded.
pub(crate) const MIN_HEX_LEN: usize = 32;
/// Fewest `%XX` escapes that make a run percent-encoded.
pub(crate) const MIN_PERCENT_ESCAPES: usize = 3;
/// Most bytes decoded from one run.
pub(crate) const MAX_DECODED_PER_RUN: usize = 16 * 1024;
/// Most bytes decoded from one text, all runs and levels together.
pub(crate) const MAX_DECODED_TOTAL: usize = 256 * 1024;
/// Most runs decoded from one text.
pub(crate) const MAX_RUNS: usize = 256;
/// Levels of nested encoding followed (base64 of hex of a key is two).
pub(crate) const MAX_DEPTH: usize = 2;

/// An encoding found in text.
///
/// ```
/// assert_eq!(serde_json::to_string(&palisade::Encoding::Base64)?, "\"base64\"");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Encoding {
    /// Standard or URL-safe base64, padded or not.
    Base64,
    /// Hexadecimal, two digits per byte.
    Hex,
    /// URL percent-encoding (`%3A`).
    Percent,
}

impl Encoding {
    /// The snake_case name.
    ///
    /// ```
    /// assert_eq!(palisade::Encoding::Hex.as_str(), "hex");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Base64 => "base64",
            Encoding::Hex => "hex",
            Encoding::Percent => "percent",
        }
    }
}

/// One decoded run: where it is in the text given, how it was encoded, and its text.
///
/// ```
/// let runs = palisade::decode_runs("key: Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFla");
/// assert_eq!(runs[0].decoded(), "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ");
/// assert_eq!(runs[0].span(), 5..45);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecodedRun {
    start: usize,
    end: usize,
    encoding: Encoding,
    depth: usize,
    decoded: String,
}

impl DecodedRun {
    /// Byte range of the encoded run in the text that was searched (for nested runs: the
    /// outermost run).
    ///
    /// ```
    /// let runs = palisade::decode_runs("Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFla");
    /// assert_eq!(runs[0].span(), 0..40);
    /// ```
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The encoding.
    ///
    /// ```
    /// let runs = palisade::decode_runs("Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFla");
    /// assert_eq!(runs[0].encoding(), palisade::Encoding::Base64);
    /// ```
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// 1 for a run in the text itself, 2 for a run inside a decoded run, and so on.
    ///
    /// ```
    /// let runs = palisade::decode_runs("Z2hwX0FCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFla");
    /// assert_eq!(runs[0].depth(), 1);
    /// ```
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The decoded text.
    ///
    /// ```
    /// let runs = palisade::decode_runs("user%3Apass%40host%2Fdb");
    /// assert_eq!(runs[0].decoded(), "user:pass@host/db");
    /// ```
    pub fn decoded(&self) -> &str {
        &self.decoded
    }
}

/// Finds and decodes the encoded runs in `text`, within the limits above. Runs whose decoded
/// bytes are not mostly printable text are left out.
///
/// ```
/// // A git SHA is hex, but decodes to binary: not reported.
/// assert!(palisade::decode_runs("commit 3f786850e387550fdab836ed7e6dc881de23001b").is_empty());
/// ```
pub fn decode_runs(text: &str) -> Vec<DecodedRun> {
    decode_knowing(text, Known::Nothing)
}

/// [`decode_runs`], told where the text's first long run of encoding bytes starts
/// ([`first_long_run`], which the screener needs anyway): every encoded run but a
/// percent-encoded one holds such a run, so a text with none is only looked at around its `%`
/// signs, and one without `%` either not at all.
pub(crate) fn decode_runs_known(text: &str, first_long_run: Option<usize>) -> Vec<DecodedRun> {
    if first_long_run.is_none() && memchr::memchr(b'%', text.as_bytes()).is_none() {
        return Vec::new();
    }
    decode_knowing(text, Known::FirstLongRun(first_long_run))
}

fn decode_knowing(text: &str, known: Known) -> Vec<DecodedRun> {
    let mut out = Vec::new();
    let mut budget = MAX_DECODED_TOTAL;
    collect(text, None, 1, known, &mut budget, &mut out);
    out
}

/// What the caller knows of a text before its encoded runs are looked for.
#[derive(Debug, Clone, Copy)]
enum Known {
    Nothing,
    /// Where its first run of [`SHORTEST_RUN`] encoding bytes starts ([`first_long_run`]).
    FirstLongRun(Option<usize>),
}

/// Decodes the candidate runs of `text` into `out`, and theirs in turn.
fn collect(
    text: &str,
    outer: Option<Range<usize>>,
    depth: usize,
    known: Known,
    budget: &mut usize,
    out: &mut Vec<DecodedRun>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for (range, encoding) in candidate_runs_with(text.as_bytes(), true, known) {
        if out.len() >= MAX_RUNS || *budget == 0 {
            return;
        }
        let limit = MAX_DECODED_PER_RUN.min(*budget);
        let raw = &text.as_bytes()[range.clone()];
        let decoded = match encoding {
            Encoding::Base64 => base64_bytes(raw, limit).unwrap_or_default(),
            Encoding::Hex => decode_hex(raw, limit),
            Encoding::Percent => decode_percent(raw, limit),
        };
        *budget = budget.saturating_sub(decoded.len());
        let Some(decoded) = printable_text(decoded) else {
            continue;
        };
        let span = outer.clone().unwrap_or(range);
        let inner = decoded.clone();
        out.push(DecodedRun {
            start: span.start,
            end: span.end,
            encoding,
            depth,
            decoded,
        });
        collect(&inner, Some(span), depth + 1, Known::Nothing, budget, out);
    }
}

/// The shortest run of encoding bytes that can hold an encoded run other than a percent-encoded
/// one: a base64 run of [`MIN_BASE64_LEN`] bytes may end in two of padding.
pub(crate) const SHORTEST_RUN: usize = MIN_BASE64_LEN - 2;

/// Where the first run of at least [`SHORTEST_RUN`] encoding bytes (see [`is_run_byte`])
/// starts, if the text has one. Support prose has none.
pub(crate) fn first_long_run(bytes: &[u8]) -> Option<usize> {
    next_long_run(bytes, 0, SHORTEST_RUN)
}

/// Whether `b` can be part of a base64 (standard or URL-safe) or hex run.
pub(crate) fn is_run_byte(b: u8) -> bool {
    CLASS[usize::from(b)] != 0
}

const B64: u8 = 1;
const B64URL: u8 = 2;
const HEX: u8 = 4;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        if b.is_ascii_alphanumeric() {
            c |= B64 | B64URL;
        }
        if b == b'+' || b == b'/' {
            c |= B64;
        }
        if b == b'-' || b == b'_' {
            c |= B64URL;
        }
        if b.is_ascii_hexdigit() {
            c |= HEX;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// Maximal runs that look encoded. Ordinary words are too short or lack the character mix.
/// With `may_skip` unset (for a test to compare), every byte is looked at; knowing where the
/// first long run is spares the search for it.
fn candidate_runs_with(
    bytes: &[u8],
    may_skip: bool,
    known: Known,
) -> Vec<(Range<usize>, Encoding)> {
    let mut runs = Vec::new();
    let mut i = 0;
    let n = bytes.len();
    // Only runs of at least [`SHORTEST_RUN`] encoding bytes count, unless they hold a `%`, and prose
    // has few: from a run boundary, a byte `SHORTEST_RUN - 1` on that is no encoding byte rules out
    // every run starting before it, so the scan steps over it whole (a few bytes looked at per
    // word), up to the stretch that holds the next `%`, which is scanned byte by byte.
    let in_stretch = |b: u8| is_run_byte(b) || b == b'%';
    let mut next_percent = 0;
    let mut percent_stretch = 0;
    while i < n {
        if may_skip && (i == 0 || CLASS[bytes[i - 1] as usize] == 0) {
            if next_percent < i {
                next_percent = memchr::memchr(b'%', &bytes[i..]).map_or(n, |p| i + p);
                // Where the stretch of run bytes holding it starts (not before `i`).
                percent_stretch = next_percent;
                while percent_stretch > i && in_stretch(bytes[percent_stretch - 1]) {
                    percent_stretch -= 1;
                }
            }
            // `bytes[percent_stretch - 1]` is no run byte, so a long run before it ends there.
            let long_run = match known {
                Known::FirstLongRun(None) => None,
                // No long run starts before `first`, and it is a whole run: in the slice when
                // it fits (a run ends before `percent_stretch`, whose byte before is no run
                // byte, or past it).
                Known::FirstLongRun(Some(first)) if i <= first => {
                    (first + SHORTEST_RUN <= percent_stretch).then_some(first)
                }
                _ => next_long_run(&bytes[..percent_stretch], i, SHORTEST_RUN),
            };
            match long_run {
                Some(start) => i = start,
                None if percent_stretch >= n => break,
                None => i = i.max(percent_stretch),
            }
        }
        if CLASS[bytes[i] as usize] == 0 && bytes[i] != b'%' {
            i += 1;
            continue;
        }
        // Most runs are ordinary words: measure the run of encoding bytes first and skip it
        // whole when it is too short to be any encoding and holds no `%` (the full scan below
        // could not extend past its end then, so the result is the same).
        let mut j = i;
        let mut percent = false;
        while j < n && (CLASS[bytes[j] as usize] != 0 || bytes[j] == b'%') {
            percent |= bytes[j] == b'%';
            j += 1;
        }
        if !percent && j - i < MIN_BASE64_LEN - 2 {
            i = j;
            continue;
        }
        let start = i;
        let mut all = B64 | B64URL | HEX;
        let mut escapes = 0usize;
        let mut has_digit = false;
        let mut has_upper = false;
        let mut has_lower = false;
        while i < n {
            let b = bytes[i];
            if b == b'%'
                && i + 2 < n
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit()
            {
                escapes += 1;
                all = 0;
                i += 3;
                continue;
            }
            let c = CLASS[b as usize];
            let percent_part = escapes > 0 && (c != 0 || matches!(b, b'.' | b'~'));
            if c & all == 0 && !percent_part {
                break;
            }
            all &= c;
            has_digit |= b.is_ascii_digit();
            has_upper |= b.is_ascii_uppercase();
            has_lower |= b.is_ascii_lowercase();
            i += 1;
        }
        // Base64 padding belongs to the run.
        let mut end = i;
        if all & B64 != 0 {
            while end < n && end - i < 2 && bytes[end] == b'=' {
                end += 1;
            }
        }
        let len = end - start;
        if escapes >= MIN_PERCENT_ESCAPES {
            runs.push((start..end, Encoding::Percent));
        } else if all & HEX != 0 && len >= MIN_HEX_LEN && len % 2 == 0 && has_digit {
            runs.push((start..end, Encoding::Hex));
        } else if all & (B64 | B64URL) != 0
            && len >= MIN_BASE64_LEN
            && u8::from(has_upper) + u8::from(has_lower) + u8::from(has_digit) >= 2
        {
            runs.push((start..end, Encoding::Base64));
        }
        i = end.max(start + 1);
    }
    runs
}

/// The start of the first run of at least `len` (1 to 64) encoding bytes at or after `from`
/// (only the bytes from `from` on count).
///
/// Encoding bytes are printable ASCII, so such a run lies inside a run of at least `len`
/// printable bytes. Those are found 64 bytes at a time from one cheap mask
/// ([`byte_class::first_run`]), and only they are read byte by byte. Prose, whose words are
/// short and spaced, has few.
fn next_long_run(bytes: &[u8], from: usize, len: usize) -> Option<usize> {
    let mut at = from;
    while let Some(run) = byte_class::first_run(bytes, at, len, byte_class::printable_mask) {
        let end = bytes[run..]
            .iter()
            .position(|&b| !b.is_ascii_graphic())
            .map_or(bytes.len(), |p| run + p);
        let mut start = run;
        for (k, &b) in bytes.iter().enumerate().take(end).skip(run) {
            if !is_run_byte(b) {
                start = k + 1;
            } else if k + 1 - start >= len {
                return Some(start);
            }
        }
        // The byte at `end` is not printable: no run reaches across it.
        at = end;
    }
    None
}

/// Decodes base64 (standard or URL-safe, padded or not) up to `limit` output bytes. Stops at
/// `=`; any other byte outside the alphabets makes it `None`.
pub(crate) fn base64_bytes(raw: &[u8], limit: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity((raw.len() * 3 / 4).min(limit));
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &b in raw {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
            if out.len() >= limit {
                break;
            }
        }
    }
    Some(out)
}

fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

fn decode_hex(raw: &[u8], limit: usize) -> Vec<u8> {
    raw.chunks_exact(2)
        .take(limit)
        .map(|p| hex_value(p[0]) << 4 | hex_value(p[1]))
        .collect()
}

fn decode_percent(raw: &[u8], limit: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len().min(limit));
    let mut i = 0;
    while i < raw.len() && out.len() < limit {
        if raw[i] == b'%' && i + 2 < raw.len() {
            out.push(hex_value(raw[i + 1]) << 4 | hex_value(raw[i + 2]));
            i += 3;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

/// The decoded bytes as text, if they are valid UTF-8 and at least 90% printable.
fn printable_text(bytes: Vec<u8>) -> Option<String> {
    if bytes.len() < 8 {
        return None;
    }
    let text = String::from_utf8(bytes).ok()?;
    let total = text.chars().count();
    let printable = text
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
        .count();
    (printable * 10 >= total * 9).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts mixing hex, base64 and URL-safe base64 runs, padding, punctuation, `%` escapes,
    /// non-ASCII letters, and whole base64- and percent-encoded words that decode.
    fn encoded_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy as _;
        proptest::collection::vec(
            proptest::prop_oneof![
                "[a-f0-9]{1,40}",
                "[A-Za-z0-9+/]{1,40}",
                "[A-Za-z0-9_-]{1,40}",
                "={1,3}",
                "[ .,:\n]{1,3}",
                "%[0-9A-F]{2}",
                "%",
                "[.~]",
                "[é\u{a0}ü]{1,2}",
                "[A-Za-z .]{8,30}".prop_map(|s| b64(&s)),
                "[A-Za-z]{8,16}"
                    .prop_map(|s| { s.bytes().map(|b| format!("%{b:02X}")).collect::<String>() }),
            ],
            0..12,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest::proptest! {
        /// Stepping over short runs finds exactly the runs the byte-by-byte scan finds.
        #[test]
        fn skipping_finds_the_same_runs(text in encoded_text()) {
            proptest::prop_assert_eq!(
                candidate_runs_with(text.as_bytes(), true, Known::Nothing),
                candidate_runs_with(text.as_bytes(), false, Known::Nothing)
            );
        }
    }

    /// Where the first run of at least [`SHORTEST_RUN`] encoding bytes starts, a byte at a time.
    fn first_long_run_by_bytes(bytes: &[u8]) -> Option<usize> {
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if !is_run_byte(b) {
                start = i + 1;
            } else if i + 1 - start >= SHORTEST_RUN {
                return Some(start);
            }
        }
        None
    }

    proptest::proptest! {
        /// The long-run search agrees with a byte-at-a-time one, and knowing its answer leaves
        /// the decoded runs unchanged.
        #[test]
        fn known_long_run_changes_nothing(text in encoded_text()) {
            let first = first_long_run(text.as_bytes());
            proptest::prop_assert_eq!(first, first_long_run_by_bytes(text.as_bytes()));
            proptest::prop_assert_eq!(decode_runs_known(&text, first), decode_runs(&text));
        }
    }

    proptest::proptest! {
        /// The search from any offset, for any run length, agrees with a byte-at-a-time one.
        #[test]
        fn next_long_run_matches_bytes(
            text in proptest::collection::vec(proptest::sample::select(b"aZ9+/-_ .\x00\xC3=%".to_vec()), 0..300),
            from in 0usize..300,
            len in 1usize..=64,
        ) {
            let from = from.min(text.len());
            let want = (from..text.len()).find(|&s| {
                text.get(s..s + len).is_some_and(|w| w.iter().all(|&b| is_run_byte(b)))
            });
            proptest::prop_assert_eq!(next_long_run(&text, from, len), want);
        }
    }

    pub(super) fn b64(s: &str) -> String {
        const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in s.as_bytes().chunks(3) {
            let n =
                chunk.iter().fold(0u32, |a, &b| a << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
            for k in 0..=chunk.len() {
                out.push(T[((n >> (18 - 6 * k)) & 63) as usize] as char);
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        out
    }

    #[test]
    fn decodes_base64_hex_and_percent() {
        let key = "AKIAQWERTYUIOPASDFGH and more text";
        let text = format!("blob {} end", b64(key));
        let runs = decode_runs(&text);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].decoded(), key);
        assert_eq!(&text[runs[0].span()], b64(key));

        let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
        let runs = decode_runs(&hex);
        assert_eq!(runs[0].encoding(), Encoding::Hex);
        assert_eq!(runs[0].decoded(), key);

        let runs = decode_runs("url=https%3A%2F%2Fu%3Ap%40host.example");
        assert_eq!(runs[0].decoded(), "https://u:p@host.example");
    }

    #[test]
    fn nested_encodings_are_followed_to_the_depth_limit() {
        let inner: String = "secret text here!"
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect();
        let outer = b64(&inner);
        let runs = decode_runs(&outer);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].decoded(), "secret text here!");
        assert_eq!(runs[1].depth(), 2);
        assert_eq!(runs[1].span(), 0..outer.len());
        let three = b64(&b64(&inner));
        assert!(decode_runs(&three).iter().all(|r| r.depth() <= MAX_DEPTH));
    }

    #[test]
    fn prose_hashes_and_images_are_skipped() {
        assert!(
            decode_runs("Thanks for reaching out about your internationalization question.")
                .is_empty()
        );
        assert!(
            decode_runs("sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
                .is_empty()
        );
        let png = b64("\u{89}PNG\r\n\u{1a}\n\0\0\0\rIHDR\0\0\0\u{1}");
        assert!(decode_runs(&format!("![img](data:image/png;base64,{png})")).is_empty());
    }

    #[test]
    fn output_is_bounded() {
        let big = b64(&"k".repeat(100_000));
        let runs = decode_runs(&big);
        assert!(runs.iter().map(|r| r.decoded().len()).sum::<usize>() <= MAX_DECODED_TOTAL);
        assert!(runs[0].decoded().len() <= MAX_DECODED_PER_RUN);
        let many = (0..1000)
            .map(|_| b64("a readable sentence"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(decode_runs(&many).len() <= MAX_RUNS);
    }
}
