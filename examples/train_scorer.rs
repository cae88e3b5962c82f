//! Trains the learned injection scorer and writes `rules/injection-scorer.bin`.
//!
//! ```text
//! cargo run --release --example train_scorer -- ../shared/corpora/injection
//! cargo run --release --example train_scorer -- ../shared/corpora/injection --out /tmp/s.bin
//! ```
//!
//! Reads every `*.jsonl` file in the folder and in its `multilingual/` subfolder (rows
//! `{"text", "label": "injection"|"benign", "source", ...}`), keeps the rows that
//! [`palisade::Half::of`] puts in the training half, and fits a logistic regression over the
//! scorer's own hashed features ([`palisade::InjectionScorer::window_features`], so training
//! and scoring share one feature function). Rows from xSID (`mainlp/xsid`, CC-BY-SA) are left out of
//! training and calibration and kept for evaluation only, and so are the languages that have
//! injection rows but next to no benign ones (`UNTRAINED_LANGS`). Template text from
//! `examples/scorer_templates.json` is added (attack openers and payloads, and benign support
//! sentences that share the attacks' words, in the fourteen languages), and two kinds of
//! generated text built from training rows only: benign "tickets" made by joining several benign
//! rows (so length alone does not look like an attack), and short injections set inside benign
//! text (so a short attack in a long ticket is still seen). The threshold is set just above
//! the highest score of a benign row of the calibration part of the training half (one row in
//! five, not used to fit the weights), so it is set on scores the weights were not fitted to.
//! Everything is deterministic: the same corpora give the same file.
//!
//! The program prints the threshold and recall / false positives per file on the held-out
//! half; `eval_injection --half held-out` gives the same figures through the detector.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use palisade::{Half, InjectionScorer, Normalized, WINDOW_CHARS};

const BITS: u32 = 17;
const EPOCHS: usize = 16;
/// Weight of a benign example's loss relative to an injection's: precision first.
const BENIGN_WEIGHT: f32 = 2.0;
const LEARNING_RATE: f32 = 0.4;
const L2: f32 = 1e-5;
/// Added to the highest benign training score to get the threshold.
const MARGIN: f32 = 0.25;

/// Languages with injection rows but next to no benign rows in the corpora (Hindi, Bengali,
/// Thai, Tagalog, Vietnamese, Indonesian, Khmer, Croatian): trained on, the model would learn
/// the script, not the attack, and flag every benign message in it. They stay in the
/// evaluation, reported as untrained.
const UNTRAINED_LANGS: &[&str] = &["hi", "bn", "th", "tl", "vi", "id", "km", "hr"];

struct Row {
    file: String,
    lang: String,
    text: String,
    injection: bool,
}

struct Sample {
    features: Vec<u32>,
    injection: bool,
}

/// A small deterministic generator (xorshift64*), so the file is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut out = PathBuf::from("rules/injection-scorer.bin");
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => match args.next() {
                Some(p) => out = PathBuf::from(p),
                None => return usage(),
            },
            _ if dir.is_none() && !a.starts_with("--") => dir = Some(PathBuf::from(a)),
            _ => return usage(),
        }
    }
    let Some(dir) = dir else {
        return usage();
    };
    match run(&dir, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train_scorer: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: train_scorer CORPUS_DIR [--out rules/injection-scorer.bin]");
    ExitCode::from(2)
}

fn read_rows(dir: &Path) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for folder in [dir.to_path_buf(), dir.join("multilingual")] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            for (i, line) in text.lines().enumerate() {
                let v: serde_json::Value = serde_json::from_str(line)
                    .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
                let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("");
                if field("source").contains("mainlp/xsid")
                    || UNTRAINED_LANGS.contains(&field("lang"))
                {
                    continue;
                }
                rows.push(Row {
                    file: name.clone(),
                    lang: field("lang").to_owned(),
                    text: field("text").to_owned(),
                    injection: field("label") == "injection",
                });
            }
        }
    }
    if rows.is_empty() {
        return Err(format!("no rows under {}", dir.display()));
    }
    Ok(rows)
}

/// Long benign tickets made for training and calibration.
const LONG_TICKETS: usize = 1200;
/// Attacks set inside long benign tickets.
const LONG_ATTACKS: usize = 1200;
/// Size of a long benign ticket, in bytes.
const LONG_BYTES: usize = 2048;

/// Clean texts of the repository (support tickets and replies), read as benign.
const BENIGN_FIXTURES: &[&str] = &[
    "benches/fixtures/ticket_ascii.txt",
    "benches/fixtures/ticket_unicode.txt",
    "benches/fixtures/prose.txt",
    "benches/fixtures/draft_clean.txt",
];

/// The lines of `benches/fixtures/prose_varied.txt` (generated support prose).
fn prose_lines() -> Vec<&'static str> {
    include_str!("../benches/fixtures/prose_varied.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// `count` tickets of about [`LONG_BYTES`]: each joins benign rows of one language picked at
/// random (one ticket in four is our own English prose instead), with spaces or line breaks.
fn long_benign(rows: &[&Row], prose: &[&str], count: usize, rng: &mut Rng) -> Vec<String> {
    let mut by_lang: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in rows {
        by_lang.entry(&r.lang).or_default().push(&r.text);
    }
    by_lang.retain(|_, v| v.len() >= 20);
    let langs: Vec<&Vec<&str>> = by_lang.values().collect();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let pool: &[&str] = if rng.below(4) == 0 || langs.is_empty() {
            prose
        } else {
            langs[rng.below(langs.len())]
        };
        if pool.is_empty() {
            continue;
        }
        let mut text = String::new();
        while text.len() < LONG_BYTES {
            text.push_str(pool[rng.below(pool.len())]);
            text.push_str(["\n", " ", "\n\n"][rng.below(3)]);
        }
        out.push(text);
    }
    out
}

/// Whether a training-half row is kept for calibration (a hash independent of [`Half::of`]).
fn is_calibration(text: &str) -> bool {
    let h = text.bytes().fold(0x1234_5678_9abc_def0u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (h >> 7) % 5 == 0
}

/// Template text (`examples/scorer_templates.json`): per language, attack openers joined to
/// payloads, and benign support sentences that share the attacks' words (ignore my previous
/// message, I forgot my password, the account admin, a system update) joined to endings. Half
/// of the attacks are set inside a benign corpus row, as they would be in a ticket.
fn template_texts(benign: &[&str], rng: &mut Rng) -> Result<Vec<(String, bool)>, String> {
    let source = include_str!("scorer_templates.json");
    let langs: BTreeMap<String, BTreeMap<String, Vec<String>>> =
        serde_json::from_str(source).map_err(|e| format!("scorer_templates.json: {e}"))?;
    let mut out = Vec::new();
    let empty = Vec::new();
    for parts in langs.values() {
        let get = |k: &str| parts.get(k).unwrap_or(&empty);
        for prefix in get("attack_prefix") {
            for payload in get("payload") {
                let attack = format!("{prefix} {payload}");
                if rng.below(2) == 0 {
                    let before = benign[rng.below(benign.len())];
                    out.push((format!("{before} {attack}"), true));
                } else {
                    out.push((attack, true));
                }
            }
        }
        for sentence in get("benign") {
            for tail in get("benign_tail") {
                out.push((format!("{sentence}{tail}"), false));
            }
        }
    }
    Ok(out)
}

/// Feature lists of every window of `text`.
fn window_features(text: &str) -> Vec<Vec<u32>> {
    let view = Normalized::folded(text);
    let folded = view.as_str();
    InjectionScorer::window_features(folded, BITS)
        .into_iter()
        .filter(|f| !f.is_empty())
        .collect()
}

fn score(weights: &[f32], bias: f32, features: &[u32]) -> f32 {
    let sum: f32 = features.iter().map(|&b| weights[b as usize]).sum();
    bias + sum / (features.len() as f32).sqrt()
}

fn run(dir: &Path, out: &Path) -> Result<(), String> {
    let rows = read_rows(dir)?;
    // The training half is split again: most of it fits the weights, the rest (one row in
    // five, by another hash) only sets the threshold, so the threshold sees scores the weights
    // were not fitted to.
    let (train, calibration): (Vec<&Row>, Vec<&Row>) = rows
        .iter()
        .filter(|r| Half::of(&r.text) == Half::Train)
        .partition(|r| !is_calibration(&r.text));
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let benign: Vec<&str> = train
        .iter()
        .filter(|r| !r.injection)
        .map(|r| r.text.as_str())
        .collect();
    let attacks: Vec<&str> = train
        .iter()
        .filter(|r| r.injection && r.text.chars().count() < 400)
        .map(|r| r.text.as_str())
        .collect();
    let mut texts: Vec<(String, bool)> = train
        .iter()
        .map(|r| (r.text.clone(), r.injection))
        .collect();
    texts.extend(template_texts(&benign, &mut rng)?);
    for _ in 0..1500 {
        let n = 3 + rng.below(8);
        let parts: Vec<&str> = (0..n).map(|_| benign[rng.below(benign.len())]).collect();
        let sep = if rng.below(2) == 0 { " " } else { "\n" };
        texts.push((parts.join(sep), false));
    }
    // Long benign text: tickets of about 2 KiB joined from rows of one language, and from the
    // lines of our own support prose (the training half of its lines), so that a long
    // ordinary ticket's windows are seen as benign, not only short messages.
    let train_benign: Vec<&Row> = train.iter().copied().filter(|r| !r.injection).collect();
    let prose_lines = prose_lines();
    let (prose_train, prose_calibration): (Vec<&str>, Vec<&str>) = prose_lines
        .iter()
        .copied()
        .filter(|l| Half::of(l) == Half::Train)
        .partition(|l| !is_calibration(l));
    for text in long_benign(&train_benign, &prose_train, LONG_TICKETS, &mut rng) {
        texts.push((text, false));
    }
    for name in BENIGN_FIXTURES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        texts.push((text, false));
    }
    // Attacks set inside a window's worth of long benign text (only as much context as fits
    // one window, so every window of the sample holds the attack).
    for _ in 0..LONG_ATTACKS {
        let attack = attacks[rng.below(attacks.len())];
        let ticket = long_benign(&train_benign, &prose_train, 1, &mut rng)
            .pop()
            .unwrap_or_default();
        let room = WINDOW_CHARS.saturating_sub(attack.chars().count() + 8);
        let chars: Vec<char> = ticket.chars().collect();
        let take = room.min(chars.len());
        let from = rng.below(chars.len() - take + 1);
        let context = &chars[from..from + take];
        let split = rng.below(take + 1);
        let before: String = context[..split].iter().collect();
        let after: String = context[split..].iter().collect();
        texts.push((format!("{before}\n{attack}\n{after}"), true));
    }
    for _ in 0..800 {
        let before = benign[rng.below(benign.len())];
        let after = benign[rng.below(benign.len())];
        let attack = attacks[rng.below(attacks.len())];
        texts.push((format!("{before}\n{attack}\n{after}"), true));
    }
    let mut samples: Vec<Sample> = Vec::new();
    for (text, injection) in &texts {
        for features in window_features(text) {
            samples.push(Sample {
                features,
                injection: *injection,
            });
        }
    }
    let n = 1usize << BITS;
    let mut w = vec![0f32; n];
    let mut g2 = vec![1e-3f32; n];
    let mut bias = 0f32;
    let mut bias_g2 = 1e-3f32;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    for epoch in 0..EPOCHS {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0f64;
        for &i in &order {
            let s = &samples[i];
            let z = score(&w, bias, &s.features);
            let p = 1.0 / (1.0 + (-z).exp());
            let y = if s.injection { 1.0 } else { 0.0 };
            let cw = if s.injection { 1.0 } else { BENIGN_WEIGHT };
            loss += f64::from(cw * -(y * p.max(1e-7).ln() + (1.0 - y) * (1.0 - p).max(1e-7).ln()));
            let grad = cw * (p - y);
            let x = 1.0 / (s.features.len() as f32).sqrt();
            for &b in &s.features {
                let b = b as usize;
                let g = grad * x + L2 * w[b];
                g2[b] += g * g;
                w[b] -= LEARNING_RATE * g / g2[b].sqrt();
            }
            bias_g2 += grad * grad;
            bias -= LEARNING_RATE * grad / bias_g2.sqrt();
        }
        eprintln!(
            "epoch {epoch}: mean loss {:.4} over {} windows",
            loss / samples.len() as f64,
            samples.len()
        );
    }
    // Quantise first, then calibrate on the quantised model, which is what ships.
    let model = InjectionScorer::from_weights(&w, bias, f32::MAX).ok_or("bad bucket count")?;
    let calibration_benign: Vec<&Row> = calibration
        .iter()
        .copied()
        .filter(|r| !r.injection)
        .collect();
    let long_calibration = long_benign(
        &calibration_benign,
        &prose_calibration,
        LONG_TICKETS / 2,
        &mut rng,
    );
    let max_row = calibration_benign
        .iter()
        .map(|r| model.score(&r.text))
        .fold(f32::MIN, f32::max);
    let max_long = long_calibration
        .iter()
        .map(|t| model.score(t))
        .fold(f32::MIN, f32::max);
    eprintln!("highest benign calibration score: rows {max_row:.3}, long tickets {max_long:.3}");
    let max_benign = max_row.max(max_long);
    if std::env::var_os("TRAIN_SCORER_SHOW").is_some() {
        let mut top: Vec<(f32, &str)> = calibration
            .iter()
            .filter(|r| !r.injection)
            .map(|r| (model.score(&r.text), r.text.as_str()))
            .collect();
        top.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (s, t) in top.iter().take(12) {
            eprintln!("benign calibration {s:.2}: {t:?}");
        }
    }
    let model = model.with_threshold(max_benign + MARGIN);
    std::fs::write(out, model.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {} ({} buckets), threshold {:.3} (highest benign calibration score {:.3} + {MARGIN})",
        out.display(),
        n,
        model.threshold(),
        max_benign
    );
    // Held-out figures per file.
    let mut per_file: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for r in rows.iter().filter(|r| Half::of(&r.text) == Half::HeldOut) {
        let t = per_file.entry(&r.file).or_default();
        let flagged = model.finding(&r.text).is_some();
        if r.injection {
            t[0] += 1;
            t[1] += usize::from(flagged);
        } else {
            t[2] += 1;
            t[3] += usize::from(flagged);
        }
    }
    println!("\n| file (held-out half) | injection | flagged | benign | flagged |");
    println!("|---|---:|---:|---:|---:|");
    for (f, t) in per_file {
        println!("| {f} | {} | {} | {} | {} |", t[0], t[1], t[2], t[3]);
    }
    Ok(())
}
