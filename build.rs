//! Does two pieces of start-up work for the embedded rules ahead of time:
//!
//! - the anchor literals of their patterns (see `src/rules/anchor.rs`) and the run of encoding
//!   bytes every match holds (`src/rules/token_run.rs`), so a process does not parse some two
//!   hundred patterns at start-up. Patterns that are not in the table (a user's files) are
//!   analysed at load time by the same code;
//! - the NFAs of their patterns (see `src/rules/nfa_code.rs`), which a rule's lazy DFA is built
//!   from without parsing or compiling the pattern;
//! - the rule tables of each embedded file as static data (`builtin_specs.rs`), so a process
//!   does not parse the embedded TOML (most of the CLI's start-up work). A file this script
//!   cannot take apart exactly as the library's serde types would (an unknown key, a value of
//!   an unexpected type) gets no table and is parsed at run time, which reports the problem.

#[allow(dead_code)]
#[path = "src/rules/anchor.rs"]
mod anchor;
#[allow(dead_code)]
#[path = "src/rules/nfa_code.rs"]
mod nfa_code;
#[path = "src/rules/spec_rows.rs"]
mod spec_rows;
#[allow(dead_code)]
#[path = "src/rules/start.rs"]
mod start;
#[path = "src/rules/token_run.rs"]
mod token_run;

/// The bytes of encoded runs, which `token_run.rs` reads from `crate::decode`: the library's test
/// `precomputed_anchors_match` holds the runs written from this copy to the library's own.
mod decode {
    pub(crate) fn is_run_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
    }
}

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules/anchor.rs");
    println!("cargo:rerun-if-changed=src/rules/spec_rows.rs");
    println!("cargo:rerun-if-changed=src/rules/nfa_code.rs");
    println!("cargo:rerun-if-changed=src/rules/token_run.rs");
    println!("cargo:rerun-if-changed=src/rules/start.rs");
    let mut entries: Vec<(String, Option<anchor::Anchor>, usize)> = Vec::new();
    let mut nfas: Vec<(String, Vec<u8>)> = Vec::new();
    for path in rule_files() {
        println!("cargo:rerun-if-changed={}", path.display());
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        // A file that does not parse is reported by the library at load time, not here.
        let Ok(table) = source.parse::<toml::Table>() else {
            continue;
        };
        let rules = table.get("rule").and_then(|r| r.as_array());
        for rule in rules.into_iter().flatten() {
            let Some(pattern) = rule.get("pattern").and_then(|p| p.as_str()) else {
                continue;
            };
            let Some(hir) = anchor::parse_hir(pattern) else {
                continue;
            };
            entries.push((
                pattern.to_owned(),
                anchor::literal_anchor(&hir),
                token_run::required_run(&hir),
            ));
            // A pattern over the limit gets no NFA here; the library reports it.
            if let Some(code) = nfa_code::compile(pattern, nfa_code::WRITTEN_SIZE_LIMIT)
                .and_then(|nfa| nfa_code::encode(&nfa))
            {
                nfas.push((pattern.to_owned(), code));
            }
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::from(
        "/// `(max offset, literals, first bytes, word start, start condition)` of an anchor.\n\
         pub(crate) type AnchorRow = (\n\
         \x20   usize,\n\
         \x20   &'static [&'static [u8]],\n\
         \x20   Option<&'static [u8]>,\n\
         \x20   bool,\n\
         \x20   Option<(u8, &'static [u8])>,\n\
         );\n\
         /// `(pattern, anchor, run)` of every embedded pattern, sorted by pattern (anchor `None`:\n\
         /// none; run: the run of encoding bytes every match holds).\n\
         pub(crate) static BUILTIN_ANCHORS: &[(&str, Option<AnchorRow>, usize)] = &[\n",
    );
    for (pattern, anchor, run) in &entries {
        let _ = write!(out, "    ({pattern:?}, ");
        match anchor {
            None => out.push_str("None"),
            Some(a) => {
                let _ = write!(out, "Some(({}, &[", a.max_offset);
                for lit in &a.literals {
                    let _ = write!(out, "&{lit:?}, ");
                }
                match &a.first_bytes {
                    None => out.push_str("], None"),
                    Some(b) => {
                        let _ = write!(out, "], Some(&{b:?})");
                    }
                }
                let _ = write!(out, ", {}, ", a.word_start);
                match &a.start {
                    None => out.push_str("None))"),
                    Some(c) => {
                        let _ = write!(out, "Some(({}, &{:?}))))", c.looks, c.bytes);
                    }
                }
            }
        }
        let _ = writeln!(out, ", {run}),");
    }
    out.push_str("];\n");
    write_out("builtin_anchors.rs", &out);
    nfas.sort();
    nfas.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::from(
        "/// `(pattern, NFA)` of every embedded pattern, sorted by pattern (see `nfa_code.rs`).\n\
         pub(crate) static BUILTIN_NFAS: &[(&str, &[u8])] = &[\n",
    );
    for (pattern, code) in &nfas {
        let _ = writeln!(out, "    ({pattern:?}, &{code:?}),");
    }
    out.push_str("];\n");
    write_out("builtin_nfas.rs", &out);
    write_out("builtin_specs.rs", &builtin_specs());
}

/// The `.toml` files in `rules/`, sorted by name.
fn rule_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir("rules")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    files.sort();
    files
}

fn write_out(name: &str, contents: &str) {
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_owned())).join(name);
    if let Err(e) = std::fs::write(&dest, contents) {
        panic!("writing {}: {e}", dest.display());
    }
}

/// `BUILTIN_SPECS`: `(file name, rows)` of every file in `rules/`, sorted by name; rows `None`
/// when the file is left to the run-time parser. `BUILTIN_WORDS` the same for `[[words]]`.
fn builtin_specs() -> String {
    let mut out = String::from(
        "/// `(file, rows)` of every embedded rule file's `[[words]]` (rows `None`: parse the TOML).\n\
         pub(crate) static BUILTIN_WORDS: &[(&str, Option<&[WordsRow]>)] = &[\n",
    );
    for path in rule_files() {
        let name = format!(
            "rules/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let rows = std::fs::read_to_string(&path)
            .ok()
            .and_then(|source| spec_rows::words_rows(&source));
        match rows {
            Some(rows) => {
                let _ = writeln!(out, "    ({name:?}, Some(&[\n{rows}    ])),");
            }
            None => {
                let _ = writeln!(out, "    ({name:?}, None),");
            }
        }
    }
    out.push_str("];\n");
    out.push_str(
        "/// `(file, rows)` of every embedded rule file (rows `None`: parse the TOML).\n\
         pub(crate) static BUILTIN_SPECS: &[(&str, Option<&[SpecRow]>)] = &[\n",
    );
    for path in rule_files() {
        let name = format!(
            "rules/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let rows = std::fs::read_to_string(&path)
            .ok()
            .and_then(|source| spec_rows::file_rows(&source));
        match rows {
            Some(rows) => {
                let _ = writeln!(out, "    ({name:?}, Some(&[\n{rows}    ])),");
            }
            None => {
                let _ = writeln!(out, "    ({name:?}, None),");
            }
        }
    }
    out.push_str("];\n");
    out
}
