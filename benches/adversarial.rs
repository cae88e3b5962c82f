//! Hostile inputs at 1, 4 and 16 MiB: time per MiB should stay flat (linear cost).
//!
//! Cases (each built from a small fixture in `benches/fixtures/`, repeated to size):
//! repeated fence-marker fragments (fullwidth, small capitals, look-alikes, zero-width split,
//! nested copies), one line with no line break, UUIDs (about 113,000 at 4 MiB), deeply nested
//! brackets, a run of `@` signs (a million at 1 MiB), long digit runs, one long base64 run.
//! Each is screened (all default rules) and fenced (cleaning + injection rules). The input
//! limit is lifted with `max_input_bytes`.
//!
//! `cargo bench --bench adversarial`; `-- screen/uuids` and the like pick one case.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion_group! makes a pub fn

mod common;

use std::hint::black_box;

use common::{
    AT_SIGNS, BASE64, BRACKETS, DIGITS, MARKER_FRAGMENTS, MIB, PROSE, UUIDS, assert_spans, context,
    kinds, sized, slow, whole_copies,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use palisade::{Context, Detector, Fence, Kind, Screener};

const SIZES_MIB: [usize; 3] = [1, 4, 16];

/// `size` bytes of brackets nested `size / 2` deep: all the openers, then all the closers.
fn nested_brackets(size: usize) -> String {
    let mut lines = BRACKETS.lines();
    let (open, close) = (lines.next().unwrap(), lines.next().unwrap());
    let half = size / 2;
    let mut out = sized(open, "", half);
    out.push('x');
    out.push_str(&sized(close, "", size - half - 1));
    out
}

fn inputs(size: usize) -> Vec<(&'static str, String)> {
    vec![
        ("marker_fragments", sized(MARKER_FRAGMENTS, "", size)),
        ("single_line", sized(&PROSE.replace('\n', " "), " ", size)),
        ("uuids", whole_copies(UUIDS, size).0),
        ("nested_brackets", nested_brackets(size)),
        ("at_signs", sized(AT_SIGNS, "", size)),
        ("digit_runs", sized(DIGITS, "", size)),
        ("base64_run", sized(BASE64, "", size)),
    ]
}

/// What each case must give, checked once per size before timing.
fn check(name: &str, text: &str, screener: &Screener, detector: &Detector, ctx: &Context) {
    let report = screener.screen(ctx, text).unwrap();
    let findings = report.findings();
    assert_spans(text, findings);
    let found = kinds(findings);
    match name {
        "marker_fragments" => assert!(found.contains(&Kind::FenceMarker), "{found:?}"),
        "single_line" => assert!(findings.is_empty(), "{:?}", &findings[..1]),
        "uuids" => {
            let n = text.lines().count();
            let ids = findings
                .iter()
                .filter(|f| f.kind() == Kind::ForeignId)
                .count();
            assert_eq!(ids, n, "every UUID is foreign");
        }
        "at_signs" => assert!(!found.contains(&Kind::Email), "{found:?}"),
        "digit_runs" => assert!(found.contains(&Kind::LongNumber), "{found:?}"),
        "base64_run" => assert!(!found.contains(&Kind::Credential), "{found:?}"),
        _ => {}
    }
    let fence = Fence::new("TICKET_BODY")
        .unwrap()
        .with_nonce("5eed0f00d5eed0f0")
        .unwrap();
    let out = detector.fence(&fence, text).unwrap();
    assert_spans(text, out.findings());
    let fenced = out.fenced();
    let begin = fence.begin_line();
    let end = fence.end_line();
    assert!(fenced.starts_with(&begin) && fenced.ends_with(&format!("{end}\n")));
    let inner = &fenced[begin.len()..fenced.len() - end.len() - 1];
    assert!(!inner.contains(['⟦', '⟧', '〚', '〛']));
    // The fence contract (issue 24): no passage inside reads as a marker.
    assert_eq!(
        fence.find_marker(inner),
        None,
        "a marker survived in {name}"
    );
}

fn benches(c: &mut Criterion) {
    let limit = 17 * MIB;
    let screener = Screener::builder().max_input_bytes(limit).build().unwrap();
    let detector = Detector::builder().max_input_bytes(limit).build().unwrap();
    let ctx = context();

    let mut screen = c.benchmark_group("screen");
    for mib in SIZES_MIB {
        for (name, text) in inputs(mib * MIB) {
            check(name, &text, &screener, &detector, &ctx);
            screen.throughput(Throughput::Bytes(text.len() as u64));
            screen.bench_with_input(
                BenchmarkId::new(name, format!("{mib}MiB")),
                &text,
                |b, t| b.iter(|| screener.screen(&ctx, black_box(t)).unwrap()),
            );
        }
    }
    screen.finish();

    let fence = Fence::new("TICKET_BODY").unwrap();
    let mut g = c.benchmark_group("fence");
    for mib in SIZES_MIB {
        for (name, text) in inputs(mib * MIB) {
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_with_input(
                BenchmarkId::new(name, format!("{mib}MiB")),
                &text,
                |b, t| b.iter(|| detector.fence(&fence, black_box(t)).unwrap()),
            );
        }
    }
    g.finish();
}

criterion_group! {
    name = adversarial;
    config = slow();
    targets = benches
}
criterion_main!(adversarial);
