//! `promise`: commitments the support team may not be able to keep.
//!
//! Commitments in a reply bind the company, so a reviewer must see each one (and the rewrite
//! loop can soften it). One finding per phrase, with the span on the phrase:
//! - any guarantee, promise or assurance, negations included ("we guarantee", "we cannot
//!   guarantee", "I promise", "rest assured"): the word, or "rest assured";
//! - a deadline with "within": "within 24 hours", "within 3-5 business days", "within 24-48
//!   hours", "within an hour", "within a few days", "within the next 2 weeks", "within the
//!   hour" (not "within the app");
//! - "today", "tonight", "tomorrow", "immediately", "right away", "straight away", "by end of
//!   day", "by EOD", "by close of business", "by Friday" only when the same clause commits to
//!   an action: a "will"/"'ll"/"shall"/"going to"/"is being"/"expect"/"scheduled" before it
//!   ("will be refunded today", "we'll ship it immediately", "you'll have it by tomorrow") or,
//!   when the time opens the clause, after it ("Tomorrow, we will call you"). "Thanks for
//!   contacting us today", "contact your bank immediately", "what happened today", "you will
//!   need to call your bank today", "we won't ship today" and "if you reply today, ..." are not
//!   commitments.
//!
//! Anchor words are matched in lower case, Capitalised and ALL CAPS ("guarantee",
//! "Guaranteed", "GUARANTEE"); the `by_times_exact` words only as written (weekdays
//! Capitalised, "EOD"/"COB" in lower or upper case). Odd mixed case ("gUaRaNtEe") is not
//! matched: drafts come from a model, not an adversary.
//!
//! The words are data: `[[words]]` tables with `check = "promise"` (the embedded ones in
//! `rules/draft-words.toml`, see [`Words::LISTS`]), so a rule file can add a time word or a
//! unit. The grammar stays here: "within" and what may follow it, "by (the) end of", the
//! modals and verbs [`verb`] reads by name, and "by"/"before" before a day.
//!
//! Speed: the anchor words are literals of the rule engine's prefilter
//! ([`Words::anchor_words`]), which finds them at word starts in the same pass as every other
//! rule's literals; the check reads only the words around those offsets. Called without them
//! (unit tests, a caller outside the engine) it tries every word start.

use std::ops::Range;

use super::Emit;
use crate::rules::{Vocabulary, next_word, prev_word};

/// What an anchor word starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// A stem of "guarantee": any word it starts.
    Guarantee,
    /// A form of "promise".
    Promise,
    /// A form of "assure" ("rest assured").
    Assurance,
    /// "within" and a duration.
    Within,
    /// A time that commits with a verb in its clause ("today").
    Time,
    /// A time that needs "by" or "before" ("by Friday").
    ByTime,
    /// "by (the) end of (the) day".
    EndOf,
}

/// Anchors that are grammar, not vocabulary: what follows each is parsed here.
const GRAMMAR_ANCHORS: &[(&str, Anchor)] = &[("within", Anchor::Within), ("end of", Anchor::EndOf)];

/// Negated modals: the clause does not commit.
const NEGATED_MODALS: &[&str] = &["won't", "wont", "shan't"];
/// Modals that commit unless an obligation of the customer follows ("you will need to").
const MODALS: &[&str] = &["will", "shall"];
/// Words [`verb`] reads by name besides [`NEGATED_MODALS`], [`MODALS`] and the committing
/// words.
const OTHER_VERBS: &[&str] = &["going", "being", "should"];

/// The word lists the check reads, from `[[words]]` tables with `check = "promise"`.
#[derive(Debug, Clone)]
pub(crate) struct Words {
    /// Every anchor: the word, what it starts, and whether it is matched only as written;
    /// grouped by lower-case first byte, longest first within a group.
    anchors: Vec<(String, Anchor, bool)>,
    /// `anchors[by_first[c]..by_first[c + 1]]` start with byte `c` in lower case: a hit reads
    /// only the words that can be there, longest first, and stops at the first that is.
    by_first: Vec<u32>,
    /// Words before "guarantee" that negate it (the note says so).
    negations: Vec<String>,
    /// Words that make the time part of a condition, not a commitment.
    conditions: Vec<String>,
    /// Verbs after "should" that state an expected outcome ("should arrive tomorrow").
    outcomes: Vec<String>,
    /// Words a clause may open with before the time word ("but tomorrow we will...").
    conjunctions: Vec<String>,
    /// Words that commit by themselves ("expect", "scheduled").
    committing: Vec<String>,
    /// Words of a quantity after "within" ("a few", "twenty-four").
    number_words: Vec<String>,
    /// Units of time.
    units: Vec<String>,
    /// Words between a quantity and its unit ("business", "working").
    unit_adjectives: Vec<String>,
    /// The words [`commitment`] stops at, by lower-case first letter: bit `n` is set when one
    /// of them has `n` bytes. Most words of a clause are none of these, and this one lookup
    /// turns them away before any list is compared (a time word's clause is read up to
    /// [`LOOK_BACK`] words back).
    clause_words: [u32; 26],
    /// A word [`commitment`] stops at does not fit the table (it does not start with an ASCII
    /// letter, or is 32 bytes or longer): words the table cannot hold are let through.
    odd_clause_words: bool,
}

impl Words {
    /// The list names, as `[[words]]` tables give them.
    pub(crate) const LISTS: &'static [&'static str] = &[
        "guarantees",
        "promises",
        "assurances",
        "times",
        "by_times",
        "by_times_exact",
        "negations",
        "conditions",
        "outcomes",
        "conjunctions",
        "committing",
        "number_words",
        "units",
        "unit_adjectives",
    ];

    /// Every anchor word, for the prefilter (which matches ASCII case-insensitively and
    /// reports them at word starts, a superset of the anchors this check accepts).
    pub(crate) fn anchor_words(&self) -> Vec<String> {
        self.anchors.iter().map(|(w, _, _)| w.clone()).collect()
    }

    /// The lists [`commitment`] stops at: conditions, conjunctions, and every word [`verb`]
    /// reads as a verb except those ending in "'ll".
    fn clause_lists(&self) -> impl Iterator<Item = &str> {
        let code = [NEGATED_MODALS, MODALS, OTHER_VERBS];
        let data = [&self.conditions, &self.conjunctions, &self.committing];
        code.into_iter()
            .flat_map(|l| l.iter().copied())
            .chain(data.into_iter().flat_map(|l| l.iter().map(String::as_str)))
    }
}

impl From<&Vocabulary> for Words {
    fn from(v: &Vocabulary) -> Self {
        // Empty words are a rule-file error; left out here so a check never compares one.
        let list = |name: &str| -> Vec<String> {
            let mut words = v.words("promise", name);
            words.retain(|w| !w.is_empty());
            words
        };
        let mut anchors: Vec<(String, Anchor, bool)> = GRAMMAR_ANCHORS
            .iter()
            .map(|&(w, a)| (w.to_owned(), a, false))
            .collect();
        for (name, anchor) in [
            ("guarantees", Anchor::Guarantee),
            ("promises", Anchor::Promise),
            ("assurances", Anchor::Assurance),
            ("times", Anchor::Time),
            ("by_times", Anchor::ByTime),
        ] {
            anchors.extend(list(name).into_iter().map(|w| (w, anchor, false)));
        }
        let exact = v.words_as_written("promise", "by_times_exact");
        anchors.extend(
            exact
                .into_iter()
                .filter(|w| !w.is_empty())
                .map(|w| (w, Anchor::ByTime, true)),
        );
        anchors
            .sort_by_key(|(w, _, _)| (w.as_bytes()[0].to_ascii_lowercase(), usize::MAX - w.len()));
        let mut by_first = vec![0u32; 257];
        for (w, _, _) in &anchors {
            by_first[usize::from(w.as_bytes()[0].to_ascii_lowercase()) + 1] += 1;
        }
        for c in 1..by_first.len() {
            by_first[c] += by_first[c - 1];
        }
        let mut words = Words {
            anchors,
            by_first,
            negations: list("negations"),
            conditions: list("conditions"),
            outcomes: list("outcomes"),
            conjunctions: list("conjunctions"),
            committing: list("committing"),
            number_words: list("number_words"),
            units: list("units"),
            unit_adjectives: list("unit_adjectives"),
            clause_words: [0; 26],
            odd_clause_words: false,
        };
        let (mut table, mut odd) = ([0u32; 26], false);
        for w in words.clause_lists() {
            let w = w.as_bytes();
            match w.first().map(u8::to_ascii_lowercase) {
                Some(c @ b'a'..=b'z') if w.len() < 32 => {
                    table[usize::from(c - b'a')] |= 1 << w.len();
                }
                _ => odd = true,
            }
        }
        words.clause_words = table;
        words.odd_clause_words = odd;
        words
    }
}

/// Whether `word` (ASCII) is at `b[s..]` in lower case, Capitalised or ALL CAPS.
fn cased_at(b: &[u8], s: usize, word: &str) -> bool {
    let Some(found) = b.get(s..s + word.len()) else {
        return false;
    };
    let w = word.as_bytes();
    let all = |upper: bool| {
        found
            .iter()
            .zip(w)
            .all(|(&f, &c)| f == if upper { c.to_ascii_uppercase() } else { c })
    };
    all(false) || all(true) || (found[0] == w[0].to_ascii_uppercase() && found[1..] == w[1..])
}

/// The end and kind of the longest anchor that starts at `s` with an accepted letter case.
fn anchor_at(b: &[u8], s: usize, v: &Words) -> Option<(usize, Anchor)> {
    let first = usize::from(b[s].to_ascii_lowercase());
    let group = v.by_first[first] as usize..v.by_first[first + 1] as usize;
    v.anchors[group]
        .iter()
        .find(|(w, _, exact)| {
            if *exact {
                b[s..].starts_with(w.as_bytes())
            } else {
                cased_at(b, s, w)
            }
        })
        .map(|(w, anchor, _)| (s + w.len(), *anchor))
}

/// How far back (in words) a commitment verb may stand before the time word.
const LOOK_BACK: usize = 12;
/// How far forward when the time word opens the clause.
const LOOK_AHEAD: usize = 8;

/// Whether word `w` may be one [`commitment`] stops at: in [`Words::clause_words`], or a word
/// ending in "'ll" ("we'll").
fn may_stop_clause(b: &[u8], w: &Range<usize>, v: &Words) -> bool {
    let word = &b[w.clone()];
    let listed = match word.first().map(u8::to_ascii_lowercase) {
        Some(c @ b'a'..=b'z') if word.len() < 32 => {
            v.clause_words[usize::from(c - b'a')] >> word.len() & 1 != 0
        }
        _ => v.odd_clause_words,
    };
    listed || ends_ll(word)
}

/// Whether `word` ends in "'ll" after at least one letter ("we'll", "you'll").
fn ends_ll(word: &[u8]) -> bool {
    word.len() > 3 && word[word.len() - 3..].eq_ignore_ascii_case(b"'ll")
}

/// Reports every guarantee, "within" deadline and time commitment in `view`. `anchors` are
/// offsets where an anchor word may start, ascending (the prefilter's hits for
/// [`Words::anchor_words`]); `None` tries every word start.
pub(crate) fn run(view: &str, anchors: Option<&[usize]>, v: &Words, emit: &mut Emit<'_>) {
    let b = view.as_bytes();
    match anchors {
        Some(offsets) => run_at(b, offsets.iter().copied(), v, emit),
        None => run_at(
            b,
            (0..b.len()).filter(|&s| {
                b[s].is_ascii_alphanumeric() && (s == 0 || !b[s - 1].is_ascii_alphanumeric())
            }),
            v,
            emit,
        ),
    }
}

fn run_at(b: &[u8], offsets: impl Iterator<Item = usize>, v: &Words, emit: &mut Emit<'_>) {
    let mut last_end = 0;
    // Anchors do not overlap: one starting inside the last one found is not one.
    let mut anchor_end = 0;
    for s in offsets {
        if s < anchor_end || (s > 0 && b[s - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let Some((e, anchor)) = anchor_at(b, s, v) else {
            continue;
        };
        anchor_end = e;
        if s < last_end {
            continue;
        }
        let hit = match anchor {
            Anchor::Guarantee | Anchor::Promise | Anchor::Assurance => pledge(b, s, last_end, v),
            Anchor::Within => within(b, e, v).map(|end| (s..end, "a deadline")),
            Anchor::Time | Anchor::ByTime | Anchor::EndOf => time_phrase(b, s, e, anchor, last_end)
                .and_then(|(ts, te)| {
                    commitment(b, ts, te, last_end, v).map(|r| (r, "a commitment to a time"))
                }),
        };
        if let Some((span, note)) = hit {
            last_end = span.end;
            emit(span, Some(note.to_owned()));
        }
    }
}

fn is(b: &[u8], w: &Range<usize>, word: &str) -> bool {
    b[w.clone()].eq_ignore_ascii_case(word.as_bytes())
}

fn one_of<S: AsRef<str>>(b: &[u8], w: &Range<usize>, list: &[S]) -> bool {
    list.iter().any(|x| is(b, w, x.as_ref()))
}

/// A guarantee, promise or assurance at `s`.
fn pledge(b: &[u8], s: usize, floor: usize, v: &Words) -> Option<(Range<usize>, &'static str)> {
    let mut e = s;
    while e < b.len() && b[e].is_ascii_alphabetic() {
        e += 1;
    }
    let w = s..e;
    let forms = |kind: Anchor| {
        v.anchors
            .iter()
            .filter(move |(_, a, _)| *a == kind)
            .map(|(form, _, _)| form.as_str())
    };
    // A guarantee stem starts the word; the other pledges are whole words.
    let word = &b[w.clone()];
    if forms(Anchor::Guarantee).any(|stem| {
        word.len() >= stem.len() && word[..stem.len()].eq_ignore_ascii_case(stem.as_bytes())
    }) {
        let mut cur = s;
        let mut negated = false;
        for _ in 0..3 {
            let Some(p) = prev_word(b, cur, floor) else {
                break;
            };
            negated |= one_of(b, &p, &v.negations);
            cur = p.start;
        }
        let note = if negated {
            "a guarantee, even a negated one"
        } else {
            "a guarantee"
        };
        return Some((w, note));
    }
    if forms(Anchor::Promise).any(|f| is(b, &w, f)) {
        return Some((w, "a promise"));
    }
    if forms(Anchor::Assurance).any(|f| is(b, &w, f)) {
        let start = prev_word(b, s, floor)
            .filter(|p| is(b, p, "rest"))
            .map_or(s, |p| p.start);
        return Some((start..e, "an assurance"));
    }
    None
}

/// Parses what follows "within" (ending at `pos`); returns the end of the time unit.
fn within(b: &[u8], pos: usize, v: &Words) -> Option<usize> {
    if b.get(pos) != Some(&b' ') {
        return None;
    }
    let mut w = next_word(b, pos)?;
    let mut the = false;
    if is(b, &w, "the") {
        the = true;
        w = next_word(b, w.end)?;
    }
    if one_of(b, &w, &["next", "same", "coming", "following", "first"]) {
        w = next_word(b, w.end)?;
    }
    if one_of(b, &w, &v.units) {
        // "within the hour", "within the next day"; bare plurals: "within hours", "within days".
        return (the || b[w.end - 1].eq_ignore_ascii_case(&b's')).then_some(w.end);
    }
    let mut quantity = false;
    for _ in 0..6 {
        let word = &b[w.clone()];
        let digits = word
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'-')
            .count();
        if digits > 0 && word[0].is_ascii_digit() {
            let rest = &word[digits..];
            if rest.is_empty() {
                quantity = true;
            } else if v
                .units
                .iter()
                .any(|u| u.as_bytes().eq_ignore_ascii_case(rest))
            {
                // "24h", "48hrs", "24-48h"
                return Some(w.end);
            } else {
                return None;
            }
        } else if one_of(b, &w, &v.number_words) {
            quantity = true;
        } else {
            break;
        }
        w = next_word(b, w.end)?;
    }
    if !quantity {
        return None;
    }
    while one_of(b, &w, &v.unit_adjectives) {
        w = next_word(b, w.end)?;
    }
    one_of(b, &w, &v.units).then_some(w.end)
}

/// The time phrase for the anchor `s..e`: `(start, end)`, or `None` when the anchor is only
/// part of a word or lacks its "by".
fn time_phrase(
    b: &[u8],
    s: usize,
    e: usize,
    anchor: Anchor,
    floor: usize,
) -> Option<(usize, usize)> {
    let word_end = !b.get(e).is_some_and(u8::is_ascii_alphanumeric);
    let by_before = |at: usize| {
        let p = prev_word(b, at, floor)?;
        one_of(b, &p, &["by", "before"]).then_some(p.start)
    };
    match anchor {
        Anchor::Time if word_end => Some((s, e)),
        Anchor::ByTime if word_end => by_before(s).map(|start| (start, e)),
        Anchor::EndOf => {
            // "by (the) end of (the) day/business/week/today"
            let mut start_at = s;
            if let Some(p) = prev_word(b, s, floor)
                && is(b, &p, "the")
            {
                start_at = p.start;
            }
            let start = by_before(start_at)?;
            let mut w = next_word(b, e)?;
            if is(b, &w, "the") {
                w = next_word(b, w.end)?;
            }
            if !one_of(b, &w, &["day", "business", "week", "today", "shift"]) {
                return None;
            }
            let mut end = w.end;
            if is(b, &w, "business")
                && let Some(d) = next_word(b, end)
                && is(b, &d, "day")
            {
                end = d.end;
            }
            Some((start, end))
        }
        _ => None,
    }
}

/// What a commitment verb found near a time phrase says.
enum Verb {
    /// Commits: the verb's word range.
    Commits(Range<usize>),
    /// Negated, conditional or an obligation of the customer: not a commitment.
    Not,
}

/// Reads the word `w` as a commitment verb, if it is one.
fn verb(b: &[u8], w: &Range<usize>, floor: usize, v: &Words) -> Option<Verb> {
    // The words after it are read only for the few words that need them (most words of a
    // clause are none of these).
    let next = || next_word(b, w.end);
    let next2 = || next().and_then(|n| next_word(b, n.end));
    let next_is = |x: &str| next().is_some_and(|n| is(b, &n, x));
    let next_in = |l: &[&str]| next().is_some_and(|n| one_of(b, &n, l));
    let next2_is = |x: &str| next2().is_some_and(|n| is(b, &n, x));
    let word = &b[w.clone()];
    let ends_ll = ends_ll(word);
    if one_of(b, w, NEGATED_MODALS) {
        return Some(Verb::Not);
    }
    let modal = if ends_ll || one_of(b, w, MODALS) {
        let you = if ends_ll {
            word[..word.len() - 3].eq_ignore_ascii_case(b"you")
        } else {
            prev_word(b, w.start, floor).is_some_and(|p| is(b, &p, "you"))
        };
        // "you will need to", "you'll have to", "you will be required to"
        let obligation = you
            && (next_in(&["need", "needs", "must", "want", "wish"])
                || (next_is("have") && next2_is("to"))
                || (next_is("be") && (next2_is("required") || next2_is("asked"))));
        !obligation
    } else if is(b, w, OTHER_VERBS[0]) {
        next_is("to")
    } else if is(b, w, OTHER_VERBS[1]) {
        prev_word(b, w.start, floor).is_some_and(|p| one_of(b, &p, &["is", "are", "it's"]))
    } else if is(b, w, OTHER_VERBS[2]) {
        next().is_some_and(|n| one_of(b, &n, &v.outcomes))
    } else {
        one_of(b, w, &v.committing)
    };
    if !modal {
        return None;
    }
    if next_in(&["not", "never"]) {
        return Some(Verb::Not);
    }
    Some(Verb::Commits(w.clone()))
}

/// Whether the time phrase `ts..te` is tied to a commitment in its clause; returns the span
/// of the commitment phrase.
fn commitment(b: &[u8], ts: usize, te: usize, floor: usize, v: &Words) -> Option<Range<usize>> {
    let mut cur = ts;
    let mut opens_clause = true;
    for _ in 0..LOOK_BACK {
        let Some(w) = prev_word(b, cur, floor) else {
            break;
        };
        if !may_stop_clause(b, &w, v) {
            // Neither a verb nor a condition, and not a conjunction either.
            opens_clause = false;
            cur = w.start;
            continue;
        }
        if one_of(b, &w, &v.conditions) {
            return None;
        }
        match verb(b, &w, floor, v) {
            Some(Verb::Commits(v)) => return Some(v.start..te),
            Some(Verb::Not) => return None,
            None => {}
        }
        if !one_of(b, &w, &v.conjunctions) {
            opens_clause = false;
        }
        cur = w.start;
    }
    if !opens_clause {
        return None;
    }
    // "Tomorrow, we will call you." / "Today we'll ship it."
    let mut cur = te;
    if b.get(cur) == Some(&b',') {
        cur += 1;
    }
    for _ in 0..LOOK_AHEAD {
        let w = next_word(b, cur)?;
        if !may_stop_clause(b, &w, v) {
            cur = w.end;
            continue;
        }
        if one_of(b, &w, &v.conditions) {
            return None;
        }
        match verb(b, &w, 0, v) {
            Some(Verb::Commits(v)) => {
                let end = next_word(b, v.end).map_or(v.end, |n| n.end);
                return Some(ts..end);
            }
            Some(Verb::Not) => return None,
            None => {}
        }
        cur = w.end;
    }
    None
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::*;

    /// The embedded word lists (`rules/draft-words.toml`).
    static WORDS: LazyLock<Words> = LazyLock::new(|| {
        Words::from(&crate::rules::builtin_vocabulary(&[
            "rules/draft-words.toml",
        ]))
    });

    fn found(text: &str) -> Vec<(&str, String)> {
        super::super::collect(|t, e| run(t, None, &WORDS, e), text)
    }

    fn spans(text: &str) -> Vec<&str> {
        found(text).into_iter().map(|(s, _)| s).collect()
    }

    #[test]
    fn guarantees_and_promises_are_found_negated_or_not() {
        for (text, want) in [
            ("We guarantee a full refund.", "guarantee"),
            ("We cannot guarantee delivery by Friday.", "guarantee"),
            ("Delivery is Guaranteed.", "Guaranteed"),
            ("WE GUARANTEE IT.", "GUARANTEE"),
            ("I promise it will be fixed.", "promise"),
            ("As promised, here it is.", "promised"),
            ("Rest assured, we are on it.", "Rest assured"),
            ("I can assure you of that.", "assure"),
        ] {
            assert_eq!(spans(text), vec![want], "{text}");
        }
        assert_eq!(
            found("We cannot guarantee it.")[0].1,
            "a guarantee, even a negated one"
        );
        assert_eq!(found("We guarantee it.")[0].1, "a guarantee");
    }

    #[test]
    fn deadlines_with_within_are_found() {
        for (text, want) in [
            ("You will hear back within 24 hours.", "within 24 hours"),
            (
                "It should arrive within 3-5 business days.",
                "within 3-5 business days",
            ),
            ("Expect a reply within 24-48 hours.", "within 24-48 hours"),
            ("Expect a call within an hour.", "within an hour"),
            ("Expect a call within a day.", "within a day"),
            ("It ships within a few days.", "within a few days"),
            (
                "It ships within 3 to 5 working days.",
                "within 3 to 5 working days",
            ),
            (
                "We reply within the next 2 weeks.",
                "within the next 2 weeks",
            ),
            ("We reply within the hour.", "within the hour"),
            ("We reply within half an hour.", "within half an hour"),
            ("We reply within 48h.", "within 48h"),
            (
                "We reply within one business day.",
                "within one business day",
            ),
            ("We reply within days.", "within days"),
            ("Within 24 hours you will hear.", "Within 24 hours"),
            ("WITHIN 24 HOURS.", "WITHIN 24 HOURS"),
        ] {
            assert_eq!(spans(text), vec![want], "{text}");
        }
    }

    #[test]
    fn time_words_tied_to_an_action_are_found() {
        for (text, want) in [
            (
                "Your money will be refunded today.",
                "will be refunded today",
            ),
            ("We'll ship it immediately.", "We'll ship it immediately"),
            ("You'll have it by tomorrow.", "You'll have it by tomorrow"),
            (
                "We will process it right away.",
                "will process it right away",
            ),
            ("It will go out by end of day.", "will go out by end of day"),
            (
                "It will go out by the end of the business day.",
                "will go out by the end of the business day",
            ),
            ("We'll call you by EOD.", "We'll call you by EOD"),
            ("Your order is being shipped today.", "being shipped today"),
            ("You can expect it tomorrow.", "expect it tomorrow"),
            ("It should arrive tomorrow.", "should arrive tomorrow"),
            ("We're going to fix it tonight.", "going to fix it tonight"),
            ("We will immediately refund you.", "will immediately"),
            ("Tomorrow, we will call you.", "Tomorrow, we will call"),
            ("But today we'll ship it.", "today we'll ship"),
            ("You'll have it by Friday.", "You'll have it by Friday"),
        ] {
            assert_eq!(spans(text), vec![want], "{text}");
        }
        assert_eq!(found("We'll ship it today.")[0].1, "a commitment to a time");
    }

    #[test]
    fn time_words_without_a_commitment_are_not_found() {
        for text in [
            "Thanks for contacting us today.",
            "Please contact your bank immediately.",
            "What happened today?",
            "You can change this within the app.",
            "It is within your account settings, within reason.",
            "You will need to contact your bank immediately.",
            "You'll have to call them tomorrow.",
            "We won't ship today.",
            "We will not ship it today.",
            "We will call you if you reply today.",
            "We will update you, and you can call your bank today.",
            "Your refund was processed today.",
            "At the end of the day, we value you.",
            "We open on Monday and close on Friday.",
            "The promising results, the promissory note, quality assurance, reassure.",
            "Todays and todayish and Monday's sale.",
            "",
        ] {
            assert_eq!(spans(text), Vec::<&str>::new(), "{text}");
        }
    }

    #[test]
    fn one_finding_per_phrase() {
        assert_eq!(
            spans("We will ship it today or tomorrow."),
            vec!["will ship it today"]
        );
        assert_eq!(
            spans("We guarantee it will arrive within 2 days."),
            vec!["guarantee", "within 2 days"]
        );
        assert_eq!(
            spans("It will be done by end of today."),
            vec!["will be done by end of today"]
        );
    }

    /// Whether [`commitment`] would act on word `w` of `text`: a condition, a conjunction, or
    /// a verb by [`verb`]'s reading.
    fn acted_on(text: &str, w: Range<usize>) -> bool {
        let b = text.as_bytes();
        let v = &*WORDS;
        one_of(b, &w, &v.conditions)
            || one_of(b, &w, &v.conjunctions)
            || verb(b, &w, 0, v).is_some()
    }

    #[test]
    fn the_clause_word_lookup_lets_every_listed_word_through() {
        let v = &*WORDS;
        let listed: Vec<&str> = v.clause_lists().collect();
        assert!(listed.len() > 15, "{listed:?}");
        for word in listed
            .into_iter()
            .chain(["we'll", "YOU'LL", "It'll", "Will", "SHOULD", "Gonna", "If"])
        {
            assert!(
                may_stop_clause(word.as_bytes(), &(0..word.len()), v),
                "{word}"
            );
        }
        // In context, each is acted on: "is being", "should arrive", "going to".
        for (text, w) in [
            ("is being", 3..8),
            ("should arrive", 0..6),
            ("going to", 0..5),
        ] {
            assert!(acted_on(text, w.clone()), "{text}");
            assert!(may_stop_clause(text.as_bytes(), &w, v), "{text}");
        }
        // Passes by first letter and length but is no listed word; turned away.
        assert!(may_stop_clause(b"wild", &(0..4), v) && !acted_on("wild", 0..4));
        assert!(!may_stop_clause(b"ship", &(0..4), v));
        assert!(!may_stop_clause(b"'ll", &(0..3), v));
    }

    proptest::proptest! {
        /// A word the lookup turns away is one [`commitment`] would pass over anyway.
        #[test]
        fn a_word_turned_away_by_the_lookup_is_not_acted_on(
            word in "(will|shall|wont?|won't|shan't|going|being|should|gonna|expect(s|ed)?|scheduled\
                     |if|when(ever)?|unless|once|whether|and|but|so|then|also|because\
                     |[a-z]{0,3}'ll|[a-z]{1,3}ll|[a-zA-Z'-]{1,12})",
            upper in proptest::collection::vec(proptest::bool::ANY, 12),
            before in proptest::sample::select(vec!["", "is ", "you "]),
            rest in proptest::sample::select(vec!["", " arrive", " need to", " not", " to"]),
        ) {
            // Listed words in any letter case, near misses and random words.
            let word: String = word
                .chars()
                .zip(upper.iter().chain(std::iter::repeat(&false)))
                .map(|(c, &u)| if u { c.to_ascii_uppercase() } else { c })
                .collect();
            let text = format!("{before}{word}{rest}");
            let w = before.len()..before.len() + word.len();
            if !may_stop_clause(text.as_bytes(), &w, &WORDS) {
                proptest::prop_assert!(!acted_on(&text, w), "{text:?}");
            }
        }
    }
}
