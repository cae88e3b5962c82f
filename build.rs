//! Computes the anchor literals of the embedded rules' patterns ahead of time (see
//! `src/rules/anchor.rs`), so a process does not parse some two hundred patterns at start-up.
//! Patterns whose anchors are not in the table (a user's files, an edited copy of an embedded
//! file) are analysed at load time by the same code.

#[allow(dead_code)]
#[path = "src/rules/anchor.rs"]
mod anchor;

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules/anchor.rs");
    let mut entries: Vec<(String, Option<anchor::Anchor>)> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("rules")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for path in files {
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
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
            entries.push((pattern.to_owned(), anchor::literal_anchor(&hir)));
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::from(
        "/// `(max offset, literals, first bytes, word start)` of an anchor.\n\
         pub(crate) type AnchorRow = (usize, &'static [&'static [u8]], Option<&'static [u8]>, bool);\n\
         /// `(pattern, anchor)` of every embedded pattern, sorted by pattern; `None`: no anchor.\n\
         pub(crate) static BUILTIN_ANCHORS: &[(&str, Option<AnchorRow>)] = &[\n",
    );
    for (pattern, anchor) in &entries {
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
                let _ = write!(out, ", {}))", a.word_start);
            }
        }
        out.push_str("),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_owned()))
        .join("builtin_anchors.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("writing {}: {e}", dest.display());
    }
}
