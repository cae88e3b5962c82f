//! Business rules: a trait for code that looks at real data, and declarative comparisons
//! written in `tools.toml` (`amount <= context.open_balance`, `args.order_id in context.orders`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::money::{Money, number_text};
use super::reason::Reason;

/// A proposed call as business rules see it: validated arguments, the caller's context, and
/// the money amount when the tool has one.
///
/// ```
/// use palisade::{ProposedCall, Reason};
/// let args = serde_json::json!({"order_id": "ORD-00001"});
/// let ctx = serde_json::json!({"orders": ["ORD-00001"]});
/// let call = ProposedCall::new("run-1", "issue_refund", &args, &ctx, None);
/// assert_eq!(call.args()["order_id"], "ORD-00001");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ProposedCall<'a> {
    run_id: &'a str,
    tool: &'a str,
    args: &'a Value,
    context: &'a Value,
    amount: Option<&'a Money>,
}

impl<'a> ProposedCall<'a> {
    /// A view of one call.
    ///
    /// ```
    /// let v = serde_json::Value::Null;
    /// let call = palisade::ProposedCall::new("r", "t", &v, &v, None);
    /// assert_eq!(call.tool(), "t");
    /// ```
    pub fn new(
        run_id: &'a str,
        tool: &'a str,
        args: &'a Value,
        context: &'a Value,
        amount: Option<&'a Money>,
    ) -> Self {
        ProposedCall {
            run_id,
            tool,
            args,
            context,
            amount,
        }
    }

    /// The run (conversation, job) the call belongs to.
    ///
    /// ```
    /// let v = serde_json::Value::Null;
    /// assert_eq!(palisade::ProposedCall::new("r", "t", &v, &v, None).run_id(), "r");
    /// ```
    pub fn run_id(&self) -> &'a str {
        self.run_id
    }

    /// The tool's name.
    ///
    /// ```
    /// let v = serde_json::Value::Null;
    /// assert_eq!(palisade::ProposedCall::new("r", "t", &v, &v, None).tool(), "t");
    /// ```
    pub fn tool(&self) -> &'a str {
        self.tool
    }

    /// The arguments, as validated against the tool's schema.
    ///
    /// ```
    /// let v = serde_json::json!({"a": 1});
    /// assert_eq!(palisade::ProposedCall::new("r", "t", &v, &v, None).args()["a"], 1);
    /// ```
    pub fn args(&self) -> &'a Value {
        self.args
    }

    /// Facts the caller passed with the call (open balance, the ticket's orders, ...).
    ///
    /// ```
    /// let v = serde_json::json!({"a": 1});
    /// assert_eq!(palisade::ProposedCall::new("r", "t", &v, &v, None).context()["a"], 1);
    /// ```
    pub fn context(&self) -> &'a Value {
        self.context
    }

    /// The money amount, for tools with a `money` field.
    ///
    /// ```
    /// let v = serde_json::Value::Null;
    /// let m = palisade::Money::parse("5", "EUR")?;
    /// assert_eq!(palisade::ProposedCall::new("r", "t", &v, &v, Some(&m)).amount(), Some(&m));
    /// # Ok::<(), palisade::MoneyError>(())
    /// ```
    pub fn amount(&self) -> Option<&'a Money> {
        self.amount
    }
}

/// A business rule written in Rust: look at the call (and at your own systems) and return
/// the reasons it must not run; an empty list lets it pass. Rules run when the call is
/// proposed and again when a person approves it.
///
/// Closures `Fn(&ProposedCall) -> Vec<Reason>` are rules too.
///
/// ```
/// use palisade::{BusinessRule, ProposedCall, Reason};
/// struct KnownOrders(Vec<String>);
/// impl BusinessRule for KnownOrders {
///     fn check(&self, call: &ProposedCall<'_>) -> Vec<Reason> {
///         match call.args().get("order_id").and_then(|v| v.as_str()) {
///             Some(id) if !self.0.iter().any(|o| o == id) => {
///                 vec![Reason::business("unknown_order", "/order_id", "No such order.")]
///             }
///             _ => Vec::new(),
///         }
///     }
/// }
/// let rule = KnownOrders(vec!["ORD-00001".into()]);
/// let args = serde_json::json!({"order_id": "ORD-99999"});
/// let call = ProposedCall::new("r", "issue_refund", &args, &serde_json::Value::Null, None);
/// assert_eq!(rule.check(&call)[0].code(), "unknown_order");
/// ```
pub trait BusinessRule: Send + Sync {
    /// The reasons this call must not run (empty: it may).
    fn check(&self, call: &ProposedCall<'_>) -> Vec<Reason>;
}

impl<F> BusinessRule for F
where
    F: Fn(&ProposedCall<'_>) -> Vec<Reason> + Send + Sync,
{
    fn check(&self, call: &ProposedCall<'_>) -> Vec<Reason> {
        self(call)
    }
}

/// A declarative check as written in `tools.toml` (kept with each proposal so approval can
/// run it again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckSpec {
    pub(crate) rule: String,
    pub(crate) code: String,
    pub(crate) message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Operand {
    Amount,
    Args(Vec<String>),
    Context(Vec<String>),
    Literal(Value),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    In,
    NotIn,
}

/// A parsed declarative check.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Check {
    lhs: Operand,
    op: Op,
    rhs: Operand,
    spec: CheckSpec,
}

impl Check {
    /// Parses `operand op operand`; operands are `amount`, `args.a.b`, `context.a.b`, a
    /// number, `true`/`false`/`null` or a quoted string without spaces.
    pub(crate) fn parse(spec: CheckSpec) -> Result<Check, String> {
        let words: Vec<&str> = spec.rule.split_whitespace().collect();
        let (lhs, op, rhs) = match words.as_slice() {
            [l, "not", "in", r] => (*l, Op::NotIn, *r),
            [l, op, r] => {
                let op = match *op {
                    "<" => Op::Lt,
                    "<=" => Op::Le,
                    ">" => Op::Gt,
                    ">=" => Op::Ge,
                    "==" => Op::Eq,
                    "!=" => Op::Ne,
                    "in" => Op::In,
                    other => return Err(format!("unknown operator {other:?}")),
                };
                (*l, op, *r)
            }
            _ => {
                return Err(
                    "expected `operand operator operand` (operators: < <= > >= == != in, not in)"
                        .to_owned(),
                );
            }
        };
        let lhs = operand(lhs)?;
        let rhs = operand(rhs)?;
        let ordered = matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
        if ordered && lhs != Operand::Amount && rhs != Operand::Amount {
            return Err("ordered comparisons need `amount` on one side".to_owned());
        }
        Ok(Check { lhs, op, rhs, spec })
    }

    pub(crate) fn spec(&self) -> &CheckSpec {
        &self.spec
    }

    /// `None` when the call passes; else the reason (a missing value fails the check).
    pub(crate) fn run(&self, call: &ProposedCall<'_>) -> Option<Reason> {
        let field = match (&self.lhs, &self.rhs) {
            (Operand::Args(p), _) | (_, Operand::Args(p)) => pointer(p),
            _ => String::new(),
        };
        let fail = |why: Option<String>| {
            let message = match why {
                Some(w) => format!("{} ({w})", self.spec.message),
                None => self.spec.message.clone(),
            };
            Some(Reason::business(
                self.spec.code.clone(),
                field.clone(),
                message,
            ))
        };
        let uses_amount = self.lhs == Operand::Amount || self.rhs == Operand::Amount;
        if uses_amount {
            let Some(money) = call.amount() else {
                return fail(Some("the call has no amount".to_owned()));
            };
            let side = |o: &Operand| -> Result<i64, String> {
                match o {
                    Operand::Amount => Ok(money.minor()),
                    other => {
                        let v = resolve(other, call).ok_or_else(|| missing(other))?;
                        Money::from_json(&v, money.currency())
                            .map(|m| m.minor())
                            .map_err(|e| format!("{}: {e}", name(other)))
                    }
                }
            };
            let (l, r) = match (side(&self.lhs), side(&self.rhs)) {
                (Ok(l), Ok(r)) => (l, r),
                (Err(e), _) | (_, Err(e)) => return fail(Some(e)),
            };
            let ok = match self.op {
                Op::Lt => l < r,
                Op::Le => l <= r,
                Op::Gt => l > r,
                Op::Ge => l >= r,
                Op::Eq => l == r,
                Op::Ne => l != r,
                Op::In | Op::NotIn => false,
            };
            return if ok { None } else { fail(None) };
        }
        let Some(l) = resolve(&self.lhs, call) else {
            return fail(Some(missing(&self.lhs)));
        };
        let Some(r) = resolve(&self.rhs, call) else {
            return fail(Some(missing(&self.rhs)));
        };
        let ok = match self.op {
            Op::Eq => same(&l, &r),
            Op::Ne => !same(&l, &r),
            Op::In | Op::NotIn => {
                let found = match &r {
                    Value::Array(items) => items.iter().any(|i| same(i, &l)),
                    Value::Object(map) => l.as_str().is_some_and(|k| map.contains_key(k)),
                    _ => return fail(Some(format!("{} is not a list", name(&self.rhs)))),
                };
                found == (self.op == Op::In)
            }
            _ => false,
        };
        if ok { None } else { fail(None) }
    }
}

fn operand(word: &str) -> Result<Operand, String> {
    let path = |rest: &str| -> Result<Vec<String>, String> {
        let parts: Vec<String> = rest.split('.').map(str::to_owned).collect();
        if parts.iter().any(String::is_empty) {
            return Err(format!("empty path segment in {word:?}"));
        }
        Ok(parts)
    };
    if word == "amount" {
        Ok(Operand::Amount)
    } else if let Some(rest) = word.strip_prefix("args.") {
        Ok(Operand::Args(path(rest)?))
    } else if let Some(rest) = word.strip_prefix("context.") {
        Ok(Operand::Context(path(rest)?))
    } else if let Some(s) = word
        .strip_prefix('\'')
        .and_then(|w| w.strip_suffix('\''))
        .or_else(|| word.strip_prefix('"').and_then(|w| w.strip_suffix('"')))
    {
        Ok(Operand::Literal(Value::from(s)))
    } else {
        serde_json::from_str::<Value>(word)
            .ok()
            .filter(|v| !v.is_object() && !v.is_array())
            .map(Operand::Literal)
            .ok_or_else(|| {
                format!("unknown operand {word:?} (amount, args.x, context.x or a literal)")
            })
    }
}

fn pointer(path: &[String]) -> String {
    path.iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

fn resolve(o: &Operand, call: &ProposedCall<'_>) -> Option<Value> {
    match o {
        Operand::Amount => None,
        Operand::Args(p) => call.args().pointer(&pointer(p)).cloned(),
        Operand::Context(p) => call.context().pointer(&pointer(p)).cloned(),
        Operand::Literal(v) => Some(v.clone()),
    }
}

fn name(o: &Operand) -> String {
    match o {
        Operand::Amount => "amount".to_owned(),
        Operand::Args(p) => format!("args.{}", p.join(".")),
        Operand::Context(p) => format!("context.{}", p.join(".")),
        Operand::Literal(v) => v.to_string(),
    }
}

fn missing(o: &Operand) -> String {
    format!("{} is missing", name(o))
}

/// JSON equality with numbers compared by value (`1` and `1.0` are equal).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number_text(x) == number_text(y),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(rule: &str) -> Check {
        Check::parse(CheckSpec {
            rule: rule.to_owned(),
            code: "c".to_owned(),
            message: "m".to_owned(),
        })
        .unwrap()
    }

    #[test]
    fn declarative_checks_compare_and_fail_closed() {
        let args = json!({"order_id": "ORD-00001", "amount": 20, "n": 1});
        let ctx =
            json!({"orders": ["ORD-00001"], "open_balance": "19.99", "by_id": {"ORD-00001": 1}});
        let m = Money::parse("20", "EUR").unwrap();
        let call = ProposedCall::new("r", "t", &args, &ctx, Some(&m));
        assert!(
            check("args.order_id in context.orders")
                .run(&call)
                .is_none()
        );
        assert!(check("args.order_id in context.by_id").run(&call).is_none());
        assert!(
            check("args.order_id not in context.orders")
                .run(&call)
                .is_some()
        );
        let r = check("amount <= context.open_balance").run(&call).unwrap();
        assert_eq!((r.code(), r.retryable()), ("c", false));
        assert!(check("amount <= 20").run(&call).is_none());
        assert!(check("amount < 20").run(&call).is_some());
        assert!(check("args.n == 1.0").run(&call).is_none());
        assert!(check("args.order_id == 'ORD-00001'").run(&call).is_none());
        let r = check("args.order_id in context.nothing")
            .run(&call)
            .unwrap();
        assert!(r.message().contains("context.nothing is missing"));
        assert_eq!(r.field(), "/order_id");
    }

    #[test]
    fn bad_checks_are_refused() {
        for bad in [
            "amount",
            "a <= b",
            "args.x <= context.y",
            "amount <> 1",
            "args. == 1",
        ] {
            let spec = CheckSpec {
                rule: bad.to_owned(),
                code: "c".to_owned(),
                message: "m".to_owned(),
            };
            assert!(Check::parse(spec).is_err(), "{bad}");
        }
    }
}
