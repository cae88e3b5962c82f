//! The fast prefilter and the plain reference report identical findings: on every fixture in
//! the repository, every rule example, and texts glued from them at random.

use std::path::Path;
use std::sync::LazyLock;

use palisade::{Context, Detector, Finding, PrefilterKind, Screener};
use proptest::prelude::*;

const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

static FAST: LazyLock<(Screener, Detector)> = LazyLock::new(|| (Screener::new(), Detector::new()));
static REFERENCE: LazyLock<(Screener, Detector)> = LazyLock::new(|| {
    (
        Screener::builder()
            .prefilter(PrefilterKind::Reference)
            .build()
            .unwrap(),
        Detector::builder()
            .prefilter(PrefilterKind::Reference)
            .build()
            .unwrap(),
    )
});

/// Screens and scans `text` with both, and says how many findings they agreed on.
fn same_findings(text: &str) -> usize {
    let ctx = Context::new(TICKET)
        .unwrap()
        .allow_email("support@example.com");
    let screen =
        |s: &Screener| -> Vec<Finding> { s.screen(&ctx, text).unwrap().findings().to_vec() };
    let fast = screen(&FAST.0);
    let reference = screen(&REFERENCE.0);
    assert_eq!(fast, reference, "screen differs on {text:?}");
    let fast_scan = FAST.1.scan(text).unwrap();
    let reference_scan = REFERENCE.1.scan(text).unwrap();
    assert_eq!(fast_scan, reference_scan, "scan differs on {text:?}");
    fast.len() + fast_scan.len()
}

/// Every rule example and negative example of the embedded files.
fn example_texts() -> Vec<String> {
    let mut out = Vec::new();
    for file in ["credentials.toml", "draft.toml", "injection.toml"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rules")
            .join(file);
        let doc: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for rule in doc["rule"].as_array().unwrap() {
            for key in ["examples", "negative_examples"] {
                for ex in rule
                    .get(key)
                    .and_then(|v| v.as_array())
                    .into_iter()
                    .flatten()
                {
                    let text = ex
                        .as_str()
                        .or_else(|| ex.get("text").and_then(|t| t.as_str()));
                    out.extend(text.map(str::to_owned));
                }
            }
        }
    }
    out
}

/// The text fixtures in the repository (benchmark inputs, committed crash inputs).
fn fixture_texts() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut dirs = vec![root.join("benches/fixtures"), root.join("tests/crashes")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    out
}

#[test]
fn fixtures_and_examples_give_identical_findings() {
    let examples = example_texts();
    let fixtures = fixture_texts();
    assert!(examples.len() > 500 && fixtures.len() > 10);
    let mut found = 0;
    for text in fixtures.iter().chain(&examples) {
        // Texts over the input limit are an error for both alike; compare what fits.
        let text = &text[..text.floor_char_boundary(1 << 20)];
        found += same_findings(text);
    }
    // Both report, not only agree on silence.
    assert!(found > 1000, "{found}");
    // All the examples in one text, joined as a draft would hold them.
    found = same_findings(&examples.join("\n"));
    assert!(found > 300, "{found}");
}

static PIECES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut pieces = example_texts();
    for fixture in fixture_texts() {
        pieces.extend(fixture.lines().take(40).map(str::to_owned));
    }
    pieces
});

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Examples and fixture lines glued with separators, some upper-cased, so literals meet
    /// at text edges, inside words and next to each other.
    #[test]
    fn glued_texts_give_identical_findings(
        picks in proptest::collection::vec(
            (any::<proptest::sample::Index>(), 0usize..8, any::<bool>()),
            1..8,
        ),
    ) {
        let glue = [" ", "\n", "", "_", "x", "=", ":", "é"];
        let mut text = String::new();
        for (index, sep, upper) in picks {
            text.push_str(glue[sep]);
            let piece = index.get(&PIECES);
            if upper {
                text.push_str(&piece.to_uppercase());
            } else {
                text.push_str(piece);
            }
        }
        same_findings(&text);
    }
}
