//! RFC 8785 (JSON Canonicalization Scheme) text and the idempotency key built on it.
//!
//! JCS: no whitespace; object members sorted by their names' UTF-16 code units; strings with
//! only `"`, `\` and control characters escaped (the five short forms, else `\u00xx`); numbers
//! in ECMAScript's `Number.prototype.toString` form (written by `ryu-js`).

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The RFC 8785 canonical text of a JSON value.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(r#"{"b": 1.50, "a": [1e2, "\u0041"]}"#)?;
/// assert_eq!(palisade::canonical_json(&v), r#"{"a":[100,"A"],"b":1.5}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, v);
            }
            out.push('}');
        }
    }
}

fn write_number(out: &mut String, n: &serde_json::Number) {
    // JCS numbers are IEEE doubles; serde_json keeps integers exact, which for |n| <= 2^53 is
    // the same value, and above it JCS rounds to the double like every other implementation.
    match n.as_f64() {
        Some(0.0) => out.push('0'),
        Some(f) if f.is_finite() => out.push_str(ryu_js::Buffer::new().format_finite(f)),
        _ => out.push_str("null"),
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The idempotency key: SHA-256, in lowercase hex, of the canonical text of
/// `["palisade.gate.v1", run_id, tool, args]`, where `args` already carries its money amount
/// in minor units. An array frames the three parts so no two calls share an input.
pub(crate) fn idempotency_key(run_id: &str, tool: &str, canonical_args: &Value) -> String {
    let framed = Value::Array(vec![
        Value::from("palisade.gate.v1"),
        Value::from(run_id),
        Value::from(tool),
        canonical_args.clone(),
    ]);
    let digest = Sha256::digest(canonical_json(&framed).as_bytes());
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        canonical_json(&serde_json::from_str::<Value>(text).unwrap_or(Value::Null))
    }

    /// The examples of RFC 8785 §3.2.2 and appendix B that serde_json can carry.
    #[test]
    fn rfc_8785_examples() {
        assert_eq!(
            canon(
                r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "literals": [null, true, false]}"#
            ),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}"#
        );
        assert_eq!(
            canon(r#"{"string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/"}"#),
            r#"{"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
        // Sorting by UTF-16 code units, not by code points or UTF-8 bytes.
        assert_eq!(
            canon(r#"{"\ud83d\ude00": 1, "\ufb33": 2, "a": 3, "\u00e9": 4}"#),
            "{\"a\":3,\"\u{e9}\":4,\"\u{1f600}\":1,\"\u{fb33}\":2}"
        );
        assert_eq!(canon("-0.0"), "0");
        assert_eq!(
            canon("[1e21, 1e-7, 123456789012345680000]"),
            "[1e+21,1e-7,123456789012345680000]"
        );
    }

    #[test]
    fn key_is_hex_sha256_and_depends_on_every_part() {
        let args = serde_json::json!({"a": 1});
        let k = idempotency_key("r", "t", &args);
        assert_eq!(k.len(), 64);
        assert!(k.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(k, idempotency_key("r2", "t", &args));
        assert_ne!(k, idempotency_key("r", "t2", &args));
        assert_ne!(k, idempotency_key("r", "t", &serde_json::json!({"a": 2})));
    }
}
