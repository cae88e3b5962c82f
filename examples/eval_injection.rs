//! Measures the input-side detector over labelled JSONL corpora.
//!
//! ```text
//! cargo run --release --example eval_injection -- ../shared/corpora/injection
//! cargo run --release --example eval_injection -- ../shared/corpora/injection/multilingual --by lang
//! cargo run --release --example eval_injection -- tests/fixtures/injection --by lang
//! cargo run --release --example eval_injection -- DIR --show-misses fr --show-false-positives
//! ```
//!
//! Every `*.jsonl` file in the folder holds one object per line:
//! `{"source": "...", "text": "...", "label": "injection" | "benign", "lang": "..."}` (`lang`
//! optional). Each text goes through `Detector::new().scan`; a row counts as flagged when the
//! scan returns any finding. The command prints two markdown tables: recall and false-positive
//! rate per file and `source` (or per file and `lang` with `--by lang`), and how many rows each
//! rule fired on. `--rules FILE` adds a rule file to the embedded ones, `--disable RULE_ID`
//! leaves an embedded rule out (with `--rules`, to compare a rule with a variant);
//! `--show-misses LANG|all` and `--show-false-positives` print the texts of missed and wrongly
//! flagged rows on stderr (debugging aids: they print corpus text). `--half train|held-out` keeps only the rows the
//! learned scorer's training script puts in that half (a hash of the text), so figures for a
//! trained model are taken on text it never saw. Malformed lines are reported on stderr with
//! their file and line number (and counted in the output); they make the exit status 1.
//! The learned scorer is on here (it is opt-in in the library); `--no-learned` turns it off,
//! to see what the rules and disguised phrases alone find.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use palisade::Detector;
use serde::Deserialize;

/// One corpus line.
#[derive(Deserialize)]
struct Row {
    source: String,
    text: String,
    label: Label,
    #[serde(default)]
    lang: Option<String>,
}

/// Command-line options.
#[derive(Default)]
struct Options {
    /// Group rows by `lang` instead of `source`.
    by_lang: bool,
    /// Extra rule files.
    rules: Vec<PathBuf>,
    /// Embedded rules left out (to compare a rule with a variant loaded by `--rules`).
    disable: Vec<String>,
    /// Print missed injection rows of this language (`all` for every row).
    show_misses: Option<String>,
    /// Print flagged benign rows.
    show_false_positives: bool,
    /// Keep only the rows of this half of the scorer's split.
    half: Option<palisade::Half>,
    /// Rules only: the learned scorer off.
    no_learned: bool,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Label {
    Injection,
    Benign,
}

/// Counts for one group of rows.
#[derive(Default, Clone, Copy)]
struct Tally {
    rows: usize,
    injection: usize,
    injection_flagged: usize,
    benign: usize,
    benign_flagged: usize,
}

impl Tally {
    fn add(&mut self, label: Label, flagged: bool) {
        self.rows += 1;
        match label {
            Label::Injection => {
                self.injection += 1;
                self.injection_flagged += usize::from(flagged);
            }
            Label::Benign => {
                self.benign += 1;
                self.benign_flagged += usize::from(flagged);
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.rows += other.rows;
        self.injection += other.injection;
        self.injection_flagged += other.injection_flagged;
        self.benign += other.benign;
        self.benign_flagged += other.benign_flagged;
    }
}

/// Rows each rule fired on, split by label.
#[derive(Default)]
struct RuleHits {
    injection: usize,
    benign: usize,
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

fn usage() -> ExitCode {
    let mut err = io::stderr().lock();
    let _ = writeln!(
        err,
        "usage: cargo run --release --example eval_injection -- <corpus folder> [--by source|lang] \
         [--rules FILE]... [--disable RULE_ID]... [--show-misses LANG|all] [--show-false-positives] [--half train|held-out] [--no-learned]\n\
         the folder holds *.jsonl files of {{\"source\", \"text\", \"label\": \"injection\"|\"benign\"}} rows, \
         e.g. ../shared/corpora/injection"
    );
    ExitCode::from(2)
}

fn jsonl_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    Ok(files)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut opts = Options::default();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--by" => match args.next().as_deref() {
                Some("lang") => opts.by_lang = true,
                Some("source") => opts.by_lang = false,
                _ => return usage(),
            },
            "--rules" => match args.next() {
                Some(f) => opts.rules.push(PathBuf::from(f)),
                None => return usage(),
            },
            "--disable" => match args.next() {
                Some(id) => opts.disable.push(id),
                None => return usage(),
            },
            "--show-misses" => match args.next() {
                Some(l) => opts.show_misses = Some(l),
                None => return usage(),
            },
            "--show-false-positives" => opts.show_false_positives = true,
            "--no-learned" => opts.no_learned = true,
            "--half" => match args.next().as_deref() {
                Some("train") => opts.half = Some(palisade::Half::Train),
                Some("held-out") => opts.half = Some(palisade::Half::HeldOut),
                _ => return usage(),
            },
            _ if dir.is_none() && !a.starts_with("--") => dir = Some(PathBuf::from(a)),
            _ => return usage(),
        }
    }
    let Some(dir) = dir else {
        return usage();
    };
    match run(&dir, &opts) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(
                io::stderr().lock(),
                "eval_injection: {}: {e}",
                dir.display()
            );
            ExitCode::from(2)
        }
    }
}

fn run(dir: &Path, opts: &Options) -> io::Result<ExitCode> {
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "not a folder (pass the corpus folder, e.g. ../shared/corpora/injection)",
        ));
    }
    let files = jsonl_files(dir)?;
    if files.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no *.jsonl files in this folder",
        ));
    }

    let mut builder = Detector::builder();
    for f in &opts.rules {
        builder = builder.rules_file(f);
    }
    for id in &opts.disable {
        builder = builder.disable(id.clone());
    }
    if !opts.no_learned {
        builder = builder.with_learned_scorer();
    }
    let detector = builder
        .build()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let mut err = io::stderr().lock();
    // (file name, source) -> counts, in file order then source order.
    let mut groups: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut per_file: BTreeMap<String, Tally> = BTreeMap::new();
    let mut rules: BTreeMap<String, RuleHits> = BTreeMap::new();
    let mut malformed = 0usize;

    for path in &files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let content = std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        per_file.entry(name.clone()).or_default();
        for (i, line) in content.lines().enumerate() {
            let line_no = i + 1;
            let row: Row = match serde_json::from_str(line) {
                Ok(row) => row,
                Err(e) => {
                    malformed += 1;
                    writeln!(err, "{}:{line_no}: malformed row: {e}", path.display())?;
                    continue;
                }
            };
            let findings = match detector.scan(&row.text) {
                Ok(f) => f,
                Err(e) => {
                    malformed += 1;
                    writeln!(err, "{}:{line_no}: not scanned: {e}", path.display())?;
                    continue;
                }
            };
            if opts
                .half
                .is_some_and(|h| palisade::Half::of(&row.text) != h)
            {
                continue;
            }
            let flagged = !findings.is_empty();
            let lang = row.lang.as_deref().unwrap_or("-");
            let show_miss = opts
                .show_misses
                .as_deref()
                .is_some_and(|l| l == "all" || l == lang);
            match row.label {
                Label::Injection if !flagged && show_miss => {
                    writeln!(err, "MISS {name} {lang}: {:?}", row.text)?;
                }
                Label::Benign if flagged && opts.show_false_positives => {
                    let fired: Vec<&str> = findings.iter().map(|f| f.rule()).collect();
                    writeln!(err, "FP {name} {lang} {fired:?}: {:?}", row.text)?;
                }
                _ => {}
            }
            let group = if opts.by_lang {
                lang.to_owned()
            } else {
                row.source
            };
            groups
                .entry((name.clone(), group))
                .or_default()
                .add(row.label, flagged);
            per_file
                .entry(name.clone())
                .or_default()
                .add(row.label, flagged);
            let fired: BTreeSet<&str> = findings.iter().map(|f| f.rule()).collect();
            for rule in fired {
                let hits = rules.entry(rule.to_owned()).or_default();
                match row.label {
                    Label::Injection => hits.injection += 1,
                    Label::Benign => hits.benign += 1,
                }
            }
        }
    }

    let mut out = io::stdout().lock();
    writeln!(out, "Corpus: {}\n", dir.display())?;
    writeln!(
        out,
        "| file | {} | rows | injection | flagged | recall | benign | benign flagged | false-positive rate |",
        if opts.by_lang { "lang" } else { "source" }
    )?;
    writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|")?;
    let mut total = Tally::default();
    for (file, file_tally) in &per_file {
        let sources: Vec<_> = groups.iter().filter(|((f, _), _)| f == file).collect();
        for ((_, source), t) in &sources {
            write_row(&mut out, file, source, t)?;
        }
        if sources.len() > 1 {
            write_row(&mut out, file, "**all**", file_tally)?;
        }
        total.merge(file_tally);
    }
    write_row(&mut out, "**total**", "", &total)?;
    let flagged = total.injection_flagged + total.benign_flagged;
    writeln!(
        out,
        "\nRecall {} ({}/{}), false-positive rate {} ({}/{}), precision {} ({}/{}).",
        percent(total.injection_flagged, total.injection),
        total.injection_flagged,
        total.injection,
        percent(total.benign_flagged, total.benign),
        total.benign_flagged,
        total.benign,
        percent(total.injection_flagged, flagged),
        total.injection_flagged,
        flagged,
    )?;

    writeln!(out, "\n| rule | injection rows | benign rows |")?;
    writeln!(out, "|---|---:|---:|")?;
    for (rule, hits) in &rules {
        writeln!(out, "| `{rule}` | {} | {} |", hits.injection, hits.benign)?;
    }

    if malformed > 0 {
        writeln!(
            out,
            "\n{malformed} malformed or unscanned lines (listed on stderr)."
        )?;
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn write_row(out: &mut impl Write, file: &str, source: &str, t: &Tally) -> io::Result<()> {
    writeln!(
        out,
        "| {file} | {source} | {} | {} | {} | {} | {} | {} | {} |",
        t.rows,
        t.injection,
        t.injection_flagged,
        percent(t.injection_flagged, t.injection),
        t.benign,
        t.benign_flagged,
        percent(t.benign_flagged, t.benign),
    )
}
