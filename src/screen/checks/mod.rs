//! Checks that need code rather than one regex. A rule names one with `check = "..."`.
//!
//! Every check reads the normalised view and reports byte ranges of the *view*; the engine maps
//! them back to the original text. A check with a note adds it to the rule's message.

mod email;
mod foreign_id;
mod intro_line;
mod length;
mod long_number;
mod placeholder;
mod promise;

use std::any::Any;
#[cfg(test)]
use std::ops::Range;

pub(crate) use crate::rules::Emit;
use crate::rules::{Check, Checks, Pass, Vocabulary};
use crate::screen::Context;

/// The draft checks, by the names rule files use in `check = "..."`, made with the word lists
/// of the loaded rule files. Adding a check is its file, its rule-file entry and a line here.
pub(crate) fn registry(vocabulary: &Vocabulary) -> Checks {
    Checks::default()
        .with("foreign_id", ForeignId)
        .with(
            "placeholder",
            Placeholder(placeholder::Words::from(vocabulary)),
        )
        .with("intro_line", IntroLine(intro_line::Words::from(vocabulary)))
        .with("email", Email)
        .with("long_number", LongNumber)
        .with("promise", Promise(promise::Words::from(vocabulary)))
        .with("length", Length)
}

/// The words of a check's anchor lists, for [`Check::anchor_words`].
fn words(lists: &[&[&str]]) -> Vec<String> {
    lists
        .iter()
        .flat_map(|l| l.iter())
        .map(|w| (*w).to_owned())
        .collect()
}

#[derive(Debug)]
struct ForeignId;
impl Check for ForeignId {
    /// A UUID is 32 hex digits, or 36 bytes of hex digits and hyphens, in a row.
    fn needs_long_run(&self) -> bool {
        true
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        // No ticket to compare against on the input side: nothing to report.
        if let Some(ctx) = pass.context::<Context>() {
            foreign_id::run(pass.text(), ctx, emit);
        }
    }
}

#[derive(Debug)]
struct Placeholder(placeholder::Words);
impl Check for Placeholder {
    fn anchor_words(&self) -> Vec<String> {
        words(placeholder::ANCHOR_LITERALS)
    }
    fn word_lists(&self) -> &'static [&'static str] {
        placeholder::Words::LISTS
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        placeholder::run(pass.text(), pass.anchors, &self.0, emit);
    }
}

#[derive(Debug)]
struct IntroLine(intro_line::Words);
impl Check for IntroLine {
    fn word_lists(&self) -> &'static [&'static str] {
        intro_line::Words::LISTS
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        intro_line::run(pass.text(), &self.0, emit);
    }
}

#[derive(Debug)]
struct Email;
impl Check for Email {
    fn anchor_words(&self) -> Vec<String> {
        words(email::ANCHOR_LITERALS)
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        email::run(pass.text(), pass.anchors, pass.context::<Context>(), emit);
    }
}

#[derive(Debug)]
struct LongNumber;
impl Check for LongNumber {
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        long_number::run_allowing(pass.text(), pass.context::<Context>(), emit);
    }
}

#[derive(Debug)]
struct Promise(promise::Words);
impl Check for Promise {
    fn anchor_words(&self) -> Vec<String> {
        self.0.anchor_words()
    }
    fn word_lists(&self) -> &'static [&'static str] {
        promise::Words::LISTS
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        promise::run(pass.text(), pass.anchors, &self.0, emit);
    }
}

#[derive(Debug)]
struct Length;
impl Check for Length {
    fn counts_words(&self) -> bool {
        true
    }
    /// Only a draft long enough to be over its word limit is counted; the input side has no
    /// context and no limit.
    fn wants_word_tally(&self, len: usize, context: Option<&dyn Any>) -> bool {
        context
            .and_then(|c| c.downcast_ref::<Context>())
            .is_some_and(|c| len.div_ceil(2) > c.word_limit())
    }
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>) {
        if let Some(ctx) = pass.context::<Context>() {
            length::run(pass.text(), ctx.word_limit(), pass.words, emit);
        }
    }
}

/// Runs a check that needs no context over `text` and collects what it reports, for the checks'
/// unit tests: (matched text, note).
#[cfg(test)]
pub(crate) fn collect(run: fn(&str, &mut Emit<'_>), text: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    run(text, &mut |r: Range<usize>, note: Option<String>| {
        out.push((&text[r], note.unwrap_or_default()));
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_checks_have_words_to_look_for() {
        let checks = registry(&crate::rules::builtin_vocabulary(&[
            "rules/draft-words.toml",
        ]));
        for name in ["promise", "placeholder"] {
            let words = checks.get(name).expect("registered").anchor_words();
            assert!(!words.is_empty(), "{name}");
            assert!(words.iter().all(|w| !w.is_empty()), "{name}");
        }
    }

    /// Every `check = "..."` in the embedded rule files names a registered check.
    #[test]
    fn every_named_check_is_registered() {
        let checks = registry(&Vocabulary::default());
        let mut named = 0;
        for (file, source) in crate::rules::BUILTIN_RULE_FILES {
            let table: toml::Table = toml::from_str(source).expect("parses");
            for rule in table
                .get("rule")
                .and_then(|r| r.as_array())
                .into_iter()
                .flatten()
            {
                if let Some(name) = rule.get("check").and_then(|c| c.as_str()) {
                    assert!(checks.get(name).is_some(), "{file}: {name}");
                    named += 1;
                }
            }
        }
        assert!(named >= 7, "{named}");
    }
}
