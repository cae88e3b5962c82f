//! `palisade query`: clean text that will be used as a search query.

use std::io::{self, Write};

use palisade::Policy;
use serde::Serialize;

use super::Outcome;
use super::config::RuleFiles;
use super::input::InputOpts;
use super::output::{self, Format, FormatOpts, Located};

#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    rules: RuleFiles,
    #[command(flatten)]
    format: FormatOpts,
    #[command(flatten)]
    input: InputOpts,
}

#[derive(Serialize)]
struct CleanedOut<'a> {
    text: &'a str,
    findings: Vec<Located<'a>>,
}

pub(crate) fn run(args: Args, policy: &Policy) -> Outcome {
    let detector =
        super::config::detector(policy, &args.rules.files, None, args.input.max_input_bytes)?;
    let text = args.input.read_stdin()?;
    let out = detector.clean_query(&text)?;
    let mut stdout = io::stdout().lock();
    match args.format.format() {
        Format::Json => {
            serde_json::to_writer(
                &mut stdout,
                &CleanedOut {
                    text: out.text(),
                    findings: output::locate(&text, out.findings()),
                },
            )?;
            writeln!(stdout)?;
        }
        Format::Text => {
            stdout.write_all(out.text().as_bytes())?;
            stdout.flush()?;
            // The cleaned query goes to stdout as it is; what was found, to stderr.
            output::write_findings(&mut io::stderr().lock(), &text, out.findings())?;
        }
    }
    Ok(0)
}
