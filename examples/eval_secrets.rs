//! Credential-detection accuracy over the shared secret corpora and a generated clean-prose
//! corpus.
//!
//! ```text
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets --show-misses github
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets --show-misses all
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets --show-clean-hits
//! cargo run --release --example eval_secrets -- ../shared/corpora/secrets --rules my.toml
//! ```
//!
//! `--show-misses FAMILY` prints the text of missed `secret` rows of that upstream family (`all`
//! for every family, `covered` for the families we claim); `--show-clean-hits` prints the clean
//! rows flagged by a rule claiming the row's family, with the rule. Both are debugging aids: they
//! print corpus text, never anything from the repository.
//!
//! For each `*.jsonl` file (rows `{"source", "rule", "text", "expect": "secret"|"clean"}`):
//! recall on `secret` rows (any credential finding on the row counts), clean rows flagged by a
//! rule that claims the same family as the row's upstream rule, and clean rows flagged by any
//! credential rule. Then the clean-prose check: about 1.5 MiB of generated support replies
//! full of near misses (order numbers, UUIDs, git SHAs, hashes, tracking codes, amounts,
//! markdown base64 images), where any credential finding is a false positive.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use palisade::{Context, Kind, Screener};

/// Command-line options.
#[derive(Default)]
struct Options {
    /// Print the missed `secret` rows of this upstream family (`all`, `covered`).
    show_misses: Option<String>,
    /// Print the clean rows flagged by a rule claiming the row's family.
    show_clean_hits: bool,
    /// Extra rule files added to the embedded ones (to try a rule before embedding it).
    rules: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let usage = "usage: eval_secrets DIR [--show-misses FAMILY|all|covered] [--show-clean-hits] [--rules FILE]...";
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut opts = Options::default();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--show-misses" => match args.next() {
                Some(f) => opts.show_misses = Some(f.to_ascii_lowercase()),
                None => {
                    eprintln!("{usage}");
                    return ExitCode::from(2);
                }
            },
            "--show-clean-hits" => opts.show_clean_hits = true,
            "--rules" => match args.next() {
                Some(f) => opts.rules.push(PathBuf::from(f)),
                None => {
                    eprintln!("{usage}");
                    return ExitCode::from(2);
                }
            },
            _ if dir.is_none() && !a.starts_with("--") => dir = Some(PathBuf::from(a)),
            _ => {
                eprintln!("{usage}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!("{usage}   (DIR is the folder holding the secrets *.jsonl files)");
        return ExitCode::from(2);
    };
    match run(&dir, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_secrets: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Default)]
struct Tally {
    secret_rows: usize,
    secret_found: usize,
    covered_rows: usize,
    covered_found: usize,
    clean_rows: usize,
    /// Clean rows whose text (up to quoting and white space) is a `secret` row of another
    /// upstream rule, or listed in [`DISPUTED_CLEAN`]: left out of the same-family rate.
    clean_contradicted: usize,
    clean_same_family: usize,
    clean_any: usize,
}

/// The family word of an upstream rule name: `np.github.1` → `github`.
fn upstream_family(rule: &str) -> String {
    let parts: Vec<&str> = rule.split('.').collect();
    let word = match parts.as_slice() {
        [_, family, ..] => family,
        [family] => family,
        [] => &"",
    };
    word.to_ascii_lowercase().replace(['-', '_'], "")
}

/// Upstream families whose name does not match the first words of the rule ids that cover
/// them: upstream family → our rule-id family words (the id after `credential.`, as a prefix
/// ending at a `-`). Kept explicit so the mapping is reviewable in both directions.
const ALIASES: &[(&str, &[&str])] = &[
    // Private keys: upstream names them by container, we by key kind.
    (
        "pem",
        &[
            "private-key",
            "openssh-private-key",
            "putty-private-key",
            "pgp-private-key",
        ],
    ),
    (
        "pemkey",
        &[
            "private-key",
            "openssh-private-key",
            "putty-private-key",
            "pgp-private-key",
        ],
    ),
    (
        "privatekey",
        &[
            "private-key",
            "openssh-private-key",
            "putty-private-key",
            "pgp-private-key",
        ],
    ),
    (
        "privkey",
        &[
            "private-key",
            "openssh-private-key",
            "putty-private-key",
            "pgp-private-key",
        ],
    ),
    ("jwt", &["json-web-token"]),
    ("awsjson", &["aws"]),
    ("amazon", &["aws", "amazon"]),
    ("squareup", &["square"]),
    ("hashicorp", &["vault", "terraform"]),
    ("facebook", &["meta"]),
    ("twitter", &["x-bearer-token"]),
    ("msteams", &["microsoft-teams"]),
    ("adafruitio", &["adafruit"]),
    ("alibabacloud", &["alibaba"]),
    ("dtrack", &["dependency-track"]),
    ("frame", &["frameio"]),
    ("mongodb", &["mongodb", "database-url"]),
    ("postgres", &["database-url"]),
    ("mysql", &["database-url"]),
    ("rabbitmq", &["amqp-url"]),
    (
        "uri",
        &["url-embedded", "database-url", "redis-url", "amqp-url"],
    ),
    (
        "url",
        &["url-embedded", "database-url", "redis-url", "amqp-url"],
    ),
    ("http", &["url-embedded", "authorization"]),
    ("ftp", &["url-embedded"]),
    ("odbc", &["odbc"]),
    ("netrc", &["netrc"]),
    ("dockerhub", &["dockerhub", "docker-config"]),
    ("sendinblue", &["brevo"]),
    ("kubernetes", &["kubernetes"]),
];

/// Upstream rules that flag identifiers, host names or public values rather than credentials
/// (Kingfisher and Nosey Parker report them to pair with the secret they belong to). Their rows
/// are not counted as rows of families we cover, whatever the family. Each entry says why.
const NOT_SECRETS: &[(&str, &str)] = &[
    ("kingfisher.age.1", "age recipient: an X25519 public key"),
    ("np.age.1", "age recipient: an X25519 public key"),
    ("kingfisher.algolia.2", "Algolia application id"),
    ("kingfisher.asana.1", "Asana client id"),
    ("kingfisher.azure.devops.2", "Azure DevOps organisation URL"),
    (
        "kingfisher.azurestorage.name.1",
        "Azure storage account name",
    ),
    ("kingfisher.bitbucket.1", "Bitbucket OAuth client id"),
    ("kingfisher.databricks.3", "Databricks workspace host name"),
    ("kingfisher.discord.3", "Discord client id"),
    ("kingfisher.facebook.1", "Facebook app id"),
    (
        "kingfisher.gcp.1",
        "service-account JSON without its private_key",
    ),
    (
        "kingfisher.google.1",
        "Google OAuth client id (…apps.googleusercontent.com)",
    ),
    (
        "np.google.1",
        "Google OAuth client id (…apps.googleusercontent.com)",
    ),
    ("kingfisher.mongodb.2", "MongoDB Atlas public API key"),
    ("kingfisher.okta.2", "Okta organisation host name"),
    ("kingfisher.paypal.1", "PayPal client id"),
    ("kingfisher.planetscale.2", "PlanetScale user name"),
    ("kingfisher.salesforce.2", "Salesforce instance URL"),
    ("kingfisher.shopify.2", "Shopify shop domain"),
    ("np.shopify.1", "Shopify shop domain"),
    ("kingfisher.sonarqube.2", "SonarQube host URL"),
    ("kingfisher.squareup.1", "Square application id (sq0idp-)"),
    ("kingfisher.twitter.1", "Twitter/X client id"),
    ("np.twitter.1", "Twitter/X client id"),
    ("np.aws.3", "AWS account id"),
];

/// Clean rows we deliberately flag because the text is a credential by our policy and by a
/// sibling upstream rule of the same family; the upstream label only says that one particular
/// upstream pattern must not match. (upstream rule, text fragment, why). They are counted in the
/// "disputed" column with the rows the corpora also label secret.
const DISPUTED_CLEAN: &[(&str, &str, &str)] = &[
    (
        "np.newrelic.2",
        "NRAL",
        "an NRAL-suffixed New Relic license key: np.newrelic.1 positives have this exact shape",
    ),
    (
        "np.postgres.1",
        "@[",
        "a postgres URL with a password and an IPv6 host: np.postgres.1 positives differ only in the host",
    ),
];

/// A row's text with white space and quote characters removed, so rows that differ only in
/// quoting (`password = 'x'` / `password = "x"`) compare equal.
fn loose(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '`'))
        .collect()
}

/// Whether our rule id claims the upstream family: the family equals the id's first words with
/// the dashes removed (`credential.new-relic-key` claims `newrelic` and not `newsapi`), or the
/// alias table maps the family to one of the id's prefixes.
fn claims(our_rule: &str, family: &str) -> bool {
    let id = our_rule.trim_start_matches("credential.");
    if family.is_empty() || id.is_empty() {
        return false;
    }
    if let Some((_, ours)) = ALIASES.iter().find(|(f, _)| *f == family) {
        return ours
            .iter()
            .any(|p| id == *p || id.starts_with(&format!("{p}-")));
    }
    let words: Vec<&str> = id.split('-').collect();
    (1..=words.len()).any(|k| words[..k].concat() == family)
}

fn run(dir: &Path, opts: &Options) -> Result<(), String> {
    let mut builder = Screener::builder();
    for f in &opts.rules {
        builder = builder.rules_file(f);
    }
    let screener = builder.build().map_err(|e| e.to_string())?;
    let ctx = Context::without_ticket();
    let our_rules: Vec<String> = screener
        .rules()
        .filter(|r| r.kind == Kind::Credential)
        .map(|r| r.id.clone())
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.jsonl files in {}", dir.display()));
    }
    // Every `secret` row's text, to spot clean rows the corpora also label secret.
    let mut secret_texts = std::collections::HashSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let row: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| format!("{}: malformed JSON: {e}", file.display()))?;
            if row.get("expect").and_then(|v| v.as_str()) == Some("secret")
                && let Some(t) = row.get("text").and_then(|v| v.as_str())
            {
                secret_texts.insert(loose(t));
            }
        }
    }
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut missed: BTreeMap<String, usize> = BTreeMap::new();
    let mut missed_covered: BTreeMap<String, usize> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let row: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: malformed JSON: {e}", file.display(), n + 1))?;
            let field = |k: &str| {
                row.get(k).and_then(|v| v.as_str()).ok_or_else(|| {
                    format!("{}:{}: missing string field {k:?}", file.display(), n + 1)
                })
            };
            let (source, rule, body, expect) = (
                field("source")?,
                field("rule")?,
                field("text")?,
                field("expect")?,
            );
            let report = screener
                .screen(&ctx, body)
                .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            let creds: Vec<&str> = report
                .findings()
                .iter()
                .filter(|f| f.kind() == Kind::Credential)
                .map(|f| f.rule())
                .collect();
            let t = tallies.entry(source.to_owned()).or_default();
            match expect {
                "secret" => {
                    t.secret_rows += 1;
                    let family = upstream_family(rule);
                    let covered = !NOT_SECRETS.iter().any(|(r, _)| *r == rule)
                        && our_rules.iter().any(|r| claims(r, &family));
                    if covered {
                        t.covered_rows += 1;
                        t.covered_found += usize::from(!creds.is_empty());
                    }
                    if creds.is_empty() {
                        *missed.entry(family.clone()).or_default() += 1;
                        if covered {
                            *missed_covered.entry(family.clone()).or_default() += 1;
                        }
                        let show = match opts.show_misses.as_deref() {
                            Some("all") => true,
                            Some("covered") => covered,
                            Some(f) => f == family,
                            None => false,
                        };
                        if show {
                            eprintln!("MISS {source} {rule}: {body:?}");
                        }
                    } else {
                        t.secret_found += 1;
                    }
                }
                "clean" => {
                    t.clean_rows += 1;
                    let family = upstream_family(rule);
                    let disputed = DISPUTED_CLEAN
                        .iter()
                        .any(|(r, frag, _)| *r == rule && body.contains(frag));
                    if disputed || secret_texts.contains(&loose(body)) {
                        t.clean_contradicted += 1;
                    } else if let Some(r) = creds.iter().find(|r| claims(r, &family)) {
                        t.clean_same_family += 1;
                        if opts.show_clean_hits {
                            eprintln!("CLEAN HIT {source} {rule} by {r}: {body:?}");
                        }
                    }
                    if !creds.is_empty() {
                        t.clean_any += 1;
                    }
                }
                other => {
                    return Err(format!(
                        "{}:{}: expect is {other:?}, not \"secret\" or \"clean\"",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    println!(
        "| source | secret rows | found | recall | rows of families we cover | found | recall | clean rows | disputed | flagged (same family) | rate | flagged (any credential) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let pct = |a: usize, b: usize| {
        if b == 0 {
            "n/a".to_owned()
        } else {
            format!("{:.1}%", 100.0 * a as f64 / b as f64)
        }
    };
    let mut all = Tally::default();
    for (source, t) in &tallies {
        println!(
            "| {source} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            t.secret_rows,
            t.secret_found,
            pct(t.secret_found, t.secret_rows),
            t.covered_rows,
            t.covered_found,
            pct(t.covered_found, t.covered_rows),
            t.clean_rows,
            t.clean_contradicted,
            t.clean_same_family,
            pct(t.clean_same_family, t.clean_rows - t.clean_contradicted),
            t.clean_any
        );
        all.secret_rows += t.secret_rows;
        all.secret_found += t.secret_found;
        all.covered_rows += t.covered_rows;
        all.covered_found += t.covered_found;
        all.clean_rows += t.clean_rows;
        all.clean_contradicted += t.clean_contradicted;
        all.clean_same_family += t.clean_same_family;
        all.clean_any += t.clean_any;
    }
    println!(
        "| **all** | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        all.secret_rows,
        all.secret_found,
        pct(all.secret_found, all.secret_rows),
        all.covered_rows,
        all.covered_found,
        pct(all.covered_found, all.covered_rows),
        all.clean_rows,
        all.clean_contradicted,
        all.clean_same_family,
        pct(
            all.clean_same_family,
            all.clean_rows - all.clean_contradicted
        ),
        all.clean_any
    );
    let mut missed: Vec<(String, usize)> = missed.into_iter().collect();
    missed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!();
    println!(
        "Missed secret rows by upstream family (top 30 of {}): {}",
        missed.len(),
        missed
            .iter()
            .take(30)
            .map(|(f, n)| format!("{f} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut missed_covered: Vec<(String, usize)> = missed_covered.into_iter().collect();
    missed_covered.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!();
    println!(
        "Missed rows of families we cover ({} families): {}",
        missed_covered.len(),
        missed_covered
            .iter()
            .map(|(f, n)| format!("{f} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );

    let prose = clean_prose(1_500_000);
    // Screened in chunks under the default 1 MiB input limit, cut on line boundaries.
    let mut flagged = 0;
    let mut at = 0;
    while at < prose.len() {
        let mut end = (at + (1 << 20)).min(prose.len());
        if end < prose.len() {
            end = prose[at..end].rfind('\n').map_or(end, |i| at + i + 1);
        }
        let r = screener
            .screen(&ctx, &prose[at..end])
            .map_err(|e| e.to_string())?;
        for f in r.findings().iter().filter(|f| f.kind() == Kind::Credential) {
            flagged += 1;
            let s = f.span();
            eprintln!(
                "clean-prose false positive: {} on {:?}",
                f.rule(),
                &prose[at + s.start..at + s.end]
            );
        }
        at = end;
    }
    println!();
    println!(
        "Clean prose: {} bytes of generated support replies, {} credential findings.",
        prose.len(),
        flagged
    );
    Ok(())
}

/// A small deterministic generator (xorshift) so the prose is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
    fn chars(&mut self, alphabet: &[u8], n: usize) -> String {
        (0..n)
            .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

const HEX: &[u8] = b"0123456789abcdef";
const UPPER_DIGITS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Support replies packed with the shapes that trip naive secret scanners.
fn clean_prose(bytes: usize) -> String {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut out = String::with_capacity(bytes + 1024);
    let greetings = [
        "Hi Sam,",
        "Hello Priya,",
        "Dear Mr. Okafor,",
        "Hi there,",
        "Good morning Lena,",
    ];
    let closings = [
        "Best regards,\nAna",
        "Kind regards,\nThe Support Team",
        "Thanks,\nMarco",
        "Cheers,\nJo",
    ];
    while out.len() < bytes {
        out.push_str(rng.pick(&greetings));
        out.push_str("\n\n");
        let uuid = format!(
            "{}-{}-4{}-a{}-{}",
            rng.chars(HEX, 8),
            rng.chars(HEX, 4),
            rng.chars(HEX, 3),
            rng.chars(HEX, 3),
            rng.chars(HEX, 12)
        );
        let sentences = [
            format!(
                "Your order ORD-{} shipped on 2024-0{}-1{}.",
                rng.next() % 90_000 + 10_000,
                rng.next() % 9 + 1,
                rng.next() % 9
            ),
            format!(
                "The tracking code is 1Z{} and the parcel is with the courier.",
                rng.chars(UPPER_DIGITS, 16)
            ),
            format!("Your case reference is {uuid}; keep it for your records."),
            format!(
                "We refunded ${},{:03}.{:02} to the original card.",
                rng.next() % 9 + 1,
                rng.next() % 1000,
                rng.next() % 100
            ),
            format!(
                "The fix landed in commit {} and ships in version 4.{}.{}.",
                rng.chars(HEX, 40),
                rng.next() % 20,
                rng.next() % 10
            ),
            format!("The download checksum (SHA-256) is {}.", rng.chars(HEX, 64)),
            format!(
                "Here is the screenshot you sent: ![screenshot](data:image/png;base64,iVBORw0KGgo{})",
                rng.chars(B64, 120)
            ),
            format!(
                "Your invoice INV-{}-{} is attached.",
                2024,
                rng.next() % 100_000
            ),
            "Please reset your password from the sign-in page; we never ask for it by email."
                .to_owned(),
            "Your API key is shown once in the dashboard under Settings > Developers.".to_owned(),
            "The token expired, so please sign in again and the app will refresh it.".to_owned(),
            format!("Session id {} is linked to this chat.", rng.chars(HEX, 32)),
            format!(
                "The coupon code SAVE{} is applied at checkout.",
                rng.next() % 90 + 10
            ),
            format!(
                "Your parcel locker PIN arrives by text; the locker is L-{}.",
                rng.next() % 900 + 100
            ),
            "If the page says secret = hidden, that is the privacy setting, not an error."
                .to_owned(),
            format!(
                "Reference: https://help.example.com/articles/{}-reset-your-router",
                rng.next() % 100_000
            ),
        ];
        for _ in 0..4 {
            let i = (rng.next() % sentences.len() as u64) as usize;
            out.push_str(&sentences[i]);
            out.push(' ');
        }
        out.push_str("\n\n");
        out.push_str(rng.pick(&closings));
        out.push_str("\n\n");
    }
    out
}
