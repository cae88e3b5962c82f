//! Scanning a view: one prefilter pass, then each candidate rule confirmed where its
//! literals occur (or its regex or check run over the view).

use std::any::Any;
use std::ops::Range;

use regex_automata::hybrid::dfa::Cache as DfaCache;

use super::check::Pass;
use super::compile::{CompiledRule, FIRST_USE_KEYWORD_CHECK_MAX_LEN, Pattern};
use super::confirm::{Hits, run_at_hits};
use super::emit::push_match;
use super::set::{KEYWORD_USE, RuleSet};
use super::words::WordTally;
use crate::finding::Finding;
use crate::normalize::Normalized;

/// Per-scan working memory, kept between scans so a scan allocates nothing of its own.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// The prefilter's working memory.
    pub(super) stage: Vec<u32>,
    pub(super) candidate: Vec<bool>,
    /// Rules a keyword made candidates, in the order they became so.
    pub(super) keyed: Vec<u32>,
    /// Per rule, the view offsets of its prefix literals (ascending: the filter reports in
    /// order), and the rules that have any.
    pub(super) offsets: Vec<Vec<usize>>,
    pub(super) touched: Vec<u32>,
    /// One lazy-DFA cache per rule, created when the rule first confirms a hit.
    pub(super) caches: Vec<Option<DfaCache>>,
    /// The view's words, counted from the prefilter's masks for the length check.
    pub(super) words: WordTally,
}

impl RuleSet {
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

    pub(super) fn scan_with(
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
                            start_bytes: &pattern.start_bytes,
                            start_looks: pattern.start_looks,
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
pub(super) fn run_rule_at(
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
