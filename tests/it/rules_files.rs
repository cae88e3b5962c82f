//! Rule files carry their own proof: every example runs, bad files give clear errors, and the
//! generated documentation matches the files.

use std::process::Command;

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
    let out = Command::new(env!("CARGO_BIN_EXE_palisade"))
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
                + &rule(&format!("pattern = 'refund'\n{ok_examples}")),
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
    let err = build_err("[[rule]]\nid = \"x.y\"\nkind = \"rumour\"\nseverity = \"block\"\n");
    assert!(
        err.starts_with("mine.toml:3:8: unknown variant `rumour`"),
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
