//! A loop over one workload, for instruction counts under callgrind (steadier than wall-clock
//! time on a shared machine). The workload runs a few hundred times to warm up (lazy DFA
//! states, lazily compiled patterns), then `N` times inside `profile::measured`:
//!
//! ```sh
//! cargo build --release --example profile
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='profile::measured' \
//!     target/release/examples/profile draft 2000
//! ```
//!
//! Divide the collected instructions by `N`. Workloads (inputs from `benches/fixtures/`):
//! `draft` (the 1 KiB clean draft, word limit 80), `dirty` (the 1 KiB draft with seven kinds
//! of finding), `ticket` (fence + scan of a 2 KiB ASCII ticket), `unicode-ticket` (the same,
//! non-ASCII), `prose` (1 MiB of varied clean prose, as the `screen` bench builds it, every
//! default rule; use a small `N` and `WARM=2`), `prose-repeated` (one paragraph repeated to
//! 1 MiB), `credentials` (the varied prose, credential rules only), `draft-varied` and
//! `ticket-varied` (a different 1 KiB draft or 2 KiB ticket of varied prose each call, as the
//! benches' `_varied` entries; the count includes a copy of the text), `short-varied` (the
//! same with 400-byte drafts, a reply within the word limit), `scorer-ticket` (the learned
//! injection scorer alone on a different 2 KiB ticket of varied prose each call, the copy
//! included), `scorer-short` (the same on 280-byte texts), `ticket-scored` (fence + scan of
//! the varied tickets by a detector with the learned scorer on). `WARM` sets the warm-up
//! count (default 300); `DISABLE` a comma-separated list of rule ids the screener leaves out;
//! `RULES` a comma-separated list of extra rule files it loads (to time a rule's variant
//! without rebuilding: disable the embedded rule and load the variant under another id).

#![allow(clippy::print_stdout)] // an example's output is its result

#[path = "../benches/common/varied_prose.rs"]
mod varied_prose;

use std::error::Error;
use std::hint::black_box;

use palisade::{Context, Detector, Fence, InjectionScorer, Screener};

const TICKET_ID: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

/// A support ticket in Russian and Chinese, repeated to 2 KiB for `script-ticket`.
const SCRIPT_TICKET: &str = "Здравствуйте! Мой заказ ORD-48213 пришёл с разбитым экраном, \
    фотографии я отправила вчера вечером через форму возврата. Когда будет замена? \
    您好，我的订单昨天到了，但是屏幕碎了。照片已经通过退货页面发送，请尽快安排换货，谢谢。";

/// `text` repeated, one per line, and cut to at most `bytes` on a char boundary.
fn sized(text: &str, bytes: usize) -> String {
    let mut out = String::new();
    while out.len() < bytes {
        out.push_str(text);
        out.push('\n');
    }
    varied_prose::cut(&mut out, bytes);
    out
}

#[inline(never)]
fn warm_up(work: &dyn Fn() -> usize, n: usize) -> usize {
    (0..n).map(|_| work()).sum()
}

#[inline(never)]
fn measured(work: &dyn Fn() -> usize, n: usize) -> usize {
    // Not the same code as `warm_up`, or the two are folded into one symbol.
    (0..n).map(|_| black_box(work())).sum()
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let which = args.next().ok_or("usage: profile WORKLOAD N")?;
    let n: usize = args.next().ok_or("usage: profile WORKLOAD N")?.parse()?;
    let warm: usize = std::env::var("WARM").map_or(Ok(300), |w| w.parse())?;
    let fixture = |name: &str| std::fs::read_to_string(format!("benches/fixtures/{name}"));

    let ctx = Context::new(TICKET_ID)?;
    let draft = fixture("draft_clean.txt")?;
    let dirty = fixture("draft_dirty.txt")?;
    let ticket = sized(&fixture("ticket_ascii.txt")?, 2048);
    let unicode_ticket = sized(&fixture("ticket_unicode.txt")?, 2048);
    let script_ticket = sized(SCRIPT_TICKET, 2048);
    let prose = varied_prose::varied_prose(1 << 20);
    let repeated = sized(&fixture("prose.txt")?, 1 << 20);
    let drafts = varied_prose::varied_texts(256, 1024);
    let short_drafts = varied_prose::varied_texts(256, 400);
    let tickets = varied_prose::varied_texts(256, 2048);
    let short_texts = varied_prose::varied_texts(256, 280);
    let turn = std::cell::Cell::new(0usize);
    let next = |texts: &[String]| {
        turn.set(turn.get() + 1);
        texts[turn.get() % texts.len()].clone()
    };
    let mut builder = if which == "credentials" {
        Screener::builder()
            .without_defaults()
            .rules_file("rules/credentials.toml")
    } else {
        Screener::builder()
    };
    // What one rule costs: the same run without it (see `benches/rule_costs.sh`).
    for id in std::env::var("DISABLE").unwrap_or_default().split(',') {
        if !id.is_empty() {
            builder = builder.disable(id);
        }
    }
    for path in std::env::var("RULES").unwrap_or_default().split(',') {
        if !path.is_empty() {
            builder = builder.rules_file(path);
        }
    }
    let screener = builder.build()?;
    let detector = Detector::new();
    let scored = Detector::builder().with_learned_scorer().build()?;
    let scorer = InjectionScorer::embedded();
    let fence = Fence::new("TICKET_BODY")?;

    let screen = |text: &str| {
        screener
            .screen(&ctx, black_box(text))
            .map_or(0, |r| r.findings().len())
    };
    let fenced = |text: &str| {
        detector
            .fence(&fence, black_box(text))
            .map_or(0, |r| r.findings().len())
    };
    let scored_fence = |text: &str| {
        scored
            .fence(&fence, black_box(text))
            .map_or(0, |r| r.findings().len())
    };
    let score = |text: &str| usize::from(scorer.finding(black_box(text)).is_some());
    let work: Box<dyn Fn() -> usize> = match which.as_str() {
        "draft" => Box::new(|| screen(&draft)),
        "dirty" => Box::new(|| screen(&dirty)),
        "ticket" => Box::new(|| fenced(&ticket)),
        "unicode-ticket" => Box::new(|| fenced(&unicode_ticket)),
        "script-ticket" => Box::new(|| fenced(&script_ticket)),
        "prose" | "credentials" => Box::new(|| screen(&prose)),
        "prose-repeated" => Box::new(|| screen(&repeated)),
        "draft-varied" => Box::new(|| screen(&next(&drafts))),
        "short-varied" => Box::new(|| screen(&next(&short_drafts))),
        "ticket-varied" => Box::new(|| fenced(&next(&tickets))),
        "scorer-ticket" => Box::new(|| score(&next(&tickets))),
        "scorer-short" => Box::new(|| score(&next(&short_texts))),
        "ticket-scored" => Box::new(|| scored_fence(&next(&tickets))),
        other => return Err(format!("unknown workload {other:?}").into()),
    };
    black_box(warm_up(&work, warm));
    let total = measured(&work, n);
    // The sums keep the work from being optimised away, and show the findings per call.
    println!("{which}: {n} runs, {} findings per run", total / n.max(1));
    Ok(())
}
