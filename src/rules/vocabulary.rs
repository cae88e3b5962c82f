//! Word lists that checks read, as data: `[[words]]` tables in rule files.
//!
//! A check names the lists it reads ([`super::Check::word_lists`]); every `[[words]]` table of
//! every loaded file adds words to one list of one check, so a user's file extends the
//! embedded lists. Like a rule, a table carries examples the check must flag with its words in
//! place and negative examples it must not, run with every rule's examples.

use serde::Deserialize;

use super::schema::ExampleSpec;

/// One `[[words]]` table as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WordsSpec {
    /// The check that reads the list (`intro_line`).
    pub(crate) check: String,
    /// Which of its lists (`strong`).
    pub(crate) list: String,
    /// The words, matched ASCII case-insensitively.
    pub(crate) words: Vec<String>,
    #[serde(default)]
    pub(crate) examples: Vec<ExampleSpec>,
    #[serde(default)]
    pub(crate) negative_examples: Vec<ExampleSpec>,
}

/// One loaded `[[words]]` table, with where it came from.
#[derive(Debug, Clone)]
pub(crate) struct WordList {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) spec: WordsSpec,
}

impl WordList {
    /// The name problems and examples are reported under: `words intro_line.strong`.
    pub(crate) fn name(&self) -> String {
        format!("words {}.{}", self.spec.check, self.spec.list)
    }
}

/// Every word list loaded for one rule set.
#[derive(Debug, Clone, Default)]
pub(crate) struct Vocabulary {
    lists: Vec<WordList>,
}

impl Vocabulary {
    pub(crate) fn add(&mut self, list: WordList) {
        self.lists.push(list);
    }

    /// The words of `check`'s list `list` from every table, lower-cased, in load order.
    pub(crate) fn words(&self, check: &str, list: &str) -> Vec<String> {
        self.lists
            .iter()
            .filter(|l| l.spec.check == check && l.spec.list == list)
            .flat_map(|l| l.spec.words.iter().map(|w| w.to_ascii_lowercase()))
            .collect()
    }

    /// The words of `check`'s list `list` as written, for a list the check matches in the
    /// letter case given ("Monday", "EOD").
    pub(crate) fn words_as_written(&self, check: &str, list: &str) -> Vec<String> {
        self.lists
            .iter()
            .filter(|l| l.spec.check == check && l.spec.list == list)
            .flat_map(|l| l.spec.words.iter().cloned())
            .collect()
    }

    pub(crate) fn lists(&self) -> &[WordList] {
        &self.lists
    }
}
