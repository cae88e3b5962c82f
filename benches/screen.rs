//! Output side: building the default screener, screening 1 KiB drafts, and clean-prose
//! throughput, beside two baselines for honest ratios:
//!
//! - `naive`: the same checks as a list of separate `regex::Regex` with default (Unicode)
//!   settings, run one after another, the way a guardrail tutorial writes them (the Rust twin
//!   of `benches/baseline/naive.py`);
//! - `credentials_no_prefilter`: every `pattern` of `rules/credentials.toml` compiled as
//!   Palisade compiles it (`regex::bytes`, `unicode(false)`), run one after another with no
//!   keyword prefilter.
//!
//! `cargo bench --bench screen`. Inputs: `benches/fixtures/{draft_*,prose}.txt`, and for the
//! prose throughput `prose_varied.txt` shuffled (see `common/varied_prose.rs`); one paragraph
//! repeated is measured beside it, as the speed a branch predictor that has learnt the text
//! allows.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr
)] // criterion_group! makes a pub fn

mod common;

use std::hint::black_box;

use common::varied_prose::{varied_prose, varied_texts};
use common::{DRAFT_CLEAN, DRAFT_DIRTY, KIB, MIB, PROSE, TICKET_ID, context, kinds, quick, sized};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palisade::{Kind, Screener};

/// The tutorial checks (see `benches/baseline/naive.py`; look-aheads dropped, which the
/// `regex` crate does not support).
const NAIVE_PATTERNS: &[&str] = &[
    r"(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    r#"(?i)aws_secret_access_key\s*[:=]\s*['"]?[A-Za-z0-9/+=]{40}"#,
    r"gh[pousr]_[A-Za-z0-9]{36}\b",
    r"github_pat_[A-Za-z0-9_]{82}\b",
    r"glpat-[A-Za-z0-9_-]{20}\b",
    r"xox[abposr]-[A-Za-z0-9-]{10,}",
    r"[sr]k_(?:live|test)_[A-Za-z0-9]{24,}\b",
    r"AIza[0-9A-Za-z_-]{35}\b",
    r"sk-(?:proj-)?[A-Za-z0-9_-]{20,}",
    r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----",
    r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    r"(?i)\b(?:password|passwd|pwd)\s*[:=]\s*\S+",
    r"\[(?:[A-Z][\w'’]*\s?)+\]",
    r"(?i)\[(?:insert|your|customer|name|date|amount|company|agent)[^\]\n]*\]",
    r"\{\{\s*[\w.]+\s*\}\}",
    r"\{[a-z_][a-z0-9_.]*\}",
    r"<[A-Z_]{3,}>",
    r"(?i)^\s*(?:(?:sure|certainly|of course|absolutely|okay|great)[^\n]{0,20}?[!,.—-]\s*)?(?:here(?:'s|’s| is)|below is)\b[^\n]*(?:reply|response|draft|email|message|version)[^\n]*:",
    r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}",
    r"(?:\+?\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b",
    r"\b(?:\d[ -]*?){13,19}\b",
    r"\b\d{8,}\b",
    r"(?i)\b(?:guarantee[ds]?|promise[ds]?)\b",
    r"(?i)\bwithin\s+(?:\d+|an?|one|two|three|a few)(?:\s*(?:-|–|to)\s*\d+)?\s+(?:business\s+)?(?:hours?|days?|minutes?|weeks?)\b",
    r"(?i)\b(?:will|'ll|’ll)\s+(?:be\s+)?\w+(?:\s+\w+){0,3}\s+(?:today|immediately|tomorrow)\b",
    r"(?i)\bby tomorrow\b",
    r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
];

struct Naive {
    patterns: Vec<regex::Regex>,
}

impl Naive {
    fn new() -> Self {
        Naive {
            patterns: NAIVE_PATTERNS
                .iter()
                .map(|p| regex::Regex::new(p).unwrap())
                .collect(),
        }
    }

    /// Match count, pattern after pattern, plus the word count the length check needs.
    fn screen(&self, text: &str) -> (usize, usize) {
        let hits = self
            .patterns
            .iter()
            .map(|re| re.find_iter(text).count())
            .sum();
        (hits, text.split_whitespace().count())
    }
}

/// Every credential pattern compiled as the engine compiles it, with no prefilter.
fn credential_patterns() -> Vec<regex::bytes::Regex> {
    let source = include_str!("../rules/credentials.toml");
    let table: toml::Table = toml::from_str(source).unwrap();
    let rules = table
        .get("rule")
        .and_then(|r| r.as_array())
        .cloned()
        .unwrap_or_default();
    rules
        .iter()
        .filter_map(|r| r.get("pattern").and_then(|p| p.as_str()))
        .map(|p| {
            regex::bytes::RegexBuilder::new(p)
                .unicode(false)
                .size_limit(1 << 20)
                .dfa_size_limit(2 << 20)
                .build()
                .unwrap()
        })
        .collect()
}

fn run_all(patterns: &[regex::bytes::Regex], text: &[u8]) -> usize {
    patterns.iter().map(|re| re.find_iter(text).count()).sum()
}

fn benches(c: &mut Criterion) {
    let screener = Screener::new();
    let ctx = context();
    let prose = varied_prose(MIB);
    let drafts = varied_texts(256, KIB);
    for d in &drafts {
        let r = screener.screen(&ctx, d).unwrap();
        assert!(r.findings().is_empty(), "varied draft: {:?}", r.findings());
    }
    // One paragraph repeated: every branch of the scan is learnt by the predictor (for contrast).
    let repeated = sized(PROSE, "\n", MIB);

    // The answers, before any timing.
    let clean = screener.screen(&ctx, DRAFT_CLEAN).unwrap();
    assert!(
        clean.findings().is_empty(),
        "clean draft: {:?}",
        clean.findings()
    );
    let dirty = screener.screen(&ctx, DRAFT_DIRTY).unwrap();
    let mut found = kinds(dirty.findings());
    found.sort();
    let mut planted = vec![
        Kind::Credential,
        Kind::ForeignId,
        Kind::Placeholder,
        Kind::IntroLine,
        Kind::Email,
        Kind::LongNumber,
        Kind::Promise,
    ];
    planted.sort();
    assert_eq!(found, planted, "dirty draft: {:?}", dirty.findings());
    assert!(dirty.is_blocked());
    // Exactly 1 MiB: the default input limit.
    let on_prose = screener.screen(&ctx, &prose).unwrap();
    assert!(
        on_prose.findings().is_empty(),
        "clean prose: {:?}",
        on_prose.findings()
    );
    let naive = Naive::new();
    assert_eq!(naive.screen(DRAFT_CLEAN).0, 0);
    assert!(naive.screen(DRAFT_DIRTY).0 >= 7);
    assert_eq!(naive.screen(&prose).0, 0, "naive baseline on clean prose");
    let creds = credential_patterns();
    assert!(
        creds.len() >= 80,
        "{} credential patterns in rules/credentials.toml",
        creds.len()
    );
    let cred_hits = run_all(&creds, prose.as_bytes());
    let credentials_only = Screener::builder()
        .without_defaults()
        .rules_toml(
            "rules/credentials.toml",
            include_str!("../rules/credentials.toml"),
        )
        .build()
        .unwrap();
    let cred_findings = credentials_only.screen(&ctx, &prose).unwrap();
    assert!(cred_findings.findings().is_empty());
    // Raw pattern matches on prose are ones the engine's filters drop (placeholders, entropy).
    eprintln!(
        "{} credential patterns; {cred_hits} raw matches on 1 MiB of clean prose",
        creds.len()
    );

    // The plain reference prefilter, for what the fast one saves: same answers first.
    let reference = Screener::builder()
        .prefilter(palisade::PrefilterKind::Reference)
        .build()
        .unwrap();
    assert_eq!(
        reference.screen(&ctx, DRAFT_DIRTY).unwrap().findings(),
        dirty.findings()
    );
    assert!(
        reference
            .screen(&ctx, &prose)
            .unwrap()
            .findings()
            .is_empty()
    );

    let mut g = c.benchmark_group("screen_build");
    g.sample_size(10);
    g.bench_function("default_screener", |b| {
        b.iter(|| Screener::builder().build().unwrap())
    });
    g.bench_function("reference_prefilter_screener", |b| {
        b.iter(|| {
            Screener::builder()
                .prefilter(palisade::PrefilterKind::Reference)
                .build()
                .unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("screen_draft");
    for (name, draft) in [("1KiB_clean", DRAFT_CLEAN), ("1KiB_findings", DRAFT_DIRTY)] {
        g.throughput(Throughput::Bytes(draft.len() as u64));
        g.bench_function(format!("palisade/{name}"), |b| {
            b.iter(|| screener.screen(&ctx, black_box(draft)).unwrap())
        });
        g.bench_function(format!("naive_regex_list/{name}"), |b| {
            b.iter(|| naive.screen(black_box(draft)))
        });
    }
    // A different clean draft every iteration, as in a batch.
    g.throughput(Throughput::Bytes(KIB as u64));
    let mut next = drafts.iter().cycle();
    g.bench_function("palisade/1KiB_clean_varied", |b| {
        b.iter(|| {
            screener
                .screen(&ctx, black_box(next.next().unwrap()))
                .unwrap()
        })
    });
    let mut next = drafts.iter().cycle();
    g.bench_function("palisade_reference_prefilter/1KiB_clean_varied", |b| {
        b.iter(|| {
            reference
                .screen(&ctx, black_box(next.next().unwrap()))
                .unwrap()
        })
    });
    let mut next = drafts.iter().cycle();
    g.bench_function("naive_regex_list/1KiB_clean_varied", |b| {
        b.iter(|| naive.screen(black_box(next.next().unwrap())))
    });
    g.finish();

    // The per-draft context the CLI builds for every JSONL line.
    let mut g = c.benchmark_group("context");
    g.bench_function("new", |b| {
        b.iter(|| palisade::Context::new(black_box(TICKET_ID)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("screen_prose");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(prose.len() as u64));
    g.bench_function("palisade/all_default_rules_1MiB", |b| {
        b.iter(|| screener.screen(&ctx, black_box(&prose)).unwrap())
    });
    g.bench_function("palisade_reference_prefilter/all_default_rules_1MiB", |b| {
        b.iter(|| reference.screen(&ctx, black_box(&prose)).unwrap())
    });
    g.bench_function(
        "palisade/all_default_rules_1MiB_one_paragraph_repeated",
        |b| b.iter(|| screener.screen(&ctx, black_box(&repeated)).unwrap()),
    );
    g.bench_function("palisade/credential_rules_only_1MiB", |b| {
        b.iter(|| credentials_only.screen(&ctx, black_box(&prose)).unwrap())
    });
    g.bench_function("credentials_no_prefilter_1MiB", |b| {
        b.iter(|| run_all(&creds, black_box(prose.as_bytes())))
    });
    g.bench_function("naive_regex_list_1MiB", |b| {
        b.iter(|| naive.screen(black_box(&prose)))
    });
    g.finish();
}

criterion_group! {
    name = screen_benches;
    config = quick();
    targets = benches
}
criterion_main!(screen_benches);
