//! Rule files: loading, validation, compilation, and the two-stage matching engine.
//!
//! Stage one: every rule's `keywords` go into one Aho-Corasick automaton, run once over the
//! normalised view; a rule with keywords runs only when one of them occurs. Stage two: each
//! candidate rule runs its own linear-time regex (or its named check) for spans.

mod builtin;
mod filters;
pub(crate) mod schema;

use std::collections::HashMap;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::bytes::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::finding::{Finding, Kind, Severity};
use crate::normalize::Normalized;
use crate::screen::{Context, checks};

pub(crate) use builtin::BUILTIN_RULE_FILES;
pub use schema::Status;
use schema::{CheckName, ExampleSpec, RuleFileSpec, RuleSpec, ValidatorName};

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
    pattern: Option<Regex>,
    secret_group: Option<usize>,
    pub(crate) check: Option<CheckName>,
    min_entropy: Option<f64>,
    validate: Option<ValidatorName>,
    pub(crate) examples: Vec<ExampleSpec>,
    pub(crate) negative_examples: Vec<ExampleSpec>,
}

/// Parses one rule file into compiled rules. Examples are not run here (see [`check_examples`]).
pub(crate) fn load_file(
    file: &str,
    source: &str,
    limits: &PatternLimits,
) -> Result<Vec<CompiledRule>> {
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
    for spanned in spec.rule {
        let line = line_col(source, spanned.span().start).0;
        out.push(compile_rule(file, line, spanned.into_inner(), limits)?);
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
    let mut secret_group = None;
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
            let re = RegexBuilder::new(p)
                .unicode(false)
                .size_limit(limits.compiled_size)
                .dfa_size_limit(limits.dfa_size)
                .nest_limit(64)
                .build()
                .map_err(|e| invalid(format!("bad pattern: {e}")))?;
            if re.is_match(b"") {
                return Err(invalid("pattern matches the empty string".to_owned()));
            }
            secret_group = re.capture_names().position(|n| n == Some("secret"));
            Some(re)
        }
    };
    if spec.check.is_some() && pattern.is_some() {
        return Err(invalid(
            "has both `check` and `pattern`; a check carries its own matching".to_owned(),
        ));
    }
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
        pattern,
        secret_group,
        check: spec.check,
        min_entropy: spec.min_entropy,
        validate: spec.validate,
        examples: spec.examples,
        negative_examples: spec.negative_examples,
    })
}

/// Compiled rules plus the keyword prefilter. Immutable once built.
#[derive(Debug)]
pub(crate) struct RuleSet {
    rules: Vec<CompiledRule>,
    /// Keyword automaton; pattern index `i` belongs to the rules in `keyword_rules[i]`.
    prefilter: Option<AhoCorasick>,
    keyword_rules: Vec<Vec<u32>>,
    /// Rules without keywords: they run on every text.
    always: Vec<u32>,
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
        let mut keyword_index: HashMap<String, usize> = HashMap::new();
        let mut keywords: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<u32>> = Vec::new();
        let mut always = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            if r.info.status == Status::Deprecated {
                continue;
            }
            if r.keywords.is_empty() {
                always.push(i as u32);
                continue;
            }
            for kw in &r.keywords {
                let key = kw.to_ascii_lowercase();
                let idx = *keyword_index.entry(key.clone()).or_insert_with(|| {
                    keywords.push(key);
                    keyword_rules.push(Vec::new());
                    keywords.len() - 1
                });
                if !keyword_rules[idx].contains(&(i as u32)) {
                    keyword_rules[idx].push(i as u32);
                }
            }
        }
        let prefilter = if keywords.is_empty() {
            None
        } else {
            Some(
                AhoCorasickBuilder::new()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::Standard)
                    .kind(Some(AhoCorasickKind::DFA))
                    .build(&keywords)
                    .map_err(|e| Error::InvalidRule {
                        file: "<keywords>".to_owned(),
                        line: 0,
                        rule: "<prefilter>".to_owned(),
                        reason: e.to_string(),
                    })?,
            )
        };
        Ok(RuleSet {
            rules,
            prefilter,
            keyword_rules,
            always,
        })
    }

    pub(crate) fn rules(&self) -> &[CompiledRule] {
        &self.rules
    }

    /// Runs every candidate rule over `view` and appends findings (unsorted).
    pub(crate) fn scan(
        &self,
        view: &Normalized<'_>,
        ctx: Option<&Context>,
        keep: &dyn Fn(&CompiledRule) -> bool,
        out: &mut Vec<Finding>,
    ) {
        let mut candidate = vec![false; self.rules.len()];
        for &i in &self.always {
            candidate[i as usize] = true;
        }
        if let Some(ac) = &self.prefilter {
            for m in ac.find_overlapping_iter(view.as_str()) {
                for &i in &self.keyword_rules[m.pattern().as_usize()] {
                    candidate[i as usize] = true;
                }
            }
        }
        for (i, rule) in self.rules.iter().enumerate() {
            if candidate[i] && keep(rule) {
                run_rule(rule, view, ctx, out);
            }
        }
    }
}

/// Runs one rule over the view, appending findings with spans into the original text.
pub(crate) fn run_rule(
    rule: &CompiledRule,
    view: &Normalized<'_>,
    ctx: Option<&Context>,
    out: &mut Vec<Finding>,
) {
    if let Some(check) = rule.check {
        checks::run(
            check,
            view,
            ctx,
            &mut |span: Range<usize>, note: Option<String>| {
                let message = match note {
                    Some(n) => format!("{} ({n})", rule.message),
                    None => rule.message.clone(),
                };
                out.push(Finding::new(
                    rule.info.id.clone(),
                    rule.info.kind,
                    rule.info.severity,
                    view.to_original(span),
                    message,
                ));
            },
        );
        return;
    }
    let Some(re) = &rule.pattern else {
        return;
    };
    let hay = view.as_str().as_bytes();
    if let Some(group) = rule.secret_group {
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
    full: &dyn Fn(&str) -> Vec<Finding>,
) -> Vec<(String, usize, String, String)> {
    let ctx = Context::example();
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
                run_rule(rule, &view, Some(&ctx), &mut alone);
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
pub(crate) fn builtin_rules(limits: &PatternLimits) -> Result<Vec<CompiledRule>> {
    let mut all = Vec::new();
    for (file, source) in BUILTIN_RULE_FILES {
        all.extend(load_file(file, source, limits)?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn masked_preview_hides_short_values() {
        assert_eq!(masked_preview(b"hunter22"), "8 chars");
        assert_eq!(masked_preview(b"ghp_abcdefghijklmnop"), "ghp_… 20 chars");
    }
}
