//! The reading skeleton: a text folded to the letters and digits a reader takes it for.
//!
//! A model reads `ᴇɴᴅ`, `ＥＮＤ`, `Ǝ N D`, `3ND`, `Ꭼ𝐍Ｄ` and `E\u{200B}N\u{0}D` all as "END".
//! The skeleton folds every such form to the same lowercase string, so a check that matches
//! the skeleton matches every reading, and keeps for each skeleton character the byte range
//! of the original character it came from and whether it starts a word.
//!
//! Per character of the text:
//! 1. controls (other than the line-break and tab controls), format characters (zero-width,
//!    bidi, TAG, variation selectors, U+FFFC), combining marks and unassigned or private-use
//!    code points are *dropped*: they give nothing and do not end a word;
//! 2. the compatibility decomposition (NFKD, the half of NFKC that matters per character) is
//!    applied: fullwidth, small, circled, mathematical forms and ligatures become plain letters;
//! 3. each letter or digit is read as the Latin letter it imitates: through `decancer`
//!    (look-alikes, small capitals, Cherokee, Lisu, stroke letters, enclosed and
//!    negative-squared letters, turned letters), or, where `decancer` has no Latin reading,
//!    through its UTS #39 confusables prototype (`unicode-security`); a short hand table covers
//!    what both lack (`HAND`, written into the generated table). A reading as a digit is
//!    taken only from a numeric character (`decancer` reads `日` as `8`). Both crates run when the table in `skeleton/table.rs` is
//!    generated, not at run time (see `table_matches_the_crates`): `decancer` implements
//!    `Add<Translation> for String`, which would break `string + &other` in every crate that
//!    links it;
//! 4. the result is lowercased; `l` is read as `i` (`I`, `l`, `1` and `|`-like letters are one
//!    shape in many fonts); the leet digits and symbols `0 1 3 4 5 7 $ @` become `o i e a s t s a`;
//! 5. only letters and digits are kept. Anything else that is visible (spaces, line breaks,
//!    punctuation, symbols, emoji) gives nothing and *ends a word*.
//!
//! A skeleton character starts a word when the previous visible character gave no letter or
//! digit, and a Latin letter or digit also starts one after a character read only as letters
//! of another script (Chinese and Japanese put Latin words between ideographs without a
//! space). The folding is per character, so the skeleton of a concatenation is the
//! concatenation of the skeletons: what lets the fence neutralise in one pass.
//!
//! [`Skeleton::new`] gives the folded string with a map back to the original: the detector
//! builds it once per text, the fence asks it whether a marker word is there at all, and the
//! disguised-phrase check (`obfuscated`) searches it ([`fold`] a phrase the same way). The
//! fence's cleaning pass reads characters one by one through [`with_reader`].

mod table;

use std::cell::{OnceCell, RefCell};
use std::ops::Range;

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

use crate::byte_class::{self, GROUP};
use crate::normalize::invisible;

/// Bytes of folded letters one character can give; longer readings (a few Arabic ligatures
/// that decompose to a dozen letters) keep their first letters.
const LETTERS_MAX: usize = 14;

/// What one character of a text gives the skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Nothing, and the word goes on: controls, format characters, combining marks,
    /// unassigned and private-use code points.
    Dropped,
    /// Nothing, and the word ends: whitespace, line breaks, punctuation, symbols.
    Separator,
    /// Folded letters and digits.
    Letters(Letters),
}

/// Up to [`LETTERS_MAX`] bytes of folded letters and digits (UTF-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Letters {
    len: u8,
    bytes: [u8; LETTERS_MAX],
}

impl Letters {
    const EMPTY: Letters = Letters {
        len: 0,
        bytes: [0; LETTERS_MAX],
    };

    /// The letters as a string.
    pub(crate) fn as_str(&self) -> &str {
        // Only whole chars are pushed, so the bytes are always UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }

    fn push(&mut self, c: char) {
        let at = usize::from(self.len);
        if at + c.len_utf8() <= LETTERS_MAX {
            c.encode_utf8(&mut self.bytes[at..]);
            self.len += c.len_utf8() as u8;
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    fn is_ascii(&self) -> bool {
        self.as_bytes().is_ascii()
    }
}

/// [`ascii_reading`]'s code for a separator.
pub(crate) const ASCII_SEPARATOR: u8 = 0;
/// [`ascii_reading`]'s code for a dropped byte.
pub(crate) const ASCII_DROPPED: u8 = 1;

const fn ascii_table() -> [u8; 128] {
    let mut t = [ASCII_SEPARATOR; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = match c {
            b'a'..=b'z' => c,
            b'A'..=b'Z' => c + 32,
            b'0' => b'o',
            b'1' => b'i',
            b'3' => b'e',
            b'4' => b'a',
            b'5' => b's',
            b'7' => b't',
            b'2' | b'6' | b'8' | b'9' => c,
            b'$' => b's',
            b'@' => b'a',
            // Tab and the line breaks (LF, VT, FF, CR and the file, group and record
            // separators that Python's `splitlines` splits on) separate words.
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | 0x1C..=0x1E => ASCII_SEPARATOR,
            0x00..=0x1F | 0x7F => ASCII_DROPPED,
            _ => ASCII_SEPARATOR,
        };
        if t[b] == b'l' {
            t[b] = b'i';
        }
        b += 1;
    }
    t
}

static ASCII: [u8; 128] = ascii_table();

/// The reading of an ASCII byte: its folded letter, [`ASCII_SEPARATOR`] or [`ASCII_DROPPED`].
#[inline(always)]
pub(crate) fn ascii_reading(b: u8) -> u8 {
    ASCII[usize::from(b & 0x7F)]
}

/// Readings that neither `decancer` nor the UTS #39 prototypes give, each tested to add
/// something (`hand_entries_add_to_the_crates`).
// Read by the generator of `skeleton/table.rs` (a test), which writes these entries into it.
#[cfg(test)]
pub(crate) const HAND: &[(char, &str)] = &[
    // Turned and reversed small e: `decancer` reads them as `a` and `9`, UTS #39 has no
    // Latin prototype for them; their capital `Ǝ` reads as `e` (through the leet `3`).
    ('ǝ', "e"),
    ('ɘ', "e"),
];

/// Whether `c` is a control character the fence removes (C0 other than tab and line breaks,
/// DEL, C1 other than NEL) or the object replacement character.
pub(crate) fn is_removed_control(c: char) -> bool {
    match c {
        '\u{0}'..='\u{7F}' => ascii_reading(c as u8) == ASCII_DROPPED,
        '\u{85}' => false,
        '\u{80}'..='\u{9F}' | '\u{FFFC}' => true,
        _ => false,
    }
}

/// Whether `c` is a line break other than `\n` (Unicode's mandatory breaks and whatever
/// Python's `str.splitlines` splits on).
pub(crate) fn is_other_line_break(c: char) -> bool {
    matches!(
        c,
        '\r' | '\u{0B}'
            | '\u{0C}'
            | '\u{1C}'
            | '\u{1D}'
            | '\u{1E}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// The generated reading of `c`, if it differs from [`default_reading`]: `Some("")` for a
/// code point that is dropped (unassigned, private use).
fn table_reading(c: char) -> Option<&'static str> {
    let cp = c as u32;
    let i = table::READINGS.partition_point(|&(start, _, _)| start <= cp);
    let &(start, end, reading) = table::READINGS.get(i.checked_sub(1)?)?;
    (start <= cp && cp <= end).then_some(reading)
}

/// The reading of a non-ASCII character without the table: NFKD, then per piece the ASCII
/// reading, nothing for a combining mark or invisible character, the lowercase letter for a
/// letter or digit, and a separator for anything else.
fn default_reading(c: char) -> Reading {
    let mut letters = Letters::EMPTY;
    let mut separator = false;
    decompose_compatible(c, |d| {
        if d.is_ascii() {
            match ascii_reading(d as u8) {
                ASCII_SEPARATOR => separator = true,
                ASCII_DROPPED => {}
                r => letters.push(char::from(r)),
            }
        } else if is_combining_mark(d) || invisible(d).is_some() {
        } else if d.is_alphanumeric() {
            d.to_lowercase()
                .filter(|l| l.is_alphanumeric())
                .for_each(|l| letters.push(l));
        } else {
            separator = true;
        }
    });
    if !letters.is_empty() {
        Reading::Letters(letters)
    } else if separator {
        Reading::Separator
    } else {
        Reading::Dropped
    }
}

/// The reading of a non-ASCII character, computed (see [`Reader`] for the cached one).
fn compute(c: char) -> Reading {
    if is_removed_control(c) || is_combining_mark(c) || invisible(c).is_some() {
        return Reading::Dropped;
    }
    if c.is_whitespace() {
        return Reading::Separator;
    }
    match table_reading(c) {
        Some("") => Reading::Dropped,
        Some(s) => {
            let mut letters = Letters::EMPTY;
            s.chars().for_each(|l| letters.push(l));
            Reading::Letters(letters)
        }
        None => default_reading(c),
    }
}

const CACHE_SLOTS: usize = 1024;

/// Readings of recently seen non-ASCII characters, direct-mapped: a ticket uses few distinct
/// characters, and computing one costs about a hundred nanoseconds.
struct Cache {
    keys: Vec<u32>,
    values: Vec<Reading>,
}

impl Cache {
    fn new() -> Self {
        Cache {
            // No char is `u32::MAX`, so every slot starts empty.
            keys: vec![u32::MAX; CACHE_SLOTS],
            values: vec![Reading::Dropped; CACHE_SLOTS],
        }
    }
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

/// Reads characters through this thread's cache; see [`with_reader`].
pub(crate) struct Reader<'c> {
    cache: &'c mut Cache,
}

impl Reader<'_> {
    /// The reading of `c`.
    #[inline]
    pub(crate) fn read(&mut self, c: char) -> Reading {
        if c.is_ascii() {
            return match ascii_reading(c as u8) {
                ASCII_SEPARATOR => Reading::Separator,
                ASCII_DROPPED => Reading::Dropped,
                r => {
                    let mut l = Letters::EMPTY;
                    l.push(char::from(r));
                    Reading::Letters(l)
                }
            };
        }
        let key = c as u32;
        let slot = (key ^ (key >> 10)) as usize % CACHE_SLOTS;
        if self.cache.keys[slot] == key {
            return self.cache.values[slot];
        }
        let r = compute(c);
        self.cache.keys[slot] = key;
        self.cache.values[slot] = r;
        r
    }
}

/// Runs `f` with a [`Reader`] on this thread's cache (a fresh cache if it is in use).
pub(crate) fn with_reader<R>(f: impl FnOnce(&mut Reader<'_>) -> R) -> R {
    CACHE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut guard) => {
            let cache = guard.get_or_insert_with(Cache::new);
            f(&mut Reader { cache })
        }
        Err(_) => f(&mut Reader {
            cache: &mut Cache::new(),
        }),
    })
}

/// What the previous visible character gave, for telling word starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prev {
    /// No letter or digit (or nothing yet).
    Separator,
    /// A Latin letter or digit last.
    Ascii,
    /// A letter of another script last (kept as itself).
    Other,
}

impl Prev {
    /// The state after skeleton character `x`.
    pub(crate) fn of(x: char) -> Prev {
        if x.is_ascii() {
            Prev::Ascii
        } else {
            Prev::Other
        }
    }

    /// Whether skeleton character `x` starts a word after this state: after a separator, or
    /// after a letter of the other kind (Latin against any other script).
    pub(crate) fn starts_word(self, x: char) -> bool {
        self != Prev::of(x)
    }
}

/// The reading skeleton of a text, with a map back to the original.
///
/// Stored per byte of the folded string (no per-character records): whether a word starts
/// there, and, built only when a match asks for it, the offset of the original character it
/// came from. Built for every text the detector reads, so plain ASCII bytes take a table
/// lookup, two stores and no branch.
///
/// ```ignore
/// let s = Skeleton::new("Ｅ N\u{200B}D-uNTRU5TED");
/// assert_eq!(s.as_str(), "enduntrusted");
/// assert!(s.is_word_start(0) && s.is_word_start(1) && !s.is_word_start(3));
/// ```
#[derive(Debug, Clone)]
pub(crate) struct Skeleton<'a> {
    original: &'a str,
    /// Lowercase letters and digits, UTF-8 (whole characters are pushed).
    folded: Vec<u8>,
    /// Word starts and origins, built on the first question about them: a search over
    /// `folded` needs neither, and most texts give it nothing to ask about.
    maps: OnceCell<Maps>,
}

/// Per byte of the folded string: where it came from and whether a word starts there.
#[derive(Debug, Clone, Default)]
struct Maps {
    /// The first byte of a character that starts a word.
    word_start: Vec<bool>,
    /// The byte offset of the original character it came from (several folded bytes can
    /// share one).
    origin: Vec<usize>,
}

/// The folded bytes of a text and, when asked for, their maps.
struct Fold {
    folded: Vec<u8>,
    maps: Option<Maps>,
}

impl Fold {
    fn run(original: &str, with_maps: bool) -> Fold {
        let mut s = Fold {
            folded: Vec::with_capacity(original.len()),
            maps: with_maps.then(|| Maps {
                word_start: Vec::with_capacity(original.len()),
                origin: Vec::with_capacity(original.len()),
            }),
        };
        let bytes = original.as_bytes();
        let mut prev = Prev::Separator;
        let mut i = 0;
        if original.is_ascii() {
            s.push_ascii(bytes, &mut i, &mut prev);
            return s;
        }
        with_reader(|reader| {
            while i < bytes.len() {
                // Dense non-ASCII text (Cyrillic, CJK) has no ASCII between most characters:
                // the call would find an empty run.
                if bytes[i].is_ascii() {
                    s.push_ascii(bytes, &mut i, &mut prev);
                }
                let Some(c) = original.get(i..).and_then(|rest| rest.chars().next()) else {
                    break;
                };
                match reader.read(c) {
                    Reading::Dropped => {}
                    Reading::Separator => prev = Prev::Separator,
                    // Without maps, the letters are all that is kept (`prev` only decides word
                    // starts, which are maps).
                    Reading::Letters(l) if s.maps.is_none() => {
                        s.folded.extend_from_slice(l.as_bytes());
                    }
                    Reading::Letters(l) if l.is_ascii() => {
                        // Latin letters (accented letters, look-alikes): no decoding.
                        for &b in l.as_bytes() {
                            s.folded.push(b);
                            if let Some(maps) = &mut s.maps {
                                maps.word_start.push(prev != Prev::Ascii);
                                maps.origin.push(i);
                            }
                            prev = Prev::Ascii;
                        }
                    }
                    Reading::Letters(l) => {
                        for x in l.as_str().chars() {
                            let at = s.folded.len();
                            let mut utf8 = [0; 4];
                            s.folded
                                .extend_from_slice(x.encode_utf8(&mut utf8).as_bytes());
                            if let Some(maps) = &mut s.maps {
                                maps.word_start.resize(s.folded.len(), false);
                                maps.word_start[at] = prev.starts_word(x);
                                maps.origin.resize(s.folded.len(), i);
                            }
                            prev = Prev::of(x);
                        }
                    }
                }
                i += c.len_utf8();
            }
        });
        s
    }

    /// Folds the ASCII bytes from `*i` up to the next non-ASCII byte (or the end).
    ///
    #[inline]
    fn push_ascii(&mut self, bytes: &[u8], i: &mut usize, prev: &mut Prev) {
        let from = *i;
        let to = from + ascii_prefix_len(&bytes[from..]);
        if to == from {
            return;
        }
        let run = &bytes[from..to];
        if let Some(maps) = &mut self.maps {
            Self::map_ascii(maps, bytes, from, to, *prev);
        }
        if run.len() < SHORT_RUN {
            // The few letters between accented ones: a byte at a time.
            for &b in run {
                match ascii_reading(b) {
                    ASCII_SEPARATOR => *prev = Prev::Separator,
                    ASCII_DROPPED => {}
                    r => {
                        self.folded.push(r);
                        *prev = Prev::Ascii;
                    }
                }
            }
            *i = to;
            return;
        }
        fold_ascii_run(&mut self.folded, run);
        // The last byte that is not dropped decides; a run of dropped bytes changes nothing.
        match run
            .iter()
            .rev()
            .map(|&b| ascii_reading(b))
            .find(|&r| r != ASCII_DROPPED)
        {
            Some(ASCII_SEPARATOR) => *prev = Prev::Separator,
            Some(_) => *prev = Prev::Ascii,
            None => {}
        }
        *i = to;
    }

    /// The maps of the ASCII run `from..to`: a dropped byte (an ASCII control) does not end
    /// a word, a separator does.
    fn map_ascii(maps: &mut Maps, bytes: &[u8], from: usize, to: usize, mut prev: Prev) {
        for (j, &b) in bytes.iter().enumerate().take(to).skip(from) {
            match ascii_reading(b) {
                ASCII_SEPARATOR => prev = Prev::Separator,
                ASCII_DROPPED => {}
                _ => {
                    maps.word_start.push(prev != Prev::Ascii);
                    maps.origin.push(j);
                    prev = Prev::Ascii;
                }
            }
        }
    }
}

/// ASCII runs shorter than this are folded a byte at a time, longer ones as 64-byte groups.
const SHORT_RUN: usize = 24;

/// Appends the folded bytes of the ASCII `run` to `folded`.
///
/// Plain text is most of what the skeleton reads, so this is its hot loop: 64 bytes at a time,
/// the letters are lowercased by vector compares ([`byte_class::skeleton_group`]), the rare
/// digits, `$` and `@` are looked up in the leet table, and each run of kept bytes (about a
/// word) is copied sixteen bytes at a time, where a byte at a time costs three times as much.
fn fold_ascii_run(folded: &mut Vec<u8>, run: &[u8]) {
    folded.reserve(run.len());
    let mut groups = run.chunks_exact(GROUP);
    for group in &mut groups {
        fold_ascii_group(folded, group);
    }
    let rest = groups.remainder();
    if rest.len() < SHORT_RUN {
        // A short rest is cheaper byte by byte than as a padded group.
        for &b in rest {
            let r = ascii_reading(b);
            if r > ASCII_DROPPED {
                folded.push(r);
            }
        }
    } else {
        fold_ascii_group(folded, rest);
    }
}

/// [`fold_ascii_run`] of up to [`GROUP`] bytes.
#[inline(always)]
fn fold_ascii_group(folded: &mut Vec<u8>, chunk: &[u8]) {
    let mut padded = [0u8; GROUP];
    let group: &[u8; GROUP] = match chunk.try_into() {
        Ok(group) => group,
        Err(_) => {
            // Zeros are never kept.
            padded[..chunk.len()].copy_from_slice(chunk);
            &padded
        }
    };
    let mut g = byte_class::skeleton_group(group);
    let mut special = g.looked_up;
    while special != 0 {
        let k = special.trailing_zeros() as usize;
        g.lowered[k] = ascii_reading(group[k]);
        special &= special - 1;
    }
    // The group's kept bytes, gathered here: offsets masked to the group let the compiler
    // drop every bounds check of the copies.
    let mut out = [0u8; GROUP + 16];
    let mut n = 0;
    let mut kept = g.kept;
    while kept != 0 {
        // Adding the lowest set bit carries through the lowest run of ones: the sum's lowest
        // bit is the run's end, and AND-ing with it clears the run (0 past bit 63).
        let past = kept.wrapping_add(kept & kept.wrapping_neg());
        let start = kept.trailing_zeros() as usize;
        let len = past.trailing_zeros() as usize - start;
        let (from, to) = (start & (GROUP - 1), n & (GROUP - 1));
        out[to..to + 16].copy_from_slice(&g.lowered[from..from + 16]);
        let mut k = 16;
        while k < len {
            let (from, to) = ((start + k) & (GROUP - 1), (n + k) & (GROUP - 1));
            out[to..to + 16].copy_from_slice(&g.lowered[from..from + 16]);
            k += 16;
        }
        n += len;
        kept &= past;
    }
    folded.extend_from_slice(&out[..n.min(GROUP)]);
}

/// The length of the ASCII prefix of `bytes`, eight bytes at a time.
fn ascii_prefix_len(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut len = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0x80; 8]));
        let high = word & 0x8080_8080_8080_8080;
        if high != 0 {
            return len + (high.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + chunks
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(chunks.remainder().len())
}

impl<'a> Skeleton<'a> {
    /// Builds the skeleton of `original`.
    pub(crate) fn new(original: &'a str) -> Self {
        Skeleton {
            original,
            folded: Fold::run(original, false).folded,
            maps: OnceCell::new(),
        }
    }

    fn maps(&self) -> &Maps {
        self.maps
            .get_or_init(|| Fold::run(self.original, true).maps.unwrap_or_default())
    }

    fn origin(&self) -> &[usize] {
        &self.maps().origin
    }

    /// The folded string: lowercase letters and digits only.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.folded
    }

    /// The folded string as text.
    #[cfg(test)]
    pub(crate) fn as_str(&self) -> &str {
        // Only whole characters are pushed.
        std::str::from_utf8(&self.folded).unwrap_or("")
    }

    /// The text the skeleton was built from.
    pub(crate) fn original(&self) -> &'a str {
        self.original
    }

    /// Whether a word starts at byte `at` of the folded string.
    pub(crate) fn is_word_start(&self, at: usize) -> bool {
        self.maps().word_start.get(at).copied().unwrap_or(false)
    }

    /// The end of the original character that gave folded byte `at`.
    fn origin_end(&self, at: usize) -> usize {
        let start = self.origin()[at];
        start
            + self
                .original
                .get(start..)
                .and_then(|rest| rest.chars().next())
                .map_or(0, char::len_utf8)
    }

    /// Maps a byte range of the folded string to the range of the original characters it
    /// came from (half-open, on char boundaries). An empty range maps to an empty range at
    /// the original position of the character it stands before.
    pub(crate) fn to_original(&self, range: Range<usize>) -> Range<usize> {
        let start = self
            .origin()
            .get(range.start)
            .copied()
            .unwrap_or(self.original.len());
        if range.end <= range.start || range.start >= self.folded.len() {
            return start..start;
        }
        let last = range.end.min(self.folded.len()) - 1;
        start..self.origin_end(last).max(start)
    }
}

/// The folded string of `text` alone: how a phrase or label is compared with a skeleton.
pub(crate) fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    with_reader(|reader| {
        for c in text.chars() {
            if let Reading::Letters(l) = reader.read(c) {
                out.push_str(l.as_str());
            }
        }
    });
    out
}

#[cfg(test)]
mod generate;

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(c: char) -> String {
        with_reader(|r| match r.read(c) {
            Reading::Letters(l) => l.as_str().to_owned(),
            Reading::Separator => " ".to_owned(),
            Reading::Dropped => String::new(),
        })
    }

    /// Every look-alike class of issue 24 reads as the Latin letter it imitates.
    #[test]
    fn issue_classes_fold_to_latin() {
        for (class, text, want) in [
            ("cherokee", "ᎬᎠᏚᎢᎡ", "edstr"),
            ("lisu", "ꓴꓠꓔꓣꓢꓰꓓꓐꓖꓲ", "untrsedbgi"),
            ("small capitals", "ᴜɴᴛʀꜱᴇᴅʙɢɪ", "untrsedbgi"),
            ("stroke letters", "ĐÐƉɆđɇ", "dddede"),
            ("turned and reversed", "Ǝǝɘ", "eee"),
            ("armenian", "ՍՈՏսո", "unsun"),
            ("enclosed", "🅴🅔🄴ⒺⓔⒺ🅽🅓🆄", "eeeeeendu"),
            ("capital sharp s", "ẞ", "b"),
            ("leet", "0134578$@", "oieast8sa"),
            ("fullwidth and maths", "Ｅ𝐍𝖉", "end"),
            ("cyrillic and greek", "ЕΝТΤ", "entt"),
            ("i and l", "Il1|", "iii"),
        ] {
            assert_eq!(fold(text), want, "{class}: {text}");
        }
    }

    #[test]
    fn dropped_characters_do_not_end_a_word() {
        let s = Skeleton::new("E\u{0}N\u{200B}D\u{301} x");
        assert_eq!(s.as_str(), "endx");
        assert_eq!(s.maps().word_start, [true, false, false, true]);
    }

    /// Chinese and Japanese write Latin words between ideographs without a space.
    #[test]
    fn latin_after_another_script_starts_a_word() {
        let s = Skeleton::new("请END了");
        assert_eq!(s.as_str(), "请end了");
        let starts: Vec<bool> = s
            .as_str()
            .char_indices()
            .map(|(at, _)| s.is_word_start(at))
            .collect();
        assert_eq!(starts, [true, true, false, false, true]);
    }

    /// The per-character reference: each character read through the [`Reader`] alone.
    fn reference(text: &str) -> (String, Vec<bool>, Vec<usize>) {
        let (mut folded, mut starts, mut origin) = (String::new(), Vec::new(), Vec::new());
        let mut prev = Prev::Separator;
        with_reader(|reader| {
            for (i, c) in text.char_indices() {
                match reader.read(c) {
                    Reading::Dropped => {}
                    Reading::Separator => prev = Prev::Separator,
                    Reading::Letters(l) => {
                        for x in l.as_str().chars() {
                            for k in 0..x.len_utf8() {
                                starts.push(k == 0 && prev.starts_word(x));
                                origin.push(i);
                            }
                            folded.push(x);
                            prev = Prev::of(x);
                        }
                    }
                }
            }
        });
        (folded, starts, origin)
    }

    /// The skeleton of `text` (folded bytes, word starts, origins) is the reference's.
    fn agrees_with_reference(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let s = Skeleton::new(text);
        let (folded, starts, origin) = reference(text);
        proptest::prop_assert_eq!(s.as_str(), folded.as_str());
        proptest::prop_assert_eq!(&s.maps().word_start, &starts);
        proptest::prop_assert_eq!(s.origin(), &origin[..]);
        Ok(())
    }

    proptest::proptest! {
        /// The ASCII run loops (with and without dropped bytes) agree with reading each
        /// character on its own.
        #[test]
        fn fast_paths_agree_with_reading_each_char(
            text in "[a-zA-Z0-9$@ _\\-\\n\\t\\x00\\x07\\x1b\\x7féЕ请ᴇ\u{200B}\u{301}]{0,40}"
        ) {
            agrees_with_reference(&text)?;
        }

        /// The same over ASCII texts long enough for whole 64-byte groups, words longer than
        /// sixteen bytes, and runs that cross a group's end.
        #[test]
        fn ascii_groups_agree_with_reading_each_char(
            text in "([a-zA-Z0-9$@]{1,40}[ \\-_.,\\n\\x00\\x7f]{0,3}){0,12}"
        ) {
            agrees_with_reference(&text)?;
        }
    }

    #[test]
    fn separators_end_a_word() {
        for sep in [
            " ", "-", "·", "•", "、", "\u{2800}", "\n", "\u{2028}", "\u{85}", "\r", "❤",
        ] {
            let text = format!("a{sep}b");
            let s = Skeleton::new(&text);
            assert_eq!(s.as_str(), "ab", "{sep:?}");
            assert!(s.is_word_start(1), "{sep:?} does not end a word");
        }
    }

    #[test]
    fn symbols_are_not_letters() {
        // `decancer` reads emoji and the euro sign as letters; a reader does not.
        assert_eq!(reading('❤'), " ");
        assert_eq!(reading('€'), " ");
        assert_eq!(reading('👨'), " ");
    }

    #[test]
    fn controls_and_unassigned_are_dropped() {
        for c in [
            '\u{0}',
            '\u{1B}',
            '\u{7F}',
            '\u{80}',
            '\u{9F}',
            '\u{FFFC}',
            '\u{378}',
            '\u{E000}',
            '\u{FE0F}',
            '\u{E0041}',
            '\u{301}',
        ] {
            assert_eq!(reading(c), "", "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn ordinary_letters_keep_themselves() {
        assert_eq!(fold("Grüße, Zoë! 日本了"), "grubezoe日本了");
        assert!(fold("한국어").chars().all(|c| !c.is_ascii()));
        assert_eq!(fold("ﬁle"), "fiie");
    }

    #[test]
    fn maps_back_to_original_ranges() {
        let text = "x ﬁ ＥＮ\u{200B}Ｄ";
        let s = Skeleton::new(text);
        assert_eq!(s.as_str(), "xfiend");
        assert_eq!(&text[s.to_original(1..3)], "ﬁ");
        assert_eq!(&text[s.to_original(2..3)], "ﬁ");
        assert_eq!(&text[s.to_original(3..6)], "ＥＮ\u{200B}Ｄ");
        assert_eq!(s.to_original(6..6), text.len()..text.len());
        assert!(s.is_word_start(1) && !s.is_word_start(2) && s.is_word_start(3));
    }

    /// Each hand entry reads differently through the crates alone, and as the hand entry says
    /// through the skeleton.
    #[test]
    fn hand_entries_add_to_the_crates() {
        for &(c, want) in HAND {
            assert_ne!(
                generate::by_crates(c).as_deref(),
                Some(want),
                "{c} is read as {want} without the hand entry"
            );
            assert_eq!(reading(c), want);
        }
    }

    #[test]
    fn cache_agrees_with_computing() {
        for c in "日本語 ΑΚΙΑ Ꭼ ᴜ 🅴 ẞ ❤ \u{200B} é"
            .chars()
            .cycle()
            .take(3000)
        {
            let direct = if c.is_ascii() {
                continue;
            } else {
                compute(c)
            };
            assert_eq!(with_reader(|r| r.read(c)), direct, "{c}");
        }
    }
}
