//! A loaded rule: its metadata, keywords, and its pattern with the engines compiled from it
//! (the regex, the anchored lazy DFA, the capture-group finder), each built on first use.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use regex::bytes::{Regex, RegexBuilder};
use regex_automata::hybrid::dfa::DFA;
use regex_automata::meta::Regex as MetaRegex;

use super::anchor::Anchor;
use super::check::RuleCheck;
use super::schema::{ExampleSpec, ValidatorName};
use super::start::StartCondition;
use super::{PatternLimits, RuleInfo, nfa_code};

#[derive(Debug)]
pub(crate) struct CompiledRule {
    pub(crate) info: RuleInfo,
    pub(crate) message: String,
    pub(crate) keywords: Vec<String>,
    /// Finds the keywords, built the first time the rule has a match to check.
    pub(super) keyword_finder: OnceLock<Option<aho_corasick::AhoCorasick>>,
    /// How many more texts may have their keywords looked for before this rule's lazy DFA is
    /// built (see [`CompiledRule::dfa_pending`]).
    pub(super) keyword_checks_left: AtomicU32,
    pub(super) pattern: Option<Pattern>,
    pub(crate) check: Option<RuleCheck>,
    pub(super) min_entropy: Option<f64>,
    pub(super) validate: Option<ValidatorName>,
    pub(crate) examples: Vec<ExampleSpec>,
    pub(crate) negative_examples: Vec<ExampleSpec>,
    /// Replaces an earlier rule of the same id (`replaces = true`).
    pub(crate) replaces: bool,
}

impl CompiledRule {
    /// Whether one of the rule's keywords occurs in `hay` (ASCII case-insensitively), or it
    /// has none. `near` is a span to look in first (a match usually holds its keyword).
    pub(super) fn keywords_occur(&self, hay: &[u8], near: Option<std::ops::Range<usize>>) -> bool {
        if self.keywords.is_empty() {
            return true;
        }
        match self.keyword_finder() {
            Some(f) => near.is_some_and(|r| f.is_match(&hay[r])) || f.is_match(hay),
            // Not reachable with keywords the loader accepted; a rule that cannot tell keeps
            // its findings rather than losing them.
            None => true,
        }
    }

    /// The automaton of the rule's keywords, built on first use (`None` if it cannot be).
    pub(super) fn keyword_finder(&self) -> Option<&aho_corasick::AhoCorasick> {
        self.keyword_finder
            .get_or_init(|| {
                // A rule's few keywords make a small DFA: one table step per byte of the text.
                aho_corasick::AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                    .build(&self.keywords)
                    .ok()
            })
            .as_ref()
    }

    /// Whether a keyword occurs around one of `offsets`, each the start of an anchor literal:
    /// within the keyword's longest length on either side. For a rule whose every keyword holds
    /// an anchor literal found wherever it occurs (see [`RuleSet::keywords_hold_anchors`](super::set::RuleSet::keywords_hold_anchors)), this
    /// is whether a keyword occurs at all.
    pub(super) fn keyword_near(&self, hay: &[u8], offsets: &[usize], longest: usize) -> bool {
        let Some(f) = self.keyword_finder() else {
            return true;
        };
        let reach = longest.max(1);
        let mut k = 0;
        while k < offsets.len() {
            // Windows that overlap are searched as one.
            let start = offsets[k].saturating_sub(reach - 1);
            let mut end = (offsets[k] + reach).min(hay.len());
            k += 1;
            while k < offsets.len() && offsets[k].saturating_sub(reach - 1) <= end {
                end = (offsets[k] + reach).min(hay.len());
                k += 1;
            }
            if start < end && f.is_match(&hay[start..end]) {
                return true;
            }
        }
        false
    }

    /// Whether one of the rule's keywords occurs in `hay`, or it has none: each keyword looked
    /// for on its own, from the places its first letter occurs (either case). For a short text
    /// this costs less than building the rule's keyword automaton.
    pub(super) fn keywords_in(&self, hay: &[u8]) -> bool {
        self.keywords.is_empty()
            || self.keywords.iter().any(|k| {
                let k = k.as_bytes();
                let Some(&first) = k.first() else {
                    return true;
                };
                let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
                memchr::memchr2_iter(lower, upper, hay).any(|at| {
                    hay.get(at..at + k.len())
                        .is_some_and(|w| w.eq_ignore_ascii_case(k))
                })
            })
    }

    /// Whether the rule's pattern has an anchor and its lazy DFA is not built yet (no text this
    /// process screened has had the rule's anchor and a reason to confirm it). Building the DFA
    /// of a large pattern costs far more than looking for a few keywords in a draft, so until
    /// then a short text without a keyword is passed over before the DFA is asked for: the rule
    /// would report nothing on it anyway. A CLI that screens one draft would otherwise build a
    /// DFA for every rule whose anchor occurs in it. (Once the DFA exists, keywords are checked
    /// only after a match, which is cheaper: most anchors are turned away within a few bytes.)
    pub(super) fn dfa_pending(&self) -> bool {
        self.pattern
            .as_ref()
            .is_some_and(|p| p.anchor.is_some() && p.anchored.get().is_none())
    }

    /// Whether this text may have its keywords looked for before the DFA is built: the first
    /// [`FIRST_USE_KEYWORD_CHECKS`] texts do. After that the DFA is built whatever the text, so a
    /// process whose texts often hold the rule's anchor and never a keyword does not pay for the
    /// search on every text (the DFA then turns the anchors away at a few bytes each).
    pub(super) fn take_keyword_check(&self) -> bool {
        self.keyword_checks_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Whether the rule runs only where its anchor literals occur: a pattern with an anchor,
    /// or a check with [`Check::anchor_words`](super::check::Check::anchor_words).
    pub(super) fn has_anchor(&self) -> bool {
        self.pattern.as_ref().is_some_and(|p| p.anchor.is_some())
            || self
                .check
                .as_ref()
                .is_some_and(|c| !c.anchor_words.is_empty())
    }

    /// Whether everything the rule reports holds a run of at least
    /// [`crate::decode::SHORTEST_RUN`] encoding bytes: a view without one cannot match.
    pub(super) fn needs_long_run(&self) -> bool {
        self.pattern.as_ref().is_some_and(|p| p.long_run)
            || self.check.as_ref().is_some_and(|c| c.needs_long_run)
    }
}

/// A rule's pattern: its source, the literals every match starts with, and the compiled
/// engines (built on first use for the embedded rules, at load time for users' files).
#[derive(Debug)]
pub(super) struct Pattern {
    pub(super) source: String,
    pub(super) limits: PatternLimits,
    /// Bitmap of the bytes a match can start with, from the anchor (all when unknown).
    pub(super) first: [u64; 4],
    /// Where a match can start besides `first` (see `start.rs`): at a byte of `start_bytes`
    /// (a bitmap, all bytes when the pattern does not narrow it) or where `start_looks` hold.
    pub(super) start_bytes: [u64; 4],
    pub(super) start_looks: u8,
    /// The pattern names a `secret` group (the finding's span is that group).
    pub(super) secret: bool,
    /// Literals that every match carries near its start, when the pattern has a few: the
    /// engine then confirms the pattern only where one occurs.
    pub(super) anchor: Option<Anchor>,
    /// Every match holds a run of at least [`crate::decode::SHORTEST_RUN`] encoding bytes, so
    /// a text without one cannot match: a pattern without an anchor does not search it, and
    /// the prefilter run on it leaves out the anchor literals of a pattern with one.
    pub(super) long_run: bool,
    /// The regex, for spans, capture groups and whole-text searches. `None` inside when
    /// compiling failed (only possible for a lazily compiled embedded rule; the test suite
    /// compiles them all).
    pub(super) compiled: OnceLock<Option<CompiledPattern>>,
    /// Lazy DFA for anchored confirmation at a literal's position (anchored rules). Built on
    /// the rule's first literal occurrence; the regex only when it first matches.
    pub(super) anchored: OnceLock<Option<DFA>>,
    /// The capture groups of a confirmed match, found by an anchored search over its span
    /// (built on the rule's first match, for rules with a `secret` group).
    pub(super) groups: OnceLock<Option<MetaRegex>>,
}

#[derive(Debug)]
pub(super) struct CompiledPattern {
    pub(super) regex: Regex,
    pub(super) secret_group: Option<usize>,
}

impl Pattern {
    pub(super) fn get(&self) -> Option<&CompiledPattern> {
        self.compiled
            .get_or_init(|| compile_pattern(&self.source, &self.limits).ok())
            .as_ref()
    }

    pub(super) fn group_regex(&self) -> Option<&MetaRegex> {
        self.groups
            .get_or_init(|| {
                MetaRegex::builder()
                    .syntax(nfa_code::syntax())
                    .configure(
                        // Captures over a known match span of a few dozen bytes: a bounded
                        // backtracker or one-pass DFA answers at once, where a lazy DFA would
                        // first build states for every new draft's bytes.
                        MetaRegex::config()
                            .hybrid(false)
                            .dfa(false)
                            .utf8_empty(false)
                            .nfa_size_limit(Some(self.limits.compiled_size))
                            .onepass_size_limit(Some(self.limits.compiled_size))
                            .dfa_size_limit(Some(self.limits.compiled_size))
                            .hybrid_cache_capacity(self.limits.dfa_size),
                    )
                    .build(&self.source)
                    .ok()
            })
            .as_ref()
    }

    pub(super) fn dfa(&self) -> Option<&DFA> {
        self.anchored
            .get_or_init(|| anchored_dfa(&self.source, &self.limits))
            .as_ref()
    }
}

pub(super) fn compile_pattern(
    pattern: &str,
    limits: &PatternLimits,
) -> std::result::Result<CompiledPattern, String> {
    let regex = RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(limits.compiled_size)
        .dfa_size_limit(limits.dfa_size)
        .nest_limit(64)
        .build()
        .map_err(|e| format!("bad pattern: {e}"))?;
    let secret_group = regex.capture_names().position(|n| n == Some("secret"));
    Ok(CompiledPattern {
        regex,
        secret_group,
    })
}

/// The forward lazy DFA (no capture groups) that anchored confirmation steps through. An
/// embedded pattern's is built from the NFA `build.rs` compiled and wrote out (see
/// `nfa_code.rs`), without parsing or compiling the pattern again.
pub(super) fn anchored_dfa(pattern: &str, limits: &PatternLimits) -> Option<DFA> {
    let written = if limits.compiled_size >= nfa_code::WRITTEN_SIZE_LIMIT {
        builtin_nfa(pattern)
    } else {
        None
    };
    let nfa = match written {
        Some(nfa) => nfa,
        None => nfa_code::compile(pattern, limits.compiled_size)?,
    };
    DFA::builder()
        .configure(DFA::config().cache_capacity(limits.dfa_size))
        .build_from_nfa(nfa)
        .ok()
}

/// The NFA of an embedded pattern, as `build.rs` wrote it out; `None` for any other pattern.
pub(super) fn builtin_nfa(pattern: &str) -> Option<regex_automata::nfa::thompson::NFA> {
    mod table {
        include!(concat!(env!("OUT_DIR"), "/builtin_nfas.rs"));
    }
    let table = table::BUILTIN_NFAS;
    let i = table.binary_search_by(|(p, _)| (*p).cmp(pattern)).ok()?;
    nfa_code::decode(table[i].1, Some(nfa_code::WRITTEN_SIZE_LIMIT))
}

/// The anchor of an embedded pattern and the run of encoding bytes every match holds, computed
/// by `build.rs`; `None` if the pattern is not an embedded one (then [`literal_anchor`](super::anchor::literal_anchor) and
/// [`required_run`](super::token_run::required_run) work them out).
pub(super) fn precomputed_anchor(pattern: &str) -> Option<(Option<Anchor>, usize)> {
    mod table {
        include!(concat!(env!("OUT_DIR"), "/builtin_anchors.rs"));
    }
    let table = table::BUILTIN_ANCHORS;
    let i = table.binary_search_by(|(p, _, _)| (*p).cmp(pattern)).ok()?;
    let (_, anchor, run) = table[i];
    let anchor = anchor.map(|(max_offset, literals, first, word_start, start)| Anchor {
        max_offset,
        literals: literals.iter().map(|l| l.to_vec()).collect(),
        first_bytes: first.map(<[u8]>::to_vec),
        word_start,
        start: start.map(|(looks, bytes)| StartCondition {
            looks,
            bytes: bytes.to_vec(),
        }),
    });
    Some((anchor, run))
}

/// Longest text for which a rule whose lazy DFA is not built yet has its keywords looked for
/// before the DFA is built (see [`CompiledRule::dfa_pending`]): a draft or a ticket, not a
/// long document, where the search would cost more than it can save.
pub(super) const FIRST_USE_KEYWORD_CHECK_MAX_LEN: usize = 16 * 1024;

/// How many texts per rule may have their keywords looked for before the rule's lazy DFA is
/// built (see [`CompiledRule::take_keyword_check`]).
pub(super) const FIRST_USE_KEYWORD_CHECKS: u32 = 16;
