//! Input side: fence + injection scan of a ticket, as a prompt builder calls it on every turn.
//!
//! `cargo bench --bench fence`. Inputs: `benches/fixtures/ticket_*.txt`, cut or repeated to
//! size. Every input's findings are checked before it is timed.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion_group! makes a pub fn

mod common;

use std::hint::black_box;

use common::varied_prose::varied_texts;
use common::{KIB, MIB, TICKET_ASCII, TICKET_UNICODE, quick, sized};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palisade::{Detector, Fence};

fn fence() -> Fence {
    Fence::new("TICKET_BODY")
        .unwrap()
        .with_nonce("5eed0f00d5eed0f0")
        .unwrap()
}

/// A clean ticket: exactly one BEGIN and one END line, the text inside byte for byte, and no
/// finding at all.
fn check_clean(detector: &Detector, text: &str) {
    let out = detector.fence(&fence(), text).unwrap();
    assert!(
        out.findings().is_empty(),
        "a clean ticket gave findings: {:?}",
        out.findings()
    );
    let f = out.fenced();
    assert_eq!(f.lines().filter(|l| l.starts_with("⟦BEGIN")).count(), 1);
    assert_eq!(f.lines().filter(|l| l.starts_with("⟦END")).count(), 1);
    assert!(f.contains(text), "clean text must pass through unchanged");
    assert!(detector.scan(text).unwrap().is_empty());
}

fn benches(c: &mut Criterion) {
    let detector = Detector::new();
    let fence = fence();
    let ascii = sized(TICKET_ASCII, "\n", 2 * KIB);
    let unicode = sized(TICKET_UNICODE, "\n", 2 * KIB);
    let big = sized(TICKET_ASCII, "\n", MIB);
    assert!(ascii.is_ascii() && !unicode.is_ascii());
    let tickets = varied_texts(256, 2 * KIB);
    for text in [&ascii, &unicode, &big].into_iter().chain(&tickets) {
        check_clean(&detector, text);
    }

    let mut g = c.benchmark_group("fence");
    for (name, text) in [("2KiB_ascii", &ascii), ("2KiB_non_ascii", &unicode)] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("fence_and_scan/{name}"), |b| {
            b.iter(|| detector.fence(&fence, black_box(text)).unwrap())
        });
        g.bench_function(format!("scan_only/{name}"), |b| {
            b.iter(|| detector.scan(black_box(text)).unwrap())
        });
    }
    // A different ticket every iteration, as in a batch.
    g.throughput(Throughput::Bytes(2 * KIB as u64));
    let mut next = tickets.iter().cycle();
    g.bench_function("fence_and_scan/2KiB_ascii_varied", |b| {
        b.iter(|| {
            detector
                .fence(&fence, black_box(next.next().unwrap()))
                .unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("fence_throughput");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(big.len() as u64));
    g.bench_function("fence_and_scan/1MiB_ascii", |b| {
        b.iter(|| detector.fence(&fence, black_box(&big)).unwrap())
    });
    g.finish();
}

criterion_group! {
    name = fence_benches;
    config = quick();
    targets = benches
}
criterion_main!(fence_benches);
