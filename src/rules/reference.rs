//! The plain reference prefilter, and the choice between it and the fast one.
//!
//! The fast prefilter (`prefilter.rs`) is hand-built for speed: hashed bitmaps, word-start
//! masks, staged passes. The reference finds the same hits the obvious way, with one
//! Aho-Corasick automaton over every literal run overlapping on a copy of the view with
//! newlines as spaces, then keeps an occurrence of a literal that is needed only at word
//! starts (and is looked for from its first byte, a letter or digit) only where a word
//! starts. A differential test holds the two to the same findings
//! (`tests/it/prefilter_differential.rs`); see `docs/performance.md` for what each costs.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use serde::{Deserialize, Serialize};

use super::anchor::best_probe_offset;
use super::prefilter::LiteralFilter;
use crate::byte_class::WordMasks;

/// Which literal prefilter a rule set runs: the same hits, different costs.
///
/// ```
/// use palisade::{Context, PrefilterKind, Screener};
/// let reference = Screener::builder().prefilter(PrefilterKind::Reference).build()?;
/// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
/// let draft = "Hi [Customer Name], write to bob@example.org.";
/// assert_eq!(
///     reference.screen(&ctx, draft)?.findings(),
///     Screener::new().screen(&ctx, draft)?.findings()
/// );
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PrefilterKind {
    /// The hand-built filter: bitmaps of hashed prefixes tested at word starts (default).
    #[default]
    Fast,
    /// One Aho-Corasick automaton over every literal, run over the whole view: simple enough
    /// to check by reading, and the yardstick the fast one is tested against.
    Reference,
}

/// A literal prefilter of either kind, over one numbering of literals.
#[derive(Debug)]
pub(crate) enum Prefilter {
    Fast(LiteralFilter),
    Reference(ReferenceFilter),
}

impl Prefilter {
    /// A filter of `kind` over `literals` (ASCII, case-insensitive), each with whether it is
    /// needed only at word starts.
    pub(crate) fn new(kind: PrefilterKind, literals: Vec<(Vec<u8>, bool)>) -> Self {
        match kind {
            PrefilterKind::Fast => Prefilter::Fast(LiteralFilter::new(literals)),
            PrefilterKind::Reference => Prefilter::Reference(ReferenceFilter::new(literals)),
        }
    }

    /// The filter of the literals `keep` holds, numbered as in this one.
    pub(crate) fn subset(&self, keep: impl Fn(usize) -> bool) -> Self {
        match self {
            Prefilter::Fast(f) => Prefilter::Fast(f.subset(keep)),
            Prefilter::Reference(f) => Prefilter::Reference(f.subset(keep)),
        }
    }

    /// The fast filter, for its own tests.
    #[cfg(test)]
    pub(crate) fn fast(&self) -> &LiteralFilter {
        match self {
            Prefilter::Fast(f) => f,
            Prefilter::Reference(_) => panic!("a reference prefilter"),
        }
    }

    /// Whether hits may come out of order of start.
    pub(crate) fn out_of_order(&self) -> bool {
        match self {
            Prefilter::Fast(f) => f.out_of_order(),
            Prefilter::Reference(_) => true,
        }
    }

    /// `hit(literal, start)` for every hit; `group` as [`LiteralFilter::for_each_hit_and_group`]
    /// (the reference makes no groups and returns `false`).
    pub(crate) fn for_each_hit_and_group(
        &self,
        hay: &[u8],
        stage: &mut Vec<u32>,
        hit: impl FnMut(usize, usize),
        group: impl FnMut(usize, &WordMasks, u64),
    ) -> bool {
        match self {
            Prefilter::Fast(f) => f.for_each_hit_and_group(hay, stage, hit, group),
            Prefilter::Reference(f) => {
                f.for_each_hit(hay, hit);
                false
            }
        }
    }
}

/// The reference prefilter: every literal in one automaton, overlapping matches.
#[derive(Debug)]
pub(crate) struct ReferenceFilter {
    /// Finds the kept literals; pattern `k` is literal `index[k]`.
    finder: Option<AhoCorasick>,
    index: Vec<usize>,
    /// Per literal: reported only where a word starts.
    needs_word_start: Vec<bool>,
    literals: Vec<(Vec<u8>, bool)>,
}

impl ReferenceFilter {
    fn new(literals: Vec<(Vec<u8>, bool)>) -> Self {
        let literals: Vec<(Vec<u8>, bool)> = literals
            .into_iter()
            .map(|(l, w)| (l.iter().map(|&b| fold(b)).collect(), w))
            .collect();
        Self::of(literals, |_| true)
    }

    fn subset(&self, keep: impl Fn(usize) -> bool) -> Self {
        Self::of(self.literals.clone(), keep)
    }

    fn of(literals: Vec<(Vec<u8>, bool)>, keep: impl Fn(usize) -> bool) -> Self {
        let index: Vec<usize> = (0..literals.len())
            .filter(|&i| keep(i) && !literals[i].0.is_empty())
            .collect();
        // The fast filter looks for a word-start literal from its first byte only when that
        // is its best probe offset; from a later offset it reports every occurrence.
        let needs_word_start = literals
            .iter()
            .map(|(l, w)| {
                *w && l.first().is_some_and(u8::is_ascii_alphanumeric)
                    && best_probe_offset(l, true) == Some(0)
            })
            .collect();
        let finder = (!index.is_empty())
            .then(|| {
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::Standard)
                    .kind(Some(AhoCorasickKind::DFA))
                    .build(index.iter().map(|&i| &literals[i].0))
                    .ok()
            })
            .flatten();
        ReferenceFilter {
            finder,
            index,
            needs_word_start,
            literals,
        }
    }

    fn for_each_hit(&self, hay: &[u8], mut hit: impl FnMut(usize, usize)) {
        let Some(finder) = &self.finder else {
            return;
        };
        let folded: Vec<u8> = hay
            .iter()
            .map(|&b| if b == b'\n' { b' ' } else { b })
            .collect();
        for m in finder.find_overlapping_iter(&folded) {
            let literal = self.index[m.pattern().as_usize()];
            let at = m.start();
            if self.needs_word_start[literal] && at > 0 && hay[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            hit(literal, at);
        }
    }
}

/// A literal byte as both filters store it: lower case, a newline as a space.
fn fold(b: u8) -> u8 {
    if b == b'\n' {
        b' '
    } else {
        b.to_ascii_lowercase()
    }
}
