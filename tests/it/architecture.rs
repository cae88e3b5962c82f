//! The crate's shape: what the library compiles, which module may import which, file sizes.

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
