//! The literal prefilter: every occurrence of every keyword and anchor literal, ASCII
//! case-insensitively and with a newline taken for a space (the view's two whitespace bytes:
//! a pattern's `\s` then needs one literal where it needed one per byte), in one pass over the
//! view.
//!
//! An Aho-Corasick automaton over a few thousand literals walks a transition table too large
//! for the L1 cache and runs several times slower than this filter (`docs/performance.md`), even
//! on text where no literal occurs. This
//! filter instead tests an offset against bitmaps of hashed prefixes (8 to 16 KiB each, so
//! they stay in L1): first the *gate*, a word per hash of the first three bytes holding a bit
//! per fourth byte, which turns most offsets away with one test (a literal of three bytes sets
//! its whole word); then, by literal length, the whole three-byte literal, the four-byte prefix
//! of a literal of four to seven bytes, or the eight-byte prefix of a longer one (`your refund`
//! passes the gate as `your` but not this test: the literals that begin `your ` go on `your
//! new`, `your rea`, `your act`...); then it compares the literals bucketed under that
//! length's hash, their first sixteen bytes as two masked words. Literals of one or two bytes
//! pass the gate and this test by their first byte (a two-byte one that starts with a letter
//! or digit, by a bit per pair), then are compared as they are.
//!
//! Most literals need not be tested at every offset. A literal that starts with a letter or
//! digit and is known to matter only at the start of a word (its pattern has `\b`, or a space
//! or punctuation, in front of it) can only be at a *word start*: a letter or digit after a
//! byte that is not one. A literal that starts with any other byte, except whitespace, a
//! control byte or a UTF-8 continuation byte, is looked for at every such byte. Word starts and
//! those bytes are marked 16 at a time (byte operations the compiler turns into vector
//! instructions), so prose (a word start every five or six bytes, spaces between) costs a test
//! per word rather than per byte. The remaining literals
//! (which may begin inside a word, or with whitespace) go into a second table tested at every
//! offset; the embedded rules have none, so that pass does not run for them.
//!
//! The word-start pass runs in stages over blocks of text, each a loop with no branch that
//! depends on the text but one exit per 64 bytes: the offsets to test are taken from a 64-bit
//! mask per 64 bytes and those that pass the gate kept, then those that pass an
//! exact-length bitmap; only those are compared. Testing
//! offset by offset, with a branch after each bitmap, mispredicted at every other word of
//! varied text (a benchmark that repeats one paragraph hides this: the predictor learns it).

/// Bits in the exact-length bitmaps (2^16 bits: 8 KiB each, so they stay in L1).
const BITS: u32 = 16;
use super::anchor::best_probe_offset;

/// One in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a word.
const HIGH: u64 = ONES * 0x80;
/// Every bit of a word but the high bit of each byte.
const LOW7: u64 = !HIGH;

use std::sync::Arc;

use crate::byte_class::{self, GROUP, WordMasks, word_masks};

/// A byte as literals are compared: ASCII lower case, a newline as a space.
fn fold_byte(b: u8) -> u8 {
    if b == b'\n' {
        b' '
    } else {
        b.to_ascii_lowercase()
    }
}

/// Whether `text` equals `literal` (already folded by [`fold_byte`]) once folded.
fn eq_folded(text: &[u8], literal: &[u8]) -> bool {
    text.len() == literal.len() && text.iter().zip(literal).all(|(&t, &l)| fold_byte(t) == l)
}

/// Eight bytes with every newline turned into a space.
fn newlines_to_spaces(word: u64) -> u64 {
    let t = word ^ (ONES * u64::from(b'\n'));
    // The high bit of every byte of `t` that is not zero (no carries between bytes).
    let nonzero = ((t & LOW7).wrapping_add(LOW7) | t) & HIGH;
    word ^ (((!nonzero & HIGH) >> 7) * u64::from(b'\n' ^ b' '))
}

/// Eight bytes with the ASCII upper-case letters lower-cased and nothing else changed.
fn lowercase8(word: u64) -> u64 {
    let x = word & LOW7;
    // Per byte (no carries: every byte is below 0x80 here): high bit set when >= 'A', and
    // when > 'Z'.
    let ge_a = x.wrapping_add(ONES * u64::from(0x80 - b'A'));
    let gt_z = x.wrapping_add(ONES * u64::from(0x80 - b'Z' - 1));
    let upper = ge_a & !gt_z & !word & HIGH;
    word | (upper >> 2)
}

/// The probe offsets of group `k` (bytes `64 k..64 k + 64`) of a block of `len` bytes held in
/// `window` (zeros after the text): a letter or digit after a byte that is not one, or any
/// other byte but whitespace, control bytes and UTF-8 continuation bytes (10xxxxxx); none at
/// or past `len`. `prev_alnum` says whether the byte before the group is a letter or digit,
/// and is updated for the next group. Also the group's masks, and the mask of its bytes
/// before `len`.
#[inline(always)]
fn probe_mask(
    window: &[u8; WINDOW],
    k: usize,
    len: usize,
    prev_alnum: &mut bool,
) -> (u64, WordMasks, u64) {
    let from = k * GROUP;
    let Some(group) = window
        .get(from..from + GROUP)
        .and_then(|g| <&[u8; GROUP]>::try_from(g).ok())
    else {
        return (0, word_masks(&[0; GROUP]), 0);
    };
    let m = word_masks(group);
    let after_word = (m.alnum << 1) | u64::from(*prev_alnum);
    *prev_alnum = m.alnum >> 63 == 1;
    let probes = (m.alnum & !after_word) | m.other;
    let within = match len - from {
        rest if rest < GROUP => (1u64 << rest) - 1,
        _ => u64::MAX,
    };
    (probes & within, m, within)
}

/// One literal of three bytes or more, ready for the candidate check.
#[derive(Debug)]
struct Entry {
    /// Lower-cased first (up to) eight bytes, and the mask of those that count.
    head: u64,
    mask: u64,
    /// The same for the next eight bytes (a zero mask for a literal of eight or fewer).
    tail: u64,
    tail_mask: u64,
    /// Longer than sixteen bytes: the rest is compared after head and tail.
    long: bool,
    len: u32,
    literal: u32,
    /// Where the hashed part starts in the literal (see [`best_probe_offset`]).
    back: u32,
}

/// A bitmap of `1 << BITS` bits (8 KiB).
type Bitmap = [u64; 1 << (BITS - 6)];

/// What the probe loops of one [`Table`] look up, in one allocation: each bitmap at a fixed
/// offset from one pointer, where boxes of their own took a register each or a reload from the
/// stack per test. Empty, it is all zeros, and `Box::new` of it compiles to a zeroed allocation
/// (a whole table built on the stack and moved into a box was copied at every start-up).
#[derive(Debug)]
struct Lookups {
    /// Per hash of the first three bytes ([`gate_word`]) of every literal of three bytes or
    /// more, a bit per fourth byte ([`gate_bit`]), or every bit for a literal of three bytes:
    /// one test turns most offsets away before the exact-length tables are looked at. By
    /// three bytes alone, every `your`, `you'll` and `young` went on to those tables for the
    /// literals that begin `you `; by four, the gate lets through about half as many offsets
    /// of prose.
    gate: [u64; 1 << GATE_WORD_BITS],
    /// One bit per hash of a literal of exactly three bytes.
    bits3: Bitmap,
    /// One bit per hash of the folded first four bytes of a literal of four to seven bytes.
    bits4: Bitmap,
    /// One bit per hash of the folded first eight bytes of a literal of eight bytes or more
    /// (most are: the extracted literals are cut there): a word that only begins like one
    /// (`your account` for `your actual`) is let through by neither. Six bytes let `your
    /// r...` through for `your rea`, and every `your refund` reached the candidate check.
    bits8: Bitmap,
    /// Whether a literal of one byte, or of two that starts with a byte other than a letter or
    /// digit, starts with this byte (either case): the gate's test for them, and their
    /// exact-length test too (their few hits are compared in [`Table::short_at`], where a bit
    /// per pair cost every offset through the gate a test). A literal of two bytes in the
    /// gate's words would need one for every third byte, an eighth of them each. The embedded
    /// rules' `!=` and `##` start with bytes rare in prose.
    gate_first: [bool; 256],
    /// [`Self::gate_first`] as words of all ones or none, OR-ed into the gate's word so one bit
    /// test answers for both. Both are set in one place; the exact-length test reads the bool
    /// (testing the word there was slower on prose).
    gate_first_word: [u64; 256],
    /// One bit per folded pair of bytes that a two-byte literal starting with a letter or digit
    /// is (the embedded rules' `cf` and `fb`, looked for where a text has a long run of token
    /// characters): by its first byte, every word starting with `c` or `f` went through the
    /// gate. Tested only by tables that have such a literal (see [`Table::pairs`]).
    pairs: [u64; 1 << (16 - 6)],
}

/// The literals of one probing regime, hashed.
#[derive(Debug)]
struct Table {
    bits: Box<Lookups>,
    /// `bucket_start[h]..bucket_start[h + 1]` indexes `entries` for hash `h`: every literal of
    /// three bytes or more, by the hash its length's bitmap uses (`hash3` of a three-byte one,
    /// `hash4` of four to seven bytes, `hash8` of eight or more). Each literal is in one bucket.
    bucket_start: Vec<u32>,
    entries: Vec<Entry>,
    /// Literals (or suffixes from their probe offset) of one or two bytes, as `(lowercased
    /// first byte, literal index, probe offset)`, sorted.
    short: Vec<(u8, u32, u32)>,
    /// `short[short_start[b]..short_start[b + 1]]` are the entries of first byte `b`: a text
    /// dense with one-byte literals (`[`, `:`) looks each hit's entries up at once.
    short_start: Box<[u32; 257]>,
    /// No literal at all: the pass over the text is skipped.
    empty: bool,
    /// Some literal of two bytes starts with a letter or digit: the gate and the exact-length
    /// test look at [`Lookups::pairs`] too, in a copy of the pass that tables without one do
    /// not run.
    pairs: bool,
}

#[derive(Debug)]
pub(crate) struct LiteralFilter {
    /// Shared with the filters made from this one by [`LiteralFilter::subset`].
    literals: Arc<[Vec<u8>]>,
    /// Per literal: the offset it is looked for from in `at_word_starts` (at 0 and starting
    /// with a letter or digit: found only at word starts), `None` for `anywhere`.
    from: Arc<[Option<usize>]>,
    /// Literals tested at word starts and at bytes other than letters, digits and whitespace.
    at_word_starts: Table,
    /// Literals tested at every offset.
    anywhere: Table,
    /// Some literal is found by a suffix, or at every offset: hits may come out of order.
    out_of_order: bool,
}

/// The mask of the first `n` bytes of a word (all of them from eight on).
fn bytes_mask(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// `bytes` (up to eight) as a little-endian word, zero-padded.
fn word8(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let n = bytes.len().min(8);
    w[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(w)
}

/// Words in the gate's bitmap, as a power of two.
const GATE_WORD_BITS: u32 = 11;

/// The gate's word for an offset whose first bytes are `key`: a hash of its first three bytes
/// (the low ones), folded. Setting the 0x20 bit of every byte lower-cases ASCII letters, and
/// maps some other bytes onto each other too, which only adds candidates (they are compared
/// with [`lowercase8`]). Fibonacci hashing: the high bits of the product spread nearby keys
/// apart.
#[inline(always)]
fn gate_word(key: u32) -> usize {
    (((key << 8) | 0x2020_2000).wrapping_mul(0x27D4_EB2F) >> (32 - GATE_WORD_BITS)) as usize
}

/// The gate's bit in that word: the fourth byte, whose low six bits tell the letters apart
/// (a shift and the bit test's own modulo 64; both cases of a letter are set).
#[inline(always)]
fn gate_bit(key: u32) -> u32 {
    key >> 24
}

/// The hash of four bytes, folded.
#[inline(always)]
fn hash4(key: u32) -> usize {
    ((key | 0x2020_2020).wrapping_mul(0x1656_67B1) >> (32 - BITS)) as usize
}

/// The hash of three bytes for the bitmap of three-byte literals: not the multiplier of
/// [`gate_word`], which hashes the same bytes, or a word whose first three bytes collide with a
/// literal's in the gate would collide in this bitmap too and reach the candidate check every
/// time.
#[inline(always)]
fn hash3(key: u32) -> usize {
    (((key << 8) | 0x2020_2000).wrapping_mul(0x85EB_CA6B) >> (32 - BITS)) as usize
}

/// The first two bytes of `key`, folded as [`gate_word`] folds (an index, no hashing needed).
#[inline(always)]
fn pair(key: u64) -> usize {
    ((key | 0x2020) & 0xFFFF) as usize
}

/// The hash of eight bytes, folded as [`gate_word`] folds.
#[inline(always)]
fn hash8(key: u64) -> usize {
    ((key | 0x2020_2020_2020_2020).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
}

#[inline(always)]
fn test(bits: &Bitmap, h: usize) -> bool {
    (bits[h / 64] >> (h % 64)) & 1 != 0
}

impl Table {
    /// A table of `literals[i][back..]` for every `(i, back)` in `chosen`.
    fn new(literals: &[Vec<u8>], chosen: impl Iterator<Item = (usize, usize)>) -> Self {
        let mut by_hash: Vec<(usize, Entry)> = Vec::new();
        let mut bits = Box::new(Lookups {
            gate: [0; 1 << GATE_WORD_BITS],
            bits3: [0; 1 << (BITS - 6)],
            bits4: [0; 1 << (BITS - 6)],
            bits8: [0; 1 << (BITS - 6)],
            gate_first: [false; 256],
            gate_first_word: [0; 256],
            pairs: [0; 1 << (16 - 6)],
        });
        let mut pairs = false;
        let mut short = Vec::new();
        let mut empty = true;
        for (i, back) in chosen {
            let lit = &literals[i][back..];
            let i = i as u32;
            let back = back as u32;
            match lit.len() {
                0 => {}
                1 | 2 => {
                    empty = false;
                    let first = lit[0];
                    if let [a, b] = lit[..]
                        && a.is_ascii_alphanumeric()
                    {
                        let h = pair(u64::from(a) | u64::from(b) << 8);
                        bits.pairs[h / 64] |= 1 << (h % 64);
                        pairs = true;
                    } else {
                        for b in [first.to_ascii_lowercase(), first.to_ascii_uppercase()] {
                            bits.gate_first[usize::from(b)] = true;
                            bits.gate_first_word[usize::from(b)] = u64::MAX;
                        }
                    }
                    short.push((first.to_ascii_lowercase(), i, back));
                }
                n => {
                    empty = false;
                    let head = lowercase8(word8(lit));
                    let mask = bytes_mask(n);
                    let (tail, tail_mask) = match lit.get(8..) {
                        Some(rest) => (lowercase8(word8(rest)), bytes_mask(rest.len())),
                        None => (0, 0),
                    };
                    let (exact, h) = match n {
                        3 => (&mut bits.bits3, hash3(head as u32)),
                        4..=7 => (&mut bits.bits4, hash4(head as u32)),
                        _ => (&mut bits.bits8, hash8(head)),
                    };
                    exact[h / 64] |= 1 << (h % 64);
                    let w = gate_word(head as u32);
                    bits.gate[w] |= if n == 3 {
                        u64::MAX
                    } else {
                        let fourth = lit[3];
                        (1 << (fourth.to_ascii_lowercase() % 64))
                            | (1 << (fourth.to_ascii_uppercase() % 64))
                    };
                    // Bucketed by the hash its length's bitmap uses, so a candidate compares
                    // the few literals of that exact prefix rather than every literal sharing
                    // three bytes (`you` starts dozens).
                    by_hash.push((
                        h,
                        Entry {
                            head: head & mask,
                            mask,
                            tail: tail & tail_mask,
                            tail_mask,
                            long: n > 16,
                            len: n as u32,
                            literal: i,
                            back,
                        },
                    ));
                }
            }
        }
        by_hash.sort_unstable_by_key(|(h, e)| (*h, e.literal));
        short.sort_unstable();
        let mut short_start = Box::new([0u32; 257]);
        for &(b, _, _) in &short {
            short_start[usize::from(b) + 1] += 1;
        }
        for b in 0..256 {
            short_start[b + 1] += short_start[b];
        }
        // No bucket is looked at in a table without such literals (no length bitmap has a bit
        // set), which spares the CLI 256 KiB of zeros for every table it never uses.
        let buckets = if by_hash.is_empty() {
            0
        } else {
            (1usize << BITS) + 1
        };
        let mut bucket_start = vec![0u32; buckets];
        for (h, _) in &by_hash {
            bucket_start[h + 1] += 1;
        }
        let mut total = 0;
        for start in &mut bucket_start {
            total += *start;
            *start = total;
        }
        Table {
            bits,
            bucket_start,
            entries: by_hash.into_iter().map(|(_, e)| e).collect(),
            short,
            short_start,
            empty,
            pairs,
        }
    }

    /// Whether a literal may start where the eight bytes are `key`, by its first four bytes
    /// (three for a literal of three, the first for one of one or two): most offsets stop here.
    #[inline(always)]
    fn gate(&self, key: u64) -> bool {
        if self.pairs {
            self.gate_bit::<true>(key) != 0
        } else {
            self.gate_bit::<false>(key) != 0
        }
    }

    /// [`Self::gate`] as a bit, one or zero, with [`Lookups::pairs`] looked at when `PAIRS`.
    #[inline(always)]
    fn gate_bit<const PAIRS: bool>(&self, key: u64) -> usize {
        let k = key as u32;
        let word = self.bits.gate[gate_word(k)] | self.bits.gate_first_word[(key & 0xFF) as usize];
        let bit = ((word >> (gate_bit(k) % 64)) & 1) as usize;
        if PAIRS {
            bit | usize::from(test(&self.bits.pairs, pair(key)))
        } else {
            bit
        }
    }

    /// Which exact-length bitmaps let a literal start where the eight bytes are `key`:
    /// [`EIGHT`] (eight bytes or more), [`FOUR`] (four to seven), [`THREE`], [`SHORT`] (one or
    /// two); zero for none.
    #[inline(always)]
    fn lengths<const PAIRS: bool>(&self, key: u64) -> u32 {
        let k = key as u32;
        // A literal of one or two bytes may start here: [`Table::short_at`] tells.
        let short = self.bits.gate_first[(key & 0xFF) as usize]
            || (PAIRS && test(&self.bits.pairs, pair(key)));
        (u32::from(test(&self.bits.bits8, hash8(key))) * EIGHT)
            | (u32::from(test(&self.bits.bits4, hash4(k))) * FOUR)
            | (u32::from(test(&self.bits.bits3, hash3(k))) * THREE)
            | (u32::from(short) * SHORT)
    }

    /// Tests offset `i`, whose eight bytes (zeros past the end) are `key`.
    #[inline(always)]
    fn probe(
        &self,
        literals: &[Vec<u8>],
        hay: &[u8],
        i: usize,
        key: u64,
        hit: &mut impl FnMut(usize, usize),
    ) {
        if !self.gate(key) {
            return;
        }
        let lengths = if self.pairs {
            self.lengths::<true>(key)
        } else {
            self.lengths::<false>(key)
        };
        if lengths != 0 {
            let keys = (key, key_at(hay, i + 8));
            self.candidate(literals, hay, i, keys, lengths, hit);
        }
    }

    /// The slow path at an offset the bitmaps let through: `keys` are the eight bytes there
    /// and the eight after (zeros past the end), `lengths` the bitmaps that passed. Inlined
    /// into the loop over those offsets, which has registers to spare: a call saved and
    /// restored six per offset.
    #[inline(always)]
    fn candidate(
        &self,
        literals: &[Vec<u8>],
        hay: &[u8],
        at: usize,
        keys: (u64, u64),
        lengths: u32,
        hit: &mut impl FnMut(usize, usize),
    ) {
        let (key, next) = keys;
        // Not for a one-byte literal's hit alone (a text dense with `[` or `:` has one at
        // every few bytes).
        if lengths & !SHORT != 0 {
            let lower = (lowercase8(key), lowercase8(next));
            let h8 = (lengths & EIGHT != 0).then(|| hash8(key));
            let h4 = (lengths & FOUR != 0).then(|| hash4(key as u32));
            let h3 = (lengths & THREE != 0).then(|| hash3(key as u32));
            // Each bucket once, as two lengths' hashes may name the same one.
            if let Some(h) = h8 {
                self.bucket_at(literals, hay, at, lower, h, hit);
            }
            if let Some(h) = h4.filter(|&h| Some(h) != h8) {
                self.bucket_at(literals, hay, at, lower, h, hit);
            }
            if let Some(h) = h3.filter(|&h| Some(h) != h8 && Some(h) != h4) {
                self.bucket_at(literals, hay, at, lower, h, hit);
            }
        }
        if lengths & SHORT != 0 {
            self.short_at(literals, hay, at, hit);
        }
    }

    #[inline(always)]
    fn bucket_at(
        &self,
        literals: &[Vec<u8>],
        hay: &[u8],
        at: usize,
        lower: (u64, u64),
        h: usize,
        hit: &mut impl FnMut(usize, usize),
    ) {
        let bucket = self.bucket_start[h] as usize..self.bucket_start[h + 1] as usize;
        for e in &self.entries[bucket] {
            if lower.0 & e.mask != e.head
                || lower.1 & e.tail_mask != e.tail
                || at + e.len as usize > hay.len()
            {
                continue;
            }
            let lit = e.literal as usize;
            let l = &literals[lit];
            let back = e.back as usize;
            if e.long && !eq_folded(&hay[at + 16..at + l.len() - back], &l[back + 16..]) {
                continue;
            }
            if back > 0 && !starts_before(hay, at, &l[..back]) {
                continue;
            }
            hit(lit, at - back);
        }
    }

    fn short_at(
        &self,
        literals: &[Vec<u8>],
        hay: &[u8],
        at: usize,
        hit: &mut impl FnMut(usize, usize),
    ) {
        let first = fold_byte(hay[at]);
        let entries = self.short_start[usize::from(first)] as usize
            ..self.short_start[usize::from(first) + 1] as usize;
        for &(_, lit, back) in &self.short[entries] {
            let lit = lit as usize;
            let back = back as usize;
            let l = &literals[lit];
            if hay
                .get(at..at + l.len() - back)
                .is_some_and(|s| eq_folded(s, &l[back..]))
                && starts_before(hay, at, &l[..back])
            {
                hit(lit, at - back);
            }
        }
    }
}

/// The exact-length bitmaps an offset passed ([`Table::lengths`]), as bits.
const SHORT: u32 = 1;
const THREE: u32 = 2;
const FOUR: u32 = 4;
const EIGHT: u32 = 8;
/// Bits the lengths take in a staged offset.
const LENGTH_BITS: u32 = 4;

/// Bytes of text staged at a time by the word-start pass (a multiple of 64; its offset array,
/// 4 KiB, stays in L1).
const STAGE: usize = 1024;
// Offsets within a block are masked with `STAGE - 1` (see `word_start_pass`).
const _: () = assert!(STAGE.is_power_of_two() && STAGE.is_multiple_of(GROUP));
/// A block and what follows it in the window: sixteen bytes for the last offset's keys, and
/// room for the last group to be read whole.
const WINDOW: usize = STAGE + GROUP;
const _: () = assert!(GROUP >= 16);

/// Whether `prefix` (folded) ends right before offset `at` of `hay`, as [`eq_folded`] compares.
fn starts_before(hay: &[u8], at: usize, prefix: &[u8]) -> bool {
    at.checked_sub(prefix.len())
        .is_some_and(|from| eq_folded(&hay[from..at], prefix))
}

/// The eight bytes from offset `i` as a little-endian key, zeros past the end, newlines as
/// spaces.
#[inline(always)]
fn key_at(hay: &[u8], i: usize) -> u64 {
    newlines_to_spaces(match hay.get(i..i + 8) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => word8(&hay[i.min(hay.len())..]),
    })
}

impl LiteralFilter {
    /// A filter over `literals` (ASCII, matched case-insensitively), each with whether it is
    /// needed only where it starts a word (see the module documentation). Empty literals never
    /// match.
    pub(crate) fn new(literals: Vec<(Vec<u8>, bool)>) -> Self {
        let literals: Vec<(Vec<u8>, bool)> = literals
            .into_iter()
            .map(|(l, w)| (l.into_iter().map(fold_byte).collect(), w))
            .collect();
        // Where each literal is looked for from: its start, a later probe offset, or (`None`)
        // every offset.
        let from: Vec<Option<usize>> = literals
            .iter()
            .map(|(l, w)| best_probe_offset(l, *w))
            .collect();
        let literals: Vec<Vec<u8>> = literals.into_iter().map(|(l, _)| l).collect();
        Self::of(literals.into(), from.into(), |_| true)
    }

    /// A filter of the literals `keep` holds, numbered as in this one (the others never match),
    /// without working out again where each is looked for from.
    pub(crate) fn subset(&self, keep: impl Fn(usize) -> bool) -> Self {
        Self::of(Arc::clone(&self.literals), Arc::clone(&self.from), keep)
    }

    fn of(
        literals: Arc<[Vec<u8>]>,
        from: Arc<[Option<usize>]>,
        keep: impl Fn(usize) -> bool,
    ) -> Self {
        let at_word_starts = Table::new(
            &literals,
            from.iter()
                .enumerate()
                .filter(|&(i, _)| keep(i))
                .filter_map(|(i, b)| Some((i, (*b)?))),
        );
        let anywhere = Table::new(
            &literals,
            from.iter()
                .enumerate()
                .filter(|&(i, b)| keep(i) && b.is_none())
                .map(|(i, _)| (i, 0)),
        );
        let out_of_order = from
            .iter()
            .enumerate()
            .any(|(i, b)| keep(i) && b.is_some_and(|b| b > 0));
        LiteralFilter {
            literals,
            from,
            at_word_starts,
            anywhere,
            out_of_order,
        }
    }

    /// [`Self::for_each_hit_and_group`] without the groups, for tests.
    #[cfg(test)]
    pub(crate) fn for_each_hit(
        &self,
        hay: &[u8],
        stage: &mut Vec<u32>,
        hit: impl FnMut(usize, usize),
    ) {
        self.for_each_hit_and_group(hay, stage, hit, |_, _, _| {});
    }

    /// Calls `hit(literal index, start)` for every occurrence of every literal that may
    /// begin anywhere, and for every occurrence at a word start (or at a byte other than a
    /// letter, digit or whitespace) of the others. Hits come in order of start unless
    /// [`Self::out_of_order`] says otherwise.
    /// `stage` is working memory, kept by the caller between calls so none is allocated or
    /// cleared per call.
    ///
    /// Also shows `group(offset, masks, within)` the byte-class masks of every 64 bytes of
    /// `hay` in order (newlines taken for spaces; `within` marks the bytes before the end), if
    /// the pass that makes them runs: the return value says whether it did (it does whenever a
    /// literal is looked for at word starts).
    pub(crate) fn for_each_hit_and_group(
        &self,
        hay: &[u8],
        stage: &mut Vec<u32>,
        mut hit: impl FnMut(usize, usize),
        mut group: impl FnMut(usize, &WordMasks, u64),
    ) -> bool {
        let grouped = !self.at_word_starts.empty;
        if grouped {
            if self.at_word_starts.pairs {
                self.word_start_pass::<true>(hay, stage, &mut hit, &mut group);
            } else {
                self.word_start_pass::<false>(hay, stage, &mut hit, &mut group);
            }
        }
        if !self.anywhere.empty {
            self.every_offset_pass(hay, &mut hit);
        }
        grouped
    }

    /// The literals tested at every offset.
    #[cfg(test)]
    pub(crate) fn anywhere_literals(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .anywhere
            .entries
            .iter()
            .map(|e| e.literal as usize)
            .collect();
        v.extend(self.anywhere.short.iter().map(|&(_, l, _)| l as usize));
        v.sort_unstable();
        v
    }

    #[cfg(test)]
    pub(crate) fn literal(&self, i: usize) -> &[u8] {
        &self.literals[i]
    }

    #[cfg(test)]
    pub(crate) fn literal_count(&self) -> usize {
        self.literals.len()
    }

    /// Every `(literal, start)` the filter must report in `hay`, by brute force, sorted: ASCII
    /// case-insensitively with a newline taken for a space, and a literal looked for from its
    /// first byte, a letter or digit, only where it starts a word.
    #[cfg(test)]
    pub(crate) fn brute_force_hits(&self, hay: &[u8]) -> Vec<(usize, usize)> {
        let fold = |c: &u8| {
            if *c == b'\n' {
                b' '
            } else {
                c.to_ascii_lowercase()
            }
        };
        let mut want = Vec::new();
        for (i, l) in self.literals.iter().enumerate() {
            let needs_start =
                self.from[i] == Some(0) && l.first().is_some_and(u8::is_ascii_alphanumeric);
            for at in 0..hay.len() {
                let starts_word = at == 0 || !hay[at - 1].is_ascii_alphanumeric();
                if !l.is_empty()
                    && (!needs_start || starts_word)
                    && hay
                        .get(at..at + l.len())
                        .is_some_and(|w| w.iter().map(fold).eq(l.iter().map(fold)))
                {
                    want.push((i, at));
                }
            }
        }
        want
    }

    /// Whether hits may come out of order of start: a literal is looked for at every offset
    /// (a second pass), or by a suffix (reported where it starts, up to its length back).
    pub(crate) fn out_of_order(&self) -> bool {
        self.out_of_order || !self.anywhere.empty
    }

    /// Three stages per block of text, each a loop without a branch per offset, so varied
    /// text does not cost a mispredicted branch at every other word: the probe offsets are
    /// marked ([`probe_mask`]), those passing the gate kept, then those
    /// passing an exact-length bitmap; only those reach [`Table::candidate`], in order.
    fn word_start_pass<const PAIRS: bool>(
        &self,
        hay: &[u8],
        stage: &mut Vec<u32>,
        hit: &mut impl FnMut(usize, usize),
        group: &mut impl FnMut(usize, &WordMasks, u64),
    ) {
        let table = &self.at_word_starts;
        // Offsets within the block that pass the gate (a probe per byte at most).
        if stage.len() < STAGE {
            stage.resize(STAGE, 0);
        }
        let kept = &mut stage[..STAGE];
        // The block and the bytes after it, zeros past the end of the text: the keys of its
        // offsets are read from here without a test for the end, and its groups of 64 bytes
        // are classed from here whole.
        let mut window = [0u8; WINDOW];
        let mut block = 0;
        let mut prev_alnum = false;
        while block < hay.len() {
            let end = (block + STAGE).min(hay.len());
            let have = (hay.len() - block).min(WINDOW);
            // Newlines as spaces, as literals are stored, in the copy: a vector compare per
            // sixteen bytes costs less than a search per newline (a call, and a mispredicted
            // branch or two, every few hundred bytes of prose).
            byte_class::copy_newlines_as_spaces(&mut window, &hay[block..block + have]);
            window[have..].fill(0);
            // Offsets in the block are below `STAGE`, a power of two: the mask changes none,
            // and shows the compiler the eight bytes are in the window.
            // `skip` is 0 for an offset's key, 8 for the eight bytes after it.
            let word_at = |at: u32, skip: usize| {
                let at = (at as usize & (STAGE - 1)) + skip;
                let mut word = [0u8; 8];
                word.copy_from_slice(&window[at..at + 8]);
                u64::from_le_bytes(word)
            };
            let key = |at: u32| word_at(at, 0);
            let len = end - block;
            let mut g = 0;
            for k in 0..len.div_ceil(GROUP) {
                let (mut probes, masks, within) = probe_mask(&window, k, len, &mut prev_alnum);
                group(block + k * GROUP, &masks, within);
                let base = (k * GROUP) as u32;
                // One loop per 64 bytes of text: its exit is the only branch on the text, where
                // a loop per word mispredicted at nearly every word of varied prose. Every
                // probe is written; only those through the gate are kept.
                while probes != 0 {
                    let at = base + probes.trailing_zeros();
                    kept[g] = at;
                    g += table.gate_bit::<PAIRS>(key(at));
                    probes &= probes - 1;
                }
            }
            let mut c = 0;
            for k in 0..g {
                let at = kept[k];
                let lengths = table.lengths::<PAIRS>(key(at));
                // The lengths in the low bits, so one array holds offset and lengths.
                kept[c] = at << LENGTH_BITS | lengths;
                c += usize::from(lengths != 0);
            }
            for &entry in &kept[..c] {
                let at = entry >> LENGTH_BITS;
                let keys = (key(at), word_at(at, 8));
                let lengths = entry & ((1 << LENGTH_BITS) - 1);
                table.candidate(&self.literals, hay, block + at as usize, keys, lengths, hit);
            }
            block = end;
        }
    }

    fn every_offset_pass(&self, hay: &[u8], hit: &mut impl FnMut(usize, usize)) {
        let table = &self.anywhere;
        for i in 0..hay.len() {
            table.probe(&self.literals, hay, i, key_at(hay, i), hit);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::LiteralFilter;
    use crate::rules::RuleSet;
    use crate::rules::testkit::{embedded_set, stub_checks};

    /// Every embedded rule (checks that report nothing in place of the client's: the literals
    /// of their anchor words are tested by the client, see `testkit`).
    static EMBEDDED: LazyLock<RuleSet> = LazyLock::new(|| embedded_set(&stub_checks()));

    /// Every `(literal, start)` by brute force, sorted.
    fn brute(literals: &[&str], hay: &str) -> Vec<(usize, usize)> {
        brute_flagged(
            &literals.iter().map(|l| (*l, false)).collect::<Vec<_>>(),
            hay,
        )
    }

    /// Whether offset `at` of `hay` starts a word (a letter or digit after none).
    fn starts_word(hay: &[u8], at: usize) -> bool {
        at == 0 || !hay[at - 1].is_ascii_alphanumeric()
    }

    /// Whether two byte strings are equal ASCII case-insensitively, with a newline taken for a
    /// space: the prefilter's comparison, spelled out.
    fn same_folded(a: &[u8], b: &[u8]) -> bool {
        let fold = |c: &u8| {
            if *c == b'\n' {
                b' '
            } else {
                c.to_ascii_lowercase()
            }
        };
        a.len() == b.len() && a.iter().map(fold).eq(b.iter().map(fold))
    }

    /// Every `(literal, start)` by brute force, sorted; a literal flagged as needed at word
    /// starts only, and starting with a letter or digit, only where it starts a word.
    fn brute_flagged(literals: &[(&str, bool)], hay: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, (l, word_start)) in literals.iter().enumerate() {
            // Looked for from its start, which is a letter or digit: only at word starts.
            // From a later offset, everywhere (a superset of its word-start occurrences).
            let needs_start = *word_start
                && l.as_bytes()[0].is_ascii_alphanumeric()
                && super::best_probe_offset(l.as_bytes(), true) == Some(0);
            for at in 0..hay.len() {
                if !l.is_empty()
                    && (!needs_start || starts_word(hay.as_bytes(), at))
                    && hay
                        .as_bytes()
                        .get(at..at + l.len())
                        .is_some_and(|s| same_folded(s, l.as_bytes()))
                {
                    out.push((i, at));
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn filtered(literals: &[&str], hay: &str) -> Vec<(usize, usize)> {
        filtered_flagged(
            &literals.iter().map(|l| (*l, false)).collect::<Vec<_>>(),
            hay,
        )
    }

    fn filtered_flagged(literals: &[(&str, bool)], hay: &str) -> Vec<(usize, usize)> {
        let f = LiteralFilter::new(
            literals
                .iter()
                .map(|(l, w)| (l.as_bytes().to_vec(), *w))
                .collect(),
        );
        let mut out = Vec::new();
        f.for_each_hit(hay.as_bytes(), &mut Vec::new(), |lit, at| {
            out.push((lit, at))
        });
        out.sort_unstable();
        out
    }

    #[test]
    fn finds_what_brute_force_finds() {
        let literals = [
            "ghp_", "sk-", ".", "ignore", "ig", "the ", "aaaa", "a", "_", "@", "xyz",
        ];
        for hay in [
            "",
            "a",
            "ab",
            "abc",
            "Ignore THE rules. ghp_x sk-1 aaaaa @_ XYZ",
            "the the THE tHe ",
            "._@",
            "aaaaaaaa",
        ] {
            assert_eq!(filtered(&literals, hay), brute(&literals, hay), "{hay:?}");
        }
    }

    #[test]
    fn folding_collisions_are_compared_exactly() {
        // `|0x20` maps `_` to DEL and `[` to `{`: both fold to the same key, only one is real.
        let literals = ["ghp_", "[ins", "@abc"];
        assert_eq!(
            filtered(&literals, "ghp\u{7f} {ins `abc ghp_ [INS @ABC"),
            brute(&literals, "ghp\u{7f} {ins `abc ghp_ [INS @ABC")
        );
        assert_eq!(filtered(&literals, "ghp\u{7f} {ins `abc").len(), 0);
    }

    #[test]
    fn lowercase8_changes_only_letters() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'A', b'z', b'@', b'[', 0x80 | b'A', 0xC1, b'Z']);
            let got = super::lowercase8(w).to_le_bytes();
            assert_eq!(got[0], b.to_ascii_lowercase(), "byte {b:#x}");
            assert_eq!(
                &got[1..],
                &[b'a', b'z', b'@', b'[', 0x80 | b'A', 0xC1, b'z']
            );
        }
    }

    #[test]
    fn control_bytes_do_not_stand_for_punctuation() {
        // `|0x20` would turn CR into `-` and LF into `*`; the comparison must not.
        let literals = ["sk-1", "a*b ", "the "];
        let hay = "sk\r1 a\nb the";
        assert_eq!(filtered(&literals, hay), brute(&literals, hay));
        assert!(filtered(&literals, hay).is_empty());
    }

    #[test]
    fn newlines_stand_for_spaces() {
        let literals = ["your system", "the end ", "a\nb", "x y"];
        let hay = "Your\nsystem, the\nend\nx\ny a b x*y";
        let got = filtered(&literals, hay);
        assert_eq!(got, brute(&literals, hay));
        assert_eq!(got, vec![(0, 0), (1, 13), (2, 25), (3, 21)]);
        // A short literal that starts with a space is looked for at every offset, newlines too.
        let got = filtered(&[" y"], hay);
        assert_eq!(got, brute(&[" y"], hay));
        assert_eq!(got, vec![(0, 22)]);
    }

    #[test]
    fn newlines_to_spaces_changes_newlines_only() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"\nab\n \x7f\xff\n";
                bytes[at] = b;
                let want = bytes.map(|c| if c == b'\n' { b' ' } else { c });
                let got = super::newlines_to_spaces(u64::from_le_bytes(bytes));
                assert_eq!(got.to_le_bytes(), want, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn long_literals() {
        let literals = [
            "instructions",
            "instruction",
            "INSTRUCTIONS:",
            "ignore previous",
        ];
        let hay = "Ignore previous Instructions: instructionS instruct";
        assert_eq!(filtered(&literals, hay), brute(&literals, hay));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The default rules' own literals, on texts made of pieces of them (case flipped,
        /// cut, glued to words, digits, punctuation and non-ASCII characters): every occurrence
        /// brute force finds, and nothing else.
        #[test]
        fn default_literals_match_brute_force(
            picks in proptest::collection::vec((0usize..100_000, 0usize..12, proptest::bool::ANY), 1..10),
            glue in proptest::collection::vec("[a-z]{0,4}|[0-9 .:=_-]{0,3}|\n|é|—", 1..10),
        ) {
            let (text, got, want) =
                crate::rules::testkit::literal_hits_and_brute_force(&EMBEDDED, &picks, &glue);
            proptest::prop_assert_eq!(got, want, "{:?}", text);
        }
    }

    #[test]
    fn word_start_literals_only_at_word_starts() {
        let literals = [
            ("ignore", true),
            ("ignore", false),
            ("gh", true),
            ("[inst", true),
            ("_pass", true),
            ("\u{27e6}", true),
            (" x", true),
            ("9z", true),
            ("0q~", false),
            ("new reli", false),
            ("webhook.office.com", false),
            ("kubeadm ", false),
            ("a.b", false),
            ("the sec", true),
            ("your co", true),
        ];
        for hay in [
            "ignore reignore (ignore) _ignore 9ignore éignore",
            "ghp_x xgh GH gh",
            "a[INST] [inst]x",
            "DB_PASS my_pass __pass",
            "\u{27e6}\u{27e6}a\u{27e6}",
            "a x  x\nx",
            "19z 9z a9z -9z",
            "ignor",
            "",
            "ig",
            "x0Q~ 0q~0q~ q~",
            "NEW RELIC newrelic anew\nreli new reli",
            "x.webhook.office.com xwebhook.office.co ab.webhook.office.comwebhook.office.com",
            "kubeadm join",
            "a.b.a.b a.B",
            "the sec bathe sec The Secret  your co",
        ] {
            assert_eq!(
                filtered_flagged(&literals, hay),
                brute_flagged(&literals, hay),
                "{hay:?}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Word starts and punctuation found by the staged pass agree with brute force on
        /// arbitrary bytes of the classes that matter, at every alignment.
        #[test]
        fn word_start_pass_matches_brute_force(text in "[aZ9_ \n.\u{e9}\u{27e6}-]{0,40}") {
            let literals = [("a", true), ("z9", true), ("_a", true), (".a", true), ("aaa", true),
                ("9", true), ("\u{27e6}", true), ("\u{e9}a", true), ("a", false), ("-", true),
                ("a.a", false), ("9 a", false), ("Z9_a", false), ("aa-", false)];
            proptest::prop_assert_eq!(
                filtered_flagged(&literals, &text),
                brute_flagged(&literals, &text)
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
        /// Texts of several blocks, with literals planted across the block boundaries and at
        /// the very end: the same hits as brute force.
        #[test]
        fn literals_across_block_boundaries(
            filler in "[a-z]{1,7}([ \n][a-z]{1,7}){0,3}[.,]?[ \n]",
            len in 2050usize..3200,
            plants in proptest::collection::vec((0usize..4, 0usize..24, 0usize..15), 1..8),
        ) {
            // Literals of every length class: a head only, head and tail, and longer than both.
            let literals = [("your ac", true), ("acc", true), ("no ", true), (".a", true),
                ("=", true), ("aaa", true), ("z9", true), ("token", false), ("k", true),
                ("-x", true), ("immediately", true), ("password=", false),
                ("instructions:", true), ("ignore all previous rules", true),
                ("your\nsystem prompt", true)];
            let mut text = filler.repeat(len / filler.len() + 1);
            text.truncate(len);
            for (at, back, which) in plants {
                let lit = literals[which].0;
                let boundary = [1024, 2048, 3072, text.len()][at];
                let start = boundary.saturating_sub(back).min(text.len());
                text.replace_range(start..(start + lit.len()).min(text.len()), lit);
            }
            let text = text.as_str();
            proptest::prop_assert_eq!(
                filtered_flagged(&literals, text),
                brute_flagged(&literals, text)
            );
        }
    }

    proptest::proptest! {
        /// The marking agrees with the definition, byte by byte, for any bytes in a block of
        /// any length after any byte, and marks nothing past the block.
        #[test]
        fn probe_masks_mark_word_starts_and_punctuation(
            hay in proptest::collection::vec(proptest::num::u8::ANY, 1..200),
            before in proptest::num::u8::ANY,
        ) {
            let mut window = [0u8; super::WINDOW];
            window[..hay.len()].copy_from_slice(&hay);
            // Bytes after the block that would be probes if they were looked at.
            window[hay.len()..].fill(b'a');
            let mut prev_alnum = before.is_ascii_alphanumeric();
            for k in 0..super::WINDOW / 64 {
                let (mask, _, within) = super::probe_mask(&window, k, hay.len(), &mut prev_alnum);
                for j in 0..64 {
                    let at = k * 64 + j;
                    proptest::prop_assert_eq!((within >> j) & 1 == 1, at < hay.len());
                    let want = at < hay.len() && {
                        let c = hay[at];
                        let prev = if at == 0 { before } else { hay[at - 1] };
                        if c.is_ascii_alphanumeric() {
                            !prev.is_ascii_alphanumeric()
                        } else {
                            c > b' ' && !(0x80..0xC0).contains(&c)
                        }
                    };
                    proptest::prop_assert_eq!((mask >> j) & 1 == 1, want, "offset {}", at);
                }
                if (k + 1) * 64 >= hay.len() {
                    break;
                }
            }
        }
    }

    /// Every embedded rule's literals are found at word starts or from a probe offset: the
    /// every-offset pass, which costs each text a test per byte, does not run for them.
    #[test]
    fn embedded_rules_need_no_every_offset_pass() {
        let literals = crate::rules::testkit::no_literal_needs_the_every_offset_pass(&EMBEDDED);
        assert!(literals > 500, "{literals}");
    }

    #[test]
    fn many_literals_sharing_buckets() {
        let owned: Vec<String> = (0..5000).map(|i| format!("k{i:04}x")).collect();
        let literals: Vec<&str> = owned.iter().map(String::as_str).collect();
        let hay = "k0000x k4999X K1234x k12 k5000x";
        assert_eq!(filtered(&literals, hay), brute(&literals, hay));
        assert_eq!(filtered(&literals, hay).len(), 3);
    }

    /// The gate lets through every case of a literal's first four bytes (of a three-byte
    /// literal, with any fourth byte; of a one-byte literal or a two-byte one that starts with
    /// punctuation, its first byte; of `qz`, both bytes), and turns
    /// away nearly every other word: a gate that let everything through would lose no hit, so
    /// only this test sees it.
    #[test]
    fn gate_passes_literal_starts_and_little_else() {
        let literals = [
            "your new",
            "your real",
            "you are",
            "no ",
            "cfg",
            "abcd",
            "x",
            "!=",
            "qz",
        ];
        let filter = LiteralFilter::new(
            literals
                .iter()
                .map(|l| (l.as_bytes().to_vec(), true))
                .collect(),
        );
        let table = &filter.at_word_starts;
        let key = |s: &[u8]| super::word8(s);
        for l in literals {
            let cased: Vec<Vec<u8>> = vec![
                l.as_bytes().to_vec(),
                l.to_ascii_uppercase().into_bytes(),
                l.bytes()
                    .enumerate()
                    .map(|(i, b)| {
                        if i % 2 == 1 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        }
                    })
                    .collect(),
            ];
            for c in cased {
                assert!(table.gate(key(&c)), "{:?}", String::from_utf8_lossy(&c));
                // What follows a literal shorter than four bytes does not matter.
                if c.len() < 4 {
                    for next in [b'a', b'Z', b' ', b'\n', 0] {
                        let mut longer = c.clone();
                        longer.push(next);
                        assert!(
                            table.gate(key(&longer)),
                            "{:?}",
                            String::from_utf8_lossy(&longer)
                        );
                    }
                }
            }
        }
        // Four-letter words that begin no literal: the three bytes of `you` with other fourth
        // bytes, and a spread of all of them.
        let others: Vec<Vec<u8>> = (b'a'..=b'z')
            .filter(|&b| b != b' ' && b != b'r')
            .map(|b| vec![b'y', b'o', b'u', b])
            .chain((0..26u32.pow(4)).step_by(7).map(|n| {
                (0..4)
                    .map(|d| b'a' + (n / 26u32.pow(d) % 26) as u8)
                    .collect()
            }))
            .filter(|w| {
                !literals.iter().any(|l| {
                    let l = l.as_bytes();
                    // A literal of one byte, or of two not starting with a letter or digit,
                    // passes by its first byte; `qz` by both.
                    (l.len() == 1 || l.len() == 2 && !l[0].is_ascii_alphanumeric()) && w[0] == l[0]
                        || w.starts_with(&l[..l.len().min(4)])
                })
            })
            .collect();
        // `you` starts literals, but no other fourth byte does: the gate tests it.
        let you = others.iter().filter(|w| w.starts_with(b"you")).count();
        let you_passed = others
            .iter()
            .filter(|w| w.starts_with(b"you") && table.gate(key(w)))
            .count();
        assert!(
            you >= 20 && you_passed <= 2,
            "{you_passed} of {you} `you...` words passed"
        );
        let passed = others.iter().filter(|w| table.gate(key(w))).count();
        assert!(
            passed * 100 < others.len(),
            "{passed} of {} other words passed the gate",
            others.len()
        );
    }
}
