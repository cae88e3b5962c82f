//! The subcommands, one file each, over shared input, policy, output and JSONL code.
//!
//! A new subcommand is a file with an `Args` struct and a `run` function, a variant of
//! [`Command`] and an arm in [`run`]; a new output format is a variant of
//! [`output::Format`] and a file that writes it.

mod config;
mod fence;
mod gate;
mod html;
mod input;
mod jsonl;
mod output;
mod policy;
mod query;
mod rules;
mod scan;
mod screen;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "palisade",
    version,
    about = "Guardrails for LLM support agents: fence untrusted text, screen drafted replies.",
    after_help = "Policy: settings are read from --config FILE, else from ./palisade.toml when \
                  present, else the built-in defaults (--no-config ignores the file). \
                  `palisade policy` prints the effective policy and which file it came from."
)]
struct Cli {
    #[command(flatten)]
    config: config::ConfigOpts,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fence untrusted text read on stdin: clean it and wrap it in BEGIN/END lines.
    Fence(fence::Args),
    /// Scan untrusted text for injection-shaped and hidden text (NOTICE findings only).
    Scan(scan::Args),
    /// Clean text that will be used as a search query (no fence lines).
    Query(query::Args),
    /// Screen a drafted reply read on stdin (exit 1 when blocked).
    Screen(screen::Args),
    /// List the rules, or check rule files.
    Rules(rules::Args),
    /// Print the effective policy and the file it came from.
    Policy(policy::Args),
    /// The tool-call gate: check proposed calls, approve, record outcomes, audit.
    Gate {
        #[command(subcommand)]
        action: gate::GateCommand,
    },
    /// Check tool spec files (tools.toml) and run their examples.
    Tools {
        #[command(subcommand)]
        action: gate::ToolsCommand,
    },
}

/// A failure that ends the run: exit 2 with one line on stderr, or quietly with exit 0 when
/// the reader of stdout has gone (`palisade rules --json | head -1`), as grep does.
pub(crate) enum Fail {
    Message(String),
    ClosedPipe,
}

impl Fail {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Fail::Message(message.into())
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fail::ClosedPipe
        } else {
            Fail::Message(e.to_string())
        }
    }
}

impl From<serde_json::Error> for Fail {
    fn from(e: serde_json::Error) -> Self {
        match e.io_error_kind() {
            Some(io::ErrorKind::BrokenPipe) => Fail::ClosedPipe,
            _ => Fail::Message(e.to_string()),
        }
    }
}

impl From<palisade::Error> for Fail {
    fn from(e: palisade::Error) -> Self {
        Fail::Message(e.to_string())
    }
}

/// What a subcommand returns: its exit code, or a failure.
pub(crate) type Outcome = Result<u8, Fail>;

pub(crate) fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Fail::ClosedPipe) => ExitCode::SUCCESS,
        Err(Fail::Message(message)) => {
            let _ = writeln!(io::stderr(), "palisade: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Outcome {
    let policy = cli.config.load()?;
    match cli.command {
        Command::Fence(args) => fence::run(args, &policy),
        Command::Scan(args) => scan::run(args, &policy),
        Command::Query(args) => query::run(args, &policy),
        Command::Screen(args) => screen::run(args, &policy),
        Command::Rules(args) => rules::run(args, &policy),
        Command::Policy(args) => policy::run(args, &policy, &cli.config),
        Command::Gate { action } => gate::run_gate(action).map_err(Fail::new),
        Command::Tools { action } => gate::run_tools(action).map_err(Fail::new),
    }
}
