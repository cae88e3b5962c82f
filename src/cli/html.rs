//! `--format html` and `--html-report FILE`: the review pages from the command line.

use std::borrow::Cow;
use std::path::PathBuf;

use palisade::{BatchReport, Finding};
use serde::Deserialize;
use serde_json::Value;

/// How `screen` and `fence` print their result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum Format {
    /// Lines for a terminal (the default).
    Text,
    /// One JSON object, as `--json`.
    Json,
    /// A self-contained HTML page for a reviewer.
    Html,
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
