//! The engine's test harness, for its own tests and for a client's.
//!
//! Each check here takes the rule set and the context to scan with, so the engine's tests run
//! them on the embedded rules with checks that report nothing ([`stub_checks`]) and need
//! nothing above the engine, and a client (the screener) runs the same checks on its own rule
//! set, with its checks and its context.

use std::any::Any;
use std::ops::Range;

use super::load::builtin_rules;
use super::scan::run_rule;
use super::schema::{ExampleSpec, Status};
use super::{BUILTIN_RULE_FILES, Check, Checks, CompiledRule, Emit, Pass, PatternLimits, RuleSet};
use crate::finding::Finding;
use crate::normalize::Normalized;

/// A check that reports nothing: it lets a rule naming a check load without the client's code.
#[derive(Debug)]
struct Silent;

impl Check for Silent {
    fn run(&self, _: &Pass<'_, '_>, _: &mut Emit<'_>) {}
}

/// Every check the embedded rule files name, each as a check that reports nothing.
pub(crate) fn stub_checks() -> Checks {
    let mut checks = Checks::default();
    for (_, source) in BUILTIN_RULE_FILES {
        let table: toml::Table = toml::from_str(source).unwrap_or_default();
        let rules = table.get("rule").and_then(|r| r.as_array());
        for name in rules
            .into_iter()
            .flatten()
            .filter_map(|r| r.get("check")?.as_str())
        {
            // `Checks` keeps `&'static str` names; a handful leak once per test run.
            let name: &'static str = Box::leak(name.to_owned().into_boxed_str());
            checks = checks.with(name, Silent);
        }
    }
    checks
}

/// Every rule of every embedded file, compiled with `checks`.
pub(crate) fn embedded_rules(checks: &Checks) -> Vec<CompiledRule> {
    let files: Vec<&str> = BUILTIN_RULE_FILES.iter().map(|(f, _)| *f).collect();
    match builtin_rules(&files, &PatternLimits::default(), checks, |_| true) {
        Ok(rules) => rules,
        Err(e) => panic!("the embedded rules load: {e}"),
    }
}

/// The rule set of every embedded rule, compiled with `checks`.
pub(crate) fn embedded_set(checks: &Checks) -> RuleSet {
    match RuleSet::new(embedded_rules(checks)) {
        Ok(set) => set,
        Err(e) => panic!("the embedded rules make a set: {e}"),
    }
}

/// A seeded pick below `n` (xorshift64): the same sequence on every machine.
pub(crate) fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// Every example and negative example of every rule in `set`.
pub(crate) fn example_texts(set: &RuleSet) -> Vec<&str> {
    set.rules()
        .iter()
        .flat_map(|r| r.examples.iter().chain(&r.negative_examples))
        .map(ExampleSpec::text)
        .collect()
}

/// `(span, rule, message)` of a finding.
pub(crate) type Key = (Range<usize>, String, String);

/// `(span, rule, message)` of each finding, sorted.
pub(crate) fn sorted_keys(findings: &[Finding]) -> Vec<Key> {
    let mut keys: Vec<_> = findings
        .iter()
        .map(|f| (f.span(), f.rule().to_owned(), f.message().to_owned()))
        .collect();
    keys.sort_by(|a, b| (a.0.start, a.0.end, &a.1, &a.2).cmp(&(b.0.start, b.0.end, &b.1, &b.2)));
    keys
}

/// [`sorted_keys`] of every rule a keyword selects run over the whole view with its regex
/// (a check without its prefilter anchors, finding its own).
pub(crate) fn whole_text_search(
    set: &RuleSet,
    view: &Normalized<'_>,
    ctx: Option<&dyn Any>,
) -> Vec<Key> {
    let lower = view.as_str().to_ascii_lowercase();
    let mut slow = Vec::new();
    for rule in set.rules() {
        let gate = rule.keywords.is_empty()
            || rule
                .keywords
                .iter()
                .any(|k| lower.contains(&k.to_ascii_lowercase()));
        if rule.info.status != Status::Deprecated && gate {
            run_rule(rule, view, ctx, &mut slow);
        }
    }
    sorted_keys(&slow)
}

/// The one-pass engine (prefilter, anchored confirmation at literal occurrences) gives
/// exactly the findings of running each keyword-selected rule over the whole view: on every
/// example, the examples joined three ways, and the bench fixtures. Returns the findings seen.
pub(crate) fn confirmation_matches_whole_text_search(
    set: &RuleSet,
    ctx: Option<&dyn Any>,
) -> usize {
    let mut texts: Vec<String> = example_texts(set).into_iter().map(str::to_owned).collect();
    let joined_space = texts.join(" ");
    let joined_line = texts.join("\n");
    let glued = texts.concat();
    texts.extend([joined_space, joined_line, glued]);
    for fixture in [
        include_str!("../../benches/fixtures/draft_dirty.txt"),
        include_str!("../../benches/fixtures/ticket_unicode.txt"),
        include_str!("../../benches/fixtures/marker_fragments.txt"),
        include_str!("../../benches/fixtures/digits.txt"),
    ] {
        texts.push(fixture.to_owned());
    }
    let mut seen = 0;
    for text in &texts {
        let view = Normalized::new(text);
        let mut fast = Vec::new();
        set.scan(&view, ctx, &|_| true, &mut fast);
        assert_eq!(
            sorted_keys(&fast),
            whole_text_search(set, &view, ctx),
            "on {text:?}"
        );
        seen += fast.len();
    }
    seen
}

/// The same comparison on texts glued together from rule examples at random (fixed seed),
/// so literals land next to each other, inside words and at text edges. Returns the
/// findings seen.
pub(crate) fn confirmation_matches_on_mixed_examples(
    set: &RuleSet,
    ctx: Option<&dyn Any>,
) -> usize {
    let pieces = example_texts(set);
    let glue = [
        " ", "\n", "", ",", ".", "x", "_", "-", "=", ":", "\"", "'", "  ", "\t", "9", "é", "Zq",
    ];
    let mut next = picker(0x9E37_79B9_7F4A_7C15u64);
    let mut seen = 0;
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
        set.scan(&view, ctx, &|_| true, &mut fast);
        assert_eq!(
            sorted_keys(&fast),
            whole_text_search(set, &view, ctx),
            "on {text:?}"
        );
        seen += fast.len();
    }
    seen
}

/// Told whether the view has a long run of encoding bytes (as a screen tells it), the
/// engine still finds what the whole-text search finds: on a text without one, its
/// prefilter leaves out the literals only rules that need one use. The texts are rule
/// examples broken up by a space every few characters, so credential anchors stay but most
/// long runs do not. Returns `(texts without a long run, those of them with findings)`.
pub(crate) fn no_finding_lost_without_a_long_run(
    set: &RuleSet,
    ctx: Option<&dyn Any>,
) -> (usize, usize) {
    assert!(set.filter_without_long_runs.is_some());
    let pieces = example_texts(set);
    let mut next = picker(0x2545_F491_4F6C_DD1D);
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
        set.scan_knowing(&view, ctx, &|_| true, Some(long_run), &mut fast);
        assert_eq!(
            sorted_keys(&fast),
            whole_text_search(set, &view, ctx),
            "on {text:?}"
        );
        without += usize::from(!long_run);
        found += usize::from(!long_run && !fast.is_empty());
    }
    (without, found)
}

/// The rules of `set` running check `check` report at the prefilter's hits exactly what they
/// report finding their own starts: on texts glued at random (fixed seed) from `words`, and
/// `glue` between them. Returns how many findings the texts had.
pub(crate) fn check_at_prefilter_hits_matches_its_own_search(
    set: &RuleSet,
    ctx: Option<&dyn Any>,
    check: &str,
    words: &[&str],
    glue: &[&str],
) -> usize {
    let rules: Vec<&CompiledRule> = set
        .rules()
        .iter()
        .filter(|r| r.check.as_ref().is_some_and(|c| c.name == check))
        .collect();
    assert!(!rules.is_empty());
    let mut next = picker(0x2545_F491_4F6C_DD1Du64);
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
            ctx,
            &|r| r.check.as_ref().is_some_and(|c| c.name == check),
            &mut fast,
        );
        let mut slow = Vec::new();
        for rule in &rules {
            run_rule(rule, &view, ctx, &mut slow);
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

/// Every literal of `set` (its rules' anchors and keywords, its checks' anchor words) is
/// found at word starts or from a probe offset: the every-offset pass, which costs each text a
/// test per byte, does not run for them. Returns how many literals the set has.
pub(crate) fn no_literal_needs_the_every_offset_pass(set: &RuleSet) -> usize {
    let fast = set.filter.fast();
    let dense: Vec<String> = fast
        .anywhere_literals()
        .into_iter()
        .map(|i| String::from_utf8_lossy(fast.literal(i)).into_owned())
        .collect();
    assert!(dense.is_empty(), "looked for at every offset: {dense:?}");
    fast.literal_count()
}

/// A prefilter hit: `(literal index, start)`.
pub(crate) type Hit = (usize, usize);

/// A text made of pieces of `set`'s literals (`picks`: which literal, how much cut off its
/// end, whether upper-cased) with `glue` between them, and the `(literal, offset)` hits of the
/// prefilter and of brute force on it, both sorted.
pub(crate) fn literal_hits_and_brute_force(
    set: &RuleSet,
    picks: &[(usize, usize, bool)],
    glue: &[String],
) -> (String, Vec<Hit>, Vec<Hit>) {
    let fast = set.filter.fast();
    let count = fast.literal_count();
    let mut text = String::new();
    for (k, (pick, cut, upper)) in picks.iter().enumerate() {
        let lit = fast.literal(pick % count);
        let piece = String::from_utf8_lossy(&lit[..lit.len().saturating_sub(cut % 3)]);
        text.push_str(&if *upper {
            piece.to_uppercase()
        } else {
            piece.into_owned()
        });
        text.push_str(&glue[k % glue.len()]);
    }
    let hay = text.as_bytes();
    let mut got = Vec::new();
    fast.for_each_hit(hay, &mut Vec::new(), |lit, at| got.push((lit, at)));
    got.sort_unstable();
    let want = fast.brute_force_hits(hay);
    (text, got, want)
}
