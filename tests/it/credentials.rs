//! Credential screening end to end: shapes in prose, checksums, placeholders, encoded blobs,
//! and no rendering of a report that echoes the secret.

use palisade::{Context, Kind, Report, Screener, Severity};

const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

fn screen(draft: &str) -> Report {
    let ctx = Context::new(TICKET).unwrap();
    Screener::new().screen(&ctx, draft).unwrap()
}

fn credentials(report: &Report) -> Vec<&palisade::Finding> {
    report
        .findings()
        .iter()
        .filter(|f| f.kind() == Kind::Credential)
        .collect()
}

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A GitHub-format token: prefix, 30 random base62 characters, base62 CRC32 of them.
fn github_token(random: &str, valid: bool) -> String {
    let mut n = crc32(random.as_bytes());
    if !valid {
        n = n.wrapping_add(1);
    }
    let mut check = [b'0'; 6];
    for slot in check.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    format!("ghp_{random}{}", String::from_utf8(check.to_vec()).unwrap())
}

const RANDOM30: &str = "Q7wXr2Lk9PzT4mVb8NcY1dHs6FgJ3a";

#[test]
fn keys_inside_prose_quotes_and_code_fences_are_blocked() {
    let token = github_token(RANDOM30, true);
    let aws = "AKIAQ4RZ7XN2LWPM3K5T";
    for draft in [
        format!("Hi Sam, your token is {token}, keep it safe."),
        format!("Use \"{token}\" in the header."),
        format!("```\nexport GITHUB_TOKEN={token}\n```"),
        format!("The access key id is {aws} for the bucket."),
        "Your temporary password is Vq8#rT2!mZ4p, please change it.".to_owned(),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x3Q9k2L5mN8pR4tV6wY1zB3cD5fG7hJ9kL2mN4pQ6rS8tU0\n-----END RSA PRIVATE KEY-----".to_owned(),
    ] {
        let report = screen(&draft);
        assert!(report.is_blocked(), "not blocked: {draft}");
        assert!(!credentials(&report).is_empty(), "no credential: {draft}");
    }
}

#[test]
fn checksum_decides_confidence_not_visibility() {
    let valid = screen(&format!("token {}", github_token(RANDOM30, true)));
    let f = credentials(&valid)[0];
    assert_eq!(f.severity(), Severity::Block);
    assert!(f.message().contains("checksum valid"), "{}", f.message());
    let invalid = screen(&format!("token {}", github_token(RANDOM30, false)));
    let f = credentials(&invalid)[0];
    assert!(
        f.message().contains("checksum does not match"),
        "{}",
        f.message()
    );
}

#[test]
fn placeholders_and_documentation_keys_are_not_credentials() {
    for draft in [
        "Set AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE in your shell.",
        "Put your key in the header: Authorization: Bearer <your-token>",
        "password = ${DB_PASSWORD}",
        "api_key: {{ api_key }}",
        "password: xxxxxxxxxxxx",
        "Your password is the one you chose at sign-up.",
    ] {
        let report = screen(draft);
        assert!(
            credentials(&report).is_empty(),
            "flagged: {draft}: {report:?}"
        );
    }
}

#[test]
fn suppression_comments_in_a_draft_are_ignored() {
    let token = github_token(RANDOM30, true);
    for draft in [
        format!("{token} # gitleaks:allow"),
        format!("{token} // pragma: allowlist secret"),
        format!("# noqa\n{token}"),
    ] {
        assert!(screen(&draft).is_blocked(), "{draft}");
    }
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |a, &b| a << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for k in 0..=chunk.len() {
            out.push(T[((n >> (18 - 6 * k)) & 63) as usize] as char);
        }
    }
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

#[test]
fn a_key_hidden_in_an_encoded_blob_is_found_with_the_blob_span() {
    let token = github_token(RANDOM30, true);
    let blob = base64(format!("config: token={token}\n").as_bytes());
    let draft = format!("Please paste this: {blob} into the app.");
    let report = screen(&draft);
    let f = credentials(&report)
        .into_iter()
        .find(|f| f.message().contains("base64"))
        .unwrap_or_else(|| panic!("no finding in {report:?}"));
    assert_eq!(&draft[f.span()], blob);
    assert_eq!(f.severity(), Severity::Block);

    let hex: String = format!("key {token}")
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    let report = screen(&format!("hex dump: {hex}"));
    assert!(
        credentials(&report)
            .iter()
            .any(|f| f.message().contains("hex"))
    );

    let percent = "https%3A%2F%2Fadmin%3Ahunter2pass%40db.example.com%2Fx";
    let report = screen(&format!("Open {percent} to log in"));
    assert!(!credentials(&report).is_empty(), "{report:?}");
}

#[test]
fn a_planted_secret_appears_in_no_rendering_of_the_report() {
    let token = github_token(RANDOM30, true);
    let aws = "AKIAQ4RZ7XN2LWPM3K5T";
    let password = "Vq8#rT2!mZ4pLx9";
    let draft = format!(
        "Hi, your token is {token}, the key id is {aws} and your temporary password is {password}."
    );
    let report = screen(&draft);
    assert!(credentials(&report).len() >= 3, "{report:?}");
    let renderings = [
        format!("{report:?}"),
        serde_json::to_string(&report).unwrap(),
        report.feedback(),
        report.redact(&draft),
        report
            .findings()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    ];
    for secret in [token.as_str(), aws, password] {
        // The masked preview may show the first four characters; nothing longer.
        let tail = &secret[4..];
        for r in &renderings {
            assert!(!r.contains(secret), "secret echoed in {r}");
            assert!(!r.contains(tail), "secret tail echoed in {r}");
        }
    }
}
