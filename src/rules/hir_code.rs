//! A pattern's syntax tree written out as bytes, and read back.
//!
//! `build.rs` parses every embedded pattern and writes its tree ([`encode`]) into the binary;
//! building a rule's lazy DFA then starts from the tree ([`decode`]) instead of the pattern
//! text. Parsing a large `(?xi)` pattern (comments, whitespace, a case-folded class per letter)
//! is two thirds of the cost of building its DFA, and a CLI that screens one draft builds a
//! handful of them. A test checks that every embedded pattern's tree reads back equal to what
//! the parser makes of the pattern, so the DFA is the same either way.
//!
//! The format is the tree in post-order: each node's children come before it, and the node
//! says how many it takes from the stack. Numbers are LEB128 varints. This file is also
//! compiled by `build.rs`; it uses nothing from the crate but `regex-syntax`.

use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Look, Repetition,
};

const EMPTY: u8 = 0;
const LITERAL: u8 = 1;
const BYTE_CLASS: u8 = 2;
const CHAR_CLASS: u8 = 3;
const LOOK: u8 = 4;
const REPETITION: u8 = 5;
const CAPTURE: u8 = 6;
const CONCAT: u8 = 7;
const ALTERNATION: u8 = 8;

/// The tree as bytes.
#[cfg_attr(not(test), allow(dead_code))] // build.rs writes; the crate only reads (tests write)
pub(crate) fn encode(hir: &Hir) -> Vec<u8> {
    let mut out = Vec::new();
    write_node(hir, &mut out);
    out
}

fn write_node(hir: &Hir, out: &mut Vec<u8>) {
    match hir.kind() {
        HirKind::Empty => out.push(EMPTY),
        HirKind::Literal(lit) => {
            out.push(LITERAL);
            write_number(out, lit.0.len() as u64);
            out.extend_from_slice(&lit.0);
        }
        HirKind::Class(Class::Bytes(class)) => {
            out.push(BYTE_CLASS);
            write_number(out, class.ranges().len() as u64);
            for r in class.ranges() {
                out.extend_from_slice(&[r.start(), r.end()]);
            }
        }
        HirKind::Class(Class::Unicode(class)) => {
            out.push(CHAR_CLASS);
            write_number(out, class.ranges().len() as u64);
            for r in class.ranges() {
                write_number(out, u64::from(u32::from(r.start())));
                write_number(out, u64::from(u32::from(r.end())));
            }
        }
        HirKind::Look(look) => {
            out.push(LOOK);
            write_number(out, u64::from(look.as_repr()));
        }
        HirKind::Repetition(rep) => {
            write_node(&rep.sub, out);
            out.push(REPETITION);
            write_number(out, u64::from(rep.min));
            // Zero for no upper bound, else the bound plus one.
            write_number(out, rep.max.map_or(0, |m| u64::from(m) + 1));
            out.push(u8::from(rep.greedy));
        }
        HirKind::Capture(cap) => {
            write_node(&cap.sub, out);
            out.push(CAPTURE);
            write_number(out, u64::from(cap.index));
            // Zero for no name, else the name's length plus one.
            match &cap.name {
                None => write_number(out, 0),
                Some(name) => {
                    write_number(out, name.len() as u64 + 1);
                    out.extend_from_slice(name.as_bytes());
                }
            }
        }
        HirKind::Concat(items) | HirKind::Alternation(items) => {
            for item in items {
                write_node(item, out);
            }
            out.push(if matches!(hir.kind(), HirKind::Concat(_)) {
                CONCAT
            } else {
                ALTERNATION
            });
            write_number(out, items.len() as u64);
        }
    }
}

fn write_number(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let low = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// Reads bytes written by [`encode`] back into the tree, built with the same constructors the
/// parser uses. `None` if they are not such bytes.
pub(crate) fn decode(code: &[u8]) -> Option<Hir> {
    let mut reader = Reader { code, at: 0 };
    let mut stack: Vec<Hir> = Vec::new();
    while reader.at < code.len() {
        let op = reader.byte()?;
        let node = match op {
            EMPTY => Hir::empty(),
            LITERAL => {
                let len = reader.count()?;
                Hir::literal(reader.bytes(len)?)
            }
            BYTE_CLASS => {
                let n = reader.count()?;
                let mut ranges = Vec::with_capacity(n.min(256));
                for _ in 0..n {
                    let (start, end) = (reader.byte()?, reader.byte()?);
                    ranges.push(ClassBytesRange::new(start, end));
                }
                Hir::class(Class::Bytes(ClassBytes::new(ranges)))
            }
            CHAR_CLASS => {
                let n = reader.count()?;
                let mut ranges = Vec::with_capacity(n.min(256));
                for _ in 0..n {
                    let start = char::from_u32(u32::try_from(reader.number()?).ok()?)?;
                    let end = char::from_u32(u32::try_from(reader.number()?).ok()?)?;
                    ranges.push(ClassUnicodeRange::new(start, end));
                }
                Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
            }
            LOOK => Hir::look(Look::from_repr(u32::try_from(reader.number()?).ok()?)?),
            REPETITION => {
                let sub = stack.pop()?;
                let min = u32::try_from(reader.number()?).ok()?;
                let max = match reader.number()? {
                    0 => None,
                    m => Some(u32::try_from(m - 1).ok()?),
                };
                let greedy = reader.byte()? != 0;
                Hir::repetition(Repetition {
                    min,
                    max,
                    greedy,
                    sub: Box::new(sub),
                })
            }
            CAPTURE => {
                let sub = stack.pop()?;
                let index = u32::try_from(reader.number()?).ok()?;
                let name = match reader.count()? {
                    0 => None,
                    len => Some(Box::from(std::str::from_utf8(reader.bytes(len - 1)?).ok()?)),
                };
                Hir::capture(Capture {
                    index,
                    name,
                    sub: Box::new(sub),
                })
            }
            CONCAT | ALTERNATION => {
                let n = reader.count()?;
                let items = stack.split_off(stack.len().checked_sub(n)?);
                if op == CONCAT {
                    Hir::concat(items)
                } else {
                    Hir::alternation(items)
                }
            }
            _ => return None,
        };
        stack.push(node);
    }
    let tree = stack.pop()?;
    stack.is_empty().then_some(tree)
}

struct Reader<'a> {
    code: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.code.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn bytes(&mut self, len: usize) -> Option<&'a [u8]> {
        let s = self.code.get(self.at..self.at.checked_add(len)?)?;
        self.at += len;
        Some(s)
    }

    fn number(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }

    /// A length or count, which cannot be more than the bytes left.
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.number()?).ok()?;
        (n <= self.code.len() + 1).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(pattern: &str) -> Hir {
        super::super::anchor::parse_hir(pattern).unwrap()
    }

    #[test]
    fn trees_read_back_equal() {
        for p in [
            r"(?xi) \b (?: ignore | disregard ) \s+ (?: all \s+ )? previous \b",
            r"(?P<secret>ghp_[A-Za-z0-9]{36})\b",
            r"(?m)^\s*system\s*:|x{2,}?|y*|z{3}",
            r"⟦(?-s:.){0,120}?⟧|(?:’|')s",
            r"(?:)|a",
            r"\A[^\n]{0,4}(?i:here)\z",
        ] {
            let hir = tree(p);
            assert_eq!(decode(&encode(&hir)).as_ref(), Some(&hir), "{p}");
        }
        // A class of characters (none of the patterns parsed without Unicode has one).
        let chars = Hir::concat(vec![
            Hir::class(Class::Unicode(ClassUnicode::new([
                ClassUnicodeRange::new('α', 'ω'),
                ClassUnicodeRange::new('⟦', '⟧'),
            ]))),
            Hir::literal(*b"x"),
        ]);
        assert_eq!(decode(&encode(&chars)).as_ref(), Some(&chars));
    }

    #[test]
    fn bad_bytes_read_as_none() {
        let hir = tree(r"(?i)abc|d{2,5}");
        let good = encode(&hir);
        // Cut short at every length, and one byte more: never the tree, never a panic.
        for len in 0..good.len() {
            assert_ne!(decode(&good[..len]).as_ref(), Some(&hir), "cut at {len}");
        }
        let mut longer = good.clone();
        longer.push(EMPTY);
        assert_eq!(decode(&longer), None);
        assert_eq!(decode(&[99]), None);
        assert_eq!(decode(&[CONCAT, 5]), None);
    }
}
