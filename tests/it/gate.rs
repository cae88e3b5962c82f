//! The gate's decision (each rejection with its code and `retryable`, the fixed order), the
//! idempotency key (property tests), and the `gate` and `tools` commands.

use std::io::Write;
use std::process::{Command, Stdio};

use palisade::{Call, CallStatus, Gate, ProposedCall, Reason};
use proptest::prelude::*;
use serde_json::{Value, json};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tools.toml");
const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

fn gate() -> Gate {
    Gate::builder()
        .tools_file(EXAMPLES)
        .tools_toml(
            "extra.toml",
            r#"
[[tool]]
name = "pay_out"
description = "Pay a supplier in any currency."
tier = "auto"
money = { amount = "/amount", currency = "/currency" }
hard_ceiling = [{ amount = "1000", currency = "EUR" }, { amount = "100000", currency = "JPY" }]
schema = '{"type": "object", "required": ["amount", "currency"], "properties": {"ref": {"type": "string"}}}'
"#,
        )
        // The order system: only ORD-12345 exists.
        .rule(|c: &ProposedCall<'_>| match c.args().get("order_id").and_then(Value::as_str) {
            Some(id) if c.tool() == "issue_refund" && id != "ORD-12345" => {
                vec![Reason::business("order.not_found", "/order_id", "The order system has no such order.")]
            }
            _ => Vec::new(),
        })
        .build()
        .unwrap()
}

fn refund(args: Value) -> Call {
    Call::new("run-1", "issue_refund", args)
        .with_context(json!({"orders": ["ORD-12345", "ORD-99999"], "open_balance": "1000.00", "ticket_id": TICKET}))
}

/// (status, first code, its retryable) of a call.
fn decided(call: &Call) -> (CallStatus, String, bool) {
    let a = gate().evaluate(call);
    let (code, retry) = a.reasons().first().map_or((String::new(), false), |r| {
        (r.code().to_owned(), r.retryable())
    });
    (a.status(), code, retry)
}

#[test]
fn each_rejection_has_its_code_and_retryable() {
    use CallStatus::*;
    let r = |v: Value| refund(v);
    let cases: Vec<(&str, Call, (CallStatus, &str, bool))> = vec![
        (
            "within the auto limit",
            r(json!({"order_id": "ORD-12345", "amount": 50, "currency": "EUR"})),
            (Approved, "", false),
        ),
        (
            "a cent over the auto limit",
            r(json!({"order_id": "ORD-12345", "amount": 50.01, "currency": "EUR"})),
            (PendingApproval, "approval.over_auto_limit", false),
        ),
        (
            "over the hard ceiling",
            r(json!({"order_id": "ORD-12345", "amount": 500.01, "currency": "EUR"})),
            (Rejected, "limit.hard_ceiling", false),
        ),
        (
            "unknown order (Rust rule)",
            r(json!({"order_id": "ORD-99999", "amount": 5, "currency": "EUR"})),
            (Rejected, "order.not_found", false),
        ),
        (
            "order not on the ticket (declarative)",
            r(json!({"order_id": "ORD-11111", "amount": 5, "currency": "EUR"})),
            (Rejected, "unknown_order", false),
        ),
        (
            "currency outside the schema",
            r(json!({"order_id": "ORD-12345", "amount": 5, "currency": "GBP"})),
            (Rejected, "schema.enum", true),
        ),
        (
            "bad order id format",
            r(json!({"order_id": "12345", "amount": 5, "currency": "EUR"})),
            (Rejected, "schema.pattern", true),
        ),
        (
            "a fraction of a cent",
            r(json!({"order_id": "ORD-12345", "amount": 1.001, "currency": "EUR"})),
            (Rejected, "money.bad_amount", true),
        ),
        (
            "a token in a note",
            r(
                json!({"order_id": "ORD-12345", "amount": 5, "currency": "EUR", "note": "key AKIAQWERTYUIOPASDFGH"}),
            ),
            (Rejected, "zero_trust.credential", false),
        ),
        (
            "a foreign ticket id in a note",
            r(
                json!({"order_id": "ORD-12345", "amount": 5, "currency": "EUR", "note": "see 0f0e0d0c-0b0a-4908-8706-050403020100"}),
            ),
            (Rejected, "zero_trust.foreign_id", false),
        ),
        (
            "forbidden tool",
            Call::new("r", "delete_account", json!({"customer_id": "C-1"})),
            (Rejected, "tool.forbidden", false),
        ),
        (
            "unknown tool",
            Call::new("r", "reset_password", json!({})),
            (Rejected, "tool.unknown", true),
        ),
        (
            "bad ISO currency",
            Call::new("r", "pay_out", json!({"amount": "5", "currency": "EURO"})),
            (Rejected, "money.bad_currency", true),
        ),
        (
            "currency without a ceiling",
            Call::new("r", "pay_out", json!({"amount": "5", "currency": "USD"})),
            (Rejected, "limit.no_ceiling_for_currency", false),
        ),
        (
            "yen have no decimals",
            Call::new("r", "pay_out", json!({"amount": "5.5", "currency": "JPY"})),
            (Rejected, "money.bad_amount", true),
        ),
        (
            "negative amount",
            Call::new("r", "pay_out", json!({"amount": "-5", "currency": "EUR"})),
            (Rejected, "money.negative", true),
        ),
        (
            "approve tier",
            Call::new(
                "r",
                "send_email",
                json!({"subject": "Hi", "body": "Your refund is on its way."}),
            ),
            (PendingApproval, "approval.required", false),
        ),
    ];
    let mut wrong = Vec::new();
    for (what, call, (status, code, retry)) in cases {
        let got = decided(&call);
        if got != (status, code.to_owned(), retry) {
            wrong.push(format!("{what}: got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn checks_run_in_the_fixed_order() {
    // Schema before tier: a forbidden tool with bad arguments gets the schema reasons.
    let g = Gate::builder()
        .tools_toml("t.toml", "[[tool]]\nname = \"wipe\"\ndescription = \"d\"\ntier = \"forbidden\"\nschema = '{\"required\": [\"x\"]}'\n")
        .build()
        .unwrap();
    assert_eq!(
        g.evaluate(&Call::new("r", "wipe", json!({}))).reasons()[0].code(),
        "schema.required"
    );
    // Zero trust before business rules and the ceiling: a credential in an over-ceiling call.
    let a = gate().evaluate(&refund(json!({"order_id": "ORD-11111", "amount": 900, "currency": "EUR", "note": "AKIAQWERTYUIOPASDFGH"})));
    let codes: Vec<&str> = a.reasons().iter().map(Reason::code).collect();
    assert_eq!(codes, ["zero_trust.credential"]);
    // Business rules before the ceiling.
    let a = gate().evaluate(&refund(
        json!({"order_id": "ORD-11111", "amount": 900, "currency": "EUR"}),
    ));
    assert_eq!(a.reasons()[0].code(), "unknown_order");
    // Every schema violation is reported, each with its pointer.
    let a = gate().evaluate(&refund(
        json!({"order_id": 5, "amount": "x", "currency": "EUR", "extra": 1}),
    ));
    let mut fields: Vec<&str> = a.reasons().iter().map(Reason::field).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["", "/amount", "/order_id"], "{:?}", a.reasons());
    assert!(a.key().is_none());
}

#[test]
fn a_credential_is_never_echoed() {
    let token = "ghp_R8s7d6f5g4h3j2k1l0q9w8e7r6t5y4u3i2o1";
    for args in [
        json!({"order_id": token, "amount": 5, "currency": "EUR"}),
        json!({"order_id": "ORD-12345", "amount": 5, "currency": "EUR", "note": format!("token={token}")}),
    ] {
        let text = serde_json::to_string(&gate().evaluate(&refund(args))).unwrap();
        assert!(text.contains("rejected"));
        assert!(!text.contains(&token[4..]), "{text}");
    }
}

/// Writes an amount of `minor` cents in one of several spellings.
fn spell_amount(minor: i64, how: u8) -> String {
    let (whole, cents) = (minor / 100, minor % 100);
    match how % 5 {
        0 => format!("{whole}.{cents:02}"),
        1 => format!("\"{whole}.{cents:02}\""),
        2 => format!("\"{whole}.{cents:02}000\""),
        3 => format!("{}e-2", minor),
        _ => {
            if cents == 0 {
                format!("{whole}")
            } else if cents % 10 == 0 {
                format!("{whole}.{}", cents / 10)
            } else {
                format!("{whole}.{cents:02}")
            }
        }
    }
}

/// Writes a string with some letters as `\u00XX` escapes.
fn spell_string(s: &str, mask: u32) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_alphanumeric() && mask & (1 << (i % 32)) != 0 {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

fn refund_text(
    order: &str,
    minor: i64,
    note: &str,
    how: u8,
    mask: u32,
    order_of_keys: &[usize],
) -> String {
    let members = [
        format!("\"order_id\": {}", spell_string(order, mask)),
        format!("\"amount\" :{}", spell_amount(minor, how)),
        "\"currency\":\"EUR\"".to_owned(),
        format!("\"note\":  {}", spell_string(note, mask.rotate_left(7))),
    ];
    let body: Vec<&str> = order_of_keys.iter().map(|&i| members[i].as_str()).collect();
    format!("{{ {} }}", body.join(" ,\n"))
}

fn key_of(run: &str, args_text: &str) -> String {
    let args: Value = serde_json::from_str(args_text).unwrap();
    // `pay_out` takes the amount as a number or a string.
    let a = gate().evaluate(&Call::new(run, "pay_out", args));
    a.key()
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no key: {a:?}"))
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
        "[\\x00-\\x1f\"\\\\\u{7f}-\u{d7ff}]{0,4}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,6}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// RFC 8785 text is valid JSON for the same value, and canonical again.
    #[test]
    fn canonical_text_round_trips(v in json_value()) {
        let text = palisade::canonical_json(&v);
        let back: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(palisade::canonical_json(&back), text);
    }

    /// Equal arguments in any spelling (key order, whitespace, escapes, number or string
    /// amounts, trailing zeros, exponents) give one key.
    #[test]
    fn equal_arguments_in_any_spelling_give_one_key(
        minor in 1i64..50_000,
        note in "[a-z ]{0,12}",
        how_a in 0u8..5, how_b in 0u8..5,
        mask_a in any::<u32>(), mask_b in any::<u32>(),
        keys in Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
    ) {
        let a = refund_text("ORD-12345", minor, &note, how_a, mask_a, &[0, 1, 2, 3]);
        let b = refund_text("ORD-12345", minor, &note, how_b, mask_b, &keys);
        prop_assert_eq!(key_of("run-1", &a), key_of("run-1", &b));
    }

    /// Any change of a value, or of the run, gives a new key.
    #[test]
    fn any_change_gives_a_new_key(
        minor in 1i64..50_000,
        note in "[a-z]{1,12}",
        which in 0u8..4,
        how in 0u8..5,
    ) {
        let base = refund_text("ORD-12345", minor, &note, how, 0, &[0, 1, 2, 3]);
        let changed = match which {
            0 => refund_text("ORD-12345", minor + 1, &note, how, 0, &[0, 1, 2, 3]),
            1 => refund_text("ORD-12345", minor, &format!("{note}x"), how, 0, &[0, 1, 2, 3]),
            2 => refund_text("ORD-12345", minor, &note.to_uppercase(), how, 0, &[0, 1, 2, 3]),
            _ => base.clone(),
        };
        let (run_a, run_b) = if which == 3 { ("run-1", "run-2") } else { ("run-1", "run-1") };
        prop_assert_ne!(key_of(run_a, &base), key_of(run_b, &changed));
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn palisade(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palisade"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn lines(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cli_tools_check() {
    let ok = palisade(&["tools", "check", "examples/tools.toml"], "");
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let dir = tempfile::tempdir().unwrap();
    let failing = dir.path().join("failing.toml");
    std::fs::write(
        &failing,
        "[[tool]]\nname = \"lookup\"\ndescription = \"d\"\ntier = \"read\"\nschema = '{\"type\": \"object\"}'\n\n[[tool.example]]\nargs = '{}'\nexpect = \"rejected\"\n",
    )
    .unwrap();
    let run = palisade(&["tools", "check", failing.to_str().unwrap()], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "failing.toml:7: rule lookup: example 0 (line 7): expected rejected, got approved"
        ),
        "{}",
        run.stderr
    );
    let invalid = dir.path().join("invalid.toml");
    std::fs::write(
        &invalid,
        "[[tool]]\nname = \"x\"\ndescription = \"d\"\ntier = \"read\"\nschema = '{\"type\": 7}'\n",
    )
    .unwrap();
    let run = palisade(&["tools", "check", invalid.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("invalid.toml:5: x.schema: invalid JSON Schema"),
        "{}",
        run.stderr
    );
}

#[test]
fn cli_gate_check_answers_every_line_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gate.db");
    let db = db.to_str().unwrap();
    let input = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/gate_calls.jsonl"
    ))
    .unwrap();
    let first = palisade(
        &[
            "gate",
            "check",
            "--tools",
            "examples/tools.toml",
            "--db",
            db,
        ],
        &input,
    );
    assert_eq!(first.code, 1, "{}", first.stderr);
    let answers = lines(&first);
    let statuses: Vec<&str> = answers
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "approved",
            "approved",
            "executing",
            "pending_approval",
            "rejected",
            "rejected",
            "rejected",
            "rejected",
            "rejected",
            "rejected"
        ]
    );
    // Line 3 is line 2 spelled differently: the same call.
    assert_eq!(answers[1]["key"], answers[2]["key"]);
    assert_eq!(answers[2]["replayed"], true);
    let second = palisade(
        &[
            "gate",
            "check",
            "--tools",
            "examples/tools.toml",
            "--db",
            db,
        ],
        &input,
    );
    let again = lines(&second);
    for (a, b) in answers.iter().zip(&again) {
        assert_eq!(a["call_id"], b["call_id"]);
        if !a["key"].is_null() {
            assert_eq!(b["replayed"], true, "{b}");
        }
    }
    let bad = palisade(
        &[
            "gate",
            "check",
            "--tools",
            "examples/tools.toml",
            "--db",
            db,
        ],
        "{\"tool\": 1}\n",
    );
    assert_eq!(bad.code, 2);
    assert_eq!(lines(&bad)[0]["line"], 1);
}

#[test]
fn cli_approval_walk_through() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gate.db");
    let db = db.to_str().unwrap();
    let call = r#"{"run_id": "run-9", "tool": "issue_refund", "args": {"order_id": "ORD-12345", "amount": 120.5, "currency": "EUR"}, "context": {"orders": ["ORD-12345"], "open_balance": "200.00"}}"#;
    let check = |stdin: &str| {
        lines(&palisade(
            &[
                "gate",
                "check",
                "--tools",
                "examples/tools.toml",
                "--db",
                db,
            ],
            stdin,
        ))
        .remove(0)
    };
    let parked = check(call);
    assert_eq!(parked["status"], "pending_approval");
    let id = parked["call_id"].as_str().unwrap();
    let approve = palisade(&["gate", "approve", id, "--by", "ana", "--db", db], "");
    assert_eq!(approve.code, 0, "{}", approve.stderr);
    let twice = palisade(&["gate", "approve", id, "--by", "ben", "--db", db], "");
    assert_eq!(twice.code, 1);
    assert!(
        twice.stderr.contains("is approved, not pending_approval"),
        "{}",
        twice.stderr
    );
    let run = check(call);
    assert_eq!(
        (run["status"].as_str(), run["args"]["amount"].as_f64()),
        (Some("approved"), Some(120.5))
    );
    assert_eq!(check(call)["status"], "executing");
    let done = palisade(
        &[
            "gate",
            "done",
            id,
            "--result",
            "{\"refund_id\": \"R-1\"}",
            "--db",
            db,
        ],
        "",
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    let shown = palisade(&["gate", "show", id, "--db", db], "");
    let shown: Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(shown["status"], "executed");
    assert_eq!(shown["outcome"]["done"]["refund_id"], "R-1");
    let audit = palisade(
        &["gate", "audit", "--run", "run-9", "--json", "--db", db],
        "",
    );
    let events: Vec<String> = lines(&audit)
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        events,
        [
            "proposed", "approved", "replayed", "claimed", "replayed", "executed"
        ]
    );
    let text = palisade(&["gate", "audit", "--db", db], "");
    assert_eq!(text.stdout.lines().count(), 6);
    let missing = palisade(&["gate", "show", "c_nope", "--db", db], "");
    assert_eq!(missing.code, 2);
}

#[test]
fn gate_and_ledgers_are_shareable() {
    fn shareable<T: Send + Sync + 'static>() {}
    fn cheap_clone<T: Clone>() {}
    shareable::<Gate>();
    cheap_clone::<Gate>();
    shareable::<palisade::SqliteLedger>();
    #[cfg(feature = "postgres")]
    shareable::<palisade::PostgresLedger>();
    shareable::<palisade::Answer>();
}
