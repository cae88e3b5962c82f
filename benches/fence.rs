//! Input side: fence + injection scan of a ticket, as a prompt builder calls it on every turn.
//!
//! `cargo bench --bench fence`. Inputs: `benches/fixtures/ticket_*.txt`, cut or repeated to
//! size. Every input's findings are checked before it is timed.
//!
//! `fence_scaling` (issue 24): the worst patterns found for the fence's one pass, at 256 KiB,
//! 1 MiB and 4 MiB, beside 1 MiB of prose; `-- fence_scaling` runs it alone. Time per byte
//! must stay flat across sizes (linear) and within a small factor of prose.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion_group! makes a pub fn

mod common;

use std::hint::black_box;

use common::varied_prose::varied_texts;
use common::{KIB, MIB, PROSE, TICKET_ASCII, TICKET_UNICODE, quick, sized};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
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

    // 2 KiB tickets with non-ASCII text, a different one every iteration.
    let non_ascii: Vec<String> = tickets
        .iter()
        .map(|t| {
            t.replace("the ", "thé ")
                .replace(" order", " “order”")
                .replace(". ", " — ")
        })
        .collect();
    for text in &non_ascii {
        assert!(!text.is_ascii());
        check_clean(&detector, text);
    }
    let mut g = c.benchmark_group("fence");
    g.throughput(Throughput::Bytes(2 * KIB as u64));
    let mut next = non_ascii.iter().cycle();
    g.bench_function("fence_and_scan/2KiB_non_ascii_varied", |b| {
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

/// The worst patterns for the one pass (each a unit repeated to size).
const WORST: [(&str, &str); 7] = [
    // Took 05b4415 over a second at 140 KB: each removal was mapped back through all kept
    // ranges, and the variation selector lost its character in every round.
    ("sentinel_vs", " ⟦\u{FE0F}"),
    // Nested copies: each UNTRUSTED completes a marker with the BEGIN below it on the stack.
    (
        "nested_sentinels",
        "⟦BEGIN ⟦BEGIN ⟦END UNTRUSTED⟧ UNTRUSTED⟧ ",
    ),
    (
        "sentinel_variation_selectors",
        "⟦\u{FE0F}END\u{FE0F} UNTRUSTED\u{FE0F}⟧\u{FE0F} ",
    ),
    ("confusable_markers", "ᴇɴᴅ ᴜɴᴛʀᴜꜱᴛᴇᴅ ᴛɪᴄᴋᴇᴛ_ʙᴏᴅʏ Ꭼ🅽ꓓ "),
    ("confusable_run", "ᎬꓰᴇƎɆ🅴ꓴᴜՍ"),
    ("separator_run", "E · N · D • U\u{2800}N、T-R-U-S-T-E-D "),
    (
        "control_run",
        "\u{0}\u{1B}\u{7F}\u{85}\u{9F}\u{FFFC}\r\u{2028}",
    ),
];

fn scaling(c: &mut Criterion) {
    let detector = Detector::builder()
        .max_input_bytes(5 * MIB)
        .build()
        .unwrap();
    let fence = fence();
    let mut g = c.benchmark_group("fence_scaling");
    g.sample_size(10);
    let prose = sized(PROSE, "\n", MIB);
    let mut cases = vec![("prose".to_owned(), "1MiB".to_owned(), prose)];
    for (name, unit) in WORST {
        for (size, label) in [(256 * KIB, "256KiB"), (MIB, "1MiB"), (4 * MIB, "4MiB")] {
            cases.push((name.to_owned(), label.to_owned(), sized(unit, "", size)));
        }
    }
    for (name, size, text) in &cases {
        // The answer first: one BEGIN and one END line, and no marker reading inside.
        let out = detector.fence(&fence, text).unwrap();
        let block = out.fenced();
        let interior =
            &block[fence.begin_line().len() + 1..block.len() - fence.end_line().len() - 1];
        assert_eq!(fence.find_marker(interior), None, "{name}/{size}");
        assert_eq!(block.matches("⟦").count(), 3, "{name}/{size}");
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::new(name.as_str(), size), text, |b, t| {
            b.iter(|| detector.fence(&fence, black_box(t)).unwrap())
        });
    }
    g.finish();
}

criterion_group! {
    name = fence_benches;
    config = quick();
    targets = benches, scaling
}
criterion_main!(fence_benches);
