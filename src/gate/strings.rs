//! What the gate reads in argument strings: the screening context, every string with its
//! JSON pointer, and validator messages with argument strings masked.

use serde_json::Value;

use crate::screen::Context;

/// The screening context of a call: its `ticket_id` and `allow_ids` (bad UUIDs are skipped,
/// so they allow nothing).
pub(crate) fn screen_context(context: &Value) -> Context {
    let mut ctx = context
        .get("ticket_id")
        .and_then(Value::as_str)
        .and_then(|t| Context::new(t).ok())
        .unwrap_or_else(Context::without_ticket);
    if let Some(Value::Array(ids)) = context.get("allow_ids") {
        for id in ids.iter().filter_map(Value::as_str) {
            if let Ok(next) = ctx.clone().allow_id(id) {
                ctx = next;
            }
        }
    }
    ctx.max_words(usize::MAX)
}

pub(crate) fn collect_strings<'v>(
    v: &'v Value,
    path: &mut String,
    out: &mut Vec<(String, &'v str)>,
) {
    match v {
        Value::String(s) => out.push((path.clone(), s)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                collect_strings(item, path, out);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let len = path.len();
                path.push('/');
                path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                collect_strings(item, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

pub(crate) fn truncate(s: &str) -> String {
    s.chars().take(64).collect()
}

/// The validator's message, with every argument string of five or more characters masked to
/// its first four characters and its length: a message must not carry a credential that
/// failed a format check before the credential check ran.
pub(crate) fn schema_message(e: &jsonschema::ValidationError<'_>, args: &Value) -> String {
    let mut m = e.to_string();
    let mut strings = Vec::new();
    collect_strings(args, &mut String::new(), &mut strings);
    strings.sort_by_key(|(_, s)| std::cmp::Reverse(s.len()));
    for (_, s) in strings {
        let n = s.chars().count();
        if n >= 5 {
            let head: String = s.chars().take(4).collect();
            for form in [serde_json::to_string(s).unwrap_or_default(), s.to_owned()] {
                if !form.is_empty() && m.contains(&form) {
                    m = m.replace(&form, &format!("\"{head}…\" ({n} characters)"));
                }
            }
        }
    }
    if m.chars().count() > 200 {
        format!("{}…", m.chars().take(200).collect::<String>())
    } else {
        m
    }
}
