//! Rule files carry their own proof: every example runs, bad files give clear errors, and the
//! generated documentation matches the files.

use palisade::{Detector, Kind, Screener};

#[test]
fn every_embedded_example_and_negative_example_passes() {
    let problems = Screener::builder().check_examples().unwrap();
    let listing: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        problems.is_empty(),
        "{} failing examples:\n{}",
        problems.len(),
        listing.join("\n")
    );
}

/// Input-side rules must also fire through the detector (which loads only input-side kinds).
#[test]
fn injection_examples_fire_through_the_detector() {
    let source = include_str!("../../rules/injection.toml");
    let doc: toml::Table = toml::from_str(source).unwrap();
    let detector = Detector::new();
    let mut failures = Vec::new();
    let rules = doc["rule"].as_array().unwrap();
    assert!(rules.len() >= 10, "only {} injection rules", rules.len());
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        for ex in rule["examples"].as_array().unwrap() {
            let text = ex
                .as_str()
                .or_else(|| ex.get("text").and_then(|t| t.as_str()))
                .unwrap();
            let findings = detector.scan(text).unwrap();
            if !findings.iter().any(|f| f.rule() == id) {
                failures.push(format!("{id}: {text:?}"));
            }
        }
        for ex in rule["negative_examples"].as_array().unwrap() {
            let text = ex
                .as_str()
                .or_else(|| ex.get("text").and_then(|t| t.as_str()))
                .unwrap();
            let findings = detector.scan(text).unwrap();
            if findings.iter().any(|f| f.rule() == id) {
                failures.push(format!("{id} (negative): {text:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "cli")]
#[test]
fn docs_rules_md_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_palisade"))
        .args(["rules", "--markdown"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md"))
        .unwrap_or_default();
    assert!(
        generated == committed,
        "docs/rules.md is stale: run `cargo run -- rules --markdown > docs/rules.md`"
    );
}

fn rule(extra: &str) -> String {
    format!(
        "[[rule]]\nid = \"mine.sample-rule\"\nkind = \"promise\"\nseverity = \"notice\"\n\
         description = \"d\"\nrationale = \"r\"\nmessage = \"m\"\n{extra}"
    )
}

fn build_err(source: &str) -> String {
    Screener::builder()
        .rules_toml("mine.toml", source)
        .build()
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_rule_files_name_file_line_and_rule() {
    let ok_examples = "examples = [\"refund now\"]\nnegative_examples = [\"nothing\"]\n";
    let cases = [
        (
            rule(&format!("pattern = '(refund'\n{ok_examples}")),
            "mine.toml:1: rule mine.sample-rule: bad pattern",
        ),
        (
            rule(&format!("pattern = 'refund'\n{ok_examples}"))
                + rule(&format!("pattern = 'refund'\n{ok_examples}")).as_str(),
            "mine.toml:11: rule mine.sample-rule: duplicate id (first defined at mine.toml:1)",
        ),
        (
            rule(&format!(
                "pattern = 'refund'\ncolour = 'red'\n{ok_examples}"
            )),
            "mine.toml:9:1: unknown field `colour`",
        ),
        (
            rule("pattern = 'refund'\nexamples = [\"nope\"]\nnegative_examples = [\"x\"]\n"),
            "mine.toml:1: rule mine.sample-rule: example does not match: \"nope\"",
        ),
        (
            rule(
                "pattern = 'refund'\nexamples = [\"refund\"]\nnegative_examples = [\"a refund\"]\n",
            ),
            "mine.toml:1: rule mine.sample-rule: negative example matches: \"a refund\"",
        ),
        (
            rule("pattern = 'refund'\nexamples = [\"refund\"]\n"),
            "mine.toml:1: rule mine.sample-rule: needs at least one entry in `negative_examples`",
        ),
        (
            rule(&format!("pattern = '{}'\n{ok_examples}", "a".repeat(5000))),
            "mine.toml:1: rule mine.sample-rule: pattern is 5000 bytes, over the limit of 4096 bytes",
        ),
        (
            rule(&format!("pattern = 'a{{1000}}{{1000}}'\n{ok_examples}")),
            "mine.toml:1: rule mine.sample-rule: bad pattern",
        ),
        (
            rule(&format!("check = 'telepathy'\n{ok_examples}")),
            "mine.toml:1: rule mine.sample-rule: unknown check `telepathy` (known: foreign_id, ",
        ),
    ];
    for (source, expected) in cases {
        let err = build_err(&source);
        assert!(
            err.starts_with(expected),
            "got: {err}\nexpected: {expected}"
        );
    }
    let err = build_err("[[rule]]\nid = \"x.y\"\nkind = \"Rumour!\"\nseverity = \"block\"\n");
    assert!(
        err.starts_with("mine.toml:3:8: invalid kind `Rumour!`"),
        "{err}"
    );
    // A duplicate of an embedded rule id is caught too.
    let dup = rule(&format!(
        "pattern = 'refund'\n{}",
        "examples = [\"refund\"]\nnegative_examples = [\"x\"]\n"
    ))
    .replace("mine.sample-rule", "draft.promise");
    let err = build_err(&dup);
    assert!(
        err.contains("duplicate id (first defined at rules/draft.toml:"),
        "{err}"
    );
}

#[test]
fn a_user_rule_adds_findings() {
    let source = rule(
        "pattern = '(?i)\\bfree\\s+upgrade\\b'\nexamples = [\"a free upgrade\"]\nnegative_examples = [\"free shipping\"]\n",
    );
    let screener = Screener::builder()
        .rules_toml("mine.toml", source)
        .build()
        .unwrap();
    let ctx = palisade::Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").unwrap();
    let report = screener.screen(&ctx, "You get a FREE upgrade.").unwrap();
    let f = report
        .findings()
        .iter()
        .find(|f| f.rule() == "mine.sample-rule")
        .unwrap();
    assert_eq!(f.kind(), Kind::Promise);
    assert_eq!(f.span(), 10..22);
}

/// `rules check` and `build` report every problem of a run, each with file, line and rule id,
/// not the first one only.
#[test]
fn every_problem_in_a_run_is_reported() {
    let ok = "examples = [\"refund now\"]\nnegative_examples = [\"nothing\"]\n";
    let source = [
        rule(&format!("pattern = '(refund'\n{ok}")).replace("mine.sample-rule", "mine.bad-pattern"),
        rule(&format!("pattern = 'refund'\n{ok}")).replace("mine.sample-rule", "mine.good"),
        rule(&format!("check = 'telepathy'\n{ok}")).replace("mine.sample-rule", "mine.bad-check"),
        rule(&format!("pattern = 'refund'\n{ok}")).replace("mine.sample-rule", "mine.good"),
        rule("pattern = 'refund'\nexamples = [\"nope\"]\nnegative_examples = [\"x\"]\n")
            .replace("mine.sample-rule", "mine.bad-example"),
    ]
    .concat();
    let problems = Screener::builder()
        .rules_toml("mine.toml", source.clone())
        .disable("no.such-rule")
        .check_rules();
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let expected = [
        "mine.toml:1: rule mine.bad-pattern: bad pattern",
        "mine.toml:21: rule mine.bad-check: unknown check `telepathy`",
        "mine.toml:31: rule mine.good: duplicate id (first defined at mine.toml:11)",
        "unknown rule id no.such-rule in disable",
        "mine.toml:41: rule mine.bad-example: example does not match",
    ];
    assert_eq!(listed.len(), expected.len(), "{listed:#?}");
    for (got, want) in listed.iter().zip(expected) {
        assert!(got.starts_with(want), "got {got}\nwant {want}");
    }
    // `build` fails with all of them, one per line.
    let err = Screener::builder()
        .rules_toml("mine.toml", source)
        .disable("no.such-rule")
        .build()
        .unwrap_err();
    assert!(matches!(err, palisade::Error::RuleProblems { ref problems } if problems.len() == 5));
    let text = err.to_string();
    for want in expected {
        assert!(text.contains(want), "{want} not in {text}");
    }
}

/// A team's own rule declares its own kind; findings carry it by name.
#[test]
fn a_user_rule_declares_its_own_kind() {
    let source = rule(
        "pattern = '(?i)\\bacme\\s+corp\\b'\nexamples = [\"try Acme Corp\"]\nnegative_examples = [\"acme\"]\n",
    )
    .replace("kind = \"promise\"", "kind = \"competitor_mention\"");
    let screener = Screener::builder()
        .rules_toml("mine.toml", source)
        .build()
        .unwrap();
    let ctx = palisade::Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").unwrap();
    let report = screener.screen(&ctx, "Have you tried Acme Corp?").unwrap();
    let f = &report.findings()[0];
    assert_eq!(f.kind().as_str(), "competitor_mention");
    assert_eq!(Some(f.kind()), Kind::parse("competitor_mention"));
    let json = serde_json::to_value(f).unwrap();
    assert_eq!(json["kind"], "competitor_mention");
    // Built-in kinds keep their meaning: a custom kind is not sensitive.
    assert!(!f.kind().is_sensitive());
}

/// `replaces = true` takes the place of an embedded rule of the same id; without it the id
/// clashes, and with it an id nobody had is an error.
#[test]
fn replaces_swaps_an_embedded_rule() {
    let mine = |extra: &str| {
        rule(&format!(
            "{extra}pattern = '(?i)\\bguaranteed\\b'\nexamples = [\"guaranteed\"]\nnegative_examples = [\"maybe\"]\n"
        ))
        .replace("mine.sample-rule", "draft.promise")
    };
    let screener = Screener::builder()
        .rules_toml("mine.toml", mine("replaces = true\n"))
        .build()
        .unwrap();
    let promise: Vec<_> = screener
        .rules()
        .filter(|r| r.id == "draft.promise")
        .collect();
    assert_eq!(promise.len(), 1);
    assert_eq!(promise[0].file, "mine.toml");
    let err = build_err(&mine(""));
    assert!(
        err.contains("duplicate id (first defined at rules/draft.toml:"),
        "{err}"
    );
    let err = build_err(&mine("replaces = true\n").replace("draft.promise", "mine.new-rule"));
    assert!(
        err.contains("`replaces = true` but no earlier rule has this id"),
        "{err}"
    );
}

/// A user's `[[words]]` table extends a check's word list, and carries examples that are run
/// like a rule's; a list the check does not read is an error naming file, line and list.
#[test]
fn word_lists_are_data_a_user_file_extends() {
    let ctx = palisade::Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").unwrap();
    let draft = "Here is the blurb:\nHi Sam, your refund is on its way.";
    let intro = |s: &Screener| {
        s.screen(&ctx, draft)
            .unwrap()
            .findings()
            .iter()
            .any(|f| f.rule() == "draft.intro-line")
    };
    assert!(!intro(&Screener::new()));
    let words = "[[words]]\ncheck = \"intro_line\"\nlist = \"strong\"\nwords = [\"blurb\"]\n\
                 examples = [\"Here is the blurb:\"]\nnegative_examples = [\"The blurb is long.\"]\n";
    let extended = Screener::builder()
        .rules_toml("words.toml", words)
        .build()
        .unwrap();
    assert!(intro(&extended));
    // An example the words do not make the check flag is a problem of that table.
    let failing = words.replace("Here is the blurb:", "Here is the weather.");
    let problems = Screener::builder()
        .rules_toml("words.toml", failing)
        .check_rules();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .to_string()
            .starts_with("words.toml:1: rule words intro_line.strong: example is not flagged"),
        "{}",
        problems[0]
    );
    let unknown = words.replace("list = \"strong\"", "list = \"colours\"");
    let err = Screener::builder()
        .rules_toml("words.toml", unknown)
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("words.toml:1: rule words intro_line.colours: check `intro_line` has no word list `colours`"),
        "{err}"
    );
}

/// A custom kind is 1 to 64 lowercase letters and underscores; a built-in name is the built-in
/// kind; the same name is the same kind.
#[test]
fn custom_kind_names_are_checked() {
    assert_eq!(Kind::parse("email"), Some(Kind::Email));
    assert!(matches!(
        Kind::parse(&"a".repeat(64)),
        Some(Kind::Custom(_))
    ));
    assert_eq!(Kind::parse(&"a".repeat(65)), None);
    for bad in ["", "Upsell", "up-sell", "up sell", "upsell1", "é"] {
        assert_eq!(Kind::parse(bad), None, "{bad:?}");
    }
    assert_eq!(Kind::parse("upsell_offer"), Kind::parse("upsell_offer"));
    assert_ne!(Kind::parse("upsell_offer"), Kind::parse("upsell_offers"));
}

/// The `promise` and `placeholder` checks read their words from `[[words]]` tables too: a rule
/// file on disk (as `--rules` and policy files load it) adding a time word and a placeholder
/// noun makes a draft that was clean get both findings.
#[test]
fn a_user_file_extends_the_promise_and_placeholder_words() {
    let ctx = palisade::Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").unwrap();
    let draft = "We'll ship it asap.\nPlease quote [ticket] when you reply.";
    let found = |s: &Screener| -> Vec<(String, String)> {
        let report = s.screen(&ctx, draft).unwrap();
        report
            .findings()
            .iter()
            .map(|f| (f.rule().to_owned(), draft[f.span()].to_owned()))
            .collect()
    };
    assert_eq!(found(&Screener::new()), Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("our-words.toml");
    std::fs::write(
        &path,
        "# Our own words.\n\n\
         [[words]]\ncheck = \"promise\"\nlist = \"times\"\nwords = [\"asap\"]\n\
         examples = [\"We'll ship it asap.\"]\nnegative_examples = [\"Reply asap if you can.\"]\n\n\
         [[words]]\ncheck = \"placeholder\"\nlist = \"nouns\"\nwords = [\"Ticket\"]\n\
         examples = [\"Please quote [ticket] when you reply.\"]\n\
         negative_examples = [\"Please quote your ticket when you reply.\"]\n",
    )
    .unwrap();
    let extended = Screener::builder().rules_file(&path).build().unwrap();
    assert_eq!(
        found(&extended),
        vec![
            ("draft.promise".to_owned(), "We'll ship it asap".to_owned()),
            ("draft.placeholder".to_owned(), "[ticket]".to_owned()),
        ]
    );
    // The file's examples pass, and the embedded ones still do with it loaded.
    let problems = Screener::builder().rules_file(&path).check_rules();
    assert!(problems.is_empty(), "{problems:?}");
}

/// A `[[words]]` table naming a check without word lists, a list its check does not have, or
/// an empty word is an error naming the file, the table's line and the value.
#[test]
fn bad_word_tables_name_file_line_and_value() {
    let table = |check: &str, list: &str, word: &str| {
        format!(
            "# mine\n\n[[words]]\ncheck = \"{check}\"\nlist = \"{list}\"\nwords = [\"{word}\"]\n\
             examples = [\"We will reply today.\"]\nnegative_examples = [\"Hello.\"]\n"
        )
    };
    let err = |source: String| {
        Screener::builder()
            .rules_toml("mine.toml", source)
            .build()
            .unwrap_err()
            .to_string()
    };
    let unknown_check = err(table("tone", "times", "asap"));
    assert!(
        unknown_check.starts_with(
            "mine.toml:3: rule words tone.times: no check `tone` reads word lists here \
             (`check` may be: "
        ),
        "{unknown_check}"
    );
    for check in ["intro_line", "placeholder", "promise"] {
        assert!(unknown_check.contains(check), "{unknown_check}");
    }
    // A check that exists but reads no lists.
    let no_lists = err(table("email", "times", "asap"));
    assert!(
        no_lists.starts_with("mine.toml:3: rule words email.times: no check `email`"),
        "{no_lists}"
    );
    let unknown_list = err(table("promise", "deadlines", "asap"));
    assert!(
        unknown_list.starts_with(
            "mine.toml:3: rule words promise.deadlines: check `promise` has no word list \
             `deadlines` (`list` may be: guarantees, promises,"
        ),
        "{unknown_list}"
    );
    let empty = err(table("promise", "times", " "));
    assert_eq!(
        empty,
        "mine.toml:3: rule words promise.times: `words` holds an empty word"
    );
}
