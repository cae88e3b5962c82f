//! `--format html` and `--html-report FILE`: the review pages from the command line.

use std::borrow::Cow;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use palisade::{BatchReport, Finding};
use serde::Deserialize;
use serde_json::Value;

use super::jsonl::{self, Handler, Settings};
use super::{Fail, Outcome};

/// `--html-report FILE` for the `--jsonl` modes.
#[derive(clap::Args)]
pub(crate) struct ReportOpts {
    /// With --jsonl: also write one HTML review page for the whole batch to FILE (stdout is
    /// unchanged).
    #[arg(long, value_name = "FILE")]
    pub(crate) html_report: Option<PathBuf>,
}

impl ReportOpts {
    /// `--html-report` reads a batch: without `--jsonl` it is a usage error, not ignored.
    pub(crate) fn check(&self, jsonl: bool) -> Result<(), Fail> {
        if self.html_report.is_some() && !jsonl {
            return Err(Fail::new(
                "--html-report needs --jsonl; for one text use --format html",
            ));
        }
        Ok(())
    }
}

/// Runs a `--jsonl` batch, writing the batch page to `--html-report` when it is given.
pub(crate) fn run_jsonl(
    report: ReportOpts,
    title: &str,
    settings: &Settings<'_>,
    handle: Arc<Handler>,
) -> Outcome {
    let Some(path) = report.html_report else {
        return jsonl::run(
            settings.opts,
            settings.lossy,
            settings.max_input_bytes,
            handle,
        );
    };
    let mut sink = BatchSink::new(path, title);
    let code = jsonl::run_with(
        Box::new(io::stdin()),
        &mut io::stdout().lock(),
        settings,
        handle,
        Some(&mut |n, input, output| sink.add(n, input, output)),
    )?;
    sink.finish().map_err(Fail::new)?;
    Ok(code)
}

/// Collects a `--jsonl` run into one batch page, written when the run ends.
pub(crate) struct BatchSink {
    path: PathBuf,
    batch: BatchReport,
}

#[derive(Deserialize)]
struct InputText<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct OutputLine {
    id: Option<Value>,
    #[serde(default)]
    findings: Vec<Finding>,
    error: Option<String>,
}

impl BatchSink {
    pub(crate) fn new(path: PathBuf, title: &str) -> Self {
        BatchSink {
            path,
            batch: BatchReport::new(title),
        }
    }

    /// Adds input line `number` (1-based) from the line itself and the JSON line printed for
    /// it, so the page shows exactly what stdout says.
    pub(crate) fn add(&mut self, number: usize, input: &str, output: &str) {
        let out: OutputLine = match serde_json::from_str(output) {
            Ok(o) => o,
            Err(e) => {
                self.batch.push_error(
                    &format!("line {number}"),
                    &format!("unreadable output: {e}"),
                );
                return;
            }
        };
        let id = match &out.id {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => format!("line {number}"),
            Some(v) => v.to_string(),
        };
        if let Some(error) = &out.error {
            self.batch.push_error(&id, error);
            return;
        }
        let input = input.strip_suffix('\r').unwrap_or(input);
        match serde_json::from_str::<InputText<'_>>(input) {
            Ok(InputText { text: Some(text) }) => self.batch.push(&id, &text, &out.findings),
            _ => self.batch.push_error(&id, "input line has no text"),
        }
    }

    /// Writes the page; an error names the file.
    pub(crate) fn finish(self) -> Result<(), String> {
        std::fs::write(&self.path, self.batch.to_html())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}
