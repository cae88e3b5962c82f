//! `long_number`: runs of eight or more digits: phone, card and account numbers.
//!
//! Long numbers in a reply are usually personal data or another customer's account. A run is
//! digit groups separated by one space or one hyphen, with an optional leading `+` and one
//! parenthesised group: `+1 (415) 555-0132`, `4111 1111 1111 1111`, `0800 123 4567`,
//! `+44 (0)20 7946 0958`, `12345678`. Card-shaped runs (13 to 19 digits, no `+` or
//! parentheses, in one block or in groups of four) that pass the Luhn check say so in the
//! note.
//!
//! Not long numbers:
//! - anything with dots, commas, colons or slashes between the groups: amounts (`1,250.00`,
//!   `12345678.90`), dates (`01/05/2024`), times, IPv4 addresses, version numbers — a run that
//!   touches such punctuation followed by a digit is part of that punctuated number;
//! - ISO and day-month dates written with hyphens (`2024-05-01`, `01-05-2024`): the date is
//!   cut out of any run it sits in;
//! - runs glued to a letter (`ORD12345678`, `12345678abc`, hex ids) or to a letter and a hyphen
//!   (`ORD-12345678`), and UUID-shaped runs (`foreign_id` reports those). The exception is an
//!   IBAN: a two-letter country code glued to two check digits and followed by spaced groups
//!   (`DE89 3704 0044 0532 0130 00`), or written compactly with a valid checksum, is an
//!   account number; the note says whether its mod-97 checksum holds;
//! - short runs (`555-0132`) and lists of single digits (`1 2 3 4 5 6 7 8`): after the first
//!   group, a group of one digit ends the run.
//!
//! Speed: clean prose has no digits, so the scan skips 32 bytes at a time with a branch-free
//! test the compiler vectorises, and parses only from a digit.

use std::ops::Range;

use super::Emit;
use crate::byte_class::{self, GROUP};
use crate::rules::luhn;
use crate::screen::Context;

const MIN_DIGITS: usize = 8;

/// Reports every long number in `view`; the note gives the digit count and the Luhn verdict.
pub(crate) fn run(view: &str, emit: &mut Emit<'_>) {
    scan(view, true, emit);
}

/// [`run`], leaving out the numbers `ctx` allows: listed ones, and ones the customer wrote in
/// the ticket unless shaped like a card (passing Luhn) or an IBAN, which still go out.
pub(crate) fn run_allowing(view: &str, ctx: Option<&Context>, emit: &mut Emit<'_>) {
    let Some(ctx) = ctx.filter(|c| c.allows_numbers()) else {
        return run(view, emit);
    };
    run(view, &mut |span: Range<usize>, note: Option<String>| {
        let text = &view.as_bytes()[span.clone()];
        let digits: String = text
            .iter()
            .filter(|c| c.is_ascii_digit())
            .map(|&c| char::from(c))
            .collect();
        // An IBAN is the only long number with letters in its span (the country code).
        let sensitive = text.iter().any(u8::is_ascii_alphabetic)
            || ((13..=19).contains(&digits.len()) && luhn(text));
        if !ctx.number_allowed(&digits, sensitive) {
            emit(span, note);
        }
    });
}

/// [`scan`] also reports phone and card numbers written with dots, slashes or underscores between the groups
/// (`555.867.5309`, `4111/1111/1111/1111`, `555_867_5309`): one separator used throughout, at
/// least three groups, every group after the first of three digits or more, ten digits or
/// more in all. That leaves out dates (`01/05/2024`: two-digit groups), versions, IPv4
/// addresses (four groups of at most three digits) and thousands (`12.500.000`: every later
/// group exactly three digits).
/// The punctuated number starting at digit `d0`, with its digit count.
fn punctuated_at(b: &[u8], d0: usize) -> Option<(Range<usize>, usize)> {
    if d0 > 0
        && (b[d0 - 1].is_ascii_alphanumeric()
            || matches!(b[d0 - 1], b'.' | b'/' | b'_' | b'-' | b','))
    {
        return None;
    }
    let first_end = digits_end(b, d0);
    let sep = *b.get(first_end)?;
    if !matches!(sep, b'.' | b'/' | b'_') {
        return None;
    }
    let mut groups = vec![first_end - d0];
    let mut i = first_end;
    while b.get(i) == Some(&sep) && digit(b, i + 1) {
        let end = digits_end(b, i + 1);
        groups.push(end - i - 1);
        i = end;
    }
    if b.get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == sep)
    {
        return None;
    }
    let digits: usize = groups.iter().sum();
    let later = &groups[1..];
    let ipv4 = groups.len() == 4 && groups.iter().all(|&g| g <= 3);
    let thousands = sep != b'/' && later.iter().all(|&g| g == 3);
    (groups.len() >= 3 && later.iter().all(|&g| g >= 3) && digits >= 10 && !ipv4 && !thousands)
        .then_some((d0..i, digits))
}

/// The bytes from a long number's first digit that hold its first [`MIN_DIGITS`] digits, at
/// most: after the first group every group has two digits or more, so eight digits are in at
/// most four groups, and each of the three gaps before the last is at most two bytes (`) `),
/// with one `(` more: 8 + 3 × 2 + 1. With room to spare.
const REACH: usize = 24;

/// [`run`]; with `skip_sparse`, digits with fewer than [`MIN_DIGITS`] digits in the
/// [`REACH`] bytes from them are passed over without parsing (no long number starts there),
/// which the tests hold to the same findings as parsing from every digit.
fn scan(view: &str, skip_sparse: bool, emit: &mut Emit<'_>) {
    let b = view.as_bytes();
    let mut i = 0;
    let next = |from: usize| {
        if skip_sparse {
            next_dense_digit(b, from)
        } else {
            next_digit(b, from)
        }
    };
    while let Some(d) = next(i) {
        let run = parse_run(b, d);
        i = run.resume.max(d + 1);
        if run.finding.is_none()
            && let Some((span, digits)) = (d..i.min(b.len()))
                .filter(|&k| b[k].is_ascii_digit() && (k == d || !b[k - 1].is_ascii_digit()))
                .find_map(|k| punctuated_at(b, k))
        {
            let note = if (13..=19).contains(&digits) && luhn(&b[span.clone()]) {
                format!("{digits} digits, passes the Luhn check: looks like a card number")
            } else {
                format!("{digits} digits")
            };
            i = i.max(span.end);
            emit(span, Some(note));
            continue;
        }
        if let Some((span, digits, shape)) = run.finding {
            let note = match shape {
                Shape::Card if (13..=19).contains(&digits) && luhn(&b[span.clone()]) => {
                    format!("{digits} digits, passes the Luhn check: looks like a card number")
                }
                Shape::Iban { valid: true } => format!(
                    "{digits} digits, passes the IBAN check: looks like a bank account number"
                ),
                Shape::Iban { valid: false } => {
                    format!("{digits} digits, shaped like an IBAN: a bank account number")
                }
                _ => format!("{digits} digits"),
            };
            emit(span, Some(note));
        }
    }
}

/// The first ASCII digit at or after `from` with at least [`MIN_DIGITS`] digits in the
/// [`REACH`] bytes from it: digit masks of 64 bytes at a time, the next 64 joined on so the
/// reach of a digit near the end is whole, and a population count per group, then per digit
/// in a group with enough of them.
fn next_dense_digit(b: &[u8], from: usize) -> Option<usize> {
    const REACH_MASK: u64 = (1 << REACH) - 1;
    const _: () = assert!(REACH <= GROUP);
    let mut at = from;
    let mut digits = byte_class::digit_mask(b.get(at..)?.get(..GROUP).unwrap_or(&b[at..]));
    while at < b.len() {
        let after = b.get(at + GROUP..).unwrap_or(&[]);
        let next = byte_class::digit_mask(after.get(..GROUP).unwrap_or(after));
        // Every digit's reach lies in this group and the first `REACH` bytes of the next: with
        // fewer than `MIN_DIGITS` digits in all of them (most groups of prose that have any),
        // none needs counting. Only for a group with digits: a population count is not one
        // instruction on every x86-64 (nor on the baseline this crate is built for).
        let mut left = digits;
        if left != 0
            && ((digits.count_ones() + (next & REACH_MASK).count_ones()) as usize) < MIN_DIGITS
        {
            left = 0;
        }
        while left != 0 {
            let j = left.trailing_zeros();
            let reach = (digits >> j) | next.checked_shl(GROUP as u32 - j).unwrap_or(0);
            if (reach & REACH_MASK).count_ones() as usize >= MIN_DIGITS {
                return Some(at + j as usize);
            }
            left &= left - 1;
        }
        digits = next;
        at += GROUP;
    }
    None
}

/// The first ASCII digit at or after `from`.
fn next_digit(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 32) {
        let any = chunk
            .iter()
            .fold(false, |acc, &c| acc | (c.wrapping_sub(b'0') < 10));
        if any {
            break;
        }
        i += 32;
    }
    b.get(i..)?
        .iter()
        .position(u8::is_ascii_digit)
        .map(|k| i + k)
}

/// What a run looks like, for the note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Plain,
    /// No `+` or parentheses, one block or groups of four (or Amex 4-6-5).
    Card,
    /// A country code and check digits glued in front: `DE89 3704 0044 0532 0130 00`.
    Iban {
        valid: bool,
    },
}

struct Run {
    /// Span, digit count and shape.
    finding: Option<(Range<usize>, usize, Shape)>,
    /// Where the scan goes on.
    resume: usize,
}

fn digit(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_digit)
}

fn glue(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn digits_end(b: &[u8], mut i: usize) -> usize {
    while digit(b, i) {
        i += 1;
    }
    i
}

/// A hyphenated date at `g` (`2024-05-01`, `01-05-2024`); returns its end.
fn date_at(b: &[u8], g: usize) -> Option<usize> {
    let s = b.get(g..g + 10)?;
    let num = |r: Range<usize>| {
        s[r].iter().try_fold(0u32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let month = 1..=12;
    let day = 1..=31;
    let shaped = if s[4] == b'-' && s[7] == b'-' {
        num(0..4).is_some()
            && num(5..7).is_some_and(|m| month.contains(&m))
            && num(8..10).is_some_and(|d| day.contains(&d))
    } else if s[2] == b'-' && s[5] == b'-' {
        num(6..10).is_some()
            && match (num(0..2), num(3..5)) {
                (Some(a), Some(c)) => {
                    (month.contains(&a) && day.contains(&c))
                        || (day.contains(&a) && month.contains(&c))
                }
                _ => false,
            }
    } else {
        false
    };
    let end = g + 10;
    let continues = digit(b, end) || (b.get(end) == Some(&b'-') && digit(b, end + 1));
    (shaped && !continues).then_some(end)
}

/// Parses the run whose first digit is at `d0`.
fn parse_run(b: &[u8], d0: usize) -> Run {
    if let Some(end) = date_at(b, d0) {
        return Run {
            finding: None,
            resume: end,
        };
    }
    let mut start = d0;
    let mut in_paren = false;
    if d0 > 0 && b[d0 - 1] == b'(' {
        start = d0 - 1;
        in_paren = true;
    }
    if start > 0 && b[start - 1] == b'+' && !(start > 1 && b[start - 2].is_ascii_alphanumeric()) {
        start -= 1;
    }
    let mut paren_used = in_paren;
    let mut ok = true;
    let mut digits = 0;
    let mut groups = 0;
    let mut lens = [0usize; 5];
    let mut all_hyphens = true;
    let mut all_spaces = !in_paren;
    let mut fours = true;
    let mut pos = d0;
    let mut last_end;
    loop {
        let g = pos;
        pos = digits_end(b, g);
        let len = pos - g;
        if let Some(slot) = lens.get_mut(groups) {
            *slot = len;
        }
        digits += len;
        groups += 1;
        last_end = pos;
        if in_paren {
            in_paren = false;
            if b.get(pos) == Some(&b')') {
                pos += 1;
                last_end = pos;
                all_hyphens = false;
                all_spaces = false;
                fours = false;
                if digit(b, pos) {
                    // `(0)20 7946 0958`
                    continue;
                }
            } else if groups == 1 {
                // An opening `(` that is never closed is not part of the number.
                start = d0;
                fours = false;
            } else {
                // `555 (1234`: the run ends before the parenthesis.
                digits -= len;
                groups -= 1;
                last_end = g - 2;
                pos = g;
                break;
            }
        }
        let sep = b.get(pos).copied();
        if !matches!(sep, Some(b' ' | b'-')) {
            break;
        }
        let next = pos + 1;
        if b.get(next) == Some(&b'(') && !paren_used && digit(b, next + 1) {
            paren_used = true;
            in_paren = true;
            all_spaces = false;
            pos = next + 1;
            continue;
        }
        if !digit(b, next) {
            break;
        }
        if date_at(b, next).is_some() {
            // `1234 2024-05-01`: the date is not part of the run.
            pos = next;
            break;
        }
        let next_end = digits_end(b, next);
        if b.get(next_end).is_some_and(|&c| glue(c)) {
            if sep == Some(b'-') {
                // `12345678-9d8f-...`: one hyphenated token with letters in it.
                ok = false;
            }
            pos = next;
            break;
        }
        if next_end - next == 1 {
            // `1 2 3 4`: a one-digit group after the first ends the run.
            pos = next;
            break;
        }
        if sep != Some(b'-') {
            all_hyphens = false;
        }
        if sep != Some(b' ') {
            all_spaces = false;
        }
        if len != 4 {
            fours = false;
        }
        pos = next;
    }
    let end = last_end;
    let resume = pos.max(end);
    // Left context: glued to a letter (unless it is an IBAN's country code), to a letter and a
    // hyphen, or to `digit.`-style punctuation.
    let mut iban = None;
    if start > 0 {
        let p = b[start - 1];
        let pp = if start > 1 { b[start - 2] } else { b' ' };
        if glue(p) {
            iban = iban_shape(b, start..end, groups, lens[0], all_spaces);
            match iban {
                Some(_) => start -= 2,
                None => ok = false,
            }
        } else if (p == b'-' && pp.is_ascii_alphanumeric())
            || (matches!(p, b'.' | b',' | b':' | b'/') && pp.is_ascii_digit())
        {
            ok = false;
        }
    }
    // Right context: glued to a letter, or continued by punctuation and a digit.
    if let Some(&q) = b.get(end)
        && (glue(q)
            || (matches!(q, b'.' | b',' | b':' | b'/') && digit(b, end + 1))
            || (q == b'-' && b.get(end + 1).is_some_and(|&c| glue(c))))
    {
        ok = false;
    }
    if all_hyphens && groups == 5 && lens == [8, 4, 4, 4, 12] {
        // A UUID made of digits only: the foreign_id check's business.
        ok = false;
    }
    let shape = if let Some(valid) = iban {
        Shape::Iban { valid }
    } else if b[start] != b'+'
        && b[start] != b'('
        && (groups == 1 || fours || (groups == 3 && lens[..3] == [4, 6, 5]))
    {
        Shape::Card
    } else {
        Shape::Plain
    };
    Run {
        finding: (ok && digits >= MIN_DIGITS).then_some((start..end, digits, shape)),
        resume,
    }
}

/// Whether the run `digits` (glued to letters on the left) is an IBAN: a word-initial
/// two-letter country code, then the two check digits and space-separated groups
/// (`DE89 3704 0044 0532 0130 00`), or the compact form when its checksum holds. Returns
/// whether the mod-97 checksum holds.
fn iban_shape(
    b: &[u8],
    digits: Range<usize>,
    groups: usize,
    first_len: usize,
    all_spaces: bool,
) -> Option<bool> {
    let s = digits.start;
    if s < 2
        || !b[s - 1].is_ascii_uppercase()
        || !b[s - 2].is_ascii_uppercase()
        || (s > 2 && (b[s - 3].is_ascii_alphanumeric() || b[s - 3] == b'_'))
    {
        return None;
    }
    let valid = iban_checksum(&b[s - 2..digits.end]);
    let spaced = all_spaces && groups >= 3 && first_len == 2;
    let compact = groups == 1 && first_len >= 13 && valid;
    (spaced || compact).then_some(valid)
}

/// The IBAN mod-97 check (ISO 13616) over letters and digits; spaces are skipped.
fn iban_checksum(s: &[u8]) -> bool {
    let step = |rem: u32, c: u8| -> Option<u32> {
        if c.is_ascii_digit() {
            Some((rem * 10 + u32::from(c - b'0')) % 97)
        } else if c.is_ascii_uppercase() {
            Some((rem * 100 + u32::from(c - b'A') + 10) % 97)
        } else {
            None
        }
    };
    let mut head = [0u8; 4];
    let mut n = 0;
    let mut rem = 0;
    for &c in s.iter().filter(|&&c| c != b' ') {
        if let Some(slot) = head.get_mut(n) {
            *slot = c;
            n += 1;
        } else {
            let Some(r) = step(rem, c) else { return false };
            rem = r;
        }
    }
    if n < 4 {
        return false;
    }
    for c in head {
        let Some(r) = step(rem, c) else { return false };
        rem = r;
    }
    rem == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, String)> {
        super::super::collect(run, text)
    }

    fn spans(text: &str) -> Vec<&str> {
        found(text).into_iter().map(|(s, _)| s).collect()
    }

    /// Every finding with its note, parsing from every digit or not.
    fn scanned(text: &str, skip_sparse: bool) -> Vec<(std::ops::Range<usize>, Option<String>)> {
        let mut out = Vec::new();
        scan(text, skip_sparse, &mut |r, note| out.push((r, note)));
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Passing over digits without eight digits in reach finds what parsing from every
        /// digit finds, on text made of the bytes numbers are built from.
        #[test]
        fn skipping_sparse_digits_finds_the_same(
            text in proptest::collection::vec(
                proptest::sample::select(b"0123456789 -()+.,:/DEx_\n".to_vec()), 0..200),
        ) {
            let text = String::from_utf8(text).unwrap();
            proptest::prop_assert_eq!(scanned(&text, true), scanned(&text, false));
        }

        /// The same on digits spread out, with the separators numbers use.
        #[test]
        fn skipping_sparse_digits_finds_the_same_on_sparse_text(
            parts in proptest::collection::vec(
                ("[0-9]{1,5}", proptest::sample::select(vec![" ", "-", ") ", " (", ".", ", ", " and ", "/", "+", "DE", ":", "  "])),
                0..30),
        ) {
            let text: String = parts.iter().map(|(d, s)| format!("{d}{s}")).collect();
            proptest::prop_assert_eq!(scanned(&text, true), scanned(&text, false));
        }
    }

    #[test]
    fn dense_digits_are_found_across_groups() {
        for pad in 0..130 {
            let text = format!(
                "{}+1 (415) 555-0132 and 4111 1111 1111 1111",
                "a ".repeat(pad)
            );
            assert_eq!(scanned(&text, true), scanned(&text, false), "pad {pad}");
            assert_eq!(scanned(&text, true).len(), 2, "pad {pad}");
        }
    }

    #[test]
    fn long_numbers_are_found() {
        for (text, want) in [
            ("Call +1 (415) 555-0132 tomorrow.", "+1 (415) 555-0132"),
            ("Call (415) 555-0132.", "(415) 555-0132"),
            (
                "The card 4111 1111 1111 1111 was charged.",
                "4111 1111 1111 1111",
            ),
            ("Our line is 0800 123 4567.", "0800 123 4567"),
            ("Account 12345678 is closed.", "12345678"),
            ("Account #12345678.", "12345678"),
            ("UK: +44 (0)20 7946 0958", "+44 (0)20 7946 0958"),
            ("UK: +44 (0) 20 7946 0958", "+44 (0) 20 7946 0958"),
            ("Call 1 800 555 0199 now", "1 800 555 0199"),
            ("card 4111-1111-1111-1111", "4111-1111-1111-1111"),
            ("id 12345678, thanks", "12345678"),
            ("(12345678", "12345678"),
            ("on 2024-05-01 call 0800 123 4567", "0800 123 4567"),
            ("ref 1234 5678 2024-05-01", "1234 5678"),
            ("phone:12345678", "12345678"),
            ("12345678-", "12345678"),
            (
                "IBAN DE89 3704 0044 0532 0130 00.",
                "DE89 3704 0044 0532 0130 00",
            ),
            (
                "IBAN DE18 8916 5295 5612 8866 46.",
                "DE18 8916 5295 5612 8866 46",
            ),
            ("IBAN DE89370400440532013000.", "DE89370400440532013000"),
        ] {
            assert_eq!(spans(text), vec![want], "{text}");
        }
    }

    #[test]
    fn the_note_counts_digits_and_recognises_cards() {
        assert_eq!(
            found("card 4111 1111 1111 1111")[0].1,
            "16 digits, passes the Luhn check: looks like a card number"
        );
        assert_eq!(
            found("card 4111111111111111")[0].1,
            "16 digits, passes the Luhn check: looks like a card number"
        );
        assert_eq!(
            found("amex 3782 822463 10005")[0].1,
            "15 digits, passes the Luhn check: looks like a card number"
        );
        assert_eq!(found("card 4111 1111 1111 1112")[0].1, "16 digits");
        assert_eq!(found("Call +1 (415) 555-0132")[0].1, "11 digits");
        assert_eq!(found("Account 12345678")[0].1, "8 digits");
        assert_eq!(
            found("IBAN DE89 3704 0044 0532 0130 00")[0].1,
            "20 digits, passes the IBAN check: looks like a bank account number"
        );
        assert_eq!(
            found("IBAN DE18 8916 5295 5612 8866 46")[0].1,
            "20 digits, shaped like an IBAN: a bank account number"
        );
    }

    #[test]
    fn punctuated_numbers_dates_and_references_are_not_long_numbers() {
        for text in [
            "We refunded $1,250.00 on 2024-05-01 at 10:30.",
            "Order ORD-12345 and extension 555-0132.",
            "Update to version 10.2.3.4 or connect to 192.168.100.200.",
            "Paid 12345678.90 and 1,234,567,890.",
            "On 01-05-2024 and 12-31-2024 and 2024-12-31 10:30.",
            "On 2024-05-01 12:00 we wrote.",
            "Dates 05/01/2024 and 2024/05/01.",
            "Order ORD-12345678 and ORD12345678 and 12345678abc.",
            "Ref AB12345678 and XDE89 3704 0044 0532 0130 00 and de89 3704 0044 0532 0130 00.",
            "Compact with a bad checksum: DE18891652955612886646.",
            "Hash 3f786850e387550fdab836ed7e6dc881de23001b.",
            "12345678-1234-4234-8234-123456789012",
            "0b5a3c2e-9d8f-4e7a-8234-123456789012",
            "12345678-9d8f-4e7a-b6c5-d4e3f2a1b0c9",
            "Steps 1 2 3 4 5 6 7 8 9 10.",
            "Call 555-0132 or 555 0132.",
            "Time 10:30:45, ratio 1:12345678",
            "1234567",
            "",
        ] {
            assert_eq!(spans(text), Vec::<&str>::new(), "{text}");
        }
    }

    #[test]
    fn the_digit_skip_finds_digits_at_every_offset() {
        for pad in 0..70 {
            let text = format!("{}12345678 x", "a ".repeat(pad));
            assert_eq!(spans(&text), vec!["12345678"], "{pad}");
        }
    }

    #[test]
    fn dotted_slashed_and_underscored_numbers_are_found() {
        for (text, want) in [
            ("Call 555.867.5309 today", "555.867.5309"),
            ("Call +1 555/867/5309.", "555/867/5309"),
            ("Call 555_867_5309.", "555_867_5309"),
            ("Card 4111.1111.1111.1111 is on file", "4111.1111.1111.1111"),
            ("Card 4111/1111/1111/1111.", "4111/1111/1111/1111"),
        ] {
            let got = found(text);
            assert_eq!(got.len(), 1, "{text}: {got:?}");
            assert_eq!(got[0].0, want);
        }
        assert!(found("Card 4111_1111_1111_1111.")[0].1.contains("Luhn"));
        for clean in [
            "on 01/05/2024 at 10.15.7",
            "ip 192.168.100.200 is ours",
            "a budget of 12.500.000 euros",
            "version 2024.11.05",
            "see docs/v1/2023/guide",
        ] {
            assert!(found(clean).is_empty(), "{clean}: {:?}", found(clean));
        }
    }

    #[test]
    fn luhn_matches_known_values() {
        assert!(luhn(b"4111111111111111"));
        assert!(luhn(b"79927398713"));
        assert!(!luhn(b"79927398710"));
    }
}
