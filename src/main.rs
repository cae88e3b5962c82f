//! The `palisade` command line: a thin layer over the library.
//!
//! Exit codes follow grep: 0 success (nothing blocked), 1 a draft is blocked (or a rule file
//! has failing examples), 2 a usage or input error.

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use palisade::{Context, Detector, Fence, Finding, Report, Screener, ScreenerBuilder};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

mod gate_cli;

#[derive(Parser)]
#[command(
    name = "palisade",
    version,
    about = "Guardrails for LLM support agents: fence untrusted text, screen drafted replies."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fence untrusted text read on stdin: clean it and wrap it in BEGIN/END lines.
    Fence {
        /// The block's label, e.g. TICKET_BODY.
        #[arg(long)]
        label: String,
        /// A hex nonce for the END line (8-64 hex digits).
        #[arg(long, conflicts_with = "random_nonce")]
        nonce: Option<String>,
        /// Use a random 128-bit nonce from the operating system.
        #[arg(long)]
        random_nonce: bool,
        /// Print {"fenced": ..., "findings": [...]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Scan untrusted text for injection-shaped and hidden text (NOTICE findings only).
    Scan {
        /// Read JSON lines {"id", "text"} and print one {"id", "findings"} per line.
        #[arg(long)]
        jsonl: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Clean text that will be used as a search query (no fence lines).
    Query {
        /// Print {"text": ..., "findings": [...]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Screen a drafted reply read on stdin (exit 1 when blocked).
    Screen(ScreenArgs),
    /// The tool-call gate: check proposed calls, approve, record outcomes, audit.
    Gate {
        #[command(subcommand)]
        action: gate_cli::GateCommand,
    },
    /// Check tool spec files (tools.toml) and run their examples.
    Tools {
        #[command(subcommand)]
        action: gate_cli::ToolsCommand,
    },
    /// List the rules, or check rule files.
    Rules {
        #[command(subcommand)]
        action: Option<RulesAction>,
        /// Print JSON lines, one per rule.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Print the Markdown table that docs/rules.md holds.
        #[arg(long)]
        markdown: bool,
        /// Extra rule files to load.
        #[arg(long = "rules", value_name = "FILE")]
        rules: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum RulesAction {
    /// Validate rule files and run their examples (no files: the embedded rules).
    Check {
        /// Rule files.
        files: Vec<PathBuf>,
    },
}

#[derive(Args)]
struct InputOpts {
    /// Replace invalid UTF-8 with U+FFFD (and say so on stderr) instead of failing.
    #[arg(long)]
    lossy: bool,
    /// Largest text accepted, in bytes (default 1 MiB); a larger one is an error.
    #[arg(long, value_name = "BYTES")]
    max_input_bytes: Option<usize>,
}

impl InputOpts {
    /// The default detector, or one with the requested input limit.
    fn detector(&self) -> Result<Detector, Fail> {
        Ok(match self.max_input_bytes {
            Some(n) => Detector::builder().max_input_bytes(n).build()?,
            None => Detector::new(),
        })
    }
}

#[derive(Args)]
struct ScreenArgs {
    /// This ticket's id (a UUID). Required unless --jsonl.
    #[arg(long, required_unless_present = "jsonl")]
    ticket_id: Option<String>,
    /// Another id that belongs to this ticket.
    #[arg(long = "allow-id", value_name = "ID")]
    allow_ids: Vec<String>,
    /// An email address or @domain the draft may contain.
    #[arg(long = "allow-email", value_name = "ADDR")]
    allow_emails: Vec<String>,
    /// Word limit.
    #[arg(long)]
    max_words: Option<usize>,
    /// Extra rule files.
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<PathBuf>,
    /// Print {"blocked", "findings"} as JSON.
    #[arg(long)]
    json: bool,
    /// Read JSON lines {"id", "ticket_id", "text", ...} and print one report per line.
    #[arg(long, conflicts_with_all = ["ticket_id", "json"])]
    jsonl: bool,
    #[command(flatten)]
    input: InputOpts,
}

/// A failure that ends the run with exit code 2 and one line on stderr.
struct Fail(String);

impl<E: std::fmt::Display> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Fail(message)) => {
            let _ = writeln!(io::stderr(), "palisade: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Fail> {
    match cli.command {
        Command::Fence {
            label,
            nonce,
            random_nonce,
            json,
            input,
        } => {
            let mut fence = Fence::new(&label)?;
            if let Some(n) = nonce {
                fence = fence.with_nonce(&n)?;
            } else if random_nonce {
                fence = fence.with_random_nonce()?;
            }
            let text = read_stdin(&input)?;
            let out = input.detector()?.fence(&fence, &text)?;
            let mut stdout = io::stdout().lock();
            if json {
                serde_json::to_writer(&mut stdout, &out)?;
                writeln!(stdout)?;
            } else {
                stdout.write_all(out.fenced().as_bytes())?;
                // The block goes to stdout untouched (it is pasted into a prompt); the trace of
                // what was removed or recorded goes to stderr.
                let mut stderr = io::stderr().lock();
                for f in out.findings() {
                    writeln!(
                        stderr,
                        "{} {} {}..{}: {}",
                        f.severity(),
                        f.rule(),
                        f.span().start,
                        f.span().end,
                        f.message()
                    )?;
                }
            }
            Ok(0)
        }
        Command::Scan { jsonl, input } => {
            let detector = input.detector()?;
            if jsonl {
                let text = read_stdin(&input)?;
                return run_jsonl(
                    &text,
                    |line| scan_line_fast(&detector, line),
                    |value| scan_line(&detector, value),
                );
            }
            let text = read_stdin(&input)?;
            let findings = detector.scan(&text)?;
            let mut stdout = io::stdout().lock();
            serde_json::to_writer(
                &mut stdout,
                &ScanLine {
                    id: None,
                    findings: &findings,
                },
            )?;
            writeln!(stdout)?;
            Ok(0)
        }
        Command::Query { json, input } => {
            let text = read_stdin(&input)?;
            let out = input.detector()?.clean_query(&text)?;
            let mut stdout = io::stdout().lock();
            if json {
                serde_json::to_writer(&mut stdout, &out)?;
                writeln!(stdout)?;
            } else {
                stdout.write_all(out.text().as_bytes())?;
            }
            Ok(0)
        }
        Command::Screen(args) => screen(args),
        Command::Gate { action } => gate_cli::run_gate(action).map_err(Fail),
        Command::Tools { action } => gate_cli::run_tools(action).map_err(Fail),
        Command::Rules {
            action: Some(RulesAction::Check { files }),
            ..
        } => rules_check(&files),
        Command::Rules {
            action: None,
            json,
            markdown,
            rules,
        } => {
            let screener = builder_with(&rules).build()?;
            let mut stdout = BufWriter::new(io::stdout().lock());
            if markdown {
                write_markdown(&mut stdout, &screener)?;
                stdout.flush()?;
                return Ok(0);
            }
            for r in screener.rules() {
                if json {
                    serde_json::to_writer(&mut stdout, r)?;
                    writeln!(stdout)?;
                } else {
                    writeln!(
                        stdout,
                        "{:<48} {:<13} {:<7} {}",
                        r.id, r.kind, r.severity, r.description
                    )?;
                }
            }
            stdout.flush()?;
            Ok(0)
        }
    }
}

/// The rule table of docs/rules.md (a test keeps the file in step with the rule files).
fn write_markdown(out: &mut impl Write, screener: &Screener) -> io::Result<()> {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    writeln!(out, "# Rules")?;
    writeln!(out)?;
    writeln!(
        out,
        "Generated by `cargo run -- rules --markdown > docs/rules.md` from the files in `rules/`; \
         `tests/it/rules_files.rs` fails when this file is stale."
    )?;
    writeln!(out)?;
    let count = screener.rules().count();
    writeln!(out, "{count} rules.")?;
    writeln!(out)?;
    writeln!(out, "| id | kind | severity | what it flags | why |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    for r in screener.rules() {
        writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            r.id,
            r.kind,
            r.severity,
            cell(&r.description),
            cell(&r.rationale)
        )?;
    }
    Ok(())
}

fn builder_with(files: &[PathBuf]) -> ScreenerBuilder {
    files
        .iter()
        .fold(Screener::builder(), |b, f| b.rules_file(f))
}

fn rules_check(files: &[PathBuf]) -> Result<u8, Fail> {
    let problems = builder_with(files).check_examples()?;
    let mut stderr = io::stderr().lock();
    for p in &problems {
        writeln!(stderr, "{p}")?;
    }
    if problems.is_empty() {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        let what = if names.is_empty() {
            "embedded rules".to_owned()
        } else {
            names.join(", ")
        };
        writeln!(
            io::stdout(),
            "ok: {what}: every example and negative example passes"
        )?;
        Ok(0)
    } else {
        writeln!(stderr, "{} problem(s)", problems.len())?;
        Ok(1)
    }
}

/// Reads all of stdin as UTF-8. Invalid UTF-8 is an error naming the byte offset, unless
/// `--lossy`, which replaces it and says so on stderr.
fn read_stdin(opts: &InputOpts) -> Result<String, Fail> {
    let mut bytes = Vec::new();
    io::stdin().lock().read_to_end(&mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            if opts.lossy {
                let bytes = e.into_bytes();
                let _ = writeln!(
                    io::stderr(),
                    "palisade: input is not valid UTF-8 (first bad byte at offset {offset}); \
                     replaced invalid sequences with U+FFFD"
                );
                Ok(String::from_utf8_lossy(&bytes).into_owned())
            } else {
                Err(Fail(format!(
                    "input is not valid UTF-8: invalid byte at offset {offset} (use --lossy to replace)"
                )))
            }
        }
    }
}

#[derive(Serialize)]
struct LineError<'a> {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a Value>,
    error: String,
}

/// The outcome of one JSONL line: the JSON to print, whether it was an error, whether blocked.
struct LineOutcome {
    json: String,
    error: bool,
    blocked: bool,
}

fn error_line(line: usize, id: Option<&Value>, error: String) -> LineOutcome {
    let json = serde_json::to_string(&LineError { line, id, error })
        .unwrap_or_else(|_| format!("{{\"line\":{line},\"error\":\"unserialisable error\"}}"));
    LineOutcome {
        json,
        error: true,
        blocked: false,
    }
}

/// Processes JSON lines in input order, using every core for large batches. Every input line
/// produces exactly one output line: from `fast` when it answers (a well-formed line, read
/// without building a JSON tree), else from `handle`, which also reports errors. Exit code: 2 if any line was an error, else 1 if any
/// draft was blocked, else 0.
fn run_jsonl(
    input: &str,
    fast: impl Fn(&str) -> Option<(String, bool)> + Sync,
    handle: impl Fn(&Value) -> Result<(String, bool), String> + Sync,
) -> Result<u8, Fail> {
    let lines: Vec<&str> = if input.is_empty() {
        Vec::new()
    } else {
        input
            .strip_suffix('\n')
            .unwrap_or(input)
            .split('\n')
            .collect()
    };
    let process = |index: usize, line: &str| -> LineOutcome {
        let number = index + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((json, blocked)) = fast(line) {
            return LineOutcome {
                json,
                error: false,
                blocked,
            };
        }
        // Anything the typed reading could not take (a missing or mistyped field, bad JSON)
        // is read again as a JSON value, which says what is wrong.
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return error_line(number, None, format!("malformed JSON: {e}")),
        };
        match handle(&value) {
            Ok((json, blocked)) => LineOutcome {
                json,
                error: false,
                blocked,
            },
            Err(message) => error_line(number, value.get("id"), message),
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut stdout = BufWriter::new(io::stdout().lock());
    let (mut any_error, mut any_blocked) = (false, false);
    const BATCH: usize = 8192;
    for (batch_no, batch) in lines.chunks(BATCH).enumerate() {
        let base = batch_no * BATCH;
        let outcomes: Vec<LineOutcome> = if threads > 1 && batch.len() >= 64 {
            let per = batch.len().div_ceil(threads);
            std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(per)
                    .enumerate()
                    .map(|(c, chunk)| {
                        let process = &process;
                        s.spawn(move || {
                            chunk
                                .iter()
                                .enumerate()
                                .map(|(i, l)| process(base + c * per + i, l))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| match h.join() {
                        Ok(v) => v,
                        Err(_) => vec![error_line(0, None, "worker thread panicked".to_owned())],
                    })
                    .collect()
            })
        } else {
            batch
                .iter()
                .enumerate()
                .map(|(i, l)| process(base + i, l))
                .collect()
        };
        for o in outcomes {
            any_error |= o.error;
            any_blocked |= o.blocked;
            stdout.write_all(o.json.as_bytes())?;
            stdout.write_all(b"\n")?;
        }
    }
    stdout.flush()?;
    Ok(if any_error {
        2
    } else if any_blocked {
        1
    } else {
        0
    })
}

fn text_field(value: &Value) -> Result<&str, String> {
    match value.get("text") {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err("field \"text\" is not a string".to_owned()),
        None => Err("missing field \"text\"".to_owned()),
    }
}

/// One `scan` output object (`--jsonl`: one per input line, with its id), serialised
/// directly, keys in the documented order.
#[derive(Serialize)]
struct ScanLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a Value>,
    findings: &'a [Finding],
}

/// One `screen --jsonl` output line.
#[derive(Serialize)]
struct ScreenLine<'a> {
    id: &'a Value,
    blocked: bool,
    findings: &'a [Finding],
}

/// A `scan --jsonl` or `screen --jsonl` input line read straight into its fields (texts
/// borrowed from the line unless escaped, the id kept as written).
#[derive(serde::Deserialize)]
struct TypedLine<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    ticket_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    allow_ids: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default)]
    allow_emails: Option<Vec<Cow<'a, str>>>,
    max_words: Option<u64>,
}

/// The output of a well-formed `scan --jsonl` line; `None` sends it to [`scan_line`].
fn scan_line_fast(detector: &Detector, line: &str) -> Option<(String, bool)> {
    let typed: TypedLine<'_> = serde_json::from_str(line).ok()?;
    let findings = detector.scan(typed.text.as_deref()?).ok()?;
    let json = serde_json::to_string(&ScanLineRaw {
        id: typed.id,
        findings: &findings,
    })
    .ok()?;
    Some((json, false))
}

/// The output of a well-formed `screen --jsonl` line; `None` sends it to the
/// [`Value`]-based reading, which reports what is wrong.
fn screen_line_fast(screener: &Screener, line: &str) -> Option<(String, bool)> {
    let typed: TypedLine<'_> = serde_json::from_str(line).ok()?;
    let mut ctx = Context::new(typed.ticket_id.as_deref()?).ok()?;
    for id in typed.allow_ids.iter().flatten() {
        ctx = ctx.allow_id(id).ok()?;
    }
    for email in typed.allow_emails.iter().flatten() {
        ctx = ctx.allow_email(email);
    }
    if let Some(n) = typed.max_words {
        ctx = ctx.max_words(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let report = screener.screen(&ctx, typed.text.as_deref()?).ok()?;
    let json = serde_json::to_string(&ScreenLineRaw {
        id: typed.id,
        blocked: report.is_blocked(),
        findings: report.findings(),
    })
    .ok()?;
    Some((json, report.is_blocked()))
}

/// [`ScanLine`] with the id as written in the input (`null` when absent).
#[derive(Serialize)]
struct ScanLineRaw<'a> {
    id: Option<&'a RawValue>,
    findings: &'a [Finding],
}

/// [`ScreenLine`] with the id as written in the input (`null` when absent).
#[derive(Serialize)]
struct ScreenLineRaw<'a> {
    id: Option<&'a RawValue>,
    blocked: bool,
    findings: &'a [Finding],
}

fn scan_line(detector: &Detector, value: &Value) -> Result<(String, bool), String> {
    let text = text_field(value)?;
    let findings = detector.scan(text).map_err(|e| e.to_string())?;
    let json = serde_json::to_string(&ScanLine {
        id: Some(value.get("id").unwrap_or(&Value::Null)),
        findings: &findings,
    })
    .map_err(|e| e.to_string())?;
    Ok((json, false))
}

fn string_list(value: &Value, field: &str) -> Result<Vec<String>, String> {
    match value.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("field \"{field}\" must be an array of strings"))
            })
            .collect(),
        Some(_) => Err(format!("field \"{field}\" must be an array of strings")),
    }
}

fn context_from(value: &Value) -> Result<Context, String> {
    let ticket = match value.get("ticket_id") {
        Some(Value::String(s)) => s,
        Some(_) => return Err("field \"ticket_id\" is not a string".to_owned()),
        None => return Err("missing field \"ticket_id\"".to_owned()),
    };
    let mut ctx = Context::new(ticket).map_err(|e| format!("field \"ticket_id\": {e}"))?;
    for id in string_list(value, "allow_ids")? {
        ctx = ctx
            .allow_id(&id)
            .map_err(|e| format!("field \"allow_ids\": {e}"))?;
    }
    for email in string_list(value, "allow_emails")? {
        ctx = ctx.allow_email(&email);
    }
    match value.get("max_words") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let n = v
                .as_u64()
                .ok_or_else(|| "field \"max_words\" must be a non-negative integer".to_owned())?;
            ctx = ctx.max_words(usize::try_from(n).unwrap_or(usize::MAX));
        }
    }
    Ok(ctx)
}

fn screen(args: ScreenArgs) -> Result<u8, Fail> {
    let screener = if args.rules.is_empty() && args.input.max_input_bytes.is_none() {
        Screener::new()
    } else {
        let builder = builder_with(&args.rules);
        match args.input.max_input_bytes {
            Some(n) => builder.max_input_bytes(n),
            None => builder,
        }
        .build()?
    };
    let text = read_stdin(&args.input)?;
    if args.jsonl {
        return run_jsonl(
            &text,
            |line| screen_line_fast(&screener, line),
            |value| {
                let ctx = context_from(value)?;
                let draft = text_field(value)?;
                let report = screener.screen(&ctx, draft).map_err(|e| e.to_string())?;
                let json = serde_json::to_string(&ScreenLine {
                    blocked: report.is_blocked(),
                    findings: report.findings(),
                    id: value.get("id").unwrap_or(&Value::Null),
                })
                .map_err(|e| e.to_string())?;
                Ok((json, report.is_blocked()))
            },
        );
    }
    let ticket = args.ticket_id.unwrap_or_default();
    let mut ctx = Context::new(&ticket).map_err(|e| Fail(format!("--ticket-id: {e}")))?;
    for id in &args.allow_ids {
        ctx = ctx
            .allow_id(id)
            .map_err(|e| Fail(format!("--allow-id: {e}")))?;
    }
    for email in &args.allow_emails {
        ctx = ctx.allow_email(email);
    }
    if let Some(n) = args.max_words {
        ctx = ctx.max_words(n);
    }
    let report = screener.screen(&ctx, &text)?;
    let mut stdout = BufWriter::new(io::stdout().lock());
    if args.json {
        serde_json::to_writer(&mut stdout, &report)?;
        writeln!(stdout)?;
    } else {
        write_human(&mut stdout, &text, &report)?;
    }
    stdout.flush()?;
    Ok(u8::from(report.is_blocked()))
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn write_human(out: &mut impl Write, text: &str, report: &Report) -> io::Result<()> {
    for f in report.findings() {
        let f: &Finding = f;
        let (line, col) = line_col(text, f.span().start);
        writeln!(
            out,
            "{line}:{col}: {} {} ({}): {}",
            f.severity(),
            f.rule(),
            f.kind(),
            f.message()
        )?;
    }
    let blocks = report
        .findings()
        .iter()
        .filter(|f| f.severity() == palisade::Severity::Block)
        .count();
    if report.is_blocked() {
        writeln!(
            out,
            "blocked: {blocks} blocking finding(s), {} in all",
            report.findings().len()
        )
    } else {
        writeln!(out, "ok: {} notice(s)", report.findings().len())
    }
}
