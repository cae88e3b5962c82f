//! Where a match can start: the zero-width assertions and bytes that open a pattern.
//!
//! Anchored confirmation (`confirm.rs`) tries every start up to `max_offset` bytes before an
//! anchor literal. A pattern that opens with `\b`, `^` or `(?:^|\n)` can only start where that
//! assertion holds, so most of those starts are known to fail before the DFA is touched: for a
//! `\b`-led phrase, about two starts per window instead of one per byte. Like `anchor.rs`,
//! this file is also compiled by `build.rs` and uses nothing from the crate but `regex-syntax`.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A match may start at the start of the text.
pub(crate) const AT_TEXT_START: u8 = 1;
/// A match may start at the start of a line (the text's, or after a `\n`).
pub(crate) const AT_LINE_START: u8 = 2;
/// A match may start at an ASCII word boundary (`\b` with Unicode off).
pub(crate) const AT_WORD_BOUNDARY: u8 = 4;

/// Every match starts at a position where one of `looks` holds or whose byte is in `bytes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StartCondition {
    /// `AT_*` flags.
    pub(crate) looks: u8,
    /// Sorted, without repeats.
    pub(crate) bytes: Vec<u8>,
}

/// Where every match of `hir` starts, or `None` when the pattern does not narrow it (it opens
/// with something that can start anywhere, or with an assertion not modelled here).
pub(crate) fn start_condition(hir: &Hir) -> Option<StartCondition> {
    let set = starts_of(hir, None)?;
    let bytes = (0..=255u8).filter(|&b| set.bytes[usize::from(b)]).collect();
    Some(StartCondition {
        looks: set.looks,
        bytes,
    })
}

/// The working form of a condition: `None` is "anywhere".
#[derive(Clone)]
struct Starts {
    looks: u8,
    bytes: [bool; 256],
}

fn union(a: Option<Starts>, b: Option<Starts>) -> Option<Starts> {
    let (mut a, b) = (a?, b?);
    a.looks |= b.looks;
    for (x, y) in a.bytes.iter_mut().zip(b.bytes) {
        *x |= y;
    }
    Some(a)
}

fn bytes_of(range: impl Iterator<Item = (u32, u32)>) -> Starts {
    let mut bytes = [false; 256];
    for (lo, hi) in range {
        // A range past ASCII starts with some UTF-8 lead byte: allow every non-ASCII byte.
        for b in lo.min(256)..=hi.min(255) {
            bytes[b as usize] = true;
        }
        if hi >= 0x80 {
            bytes[0x80..].iter_mut().for_each(|x| *x = true);
        }
    }
    Starts { looks: 0, bytes }
}

/// Where a match of `hir` followed by something that starts as `rest` says can start.
fn starts_of(hir: &Hir, rest: Option<Starts>) -> Option<Starts> {
    match hir.kind() {
        HirKind::Empty => rest,
        HirKind::Literal(lit) => match lit.0.first() {
            Some(&b) => {
                let mut bytes = [false; 256];
                bytes[usize::from(b)] = true;
                Some(Starts { looks: 0, bytes })
            }
            None => rest,
        },
        HirKind::Class(Class::Bytes(c)) => Some(bytes_of(
            c.ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end()))),
        )),
        HirKind::Class(Class::Unicode(c)) => Some(bytes_of(
            c.ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end()))),
        )),
        // An assertion takes no bytes, so the match starts where it holds; one not modelled
        // here leaves the start to what follows it.
        HirKind::Look(look) => {
            let looks = match look {
                Look::Start => AT_TEXT_START,
                Look::StartLF => AT_LINE_START,
                // A word start or end is a word boundary too.
                Look::WordAscii | Look::WordStartAscii | Look::WordEndAscii => AT_WORD_BOUNDARY,
                _ => return rest,
            };
            Some(Starts {
                looks,
                bytes: [false; 256],
            })
        }
        HirKind::Capture(c) => starts_of(&c.sub, rest),
        // One iteration or more starts like one; zero or more may also start like `rest`.
        HirKind::Repetition(r) if r.min == 0 => {
            let own = starts_of(&r.sub, rest.clone());
            union(own, rest)
        }
        HirKind::Repetition(r) => starts_of(&r.sub, rest),
        HirKind::Concat(items) => {
            let mut acc = rest;
            for item in items.iter().rev() {
                acc = starts_of(item, acc);
            }
            acc
        }
        HirKind::Alternation(branches) => {
            let mut acc = starts_of(branches.first()?, rest.clone());
            for b in &branches[1..] {
                acc = union(acc, starts_of(b, rest.clone()));
            }
            acc
        }
    }
}

/// Whether a match may start at `at` of `hay` by a condition's `looks`.
#[inline]
pub(crate) fn looks_hold(looks: u8, hay: &[u8], at: usize) -> bool {
    let before = at.checked_sub(1).map(|i| hay[i]);
    (looks & AT_TEXT_START != 0 && at == 0)
        || (looks & AT_LINE_START != 0 && before.is_none_or(|b| b == b'\n'))
        || (looks & AT_WORD_BOUNDARY != 0
            && before.is_some_and(is_word) != hay.get(at).copied().is_some_and(is_word))
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(pattern: &str) -> Option<StartCondition> {
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .build()
            .parse(pattern)
            .unwrap();
        start_condition(&hir)
    }

    #[test]
    fn opening_assertions_and_bytes() {
        let c = cond(r"(?i)\byou\s+will").unwrap();
        assert_eq!((c.looks, c.bytes.len()), (AT_WORD_BOUNDARY, 0));
        let c = cond(r"(?:^|\n)\s*let").unwrap();
        assert_eq!((c.looks, c.bytes), (AT_TEXT_START, b"\n".to_vec()));
        let c = cond(r"(?m)^[ \t]*x").unwrap();
        assert_eq!(c.looks, AT_LINE_START);
        // A leading optional class widens the condition by its bytes.
        let c = cond(r"[ \t]*\bfoo").unwrap();
        assert_eq!((c.looks, c.bytes), (AT_WORD_BOUNDARY, b"\t ".to_vec()));
        // Any branch that can start anywhere makes the whole pattern start anywhere.
        assert_eq!(cond(r"\bfoo|x*"), None);
        let c = cond(r"\bfoo|.bar").unwrap();
        assert_eq!((c.looks, c.bytes.len()), (AT_WORD_BOUNDARY, 255));
        assert_eq!(
            cond(r"\Bfoo"),
            Some(StartCondition {
                looks: 0,
                bytes: b"f".to_vec()
            })
        );
    }

    #[test]
    fn looks_at_positions() {
        let hay = b"ab cd\nef";
        let at: Vec<usize> = (0..hay.len())
            .filter(|&i| looks_hold(AT_WORD_BOUNDARY, hay, i))
            .collect();
        assert_eq!(at, [0, 2, 3, 5, 6]);
        let at: Vec<usize> = (0..hay.len())
            .filter(|&i| looks_hold(AT_LINE_START, hay, i))
            .collect();
        assert_eq!(at, [0, 6]);
        assert!(looks_hold(AT_TEXT_START, hay, 0) && !looks_hold(AT_TEXT_START, hay, 6));
    }
}
