//! Filters applied to a pattern's match before it becomes a finding: placeholder values,
//! entropy thresholds and format checksums. They keep shape-only rules precise on prose.

use crate::rules::schema::ValidatorName;

/// Shannon entropy in bits per byte.
pub(crate) fn shannon_entropy(value: &[u8]) -> f64 {
    if value.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in value {
        counts[b as usize] += 1;
    }
    let len = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

/// Substrings that mark a value as a fill-in, in one automaton (a `contains` per marker sets up
/// a searcher per call, which costs more than the search on values this short).
static PLACEHOLDER_MARKERS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        const MARKERS: &[&str] = &[
            "xxxx",
            "example",
            "redacted",
            "your_",
            "your-",
            "yourkey",
            "placeholder",
            "dummy",
            "sample",
            "insert",
            "****",
            "....",
            "…",
            "akiaiosfodnn7example",
            "wjalrxutnfemi/k7mdeng/bpxrficyexamplekey",
        ];
        #[allow(clippy::expect_used)]
        aho_corasick::AhoCorasick::new(MARKERS)
            // A fixed list of short literals: building cannot fail.
            .expect("placeholder markers build")
    });

/// Values that are documentation or template fill-ins rather than credentials.
pub(crate) fn is_placeholder(value: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(value) else {
        return false;
    };
    let lower = s.to_ascii_lowercase();
    let trimmed = lower.trim_matches(|c: char| c == '"' || c == '\'' || c == '`');
    if trimmed.is_empty() {
        return true;
    }
    // Template syntax: ${VAR}, $VAR, {{x}}, <your-key>, %s, [REDACTED]
    if trimmed.starts_with("${")
        || trimmed.starts_with("{{")
        || trimmed.starts_with('<')
        || trimmed.starts_with("%(")
        || (trimmed.starts_with('$')
            && trimmed[1..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        || trimmed.starts_with('[')
    {
        return true;
    }
    if PLACEHOLDER_MARKERS.is_match(&lower) {
        return true;
    }
    if is_stock_value(trimmed) {
        return true;
    }
    // One repeated character (after the prefix, at least three quarters of the value): a byte
    // that frequent is the majority, which one voting pass finds.
    let bytes = trimmed.as_bytes();
    if bytes.len() < 8 {
        return false;
    }
    let (mut candidate, mut votes) = (0u8, 0usize);
    for &b in bytes {
        if votes == 0 {
            candidate = b;
        }
        votes = if b == candidate { votes + 1 } else { votes - 1 };
    }
    let max = bytes.iter().filter(|&&b| b == candidate).count();
    max * 4 >= bytes.len() * 3
}

/// Whole values that stand for "the password goes here" in documentation and snippets
/// (`https://user:password@host`, `password = None`), compared after undoing `$`/`@` letter
/// swaps. Only exact matches: a value that merely contains one is not dropped.
const STOCK_VALUES: &[&str] = &[
    // Only the bare word: `Changeme2024!` is a weak password in use, not a fill-in.
    "changeme",
    "password",
    "passwd",
    "pass",
    "pwd",
    "passphrase",
    "username",
    "user",
    "apikey",
    "apitoken",
    "accesstoken",
    "secretkey",
    "token",
    "null",
    "none",
    "nil",
    "true",
    "false",
    "undefined",
    "empty",
    "hidden",
    "required",
    "optional",
    "string",
];

/// Whether the lower-cased value, with `$`→s, `@`→a and `-`/`_` removed, is one of
/// [`STOCK_VALUES`].
fn is_stock_value(lower: &str) -> bool {
    if lower.len() > 24 {
        return false;
    }
    let folded = lower
        .bytes()
        .filter(|b| *b != b'-' && *b != b'_')
        .map(|b| match b {
            b'$' => b's',
            b'@' => b'a',
            other => other,
        });
    let mut buf = [0u8; 24];
    let mut n = 0;
    for b in folded {
        buf[n] = b;
        n += 1;
    }
    STOCK_VALUES.iter().any(|v| v.as_bytes() == &buf[..n])
}

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

fn base62_6(mut n: u32) -> [u8; 6] {
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    out
}

/// `prefix_random + checksum6`: the checksum is base62(CRC32(random part)), left-padded to 6.
fn token_checksum_ok(token: &[u8], prefix_len: usize) -> bool {
    if token.len() < prefix_len + 7 {
        return false;
    }
    let (body, check) = token.split_at(token.len() - 6);
    let random = &body[prefix_len..];
    base62_6(crc32(random)) == check
}

/// Luhn over the digits, for values long enough to be card numbers.
fn luhn_ok(value: &[u8]) -> bool {
    value.iter().filter(|b| b.is_ascii_digit()).count() >= 12 && luhn(value)
}

/// The Luhn checksum over the digits of `s` (other bytes are skipped).
pub(crate) fn luhn(s: &[u8]) -> bool {
    let mut sum = 0u32;
    for (k, c) in s.iter().rev().filter(|c| c.is_ascii_digit()).enumerate() {
        let mut d = u32::from(c - b'0');
        if k % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    sum.is_multiple_of(10)
}

/// A JWT segment, decoded (unpadded base64url; the standard alphabet is accepted too).
fn decode_base64_any(input: &[u8]) -> Option<Vec<u8>> {
    crate::decode::base64_bytes(input, JWT_SEGMENT_LIMIT)
}

/// JWT headers and payloads in a reply are small; a longer segment is not decoded in full.
const JWT_SEGMENT_LIMIT: usize = 16 * 1024;

fn jwt_ok(token: &[u8]) -> bool {
    let mut parts = token.split(|&b| b == b'.');
    let header = parts.next().unwrap_or_default();
    let Some(decoded) = decode_base64_any(header) else {
        return false;
    };
    match serde_json::from_slice::<serde_json::Value>(&decoded) {
        Ok(serde_json::Value::Object(map)) => map.contains_key("alg") || map.contains_key("typ"),
        // A header damaged by a copy (one flipped character) no longer parses, yet it is still
        // a token: accept it when it still reads `{"alg":` and the payload decodes to a JSON
        // object.
        _ => {
            decoded.starts_with(b"{\"alg\":")
                && parts.next().and_then(decode_base64_any).is_some_and(|p| {
                    matches!(
                        serde_json::from_slice::<serde_json::Value>(&p),
                        Ok(serde_json::Value::Object(_))
                    )
                })
        }
    }
}

/// What a validator said about a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The format's own check passed: report at the rule's severity, with confidence.
    Valid,
    /// The format has a check and it failed: still report (the shape leaks), at lower severity.
    Invalid,
    /// Not the format at all: drop.
    Reject,
}

pub(crate) fn validate(name: ValidatorName, value: &[u8]) -> Verdict {
    let ok = |b: bool| if b { Verdict::Valid } else { Verdict::Invalid };
    match name {
        ValidatorName::GithubChecksum => ok(token_checksum_ok(value, 4)),
        ValidatorName::NpmChecksum => ok(token_checksum_ok(value, 4)),
        ValidatorName::Jwt => {
            if jwt_ok(value) {
                Verdict::Valid
            } else {
                Verdict::Reject
            }
        }
        ValidatorName::Luhn => ok(luhn_ok(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_matches_known_values() {
        assert!(luhn(b"4111111111111111"));
        assert!(luhn(b"79927398713"));
        assert!(!luhn(b"79927398710"));
    }

    #[test]
    fn entropy_orders_random_above_words() {
        assert!(shannon_entropy(b"aaaaaaaa") < 0.1);
        assert!(shannon_entropy(b"password") < 3.0);
        assert!(shannon_entropy(b"q8Zr2LmXv9TfK1wYpA3d") > 4.0);
    }

    #[test]
    fn placeholders_are_recognised() {
        for p in [
            "${API_KEY}",
            "{{ token }}",
            "<your-key>",
            "xxxxxxxxxxxxxxxx",
            "AKIAIOSFODNN7EXAMPLE",
            "aaaaaaaaaaaaaaaaaaaa",
            "$TOKEN",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p}");
        }
        assert!(!is_placeholder(b"q8Zr2LmXv9TfK1wYpA3d"));
    }

    #[test]
    fn stock_values_are_placeholders_only_as_whole_values() {
        for p in [
            "password", "PASSWORD", "pa$$word", "api_key", "'passwd'", "None",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p}");
        }
        for real in [
            "secret",
            "contoso",
            "P@ssw0rd",
            "hunter2pass",
            "mypassword-9Xq2",
        ] {
            assert!(!is_placeholder(real.as_bytes()), "{real}");
        }
    }

    #[test]
    fn crc32_matches_known_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn github_checksum_round_trips() {
        let random = b"abcdefghijklmnopqrstuvwxyzABCD";
        let mut token = b"ghp_".to_vec();
        token.extend_from_slice(random);
        token.extend_from_slice(&base62_6(crc32(random)));
        assert_eq!(
            validate(ValidatorName::GithubChecksum, &token),
            Verdict::Valid
        );
        let last = token.len() - 1;
        token[last] = if token[last] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            validate(ValidatorName::GithubChecksum, &token),
            Verdict::Invalid
        );
    }

    #[test]
    fn luhn_and_jwt() {
        assert_eq!(
            validate(ValidatorName::Luhn, b"4111 1111 1111 1111"),
            Verdict::Valid
        );
        assert_eq!(
            validate(ValidatorName::Luhn, b"4111 1111 1111 1112"),
            Verdict::Invalid
        );
        let jwt = b"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.sig";
        assert_eq!(validate(ValidatorName::Jwt, jwt), Verdict::Valid);
        assert_eq!(
            validate(ValidatorName::Jwt, b"eyJub3Rqc29u.x.y"),
            Verdict::Reject
        );
        // {"alg":"HS256",<one damaged byte>"typ":"JWT"} with a JSON payload is still a token.
        let damaged = b"eyJhbGciOiJIUzI1NiIsEnR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.sig";
        assert_eq!(validate(ValidatorName::Jwt, damaged), Verdict::Valid);
        // ...but not when the payload is not JSON.
        let junk = b"eyJhbGciOiJIUzI1NiIsEnR5cCI6IkpXVCJ9.c29tZXRoaW5n.sig";
        assert_eq!(validate(ValidatorName::Jwt, junk), Verdict::Reject);
    }
}
