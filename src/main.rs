//! The `palisade` command line: a thin layer over the library (see `src/cli/`).
//!
//! Exit codes follow grep: 0 success (nothing blocked), 1 a draft is blocked (or a rule file
//! has failing examples), 2 a usage or input error.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
