//! The crate's shape: what the library compiles, which module may import which, file sizes.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The library's normal dependencies without default features hold no CLI crate, so a library
/// user compiles none of it. Runs `cargo tree` offline (the lock file pins every version).
#[test]
fn library_without_default_features_compiles_no_clap() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let tree = |extra: &[&str]| {
        let out = Command::new(&cargo)
            .current_dir(ROOT)
            .args([
                "tree",
                "-e",
                "normal",
                "--prefix",
                "none",
                "--offline",
                "--locked",
            ])
            .args(extra)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "cargo tree failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let names = |tree: &str| -> Vec<String> {
        tree.lines()
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_owned)
            .collect()
    };
    let lib = names(&tree(&["--no-default-features"]));
    assert!(lib.iter().any(|n| n == "regex"), "{lib:?}");
    assert!(!lib.iter().any(|n| n.starts_with("clap")), "{lib:?}");
    // The check can fail: with the default features the binary's parser is there.
    let full = names(&tree(&[]));
    assert!(full.iter().any(|n| n == "clap"), "{full:?}");
}

/// The crate's modules by layer: a module may use modules of a lower layer, never one of its
/// own layer (other than itself) or above. A new module must be given a layer here.
const LAYERS: &[(&str, u8)] = &[
    // Data types.
    ("error", 0),
    ("finding", 0),
    ("byte_class", 1),
    ("limit", 1),
    // The one view of a text, and encoded runs in it.
    ("normalize", 2),
    ("decode", 2),
    // Readings of the view: hidden text, and the reading skeleton every detector shares.
    ("hidden_text", 3),
    ("skeleton", 3),
    // The rule engine: knows no check, no screener, no detector.
    ("rules", 4),
    // Clients of the engine, and the detector's backstops.
    ("fence", 5),
    ("obfuscated", 5),
    ("scorer", 5),
    ("detect", 6),
    ("screen", 6),
    // Built on the clients: review pages, a deployment's policy, the tool-call gate.
    ("html", 7),
    ("policy", 7),
    ("gate", 7),
    // The facade and the binary.
    ("lib", 8),
    ("main", 9),
    ("cli", 9),
    ("gate_cli", 9),
];

/// Imports that point the wrong way today, each to be removed by the change named beside it.
const PENDING: &[(&str, &str)] = &[];

/// Every `crate::` path in code outside `#[cfg(test)]` items points down the layer table.
#[test]
fn no_module_imports_a_layer_above_it() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    assert!(files.len() > 20, "{files:?}");
    let layer = |m: &str| LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l);
    let mut problems = Vec::new();
    let mut edges = 0;
    for file in &files {
        let rel = file
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let module = module_of(&rel);
        // A `tests.rs` is a test module's file (`#[cfg(test)] mod tests;`).
        if rel.ends_with("/tests.rs") {
            continue;
        }
        let Some(from) = layer(&module) else {
            problems.push(format!("{rel}: module `{module}` has no layer in LAYERS"));
            continue;
        };
        let source = std::fs::read_to_string(file).unwrap();
        for (line, target) in crate_paths(&code_outside_tests(&source)) {
            edges += 1;
            if target == module || PENDING.contains(&(module.as_str(), target.as_str())) {
                continue;
            }
            match layer(&target) {
                None => problems.push(format!("{rel}:{line}: `crate::{target}` has no layer")),
                Some(to) if to >= from => problems.push(format!(
                    "{rel}:{line}: {module} (layer {from}) uses crate::{target} (layer {to})"
                )),
                Some(_) => {}
            }
        }
    }
    assert!(edges > 30, "{edges} crate paths found: the scan is broken");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The engine's tests, its test harness included, import nothing above the engine either:
/// they load the embedded rules with checks that report nothing, and the screener runs the
/// same harness with its checks (`src/screen/engine_tests.rs`).
#[test]
fn the_engine_and_its_tests_import_nothing_above_it() {
    let mut files = vec![Path::new(ROOT).join("src/rules.rs")];
    rust_files(&Path::new(ROOT).join("src/rules"), &mut files);
    assert!(files.len() > 15, "{files:?}");
    let rules = LAYERS.iter().find(|(n, _)| *n == "rules").unwrap().1;
    let mut problems = Vec::new();
    let mut edges = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for (line, target) in crate_paths(&blank_comments_and_literals(&source)) {
            edges += 1;
            let layer = LAYERS.iter().find(|(n, _)| *n == target).map(|(_, l)| *l);
            if target != "rules" && layer.is_none_or(|l| l >= rules) {
                problems.push(format!("{}:{line}: crate::{target}", file.display()));
            }
        }
    }
    assert!(edges > 10, "{edges} crate paths found: the scan is broken");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checker sees what it must: an upward path in code, not one in a test module, a comment
/// or a string.
#[test]
fn the_layer_scan_reads_code_only() {
    let source = "use crate::finding::Kind;\n\
        // crate::screen in a comment\n\
        fn f() { let s = \"crate::detect\"; let c = '{'; crate::decode::x(); }\n\
        #[cfg(test)]\nmod tests { use crate::screen::Context; fn g() { let _ = '}'; } }\n\
        #[cfg(test)]\nfn helper() { crate::fence::y(); }\n\
        use crate::{normalize::Normalized, rules::{A, B}};\n";
    let found: Vec<String> = crate_paths(&code_outside_tests(source))
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(found, ["finding", "decode", "normalize", "rules"]);
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
}

/// `src/rules/anchor.rs` is in `rules`, `src/screen/checks/x.rs` in `screen`.
fn module_of(rel: &str) -> String {
    let inner = rel.trim_start_matches("src/");
    let first = inner.split('/').next().unwrap();
    first.trim_end_matches(".rs").to_owned()
}

/// The source with comments, string and char literals blanked, and every item under
/// `#[cfg(test)]` removed. Newlines are kept, so line numbers hold.
fn code_outside_tests(source: &str) -> String {
    let code = blank_comments_and_literals(source);
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < b.len() {
        if code[i..].starts_with("#[cfg(test)]") {
            // Skip the item: up to its `;` or its matching `}`.
            let mut j = i + "#[cfg(test)]".len();
            let mut depth = 0usize;
            while j < b.len() {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    b';' if depth == 0 => {
                        j += 1;
                        break;
                    }
                    _ => {}
                }
                j += 1;
            }
            out.extend(code[i..j].chars().filter(|&c| c == '\n'));
            i = j;
        } else {
            let c = code[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Comments, strings and char literals replaced by spaces (newlines kept).
fn blank_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // Raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                blank(&mut out, chars[j]);
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else {
                (chars.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(end) => i = end + 1,
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// `(line, first segment)` of every `crate::` path, `crate::{a::x, b}` giving each of `a`, `b`.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line_text) in code.lines().enumerate() {
        let mut rest = line_text;
        while let Some(k) = rest.find("crate::") {
            let before = rest[..k].chars().next_back();
            rest = &rest[k + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `$crate::` or another name ending in "crate"
            }
            if let Some(group) = rest.strip_prefix('{') {
                // Top-level names of a `crate::{...}` group (nested groups skipped).
                let mut depth = 0;
                let mut item = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            push_first(&mut out, n + 1, &item);
                            item.clear();
                        }
                        _ if depth == 0 => item.push(c),
                        _ => {}
                    }
                }
                push_first(&mut out, n + 1, &item);
            } else {
                push_first(&mut out, n + 1, rest);
            }
        }
    }
    out
}

fn push_first(out: &mut Vec<(usize, String)>, line: usize, path: &str) {
    let name: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if !name.is_empty() {
        out.push((line, name));
    }
}

/// A reader can hold any source file: none has more than 900 lines before its tests.
#[test]
fn no_source_file_is_over_900_lines_before_its_tests() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    let mut over = Vec::new();
    for file in &files {
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let source = std::fs::read_to_string(file).unwrap();
        // A generated table is read by its generator, not by hand.
        if source.starts_with("// @generated") {
            continue;
        }
        let lines: Vec<&str> = source.lines().collect();
        let code = (0..lines.len())
            .find(|&i| {
                lines[i].starts_with("#[cfg(test)]")
                    && lines.get(i + 1).is_some_and(|l| l.starts_with("mod "))
            })
            .unwrap_or(lines.len());
        if code > 900 {
            over.push(format!("{}: {code} lines", file.display()));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}
