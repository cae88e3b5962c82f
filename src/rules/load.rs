//! Loading rule files: parsing the TOML, validating every field, and turning each `[[rule]]`
//! into a [`CompiledRule`].

use std::sync::OnceLock;
use std::sync::atomic::AtomicU32;

use super::anchor::{self, literal_anchor, parse_hir};
use super::check::{Checks, RuleCheck};
use super::compile::{
    CompiledRule, FIRST_USE_KEYWORD_CHECKS, Pattern, compile_pattern, precomputed_anchor,
};
use super::schema::{RuleFileSpec, RuleSpec};
use super::vocabulary::WordList;
use super::{BUILTIN_RULE_FILES, PatternLimits, RuleInfo, builtin, token_run};
use crate::error::{Error, Result};
use crate::finding::Kind;

/// The word lists of the embedded files among `files` (only files that have any are parsed).
pub(crate) fn builtin_words(files: &[&str]) -> Result<Vec<WordList>> {
    let mut out = Vec::new();
    for (file, source) in BUILTIN_RULE_FILES {
        if files.contains(file) && builtin::BUILTIN_WORD_FILES.contains(file) {
            // The tables build.rs wrote out; the TOML only if it left the file to the parser.
            match builtin::builtin_word_lists(file) {
                Some(lists) => out.extend(lists),
                None => out.extend(parse_file_with_words(file, source)?.1),
            }
        }
    }
    Ok(out)
}

/// The vocabulary of the embedded files among `files`, for tests of the checks that read it.
#[cfg(test)]
pub(crate) fn builtin_vocabulary(files: &[&str]) -> super::Vocabulary {
    let mut v = super::Vocabulary::default();
    for list in builtin_words(files).unwrap_or_default() {
        v.add(list);
    }
    v
}

/// Parses one rule file into compiled rules, adding a problem to `problems` for every rule
/// that is not valid (or one for the file if it does not parse) and going on with the rest.
/// Examples are not run here (see `examples.rs`).
#[cfg(test)]
pub(crate) fn load_file(
    file: &str,
    source: &str,
    limits: &PatternLimits,
    checks: &Checks,
    keeps: fn(Kind) -> bool,
    problems: &mut Vec<Error>,
) -> Vec<CompiledRule> {
    match parse_file(file, source) {
        Ok(specs) => compile_specs(file, specs, limits, checks, keeps, problems),
        Err(e) => {
            problems.push(e);
            Vec::new()
        }
    }
}

/// Compiles the parsed rules of one file, adding a problem for every rule that is not valid.
pub(crate) fn compile_specs(
    file: &str,
    specs: Vec<(usize, RuleSpec)>,
    limits: &PatternLimits,
    checks: &Checks,
    keeps: fn(Kind) -> bool,
    problems: &mut Vec<Error>,
) -> Vec<CompiledRule> {
    let mut rules = Vec::with_capacity(specs.len());
    for (line, spec) in specs.into_iter().filter(|(_, spec)| keeps(spec.kind)) {
        match compile_rule(file, line, spec, limits, checks, true) {
            Ok(rule) => rules.push(rule),
            Err(e) => problems.push(e),
        }
    }
    rules
}

/// Parses one rule file (as the test-only `load_file` does); with `eager` unset, patterns are only parsed (for their literals)
/// and compiled on first use. Only for the embedded rules, which the test suite compiles.
pub(super) fn load_file_with(
    file: &str,
    source: &str,
    limits: &PatternLimits,
    checks: &Checks,
    keeps: fn(Kind) -> bool,
    eager: bool,
) -> Result<Vec<CompiledRule>> {
    // Rules of kinds the client does not keep are dropped before they are compiled (a
    // detector given a file of draft rules does not need their checks).
    parse_file(file, source)?
        .into_iter()
        .filter(|(_, spec)| keeps(spec.kind))
        .map(|(line, spec)| compile_rule(file, line, spec, limits, checks, eager))
        .collect()
}

/// The `[[rule]]` tables of a rule file, each with the line it starts on.
pub(super) fn parse_file(file: &str, source: &str) -> Result<Vec<(usize, RuleSpec)>> {
    Ok(parse_file_with_words(file, source)?.0)
}

/// A `[[rule]]` table with the line it starts on.
pub(crate) type Specs = (usize, RuleSpec);

/// The `[[rule]]` and `[[words]]` tables of a rule file, each with the line it starts on.
pub(super) fn parse_file_with_words(
    file: &str,
    source: &str,
) -> Result<(Vec<Specs>, Vec<WordList>)> {
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
    let words = spec
        .words
        .into_iter()
        .map(|spanned| WordList {
            file: file.to_owned(),
            line: line_col(source, spanned.span().start).0,
            spec: spanned.into_inner(),
        })
        .collect();
    Ok((out, words))
}

pub(super) fn line_col(source: &str, offset: usize) -> (usize, usize) {
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

pub(super) fn valid_id(id: &str) -> bool {
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

pub(super) fn compile_rule(
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
            let (mut start_bytes, mut start_looks) = ([u64::MAX; 4], 0);
            if let Some(start) = anchor.as_ref().and_then(|a| a.start.as_ref()) {
                (start_bytes, start_looks) = ([0; 4], start.looks);
                for &b in &start.bytes {
                    start_bytes[usize::from(b >> 6)] |= 1 << (b & 63);
                }
            }
            let pattern = Pattern {
                source: p.clone(),
                limits: *limits,
                first,
                start_bytes,
                start_looks,
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
        replaces: spec.replaces,
    })
}

/// Loads the embedded rule files.
pub(crate) fn builtin_rules(
    files: &[&str],
    limits: &PatternLimits,
    checks: &Checks,
    keeps: fn(Kind) -> bool,
) -> Result<Vec<CompiledRule>> {
    let mut all = Vec::new();
    for (file, source) in BUILTIN_RULE_FILES {
        if !files.contains(file) {
            continue;
        }
        // The tables build.rs wrote out; the TOML only if it left the file to the parser.
        match builtin::builtin_specs(file) {
            Some(specs) => {
                for (line, spec) in specs.into_iter().filter(|(_, s)| keeps(s.kind)) {
                    all.push(compile_rule(file, line, spec, limits, checks, false)?);
                }
            }
            None => all.extend(load_file_with(file, source, limits, checks, keeps, false)?),
        }
    }
    Ok(all)
}
