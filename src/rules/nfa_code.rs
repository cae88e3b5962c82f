//! A pattern's compiled NFA written out as bytes, and read back.
//!
//! `build.rs` compiles every embedded pattern into the NFA a rule's lazy DFA runs on (no
//! capture states, not UTF-8, default size limit) and writes its states out ([`encode`]);
//! building the DFA then starts from those states ([`decode`]) instead of the pattern text.
//! Parsing a large `(?xi)` pattern (comments, whitespace, a case-folded class per letter) and
//! compiling it were nearly all of the cost of building its DFA, and a CLI that screens one
//! draft builds a handful of them. A test checks that every embedded pattern's NFA reads back
//! the same as the one compiled from the pattern.
//!
//! The states are written in order with their ids, so reading them back into the NFA
//! builder, which keeps every state of these kinds as it is, makes the same NFA. Numbers are
//! LEB128 varints. This file is also compiled by `build.rs`; it uses nothing from the crate but
//! `regex-automata`.

use regex_automata::nfa::thompson::{Builder, NFA, State, Transition};
use regex_automata::util::look::Look;
use regex_automata::util::primitives::{PatternID, StateID};

/// The NFA size limit the written NFAs were compiled under (the default of
/// `PatternLimits::compiled_size`): they are used under that limit or a larger one only.
pub(crate) const WRITTEN_SIZE_LIMIT: usize = 1 << 20;

/// The syntax settings every pattern is parsed with: bytes, not Unicode classes (the view is
/// matched as `regex::bytes` would), and a bound on nesting.
pub(crate) fn syntax() -> regex_automata::util::syntax::Config {
    regex_automata::util::syntax::Config::new()
        .unicode(false)
        .utf8(false)
        .nest_limit(64)
}

/// The NFA a rule's lazy DFA runs on, compiled from `pattern` with the syntax settings every
/// pattern is parsed with: no capture states, not UTF-8, under `size_limit` bytes. `None` if it
/// does not parse or is over the limit (the regex crate then says why, where it is compiled).
pub(crate) fn compile(pattern: &str, size_limit: usize) -> Option<NFA> {
    regex_automata::nfa::thompson::Compiler::new()
        .syntax(syntax())
        .configure(
            regex_automata::nfa::thompson::Config::new()
                .utf8(false)
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::None)
                .nfa_size_limit(Some(size_limit)),
        )
        .build(pattern)
        .ok()
}

const RANGE: u8 = 0;
const SPARSE: u8 = 1;
const LOOK: u8 = 2;
const UNION: u8 = 3;
const BINARY_UNION: u8 = 4;
const FAIL: u8 = 5;
const MATCH: u8 = 6;

/// The NFA's states and starts as bytes; `None` for an NFA this format does not hold (more
/// than one pattern, capture states, UTF-8 or reverse mode).
#[cfg_attr(not(test), allow(dead_code))] // build.rs writes; the crate only reads (tests write)
pub(crate) fn encode(nfa: &NFA) -> Option<Vec<u8>> {
    if nfa.pattern_len() != 1 || nfa.has_capture() || nfa.is_utf8() || nfa.is_reverse() {
        return None;
    }
    let mut out = Vec::new();
    let id = |out: &mut Vec<u8>, s: StateID| write_number(out, s.as_usize() as u64);
    id(&mut out, nfa.start_anchored());
    id(&mut out, nfa.start_unanchored());
    id(&mut out, nfa.start_pattern(PatternID::ZERO)?);
    write_number(&mut out, nfa.states().len() as u64);
    let transition = |out: &mut Vec<u8>, t: &Transition| {
        out.extend_from_slice(&[t.start, t.end]);
        id(out, t.next);
    };
    for state in nfa.states() {
        match state {
            State::ByteRange { trans } => {
                out.push(RANGE);
                transition(&mut out, trans);
            }
            State::Sparse(sparse) => {
                out.push(SPARSE);
                write_number(&mut out, sparse.transitions.len() as u64);
                for t in sparse.transitions.iter() {
                    transition(&mut out, t);
                }
            }
            State::Look { look, next } => {
                out.push(LOOK);
                write_number(&mut out, u64::from(look.as_repr()));
                id(&mut out, *next);
            }
            State::Union { alternates } => {
                out.push(UNION);
                write_number(&mut out, alternates.len() as u64);
                for &a in alternates.iter() {
                    id(&mut out, a);
                }
            }
            State::BinaryUnion { alt1, alt2 } => {
                out.push(BINARY_UNION);
                id(&mut out, *alt1);
                id(&mut out, *alt2);
            }
            State::Fail => out.push(FAIL),
            State::Match { pattern_id } if *pattern_id == PatternID::ZERO => out.push(MATCH),
            _ => return None,
        }
    }
    Some(out)
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

/// Reads bytes written by [`encode`] back into an NFA (not UTF-8, under `size_limit` bytes of
/// heap if given). `None` if they are not such bytes, or the NFA is over the limit.
pub(crate) fn decode(code: &[u8], size_limit: Option<usize>) -> Option<NFA> {
    let mut reader = Reader {
        code,
        at: 0,
        named: 0,
    };
    let start_anchored = reader.id()?;
    let start_unanchored = reader.id()?;
    let start_pattern = reader.id()?;
    let len = reader.count()?;
    let mut builder = Builder::new();
    builder.set_utf8(false);
    builder.set_reverse(false);
    builder.set_size_limit(size_limit).ok()?;
    builder.start_pattern().ok()?;
    for k in 0..len {
        let added = match reader.byte()? {
            RANGE => builder.add_range(reader.transition()?),
            SPARSE => builder.add_sparse(reader.list(Reader::transition)?),
            LOOK => {
                let look = Look::from_repr(u32::try_from(reader.number()?).ok()?)?;
                builder.add_look(reader.id()?, look)
            }
            UNION => builder.add_union(reader.list(Reader::id)?),
            BINARY_UNION => builder.add_union(vec![reader.id()?, reader.id()?]),
            FAIL => builder.add_fail(),
            MATCH => builder.add_match(),
            _ => return None,
        };
        // Every state keeps its place, so the ids written are the ids the builder gives.
        if added.ok()?.as_usize() != k {
            return None;
        }
    }
    // Every id named must be one of the states, or the builder cannot map it.
    if reader.at != code.len() || reader.named >= len {
        return None;
    }
    builder.finish_pattern(start_pattern).ok()?;
    builder.build(start_anchored, start_unanchored).ok()
}

struct Reader<'a> {
    code: &'a [u8],
    at: usize,
    /// The largest state id read so far.
    named: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.code.get(self.at)?;
        self.at += 1;
        Some(b)
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

    /// A count of things still to read, each at least a byte long.
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.number()?).ok()?;
        (n <= self.code.len()).then_some(n)
    }

    fn id(&mut self) -> Option<StateID> {
        let id = usize::try_from(self.number()?).ok()?;
        self.named = self.named.max(id);
        StateID::new(id).ok()
    }

    /// A count, then that many items.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.count()?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(item(self)?);
        }
        Some(items)
    }

    fn transition(&mut self) -> Option<Transition> {
        let (start, end) = (self.byte()?, self.byte()?);
        if start > end {
            return None;
        }
        Some(Transition {
            start,
            end,
            next: self.id()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &NFA, b: &NFA) -> bool {
        format!("{a:?}") == format!("{b:?}")
            && format!("{:?}", a.byte_classes()) == format!("{:?}", b.byte_classes())
    }

    #[test]
    fn nfas_read_back_the_same() {
        for p in [
            r"(?xi) \b (?: ignore | disregard ) \s+ (?: all \s+ )? previous \b",
            r"(?P<secret>ghp_[A-Za-z0-9]{36})\b",
            r"(?m)^\s*system\s*:|x{2,}?|y*z|[^a-z]{3}",
            r"⟦(?-s:.){0,120}?⟧|(?:’|')s",
            r"\A[^\n]{0,4}(?i:here)\z",
        ] {
            let nfa = compile(p, WRITTEN_SIZE_LIMIT).unwrap();
            let code = encode(&nfa).unwrap();
            let back = decode(&code, Some(WRITTEN_SIZE_LIMIT)).unwrap();
            assert!(same(&back, &nfa), "{p}");
        }
    }

    #[test]
    fn bad_bytes_never_read_back_as_the_nfa() {
        let nfa = compile(r"(?i)abc|d{2,5}\b", WRITTEN_SIZE_LIMIT).unwrap();
        let code = encode(&nfa).unwrap();
        for len in 0..code.len() {
            assert!(
                decode(&code[..len], None).is_none_or(|n| !same(&n, &nfa)),
                "cut at {len}"
            );
        }
        let mut longer = code.clone();
        longer.push(FAIL);
        assert!(decode(&longer, None).is_none());
        // Every byte changed to every value: an NFA or `None`, never a panic.
        for at in 0..code.len() {
            for v in 0..=255u8 {
                let mut bad = code.clone();
                bad[at] = v;
                let _ = decode(&bad, None);
            }
        }
        // Over the size limit it is not built.
        assert!(decode(&code, Some(16)).is_none());
    }
}
