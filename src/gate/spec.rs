//! `tools.toml`: tool specs as data, loaded and validated with file:line:key errors.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use toml::Spanned;

use super::business::{Check, CheckSpec};
use super::money::Money;
use crate::error::{Error, Result};

/// How much trust a tool gets.
///
/// ```
/// assert_eq!(serde_json::to_string(&palisade::Tier::Approve)?, "\"approve\"");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Reads only: runs when the checks pass.
    Read,
    /// Changes things: runs when the checks pass and the amount is within `auto_limit`;
    /// above it, waits for a person.
    Auto,
    /// Always waits for a person.
    Approve,
    /// Never runs.
    Forbidden,
}

/// `hourly_limit`: how many calls (pending ones included) may be made in an hour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct HourlyLimit {
    /// Calls of this tool in one run.
    pub(crate) per_run: Option<u32>,
    /// Calls of this tool across all runs.
    pub(crate) per_tool: Option<u32>,
}

/// JSON pointers to the amount and the currency in a tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoneyField {
    pub(crate) amount: String,
    pub(crate) currency: String,
}

/// One compiled tool.
#[derive(Debug)]
pub(crate) struct Tool {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) tier: Tier,
    pub(crate) validator: jsonschema::Validator,
    pub(crate) money: Option<MoneyField>,
    pub(crate) auto_limit: Vec<Money>,
    pub(crate) hard_ceiling: Vec<Money>,
    pub(crate) hourly: HourlyLimit,
    pub(crate) checks: Vec<Check>,
    pub(crate) examples: Vec<Example>,
    pub(crate) file: String,
    pub(crate) line: usize,
}

/// A call written in the spec with the answer it must get.
#[derive(Debug, Clone)]
pub(crate) struct Example {
    pub(crate) args: Value,
    pub(crate) context: Value,
    pub(crate) expect: String,
    pub(crate) code: Option<String>,
    pub(crate) line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    #[serde(default)]
    tool: Vec<Spanned<ToolSpec>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolSpec {
    name: String,
    description: String,
    tier: Tier,
    schema: Spanned<JsonOrText>,
    money: Option<Spanned<MoneyField>>,
    auto_limit: Option<Spanned<OneOrMany>>,
    hard_ceiling: Option<Spanned<OneOrMany>>,
    hourly_limit: Option<Spanned<HourlySpec>>,
    #[serde(default)]
    check: Vec<Spanned<CheckSpec>>,
    #[serde(default)]
    example: Vec<Spanned<ExampleSpec>>,
}

/// JSON written as a string (`'''{...}'''`) or as a TOML table.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsonOrText {
    Text(String),
    Table(Value),
}

impl JsonOrText {
    fn json(self) -> std::result::Result<Value, String> {
        match self {
            JsonOrText::Text(t) => serde_json::from_str(&t).map_err(|e| format!("not JSON: {e}")),
            JsonOrText::Table(v) => Ok(v),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoneySpec {
    amount: AmountText,
    currency: String,
}

/// Amounts in the spec are strings (`"50.00"`) or integers; a TOML float is refused because
/// its decimal text is lost.
#[derive(Deserialize)]
#[serde(untagged)]
enum AmountText {
    Text(String),
    Int(i64),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(MoneySpec),
    Many(Vec<MoneySpec>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum HourlySpec {
    Count(u32),
    Table {
        per_run: Option<u32>,
        per_tool: Option<u32>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExampleSpec {
    args: JsonOrText,
    context: Option<JsonOrText>,
    expect: String,
    code: Option<String>,
}

/// 1-based line of a byte offset.
fn line_of(source: &str, offset: usize) -> usize {
    source.as_bytes()[..offset.min(source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Loads every `[[tool]]` of one file.
pub(crate) fn load(file: &str, source: &str) -> Result<Vec<Tool>> {
    let parsed: FileSpec = toml::from_str(source).map_err(|e| Error::ToolFile {
        file: file.to_owned(),
        line: e.span().map_or(1, |s| line_of(source, s.start)),
        key: "(syntax)".to_owned(),
        reason: e.message().trim().to_owned(),
    })?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut tools = Vec::new();
    for spanned in parsed.tool {
        let line = line_of(source, spanned.span().start);
        let spec = spanned.into_inner();
        let err = |at: usize, key: &str, reason: String| Error::ToolFile {
            file: file.to_owned(),
            line: at,
            key: format!("{}.{key}", spec.name),
            reason,
        };
        if spec.name.is_empty()
            || !spec
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
        {
            return Err(err(
                line,
                "name",
                "a tool name is ASCII letters, digits, `_`, `-` or `.`".to_owned(),
            ));
        }
        if let Some(first) = seen.insert(spec.name.clone(), line) {
            return Err(err(
                line,
                "name",
                format!("duplicate tool (first at line {first})"),
            ));
        }
        let schema_line = line_of(source, spec.schema.span().start);
        let schema = spec
            .schema
            .into_inner()
            .json()
            .map_err(|e| err(schema_line, "schema", e))?;
        // `pattern` runs on model-written arguments: the linear-time `regex` engine with a
        // size limit, as for rule files, never the backtracking default.
        let validator = jsonschema::options()
            .with_pattern_options(jsonschema::PatternOptions::regex().size_limit(1 << 20))
            .build(&schema)
            .map_err(|e| err(schema_line, "schema", format!("invalid JSON Schema: {e}")))?;
        let money = match spec.money {
            Some(m) => {
                let at = line_of(source, m.span().start);
                let m = m.into_inner();
                for (k, p) in [("amount", &m.amount), ("currency", &m.currency)] {
                    if !p.starts_with('/') {
                        return Err(err(
                            at,
                            &format!("money.{k}"),
                            format!("{p:?} is not a JSON pointer (starts with /)"),
                        ));
                    }
                }
                Some(m)
            }
            None => None,
        };
        let limits = |v: Option<Spanned<OneOrMany>>, key: &str| -> Result<Vec<Money>> {
            let Some(v) = v else { return Ok(Vec::new()) };
            let at = line_of(source, v.span().start);
            if money.is_none() {
                return Err(err(at, key, "needs a `money` field on the tool".to_owned()));
            }
            let list = match v.into_inner() {
                OneOrMany::One(m) => vec![m],
                OneOrMany::Many(ms) => ms,
            };
            let mut out: Vec<Money> = Vec::new();
            for m in list {
                let text = match m.amount {
                    AmountText::Text(t) => t,
                    AmountText::Int(i) => i.to_string(),
                };
                let money =
                    Money::parse(&text, &m.currency).map_err(|e| err(at, key, e.to_string()))?;
                if out.iter().any(|o| o.currency() == money.currency()) {
                    return Err(err(at, key, format!("two limits in {}", money.currency())));
                }
                out.push(money);
            }
            Ok(out)
        };
        let auto_limit = limits(spec.auto_limit, "auto_limit")?;
        let hard_ceiling = limits(spec.hard_ceiling, "hard_ceiling")?;
        if !auto_limit.is_empty() && spec.tier != Tier::Auto {
            return Err(err(
                line,
                "auto_limit",
                "only an `auto` tool has an auto_limit".to_owned(),
            ));
        }
        for a in &auto_limit {
            if let Some(c) = hard_ceiling.iter().find(|c| c.currency() == a.currency())
                && c.minor() < a.minor()
            {
                return Err(err(
                    line,
                    "auto_limit",
                    format!("{a} is above the hard_ceiling {c}"),
                ));
            }
        }
        let hourly = match spec.hourly_limit {
            None => HourlyLimit::default(),
            Some(h) => match h.into_inner() {
                HourlySpec::Count(n) => HourlyLimit {
                    per_run: Some(n),
                    per_tool: None,
                },
                HourlySpec::Table { per_run, per_tool } => HourlyLimit { per_run, per_tool },
            },
        };
        let mut checks = Vec::new();
        for (i, c) in spec.check.into_iter().enumerate() {
            let at = line_of(source, c.span().start);
            checks.push(
                Check::parse(c.into_inner())
                    .map_err(|e| err(at, &format!("check[{i}].rule"), e))?,
            );
        }
        let mut examples = Vec::new();
        for (i, e) in spec.example.into_iter().enumerate() {
            let at = line_of(source, e.span().start);
            let e = e.into_inner();
            if !["approved", "pending_approval", "rejected"].contains(&e.expect.as_str()) {
                return Err(err(
                    at,
                    &format!("example[{i}].expect"),
                    "approved, pending_approval or rejected".to_owned(),
                ));
            }
            examples.push(Example {
                args: e
                    .args
                    .json()
                    .map_err(|r| err(at, &format!("example[{i}].args"), r))?,
                context: match e.context {
                    Some(c) => c
                        .json()
                        .map_err(|r| err(at, &format!("example[{i}].context"), r))?,
                    None => Value::Null,
                },
                expect: e.expect,
                code: e.code,
                line: at,
            });
        }
        tools.push(Tool {
            name: spec.name,
            description: spec.description,
            tier: spec.tier,
            validator,
            money,
            auto_limit,
            hard_ceiling,
            hourly,
            checks,
            examples,
            file: file.to_owned(),
            line,
        });
    }
    Ok(tools)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(source: &str) -> String {
        match load("t.toml", source) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    const HEAD: &str = "[[tool]]\nname = \"refund\"\ndescription = \"d\"\ntier = \"auto\"\nschema = '{\"type\": \"object\"}'\n";

    #[test]
    fn errors_name_file_line_and_key() {
        assert_eq!(error_of(HEAD), "");
        let e = error_of(&format!(
            "{HEAD}auto_limit = {{ amount = \"5\", currency = \"EUR\" }}\n"
        ));
        assert!(e.starts_with("t.toml:6: refund.auto_limit:"), "{e}");
        let e = error_of(&format!(
            "{HEAD}money = {{ amount = \"/a\", currency = \"/c\" }}\nhard_ceiling = {{ amount = \"5.001\", currency = \"EUR\" }}\n"
        ));
        assert!(e.starts_with("t.toml:7: refund.hard_ceiling:"), "{e}");
        let e = error_of(&format!(
            "{HEAD}money = {{ amount = \"/a\", currency = \"/c\" }}\nhard_ceiling = {{ amount = \"5\", currency = \"EURO\" }}\n"
        ));
        assert!(e.contains("EURO"), "{e}");
        let e = error_of(&HEAD.replace(r#"{"type": "object"}"#, r#"{"type": 5}"#));
        assert!(e.contains("refund.schema"), "{e}");
        let e = error_of(&HEAD.replace("auto", "sometimes"));
        assert!(e.starts_with("t.toml:") && e.contains("(syntax)"), "{e}");
        let e = error_of(&format!("{HEAD}{HEAD}"));
        assert!(
            e.starts_with("t.toml:6: refund.name: duplicate tool (first at line 1)"),
            "{e}"
        );
        let e = error_of(&format!(
            "{HEAD}[[tool.check]]\nrule = \"a b\"\ncode = \"c\"\nmessage = \"m\"\n"
        ));
        assert!(e.starts_with("t.toml:6: refund.check[0].rule:"), "{e}");
        let e = error_of(&format!(
            "{HEAD}money = {{ amount = \"a\", currency = \"/c\" }}\n"
        ));
        assert!(e.contains("refund.money.amount"), "{e}");
        let e = error_of(&HEAD.replace(r#"{"type": "object"}"#, r#"{"pattern": "(?=a)"}"#));
        assert!(
            e.contains("refund.schema"),
            "look-arounds need backtracking: {e}"
        );
    }
}
