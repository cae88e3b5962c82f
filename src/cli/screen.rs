//! `palisade screen`: one draft from stdin, or JSON lines of drafts.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use palisade::{Context, Policy, Screener};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use super::config::{Knobs, build_error};
use super::input::InputOpts;
use super::jsonl::{self, LineResult, Shape, StreamOpts};
use super::output::{self, Format, FormatOpts, Located, ReportOut};
use super::{Fail, Outcome};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// This ticket's id: any text without whitespace (#48213, ORD-31415, a UUID). Required
    /// unless --no-ticket or --jsonl.
    #[arg(long, required_unless_present_any = ["jsonl", "no_ticket"])]
    ticket_id: Option<String>,
    /// The draft answers no ticket (every UUID in it is foreign); with --jsonl, lines may
    /// leave out ticket_id.
    #[arg(long, conflicts_with = "ticket_id")]
    no_ticket: bool,
    /// The ticket's text: numbers, ids and emails the customer wrote there may be repeated
    /// (not card numbers or IBANs).
    #[arg(long, value_name = "FILE")]
    ticket_text: Option<PathBuf>,
    /// Another id that belongs to this ticket (repeatable).
    #[arg(long = "allow-id", value_name = "ID")]
    allow_ids: Vec<String>,
    /// An email address, @domain or *@domain the draft may contain (repeatable).
    #[arg(long = "allow-email", value_name = "ADDR")]
    allow_emails: Vec<String>,
    /// A number the draft may contain, compared by its digits (repeatable).
    #[arg(long = "allow-number", value_name = "NUMBER")]
    allow_numbers: Vec<String>,
    /// Word limit (default: the policy's, else 80).
    #[arg(long)]
    max_words: Option<usize>,
    #[command(flatten)]
    knobs: Knobs,
    #[command(flatten)]
    format: FormatOpts,
    /// Read JSON lines {"id", "ticket_id", "text", ...} and print one report per line.
    #[arg(long, conflicts_with_all = ["ticket_id", "json", "format", "ticket_text"])]
    jsonl: bool,
    #[command(flatten)]
    stream: StreamOpts,
    #[command(flatten)]
    input: InputOpts,
}

/// Everything a draft's context gets besides its own line: the policy, then the flags.
struct Base {
    policy: Policy,
    allow_ids: Vec<String>,
    allow_emails: Vec<String>,
    allow_numbers: Vec<String>,
    max_words: Option<usize>,
}

impl Base {
    /// `flag` names the flag or field a bad id came from.
    fn context(&self, ticket: Option<&str>, flag: &str) -> Result<Context, String> {
        let mut ctx = self
            .policy
            .context(ticket)
            .map_err(|e| format!("{flag}: {e}"))?;
        for id in &self.allow_ids {
            ctx = ctx.allow_id(id).map_err(|e| format!("--allow-id: {e}"))?;
        }
        for e in &self.allow_emails {
            ctx = ctx.allow_email(e);
        }
        for n in &self.allow_numbers {
            ctx = ctx
                .allow_number(n)
                .map_err(|e| format!("--allow-number: {e}"))?;
        }
        if let Some(n) = self.max_words {
            ctx = ctx.max_words(n);
        }
        Ok(ctx)
    }
}

pub(crate) fn run(args: Args, policy: &Policy) -> Outcome {
    let mut builder = args.knobs.screener(policy)?;
    if let Some(n) = args.input.max_input_bytes {
        builder = builder.max_input_bytes(n);
    }
    let screener = builder.build().map_err(build_error)?;
    let base = Base {
        policy: policy.clone(),
        allow_ids: args.allow_ids,
        allow_emails: args.allow_emails,
        allow_numbers: args.allow_numbers,
        max_words: args.max_words,
    };
    if args.jsonl {
        // A bad flag is an error before any line is read.
        base.context(None, "--allow-id").map_err(Fail::new)?;
        let no_ticket = args.no_ticket;
        let handler = move |n: usize, line: &str| screen_line(&screener, &base, no_ticket, n, line);
        let limit = args
            .input
            .max_input_bytes
            .unwrap_or(palisade::DEFAULT_MAX_INPUT_BYTES);
        return jsonl::run(&args.stream, args.input.lossy, limit, Arc::new(handler));
    }
    let mut ctx = base
        .context(args.ticket_id.as_deref(), "--ticket-id")
        .map_err(Fail::new)?;
    if let Some(path) = &args.ticket_text {
        ctx = ctx.ticket_text(&args.input.read_file(path, "--ticket-text")?);
    }
    let text = args.input.read_stdin()?;
    let report = screener.screen(&ctx, &text)?;
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format.format() {
        Format::Json => {
            serde_json::to_writer(&mut out, &ReportOut::new(&text, &report))?;
            writeln!(out)?;
        }
        Format::Text => output::write_report(&mut out, &text, &report)?,
    }
    out.flush()?;
    Ok(u8::from(report.is_blocked()))
}

/// Present and null (`Some(None)`) differs from absent (`None`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// One `screen --jsonl` input line. Unknown fields and duplicated keys are errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InLine<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    ticket_id: Option<Option<String>>,
    #[serde(borrow)]
    ticket_text: Option<Cow<'a, str>>,
    allow_ids: Option<Vec<String>>,
    allow_emails: Option<Vec<String>>,
    allow_numbers: Option<Vec<String>>,
    max_words: Option<u64>,
}

const FIELDS: &[(&str, Shape)] = &[
    ("id", Shape::Any),
    ("text", Shape::Str),
    ("ticket_id", Shape::StrOrNull),
    ("ticket_text", Shape::StrOrNull),
    ("allow_ids", Shape::Strings),
    ("allow_emails", Shape::Strings),
    ("allow_numbers", Shape::Strings),
    ("max_words", Shape::Count),
];

/// One `screen --jsonl` output line.
#[derive(Serialize)]
struct OutLine<'a> {
    id: Option<&'a RawValue>,
    blocked: bool,
    findings: Vec<Located<'a>>,
}

fn screen_line(
    screener: &Screener,
    base: &Base,
    no_ticket: bool,
    number: usize,
    line: &str,
) -> LineResult {
    let parsed: InLine<'_> = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(e) => {
            let id = jsonl::id_of(line);
            return LineResult::error(number, id.as_deref(), &jsonl::explain(line, &e, FIELDS));
        }
    };
    let fail = |message: String| LineResult::error(number, parsed.id, &message);
    let Some(text) = parsed.text.as_deref() else {
        return fail(jsonl::missing(line, "text", "a string"));
    };
    let ticket = match &parsed.ticket_id {
        Some(t) => t.as_deref(),
        None if no_ticket => None,
        None => {
            return fail(
                "missing field \"ticket_id\" (null, or --no-ticket, for a draft with no ticket)"
                    .to_owned(),
            );
        }
    };
    let mut ctx = match base.context(ticket, "field \"ticket_id\"") {
        Ok(c) => c,
        Err(m) => return fail(m),
    };
    for id in parsed.allow_ids.iter().flatten() {
        match ctx.allow_id(id) {
            Ok(c) => ctx = c,
            Err(e) => return fail(format!("field \"allow_ids\": {e}")),
        }
    }
    for e in parsed.allow_emails.iter().flatten() {
        ctx = ctx.allow_email(e);
    }
    for n in parsed.allow_numbers.iter().flatten() {
        match ctx.allow_number(n) {
            Ok(c) => ctx = c,
            Err(e) => return fail(format!("field \"allow_numbers\": {e}")),
        }
    }
    if let Some(t) = &parsed.ticket_text {
        ctx = ctx.ticket_text(t);
    }
    if let Some(n) = parsed.max_words {
        ctx = ctx.max_words(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let report = match screener.screen(&ctx, text) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    let out = OutLine {
        id: parsed.id,
        blocked: report.is_blocked(),
        findings: output::locate(text, report.findings()),
    };
    match serde_json::to_string(&out) {
        Ok(json) => LineResult {
            json,
            error: false,
            blocked: report.is_blocked(),
            kinds: report.findings().iter().map(|f| f.kind()).collect(),
        },
        Err(e) => fail(e.to_string()),
    }
}
