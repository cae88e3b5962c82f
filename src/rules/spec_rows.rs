//! The embedded rule files' `[[rule]]` tables written out as Rust data (`SpecRow`s, see
//! `builtin.rs`), so a process does not parse their TOML at start-up. This file is compiled by
//! `build.rs`, which writes the rows, and by the crate's tests; it uses nothing from the crate
//! but `toml`.
//!
//! A file is written out only if every table reads exactly as the library's serde types
//! (`schema.rs`) would read it; anything else (an unknown key, a value of another type) gives
//! `None`, and the library parses that file at run time and reports the problem.

use std::fmt::Write as _;

/// Rust expressions for every `[[rule]]` of a rule file, one `SpecRow` each; `None` if the file
/// holds anything the library's serde types would reject or read differently.
pub(crate) fn file_rows(source: &str) -> Option<String> {
    type Document = std::collections::BTreeMap<String, Vec<toml::Spanned<toml::Table>>>;
    let doc: Document = toml::from_str(source).ok()?;
    // `[[words]]` tables are read from the TOML by the library (they are few and small).
    if doc.keys().any(|k| k != "rule" && k != "words") {
        return None;
    }
    let mut out = String::new();
    for spanned in doc.get("rule").into_iter().flatten() {
        // The line the run-time parser reports for the rule: where its table starts.
        let start = spanned.span().start.min(source.len());
        let line = 1 + source.as_bytes()[..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        out.push_str(&rule_row(line, spanned.get_ref())?);
    }
    Some(out)
}

/// Rust expressions for every `[[words]]` table of a rule file, one `WordsRow` each; `None`
/// if a table holds anything the library's serde types would reject or read differently.
pub(crate) fn words_rows(source: &str) -> Option<String> {
    type Document = std::collections::BTreeMap<String, Vec<toml::Spanned<toml::Table>>>;
    let doc: Document = toml::from_str(source).ok()?;
    let mut out = String::new();
    for spanned in doc.get("words").into_iter().flatten() {
        let start = spanned.span().start.min(source.len());
        let line = 1 + source.as_bytes()[..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let table = spanned.get_ref();
        let allowed = ["check", "list", "words", "examples", "negative_examples"];
        if table.keys().any(|k| !allowed.contains(&k.as_str())) {
            return None;
        }
        let text =
            |key: &str| -> Option<String> { Some(format!("{:?}", table.get(key)?.as_str()?)) };
        let mut words = String::new();
        for w in table.get("words")?.as_array()? {
            let _ = write!(words, "{:?}, ", w.as_str()?);
        }
        let _ = writeln!(
            out,
            "        WordsRow {{ line: {line}, check: {}, list: {}, words: &[{words}], \
             examples: &[{}], negative_examples: &[{}] }},",
            text("check")?,
            text("list")?,
            example_rows(table.get("examples"))?,
            example_rows(table.get("negative_examples"))?,
        );
    }
    Some(out)
}

const KEYS: &[&str] = &[
    "id",
    "kind",
    "severity",
    "status",
    "description",
    "rationale",
    "message",
    "keywords",
    "pattern",
    "check",
    "min_entropy",
    "validate",
    "examples",
    "negative_examples",
];

fn rule_row(line: usize, rule: &toml::Table) -> Option<String> {
    if rule.keys().any(|k| !KEYS.contains(&k.as_str())) {
        return None;
    }
    let text = |key: &str| -> Option<String> { Some(format!("{:?}", rule.get(key)?.as_str()?)) };
    // Absent: `None`; present but not a string: the whole file goes to the run-time parser.
    let optional = |key: &str| -> Option<String> {
        match rule.get(key) {
            None => Some("None".to_owned()),
            Some(v) => Some(format!("Some({:?})", v.as_str()?)),
        }
    };
    let keywords = match rule.get("keywords") {
        None => String::new(),
        Some(v) => {
            let mut list = String::new();
            for k in v.as_array()? {
                let _ = write!(list, "{:?}, ", k.as_str()?);
            }
            list
        }
    };
    let min_entropy = match rule.get("min_entropy") {
        None => "None".to_owned(),
        Some(v) => format!("Some({:?})", v.as_float()?),
    };
    Some(format!(
        "        SpecRow {{ line: {line}, id: {}, kind: {}, severity: {}, status: {}, \
         description: {}, rationale: {}, message: {}, keywords: &[{keywords}], pattern: {}, \
         check: {}, min_entropy: {min_entropy}, validate: {}, examples: &[{}], \
         negative_examples: &[{}] }},\n",
        text("id")?,
        text("kind")?,
        text("severity")?,
        optional("status")?,
        text("description")?,
        text("rationale")?,
        text("message")?,
        optional("pattern")?,
        optional("check")?,
        optional("validate")?,
        example_rows(rule.get("examples"))?,
        example_rows(rule.get("negative_examples"))?,
    ))
}

/// `ExampleRow`s of an `examples` list: strings, or tables of `text` and an optional `span`.
fn example_rows(list: Option<&toml::Value>) -> Option<String> {
    let mut out = String::new();
    for ex in list.map_or(Some(&[][..]), |v| v.as_array().map(Vec::as_slice))? {
        if let Some(t) = ex.as_str() {
            let _ = write!(out, "ExampleRow::Text({t:?}), ");
            continue;
        }
        let table = ex.as_table()?;
        if table.keys().any(|k| k != "text" && k != "span") {
            return None;
        }
        let text = table.get("text")?.as_str()?;
        let span = match table.get("span") {
            None => "None".to_owned(),
            Some(v) => match v.as_array()?.as_slice() {
                [a, b] => {
                    let a = usize::try_from(a.as_integer()?).ok()?;
                    let b = usize::try_from(b.as_integer()?).ok()?;
                    format!("Some([{a}, {b}])")
                }
                _ => return None,
            },
        };
        let _ = write!(out, "ExampleRow::Table({text:?}, {span}), ");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{file_rows, words_rows};

    #[test]
    fn word_tables_are_written_out_or_left_to_the_parser() {
        let words = "[[words]]\ncheck = \"c\"\nlist = \"l\"\nwords = [\"a\", \"b\"]\n\
                     examples = [\"x\"]\nnegative_examples = [{ text = \"y\" }]\n";
        let rows = words_rows(words).unwrap();
        assert!(
            rows.contains(r#"line: 1, check: "c", list: "l", words: &["a", "b", ]"#),
            "{rows}"
        );
        assert!(rows.contains(r#"ExampleRow::Table("y", None)"#), "{rows}");
        assert_eq!(words_rows(&words.replace("list =", "lists =")), None);
        assert_eq!(words_rows(&words.replace("[\"a\", \"b\"]", "[1]")), None);
    }

    const RULE: &str = r#"
[[rule]]
id = "a.b"
kind = "credential"
severity = "block"
description = "d"
rationale = "r"
message = "m"
pattern = 'x\d"'
min_entropy = 3.5
examples = ["x1\"", { text = "y x2\"", span = [2, 5] }, { text = "z" }]
negative_examples = ["x"]
"#;

    #[test]
    fn a_plain_file_is_written_out() {
        let rows = file_rows(RULE).unwrap();
        assert!(rows.contains("line: 2,"), "{rows}");
        assert!(rows.contains(r#"pattern: Some("x\\d\"")"#), "{rows}");
        assert!(rows.contains("min_entropy: Some(3.5)"), "{rows}");
        assert!(
            rows.contains(r#"ExampleRow::Table("y x2\"", Some([2, 5]))"#),
            "{rows}"
        );
        assert!(rows.contains(r#"ExampleRow::Table("z", None)"#), "{rows}");
        assert_eq!(file_rows("").as_deref(), Some(""));
    }

    /// What the serde types would reject or read differently is left to the run-time parser,
    /// which reports it with its file and line.
    #[test]
    fn anything_unexpected_is_left_to_the_parser() {
        for (from, to) in [
            ("kind = ", "kinds = "),
            ("min_entropy = 3.5", "min_entropy = 4"),
            ("severity = \"block\"", "severity = 1"),
            ("negative_examples = [\"x\"]", "negative_examples = [1]"),
            ("span = [2, 5]", "span = [2, 5, 6]"),
            ("span = [2, 5]", "span = [-2, 5]"),
            ("{ text = \"z\" }", "{ text = \"z\", note = 1 }"),
            ("[[rule]]", "other = 1\n[[rule]]"),
            ("id = \"a.b\"", "id = \"a.b"),
        ] {
            let changed = RULE.replacen(from, to, 1);
            assert_ne!(changed, RULE, "{from}");
            assert_eq!(file_rows(&changed), None, "{to}");
        }
    }
}
