//! `palisade fence`: clean untrusted text and wrap it in BEGIN/END lines.

use std::io::{self, Write};

use palisade::{Fence, Policy};
use serde::Serialize;

use super::config::RuleFiles;
use super::input::InputOpts;
use super::output::{self, Format, FormatOpts, Located};
use super::{Fail, Outcome};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The block's label, e.g. TICKET_BODY or TOOL_RESULT.
    #[arg(long)]
    label: String,
    /// Who wrote the text, said on the BEGIN line ("a customer"); default: the policy's
    /// [fence] source, else no author is named.
    #[arg(long, value_name = "TEXT")]
    source: Option<String>,
    /// A hex nonce for the END line (8-64 hex digits).
    #[arg(long, conflicts_with = "random_nonce")]
    nonce: Option<String>,
    /// Use a random 128-bit nonce from the operating system.
    #[arg(long)]
    random_nonce: bool,
    #[command(flatten)]
    rules: RuleFiles,
    #[command(flatten)]
    format: FormatOpts,
    #[command(flatten)]
    input: InputOpts,
}

#[derive(Serialize)]
struct FencedOut<'a> {
    fenced: &'a str,
    findings: Vec<Located<'a>>,
}

pub(crate) fn run(args: Args, policy: &Policy) -> Outcome {
    let mut fence = policy
        .fence(&args.label)
        .map_err(|e| Fail::new(format!("--label: {e}")))?;
    if let Some(s) = &args.source {
        fence = Fence::new(&args.label)?
            .with_source(s)
            .map_err(|e| match e {
                palisade::Error::InvalidSetting { reason, .. } => {
                    Fail::new(format!("--source: {reason}"))
                }
                other => other.into(),
            })?;
    }
    if let Some(n) = &args.nonce {
        fence = fence
            .with_nonce(n)
            .map_err(|e| Fail::new(format!("--nonce: {e}")))?;
    } else if args.random_nonce {
        fence = fence.with_random_nonce()?;
    }
    let detector =
        super::config::detector(policy, &args.rules.files, None, args.input.max_input_bytes)?;
    let text = args.input.read_stdin()?;
    let out = detector.fence(&fence, &text)?;
    let mut stdout = io::stdout().lock();
    match args.format.format() {
        Format::Json => {
            serde_json::to_writer(
                &mut stdout,
                &FencedOut {
                    fenced: out.fenced(),
                    findings: output::locate(&text, out.findings()),
                },
            )?;
            writeln!(stdout)?;
        }
        Format::Text => {
            stdout.write_all(out.fenced().as_bytes())?;
            stdout.flush()?;
            // The block goes to stdout untouched (it is pasted into a prompt); the trace of
            // what was removed or recorded goes to stderr.
            output::write_findings(&mut io::stderr().lock(), &text, out.findings())?;
        }
    }
    Ok(0)
}
