//! `email`: email addresses in a draft that the context does not allow.
//!
//! A reply that names an address can leak another customer's contact or send the customer to
//! a wrong or hostile inbox. Addresses with plus-addressing (`jane+billing@...`) and
//! subdomains (`mail.example.co.uk`) count; the support address the context allows does not
//! (exact address, or a whole domain, see [`Context::email_allowed`]). Without a context (the
//! input side) every address is reported.
//!
//! Obfuscated addresses count too, with the address they stand for checked against the
//! context: `jane (at) example (dot) com`, `jane[at]example.com`, `jane%40example.com`,
//! `jane&#64;example.com`, and the spoken form `jane at example dot com` (which needs a spoken
//! or bracketed `dot` and a common top-level domain, so "log in at example.com" stays clean).
//!
//! Not addresses: handles ("@support"), hosts without a dot (`bob@localhost`), numeric
//! top-level domains (`a@1.2.3.4`).
//!
//! Speed: `memchr` jumps from `@` to `@`; only the bytes around each are read. The obfuscated
//! forms are looked for only in a view holding one of their markers (`at)`, `at]`, `%40`,
//! `&#`, ` dot `), which clean prose rarely does; see [`may_hold_obfuscated`].

use std::sync::LazyLock;

use memchr::{memchr_iter, memchr2_iter, memchr3_iter};
use regex::Regex;

use super::Emit;
use crate::rules::words;
use crate::screen::Context;

/// Longest local part (RFC 5321) and domain.
const MAX_LOCAL: usize = 64;
const MAX_DOMAIN: usize = 253;

/// What the prefilter looks for on the check's behalf (see [`run`]): `@`, and the first bytes
/// of the obfuscation markers (`at)`, `at]`, `%40`, `&#`, a spoken `dot`).
pub(crate) const ANCHOR_LITERALS: &[&[&str]] = &[&["@", "at)", "at]", "%40", "&#", "dot"]];

/// Reports every address in `view` that `ctx` does not allow. `anchors` are the prefilter's
/// hits for [`ANCHOR_LITERALS`], ascending; `None` finds them here.
pub(crate) fn run(
    view: &str,
    anchors: Option<&[usize]>,
    ctx: Option<&Context>,
    emit: &mut Emit<'_>,
) {
    let b = view.as_bytes();
    let plain = |at: usize, emit: &mut Emit<'_>| {
        let Some(span) = address_at(b, at) else {
            return;
        };
        if ctx.is_some_and(|c| c.email_allowed(&view[span.clone()])) {
            return;
        }
        emit(span, None);
    };
    match anchors {
        Some(offsets) => {
            let mut marked = false;
            for &at in offsets {
                if b[at] == b'@' {
                    plain(at, emit);
                } else {
                    marked |= marker_at(b, at);
                }
            }
            if marked {
                obfuscated(view, ctx, emit);
            }
        }
        None => {
            for at in memchr_iter(b'@', b) {
                plain(at, emit);
            }
            if may_hold_obfuscated(b) {
                obfuscated(view, ctx, emit);
            }
        }
    }
}

/// Whether an obfuscation marker starts at `at`, where the prefilter found one of
/// [`ANCHOR_LITERALS`] other than `@` (a `dot` counts between spaces only).
fn marker_at(b: &[u8], at: usize) -> bool {
    !is_dot(b, at) || spoken_dot_at(b, at)
}

/// Whether `dot` starts at `at`, in any letter case.
fn is_dot(b: &[u8], at: usize) -> bool {
    b.get(at..at + 3)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"dot"))
}

/// Whether a spoken `dot` (between spaces, any letter case) starts at `at`.
fn spoken_dot_at(b: &[u8], at: usize) -> bool {
    at > 0 && b[at - 1] == b' ' && is_dot(b, at) && b.get(at + 3) == Some(&b' ')
}

/// Bracketed `at`/`dot`, percent- or entity-encoded `@`, or the spoken form (see the module
/// docs). The `local` and `domain` groups are rebuilt into the address the context is asked
/// about.
static OBFUSCATED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        \b (?P<local> [a-z0-9] [a-z0-9._+-]{0,63} )
        (?:
            \s* [(\[{<] \s* at \s* [)\]}>] \s* | %40 | &\#0*64; | &\#x40;
        )
        (?P<domain> [a-z0-9-]{1,63} (?: (?: \s* [(\[{<] \s* dot \s* [)\]}>] \s* | \s+ dot \s+ | \. ) [a-z0-9-]{1,63} ){1,4} ) \b
      | \b (?P<local2> [a-z0-9] [a-z0-9._+-]{0,63} ) \s+ at \s+
        (?P<domain2> [a-z0-9-]{1,63} (?: (?: \s* [(\[{<] \s* dot \s* [)\]}>] \s* | \s+ dot \s+ ) [a-z0-9-]{1,63} ){0,3}
          (?: \s* [(\[{<] \s* dot \s* [)\]}>] \s* | \s+ dot \s+ )
          (?: com | org | net | edu | gov | io | co | de | fr | uk | es | it | nl | eu | info | biz | us | ca | au
            | ch | at | be | pl | ru | jp | cn | br | in | me | dev | app | se | no | dk | fi | pt | ie | mx | tr ) ) \b",
    )
    .ok()
});

/// Whether the view may hold an obfuscated address: a bracketed `at` (`at)`, `at]`, any case),
/// `%40`, `&#`, or a spoken ` dot ` (any case, as [`marker_at`] reads it). A Teddy search for
/// all five took the common pairs `at` and ` d` as its fingerprints and stopped at most words;
/// the rare closing brackets, `%` and `&`, and each `d`, are found by `memchr` and the bytes
/// around them read there.
fn may_hold_obfuscated(b: &[u8]) -> bool {
    let marked = memchr3_iter(b')', b']', b'%', b).any(|i| match b[i] {
        b'%' => b[i + 1..].starts_with(b"40"),
        _ => i >= 2 && b[i - 2..i].eq_ignore_ascii_case(b"at"),
    });
    marked
        || memchr_iter(b'&', b).any(|i| b.get(i + 1) == Some(&b'#'))
        || memchr2_iter(b'd', b'D', b).any(|i| spoken_dot_at(b, i))
}

fn obfuscated(view: &str, ctx: Option<&Context>, emit: &mut Emit<'_>) {
    let Some(re) = OBFUSCATED.as_ref() else {
        return;
    };
    for caps in re.captures_iter(view) {
        let (Some(whole), Some(local), Some(domain)) = (
            caps.get(0),
            caps.name("local").or_else(|| caps.name("local2")),
            caps.name("domain").or_else(|| caps.name("domain2")),
        ) else {
            continue;
        };
        // The labels are the domain's words (the pattern lets no apostrophe in), less the
        // spoken or bracketed "dot"s between them.
        let domain = domain.as_str();
        let domain: String = words(domain.as_bytes())
            .map(|w| &domain[w])
            .filter(|l| !l.eq_ignore_ascii_case("dot"))
            .collect::<Vec<_>>()
            .join(".");
        let address = format!("{}@{domain}", local.as_str());
        let Some(span) = address_at(address.as_bytes(), local.as_str().len()) else {
            continue;
        };
        if span.len() != address.len() || ctx.is_some_and(|c| c.email_allowed(&address)) {
            continue;
        }
        emit(
            whole.range(),
            Some(format!("written in disguise; the address is {address}")),
        );
    }
}

fn is_local(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-')
}

fn is_domain(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-')
}

/// The address around the `@` at `at`, if it is one.
fn address_at(b: &[u8], at: usize) -> Option<std::ops::Range<usize>> {
    // Local part: back over local characters, then drop leading dots.
    let mut start = at;
    while start > 0 && is_local(b[start - 1]) {
        start -= 1;
        if at - start > MAX_LOCAL {
            return None;
        }
    }
    while start < at && b[start] == b'.' {
        start += 1;
    }
    let local = &b[start..at];
    if local.is_empty() || local.ends_with(b".") || local.windows(2).any(|w| w == b"..") {
        return None;
    }
    // Domain: forward over domain characters, then drop a trailing sentence dot or dash.
    let mut end = at + 1;
    while end < b.len() && is_domain(b[end]) {
        end += 1;
        if end - at - 1 > MAX_DOMAIN {
            return None;
        }
    }
    while end > at + 1 && matches!(b[end - 1], b'.' | b'-') {
        end -= 1;
    }
    let domain = &b[at + 1..end];
    let mut labels = 0;
    let mut tld: &[u8] = &[];
    for label in domain.split(|&c| c == b'.') {
        if label.is_empty() || label.len() > 63 || label.starts_with(b"-") || label.ends_with(b"-")
        {
            return None;
        }
        labels += 1;
        tld = label;
    }
    let tld_ok =
        tld.len() >= 2 && (tld.iter().all(u8::is_ascii_alphabetic) || tld.starts_with(b"xn--"));
    (labels >= 2 && tld_ok).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    proptest::proptest! {
        /// The marker test finds a marker exactly where a search per marker does.
        #[test]
        fn marker_search_agrees_with_one_pass_per_marker(
            text in "([a-zA-Z ]{0,12}(%40|&#|at\\)|AT]|aT\\)|at]|dot| dot | DOT | dOt |%4|a t\\)|&|\\)|])?){0,8}"
        ) {
            use memchr::memmem;
            let b = text.as_bytes();
            let lower = text.to_ascii_lowercase();
            let per_marker = [&b"%40"[..], b"&#", b"at)", b"at]", b" dot "]
                .iter()
                .any(|m| memmem::find(lower.as_bytes(), m).is_some());
            proptest::prop_assert_eq!(may_hold_obfuscated(b), per_marker, "{:?}", text);
        }
    }

    /// Without the prefilter's anchors the spoken form is found in any letter case, as with
    /// them (the engine's differential test caught " DOT " read only in lower case).
    #[test]
    fn spoken_dot_in_capitals_is_found_without_anchors() {
        assert_eq!(
            found("WRITE TO JANE AT EXAMPLE DOT COM.", None),
            vec!["JANE AT EXAMPLE DOT COM"]
        );
        assert_eq!(
            found("Mail jane at example Dot com", None),
            vec!["jane at example Dot com"]
        );
    }

    fn found(text: &str, ctx: Option<&Context>) -> Vec<String> {
        let mut out = Vec::new();
        run(text, None, ctx, &mut |r: Range<usize>, _| {
            out.push(text[r].to_owned())
        });
        out
    }

    fn ctx() -> Context {
        Context::without_ticket().allow_email("support@example.com")
    }

    #[test]
    fn obfuscated_addresses_are_found_unless_allowed() {
        for text in [
            "Contact john at example dot com for help.",
            "Write to john (at) acme (dot) org.",
            "Write to john[at]acme[dot]org.",
            "Mail john%40acme.org today",
            "Mail john&#64;acme.org today",
        ] {
            assert_eq!(found(text, Some(&ctx())).len(), 1, "{text}");
        }
        for clean in [
            "Log in at example.com with your account.",
            "We met at noon dot by dot.",
            "Write to support (at) example (dot) com.",
            "I looked at it (at least twice).",
        ] {
            assert!(found(clean, Some(&ctx())).is_empty(), "{clean}");
        }
    }

    #[test]
    fn addresses_are_found() {
        let c = ctx();
        for (text, want) in [
            (
                "Write to jane.doe+billing@mail.example.org for help.",
                "jane.doe+billing@mail.example.org",
            ),
            ("Contact bob@corp.example.co.uk.", "bob@corp.example.co.uk"),
            ("(a@b.io)", "a@b.io"),
            ("mailto:Bob_O%x@Example.COM,", "Bob_O%x@Example.COM"),
            ("<sales@example.com>", "sales@example.com"),
            ("...bob@example.com...", "bob@example.com"),
            ("help@xn--bcher-kva.xn--p1ai", "help@xn--bcher-kva.xn--p1ai"),
            // Not the allowed address: plus-addressing and other mailboxes differ.
            ("support+x@example.com", "support+x@example.com"),
            ("support@example.com.evil.io", "support@example.com.evil.io"),
        ] {
            assert_eq!(found(text, Some(&c)), vec![want], "{text}");
        }
    }

    #[test]
    fn allowed_and_non_addresses_are_not_found() {
        let c = ctx();
        for text in [
            "Reach us at support@example.com any time.",
            "Reach us at SUPPORT@Example.com.",
            "Mention @support on the forum, or @help.",
            "user@localhost and a@1.2.3.4 and a@b.c",
            "a@-example.com and a@example-.com and a..b@example.com and a.@example.com",
            "bob@example..com",
            "@example.com",
            "email@",
            "",
        ] {
            assert_eq!(found(text, Some(&c)), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn without_a_context_every_address_is_found() {
        assert_eq!(
            found("support@example.com", None),
            vec!["support@example.com"]
        );
    }

    #[test]
    fn allowed_domains_cover_subdomains() {
        let c = Context::without_ticket().allow_email("@example.com");
        assert_eq!(
            found("a@eu.example.com b@example.org", Some(&c)),
            vec!["b@example.org"]
        );
    }

    #[test]
    fn an_overlong_local_part_is_not_an_address() {
        let text = format!("{}@example.com", "a".repeat(65));
        assert_eq!(found(&text, None), Vec::<String>::new());
        let text = format!("{}@example.com", "a".repeat(64));
        assert_eq!(found(&text, None).len(), 1);
    }
}
