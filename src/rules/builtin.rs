//! The rule files shipped inside the library, one `include_str!` per file.
//!
//! A test checks that this list matches the `rules/` folder, so a new file cannot go unshipped.
//!
//! `build.rs` also writes each file's rule tables out as static data ([`SpecRow`]), which the
//! library reads instead of parsing the TOML at start-up; a test checks that the two agree.

use serde::Deserialize;
use serde::de::IntoDeserializer;
use serde::de::value::Error as ValueError;

use super::schema::{ExampleSpec, RuleSpec};
use super::vocabulary::{WordList, WordsSpec};

/// `(file name, contents)` of every embedded rule file.
pub(crate) const BUILTIN_RULE_FILES: &[(&str, &str)] = &[
    (
        "rules/injection.toml",
        include_str!("../../rules/injection.toml"),
    ),
    ("rules/draft.toml", include_str!("../../rules/draft.toml")),
    (
        "rules/draft-words.toml",
        include_str!("../../rules/draft-words.toml"),
    ),
    (
        "rules/draft-phrasings.toml",
        include_str!("../../rules/draft-phrasings.toml"),
    ),
    (
        "rules/injection-multilingual.toml",
        include_str!("../../rules/injection-multilingual.toml"),
    ),
    (
        "rules/credentials.toml",
        include_str!("../../rules/credentials.toml"),
    ),
];

/// The embedded files that hold `[[words]]` tables (read from their TOML at build time of a
/// rule set; the others' tables come from `build.rs`).
pub(crate) const BUILTIN_WORD_FILES: &[&str] = &["rules/draft-words.toml"];

/// One `[[rule]]` table of an embedded file, as `build.rs` wrote it out: the fields of
/// [`RuleSpec`] as written (enum values by their names in the file), and the line the table
/// starts on.
pub(crate) struct SpecRow {
    line: usize,
    id: &'static str,
    kind: &'static str,
    severity: &'static str,
    status: Option<&'static str>,
    description: &'static str,
    rationale: &'static str,
    message: &'static str,
    keywords: &'static [&'static str],
    pattern: Option<&'static str>,
    check: Option<&'static str>,
    min_entropy: Option<f64>,
    validate: Option<&'static str>,
    examples: &'static [ExampleRow],
    negative_examples: &'static [ExampleRow],
}

/// An example as written: plain text, or a table of text and optional span.
enum ExampleRow {
    Text(&'static str),
    Table(&'static str, Option<[usize; 2]>),
}

/// One `[[words]]` table of an embedded file, as `build.rs` wrote it out.
pub(crate) struct WordsRow {
    line: usize,
    check: &'static str,
    list: &'static str,
    words: &'static [&'static str],
    examples: &'static [ExampleRow],
    negative_examples: &'static [ExampleRow],
}

/// The `[[words]]` tables of embedded file `file` without parsing the TOML; `None` when
/// `build.rs` left the file to the parser.
pub(crate) fn builtin_word_lists(file: &str) -> Option<Vec<WordList>> {
    let (_, rows) = generated::BUILTIN_WORDS.iter().find(|(f, _)| *f == file)?;
    Some(
        rows.as_ref()?
            .iter()
            .map(|row| WordList {
                file: file.to_owned(),
                line: row.line,
                spec: WordsSpec {
                    check: row.check.to_owned(),
                    list: row.list.to_owned(),
                    words: row.words.iter().map(|w| (*w).to_owned()).collect(),
                    examples: examples(row.examples),
                    negative_examples: examples(row.negative_examples),
                },
            })
            .collect(),
    )
}

fn examples(list: &[ExampleRow]) -> Vec<ExampleSpec> {
    list.iter()
        .map(|e| match *e {
            ExampleRow::Text(t) => ExampleSpec::Text(t.to_owned()),
            ExampleRow::Table(t, span) => ExampleSpec::Table {
                text: t.to_owned(),
                span,
            },
        })
        .collect()
}

mod generated {
    use super::{ExampleRow, SpecRow, WordsRow};
    include!(concat!(env!("OUT_DIR"), "/builtin_specs.rs"));
}

/// The rule tables of embedded file `file`, each with its line, without parsing the TOML;
/// `None` when `build.rs` left the file to the parser (or a name does not read as the serde
/// types read it), so the caller parses it and reports what is wrong.
pub(crate) fn builtin_specs(file: &str) -> Option<Vec<(usize, RuleSpec)>> {
    let (_, rows) = generated::BUILTIN_SPECS.iter().find(|(f, _)| *f == file)?;
    rows.as_ref()?
        .iter()
        .map(|row| Some((row.line, row.to_spec()?)))
        .collect()
}

/// An enum value from its name in a rule file, read by the same serde code as the file.
fn named<T: for<'de> Deserialize<'de>>(name: &'static str) -> Option<T> {
    T::deserialize(IntoDeserializer::<ValueError>::into_deserializer(name)).ok()
}

impl SpecRow {
    fn to_spec(&self) -> Option<RuleSpec> {
        let examples = |list: &[ExampleRow]| -> Vec<ExampleSpec> {
            list.iter()
                .map(|e| match *e {
                    ExampleRow::Text(t) => ExampleSpec::Text(t.to_owned()),
                    ExampleRow::Table(t, span) => ExampleSpec::Table {
                        text: t.to_owned(),
                        span,
                    },
                })
                .collect()
        };
        Some(RuleSpec {
            id: self.id.to_owned(),
            kind: named(self.kind)?,
            replaces: false,
            severity: named(self.severity)?,
            status: match self.status {
                None => Default::default(),
                Some(s) => named(s)?,
            },
            description: self.description.to_owned(),
            rationale: self.rationale.to_owned(),
            message: self.message.to_owned(),
            keywords: self.keywords.iter().map(|k| (*k).to_owned()).collect(),
            pattern: self.pattern.map(str::to_owned),
            check: self.check.map(str::to_owned),
            min_entropy: self.min_entropy,
            validate: match self.validate {
                None => None,
                Some(v) => Some(named(v)?),
            },
            examples: examples(self.examples),
            negative_examples: examples(self.negative_examples),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::BUILTIN_RULE_FILES;

    #[test]
    fn the_word_files_are_the_embedded_files_with_words() {
        let with_words: Vec<&str> = BUILTIN_RULE_FILES
            .iter()
            .filter(|(_, source)| source.contains("[[words]]"))
            .map(|(file, _)| *file)
            .collect();
        assert_eq!(with_words, super::BUILTIN_WORD_FILES);
    }

    #[test]
    fn every_rule_file_in_the_folder_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .map(|n| format!("rules/{n}"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = BUILTIN_RULE_FILES
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }
}
