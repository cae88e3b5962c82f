//! `palisade gate ...` and `palisade tools check`: the tool-call gate on the command line.
//!
//! Exit codes as elsewhere: 0 every call answered and none rejected (or the action done),
//! 1 a call was rejected (or an approval, rejection or outcome was refused because the call
//! is not in the right state), 2 a usage, input or database error.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

use clap::Subcommand;
use palisade::{Call, CallStatus, Error, Gate, Ledger, Outcome};
use serde_json::Value;

/// `palisade gate ...`
#[derive(Subcommand)]
pub(crate) enum GateCommand {
    /// Decide JSON lines {"run_id", "tool", "args", "context"?} read on stdin; print one
    /// {"call_id", "key", "status", "reasons", "replayed"} per line.
    Check {
        /// The tool specs.
        #[arg(long, value_name = "FILE")]
        tools: PathBuf,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Approve a call waiting for a person (business rules run again first).
    Approve {
        /// The call id.
        call_id: String,
        /// Who approves.
        #[arg(long)]
        by: String,
        /// Fresh facts for the business rules (JSON); default: the context stored with the call.
        #[arg(long, value_name = "JSON")]
        context: Option<String>,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Reject a call waiting for a person.
    Reject {
        /// The call id.
        call_id: String,
        /// Who rejects.
        #[arg(long)]
        by: String,
        /// Why (recorded, and given to the model).
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Take the execution of an approved call (what repeating `gate check` does too); prints
    /// the stored arguments to execute with, exit 1 when someone else has it.
    Claim {
        /// The call id.
        call_id: String,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Record how an execution ended.
    Done {
        /// The call id.
        call_id: String,
        /// The tool's result (JSON).
        #[arg(
            long,
            value_name = "JSON",
            required_unless_present = "failed",
            conflicts_with = "failed"
        )]
        result: Option<String>,
        /// It failed.
        #[arg(long)]
        failed: bool,
        /// The failure may pass.
        #[arg(long, requires = "failed", conflicts_with = "permanent")]
        transient: bool,
        /// The failure is for good.
        #[arg(long, requires = "failed")]
        permanent: bool,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Print one recorded call as JSON.
    Show {
        /// The call id.
        call_id: String,
        #[command(flatten)]
        db: DbOpt,
    },
    /// Print the audit log.
    Audit {
        /// Only this run.
        #[arg(long = "run", value_name = "RUN_ID")]
        run: Option<String>,
        /// JSON lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        db: DbOpt,
    },
}

/// `palisade tools ...`
#[derive(Subcommand)]
pub(crate) enum ToolsCommand {
    /// Validate tool files and run their examples.
    Check {
        /// Tool files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(clap::Args)]
pub(crate) struct DbOpt {
    /// The ledger: a SQLite file, or a postgresql:// URL (build with `--features postgres`).
    #[arg(long, value_name = "FILE|URL")]
    db: String,
}

fn open(db: &DbOpt) -> Result<Box<dyn Ledger>, String> {
    if db.db.starts_with("postgres://") || db.db.starts_with("postgresql://") {
        #[cfg(feature = "postgres")]
        return Ok(Box::new(
            palisade::PostgresLedger::connect(&db.db).map_err(|e| e.to_string())?,
        ));
        #[cfg(not(feature = "postgres"))]
        return Err("this palisade was built without the `postgres` feature".to_owned());
    }
    #[cfg(feature = "sqlite")]
    return Ok(Box::new(
        palisade::SqliteLedger::open(&db.db).map_err(|e| e.to_string())?,
    ));
    #[cfg(not(feature = "sqlite"))]
    Err("this palisade was built without the `sqlite` feature".to_owned())
}

/// Runs a `gate` subcommand; `Err` is a message for stderr and exit code 2.
pub(crate) fn run_gate(cmd: GateCommand) -> Result<u8, String> {
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    let code = match cmd {
        GateCommand::Check { tools, db } => {
            let gate = Gate::builder()
                .tools_file(&tools)
                .build()
                .map_err(|e| e.to_string())?;
            let ledger = open(&db)?;
            check_lines(&gate, ledger.as_ref(), &mut out)?
        }
        GateCommand::Approve {
            call_id,
            by,
            context,
            db,
        } => {
            // The call's declarative checks are stored with it; no spec file is needed.
            let gate = Gate::builder().build().map_err(|e| e.to_string())?;
            let context: Option<Value> = match context {
                Some(c) => Some(serde_json::from_str(&c).map_err(|e| format!("--context: {e}"))?),
                None => None,
            };
            let ledger = open(&db)?;
            let p = state(gate.approve(ledger.as_ref(), &call_id, &by, context.as_ref()))?;
            match p {
                Some(p) => {
                    print_json(&mut out, &p)?;
                    u8::from(p.status() != CallStatus::Approved)
                }
                None => 1,
            }
        }
        GateCommand::Reject {
            call_id,
            by,
            reason,
            db,
        } => {
            let ledger = open(&db)?;
            let gate = Gate::builder().build().map_err(|e| e.to_string())?;
            match state(gate.reject(ledger.as_ref(), &call_id, &by, &reason))? {
                Some(p) => {
                    print_json(&mut out, &p)?;
                    0
                }
                None => 1,
            }
        }
        GateCommand::Claim { call_id, db } => {
            let ledger = open(&db)?;
            match Gate::claim(ledger.as_ref(), &call_id).map_err(|e| e.to_string())? {
                Some(p) => {
                    print_json(&mut out, &p)?;
                    0
                }
                None => {
                    let _ = writeln!(
                        io::stderr(),
                        "palisade: call {call_id} is not approved or someone else has it"
                    );
                    1
                }
            }
        }
        GateCommand::Done {
            call_id,
            result,
            failed,
            transient,
            permanent: _,
            db,
        } => {
            let outcome = if failed {
                Outcome::Failed { transient }
            } else {
                let text = result.unwrap_or_default();
                Outcome::Done(serde_json::from_str(&text).map_err(|e| format!("--result: {e}"))?)
            };
            let ledger = open(&db)?;
            let gate = Gate::builder().build().map_err(|e| e.to_string())?;
            match state(gate.finish(ledger.as_ref(), &call_id, outcome))? {
                Some(p) => {
                    print_json(&mut out, &p)?;
                    0
                }
                None => 1,
            }
        }
        GateCommand::Show { call_id, db } => {
            let ledger = open(&db)?;
            match Gate::show(ledger.as_ref(), &call_id).map_err(|e| e.to_string())? {
                Some(p) => {
                    print_json(&mut out, &p)?;
                    0
                }
                None => return Err(format!("no call {call_id}")),
            }
        }
        GateCommand::Audit { run, json, db } => {
            let ledger = open(&db)?;
            for e in ledger.audit(run.as_deref()).map_err(|e| e.to_string())? {
                if json {
                    print_json(&mut out, &e)?;
                } else {
                    writeln!(
                        out,
                        "{:>6} {} {} {} {:<9} {:<8} {}",
                        e.id(),
                        e.at(),
                        e.run_id(),
                        e.call_id(),
                        e.event(),
                        e.actor(),
                        e.detail()
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            0
        }
    };
    out.flush().map_err(|e| e.to_string())?;
    Ok(code)
}

/// A refusal because of the call's state is exit 1 (said on stderr); other errors exit 2.
fn state<T>(r: palisade::Result<T>) -> Result<Option<T>, String> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e @ Error::Call { .. }) => {
            let _ = writeln!(io::stderr(), "palisade: {e}");
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}

fn print_json(out: &mut impl Write, v: &impl serde::Serialize) -> Result<(), String> {
    serde_json::to_writer(&mut *out, v).map_err(|e| e.to_string())?;
    writeln!(out).map_err(|e| e.to_string())
}

/// One answer per input line, in order. A malformed line gets {"line", "error"} and makes the
/// exit code 2; a rejected call makes it 1.
fn check_lines(gate: &Gate, ledger: &dyn Ledger, out: &mut impl Write) -> Result<u8, String> {
    let mut code = 0u8;
    for (i, line) in io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| format!("stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Call>(&line) {
            Ok(call) => {
                let answer = gate.check(ledger, &call).map_err(|e| e.to_string())?;
                if answer.status() == CallStatus::Rejected {
                    code = code.max(1);
                }
                print_json(out, &answer)?;
            }
            Err(e) => {
                code = 2;
                print_json(
                    out,
                    &serde_json::json!({"line": i + 1, "error": format!("not a call: {e}")}),
                )?;
            }
        }
    }
    Ok(code)
}

/// Runs a `tools` subcommand.
pub(crate) fn run_tools(cmd: ToolsCommand) -> Result<u8, String> {
    let ToolsCommand::Check { files } = cmd;
    let mut builder = Gate::builder();
    for f in &files {
        builder = builder.tools_file(f);
    }
    let problems = builder.check_examples().map_err(|e| e.to_string())?;
    let mut err = io::stderr().lock();
    for p in &problems {
        let _ = writeln!(err, "{p}");
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    if problems.is_empty() {
        let _ = writeln!(
            err,
            "{}: every tool loads and every example passes",
            names.join(", ")
        );
        Ok(0)
    } else {
        let _ = writeln!(
            err,
            "{}: {} failing example(s)",
            names.join(", "),
            problems.len()
        );
        Ok(1)
    }
}
