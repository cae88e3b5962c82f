//! Turning matches into findings: the `secret` group, placeholder and entropy filters,
//! validators, masked previews, and the final ordering of a report.

use std::ops::Range;

use regex_automata::{Anchored, Input};

use super::compile::*;
use super::filters;
use super::schema::ValidatorName;
use crate::finding::{Finding, Kind, Severity};
use crate::normalize::Normalized;

/// Reports the match `start..end` (found by the DFA) with its secret group if it has one.
pub(super) fn emit_match(
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
pub(super) fn search_from(
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

pub(super) fn push_match(
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
