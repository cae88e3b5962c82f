//! The literal prefilter: every occurrence of every keyword and anchor literal, ASCII
//! case-insensitively, in one pass over the view.
//!
//! An Aho-Corasick automaton over a few thousand literals walks a transition table too large
//! for the L1 cache and runs at about 200 MB/s here, even on text where no literal occurs. This
//! filter instead tests every offset against a bitmap of hashed three-byte prefixes (8 KiB, so
//! it stays in L1) and compares the literals of that hash only where a bit is set, eight bytes
//! at a time under a mask. Literals of one or two bytes are looked up by their first byte,
//! which is cheap because anchors avoid short literals made of common bytes.

/// Bits in the hash table of folded three-byte prefixes (2^16 bits: 8 KiB, so it stays in L1).
const BITS: u32 = 16;
/// Fibonacci hashing: the high bits of `key * K` spread nearby keys apart.
const K: u32 = 0x9E37_79B1;
/// Eight bytes with the ASCII upper-case letters lower-cased and nothing else changed.
fn lowercase8(word: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let x = word & LOW7;
    // Per byte (no carries: every byte is below 0x80 here): high bit set when >= 'A', and
    // when > 'Z'.
    let ge_a = x.wrapping_add(0x0101_0101_0101_0101 * u64::from(0x80 - b'A'));
    let gt_z = x.wrapping_add(0x0101_0101_0101_0101 * u64::from(0x80 - b'Z' - 1));
    let upper = ge_a & !gt_z & !word & HIGH;
    word | (upper >> 2)
}

/// One literal of three bytes or more, ready for the candidate check.
#[derive(Debug)]
struct Entry {
    /// Lower-cased first (up to) eight bytes, and the mask of those that count.
    head: u64,
    mask: u64,
    /// Longer than eight bytes: the rest is compared after the head.
    long: bool,
    len: u32,
    literal: u32,
}

#[derive(Debug)]
pub(crate) struct LiteralFilter {
    literals: Vec<Vec<u8>>,
    /// One bit per hash of the folded first four bytes of a literal of four bytes or more.
    bits4: Box<[u64; 1 << (BITS - 6)]>,
    /// One bit per hash of a literal of exactly three bytes.
    bits3: Box<[u64; 1 << (BITS - 6)]>,
    /// `bucket_start[h]..bucket_start[h + 1]` indexes `entries` for three-byte hash `h`
    /// (every literal of three bytes or more, by its first three).
    bucket_start: Vec<u32>,
    entries: Vec<Entry>,
    /// Whether a literal of one or two bytes starts with this byte (either case).
    short_first: [bool; 256],
    /// Literals of one or two bytes, as `(lowercased first byte, literal index)`, sorted.
    short: Vec<(u8, u32)>,
}

/// `bytes` (up to eight) as a little-endian word, zero-padded.
fn word8(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let n = bytes.len().min(8);
    w[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(w)
}

/// The hash of four bytes, folded (a different multiplier from [`hash`]).
#[inline(always)]
fn hash4(key: u32) -> usize {
    ((key | 0x2020_2020).wrapping_mul(0x1656_67B1) >> (32 - BITS)) as usize
}

/// The hash of three bytes (the low ones of `key`), folded: setting the 0x20 bit of every byte
/// lower-cases ASCII letters, and maps some other bytes onto each other too, which only adds
/// candidates (they are compared with [`lowercase8`]).
#[inline(always)]
fn hash(key: u32) -> usize {
    (((key | 0x0020_2020) & 0x00FF_FFFF).wrapping_mul(K) >> (32 - BITS)) as usize
}

impl LiteralFilter {
    /// A filter over `literals` (ASCII, matched case-insensitively). Empty literals never
    /// match.
    pub(crate) fn new(literals: Vec<Vec<u8>>) -> Self {
        let mut by_hash: Vec<(usize, Entry)> = Vec::new();
        let mut bits4 = Box::new([0u64; 1 << (BITS - 6)]);
        let mut bits3 = Box::new([0u64; 1 << (BITS - 6)]);
        let mut short_first = [false; 256];
        let mut short = Vec::new();
        for (i, lit) in literals.iter().enumerate() {
            let i = i as u32;
            match lit.len() {
                0 => {}
                1 | 2 => {
                    let first = lit[0];
                    short_first[usize::from(first.to_ascii_lowercase())] = true;
                    short_first[usize::from(first.to_ascii_uppercase())] = true;
                    short.push((first.to_ascii_lowercase(), i));
                }
                n => {
                    let head = lowercase8(word8(lit));
                    let mask = if n >= 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * n)) - 1
                    };
                    let h4 = hash4(head as u32);
                    if n == 3 {
                        let h3 = hash(head as u32);
                        bits3[h3 / 64] |= 1 << (h3 % 64);
                    } else {
                        bits4[h4 / 64] |= 1 << (h4 % 64);
                    }
                    by_hash.push((
                        hash(head as u32),
                        Entry {
                            head: head & mask,
                            mask,
                            long: n > 8,
                            len: n as u32,
                            literal: i,
                        },
                    ));
                }
            }
        }
        by_hash.sort_unstable_by_key(|(h, e)| (*h, e.literal));
        short.sort_unstable();
        let mut bucket_start = vec![0u32; (1usize << BITS) + 1];
        for (h, _) in &by_hash {
            bucket_start[h + 1] += 1;
        }
        for h in 0..(1usize << BITS) {
            bucket_start[h + 1] += bucket_start[h];
        }
        LiteralFilter {
            literals,
            bits4,
            bits3,
            bucket_start,
            entries: by_hash.into_iter().map(|(_, e)| e).collect(),
            short_first,
            short,
        }
    }

    /// Calls `hit(literal index, start)` for every occurrence of every literal, in order of
    /// start (literals starting at the same offset in no particular order).
    pub(crate) fn for_each_hit(&self, hay: &[u8], mut hit: impl FnMut(usize, usize)) {
        let n = hay.len();
        let byte = |i: usize| hay.get(i).map_or(0, |&b| u32::from(b));
        // The four bytes from offset `i` (zeros past the end), rolled along one byte a step.
        let mut key = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
        let test = |bits: &[u64; 1 << (BITS - 6)], h: usize| (bits[h / 64] >> (h % 64)) & 1 != 0;
        let mut check = |i: usize, key: u32| {
            let long = test(&self.bits4, hash4(key)) | test(&self.bits3, hash(key));
            let short = self.short_first[(key & 0xFF) as usize];
            if long | short {
                self.candidate(hay, i, hash(key), long, short, &mut hit);
            }
        };
        for (i, &next) in hay.iter().skip(4).enumerate() {
            check(i, key);
            key = (key >> 8) | u32::from(next) << 24;
        }
        for i in n.saturating_sub(4)..n {
            check(i, key);
            key >>= 8;
        }
    }

    /// The slow path at an offset the bitmaps let through.
    #[inline(never)]
    fn candidate(
        &self,
        hay: &[u8],
        at: usize,
        h: usize,
        long: bool,
        short: bool,
        hit: &mut impl FnMut(usize, usize),
    ) {
        if long {
            let word = match hay.get(at..at + 8) {
                Some(&[a, b, c, d, e, f, g, i]) => u64::from_le_bytes([a, b, c, d, e, f, g, i]),
                _ => word8(&hay[at..]),
            };
            self.bucket_at(hay, at, word, h, hit);
        }
        if short {
            self.short_at(hay, at, hit);
        }
    }

    fn bucket_at(
        &self,
        hay: &[u8],
        at: usize,
        word: u64,
        h: usize,
        hit: &mut impl FnMut(usize, usize),
    ) {
        let bucket = self.bucket_start[h] as usize..self.bucket_start[h + 1] as usize;
        let lower = lowercase8(word);
        for e in &self.entries[bucket] {
            if lower & e.mask != e.head || at + e.len as usize > hay.len() {
                continue;
            }
            let lit = e.literal as usize;
            if e.long {
                let l = &self.literals[lit];
                if !hay[at + 8..at + l.len()].eq_ignore_ascii_case(&l[8..]) {
                    continue;
                }
            }
            hit(lit, at);
        }
    }

    fn short_at(&self, hay: &[u8], at: usize, hit: &mut impl FnMut(usize, usize)) {
        let first = hay[at].to_ascii_lowercase();
        let from = self.short.partition_point(|&(b, _)| b < first);
        for &(b, lit) in &self.short[from..] {
            if b != first {
                break;
            }
            let lit = lit as usize;
            let l = &self.literals[lit];
            if hay
                .get(at..at + l.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(l))
            {
                hit(lit, at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LiteralFilter;

    /// Every `(literal, start)` by brute force, sorted.
    fn brute(literals: &[&str], hay: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, l) in literals.iter().enumerate() {
            for at in 0..hay.len() {
                if !l.is_empty()
                    && hay
                        .as_bytes()
                        .get(at..at + l.len())
                        .is_some_and(|s| s.eq_ignore_ascii_case(l.as_bytes()))
                {
                    out.push((i, at));
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn filtered(literals: &[&str], hay: &str) -> Vec<(usize, usize)> {
        let f = LiteralFilter::new(literals.iter().map(|l| l.as_bytes().to_vec()).collect());
        let mut out = Vec::new();
        f.for_each_hit(hay.as_bytes(), |lit, at| out.push((lit, at)));
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
            let set = crate::screen::Screener::builder()
                .build_rule_set(false, &|_| true)
                .unwrap();
            let literals = &set.filter.literals;
            let mut text = String::new();
            for (k, (pick, cut, upper)) in picks.iter().enumerate() {
                let lit = &literals[pick % literals.len()];
                let piece = String::from_utf8_lossy(&lit[..lit.len().saturating_sub(cut % 3)]);
                text.push_str(&if *upper { piece.to_uppercase() } else { piece.into_owned() });
                text.push_str(&glue[k % glue.len()]);
            }
            let hay = text.as_bytes();
            let mut got = Vec::new();
            set.filter.for_each_hit(hay, |lit, at| got.push((lit, at)));
            got.sort_unstable();
            let mut want = Vec::new();
            for (i, l) in literals.iter().enumerate() {
                for at in 0..hay.len() {
                    if !l.is_empty()
                        && hay.get(at..at + l.len()).is_some_and(|w| w.eq_ignore_ascii_case(l))
                    {
                        want.push((i, at));
                    }
                }
            }
            proptest::prop_assert_eq!(got, want, "{:?}", text);
        }
    }

    #[test]
    fn many_literals_sharing_buckets() {
        let owned: Vec<String> = (0..5000).map(|i| format!("k{i:04}x")).collect();
        let literals: Vec<&str> = owned.iter().map(String::as_str).collect();
        let hay = "k0000x k4999X K1234x k12 k5000x";
        assert_eq!(filtered(&literals, hay), brute(&literals, hay));
        assert_eq!(filtered(&literals, hay).len(), 3);
    }
}
