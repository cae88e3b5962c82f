//! The engine's harness (`rules::testkit`) run on the screener's rules with its checks and
//! context: the prefilter hands each check the offsets of its anchor words, and a check must
//! report there exactly what it reports finding its own; the screener's literals (its checks'
//! anchor words among them) are found like every other. The engine runs the same harness on
//! its own with checks that report nothing.

use std::sync::LazyLock;

use super::{Context, Screener};
use crate::rules::testkit::{
    check_at_prefilter_hits_matches_its_own_search, confirmation_matches_on_mixed_examples,
    confirmation_matches_whole_text_search, embedded_set, literal_hits_and_brute_force,
    no_finding_lost_without_a_long_run, no_literal_needs_the_every_offset_pass,
};
use crate::rules::{RuleSet, builtin_vocabulary};

/// Every embedded rule file, compiled with the draft checks and the embedded word lists.
static DRAFT_CHECKED: LazyLock<RuleSet> = LazyLock::new(|| {
    embedded_set(&super::checks::registry(&builtin_vocabulary(&[
        "rules/draft-words.toml",
    ])))
});

/// The screener's own rule set (its files and kinds).
static SCREENER: LazyLock<RuleSet> =
    LazyLock::new(|| match Screener::builder().build_rule_set(false) {
        Ok(set) => set,
        Err(e) => panic!("the screener builds: {e}"),
    });

#[test]
fn anchored_confirmation_matches_whole_text_search_with_the_checks() {
    let ctx = Context::example();
    let seen = confirmation_matches_whole_text_search(&DRAFT_CHECKED, Some(&ctx));
    assert!(seen > 1000, "{seen} findings");
}

#[test]
fn anchored_confirmation_matches_on_mixed_examples_with_the_checks() {
    let ctx = Context::example();
    let seen = confirmation_matches_on_mixed_examples(&DRAFT_CHECKED, Some(&ctx));
    assert!(seen > 500, "{seen} findings");
}

#[test]
fn texts_without_a_long_run_lose_no_finding_with_the_checks() {
    let ctx = Context::example();
    let (without, found) = no_finding_lost_without_a_long_run(&DRAFT_CHECKED, Some(&ctx));
    assert!(
        without > 400 && found > 200,
        "{without} texts without a long run, {found} with findings"
    );
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
    let ctx = Context::example();
    let reported = check_at_prefilter_hits_matches_its_own_search(
        &DRAFT_CHECKED,
        Some(&ctx),
        "promise",
        &words,
        &glue,
    );
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
    let ctx = Context::example();
    let reported = check_at_prefilter_hits_matches_its_own_search(
        &DRAFT_CHECKED,
        Some(&ctx),
        "placeholder",
        &words,
        &glue,
    );
    assert!(reported > 1000, "{reported}");
}

/// The screener's literals, its checks' anchor words among them, need no every-offset pass.
#[test]
fn the_screeners_literals_need_no_every_offset_pass() {
    let literals = no_literal_needs_the_every_offset_pass(&SCREENER);
    assert!(literals > 500, "{literals}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// The screener's literals, on texts made of pieces of them (case flipped, cut, glued to
    /// words, digits, punctuation and non-ASCII characters): every occurrence brute force
    /// finds, and nothing else.
    #[test]
    fn the_screeners_literals_match_brute_force(
        picks in proptest::collection::vec((0usize..100_000, 0usize..12, proptest::bool::ANY), 1..10),
        glue in proptest::collection::vec("[a-z]{0,4}|[0-9 .:=_-]{0,3}|\n|é|—", 1..10),
    ) {
        let (text, got, want) = literal_hits_and_brute_force(&SCREENER, &picks, &glue);
        proptest::prop_assert_eq!(got, want, "{:?}", text);
    }
}
