//! Review pages: HTML escaping with `askama_escape` beside a hand-written escaper, and the
//! cost of building a draft page and a batch page.
//!
//! `cargo bench --bench html -- --warm-up-time 1 --measurement-time 3`. Figures and the
//! reasoning behind the choice of escaper: `docs/review-pages.md`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion_group! makes a pub fn

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palisade::{BatchReport, Context, Screener};

const PROSE: &str = include_str!("fixtures/prose.txt");
const DRAFT_DIRTY: &str = include_str!("fixtures/draft_dirty.txt");
const TICKET_ID: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

/// The obvious escaper: copy the runs between special bytes, an entity for each special.
fn hand_escape(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(entity);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

fn crate_escape(out: &mut String, s: &str) {
    askama_escape::escape_html(&mut *out, s).unwrap();
}

fn repeat_to(text: &str, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + text.len());
    while s.len() < bytes {
        s.push_str(text);
    }
    s
}

fn escaping(c: &mut Criterion) {
    let inputs = [
        ("prose_64k", repeat_to(PROSE, 64 * 1024)),
        (
            "markup_64k",
            repeat_to(
                "<p class=\"x\">Tom & Jerry's <b>'quote'</b></p> plain words ",
                64 * 1024,
            ),
        ),
    ];
    let mut g = c.benchmark_group("escape");
    for (name, text) in &inputs {
        for (who, f) in [
            ("askama_escape", crate_escape as fn(&mut String, &str)),
            ("hand", hand_escape),
        ] {
            let mut check = String::new();
            f(&mut check, text);
            assert!(!check.contains(['<', '>', '"', '\'']), "{who} left markup");
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_function(format!("{who}/{name}"), |b| {
                let mut out = String::with_capacity(text.len() * 2);
                b.iter(|| {
                    out.clear();
                    f(&mut out, black_box(text));
                    black_box(out.len())
                })
            });
        }
    }
    g.finish();
}

fn pages(c: &mut Criterion) {
    let screener = Screener::new();
    let ctx = Context::new(TICKET_ID).unwrap();
    let report = screener.screen(&ctx, DRAFT_DIRTY).unwrap();
    assert!(report.findings().len() >= 5);
    let page = report.to_html(DRAFT_DIRTY);
    assert_eq!(page.matches(" id=\"f").count(), report.findings().len());
    let mut g = c.benchmark_group("page");
    g.bench_function("draft_dirty", |b| {
        b.iter(|| black_box(report.to_html(black_box(DRAFT_DIRTY))).len())
    });
    g.sample_size(10);
    g.bench_function("batch_1000_dirty_drafts", |b| {
        b.iter(|| {
            let mut batch = BatchReport::new("bench");
            for i in 0..1000 {
                batch.push(&i.to_string(), DRAFT_DIRTY, report.findings());
            }
            black_box(batch.to_html()).len()
        })
    });
    g.finish();
}

criterion_group!(benches, escaping, pages);
criterion_main!(benches);
