//! Token runs: the longest run of encoding bytes (`[A-Za-z0-9+/_-]`, the bytes of base64, its
//! URL-safe form and hex) that every match of a pattern is sure to hold.
//!
//! A pattern with no anchor literal (a 76-character Azure DevOps token with `AZDO` at its end,
//! a Discord token's first segment) searches every text with the regex. Such patterns are long
//! runs of token bytes, and support prose has none: words are short, and whitespace or
//! punctuation ends a run. When every match holds a run as long as the one
//! [`crate::decode::first_long_run`] looks for, a text without one cannot match, and one cheap
//! scan (which the search for encoded runs needs anyway) replaces the regex searches.

use regex_syntax::hir::{Class, Hir, HirKind};

use crate::decode::is_run_byte;

/// What every match of a piece of pattern is sure to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    /// Every byte of every match is an encoding byte.
    all: bool,
    /// Fewest bytes a match has.
    min_len: usize,
    /// Length of a run of encoding bytes every match holds (equal to `min_len` when `all`).
    run: usize,
}

/// The length of a run of encoding bytes that every match of `hir` holds (0 when none is
/// sure). A lower bound: runs that only form across the edge of an optional or alternated
/// piece are not counted.
pub(crate) fn required_run(hir: &Hir) -> usize {
    shape(hir).run
}

fn shape(hir: &Hir) -> Shape {
    match hir.kind() {
        // Zero-width: nothing consumed, so a run continues across them.
        HirKind::Empty | HirKind::Look(_) => Shape {
            all: true,
            min_len: 0,
            run: 0,
        },
        HirKind::Literal(lit) => {
            let bytes = &lit.0;
            let mut run = 0;
            let mut cur = 0;
            for &b in bytes.iter() {
                cur = if is_run_byte(b) { cur + 1 } else { 0 };
                run = run.max(cur);
            }
            Shape {
                all: run == bytes.len(),
                min_len: bytes.len(),
                run,
            }
        }
        HirKind::Class(class) => {
            let all = match class {
                Class::Bytes(c) => c
                    .ranges()
                    .iter()
                    .all(|r| (r.start()..=r.end()).all(is_run_byte)),
                Class::Unicode(c) => c.ranges().iter().all(|r| {
                    (r.start()..=r.end())
                        .all(|ch| u8::try_from(u32::from(ch)).is_ok_and(is_run_byte))
                }),
            };
            Shape {
                all,
                min_len: 1,
                run: usize::from(all),
            }
        }
        HirKind::Repetition(rep) => {
            let sub = shape(&rep.sub);
            let min = rep.min as usize;
            let min_len = sub.min_len.saturating_mul(min);
            let run = match (min, sub.all) {
                (0, _) => 0,
                (_, true) => min_len,
                (_, false) => sub.run,
            };
            Shape {
                all: sub.all,
                min_len,
                run,
            }
        }
        HirKind::Capture(cap) => shape(&cap.sub),
        HirKind::Concat(items) => {
            let mut out = Shape {
                all: true,
                min_len: 0,
                run: 0,
            };
            // The run of whole-encoding pieces ending at the current one.
            let mut cur = 0usize;
            for item in items {
                let s = shape(item);
                out.min_len = out.min_len.saturating_add(s.min_len);
                out.run = out.run.max(s.run);
                if s.all {
                    cur = cur.saturating_add(s.min_len);
                    out.run = out.run.max(cur);
                } else {
                    out.all = false;
                    cur = 0;
                }
            }
            out
        }
        HirKind::Alternation(alts) => {
            let shapes: Vec<Shape> = alts.iter().map(shape).collect();
            Shape {
                all: shapes.iter().all(|s| s.all),
                min_len: shapes.iter().map(|s| s.min_len).min().unwrap_or(0),
                run: shapes.iter().map(|s| s.run).min().unwrap_or(0),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::required_run;
    use crate::decode::is_run_byte;
    use crate::rules::anchor::parse_hir;

    fn run_of(pattern: &str) -> usize {
        required_run(&parse_hir(pattern).expect("pattern parses"))
    }

    #[test]
    fn counts_runs_the_pattern_guarantees() {
        assert_eq!(
            run_of(r"\b(?P<secret>[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4})\b"),
            84
        );
        assert_eq!(
            run_of(r"\b(?P<secret>(?:eu01xx)?[a-f0-9]{30,36}NRAL)\b"),
            34
        );
        assert_eq!(
            run_of(
                r"\b(?P<secret>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?:[^A-Za-z0-9_.-]|$)"
            ),
            27
        );
        // A dot, a space or an optional piece breaks or shortens the run.
        assert_eq!(run_of(r"[a-z]{10}\.[a-z]{12}"), 12);
        assert_eq!(run_of(r"ab[a-z ]{30}"), 2);
        assert_eq!(run_of(r"[a-z]{5}(?:[0-9]{40})?"), 5);
        assert_eq!(run_of(r"(?:abcd|ef)[0-9]{3}"), 5);
        assert_eq!(run_of(r"(?i)token_[a-z0-9]{20}"), 26);
        assert_eq!(run_of(r"password\s*=\s*\S+"), 8);
        assert_eq!(run_of(r"[a-z]*"), 0);
    }

    proptest::proptest! {
        /// Every match of a pattern holds a run of encoding bytes at least as long as the
        /// pattern promises, on texts mixing encoding bytes with those that end a run.
        #[test]
        fn every_match_holds_the_promised_run(
            text in "[a-c0-2_.+ \\-/=]{0,60}",
            which in 0usize..6,
        ) {
            let patterns = [
                r"[a-c0-2_-]{5,}\.[a-c]{3}",
                r"(?:a|bb)[0-2]{4}(?:\.|c)+",
                r"[a-c]+[ .][0-2_]{6}",
                r"(?i)A[a-c0-2+/]{3}(?:=|\.)?[0-2]{2}",
                r"\b[a-c]{2}\b",
                r"[a-c][^0-2]{4}",
            ];
            let pattern = patterns[which];
            let want = run_of(pattern);
            let re = regex::bytes::RegexBuilder::new(pattern)
                .unicode(false)
                .build()
                .expect("pattern compiles");
            for m in re.find_iter(text.as_bytes()) {
                let longest = m
                    .as_bytes()
                    .split(|&b| !is_run_byte(b))
                    .map(<[u8]>::len)
                    .max()
                    .unwrap_or(0);
                proptest::prop_assert!(
                    longest >= want,
                    "{pattern} promises {want}, match {:?} holds {longest}",
                    m.as_bytes()
                );
            }
        }
    }
}
