//! `palisade scan`: injection-shaped and hidden text in untrusted text, as JSON.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::Arc;

use palisade::{Detector, Policy};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::Outcome;
use super::config::{self, Knobs};
use super::input::InputOpts;
use super::jsonl::{self, LineResult, Shape, StreamOpts};
use super::output::{self, Located};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Read JSON lines {"id", "text"} and print one {"id", "findings"} per line.
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    knobs: Knobs,
    #[command(flatten)]
    stream: StreamOpts,
    #[command(flatten)]
    input: InputOpts,
}

#[derive(Serialize)]
struct OutLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Option<&'a RawValue>>,
    findings: Vec<Located<'a>>,
}

pub(crate) fn run(args: Args, policy: &Policy) -> Outcome {
    let detector = config::detector(policy, &[], Some(&args.knobs), args.input.max_input_bytes)?;
    if args.jsonl {
        let handler = move |n: usize, line: &str| scan_line(&detector, n, line);
        let limit = args
            .input
            .max_input_bytes
            .unwrap_or(palisade::DEFAULT_MAX_INPUT_BYTES);
        return jsonl::run(&args.stream, args.input.lossy, limit, Arc::new(handler));
    }
    let text = args.input.read_stdin()?;
    let findings = detector.scan(&text)?;
    let mut out = io::stdout().lock();
    serde_json::to_writer(
        &mut out,
        &OutLine {
            id: None,
            findings: output::locate(&text, &findings),
        },
    )?;
    writeln!(out)?;
    Ok(0)
}

/// One `scan --jsonl` input line. Unknown fields and duplicated keys are errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InLine<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

const FIELDS: &[(&str, Shape)] = &[("id", Shape::Any), ("text", Shape::Str)];

fn scan_line(detector: &Detector, number: usize, line: &str) -> LineResult {
    let parsed: InLine<'_> = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(e) => {
            let id = jsonl::id_of(line);
            return LineResult::error(number, id.as_deref(), &jsonl::explain(line, &e, FIELDS));
        }
    };
    let Some(text) = parsed.text.as_deref() else {
        return LineResult::error(number, parsed.id, &jsonl::missing(line, "text", "a string"));
    };
    let findings = match detector.scan(text) {
        Ok(f) => f,
        Err(e) => return LineResult::error(number, parsed.id, &e.to_string()),
    };
    let out = OutLine {
        id: Some(parsed.id),
        findings: output::locate(text, &findings),
    };
    match serde_json::to_string(&out) {
        Ok(json) => LineResult {
            json,
            error: false,
            blocked: false,
            kinds: findings.iter().map(|f| f.kind()).collect(),
        },
        Err(e) => LineResult::error(number, parsed.id, &e.to_string()),
    }
}
