//! The engine's tests: precomputed tables, anchored confirmation against whole-text search,
//! and the prefilter's shortcuts. They load the embedded rule files with checks that report
//! nothing (`testkit::stub_checks`); the screener runs the same harness with its checks.

use super::anchor::{self, literal_anchor, parse_hir};
use super::builtin;
use super::compile::*;
use super::emit::*;
use super::load::*;
use super::nfa_code;
use super::scan::*;
use super::testkit::{
    confirmation_matches_on_mixed_examples, confirmation_matches_whole_text_search, embedded_set,
    example_texts, no_finding_lost_without_a_long_run, picker, stub_checks,
};
use super::*;
use crate::finding::Finding;
use crate::normalize::Normalized;

/// A rule file's rules, compiled with `checks`; panics on any problem.
fn load_ok(file: &str, source: &str, limits: &PatternLimits, checks: &Checks) -> Vec<CompiledRule> {
    let mut problems = Vec::new();
    let rules = load_file(file, source, limits, checks, |_| true, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    rules
}

/// `(file, pattern)` of every embedded rule with a pattern, read from the TOML.
fn embedded_patterns() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (file, source) in BUILTIN_RULE_FILES {
        let table: toml::Table = toml::from_str(source).unwrap();
        for rule in table
            .get("rule")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
        {
            if let Some(p) = rule.get("pattern").and_then(|p| p.as_str()) {
                out.push((*file, p.to_owned()));
            }
        }
    }
    out
}

/// The rule tables build.rs writes out for each embedded file are what parsing its TOML
/// gives, lines included; and no embedded file is left to the parser at start-up.
#[test]
fn precomputed_specs_match_the_toml() {
    for (file, source) in BUILTIN_RULE_FILES {
        let parsed = parse_file(file, source).unwrap();
        let written = builtin::builtin_specs(file)
            .unwrap_or_else(|| panic!("build.rs left {file} to the run-time parser"));
        assert_eq!(written.len(), parsed.len(), "{file}");
        for ((wl, w), (pl, p)) in written.iter().zip(&parsed) {
            assert_eq!(wl, pl, "{file}: {}", p.id);
            assert_eq!(format!("{w:?}"), format!("{p:?}"), "{file}: {}", p.id);
        }
    }
}

/// The word lists build.rs writes out are what parsing the TOML gives, lines included.
#[test]
fn precomputed_word_lists_match_the_toml() {
    for file in builtin::BUILTIN_WORD_FILES {
        let (_, source) = BUILTIN_RULE_FILES.iter().find(|(f, _)| f == file).unwrap();
        let parsed = parse_file_with_words(file, source).unwrap().1;
        let written = builtin::builtin_word_lists(file)
            .unwrap_or_else(|| panic!("build.rs left {file} to the run-time parser"));
        assert!(written.len() >= 7, "{file}");
        assert_eq!(format!("{written:?}"), format!("{parsed:?}"), "{file}");
    }
}

/// Every embedded pattern's DFA is built from the NFA build.rs wrote out: it must read back
/// as the NFA compiled from the pattern with the settings the DFA builder uses (states,
/// starts, byte classes, assertions, size), so the DFA is the same either way. Other
/// patterns have none.
#[test]
fn written_out_nfas_equal_the_compiled_ones() {
    assert_eq!(
        PatternLimits::default().compiled_size,
        nfa_code::WRITTEN_SIZE_LIMIT
    );
    let patterns = embedded_patterns();
    for (file, p) in &patterns {
        let compiled = nfa_code::compile(p, nfa_code::WRITTEN_SIZE_LIMIT).unwrap();
        let written = builtin_nfa(p).unwrap_or_else(|| panic!("{file}: no NFA for {p}"));
        assert_eq!(
            format!("{written:?}"),
            format!("{compiled:?}"),
            "{file}: {p}"
        );
        assert_eq!(
            format!("{:?}", written.byte_classes()),
            format!("{:?}", compiled.byte_classes()),
            "{p}"
        );
        assert_eq!(written.look_set_any(), compiled.look_set_any(), "{p}");
        assert_eq!(written.has_empty(), compiled.has_empty(), "{p}");
        assert_eq!(written.memory_usage(), compiled.memory_usage(), "{p}");
        assert_eq!(
            written.is_always_start_anchored(),
            compiled.is_always_start_anchored(),
            "{p}"
        );
    }
    assert!(patterns.len() > 150, "{}", patterns.len());
    assert!(builtin_nfa(r"\bnot-an-embedded-pattern\b").is_none());
}

/// The table build.rs writes holds what the library computes for each embedded pattern
/// (the runs with build.rs's own copy of the encoding bytes).
#[test]
fn precomputed_anchors_match() {
    for (file, p) in embedded_patterns() {
        let hir = parse_hir(&p).unwrap();
        let computed = (literal_anchor(&hir), token_run::required_run(&hir));
        assert_eq!(precomputed_anchor(&p), Some(computed), "{file}: {p}");
    }
}

#[test]
fn ids_follow_the_convention() {
    assert!(valid_id("credential.github-classic-token"));
    assert!(valid_id("draft.email-address"));
    assert!(!valid_id("Credential.x"));
    assert!(!valid_id("nodot"));
    assert!(!valid_id("a.b--c"));
    assert!(!valid_id("a.-b"));
}

#[test]
fn line_and_column() {
    let s = "a\nbc\nd";
    assert_eq!(line_col(s, 0), (1, 1));
    assert_eq!(line_col(s, 3), (2, 2));
    assert_eq!(line_col(s, 5), (3, 1));
}

/// Every embedded pattern compiles (they are compiled lazily in a running screener).
#[test]
fn every_builtin_pattern_compiles() {
    let limits = PatternLimits::default();
    for (file, source) in BUILTIN_RULE_FILES {
        for rule in load_ok(file, source, &limits, &stub_checks()) {
            if let Some(p) = &rule.pattern {
                assert!(p.get().is_some(), "{}", rule.info.id);
                assert!(p.dfa().is_some() || p.anchor.is_none(), "{}", rule.info.id);
            }
        }
    }
}

/// No embedded pattern searches every text: those without an anchor literal are long runs
/// of token bytes, which clean prose does not have, or match only at the start of the text
/// (the regex then tries that one position).
#[test]
fn unanchored_embedded_patterns_need_a_long_run() {
    let set = embedded_set(&stub_checks());
    let unanchored: Vec<&CompiledRule> = set
        .always_unanchored
        .iter()
        .map(|&i| &set.rules[i as usize])
        .filter(|r| r.pattern.is_some())
        .collect();
    assert!(
        unanchored.len() >= 3,
        "the embedded set has unanchored patterns"
    );
    let at_text_start = |p: &Pattern| {
        parse_hir(&p.source)
            .and_then(|h| start::start_condition(&h))
            .is_some_and(|c| c.looks == start::AT_TEXT_START && c.bytes.is_empty())
    };
    for r in unanchored {
        assert!(
            r.pattern
                .as_ref()
                .is_some_and(|p| p.long_run || at_text_start(p)),
            "{} searches every text",
            r.info.id
        );
    }
    let prose = include_str!("../../benches/fixtures/prose_varied.txt");
    assert_eq!(crate::decode::first_long_run(prose.as_bytes()), None);
}

/// The one-pass engine (prefilter, anchored confirmation at literal occurrences) gives
/// exactly the findings of running each keyword-selected rule's regex over the whole view.
#[test]
fn anchored_confirmation_matches_whole_text_search() {
    let seen = confirmation_matches_whole_text_search(&embedded_set(&stub_checks()), None);
    assert!(seen > 1000, "{seen} findings");
}

/// A text built so every confirmation runs to the end of one long line spends the budget;
/// the rest of the text is then searched by the regex, with the same findings.
#[test]
fn long_confirmations_fall_back_to_the_regex() {
    let toml = r#"
[[rule]]
id = "test.long-tail"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '(?i)\bfoo\b[^\n]*\bzzz\b'
examples = ["foo then zzz"]
negative_examples = ["foo alone"]
"#;
    let limits = PatternLimits::default();
    let set = RuleSet::new(load_ok("t.toml", toml, &limits, &Checks::default())).unwrap();
    let rule = &set.rules()[0];
    assert!(rule.pattern.as_ref().unwrap().anchor.is_some());
    for tail in ["", " zzz", " zzz\nfoo zzz"] {
        let text = format!("{}{tail}", "foo ".repeat(20_000));
        let view = Normalized::new(&text);
        let mut fast = Vec::new();
        set.scan(&view, None, &|_| true, &mut fast);
        let mut slow = Vec::new();
        run_rule(rule, &view, None, &mut slow);
        let spans = |v: &[Finding]| v.iter().map(Finding::span).collect::<Vec<_>>();
        assert_eq!(spans(&fast), spans(&slow), "tail {tail:?}");
    }
}

/// A literal that a rule needing a long run shares with one that does not stays in the
/// prefilter for texts without a long run, and only there do the long-run rules' own
/// literals go.
#[test]
fn literals_shared_with_a_rule_that_needs_no_long_run_stay() {
    let toml = r#"
[[rule]]
id = "test.long-token"
kind = "credential"
severity = "block"
description = "d"
rationale = "r"
message = "m"
pattern = '\b(?:zqxwa|vvkqp)[a-z0-9]{30}'
examples = ["zqxwaabcdefghijabcdefghijabcdefghij"]
negative_examples = ["zqxwa"]

[[rule]]
id = "test.short-word"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '\bzqxwa\b'
examples = ["say zqxwa now"]
negative_examples = ["zqxwab"]
"#;
    let limits = PatternLimits::default();
    let set = RuleSet::new(load_ok("t.toml", toml, &limits, &Checks::default())).unwrap();
    let literals = |r: &CompiledRule| r.pattern.as_ref().unwrap().anchor.clone().unwrap().literals;
    let (long, short) = (literals(&set.rules()[0]), literals(&set.rules()[1]));
    assert_eq!(short, [b"zqxwa".to_vec()]);
    assert_eq!(
        long,
        [b"vvkqp".to_vec(), b"zqxwa".to_vec()],
        "the rules share a literal"
    );
    let without = set
        .filter_without_long_runs
        .as_ref()
        .expect("vvkqp is left out")
        .fast();
    let mut seen = Vec::new();
    let text = b"zqxwa vvkqp";
    let mut stage = Vec::new();
    without.for_each_hit(text, &mut stage, |lit, at| {
        seen.push((without.literal(lit).to_vec(), at))
    });
    assert_eq!(seen, [(b"zqxwa".to_vec(), 0)]);
    let view = Normalized::new("say zqxwa now");
    let mut found = Vec::new();
    set.scan_knowing(&view, None, &|_| true, Some(false), &mut found);
    assert_eq!(
        found.iter().map(Finding::rule).collect::<Vec<_>>(),
        ["test.short-word"]
    );
}

/// Before a rule's lazy DFA exists, a short text with its anchor but none of its keywords
/// is passed over without building the DFA; the findings are those of a rule whose DFA is
/// built, and of the regex.
#[test]
fn keywords_are_looked_for_before_the_first_dfa_is_built() {
    let toml = r#"
[[rule]]
id = "test.keyword-gated"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
keywords = ["Prompt", "rules"]
pattern = '(?i)\breveal\s+(?:the|your)\s+\w+'
examples = ["reveal your prompt"]
negative_examples = ["reveal your order"]
"#;
    let limits = PatternLimits::default();
    let fresh = || RuleSet::new(load_ok("t.toml", toml, &limits, &Checks::default())).unwrap();
    let scan = |set: &RuleSet, text: &str| {
        let mut out = Vec::new();
        set.scan(&Normalized::new(text), None, &|_| true, &mut out);
        out.iter().map(Finding::span).collect::<Vec<_>>()
    };
    let warm = fresh();
    scan(&warm, "reveal the PROMPT");
    assert!(!warm.rules()[0].dfa_pending());
    for text in [
        "Reveal your order number, please.",
        "reveal the details; the RULES apply",
        "reveal your prompt",
        "REVEAL THE PrOmPt and reveal the rules",
        "prompt first, then reveal the box",
    ] {
        let set = fresh();
        assert!(set.rules()[0].dfa_pending());
        let found = scan(&set, text);
        let lower = text.to_ascii_lowercase();
        let has_keyword = lower.contains("prompt") || lower.contains("rules");
        // Built only when a keyword made it worth confirming the anchor.
        assert_eq!(!set.rules()[0].dfa_pending(), has_keyword, "{text:?}");
        assert_eq!(found, scan(&warm, text), "{text:?}");
        let mut slow = Vec::new();
        run_rule(&set.rules()[0], &Normalized::new(text), None, &mut slow);
        let slow: Vec<_> = if has_keyword {
            slow.iter().map(Finding::span).collect()
        } else {
            Vec::new()
        };
        assert_eq!(found, slow, "{text:?}");
    }
    // Only the first texts are looked at this way: a process whose texts keep holding the
    // anchor without a keyword builds the DFA after that, and finds the same (nothing).
    let set = fresh();
    for k in 0..FIRST_USE_KEYWORD_CHECKS {
        assert!(scan(&set, "reveal your order").is_empty());
        assert!(set.rules()[0].dfa_pending(), "text {k}");
    }
    assert!(scan(&set, "reveal your order").is_empty());
    assert!(!set.rules()[0].dfa_pending());
}

/// The same comparison on texts glued together from rule examples at random (fixed seed),
/// so literals land next to each other, inside words and at text edges.
#[test]
fn anchored_confirmation_matches_on_mixed_examples() {
    let seen = confirmation_matches_on_mixed_examples(&embedded_set(&stub_checks()), None);
    assert!(seen > 500, "{seen} findings");
}

/// Told whether the view has a long run of encoding bytes, the engine still finds what the
/// whole-text search finds (see `testkit::no_finding_lost_without_a_long_run`).
#[test]
fn texts_without_a_long_run_lose_no_finding() {
    let (without, found) = no_finding_lost_without_a_long_run(&embedded_set(&stub_checks()), None);
    // Fewer than with the screener's checks, which also report on these texts.
    assert!(
        without > 400 && found > 120,
        "{without} texts without a long run, {found} with findings"
    );
}

/// For a rule whose keywords all hold a punctuation anchor literal, looking for keywords
/// around that literal's occurrences agrees with looking in the whole text.
#[test]
fn keywords_near_anchor_hits_are_all_keywords() {
    let set = embedded_set(&stub_checks());
    let pieces: Vec<&str> = example_texts(&set)
        .into_iter()
        .chain([
            "password", "token", " = ", ":", "x", "secret", "api_key", "\"", "'",
        ])
        .collect();
    let mut next = picker(0x1234_5678_9ABC_DEF1u64);
    let mut checked = 0;
    let (mut near, mut far) = (0, 0);
    for (i, rule) in set.rules().iter().enumerate() {
        let Some(reach) = set.keyword_reach[i] else {
            continue;
        };
        checked += 1;
        let anchor = rule
            .pattern
            .as_ref()
            .and_then(|p| p.anchor.as_ref())
            .unwrap();
        for _ in 0..400 {
            let mut text = String::new();
            for _ in 0..1 + next(6) {
                text.push_str(pieces[next(pieces.len())]);
                text.push_str([" ", "", "\n", "=", ":"][next(5)]);
            }
            let hay = text.as_bytes();
            let hits: Vec<usize> = (0..hay.len())
                .filter(|&at| {
                    anchor.literals.iter().any(|l| {
                        hay.get(at..at + l.len())
                            .is_some_and(|w| w.eq_ignore_ascii_case(l))
                    })
                })
                .collect();
            let whole = rule.keywords_occur(hay, None);
            assert_eq!(
                rule.keyword_near(hay, &hits, reach),
                whole,
                "{} on {text:?}",
                rule.info.id
            );
            if whole { near += 1 } else { far += 1 }
        }
    }
    assert!(checked >= 2, "{checked}");
    assert!(near > 50 && far > 50, "{near} {far}");
}

/// Matches of patterns without a `secret` group are reported from the DFA's span without
/// compiling the regex; the shortcut must agree with the compiled pattern's groups.
#[test]
fn secret_group_detection_agrees_with_the_regex() {
    let set = embedded_set(&stub_checks());
    let mut with_group = 0;
    for r in set.rules() {
        let Some(p) = &r.pattern else { continue };
        let compiled = compile_pattern(&p.source, &p.limits).unwrap();
        assert_eq!(p.secret, compiled.secret_group.is_some(), "{}", r.info.id);
        with_group += usize::from(p.secret);
    }
    assert!(with_group > 50, "{with_group} rules with a secret group");
}

#[test]
fn anchors_cover_case_and_leading_context() {
    let anchor = |p: &str| literal_anchor(&parse_hir(p).unwrap());
    // Case folds away; whitespace in a view is one space or newline, so literals go on
    // past `\s+`, up to eight bytes, with the newline written as a space (the prefilter
    // takes one for the other).
    let a = anchor(r"(?i)\b(?:ignore|disregard)\s+previous").unwrap();
    assert_eq!(a.max_offset, 0);
    let lits = |v: &[&str]| v.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
    assert_eq!(a.literals, lits(&["disregar", "ignore p"]));
    // Leading context of bounded length: the literal may start a few bytes in.
    let a = anchor(r"(?:^|\n)[^\w\n]{0,3}(?:Human|Assistant)\s*:").unwrap();
    assert_eq!(a.max_offset, 4);
    assert_eq!(a.literals, lits(&["assistan", "human :", "human:"]));
    // A match may start only with `x` or `y`: confirmations skip other starts.
    let a = anchor(r"[xy][a-z]{0,3}\.secret").unwrap();
    assert_eq!(a.max_offset, 4);
    assert_eq!(a.first_bytes.as_deref(), Some(&b"xy"[..]));
    // Many literals sharing four bytes collapse to their common prefix.
    let a = anchor(r"key-[0-9a-f]{32}").unwrap();
    assert_eq!(a.literals, lits(&["key-"]));
    // Single letters are everywhere; single digits are rare enough in prose.
    assert_eq!(anchor(r"[a-z]+"), None);
    assert_eq!(anchor(r"[0-9]+").map(|a| a.literals.len()), Some(10));
    assert_eq!(anchor(r"\w+@\w+"), None);
}

/// Which anchors are needed only at word starts, and what stands in for those that are not.
#[test]
fn word_start_anchors() {
    // A pattern that matches only at the start of the text needs no literal at all.
    assert_eq!(literal_anchor(&parse_hir(r"^ignore").unwrap()), None);
    let anchor = |p: &str| literal_anchor(&parse_hir(p).unwrap()).unwrap();
    let lits = |v: &[&str]| v.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
    // `\b`, `^`, a required separator or `_` in front: a word start.
    for p in [
        r"(?i)\bignore",
        r"(?m)^ignore",
        r"[ ,]ignore",
        r"(?:\b|_)ignore",
        r"\s+ignore",
        r"(?:\bfoo-|\b)ignore",
    ] {
        assert!(anchor(p).word_start, "{p}");
    }
    // Nothing, an optional separator or a letter in front: anywhere.
    for p in [r"ignore", r"[ ,]?ignore", r"[a-z_]ignore", r"\Bignore"] {
        assert!(!anchor(p).word_start, "{p}");
    }
    // A literal with punctuation inside may begin anywhere; the prefilter looks for it
    // from there (see `prefilter.rs`).
    let a = anchor(r"[a-z]{3}[0-9]Q~");
    assert!(!a.word_start);
    assert!(
        a.literals
            .iter()
            .all(|l| anchor::probe_offset(l) == Some(2))
    );
    // Alternatives: one found anywhere is looked for from its probe offset, so the whole
    // set stays at word starts.
    let a = anchor(r"\bfoobar|xx\.yyy");
    assert!(a.word_start);
    assert_eq!(a.literals, lits(&[".yyy", "foobar"]));
    // A leading space is dropped: what follows it starts a word.
    let a = anchor(r"[:,] (?:ignore|forget)");
    assert!(a.word_start);
}

#[test]
fn masked_preview_hides_short_values() {
    assert_eq!(masked_preview(b"hunter22"), "8 chars");
    assert_eq!(masked_preview(b"ghp_abcdefghijklmnop"), "ghp_… 20 chars");
}

/// Rules that open with `\b`, a line start or the text start are confirmed only where that
/// holds (`start.rs`); on texts dense with their literals, at word edges, line starts and
/// inside words, the engine still reports exactly what the regex's own search reports.
#[test]
fn start_conditions_lose_no_match() {
    let toml = r#"
[[rule]]
id = "test.word"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '''(?i)\b(?:you(?:'ll|\s+will)|'ll)\s+be\s+(?:sent|paid)'''
examples = ["you will be paid"]
negative_examples = ["bayou will be paid"]

[[rule]]
id = "test.line"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '''(?im:^)(?:feel\s+free|let\s+me\s+know)\s+to\s+edit'''
examples = ["hi\nfeel free to edit"]
negative_examples = ["hi, feel free to edit"]

[[rule]]
id = "test.line-or-newline"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '''(?i)(?:^|\n)[ \t]*(?:dear|hello)\s+(?:sir|team)'''
examples = ["x\nhello team"]
negative_examples = ["x hello team"]

[[rule]]
id = "test.text-start"
kind = "injection"
severity = "notice"
description = "d"
rationale = "r"
message = "m"
pattern = '''(?i)^\s*(?:okay|sure)?[,!]?\s*here\s+you\s+go\s*:'''
examples = ["Sure, here you go:"]
negative_examples = ["x\nhere you go:"]
"#;
    let limits = PatternLimits::default();
    let set = RuleSet::new(load_ok("t.toml", toml, &limits, &Checks::default())).unwrap();
    let looks: Vec<u8> = set
        .rules()
        .iter()
        .map(|r| r.pattern.as_ref().unwrap().start_looks)
        .collect();
    assert_eq!(
        looks[..3],
        [
            start::AT_WORD_BOUNDARY,
            start::AT_LINE_START,
            start::AT_TEXT_START
        ]
    );
    // Tried once, at the start of the text: no literal in the prefilter.
    assert!(set.rules()[3].pattern.as_ref().unwrap().anchor.is_none());
    let pieces = [
        "you will be paid",
        "you'll be sent",
        "'ll be paid",
        "bayou will be paid",
        "x'll be sent",
        "feel free to edit",
        "let me know to edit",
        "hello team",
        "dear sir",
        "here you go:",
        "Sure, ",
        "okay! ",
        " ",
        "\n",
        "\n\t",
        "_",
        "a",
        ".",
        "é",
    ];
    let mut next = picker(0x05EE_D0F5_7A27_u64);
    let mut found = 0;
    for _ in 0..3000 {
        let n = 1 + next(12);
        let text: String = (0..n).map(|_| pieces[next(pieces.len())]).collect();
        let view = Normalized::new(&text);
        let mut fast = Vec::new();
        set.scan(&view, None, &|_| true, &mut fast);
        let mut slow = Vec::new();
        for rule in set.rules() {
            run_rule(rule, &view, None, &mut slow);
        }
        let key = |v: &[Finding]| {
            let mut k: Vec<_> = v
                .iter()
                .map(|f| (f.rule().to_owned(), f.span().start, f.span().end))
                .collect();
            k.sort();
            k
        };
        assert_eq!(key(&fast), key(&slow), "{text:?}");
        found += fast.len();
    }
    assert!(found > 1000, "{found} findings");
}
