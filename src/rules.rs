//! Rule files: loading, validation, compilation, and the two-stage matching engine.
//!
//! Stage one: every rule's `keywords` and the anchor literals derived from its pattern go into
//! one literal prefilter (`prefilter.rs`), run once over the normalised view; a rule with
//! keywords runs only when one of them occurs. Stage two: each candidate rule confirms its
//! pattern with an anchored lazy DFA where its anchor literals occur (or runs its regex, or its
//! named check, over the view) for spans.
//!
//! Most credential patterns match only inside a long run of encoding bytes (a token), which
//! support prose never has. A screen knows whether its view has one before the rules run; on a
//! view without one, a second prefilter without those rules' literals runs instead (Twilio's
//! `AC` and a hex digit no longer stop at every `account`).

mod anchor;
mod builtin;
mod check;
mod filters;
mod nfa_code;
mod prefilter;
pub(crate) mod schema;
#[cfg(test)]
mod spec_rows;
mod token_run;
mod words;

use std::any::Any;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use regex::bytes::{Regex, RegexBuilder};
use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::meta::Regex as MetaRegex;
use regex_automata::{Anchored, Input};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::finding::{Finding, Kind, Severity};
use crate::normalize::Normalized;
use anchor::{Anchor, literal_anchor, parse_hir};
use prefilter::LiteralFilter;

pub(crate) use builtin::BUILTIN_RULE_FILES;
use check::RuleCheck;
pub(crate) use check::{Check, Checks, Emit, Pass};
pub(crate) use filters::luhn;
pub use schema::Status;
use schema::{ExampleSpec, RuleFileSpec, RuleSpec, ValidatorName};
pub(crate) use words::{WordTally, count_words};

/// Limits applied when compiling rule patterns. User rule files are untrusted input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatternLimits {
    /// Longest pattern source accepted, in bytes.
    pub(crate) max_pattern_len: usize,
    /// The regex crate's compiled program size limit, in bytes.
    pub(crate) compiled_size: usize,
    /// The lazy DFA cache size, in bytes.
    pub(crate) dfa_size: usize,
}

impl Default for PatternLimits {
    fn default() -> Self {
        PatternLimits {
            max_pattern_len: 4096,
            compiled_size: 1 << 20,
            dfa_size: 2 << 20,
        }
    }
}

/// What a rule is, for listing and documentation. Carries no pattern internals.
///
/// ```
/// let screener = palisade::Screener::new();
/// let info = screener.rules().find(|r| r.id == "draft.email-address").unwrap();
/// assert_eq!(info.kind, palisade::Kind::Email);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RuleInfo {
    /// Stable id.
    pub id: String,
    /// Class of problem.
    pub kind: Kind,
    /// Severity in effect (after builder overrides).
    pub severity: Severity,
    /// Life-cycle state.
    pub status: Status,
    /// What it flags.
    pub description: String,
    /// Why it matters.
    pub rationale: String,
    /// The file it came from.
    pub file: String,
    /// The line where it starts.
    pub line: usize,
}

#[derive(Debug)]
pub(crate) struct CompiledRule {
    pub(crate) info: RuleInfo,
    pub(crate) message: String,
    pub(crate) keywords: Vec<String>,
    /// Finds the keywords, built the first time the rule has a match to check.
    keyword_finder: OnceLock<Option<aho_corasick::AhoCorasick>>,
    /// How many more texts may have their keywords looked for before this rule's lazy DFA is
    /// built (see [`CompiledRule::dfa_pending`]).
    keyword_checks_left: AtomicU32,
    pattern: Option<Pattern>,
    pub(crate) check: Option<RuleCheck>,
    min_entropy: Option<f64>,
    validate: Option<ValidatorName>,
    pub(crate) examples: Vec<ExampleSpec>,
    pub(crate) negative_examples: Vec<ExampleSpec>,
}

impl CompiledRule {
    /// Whether one of the rule's keywords occurs in `hay` (ASCII case-insensitively), or it
    /// has none. `near` is a span to look in first (a match usually holds its keyword).
    fn keywords_occur(&self, hay: &[u8], near: Option<std::ops::Range<usize>>) -> bool {
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
    fn keyword_finder(&self) -> Option<&aho_corasick::AhoCorasick> {
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
    /// an anchor literal found wherever it occurs (see [`RuleSet::keywords_hold_anchors`]), this
    /// is whether a keyword occurs at all.
    fn keyword_near(&self, hay: &[u8], offsets: &[usize], longest: usize) -> bool {
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
    fn keywords_in(&self, hay: &[u8]) -> bool {
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
    /// of a large pattern costs a few million instructions, far more than looking for a few
    /// keywords in a draft, so until then a short text without a keyword is passed over before
    /// the DFA is asked for: the rule would report nothing on it anyway. A CLI that screens one
    /// draft would otherwise build a DFA for every rule whose anchor occurs in it. (Once the DFA
    /// exists, keywords are checked only after a match, which is cheaper: most anchors are
    /// turned away within a few bytes.)
    fn dfa_pending(&self) -> bool {
        self.pattern
            .as_ref()
            .is_some_and(|p| p.anchor.is_some() && p.anchored.get().is_none())
    }

    /// Whether this text may have its keywords looked for before the DFA is built: the first
    /// [`FIRST_USE_KEYWORD_CHECKS`] texts do. After that the DFA is built whatever the text, so a
    /// process whose texts often hold the rule's anchor and never a keyword does not pay for the
    /// search on every text (the DFA then turns the anchors away at a few bytes each).
    fn take_keyword_check(&self) -> bool {
        self.keyword_checks_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Whether the rule runs only where its anchor literals occur: a pattern with an anchor,
    /// or a check with [`Check::anchor_words`].
    fn has_anchor(&self) -> bool {
        self.pattern.as_ref().is_some_and(|p| p.anchor.is_some())
            || self
                .check
                .as_ref()
                .is_some_and(|c| !c.anchor_words.is_empty())
    }

    /// Whether everything the rule reports holds a run of at least
    /// [`crate::decode::SHORTEST_RUN`] encoding bytes: a view without one cannot match.
    fn needs_long_run(&self) -> bool {
        self.pattern.as_ref().is_some_and(|p| p.long_run)
            || self.check.as_ref().is_some_and(|c| c.needs_long_run)
    }
}

/// Parses one rule file into compiled rules. Examples are not run here (see [`check_examples`]).
pub(crate) fn load_file(
    file: &str,
    source: &str,
    limits: &PatternLimits,
    checks: &Checks,
) -> Result<Vec<CompiledRule>> {
    load_file_with(file, source, limits, checks, true)
}

/// Like [`load_file`]; with `eager` unset, patterns are only parsed (for their literals) and
/// compiled on first use. Only for the embedded rules, which the test suite compiles.
fn load_file_with(
    file: &str,
    source: &str,
    limits: &PatternLimits,
    checks: &Checks,
    eager: bool,
) -> Result<Vec<CompiledRule>> {
    parse_file(file, source)?
        .into_iter()
        .map(|(line, spec)| compile_rule(file, line, spec, limits, checks, eager))
        .collect()
}

/// The `[[rule]]` tables of a rule file, each with the line it starts on.
fn parse_file(file: &str, source: &str) -> Result<Vec<(usize, RuleSpec)>> {
    let spec: RuleFileSpec = toml::from_str(source).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| line_col(source, s.start));
        Error::RuleFileSyntax {
            file: file.to_owned(),
            line,
            column,
            reason: e.message().to_owned(),
        }
    })?;
    let mut out = Vec::with_capacity(spec.rule.len());
    // Rules come in file order: count line breaks once, not from the top for every rule.
    let (mut counted_to, mut line) = (0usize, 1usize);
    for spanned in spec.rule {
        let start = spanned.span().start.clamp(counted_to, source.len());
        line += memchr::memchr_iter(b'\n', &source.as_bytes()[counted_to..start]).count();
        counted_to = start;
        out.push((line, spanned.into_inner()));
    }
    Ok(out)
}

fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

fn valid_id(id: &str) -> bool {
    let mut parts = id.split('.');
    let ok_part = |p: &str| {
        !p.is_empty()
            && !p.starts_with('-')
            && !p.ends_with('-')
            && !p.contains("--")
            && p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    let first = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    ok_part(first) && !rest.is_empty() && rest.iter().all(|p| ok_part(p))
}

fn compile_rule(
    file: &str,
    line: usize,
    spec: RuleSpec,
    limits: &PatternLimits,
    checks: &Checks,
    eager: bool,
) -> Result<CompiledRule> {
    let invalid = |reason: String| Error::InvalidRule {
        file: file.to_owned(),
        line,
        rule: spec.id.clone(),
        reason,
    };
    if !valid_id(&spec.id) {
        return Err(invalid(
            "id must be `family.kebab-name` in lowercase ASCII".to_owned(),
        ));
    }
    for (name, value) in [
        ("description", &spec.description),
        ("rationale", &spec.rationale),
        ("message", &spec.message),
    ] {
        if value.trim().is_empty() {
            return Err(invalid(format!("`{name}` is empty")));
        }
    }
    if spec.pattern.is_none() && spec.check.is_none() {
        return Err(invalid("needs a `pattern` or a `check`".to_owned()));
    }
    if spec.examples.is_empty() {
        return Err(invalid("needs at least one entry in `examples`".to_owned()));
    }
    if spec.negative_examples.is_empty() {
        return Err(invalid(
            "needs at least one entry in `negative_examples`".to_owned(),
        ));
    }
    for kw in &spec.keywords {
        if kw.is_empty() || !kw.is_ascii() {
            return Err(invalid(format!(
                "keyword {kw:?} must be non-empty ASCII (keywords match the normalised view)"
            )));
        }
    }
    if let Some(e) = spec.min_entropy
        && !(0.0..=8.0).contains(&e)
    {
        return Err(invalid(format!("min_entropy {e} is outside 0..=8")));
    }
    let pattern = match &spec.pattern {
        None => None,
        Some(p) => {
            if p.len() > limits.max_pattern_len {
                return Err(invalid(format!(
                    "pattern is {} bytes, over the limit of {} bytes",
                    p.len(),
                    limits.max_pattern_len
                )));
            }
            // Embedded patterns were analysed by build.rs; others are parsed here.
            let precomputed = precomputed_anchor(p);
            let hir = if precomputed.is_none() {
                parse_hir(p)
            } else {
                None
            };
            let parses = precomputed.is_some() || hir.is_some();
            let (anchor, run) = match precomputed {
                Some(found) => found,
                None => (
                    hir.as_ref().and_then(literal_anchor),
                    hir.as_ref().map_or(0, token_run::required_run),
                ),
            };
            // An anchor the prefilter must test at every byte costs every text a pass; keywords
            // it finds at word starts and punctuation gate the rule as well, at no such cost
            // (the regex then searches a text only where one occurs).
            let anchor = anchor.filter(|a| {
                spec.keywords.is_empty()
                    || a.literals
                        .iter()
                        .all(|l| anchor::found_at_probes(l, a.word_start))
                    || !spec.keywords.iter().all(|k| {
                        anchor::found_at_probes(&k.to_ascii_lowercase().into_bytes(), false)
                    })
            });
            // When each match holds a long run of encoding bytes, texts without one are skipped
            // (see `token_run`): a pattern without an anchor, which would search every text,
            // and the anchor literals of one with, which the prefilter then leaves out.
            let long_run = run >= crate::decode::SHORTEST_RUN;
            let mut first = [u64::MAX; 4];
            if let Some(bytes) = anchor.as_ref().and_then(|a| a.first_bytes.as_ref()) {
                first = [0; 4];
                for &b in bytes {
                    first[usize::from(b >> 6)] |= 1 << (b & 63);
                }
            }
            let pattern = Pattern {
                source: p.clone(),
                limits: *limits,
                first,
                secret: p.contains("(?P<secret>") || p.contains("(?<secret>"),
                anchor,
                long_run,
                compiled: OnceLock::new(),
                anchored: OnceLock::new(),
                groups: OnceLock::new(),
            };
            // A pattern that does not parse is compiled now for the regex crate's own error.
            if eager || !parses {
                let compiled = compile_pattern(p, limits).map_err(invalid)?;
                if compiled.regex.is_match(b"") {
                    return Err(invalid("pattern matches the empty string".to_owned()));
                }
                let _ = pattern.compiled.set(Some(compiled));
            }
            Some(pattern)
        }
    };
    if spec.check.is_some() && pattern.is_some() {
        return Err(invalid(
            "has both `check` and `pattern`; a check carries its own matching".to_owned(),
        ));
    }
    let check = match &spec.check {
        None => None,
        Some(name) => match checks.get(name) {
            Some(code) => Some(RuleCheck::new(name, code)),
            None => {
                let known: Vec<&str> = checks.names().collect();
                return Err(invalid(if known.is_empty() {
                    format!("unknown check `{name}`: this rule set has no checks")
                } else {
                    format!("unknown check `{name}` (known: {})", known.join(", "))
                }));
            }
        },
    };
    Ok(CompiledRule {
        info: RuleInfo {
            id: spec.id,
            kind: spec.kind,
            severity: spec.severity,
            status: spec.status,
            description: spec.description.trim().to_owned(),
            rationale: spec.rationale.trim().to_owned(),
            file: file.to_owned(),
            line,
        },
        message: spec.message.trim().to_owned(),
        keywords: spec.keywords,
        keyword_finder: OnceLock::new(),
        keyword_checks_left: AtomicU32::new(FIRST_USE_KEYWORD_CHECKS),
        pattern,
        check,
        min_entropy: spec.min_entropy,
        validate: spec.validate,
        examples: spec.examples,
        negative_examples: spec.negative_examples,
    })
}

/// A rule's pattern: its source, the literals every match starts with, and the compiled
/// engines (built on first use for the embedded rules, at load time for users' files).
#[derive(Debug)]
struct Pattern {
    source: String,
    limits: PatternLimits,
    /// Bitmap of the bytes a match can start with, from the anchor (all when unknown).
    first: [u64; 4],
    /// The pattern names a `secret` group (the finding's span is that group).
    secret: bool,
    /// Literals that every match carries near its start, when the pattern has a few: the
    /// engine then confirms the pattern only where one occurs.
    anchor: Option<Anchor>,
    /// Every match holds a run of at least [`crate::decode::SHORTEST_RUN`] encoding bytes, so
    /// a text without one cannot match: a pattern without an anchor does not search it, and
    /// the prefilter run on it leaves out the anchor literals of a pattern with one.
    long_run: bool,
    /// The regex, for spans, capture groups and whole-text searches. `None` inside when
    /// compiling failed (only possible for a lazily compiled embedded rule; the test suite
    /// compiles them all).
    compiled: OnceLock<Option<CompiledPattern>>,
    /// Lazy DFA for anchored confirmation at a literal's position (anchored rules). Built on
    /// the rule's first literal occurrence; the regex only when it first matches.
    anchored: OnceLock<Option<DFA>>,
    /// The capture groups of a confirmed match, found by an anchored search over its span
    /// (built on the rule's first match, for rules with a `secret` group).
    groups: OnceLock<Option<MetaRegex>>,
}

#[derive(Debug)]
struct CompiledPattern {
    regex: Regex,
    secret_group: Option<usize>,
}

impl Pattern {
    fn get(&self) -> Option<&CompiledPattern> {
        self.compiled
            .get_or_init(|| compile_pattern(&self.source, &self.limits).ok())
            .as_ref()
    }

    fn group_regex(&self) -> Option<&MetaRegex> {
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

    fn dfa(&self) -> Option<&DFA> {
        self.anchored
            .get_or_init(|| anchored_dfa(&self.source, &self.limits))
            .as_ref()
    }
}

fn compile_pattern(
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
fn anchored_dfa(pattern: &str, limits: &PatternLimits) -> Option<DFA> {
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
fn builtin_nfa(pattern: &str) -> Option<regex_automata::nfa::thompson::NFA> {
    mod table {
        include!(concat!(env!("OUT_DIR"), "/builtin_nfas.rs"));
    }
    let table = table::BUILTIN_NFAS;
    let i = table.binary_search_by(|(p, _)| (*p).cmp(pattern)).ok()?;
    nfa_code::decode(table[i].1, Some(nfa_code::WRITTEN_SIZE_LIMIT))
}

/// The anchor of an embedded pattern and the run of encoding bytes every match holds, computed
/// by `build.rs`; `None` if the pattern is not an embedded one (then [`literal_anchor`] and
/// [`token_run::required_run`] work them out).
fn precomputed_anchor(pattern: &str) -> Option<(Option<Anchor>, usize)> {
    mod table {
        include!(concat!(env!("OUT_DIR"), "/builtin_anchors.rs"));
    }
    let table = table::BUILTIN_ANCHORS;
    let i = table.binary_search_by(|(p, _, _)| (*p).cmp(pattern)).ok()?;
    let (_, anchor, run) = table[i];
    let anchor = anchor.map(|(max_offset, literals, first, word_start)| Anchor {
        max_offset,
        literals: literals.iter().map(|l| l.to_vec()).collect(),
        first_bytes: first.map(<[u8]>::to_vec),
        word_start,
    });
    Some((anchor, run))
}

/// Why an anchored confirmation stopped without an answer.
enum Unsure {
    /// The byte budget for this rule and text is spent (hostile input): search the rest of the
    /// text with the regex instead, which is linear.
    Budget,
    /// The lazy DFA could not continue (cache trouble): the same fallback.
    GaveUp,
}

/// The end of the leftmost-first match that starts exactly at `at`, if any, stepping the lazy
/// DFA by hand so the bytes examined can be counted against `budget`.
fn anchored_end(
    dfa: &DFA,
    cache: &mut DfaCache,
    hay: &[u8],
    at: usize,
    budget: &mut usize,
) -> std::result::Result<Option<usize>, Unsure> {
    let input = Input::new(hay).range(at..).anchored(Anchored::Yes);
    let mut sid = dfa
        .start_state_forward(cache, &input)
        .map_err(|_| Unsure::GaveUp)?;
    let mut end = None;
    for (i, &b) in hay.iter().enumerate().skip(at) {
        if *budget == 0 {
            return Err(Unsure::Budget);
        }
        *budget -= 1;
        sid = dfa.next_state(cache, sid, b).map_err(|_| Unsure::GaveUp)?;
        if sid.is_tagged() {
            if sid.is_match() {
                // Matches are reported one byte late: this one ends before byte `i`.
                end = Some(i);
            } else if sid.is_dead() {
                return Ok(end);
            } else if sid.is_quit() {
                return Err(Unsure::GaveUp);
            }
        }
    }
    sid = dfa.next_eoi_state(cache, sid).map_err(|_| Unsure::GaveUp)?;
    if sid.is_match() {
        end = Some(hay.len());
    }
    Ok(end)
}

/// Which rules each prefilter literal belongs to, and how, in two flat arrays (the hit
/// callback runs for every literal occurrence; one array read there instead of a vector per
/// literal and use saves a dependent load that often missed the cache).
#[derive(Debug, Default)]
struct LiteralUses {
    /// `rules[start[i]..start[i + 1]]` are literal `i`'s uses.
    start: Vec<u32>,
    /// A rule index, with [`KEYWORD_USE`] set when the literal is one of its keywords (one
    /// occurrence anywhere makes the rule a candidate); otherwise it is one of the rule's
    /// prefix literals (each occurrence is a place to confirm the pattern).
    rules: Vec<u32>,
}

/// The bit of a [`LiteralUses`] entry that marks a keyword.
const KEYWORD_USE: u32 = 1 << 31;

impl LiteralUses {
    fn of(&self, literal: usize) -> &[u32] {
        &self.rules[self.start[literal] as usize..self.start[literal + 1] as usize]
    }
}

/// Per-scan working memory, kept between scans so a scan allocates nothing of its own.
#[derive(Debug, Default)]
struct Scratch {
    /// The prefilter's working memory.
    stage: Vec<u32>,
    candidate: Vec<bool>,
    /// Rules a keyword made candidates, in the order they became so.
    keyed: Vec<u32>,
    /// Per rule, the view offsets of its prefix literals (ascending: the filter reports in
    /// order), and the rules that have any.
    offsets: Vec<Vec<usize>>,
    touched: Vec<u32>,
    /// One lazy-DFA cache per rule, created when the rule first confirms a hit.
    caches: Vec<Option<DfaCache>>,
    /// The view's words, counted from the prefilter's masks for the length check.
    words: WordTally,
}

/// Compiled rules plus the keyword prefilter. Immutable once built.
#[derive(Debug)]
pub(crate) struct RuleSet {
    rules: Vec<CompiledRule>,
    /// Every keyword and every derived prefix literal; literal `i` is used as
    /// `literal_uses.of(i)` says.
    filter: LiteralFilter,
    /// The same literals but those only rules that need a long run of encoding bytes use (the
    /// numbering holds): the filter for a text known to have no such run, which support prose
    /// never has. `None` when no literal is left out. Credential anchors such as
    /// Twilio's `AC` and a hex digit found `account` and `access` in every other reply.
    filter_without_long_runs: Option<LiteralFilter>,
    literal_uses: LiteralUses,
    /// Per rule, whether it is a candidate on every text (it has no keywords): where a scan's
    /// candidates start from, copied whole.
    always_candidate: Vec<bool>,
    /// Those of `always` without an anchor: they run on every text.
    always_unanchored: Vec<u32>,
    /// Rules whose check may want the word count ([`Check::counts_words`]): the prefilter's
    /// pass counts words when one of them asks.
    word_counters: Vec<u32>,
    /// Per rule: every anchor literal holds one of its keywords, so a match implies one.
    keywords_implied: Vec<bool>,
    /// Per rule whose keywords all hold an anchor literal found everywhere
    /// ([`RuleSet::keywords_hold_anchors`]): the longest keyword's length.
    keyword_reach: Vec<Option<usize>>,
    scratch: Mutex<Vec<Scratch>>,
}

impl RuleSet {
    /// Builds the set, rejecting duplicate ids. Deprecated rules are kept for listing only.
    pub(crate) fn new(rules: Vec<CompiledRule>) -> Result<Self> {
        let mut seen: HashMap<&str, (&str, usize)> = HashMap::new();
        for r in &rules {
            if let Some((first_file, first_line)) =
                seen.insert(&r.info.id, (&r.info.file, r.info.line))
            {
                return Err(Error::DuplicateRule {
                    file: r.info.file.clone(),
                    line: r.info.line,
                    rule: r.info.id.clone(),
                    first_file: first_file.to_owned(),
                    first_line,
                });
            }
        }
        // A literal with whether it is needed only at word starts (a keyword may occur
        // anywhere; an anchor literal as its anchor says).
        // One index per word-start flag, keyed by the literal, so a literal seen before is
        // found without copying it (loading the rules looks up some 1,600).
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
        let filter = LiteralFilter::new(literals);
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
    fn keywords_hold_anchors(rule: &CompiledRule) -> bool {
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

    /// Runs every candidate rule over `view` and appends findings (unsorted).
    ///
    /// One pass of the prefilter finds every keyword and prefix literal. A rule with keywords
    /// runs only when one occurs; a rule with prefix literals is confirmed only where one
    /// occurs, with an anchored search at that offset (the same matches as searching the whole
    /// text, since every match starts at such an occurrence); other rules search the text.
    pub(crate) fn scan(
        &self,
        view: &Normalized<'_>,
        ctx: Option<&dyn Any>,
        keep: &dyn Fn(&CompiledRule) -> bool,
        out: &mut Vec<Finding>,
    ) {
        self.scan_knowing(view, ctx, keep, None, out);
    }

    /// [`RuleSet::scan`], told whether the view holds a run of at least
    /// [`crate::decode::SHORTEST_RUN`] encoding bytes (`None`: work it out if needed).
    pub(crate) fn scan_knowing(
        &self,
        view: &Normalized<'_>,
        ctx: Option<&dyn Any>,
        keep: &dyn Fn(&CompiledRule) -> bool,
        long_run: Option<bool>,
        out: &mut Vec<Finding>,
    ) {
        let mut scratch = self
            .scratch
            .lock()
            .ok()
            .and_then(|mut pool| pool.pop())
            .unwrap_or_default();
        self.scan_with(&mut scratch, view, ctx, keep, long_run, out);
        if let Ok(mut pool) = self.scratch.lock() {
            pool.push(scratch);
        }
    }

    fn scan_with(
        &self,
        scratch: &mut Scratch,
        view: &Normalized<'_>,
        ctx: Option<&dyn Any>,
        keep: &dyn Fn(&CompiledRule) -> bool,
        mut has_long_run: Option<bool>,
        out: &mut Vec<Finding>,
    ) {
        let Scratch {
            stage,
            candidate,
            keyed,
            offsets,
            touched,
            caches,
            words,
        } = scratch;
        let n = self.rules.len();
        candidate.clear();
        candidate.extend_from_slice(&self.always_candidate);
        keyed.clear();
        touched.clear();
        offsets.resize_with(n, Vec::new);
        let hay = view.as_str().as_bytes();
        let filter = match (has_long_run, &self.filter_without_long_runs) {
            (Some(false), Some(without)) => without,
            _ => &self.filter,
        };
        let mixed = filter.out_of_order();
        words.reset();
        // Words are counted only when a check asks for them on this text (a long draft).
        let count_words = self.word_counters.iter().any(|&i| {
            self.rules[i as usize]
                .check
                .as_ref()
                .is_some_and(|c| c.code.wants_word_tally(hay.len(), ctx))
        });
        let mut on_hit = |lit, at| {
            for &entry in self.literal_uses.of(lit) {
                let i = entry & !KEYWORD_USE;
                if entry & KEYWORD_USE != 0 {
                    if !candidate[i as usize] {
                        candidate[i as usize] = true;
                        keyed.push(i);
                    }
                    continue;
                }
                let list = &mut offsets[i as usize];
                if list.is_empty() {
                    touched.push(i);
                }
                if list.last() != Some(&at) {
                    list.push(at);
                }
            }
        };
        // Two copies of the pass: the one that does not count leaves the blank masks unmade.
        let tallied = if count_words {
            filter.for_each_hit_and_group(hay, stage, &mut on_hit, |at, masks, within| {
                words.add(at, masks.alnum, masks.blank, within);
            })
        } else {
            filter.for_each_hit_and_group(hay, stage, &mut on_hit, |_, _, _| {});
            false
        };
        let words = tallied.then_some(&*words);
        if caches.len() < n {
            caches.resize_with(n, || None);
        }
        // Rules confirmed where their anchors occur; occurrences for rules that no keyword
        // selected are not confirmed.
        for &i in touched.iter() {
            let i = i as usize;
            let mut mine = std::mem::take(&mut offsets[i]);
            if mixed && !mine.is_sorted() {
                // A literal found by a suffix is reported where it starts, behind later hits,
                // and the every-offset pass runs after the word-start pass.
                mine.sort_unstable();
                mine.dedup();
            }
            let rule = &self.rules[i];
            // No keyword near an anchor hit means none in the text: nothing to confirm.
            let keyword_absent = || {
                self.keyword_reach[i].is_some_and(|reach| !rule.keyword_near(hay, &mine, reach))
                    || (!self.keywords_implied[i]
                        && hay.len() <= FIRST_USE_KEYWORD_CHECK_MAX_LEN
                        && rule.dfa_pending()
                        && rule.take_keyword_check()
                        && !rule.keywords_in(hay))
            };
            if candidate[i] && keep(rule) && !keyword_absent() {
                let before = out.len();
                let mut first_match = None;
                let anchored = rule.pattern.as_ref().and_then(|p| {
                    let anchor = p.anchor.as_ref()?;
                    Some((anchor, p, p.dfa()?))
                });
                match anchored {
                    Some((anchor, pattern, dfa)) => {
                        let cache = caches[i].get_or_insert_with(|| dfa.create_cache());
                        let hits = Hits {
                            offsets: &mine,
                            max_offset: anchor.max_offset,
                            first: &pattern.first,
                        };
                        first_match = run_at_hits(rule, pattern, dfa, cache, &hits, view, out);
                    }
                    None => run_rule_at(rule, view, ctx, Some(&mine), words, out),
                }
                // A rule with keywords reports nothing on a text without one of them.
                if out.len() > before
                    && !self.keywords_implied[i]
                    && !rule.keywords_occur(hay, first_match)
                {
                    out.truncate(before);
                }
            }
            // Back in place, emptied, to keep its capacity for the next scan.
            offsets[i] = mine;
            offsets[i].clear();
        }
        // Rules without an anchor search the view themselves (an anchored rule whose anchor
        // never occurs cannot match), unless they need a long run the view does not have.
        for &i in self.always_unanchored.iter().chain(keyed.iter()) {
            let rule = &self.rules[i as usize];
            if !rule.has_anchor() && keep(rule) {
                if rule.needs_long_run()
                    && !*has_long_run
                        .get_or_insert_with(|| crate::decode::first_long_run(hay).is_some())
                {
                    continue;
                }
                run_rule_at(rule, view, ctx, None, words, out);
            }
        }
    }
}

/// Longest text for which a rule whose lazy DFA is not built yet has its keywords looked for
/// before the DFA is built (see [`CompiledRule::dfa_pending`]): a draft or a ticket, not a
/// long document, where the search would cost more than it can save.
const FIRST_USE_KEYWORD_CHECK_MAX_LEN: usize = 16 * 1024;

/// How many texts per rule may have their keywords looked for before the rule's lazy DFA is
/// built (see [`CompiledRule::take_keyword_check`]).
const FIRST_USE_KEYWORD_CHECKS: u32 = 16;

/// Where a rule's anchor literals occur, and how far before them a match may start.
struct Hits<'h> {
    offsets: &'h [usize],
    max_offset: usize,
    /// Bitmap of the bytes a match can start with (every byte when unknown).
    first: &'h [u64; 4],
}

/// Confirms an anchored rule at the starts each literal occurrence allows, in order,
/// returning the view span of the first match it confirmed (if it searched the rest of the
/// view with the regex, none),
/// reporting the same matches as the regex's own non-overlapping search over the whole view:
/// every match starts within `max_offset` bytes before an occurrence, so no start outside
/// those windows can match, and starts are tried in increasing order.
fn run_at_hits(
    rule: &CompiledRule,
    pattern: &Pattern,
    dfa: &DFA,
    cache: &mut DfaCache,
    hits: &Hits<'_>,
    view: &Normalized<'_>,
    out: &mut Vec<Finding>,
) -> Option<std::ops::Range<usize>> {
    let hay = view.as_str().as_bytes();
    let mut first_match = None;
    // Each confirmation stops where the DFA dies, usually a few bytes on; the budget keeps a
    // text built to make every confirmation run long (one long line full of literals) linear.
    let mut budget = hay.len().saturating_mul(4).saturating_add(4096);
    // Every start before `next` has been tried (or lies in no window, or inside a match).
    let mut next = 0;
    for &at in hits.offsets {
        let mut start = next.max(at.saturating_sub(hits.max_offset));
        while start <= at {
            let b = hay[start];
            if (hits.first[usize::from(b >> 6)] >> (b & 63)) & 1 == 0 {
                start += 1;
                continue;
            }
            match anchored_end(dfa, cache, hay, start, &mut budget) {
                Ok(None) => start += 1,
                Ok(Some(end)) => {
                    first_match.get_or_insert(start..end);
                    if !pattern.secret {
                        // The DFA's span is the finding: no regex to compile for groups.
                        push_match(rule, view, start..end, out);
                    } else if let Some(compiled) = pattern.get() {
                        emit_match(rule, pattern, compiled, view, start, end, out);
                    }
                    start = end.max(start + 1);
                }
                Err(Unsure::Budget | Unsure::GaveUp) => {
                    // No match starts before `start`: the regex from there finds the rest.
                    if let Some(compiled) = pattern.get() {
                        search_from(rule, compiled, view, start, out);
                    }
                    return first_match;
                }
            }
        }
        next = next.max(start);
    }
    first_match
}

/// Reports the match `start..end` (found by the DFA) with its secret group if it has one.
fn emit_match(
    rule: &CompiledRule,
    pattern: &Pattern,
    compiled: &CompiledPattern,
    view: &Normalized<'_>,
    start: usize,
    end: usize,
    out: &mut Vec<Finding>,
) {
    let hay = view.as_str().as_bytes();
    let Some(group) = compiled.secret_group else {
        push_match(rule, view, start..end, out);
        return;
    };
    if let Some(re) = pattern.group_regex() {
        // Capture groups of the match the DFA found, searched only over `start..end` and
        // anchored (no reverse search for the start; look-around still sees the whole view).
        // The match is the same: it was the leftmost-first one at `start`, and it fits.
        let mut caps = re.create_captures();
        re.search_captures(
            &Input::new(hay).range(start..end).anchored(Anchored::Yes),
            &mut caps,
        );
        if let Some(whole) = caps.get_match() {
            let span = caps.get_group(group).unwrap_or(whole.span());
            push_match(rule, view, span.range(), out);
            return;
        }
    }
    // The leftmost match from `start` is the one the DFA found.
    if let Some(caps) = compiled.regex.captures_at(hay, start)
        && let Some(whole) = caps.get(0)
    {
        let m = caps.get(group).unwrap_or(whole);
        push_match(rule, view, m.range(), out);
    }
}

/// The regex's own search from `from` to the end of the view.
fn search_from(
    rule: &CompiledRule,
    compiled: &CompiledPattern,
    view: &Normalized<'_>,
    from: usize,
    out: &mut Vec<Finding>,
) {
    let hay = view.as_str().as_bytes();
    let re = &compiled.regex;
    let mut at = from;
    while at <= hay.len() {
        let next = if let Some(group) = compiled.secret_group {
            let Some(caps) = re.captures_at(hay, at) else {
                break;
            };
            let Some(whole) = caps.get(0) else { break };
            let m = caps.get(group).unwrap_or(whole);
            push_match(rule, view, m.range(), out);
            whole.range()
        } else {
            let Some(m) = re.find_at(hay, at) else { break };
            push_match(rule, view, m.range(), out);
            m.range()
        };
        at = if next.end > next.start {
            next.end
        } else {
            next.end + 1
        };
    }
}

/// Runs one rule over the view, appending findings with spans into the original text.
pub(crate) fn run_rule(
    rule: &CompiledRule,
    view: &Normalized<'_>,
    ctx: Option<&dyn Any>,
    out: &mut Vec<Finding>,
) {
    run_rule_at(rule, view, ctx, None, None, out);
}

/// [`run_rule`], with a check's anchor offsets when the prefilter found them.
fn run_rule_at(
    rule: &CompiledRule,
    view: &Normalized<'_>,
    ctx: Option<&dyn Any>,
    anchors: Option<&[usize]>,
    words: Option<&WordTally>,
    out: &mut Vec<Finding>,
) {
    if let Some(check) = &rule.check {
        let pass = Pass {
            view,
            context: ctx,
            anchors,
            words,
        };
        check
            .code
            .run(&pass, &mut |span: Range<usize>, note: Option<String>| {
                // Pushed rather than `format!`ed: a long draft gets a length finding every
                // time, and the formatting machinery cost more than the rest of that finding.
                let message = match note {
                    Some(n) => {
                        let mut m = String::with_capacity(rule.message.len() + n.len() + 3);
                        m.push_str(&rule.message);
                        m.push_str(" (");
                        m.push_str(&n);
                        m.push(')');
                        m
                    }
                    None => rule.message.clone(),
                };
                out.push(Finding::new(
                    rule.info.id.clone(),
                    rule.info.kind,
                    rule.info.severity,
                    view.to_original(span),
                    message,
                ));
            });
        return;
    }
    let Some(compiled) = rule.pattern.as_ref().and_then(Pattern::get) else {
        return;
    };
    let re = &compiled.regex;
    let hay = view.as_str().as_bytes();
    if let Some(group) = compiled.secret_group {
        for caps in re.captures_iter(hay) {
            let Some(whole) = caps.get(0) else { continue };
            let m = caps.get(group).unwrap_or(whole);
            push_match(rule, view, m.range(), out);
        }
    } else {
        for m in re.find_iter(hay) {
            push_match(rule, view, m.range(), out);
        }
    }
}

fn push_match(
    rule: &CompiledRule,
    view: &Normalized<'_>,
    range: Range<usize>,
    out: &mut Vec<Finding>,
) {
    let value = &view.as_str().as_bytes()[range.clone()];
    let mut severity = rule.info.severity;
    let mut note = String::new();
    if rule.info.kind == Kind::Credential && filters::is_placeholder(value) {
        return;
    }
    if let Some(min) = rule.min_entropy
        && filters::shannon_entropy(value) < min
    {
        return;
    }
    if let Some(v) = rule.validate {
        match filters::validate(v, value) {
            filters::Verdict::Valid => {
                if v != ValidatorName::Jwt {
                    note.push_str(", checksum valid");
                }
            }
            filters::Verdict::Invalid => {
                // The shape still leaks; a failed checksum only lowers confidence.
                severity = Severity::Notice;
                note.push_str(", checksum does not match");
            }
            filters::Verdict::Reject => return,
        }
    }
    let message = if rule.info.kind == Kind::Credential {
        format!("{} [{}{}]", rule.message, masked_preview(value), note)
    } else {
        rule.message.clone()
    };
    out.push(Finding::new(
        rule.info.id.clone(),
        rule.info.kind,
        severity,
        view.to_original(range),
        message,
    ));
}

/// Sorts by span and drops credential findings covered by a longer credential finding (a
/// generic `password=` rule and a specific token rule on the same value say one thing).
pub(crate) fn tidy(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.span().start, std::cmp::Reverse(a.span().end), a.rule()).cmp(&(
            b.span().start,
            std::cmp::Reverse(b.span().end),
            b.rule(),
        ))
    });
    let mut out: Vec<Finding> = Vec::with_capacity(findings.len());
    let mut cover_end = 0usize;
    let mut cover_start = usize::MAX;
    for f in findings {
        if f.kind() == Kind::Credential {
            let s = f.span();
            if cover_start != usize::MAX && s.start >= cover_start && s.end <= cover_end {
                continue;
            }
            cover_start = s.start;
            cover_end = s.end;
        }
        out.push(f);
    }
    out
}

/// At most the first four characters (only for values long enough that four reveal little)
/// and the length.
pub(crate) fn masked_preview(value: &[u8]) -> String {
    let len = String::from_utf8_lossy(value).chars().count();
    if len >= 16 {
        let head: String = String::from_utf8_lossy(value).chars().take(4).collect();
        format!("{head}… {len} chars")
    } else {
        format!("{len} chars")
    }
}

/// Runs every rule's examples and negative examples, each through the rule alone and through
/// `full` (so prefilter bugs show). Returns one message per failure.
pub(crate) fn check_examples<'a>(
    rules: impl IntoIterator<Item = &'a CompiledRule>,
    ctx: Option<&dyn Any>,
    full: &dyn Fn(&str) -> Vec<Finding>,
) -> Vec<(String, usize, String, String)> {
    let mut failures = Vec::new();
    for rule in rules {
        if rule.info.status == Status::Deprecated {
            continue;
        }
        let fail = |reason: String| {
            (
                rule.info.file.clone(),
                rule.info.line,
                rule.info.id.clone(),
                reason,
            )
        };
        for (positive, list) in [(true, &rule.examples), (false, &rule.negative_examples)] {
            for ex in list {
                let text = ex.text();
                let view = Normalized::new(text);
                let mut alone = Vec::new();
                run_rule(rule, &view, ctx, &mut alone);
                let through: Vec<Finding> = full(text)
                    .into_iter()
                    .filter(|f| f.rule() == rule.info.id)
                    .collect();
                let label = if positive {
                    "example"
                } else {
                    "negative example"
                };
                if positive {
                    if alone.is_empty() {
                        failures.push(fail(format!("{label} does not match: {text:?}")));
                    } else if through.is_empty() {
                        failures.push(fail(format!(
                            "{label} matches alone but not through the full rule set \
                             (check `keywords`): {text:?}"
                        )));
                    }
                    if let Some([s, e]) = ex.span()
                        && !alone.iter().any(|f| f.span() == (s..e))
                    {
                        let got: Vec<_> = alone.iter().map(Finding::span).collect();
                        failures.push(fail(format!(
                            "{label} span {s}..{e} not found (got {got:?}): {text:?}"
                        )));
                    }
                } else if !alone.is_empty() || !through.is_empty() {
                    failures.push(fail(format!("{label} matches: {text:?}")));
                }
            }
        }
    }
    failures
}

/// Loads the embedded rule files.
pub(crate) fn builtin_rules(limits: &PatternLimits, checks: &Checks) -> Result<Vec<CompiledRule>> {
    let mut all = Vec::new();
    for (file, source) in BUILTIN_RULE_FILES {
        // The tables build.rs wrote out; the TOML only if it left the file to the parser.
        match builtin::builtin_specs(file) {
            Some(specs) => {
                for (line, spec) in specs {
                    all.push(compile_rule(file, line, spec, limits, checks, false)?);
                }
            }
            None => all.extend(load_file_with(file, source, limits, checks, false)?),
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::Context;

    fn draft_checks() -> Checks {
        crate::screen::checks::registry()
    }

    /// `(file, pattern)` of every embedded rule with a pattern, read from the TOML.
    fn embedded_patterns() -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        for (file, source) in BUILTIN_RULE_FILES {
            let table: toml::Table = toml::from_str(source).unwrap();
            for rule in table["rule"].as_array().unwrap() {
                if let Some(p) = rule.get("pattern").and_then(|p| p.as_str()) {
                    out.push((*file, p.to_owned()));
                }
            }
        }
        out
    }

    /// The rule tables build.rs writes out for each embedded file are what parsing its TOML
    /// gives, lines included; and no embedded file is left to the parser at start-up.
    #[test]
    fn precomputed_specs_match_the_toml() {
        for (file, source) in BUILTIN_RULE_FILES {
            let parsed = parse_file(file, source).unwrap();
            let written = builtin::builtin_specs(file)
                .unwrap_or_else(|| panic!("build.rs left {file} to the run-time parser"));
            assert_eq!(written.len(), parsed.len(), "{file}");
            for ((wl, w), (pl, p)) in written.iter().zip(&parsed) {
                assert_eq!(wl, pl, "{file}: {}", p.id);
                assert_eq!(format!("{w:?}"), format!("{p:?}"), "{file}: {}", p.id);
            }
        }
    }

    /// Every embedded pattern's DFA is built from the NFA build.rs wrote out: it must read back
    /// as the NFA compiled from the pattern with the settings the DFA builder uses (states,
    /// starts, byte classes, assertions, size), so the DFA is the same either way. Other
    /// patterns have none.
    #[test]
    fn written_out_nfas_equal_the_compiled_ones() {
        assert_eq!(
            PatternLimits::default().compiled_size,
            nfa_code::WRITTEN_SIZE_LIMIT
        );
        let patterns = embedded_patterns();
        for (file, p) in &patterns {
            let compiled = nfa_code::compile(p, nfa_code::WRITTEN_SIZE_LIMIT).unwrap();
            let written = builtin_nfa(p).unwrap_or_else(|| panic!("{file}: no NFA for {p}"));
            assert_eq!(
                format!("{written:?}"),
                format!("{compiled:?}"),
                "{file}: {p}"
            );
            assert_eq!(
                format!("{:?}", written.byte_classes()),
                format!("{:?}", compiled.byte_classes()),
                "{p}"
            );
            assert_eq!(written.look_set_any(), compiled.look_set_any(), "{p}");
            assert_eq!(written.has_empty(), compiled.has_empty(), "{p}");
            assert_eq!(written.memory_usage(), compiled.memory_usage(), "{p}");
            assert_eq!(
                written.is_always_start_anchored(),
                compiled.is_always_start_anchored(),
                "{p}"
            );
        }
        assert!(patterns.len() > 150, "{}", patterns.len());
        assert!(builtin_nfa(r"\bnot-an-embedded-pattern\b").is_none());
    }

    /// The table build.rs writes holds what the library computes for each embedded pattern
    /// (the runs with build.rs's own copy of the encoding bytes).
    #[test]
    fn precomputed_anchors_match() {
        for (file, p) in embedded_patterns() {
            let hir = parse_hir(&p).unwrap();
            let computed = (literal_anchor(&hir), token_run::required_run(&hir));
            assert_eq!(precomputed_anchor(&p), Some(computed), "{file}: {p}");
        }
    }

    #[test]
    fn ids_follow_the_convention() {
        assert!(valid_id("credential.github-classic-token"));
        assert!(valid_id("draft.email-address"));
        assert!(!valid_id("Credential.x"));
        assert!(!valid_id("nodot"));
        assert!(!valid_id("a.b--c"));
        assert!(!valid_id("a.-b"));
    }

    #[test]
    fn line_and_column() {
        let s = "a\nbc\nd";
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 3), (2, 2));
        assert_eq!(line_col(s, 5), (3, 1));
    }

    /// Every embedded pattern compiles (they are compiled lazily in a running screener).
    #[test]
    fn every_builtin_pattern_compiles() {
        let limits = PatternLimits::default();
        for (file, source) in BUILTIN_RULE_FILES {
            for rule in load_file(file, source, &limits, &draft_checks()).unwrap() {
                if let Some(p) = &rule.pattern {
                    assert!(p.get().is_some(), "{}", rule.info.id);
                    assert!(p.dfa().is_some() || p.anchor.is_none(), "{}", rule.info.id);
                }
            }
        }
    }

    /// No embedded pattern searches every text: those without an anchor literal are long runs
    /// of token bytes, which clean prose does not have.
    #[test]
    fn unanchored_embedded_patterns_need_a_long_run() {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        let unanchored: Vec<&CompiledRule> = set
            .always_unanchored
            .iter()
            .map(|&i| &set.rules[i as usize])
            .filter(|r| r.pattern.is_some())
            .collect();
        assert!(
            unanchored.len() >= 3,
            "the embedded set has unanchored patterns"
        );
        for r in unanchored {
            assert!(
                r.pattern.as_ref().is_some_and(|p| p.long_run),
                "{} searches every text",
                r.info.id
            );
        }
        let prose = include_str!("../benches/fixtures/prose_varied.txt");
        assert_eq!(crate::decode::first_long_run(prose.as_bytes()), None);
    }

    /// The one-pass engine (prefilter, anchored confirmation at literal occurrences) gives
    /// exactly the findings of running each keyword-selected rule's regex over the whole view.
    #[test]
    fn anchored_confirmation_matches_whole_text_search() {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        let mut texts: Vec<String> = Vec::new();
        for rule in set.rules() {
            for ex in rule.examples.iter().chain(&rule.negative_examples) {
                texts.push(ex.text().to_owned());
            }
        }
        let joined_space = texts.join(" ");
        let joined_line = texts.join("\n");
        let glued = texts.concat();
        texts.extend([joined_space, joined_line, glued]);
        for fixture in [
            include_str!("../benches/fixtures/draft_dirty.txt"),
            include_str!("../benches/fixtures/ticket_unicode.txt"),
            include_str!("../benches/fixtures/marker_fragments.txt"),
            include_str!("../benches/fixtures/digits.txt"),
        ] {
            texts.push(fixture.to_owned());
        }
        let ctx = Context::example();
        for text in &texts {
            let view = Normalized::new(text);
            let mut fast = Vec::new();
            set.scan(&view, Some(&ctx), &|_| true, &mut fast);
            assert_eq!(
                sorted_keys(&fast),
                whole_text_search(&set, &view, &ctx),
                "on {text:?}"
            );
        }
    }

    /// A text built so every confirmation runs to the end of one long line spends the budget;
    /// the rest of the text is then searched by the regex, with the same findings.
    #[test]
    fn long_confirmations_fall_back_to_the_regex() {
        let toml = r#"
[[rule]]
id = "test.long-tail"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '(?i)\bfoo\b[^\n]*\bzzz\b'
examples = ["foo then zzz"]
negative_examples = ["foo alone"]
"#;
        let limits = PatternLimits::default();
        let set =
            RuleSet::new(load_file("t.toml", toml, &limits, &draft_checks()).unwrap()).unwrap();
        let rule = &set.rules()[0];
        assert!(rule.pattern.as_ref().unwrap().anchor.is_some());
        for tail in ["", " zzz", " zzz\nfoo zzz"] {
            let text = format!("{}{tail}", "foo ".repeat(20_000));
            let view = Normalized::new(&text);
            let mut fast = Vec::new();
            set.scan(&view, None, &|_| true, &mut fast);
            let mut slow = Vec::new();
            run_rule(rule, &view, None, &mut slow);
            let spans = |v: &[Finding]| v.iter().map(Finding::span).collect::<Vec<_>>();
            assert_eq!(spans(&fast), spans(&slow), "tail {tail:?}");
        }
    }

    /// A literal that a rule needing a long run shares with one that does not stays in the
    /// prefilter for texts without a long run, and only there do the long-run rules' own
    /// literals go.
    #[test]
    fn literals_shared_with_a_rule_that_needs_no_long_run_stay() {
        let toml = r#"
[[rule]]
id = "test.long-token"
kind = "credential"
severity = "block"
description = "d"
rationale = "r"
message = "m"
pattern = '\b(?:zqxwa|vvkqp)[a-z0-9]{30}'
examples = ["zqxwaabcdefghijabcdefghijabcdefghij"]
negative_examples = ["zqxwa"]

[[rule]]
id = "test.short-word"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '\bzqxwa\b'
examples = ["say zqxwa now"]
negative_examples = ["zqxwab"]
"#;
        let limits = PatternLimits::default();
        let set =
            RuleSet::new(load_file("t.toml", toml, &limits, &draft_checks()).unwrap()).unwrap();
        let literals =
            |r: &CompiledRule| r.pattern.as_ref().unwrap().anchor.clone().unwrap().literals;
        let (long, short) = (literals(&set.rules()[0]), literals(&set.rules()[1]));
        assert_eq!(short, [b"zqxwa".to_vec()]);
        assert_eq!(
            long,
            [b"vvkqp".to_vec(), b"zqxwa".to_vec()],
            "the rules share a literal"
        );
        let without = set
            .filter_without_long_runs
            .as_ref()
            .expect("vvkqp is left out");
        let mut seen = Vec::new();
        let text = b"zqxwa vvkqp";
        let mut stage = Vec::new();
        without.for_each_hit(text, &mut stage, |lit, at| {
            seen.push((without.literal(lit).to_vec(), at))
        });
        assert_eq!(seen, [(b"zqxwa".to_vec(), 0)]);
        let view = Normalized::new("say zqxwa now");
        let mut found = Vec::new();
        set.scan_knowing(&view, None, &|_| true, Some(false), &mut found);
        assert_eq!(
            found.iter().map(Finding::rule).collect::<Vec<_>>(),
            ["test.short-word"]
        );
    }

    /// Before a rule's lazy DFA exists, a short text with its anchor but none of its keywords
    /// is passed over without building the DFA; the findings are those of a rule whose DFA is
    /// built, and of the regex.
    #[test]
    fn keywords_are_looked_for_before_the_first_dfa_is_built() {
        let toml = r#"
[[rule]]
id = "test.keyword-gated"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
keywords = ["Prompt", "rules"]
pattern = '(?i)\breveal\s+(?:the|your)\s+\w+'
examples = ["reveal your prompt"]
negative_examples = ["reveal your order"]
"#;
        let limits = PatternLimits::default();
        let fresh =
            || RuleSet::new(load_file("t.toml", toml, &limits, &draft_checks()).unwrap()).unwrap();
        let scan = |set: &RuleSet, text: &str| {
            let mut out = Vec::new();
            set.scan(&Normalized::new(text), None, &|_| true, &mut out);
            out.iter().map(Finding::span).collect::<Vec<_>>()
        };
        let warm = fresh();
        scan(&warm, "reveal the PROMPT");
        assert!(!warm.rules()[0].dfa_pending());
        for text in [
            "Reveal your order number, please.",
            "reveal the details; the RULES apply",
            "reveal your prompt",
            "REVEAL THE PrOmPt and reveal the rules",
            "prompt first, then reveal the box",
        ] {
            let set = fresh();
            assert!(set.rules()[0].dfa_pending());
            let found = scan(&set, text);
            let lower = text.to_ascii_lowercase();
            let has_keyword = lower.contains("prompt") || lower.contains("rules");
            // Built only when a keyword made it worth confirming the anchor.
            assert_eq!(!set.rules()[0].dfa_pending(), has_keyword, "{text:?}");
            assert_eq!(found, scan(&warm, text), "{text:?}");
            let mut slow = Vec::new();
            run_rule(&set.rules()[0], &Normalized::new(text), None, &mut slow);
            let slow: Vec<_> = if has_keyword {
                slow.iter().map(Finding::span).collect()
            } else {
                Vec::new()
            };
            assert_eq!(found, slow, "{text:?}");
        }
        // Only the first texts are looked at this way: a process whose texts keep holding the
        // anchor without a keyword builds the DFA after that, and finds the same (nothing).
        let set = fresh();
        for k in 0..FIRST_USE_KEYWORD_CHECKS {
            assert!(scan(&set, "reveal your order").is_empty());
            assert!(set.rules()[0].dfa_pending(), "text {k}");
        }
        assert!(scan(&set, "reveal your order").is_empty());
        assert!(!set.rules()[0].dfa_pending());
    }

    /// Every example and negative example of every rule in `set`.
    fn example_texts(set: &RuleSet) -> Vec<&str> {
        set.rules()
            .iter()
            .flat_map(|r| r.examples.iter().chain(&r.negative_examples))
            .map(ExampleSpec::text)
            .collect()
    }

    /// A seeded pick below `n` (xorshift64): the same sequence on every machine.
    fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// The same comparison on texts glued together from rule examples at random (fixed seed),
    /// so literals land next to each other, inside words and at text edges.
    #[test]
    fn anchored_confirmation_matches_on_mixed_examples() {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        let pieces = example_texts(&set);
        let glue = [
            " ", "\n", "", ",", ".", "x", "_", "-", "=", ":", "\"", "'", "  ", "\t", "9", "é", "Zq",
        ];
        let mut next = picker(0x9E37_79B9_7F4A_7C15u64);
        let ctx = Context::example();
        for _ in 0..1000 {
            let mut text = String::new();
            for _ in 0..1 + next(4) {
                text.push_str(glue[next(glue.len())]);
                let piece = pieces[next(pieces.len())];
                if next(4) == 0 {
                    text.push_str(&piece.to_ascii_uppercase());
                } else {
                    text.push_str(piece);
                }
            }
            let view = Normalized::new(&text);
            let mut fast = Vec::new();
            set.scan(&view, Some(&ctx), &|_| true, &mut fast);
            assert_eq!(
                sorted_keys(&fast),
                whole_text_search(&set, &view, &ctx),
                "on {text:?}"
            );
        }
    }

    /// `(span, rule, message)` of each finding, sorted.
    fn sorted_keys(findings: &[Finding]) -> Vec<(std::ops::Range<usize>, String, String)> {
        let mut keys: Vec<_> = findings
            .iter()
            .map(|f| (f.span(), f.rule().to_owned(), f.message().to_owned()))
            .collect();
        keys.sort_by(|a, b| {
            (a.0.start, a.0.end, &a.1, &a.2).cmp(&(b.0.start, b.0.end, &b.1, &b.2))
        });
        keys
    }

    /// [`sorted_keys`] of every rule a keyword selects run over the whole view with its regex.
    fn whole_text_search(
        set: &RuleSet,
        view: &Normalized<'_>,
        ctx: &Context,
    ) -> Vec<(std::ops::Range<usize>, String, String)> {
        let lower = view.as_str().to_ascii_lowercase();
        let mut slow = Vec::new();
        for rule in set.rules() {
            let gate = rule.keywords.is_empty()
                || rule
                    .keywords
                    .iter()
                    .any(|k| lower.contains(&k.to_ascii_lowercase()));
            if rule.info.status != Status::Deprecated && gate {
                run_rule(rule, view, Some(ctx), &mut slow);
            }
        }
        sorted_keys(&slow)
    }

    /// Told whether the view has a long run of encoding bytes (as a screen tells it), the
    /// engine still finds what the whole-text search finds: on a text without one, its
    /// prefilter leaves out the literals only rules that need one use. The texts are rule
    /// examples broken up by a space every few characters, so credential anchors stay but most
    /// long runs do not.
    #[test]
    fn texts_without_a_long_run_lose_no_finding() {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        assert!(set.filter_without_long_runs.is_some());
        let pieces = example_texts(&set);
        let mut next = picker(0x2545_F491_4F6C_DD1D);
        let ctx = Context::example();
        let (mut without, mut found) = (0, 0);
        for _ in 0..1000 {
            let mut text = String::new();
            for _ in 0..1 + next(4) {
                text.push(' ');
                // A space every `cut` characters: below the long run's length, none is left.
                let cut = 4 + next(30);
                for (k, c) in pieces[next(pieces.len())].chars().enumerate() {
                    if k > 0 && k % cut == 0 {
                        text.push(' ');
                    }
                    text.push(c);
                }
            }
            let view = Normalized::new(&text);
            let long_run = crate::decode::first_long_run(view.as_str().as_bytes()).is_some();
            let mut fast = Vec::new();
            set.scan_knowing(&view, Some(&ctx), &|_| true, Some(long_run), &mut fast);
            assert_eq!(
                sorted_keys(&fast),
                whole_text_search(&set, &view, &ctx),
                "on {text:?}"
            );
            without += usize::from(!long_run);
            found += usize::from(!long_run && !fast.is_empty());
        }
        assert!(
            without > 400 && found > 200,
            "{without} texts without a long run, {found} with findings"
        );
    }

    /// For a rule whose keywords all hold a punctuation anchor literal, looking for keywords
    /// around that literal's occurrences agrees with looking in the whole text.
    #[test]
    fn keywords_near_anchor_hits_are_all_keywords() {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        let pieces: Vec<&str> = example_texts(&set)
            .into_iter()
            .chain([
                "password", "token", " = ", ":", "x", "secret", "api_key", "\"", "'",
            ])
            .collect();
        let mut next = picker(0x1234_5678_9ABC_DEF1u64);
        let mut checked = 0;
        let (mut near, mut far) = (0, 0);
        for (i, rule) in set.rules().iter().enumerate() {
            let Some(reach) = set.keyword_reach[i] else {
                continue;
            };
            checked += 1;
            let anchor = rule
                .pattern
                .as_ref()
                .and_then(|p| p.anchor.as_ref())
                .unwrap();
            for _ in 0..400 {
                let mut text = String::new();
                for _ in 0..1 + next(6) {
                    text.push_str(pieces[next(pieces.len())]);
                    text.push_str([" ", "", "\n", "=", ":"][next(5)]);
                }
                let hay = text.as_bytes();
                let hits: Vec<usize> = (0..hay.len())
                    .filter(|&at| {
                        anchor.literals.iter().any(|l| {
                            hay.get(at..at + l.len())
                                .is_some_and(|w| w.eq_ignore_ascii_case(l))
                        })
                    })
                    .collect();
                let whole = rule.keywords_occur(hay, None);
                assert_eq!(
                    rule.keyword_near(hay, &hits, reach),
                    whole,
                    "{} on {text:?}",
                    rule.info.id
                );
                if whole { near += 1 } else { far += 1 }
            }
        }
        assert!(checked >= 2, "{checked}");
        assert!(near > 50 && far > 50, "{near} {far}");
    }

    /// A check with anchor literals reports at the prefilter's hits exactly what it reports
    /// finding its own starts: on texts glued at random (fixed seed) from `words`, and `glue`
    /// between them. Returns how many findings the texts had.
    fn check_at_prefilter_hits_matches_its_own_search(
        check: &str,
        words: &[&str],
        glue: &[&str],
    ) -> usize {
        let limits = PatternLimits::default();
        let set = RuleSet::new(builtin_rules(&limits, &draft_checks()).unwrap()).unwrap();
        let rules: Vec<&CompiledRule> = set
            .rules()
            .iter()
            .filter(|r| r.check.as_ref().is_some_and(|c| c.name == check))
            .collect();
        assert!(!rules.is_empty());
        let mut next = picker(0x2545_F491_4F6C_DD1Du64);
        let ctx = Context::example();
        let mut reported = 0;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..1 + next(12) {
                text.push_str(words[next(words.len())]);
                text.push_str(glue[next(glue.len())]);
            }
            let view = Normalized::new(&text);
            let mut fast = Vec::new();
            set.scan(
                &view,
                Some(&ctx),
                &|r| r.check.as_ref().is_some_and(|c| c.name == check),
                &mut fast,
            );
            let mut slow = Vec::new();
            for rule in &rules {
                run_rule(rule, &view, Some(&ctx), &mut slow);
            }
            let key = |f: &Finding| (f.span().start, f.span().end, f.message().to_owned());
            let mut fast: Vec<_> = fast.iter().map(key).collect();
            let mut slow: Vec<_> = slow.iter().map(key).collect();
            fast.sort();
            slow.sort();
            reported += slow.len();
            assert_eq!(fast, slow, "on {text:?}");
        }
        reported
    }

    /// `promise`: anchors in every letter case, inside longer words, after other anchors and
    /// overlapping them.
    #[test]
    fn promise_at_prefilter_hits_matches_every_word_start() {
        let words = [
            "we",
            "will",
            "ship",
            "it",
            "today",
            "Today",
            "TODAY",
            "toDay",
            "within",
            "Within",
            "24",
            "hours",
            "an",
            "hour",
            "bright",
            "right",
            "Right",
            "away",
            "straight",
            "legend",
            "end",
            "of",
            "day",
            "EOD",
            "eod",
            "Eod",
            "cob",
            "COB",
            "friday",
            "Friday",
            "by",
            "guaranteed",
            "unguaranteed",
            "Promise",
            "rest",
            "assured",
            "immediately",
            "tomorrow",
            "tonight",
            "close",
            "business",
            "you'll",
            "if",
            "x",
            ",",
            ".",
            "\n",
        ];
        let glue = [" ", " ", "", "\n", "-", "_", "é", "'"];
        let reported = check_at_prefilter_hits_matches_its_own_search("promise", &words, &glue);
        // The texts exercise the check, not only its silence.
        assert!(reported > 300, "{reported}");
    }

    /// `placeholder`: brackets, X runs and underscores inside words, after them, in runs that
    /// reach into the next, and inside bracketed placeholders.
    #[test]
    fn placeholder_at_prefilter_hits_matches_its_own_search() {
        let words = [
            "[Your Name]",
            "[",
            "]",
            "{first_name}",
            "{{customer.name}}",
            "{",
            "}",
            "<NAME>",
            "<<name>>",
            "<",
            ">",
            "XXXX",
            "xxxx",
            "Xx",
            "XX",
            "x",
            "X",
            "box",
            "maxx",
            "1234",
            "____",
            "__",
            "_",
            "__FIRST_NAME__",
            "NAME",
            "name",
            "insert date",
            "(https://a.example)",
            "é",
        ];
        let glue = [" ", "", "", "-", "/", "_", "\n", "é", "x"];
        let reported = check_at_prefilter_hits_matches_its_own_search("placeholder", &words, &glue);
        assert!(reported > 1000, "{reported}");
    }

    /// Matches of patterns without a `secret` group are reported from the DFA's span without
    /// compiling the regex; the shortcut must agree with the compiled pattern's groups.
    #[test]
    fn secret_group_detection_agrees_with_the_regex() {
        let set = crate::screen::Screener::builder()
            .build_rule_set(false, &|_| true)
            .unwrap();
        let mut with_group = 0;
        for r in set.rules() {
            let Some(p) = &r.pattern else { continue };
            let compiled = compile_pattern(&p.source, &p.limits).unwrap();
            assert_eq!(p.secret, compiled.secret_group.is_some(), "{}", r.info.id);
            with_group += usize::from(p.secret);
        }
        assert!(with_group > 50, "{with_group} rules with a secret group");
    }

    #[test]
    fn anchors_cover_case_and_leading_context() {
        let anchor = |p: &str| literal_anchor(&parse_hir(p).unwrap());
        // Case folds away; whitespace in a view is one space or newline, so literals go on
        // past `\s+`, up to eight bytes, with the newline written as a space (the prefilter
        // takes one for the other).
        let a = anchor(r"(?i)\b(?:ignore|disregard)\s+previous").unwrap();
        assert_eq!(a.max_offset, 0);
        let lits = |v: &[&str]| v.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(a.literals, lits(&["disregar", "ignore p"]));
        // Leading context of bounded length: the literal may start a few bytes in.
        let a = anchor(r"(?:^|\n)[^\w\n]{0,3}(?:Human|Assistant)\s*:").unwrap();
        assert_eq!(a.max_offset, 4);
        assert_eq!(a.literals, lits(&["assistan", "human :", "human:"]));
        // A match may start only with `x` or `y`: confirmations skip other starts.
        let a = anchor(r"[xy][a-z]{0,3}\.secret").unwrap();
        assert_eq!(a.max_offset, 4);
        assert_eq!(a.first_bytes.as_deref(), Some(&b"xy"[..]));
        // Many literals sharing four bytes collapse to their common prefix.
        let a = anchor(r"key-[0-9a-f]{32}").unwrap();
        assert_eq!(a.literals, lits(&["key-"]));
        // Single letters are everywhere; single digits are rare enough in prose.
        assert_eq!(anchor(r"[a-z]+"), None);
        assert_eq!(anchor(r"[0-9]+").map(|a| a.literals.len()), Some(10));
        assert_eq!(anchor(r"\w+@\w+"), None);
    }

    /// Which anchors are needed only at word starts, and what stands in for those that are not.
    #[test]
    fn word_start_anchors() {
        let anchor = |p: &str| literal_anchor(&parse_hir(p).unwrap()).unwrap();
        let lits = |v: &[&str]| v.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
        // `\b`, `^`, a required separator or `_` in front: a word start.
        for p in [
            r"(?i)\bignore",
            r"^ignore",
            r"(?m)^ignore",
            r"[ ,]ignore",
            r"(?:\b|_)ignore",
            r"\s+ignore",
            r"(?:\bfoo-|\b)ignore",
        ] {
            assert!(anchor(p).word_start, "{p}");
        }
        // Nothing, an optional separator or a letter in front: anywhere.
        for p in [r"ignore", r"[ ,]?ignore", r"[a-z_]ignore", r"\Bignore"] {
            assert!(!anchor(p).word_start, "{p}");
        }
        // A literal with punctuation inside may begin anywhere; the prefilter looks for it
        // from there (see `prefilter.rs`).
        let a = anchor(r"[a-z]{3}[0-9]Q~");
        assert!(!a.word_start);
        assert!(
            a.literals
                .iter()
                .all(|l| anchor::probe_offset(l) == Some(2))
        );
        // Alternatives: one found anywhere is looked for from its probe offset, so the whole
        // set stays at word starts.
        let a = anchor(r"\bfoobar|xx\.yyy");
        assert!(a.word_start);
        assert_eq!(a.literals, lits(&[".yyy", "foobar"]));
        // A leading space is dropped: what follows it starts a word.
        let a = anchor(r"[:,] (?:ignore|forget)");
        assert!(a.word_start);
    }

    #[test]
    fn masked_preview_hides_short_values() {
        assert_eq!(masked_preview(b"hunter22"), "8 chars");
        assert_eq!(masked_preview(b"ghp_abcdefghijklmnop"), "ghp_… 20 chars");
    }
}
