//! The tool-call gate: decisions per second.
//!
//! - `evaluate`: the decision without a ledger (schema, money, key, credential screen,
//!   business rules, limits, tier);
//! - `check_sqlite_new` / `check_sqlite_replay`: a new call recorded in a SQLite ledger (one
//!   write transaction, WAL) and the replay of a recorded call;
//! - `check_postgres_new` / `check_postgres_replay`: the same on PostgreSQL, when the bench is
//!   built with `--features postgres` and `PALISADE_TEST_PG` names a server.
//!
//! `cargo bench --bench gate [--features postgres] -- --warm-up-time 1 --measurement-time 3`.
//! Figures and the machine they were taken on: docs/gate.md.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stderr
)] // criterion_group! makes a pub fn

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palisade::{Call, CallStatus, Gate, Ledger};
use serde_json::json;

/// `examples/tools.toml` without the per-tool hourly limit (a bench makes far more than 200
/// calls an hour); the per-run count still runs. The per-tool count reads at most `per_tool`
/// index entries, so a realistic limit costs little.
fn gate() -> Gate {
    let spec = include_str!("../examples/tools.toml");
    let line = "hourly_limit = { per_run = 3, per_tool = 200 }";
    assert!(spec.contains(line));
    Gate::builder()
        .tools_toml(
            "tools.toml",
            spec.replace(
                line,
                "hourly_limit = { per_run = 3, per_tool = 1000000000 }",
            ),
        )
        .build()
        .unwrap()
}

/// A refund within the automatic limit; `n` makes each call new (its own run).
fn refund(n: u64) -> Call {
    Call::new(
        format!("bench-{}-{n}", std::process::id()),
        "issue_refund",
        json!({"order_id": "ORD-12345", "amount": 20.00, "currency": "EUR", "note": "Parcel arrived damaged; customer sent photos."}),
    )
    .with_context(json!({"orders": ["ORD-12345"], "open_balance": "80.00"}))
}

fn ledger_benches(c: &mut Criterion, name: &str, ledger: &dyn Ledger, gate: &Gate) {
    let counter = AtomicU64::new(0);
    let mut g = c.benchmark_group("gate");
    g.throughput(Throughput::Elements(1));
    g.bench_function(format!("check_{name}_new"), |b| {
        b.iter(|| {
            let n = counter.fetch_add(1, Ordering::Relaxed);
            let a = gate.check(ledger, &refund(n)).unwrap();
            assert_eq!(a.status(), CallStatus::Approved);
        })
    });
    let recorded = refund(u64::MAX);
    gate.check(ledger, &recorded).unwrap();
    g.bench_function(format!("check_{name}_replay"), |b| {
        b.iter(|| {
            let a = gate.check(ledger, black_box(&recorded)).unwrap();
            assert!(a.replayed());
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let gate = gate();
    let call = refund(0);
    assert_eq!(gate.evaluate(&call).status(), CallStatus::Approved);
    let mut g = c.benchmark_group("gate");
    g.throughput(Throughput::Elements(1));
    g.bench_function("evaluate", |b| b.iter(|| gate.evaluate(black_box(&call))));
    g.finish();

    let dir = tempfile::tempdir().unwrap();
    let sqlite = palisade::SqliteLedger::open(dir.path().join("bench.db")).unwrap();
    ledger_benches(c, "sqlite", &sqlite, &gate);

    #[cfg(feature = "postgres")]
    match std::env::var("PALISADE_TEST_PG") {
        Ok(url) => {
            let schema = format!("bench_{}", std::process::id());
            let pg = palisade::PostgresLedger::connect_in_schema(&url, &schema).unwrap();
            ledger_benches(c, "postgres", &pg, &gate);
        }
        Err(_) => eprintln!("gate bench: PostgreSQL skipped (PALISADE_TEST_PG is not set)"),
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
