//! `palisade policy`: the effective policy and the file it came from.

use std::io::{self, Write};

use palisade::Policy;
use serde::Serialize;

use super::Outcome;
use super::config::ConfigOpts;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Print {"source", "policy"} as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Shown<'a> {
    source: String,
    file: Option<&'a std::path::Path>,
    policy: &'a Policy,
}

pub(crate) fn run(args: Args, policy: &Policy, config: &ConfigOpts) -> Outcome {
    let source = config.describe(policy);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(
            &mut out,
            &Shown {
                source,
                file: policy.file(),
                policy,
            },
        )?;
        writeln!(out)?;
    } else {
        writeln!(out, "# policy: {source}")?;
        out.write_all(policy.to_toml().as_bytes())?;
    }
    Ok(0)
}
