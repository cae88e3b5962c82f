//! The compiled rule set: rules plus the literal tables of the prefilter, built once.

use std::collections::HashMap;
use std::sync::Mutex;

use super::compile::CompiledRule;
use super::reference::{Prefilter, PrefilterKind};
use super::scan::Scratch;
use super::schema::Status;
use crate::error::Result;

/// Which rules each prefilter literal belongs to, and how, in two flat arrays (the hit
/// callback runs for every literal occurrence; one array read there instead of a vector per
/// literal and use saves a dependent load that often missed the cache).
#[derive(Debug, Default)]
pub(super) struct LiteralUses {
    /// `rules[start[i]..start[i + 1]]` are literal `i`'s uses.
    pub(super) start: Vec<u32>,
    /// A rule index, with [`KEYWORD_USE`] set when the literal is one of its keywords (one
    /// occurrence anywhere makes the rule a candidate); otherwise it is one of the rule's
    /// prefix literals (each occurrence is a place to confirm the pattern).
    pub(super) rules: Vec<u32>,
}

/// The bit of a [`LiteralUses`] entry that marks a keyword.
pub(super) const KEYWORD_USE: u32 = 1 << 31;

impl LiteralUses {
    pub(super) fn of(&self, literal: usize) -> &[u32] {
        &self.rules[self.start[literal] as usize..self.start[literal + 1] as usize]
    }
}

/// Compiled rules plus the keyword prefilter. Immutable once built.
#[derive(Debug)]
pub(crate) struct RuleSet {
    pub(super) rules: Vec<CompiledRule>,
    /// Every keyword and every derived prefix literal; literal `i` is used as
    /// `literal_uses.of(i)` says.
    pub(super) filter: Prefilter,
    /// The same literals but those only rules that need a long run of encoding bytes use (the
    /// numbering holds): the filter for a text known to have no such run, which support prose
    /// never has. `None` when no literal is left out. Credential anchors such as
    /// Twilio's `AC` and a hex digit found `account` and `access` in every other reply.
    pub(super) filter_without_long_runs: Option<Prefilter>,
    pub(super) literal_uses: LiteralUses,
    /// Per rule, whether it is a candidate on every text (it has no keywords): where a scan's
    /// candidates start from, copied whole.
    pub(super) always_candidate: Vec<bool>,
    /// Those of `always` without an anchor: they run on every text.
    pub(super) always_unanchored: Vec<u32>,
    /// Rules whose check may want the word count ([`Check::counts_words`](super::check::Check::counts_words)): the prefilter's
    /// pass counts words when one of them asks.
    pub(super) word_counters: Vec<u32>,
    /// Per rule: every anchor literal holds one of its keywords, so a match implies one.
    pub(super) keywords_implied: Vec<bool>,
    /// Per rule whose keywords all hold an anchor literal found everywhere
    /// ([`RuleSet::keywords_hold_anchors`]): the longest keyword's length.
    pub(super) keyword_reach: Vec<Option<usize>>,
    pub(super) scratch: Mutex<Vec<Scratch>>,
}

impl RuleSet {
    /// Builds the set, rejecting duplicate ids. Deprecated rules are kept for listing only.
    #[cfg(test)]
    pub(crate) fn new(rules: Vec<CompiledRule>) -> Result<Self> {
        Self::with_prefilter(rules, PrefilterKind::Fast)
    }

    /// Builds the set, rejecting duplicate ids, with the prefilter of `prefilter`'s kind.
    /// Deprecated rules are kept for listing only.
    pub(crate) fn with_prefilter(
        rules: Vec<CompiledRule>,
        prefilter: PrefilterKind,
    ) -> Result<Self> {
        // Ids are unique here: the builder reports and leaves out a second rule of an id.
        debug_assert!({
            let mut ids: Vec<&str> = rules.iter().map(|r| r.info.id.as_str()).collect();
            ids.sort_unstable();
            ids.windows(2).all(|w| w[0] != w[1])
        });
        // A literal with whether it is needed only at word starts (a keyword may occur
        // anywhere; an anchor literal as its anchor says).
        // One index per word-start flag, keyed by the literal, so a literal seen before is
        // found without copying it (loading the embedded rules looks up many).
        let mut literal_index: [HashMap<Vec<u8>, usize>; 2] = Default::default();
        let mut literals: Vec<(Vec<u8>, bool)> = Vec::new();
        let mut use_of = |lit: &[u8], word_start: bool| -> usize {
            let index = &mut literal_index[usize::from(word_start)];
            if let Some(&i) = index.get(lit) {
                return i;
            }
            literals.push((lit.to_vec(), word_start));
            index.insert(lit.to_vec(), literals.len() - 1);
            literals.len() - 1
        };
        let mut uses: Vec<(usize, u32, bool)> = Vec::new();
        let mut always = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            if r.info.status == Status::Deprecated {
                continue;
            }
            let i = i as u32;
            match r.pattern.as_ref().and_then(|p| p.anchor.as_ref()) {
                Some(anchor) => {
                    // Its keywords are checked once it has a match (`keywords_occur`): most
                    // texts have no match, and keywords may occur anywhere, which would cost
                    // the prefilter a test at every byte.
                    for lit in &anchor.literals {
                        uses.push((use_of(lit, anchor.word_start), i, false));
                    }
                    always.push(i);
                }
                None => {
                    if let Some(check) = r.check.as_ref().filter(|c| !c.anchor_words.is_empty()) {
                        // As an anchored pattern: the check runs at its anchors' offsets, and
                        // its keywords are checked once it reports something.
                        for w in &check.anchor_words {
                            uses.push((use_of(w.as_bytes(), true), i, false));
                        }
                        always.push(i);
                        continue;
                    }
                    if r.keywords.is_empty() {
                        always.push(i);
                    }
                    for kw in &r.keywords {
                        let kw = kw.to_ascii_lowercase();
                        uses.push((use_of(kw.as_bytes(), false), i, true));
                    }
                }
            }
        }
        // Each use once, grouped by literal.
        let mut uses: Vec<(usize, u32)> = uses
            .into_iter()
            .map(|(lit, rule, keyword)| (lit, if keyword { rule | KEYWORD_USE } else { rule }))
            .collect();
        uses.sort_unstable();
        uses.dedup();
        let mut literal_uses = LiteralUses {
            start: vec![0; literals.len() + 1],
            rules: Vec::with_capacity(uses.len()),
        };
        for (lit, entry) in uses {
            literal_uses.start[lit + 1] += 1;
            literal_uses.rules.push(entry);
        }
        for i in 0..literals.len() {
            literal_uses.start[i + 1] += literal_uses.start[i];
        }
        // A literal matters on a text without a long run when one of its rules can match there.
        let short_text_literal: Vec<bool> = (0..literals.len())
            .map(|lit| {
                literal_uses
                    .of(lit)
                    .iter()
                    .any(|&entry| !rules[(entry & !KEYWORD_USE) as usize].needs_long_run())
            })
            .collect();
        let filter = Prefilter::new(prefilter, literals);
        let filter_without_long_runs = short_text_literal
            .contains(&false)
            .then(|| filter.subset(|lit| short_text_literal[lit]));
        let always_unanchored = always
            .iter()
            .copied()
            .filter(|&i| !rules[i as usize].has_anchor())
            .collect();
        let word_counters = rules
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.info.status != Status::Deprecated
                    && r.check.as_ref().is_some_and(|c| c.counts_words)
            })
            .map(|(i, _)| i as u32)
            .collect();
        let keywords_implied = rules
            .iter()
            .map(|r| {
                let Some(anchor) = r.pattern.as_ref().and_then(|p| p.anchor.as_ref()) else {
                    return false;
                };
                anchor.literals.iter().all(|l| {
                    r.keywords.iter().any(|k| {
                        l.windows(k.len().max(1))
                            .any(|w| w.eq_ignore_ascii_case(k.as_bytes()))
                    })
                })
            })
            .collect();
        let keyword_reach = rules
            .iter()
            .map(|r| {
                Self::keywords_hold_anchors(r)
                    .then(|| r.keywords.iter().map(String::len).max())
                    .flatten()
            })
            .collect();
        let mut always_candidate = vec![false; rules.len()];
        for &i in &always {
            always_candidate[i as usize] = true;
        }
        Ok(RuleSet {
            always_candidate,
            always_unanchored,
            word_counters,
            keyword_reach,
            keywords_implied,
            rules,
            filter,
            filter_without_long_runs,
            literal_uses,
            scratch: Mutex::new(Vec::new()),
        })
    }

    pub(crate) fn rules(&self) -> &[CompiledRule] {
        &self.rules
    }

    /// Whether every keyword of `rule` holds one of its anchor literals that starts with
    /// punctuation. The prefilter reports such a literal wherever it occurs (not only at word
    /// starts), so every keyword occurrence contains an anchor hit, and looking around the hits
    /// ([`CompiledRule::keyword_near`]) settles whether a keyword occurs at all: `password=`
    /// holds `=`.
    pub(super) fn keywords_hold_anchors(rule: &CompiledRule) -> bool {
        let Some(anchor) = rule.pattern.as_ref().and_then(|p| p.anchor.as_ref()) else {
            return false;
        };
        !rule.keywords.is_empty()
            && rule.keywords.iter().all(|k| {
                anchor.literals.iter().any(|l| {
                    l.first().is_some_and(u8::is_ascii_punctuation)
                        && k.as_bytes()
                            .windows(l.len())
                            .any(|w| w.eq_ignore_ascii_case(l))
                })
            })
    }
}
