//! `foreign_id`: UUIDs in a draft that are neither this ticket's id nor one the context allows.
//!
//! A reply that names another customer's record leaks it, so every UUID is parsed and compared
//! by value with [`Context::id_allowed`]: the hyphenated, braced (`{...}`), `urn:uuid:` and bare
//! 32-hex-digit forms, in any letter case, are the same id. The bare form is only taken for a
//! UUID when it is clearly one (version nibble `1`-`8`, variant nibble `8`, `9`, `a` or `b`) and
//! is a whole hex run of exactly 32 digits, so git SHAs (40 hex digits), SHA-256 digests (64) and
//! most MD5 digests are left alone. A hex run glued to other letters or digits (`0x...`,
//! `abc0b5a...`) is part of a longer token and not an id.
//!
//! Speed: every form contains a run of at least eight hex digits. The scan marks the hex
//! digits of 64 bytes at a time as bits of a mask and looks for eight set bits in a row
//! ([`first_run`]); only such a run is parsed. English prose has a hex digit in about every
//! fourth byte, which made a byte-by-byte skip search branch unpredictably; the mask has no
//! branch per byte. Every form is also a run of 32 or more encoding bytes (hex digits and
//! hyphens), so on a view without a long run (support prose has none) the engine does not run
//! the check at all (see `Check::needs_long_run` in `checks/mod.rs`).

use std::ops::Range;

use uuid::Uuid;

use super::Emit;
use crate::byte_class::{first_run, hex_mask};
use crate::screen::Context;

const URN: &[u8] = b"urn:uuid:";

/// How the id was written; named in the finding's note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Hyphenated,
    Braced,
    Urn,
    Simple,
}

impl Form {
    fn describe(self) -> &'static str {
        match self {
            Form::Hyphenated => "hyphenated form",
            Form::Braced => "braced form",
            Form::Urn => "urn:uuid: form",
            Form::Simple => "32 hex digits without hyphens",
        }
    }
}

struct Found {
    span: Range<usize>,
    /// The hex digits and hyphens, without braces or prefix.
    digits: Range<usize>,
    id: Uuid,
    form: Form,
}

/// Whether a byte is an ASCII hex digit: one table load instead of two range tests.
static HEX: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        table[c] = (c as u8).is_ascii_hexdigit();
        c += 1;
    }
    table
};

fn is_hex(c: u8) -> bool {
    HEX[usize::from(c)]
}

/// Reports every UUID in `view` that `ctx` does not allow. The note names the form.
pub(crate) fn run(view: &str, ctx: &Context, emit: &mut Emit<'_>) {
    let b = view.as_bytes();
    // Where the next run of eight hex digits may start: no earlier one is outside a run
    // already looked at.
    let mut from = 0;
    while let Some(first) = first_run(b, from, 8, hex_mask) {
        // The whole run around the eight digits (it may have begun before `from`, inside the
        // span of the id just reported).
        let mut s = first;
        while s > 0 && is_hex(b[s - 1]) {
            s -= 1;
        }
        let mut e = first + 8;
        while e < b.len() && is_hex(b[e]) {
            e += 1;
        }
        // The next run starts at `resume` at the earliest (right after a braced id, whose `}`
        // ends it, another may follow).
        from = emit_found(b, s, e, ctx, emit).unwrap_or(e);
    }
}

/// Reads the UUID whose first hex run is `b[s..e]`, if there is one, and reports it unless
/// `ctx` allows it. Returns the end of its span.
fn emit_found(b: &[u8], s: usize, e: usize, ctx: &Context, emit: &mut Emit<'_>) -> Option<usize> {
    let found = candidate(b, s, e)?;
    if !ctx.id_allowed(found.id) {
        let upper = b[found.digits.clone()]
            .iter()
            .any(|c| matches!(c, b'A'..=b'F'));
        let note = if upper {
            format!("{}, upper case", found.form.describe())
        } else {
            found.form.describe().to_owned()
        };
        emit(found.span.clone(), Some(note));
    }
    Some(found.span.end)
}

/// Tries to read a UUID whose first hex run is `b[s..e]` (a maximal run of 8 or more).
fn candidate(b: &[u8], s: usize, e: usize) -> Option<Found> {
    // A run glued to a letter, digit or underscore on the left is the tail of a longer token.
    if s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
        return None;
    }
    let urn = s >= URN.len() && b[s - URN.len()..s].eq_ignore_ascii_case(URN);
    let opens_brace = s > 0 && b[s - 1] == b'{';
    let (end, id, mut form) = if e - s == 8 && b.get(e) == Some(&b'-') {
        let end = s + 36;
        let id = parse_hyphenated(b.get(s..end)?)?;
        (end, id, Form::Hyphenated)
    } else if e - s == 32 {
        let hex = &b[s..e];
        let closes_brace = b.get(e) == Some(&b'}');
        let clearly_uuid = matches!(hex[12], b'1'..=b'8')
            && matches!(hex[16], b'8' | b'9' | b'a' | b'b' | b'A' | b'B');
        if !(clearly_uuid || urn || (opens_brace && closes_brace)) {
            return None;
        }
        (e, Uuid::from_u128(hex_value(hex)?), Form::Simple)
    } else {
        return None;
    };
    // Glued on the right: the id is part of a longer token.
    if let Some(&next) = b.get(end)
        && (next.is_ascii_alphanumeric() || next == b'_')
    {
        return None;
    }
    let mut span = s..end;
    if urn {
        span.start -= URN.len();
        form = Form::Urn;
    } else if opens_brace && b.get(end) == Some(&b'}') {
        span = s - 1..end + 1;
        if form == Form::Hyphenated {
            form = Form::Braced;
        }
    }
    Some(Found {
        span,
        digits: s..end,
        id,
        form,
    })
}

/// Parses `8-4-4-4-12` hex groups (exactly 36 bytes).
fn parse_hyphenated(s: &[u8]) -> Option<Uuid> {
    let mut digits = [0u8; 32];
    let mut n = 0;
    for (k, &c) in s.iter().enumerate() {
        if matches!(k, 8 | 13 | 18 | 23) {
            if c != b'-' {
                return None;
            }
        } else {
            *digits.get_mut(n)? = c;
            n += 1;
        }
    }
    Some(Uuid::from_u128(hex_value(&digits)?))
}

fn hex_value(hex: &[u8]) -> Option<u128> {
    hex.iter().try_fold(0u128, |acc, &c| {
        let v = (c as char).to_digit(16)?;
        Some(acc << 4 | u128::from(v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
    const OTHER: &str = "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9";

    fn found(text: &str) -> Vec<(String, String)> {
        let ctx = Context::new(TICKET).unwrap();
        let mut out = Vec::new();
        run(text, &ctx, &mut |r: Range<usize>, note: Option<String>| {
            out.push((text[r].to_owned(), note.unwrap_or_default()));
        });
        out
    }

    #[test]
    fn every_form_of_a_foreign_id_is_found_with_its_form() {
        let cases = [
            (
                format!("case {OTHER} closed"),
                OTHER.to_owned(),
                "hyphenated form",
            ),
            (
                format!("see {{{}}}.", OTHER.to_uppercase()),
                format!("{{{}}}", OTHER.to_uppercase()),
                "braced form, upper case",
            ),
            (
                format!("ref URN:UUID:{OTHER}"),
                format!("URN:UUID:{OTHER}"),
                "urn:uuid: form",
            ),
            (
                "id 0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9.".to_owned(),
                "0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9".to_owned(),
                "32 hex digits without hyphens",
            ),
            (OTHER.to_owned(), OTHER.to_owned(), "hyphenated form"),
            (
                format!("/tickets/{OTHER}/notes"),
                OTHER.to_owned(),
                "hyphenated form",
            ),
        ];
        for (text, span, note) in cases {
            assert_eq!(found(&text), vec![(span, note.to_owned())], "{text}");
        }
    }

    /// An id right after a braced one (nothing between) is an id of its own.
    #[test]
    fn an_id_right_after_a_braced_one_is_found() {
        let second = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
        let text = format!("{{{OTHER}}}{second} and {{{OTHER}}}0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9");
        let spans: Vec<String> = found(&text).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            spans,
            [
                format!("{{{OTHER}}}"),
                second.to_owned(),
                format!("{{{OTHER}}}"),
                "0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9".to_owned()
            ]
        );
    }

    #[test]
    fn the_tickets_own_id_is_never_flagged_in_any_form() {
        for text in [
            format!("ticket {TICKET}"),
            format!("ticket {}", TICKET.to_uppercase()),
            format!("ticket {{{TICKET}}}"),
            format!("ticket urn:uuid:{TICKET}"),
            format!("ticket {}", TICKET.replace('-', "")),
            format!("ticket {}", TICKET.replace('-', "").to_uppercase()),
            format!("{TICKET}{TICKET}"),
        ] {
            assert_eq!(found(&text), vec![], "{text}");
        }
    }

    #[test]
    fn allowed_ids_are_not_flagged() {
        let ctx = Context::new(TICKET).unwrap().allow_id(OTHER).unwrap();
        let mut n = 0;
        run(
            &format!("{OTHER} and {}", OTHER.replace('-', "")),
            &ctx,
            &mut |_, _| n += 1,
        );
        assert_eq!(n, 0);
    }

    #[test]
    fn without_a_ticket_every_id_is_foreign() {
        let ctx = Context::without_ticket();
        let mut n = 0;
        run(TICKET, &ctx, &mut |_, _| n += 1);
        assert_eq!(n, 1);
    }

    #[test]
    fn hashes_and_near_misses_are_not_ids() {
        for text in [
            // git SHA-1 (40 hex) and SHA-256 (64 hex)
            "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it.",
            "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            // 32 hex digits, but version nibble 0 / variant nibble c: an MD5, not a UUID
            "md5 9e107d9d372bb6826bd81d3542a419d6",
            "md5 0b5a3c2e9d8f0e7ab6c5d4e3f2a1b0c9",
            "md5 0b5a3c2e9d8f4e7ac6c5d4e3f2a1b0c9",
            // a 32-hex UUID-looking run inside a longer hex run
            "0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9ff",
            "ff0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9",
            // glued to letters
            "0x0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9",
            "id0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9",
            "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9x",
            // wrong group lengths
            "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c",
            "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9a",
            "0b5a3c2e9-d8f-4e7a-b6c5-d4e3f2a1b0c9",
            "0b5a3c2-e9d8f-4e7a-b6c5-d4e3f2a1b0c9",
            "deadbeef decade facade acceded",
            "",
            "abc",
        ] {
            assert_eq!(found(text), vec![], "{text}");
        }
    }

    /// A plain scan to hold the mask search to: it probes every eighth byte and walks the
    /// hex run around each probe that is a hex digit. After an id it probes from the byte
    /// where the id ends, so an id right after a braced one is found.
    fn run_probing(view: &str, ctx: &Context, emit: &mut Emit<'_>) {
        let b = view.as_bytes();
        let mut i = 7;
        while i < b.len() {
            if !b[i].is_ascii_hexdigit() {
                i += 8;
                continue;
            }
            let mut s = i;
            while s > 0 && b[s - 1].is_ascii_hexdigit() {
                s -= 1;
            }
            let mut e = i + 1;
            while e < b.len() && b[e].is_ascii_hexdigit() {
                e += 1;
            }
            let mut resume = e;
            if e - s >= 8
                && let Some(end) = emit_found(b, s, e, ctx, emit)
            {
                resume = end;
            }
            // The first eight bytes of a run starting at `resume` hold `resume + 7`.
            i = resume + 7;
        }
    }

    fn found_with(
        scan: fn(&str, &Context, &mut Emit<'_>),
        text: &str,
    ) -> Vec<(Range<usize>, String)> {
        let ctx = Context::new(TICKET).unwrap();
        let mut out = Vec::new();
        scan(text, &ctx, &mut |r: Range<usize>, note: Option<String>| {
            out.push((r, note.unwrap_or_default()));
        });
        out
    }

    #[test]
    fn the_hex_table_is_is_ascii_hexdigit() {
        for c in 0..=255u8 {
            assert_eq!(is_hex(c), c.is_ascii_hexdigit(), "{c:#04x}");
        }
    }

    /// A piece of text for the proptest: one byte or short string that matters around ids, or
    /// an id or hex string, whole or cut at either end, bare, braced (or half) or urn-prefixed.
    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let byte = proptest::sample::select(
            "afAF0489be-{} _g\u{e9}."
                .chars()
                .map(String::from)
                .chain(["urn:uuid:".to_owned()])
                .collect::<Vec<_>>(),
        );
        let id = (
            proptest::sample::select(vec![
                OTHER,
                TICKET,
                "6F1C2D3E-4B5A-4C6D-8E7F-9A0B1C2D3E4F",
                "0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9",
                "9e107d9d372bb6826bd81d3542a419d6",
            ]),
            proptest::sample::select(vec![
                ("", ""),
                ("{", "}"),
                ("URN:uuid:", ""),
                ("{", ""),
                ("", "}"),
            ]),
            // Bytes cut from the front and the back: mostly none.
            proptest::sample::select(vec![0, 0, 0, 1, 4]),
            proptest::sample::select(vec![0, 0, 0, 1, 9]),
        )
            .prop_map(|(id, (open, close), front, back)| {
                format!("{open}{}{close}", &id[front..id.len() - back])
            });
        prop_oneof![byte, id]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// The mask search reports what the probing scan reported, on texts of ids, cut
        /// ids, hex runs and the bytes around ids that matter (hyphens, braces, the urn
        /// prefix, glue), at every alignment and run length.
        #[test]
        fn mask_search_matches_the_probing_scan(
            pieces in proptest::collection::vec(piece(), 0..16),
        ) {
            let text = pieces.concat();
            proptest::prop_assert_eq!(
                found_with(run, &text),
                found_with(run_probing, &text),
                "{:?}",
                text
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// Every id reported holds a long run of encoding bytes (see
        /// `Check::needs_long_run`): a view without one is not searched.
        #[test]
        fn every_id_found_holds_a_long_run(pieces in proptest::collection::vec(piece(), 0..16)) {
            let text = pieces.concat();
            for (span, _) in found_with(run, &text) {
                let id = &text[span];
                proptest::prop_assert!(
                    crate::decode::first_long_run(id.as_bytes()).is_some(),
                    "{:?} in {:?}",
                    id,
                    text
                );
            }
        }
    }

    #[test]
    fn several_ids_and_ids_at_every_offset_are_found() {
        let text = format!("{OTHER} {OTHER},{OTHER}");
        assert_eq!(found(&text).len(), 3);
        // The stride must not skip an id whatever its alignment.
        for pad in 0..20 {
            let text = format!("{}{OTHER}.", "z".repeat(pad).replace('z', "z "));
            assert_eq!(found(&text).len(), 1, "{text:?}");
            let text = format!("{}{OTHER}", " ".repeat(pad));
            assert_eq!(found(&text).len(), 1, "{text:?}");
        }
    }
}
