//! Anchored confirmation: a rule's lazy DFA stepped by hand from the starts its anchor
//! literals allow, with a byte budget that keeps hostile texts linear.

use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::{Anchored, Input};

use super::compile::{CompiledRule, Pattern};
use super::emit::{emit_match, push_match, search_from};
use super::start::looks_hold;
use crate::finding::Finding;
use crate::normalize::Normalized;

/// Why an anchored confirmation stopped without an answer.
pub(super) enum Unsure {
    /// The byte budget for this rule and text is spent (hostile input): search the rest of the
    /// text with the regex instead, which is linear.
    Budget,
    /// The lazy DFA could not continue (cache trouble): the same fallback.
    GaveUp,
}

/// The end of the leftmost-first match that starts exactly at `at`, if any, stepping the lazy
/// DFA by hand so the bytes examined can be counted against `budget`.
pub(super) fn anchored_end(
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

/// Where a rule's anchor literals occur, and how far before them a match may start.
pub(super) struct Hits<'h> {
    pub(super) offsets: &'h [usize],
    pub(super) max_offset: usize,
    /// Bitmap of the bytes a match can start with (every byte when unknown).
    pub(super) first: &'h [u64; 4],
    /// Where else a match can start (see `start.rs`): a bitmap of bytes, or where the looks
    /// hold.
    pub(super) start_bytes: &'h [u64; 4],
    pub(super) start_looks: u8,
}

/// Confirms an anchored rule at the starts each literal occurrence allows, in order,
/// returning the view span of the first match it confirmed (if it searched the rest of the
/// view with the regex, none),
/// reporting the same matches as the regex's own non-overlapping search over the whole view:
/// every match starts within `max_offset` bytes before an occurrence, so no start outside
/// those windows can match, and starts are tried in increasing order.
pub(super) fn run_at_hits(
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
            let bit = |map: &[u64; 4]| (map[usize::from(b >> 6)] >> (b & 63)) & 1 != 0;
            if !bit(hits.first)
                || !(bit(hits.start_bytes) || looks_hold(hits.start_looks, hay, start))
            {
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
