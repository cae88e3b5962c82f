//! Credential-detection accuracy over the shared secret corpora and a generated clean-prose
//! corpus.
//!
//! ```text
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets
//! ```
//!
//! For each `*.jsonl` file (rows `{"source", "rule", "text", "expect": "secret"|"clean"}`):
//! recall on `secret` rows (any credential finding on the row counts), clean rows flagged by a
//! rule that claims the same family as the row's upstream rule, and clean rows flagged by any
//! credential rule. Then the clean-prose check: about 1.5 MiB of generated support replies
//! full of near misses (order numbers, UUIDs, git SHAs, hashes, tracking codes, amounts,
//! markdown base64 images), where any credential finding is a false positive.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use palisade::{Context, Kind, Screener};

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: eval_secrets DIR   (the folder holding the secrets *.jsonl files)");
        return ExitCode::from(2);
    };
    match run(&dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_secrets: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Default)]
struct Tally {
    secret_rows: usize,
    secret_found: usize,
    covered_rows: usize,
    covered_found: usize,
    clean_rows: usize,
    clean_same_family: usize,
    clean_any: usize,
}

/// The family word of an upstream rule name: `np.github.1` → `github`.
fn upstream_family(rule: &str) -> String {
    let parts: Vec<&str> = rule.split('.').collect();
    let word = match parts.as_slice() {
        [_, family, ..] => family,
        [family] => family,
        [] => &"",
    };
    word.to_ascii_lowercase().replace(['-', '_'], "")
}

/// Whether our rule id claims the upstream family (`credential.github-classic-token` claims
/// `github`).
fn claims(our_rule: &str, family: &str) -> bool {
    let ours = our_rule
        .trim_start_matches("credential.")
        .split('-')
        .next()
        .unwrap_or_default();
    !ours.is_empty() && !family.is_empty() && (family.starts_with(ours) || ours.starts_with(family))
}

fn run(dir: &Path) -> Result<(), String> {
    let screener = Screener::new();
    let ctx = Context::without_ticket();
    let our_rules: Vec<String> = screener
        .rules()
        .filter(|r| r.kind == Kind::Credential)
        .map(|r| r.id.clone())
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.jsonl files in {}", dir.display()));
    }
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut missed: BTreeMap<String, usize> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let row: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: malformed JSON: {e}", file.display(), n + 1))?;
            let field = |k: &str| {
                row.get(k).and_then(|v| v.as_str()).ok_or_else(|| {
                    format!("{}:{}: missing string field {k:?}", file.display(), n + 1)
                })
            };
            let (source, rule, body, expect) = (
                field("source")?,
                field("rule")?,
                field("text")?,
                field("expect")?,
            );
            let report = screener
                .screen(&ctx, body)
                .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            let creds: Vec<&str> = report
                .findings()
                .iter()
                .filter(|f| f.kind() == Kind::Credential)
                .map(|f| f.rule())
                .collect();
            let t = tallies.entry(source.to_owned()).or_default();
            match expect {
                "secret" => {
                    t.secret_rows += 1;
                    let family = upstream_family(rule);
                    let covered = our_rules.iter().any(|r| claims(r, &family));
                    if covered {
                        t.covered_rows += 1;
                        t.covered_found += usize::from(!creds.is_empty());
                    }
                    if creds.is_empty() {
                        *missed.entry(upstream_family(rule)).or_default() += 1;
                    } else {
                        t.secret_found += 1;
                    }
                }
                "clean" => {
                    t.clean_rows += 1;
                    let family = upstream_family(rule);
                    if creds.iter().any(|r| claims(r, &family)) {
                        t.clean_same_family += 1;
                    }
                    if !creds.is_empty() {
                        t.clean_any += 1;
                    }
                }
                other => {
                    return Err(format!(
                        "{}:{}: expect is {other:?}, not \"secret\" or \"clean\"",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    println!(
        "| source | secret rows | found | recall | rows of families we cover | found | recall | clean rows | flagged (same family) | rate | flagged (any credential) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pct = |a: usize, b: usize| {
        if b == 0 {
            "n/a".to_owned()
        } else {
            format!("{:.1}%", 100.0 * a as f64 / b as f64)
        }
    };
    let mut all = Tally::default();
    for (source, t) in &tallies {
        println!(
            "| {source} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            t.secret_rows,
            t.secret_found,
            pct(t.secret_found, t.secret_rows),
            t.covered_rows,
            t.covered_found,
            pct(t.covered_found, t.covered_rows),
            t.clean_rows,
            t.clean_same_family,
            pct(t.clean_same_family, t.clean_rows),
            t.clean_any
        );
        all.secret_rows += t.secret_rows;
        all.secret_found += t.secret_found;
        all.covered_rows += t.covered_rows;
        all.covered_found += t.covered_found;
        all.clean_rows += t.clean_rows;
        all.clean_same_family += t.clean_same_family;
        all.clean_any += t.clean_any;
    }
    println!(
        "| **all** | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        all.secret_rows,
        all.secret_found,
        pct(all.secret_found, all.secret_rows),
        all.covered_rows,
        all.covered_found,
        pct(all.covered_found, all.covered_rows),
        all.clean_rows,
        all.clean_same_family,
        pct(all.clean_same_family, all.clean_rows),
        all.clean_any
    );
    let mut missed: Vec<(String, usize)> = missed.into_iter().collect();
    missed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!();
    println!(
        "Missed secret rows by upstream family (top 30 of {}): {}",
        missed.len(),
        missed
            .iter()
            .take(30)
            .map(|(f, n)| format!("{f} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );

    let prose = clean_prose(1_500_000);
    // Screened in chunks under the default 1 MiB input limit, cut on line boundaries.
    let mut flagged = 0;
    let mut at = 0;
    while at < prose.len() {
        let mut end = (at + (1 << 20)).min(prose.len());
        if end < prose.len() {
            end = prose[at..end].rfind('\n').map_or(end, |i| at + i + 1);
        }
        let r = screener
            .screen(&ctx, &prose[at..end])
            .map_err(|e| e.to_string())?;
        for f in r.findings().iter().filter(|f| f.kind() == Kind::Credential) {
            flagged += 1;
            let s = f.span();
            eprintln!(
                "clean-prose false positive: {} on {:?}",
                f.rule(),
                &prose[at + s.start..at + s.end]
            );
        }
        at = end;
    }
    println!();
    println!(
        "Clean prose: {} bytes of generated support replies, {} credential findings.",
        prose.len(),
        flagged
    );
    Ok(())
}

/// A small deterministic generator (xorshift) so the prose is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
    fn chars(&mut self, alphabet: &[u8], n: usize) -> String {
        (0..n)
            .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

const HEX: &[u8] = b"0123456789abcdef";
const UPPER_DIGITS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Support replies packed with the shapes that trip naive secret scanners.
fn clean_prose(bytes: usize) -> String {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut out = String::with_capacity(bytes + 1024);
    let greetings = [
        "Hi Sam,",
        "Hello Priya,",
        "Dear Mr. Okafor,",
        "Hi there,",
        "Good morning Lena,",
    ];
    let closings = [
        "Best regards,\nAna",
        "Kind regards,\nThe Support Team",
        "Thanks,\nMarco",
        "Cheers,\nJo",
    ];
    while out.len() < bytes {
        out.push_str(rng.pick(&greetings));
        out.push_str("\n\n");
        let uuid = format!(
            "{}-{}-4{}-a{}-{}",
            rng.chars(HEX, 8),
            rng.chars(HEX, 4),
            rng.chars(HEX, 3),
            rng.chars(HEX, 3),
            rng.chars(HEX, 12)
        );
        let sentences = [
            format!(
                "Your order ORD-{} shipped on 2024-0{}-1{}.",
                rng.next() % 90_000 + 10_000,
                rng.next() % 9 + 1,
                rng.next() % 9
            ),
            format!(
                "The tracking code is 1Z{} and the parcel is with the courier.",
                rng.chars(UPPER_DIGITS, 16)
            ),
            format!("Your case reference is {uuid}; keep it for your records."),
            format!(
                "We refunded ${},{:03}.{:02} to the original card.",
                rng.next() % 9 + 1,
                rng.next() % 1000,
                rng.next() % 100
            ),
            format!(
                "The fix landed in commit {} and ships in version 4.{}.{}.",
                rng.chars(HEX, 40),
                rng.next() % 20,
                rng.next() % 10
            ),
            format!("The download checksum (SHA-256) is {}.", rng.chars(HEX, 64)),
            format!(
                "Here is the screenshot you sent: ![screenshot](data:image/png;base64,iVBORw0KGgo{})",
                rng.chars(B64, 120)
            ),
            format!(
                "Your invoice INV-{}-{} is attached.",
                2024,
                rng.next() % 100_000
            ),
            "Please reset your password from the sign-in page; we never ask for it by email."
                .to_owned(),
            "Your API key is shown once in the dashboard under Settings > Developers.".to_owned(),
            "The token expired, so please sign in again and the app will refresh it.".to_owned(),
            format!("Session id {} is linked to this chat.", rng.chars(HEX, 32)),
            format!(
                "The coupon code SAVE{} is applied at checkout.",
                rng.next() % 90 + 10
            ),
            format!(
                "Your parcel locker PIN arrives by text; the locker is L-{}.",
                rng.next() % 900 + 100
            ),
            "If the page says secret = hidden, that is the privacy setting, not an error."
                .to_owned(),
            format!(
                "Reference: https://help.example.com/articles/{}-reset-your-router",
                rng.next() % 100_000
            ),
        ];
        for _ in 0..4 {
            let i = (rng.next() % sentences.len() as u64) as usize;
            out.push_str(&sentences[i]);
            out.push(' ');
        }
        out.push_str("\n\n");
        out.push_str(rng.pick(&closings));
        out.push_str("\n\n");
    }
    out
}
