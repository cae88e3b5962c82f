//! `screen`: an arbitrary draft and context. Finding spans are in bounds, on char
//! boundaries and in order; `is_blocked()` agrees with the severities; `redact`, `feedback`
//! and the JSON round trip hold up.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use palisade::{Context, Screener};

#[path = "../../tests/it/hostile/props.rs"]
mod props;

/// Pieces inserted into the draft, so ids, addresses and numbers the checks look at (and the
/// context's own ones) show up far more often than random bytes would make them.
#[derive(Debug, Arbitrary)]
enum Piece<'a> {
    Uuid([u8; 16], u8),
    TicketId(u8),
    AllowedId(u8, u8),
    Email(&'a str, &'a str),
    AllowedEmail(u8),
    Digits(u64, u8),
    Credential(u8, [u8; 40]),
    Text(&'a str),
}

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    ticket: Option<[u8; 16]>,
    allowed_ids: Vec<[u8; 16]>,
    allowed_emails: Vec<&'a str>,
    max_words: Option<u16>,
    /// (byte offset in the draft, piece): inserted at the nearest char boundary.
    inserts: Vec<(u16, Piece<'a>)>,
    /// The rest of the input, as lossy UTF-8.
    draft: &'a [u8],
}

const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

fn render(piece: &Piece<'_>, input: &Input<'_>) -> String {
    match piece {
        Piece::Uuid(b, style) => props::uuid_string(*b, *style),
        Piece::TicketId(style) => input
            .ticket
            .map(|t| props::uuid_string(t, *style))
            .unwrap_or_default(),
        Piece::AllowedId(i, style) => match input.allowed_ids.len() {
            0 => String::new(),
            n => props::uuid_string(input.allowed_ids[usize::from(*i) % n], *style),
        },
        Piece::Email(local, domain) => format!("{local}@{domain}"),
        Piece::AllowedEmail(i) => match input.allowed_emails.len() {
            0 => String::new(),
            n => {
                let e = input.allowed_emails[usize::from(*i) % n];
                if e.contains('@') && !e.starts_with('@') {
                    e.to_owned()
                } else {
                    format!("someone@{}", e.trim_start_matches('@'))
                }
            }
        },
        Piece::Digits(n, sep) => {
            let digits = n.to_string();
            match sep % 4 {
                0 => digits,
                1 => digits
                    .as_bytes()
                    .chunks(4)
                    .map(|c| String::from_utf8_lossy(c).into_owned())
                    .collect::<Vec<_>>()
                    .join(" "),
                2 => digits
                    .as_bytes()
                    .chunks(3)
                    .map(|c| String::from_utf8_lossy(c).into_owned())
                    .collect::<Vec<_>>()
                    .join("-"),
                _ => format!("+{digits}"),
            }
        }
        Piece::Credential(kind, bytes) => {
            let body: String = bytes
                .iter()
                .map(|b| char::from(BASE62[usize::from(*b) % BASE62.len()]))
                .collect();
            match kind % 4 {
                0 => format!("AKIA{}", body[..16].to_ascii_uppercase()),
                1 => format!("ghp_{}", &body[..36]),
                2 => format!("password: {}", &body[..14]),
                _ => format!("xoxb-{}-{}", &body[..12], &body[12..]),
            }
        }
        Piece::Text(s) => (*s).to_owned(),
    }
}

fuzz_target!(|input: Input<'_>| {
    if input.draft.len() > props::MAX_INPUT {
        return;
    }
    let mut ctx = match input.ticket {
        Some(t) => Context::new(&props::uuid_string(t, 0)).expect("a formatted UUID parses"),
        None => Context::without_ticket(),
    };
    for (i, id) in input.allowed_ids.iter().enumerate() {
        ctx = ctx
            .allow_id(&props::uuid_string(*id, i as u8))
            .expect("a formatted UUID parses");
    }
    for e in &input.allowed_emails {
        ctx = ctx.allow_email(e);
    }
    if let Some(w) = input.max_words {
        ctx = ctx.max_words(usize::from(w));
    }
    let mut draft = String::from_utf8_lossy(input.draft).into_owned();
    for (at, piece) in &input.inserts {
        let mut at = usize::from(*at).min(draft.len());
        while !draft.is_char_boundary(at) {
            at -= 1;
        }
        draft.insert_str(at, &render(piece, &input));
    }
    if draft.len() > props::MAX_INPUT {
        return;
    }
    props::check_screen(&Screener::new(), &ctx, &draft);
});
