//! Fixtures and helpers shared by the benches. Every input is built from the small texts in
//! `benches/fixtures/`, repeated to size (or, for prose, shuffled: see [`varied_prose`]), so the
//! benches need no generated corpus.

#![allow(dead_code)] // each bench uses a different subset

pub(crate) mod varied_prose;

use std::time::Duration;

use criterion::Criterion;
use palisade::{Context, Finding, Kind};

pub(crate) const TICKET_ASCII: &str = include_str!("../fixtures/ticket_ascii.txt");
pub(crate) const TICKET_UNICODE: &str = include_str!("../fixtures/ticket_unicode.txt");
pub(crate) const DRAFT_CLEAN: &str = include_str!("../fixtures/draft_clean.txt");
pub(crate) const DRAFT_DIRTY: &str = include_str!("../fixtures/draft_dirty.txt");
pub(crate) const PROSE: &str = include_str!("../fixtures/prose.txt");
pub(crate) const MARKER_FRAGMENTS: &str = include_str!("../fixtures/marker_fragments.txt");
pub(crate) const UUIDS: &str = include_str!("../fixtures/uuids.txt");
pub(crate) const BRACKETS: &str = include_str!("../fixtures/brackets.txt");
pub(crate) const AT_SIGNS: &str = include_str!("../fixtures/at_signs.txt");
pub(crate) const DIGITS: &str = include_str!("../fixtures/digits.txt");
pub(crate) const BASE64: &str = include_str!("../fixtures/base64.txt");

/// The ticket id every bench context uses (none of the fixtures contain it).
pub(crate) const TICKET_ID: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

pub(crate) const KIB: usize = 1024;
pub(crate) const MIB: usize = 1024 * 1024;

/// `text` repeated (separated by `sep`) to exactly `bytes` bytes, or the largest char
/// boundary below it.
pub(crate) fn sized(text: &str, sep: &str, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + text.len() + sep.len());
    while out.len() < bytes {
        if !out.is_empty() {
            out.push_str(sep);
        }
        out.push_str(text);
    }
    let mut end = bytes.min(out.len());
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    out
}

/// Whole copies of `text` only (so no item is cut in half), at most `bytes` bytes.
pub(crate) fn whole_copies(text: &str, bytes: usize) -> (String, usize) {
    let copies = (bytes / text.len()).max(1);
    (text.repeat(copies), copies)
}

/// A context for benchmark drafts: the fixtures' ticket, a word limit that the 1 KiB drafts
/// and the prose stay under (length is measured, not flagged).
pub(crate) fn context() -> Context {
    Context::new(TICKET_ID).unwrap().max_words(usize::MAX)
}

/// The distinct kinds in `findings`, in first-seen order.
pub(crate) fn kinds(findings: &[Finding]) -> Vec<Kind> {
    let mut out = Vec::new();
    for f in findings {
        if !out.contains(&f.kind()) {
            out.push(f.kind());
        }
    }
    out
}

/// Every span in bounds and on char boundaries.
pub(crate) fn assert_spans(text: &str, findings: &[Finding]) {
    for f in findings {
        let s = f.span();
        assert!(
            s.start <= s.end
                && s.end <= text.len()
                && text.is_char_boundary(s.start)
                && text.is_char_boundary(s.end),
            "bad span {s:?} for {} in a {}-byte text",
            f.rule(),
            text.len()
        );
    }
}

/// Short runs: the machine has two cores shared with compiles.
pub(crate) fn quick() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// For inputs of several MiB: ten samples.
pub(crate) fn slow() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
}
