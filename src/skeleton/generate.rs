//! Generates `table.rs` from `decancer` and `unicode-security` (dev-dependencies only): the
//! test fails when the checked-in table differs; `UPDATE_SKELETON_TABLE=1 cargo test --lib
//! skeleton::generate` rewrites it.

use std::fmt::Write as _;

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

use super::{
    ASCII_DROPPED, ASCII_SEPARATOR, HAND, Letters, Reading, ascii_reading, default_reading,
    invisible, is_removed_control,
};

/// Pushes the reading of `x` (a character a crate gave for a letter): an ASCII letter, or an
/// ASCII digit when `numeric` (the letter it came from is a number). `false` when `x` gives
/// neither.
fn push_latin(x: char, numeric: bool, letters: &mut Letters) -> bool {
    if !x.is_ascii() {
        return false;
    }
    match ascii_reading(x as u8) {
        ASCII_SEPARATOR | ASCII_DROPPED => false,
        r if r.is_ascii_lowercase() || numeric => {
            letters.push(char::from(r));
            true
        }
        _ => false,
    }
}

/// The Latin reading of letter or digit `d` through the crates: `decancer`, then the UTS #39
/// prototype; `None` when neither reads it as Latin letters.
pub(super) fn by_crates(d: char) -> Option<String> {
    // `decancer` reads Hangul jamo (and so every syllable) and some Han ideographs (`了` as
    // `t`) as Latin letters: Korean and Chinese text would read as Latin words.
    if matches!(
        d as u32,
        0x1100..=0x11FF
            | 0x3130..=0x318F
            | 0xA960..=0xA97F
            | 0xAC00..=0xD7FF
            | 0x2E80..=0x2FDF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xF900..=0xFAFF
            | 0x20000..=0x3FFFF
    ) {
        return None;
    }
    let numeric = d.is_numeric();
    let latin = |s: &str| {
        let mut letters = Letters::EMPTY;
        let mut any = false;
        for x in s.chars().filter(|x| !is_combining_mark(*x)) {
            if x.is_ascii() && !x.is_ascii_alphanumeric() {
                continue;
            }
            if !push_latin(x, numeric, &mut letters) {
                return None;
            }
            any = true;
        }
        any.then(|| letters.as_str().to_owned())
    };
    let cured = match decancer::cure_char(d, decancer::Options::default()) {
        decancer::Translation::Character(x) => x.to_string(),
        decancer::Translation::String(s) => s.to_string(),
        decancer::Translation::None => String::new(),
    };
    if let Some(r) = latin(&cured) {
        return Some(r);
    }
    let mut buf = [0u8; 4];
    let proto: String = unicode_security::skeleton(d.encode_utf8(&mut buf)).collect();
    let lower: String = proto.to_lowercase();
    let again: String = unicode_security::skeleton(&lower).collect();
    latin(&proto).or_else(|| latin(&again))
}

/// The reading the table must give for `c` (non-ASCII, not a control, mark or invisible
/// character, not whitespace).
fn reference(c: char) -> Reading {
    let mut letters = Letters::EMPTY;
    let mut separator = false;
    decompose_compatible(c, |d| {
        if d.is_ascii() {
            match ascii_reading(d as u8) {
                ASCII_SEPARATOR => separator = true,
                ASCII_DROPPED => {}
                r => letters.push(char::from(r)),
            }
            return;
        }
        if is_combining_mark(d) || invisible(d).is_some() {
            return;
        }
        if let Some((_, hand)) = HAND.iter().find(|(h, _)| *h == d) {
            hand.chars().for_each(|h| letters.push(h));
            return;
        }
        if !d.is_alphanumeric() {
            // Symbols are read as themselves, not as the letter `decancer` finds in them (it
            // reads `❤` as `o`); what it cures to nothing is unassigned or private use.
            let none = matches!(
                decancer::cure_char(d, decancer::Options::default()),
                decancer::Translation::None
            );
            if d.is_whitespace() || !none {
                separator = true;
            }
            return;
        }
        match by_crates(d) {
            Some(r) => r.chars().for_each(|l| letters.push(l)),
            None => d
                .to_lowercase()
                .filter(|l| l.is_alphanumeric())
                .for_each(|l| letters.push(l)),
        }
    });
    if !letters.is_empty() {
        Reading::Letters(letters)
    } else if separator {
        Reading::Separator
    } else {
        Reading::Dropped
    }
}

/// The table's text: ranges of code points whose reference reading differs from the default.
fn table_source() -> String {
    let mut rows: Vec<(u32, u32, String)> = Vec::new();
    for cp in 0x80u32..=0x10FFFF {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        if is_removed_control(c)
            || is_combining_mark(c)
            || invisible(c).is_some()
            || c.is_whitespace()
        {
            continue;
        }
        let want = reference(c);
        if want == default_reading(c) {
            continue;
        }
        let text = match want {
            Reading::Letters(l) => l.as_str().to_owned(),
            Reading::Dropped => String::new(),
            // A separator the default reads as a letter: none so far; keep the default.
            Reading::Separator => continue,
        };
        match rows.last_mut() {
            Some((_, end, t)) if *end + 1 == cp && *t == text => *end = cp,
            _ => rows.push((cp, cp, text)),
        }
    }
    let mut out = String::from(
        "// @generated by `UPDATE_SKELETON_TABLE=1 cargo test --lib skeleton::generate` from\n\
         // decancer and unicode-security (see `generate.rs`). Do not edit.\n\n\
         //! Readings that differ from the default (NFKD, lowercase): `(first, last, reading)`,\n\
         //! sorted; an empty reading drops the code points (unassigned, private use).\n\n\
         #[rustfmt::skip]\npub(super) static READINGS: &[(u32, u32, &str)] = &[\n",
    );
    for (start, end, text) in rows {
        let _ = writeln!(out, "(0x{start:X},0x{end:X},{text:?}),");
    }
    out.push_str("];\n");
    out
}

#[test]
fn table_matches_the_crates() {
    let want = table_source();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/skeleton/table.rs");
    if std::env::var_os("UPDATE_SKELETON_TABLE").is_some() {
        std::fs::write(path, &want).expect("table written");
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "src/skeleton/table.rs is out of date: run UPDATE_SKELETON_TABLE=1 cargo test --lib \
         skeleton::generate"
    );
}
