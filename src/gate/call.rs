//! A proposed call and the gate's answer to it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ledger::{CallStatus, Outcome, Proposal};
use super::reason::Reason;

/// One proposed call, as a model (through its host) sends it.
///
/// ```
/// let call: palisade::Call = serde_json::from_str(
///     r#"{"run_id": "run-7", "tool": "issue_refund", "args": {"order_id": "ORD-12345"}}"#)?;
/// assert_eq!(call.tool(), "issue_refund");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub(crate) run_id: String,
    pub(crate) tool: String,
    pub(crate) args: Value,
    #[serde(default)]
    pub(crate) context: Value,
}

impl Call {
    /// A call with no context.
    ///
    /// ```
    /// let call = palisade::Call::new("run-7", "lookup_order", serde_json::json!({"order_id": "ORD-1"}));
    /// assert_eq!(call.run_id(), "run-7");
    /// ```
    pub fn new(run_id: impl Into<String>, tool: impl Into<String>, args: Value) -> Self {
        Call {
            run_id: run_id.into(),
            tool: tool.into(),
            args,
            context: Value::Null,
        }
    }

    /// Adds the facts business rules and the foreign-id check look at (`ticket_id`,
    /// `allow_ids`, open balances, the ticket's orders, ...).
    ///
    /// ```
    /// let call = palisade::Call::new("r", "t", serde_json::json!({}))
    ///     .with_context(serde_json::json!({"orders": ["ORD-12345"]}));
    /// assert_eq!(call.context()["orders"][0], "ORD-12345");
    /// ```
    pub fn with_context(mut self, context: Value) -> Self {
        self.context = context;
        self
    }

    /// The run (conversation, job).
    ///
    /// ```
    /// assert_eq!(palisade::Call::new("r", "t", serde_json::json!({})).run_id(), "r");
    /// ```
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(palisade::Call::new("r", "t", serde_json::json!({})).tool(), "t");
    /// ```
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The arguments as proposed.
    ///
    /// ```
    /// assert_eq!(palisade::Call::new("r", "t", serde_json::json!({"a": 1})).args()["a"], 1);
    /// ```
    pub fn args(&self) -> &Value {
        &self.args
    }

    /// The context (`null` when none was given).
    ///
    /// ```
    /// assert!(palisade::Call::new("r", "t", serde_json::json!({})).context().is_null());
    /// ```
    pub fn context(&self) -> &Value {
        &self.context
    }
}

/// The gate's answer to one call.
///
/// `status` is `approved` only for the one caller that may execute the call now (it holds
/// the execution; the ledger says `executing`); that answer carries the stored `args` to
/// execute with. Every other caller with the same call gets the recorded state, marked
/// `replayed`: `pending_approval`, `executing`, `executed` (with the `result`), `failed` or
/// `rejected`.
///
/// ```
/// # use palisade::{Call, Gate, CallStatus};
/// let gate = Gate::builder().tools_toml("t.toml", r#"
/// [[tool]]
/// name = "lookup_order"
/// description = "Read an order."
/// tier = "read"
/// schema = '{"type": "object", "required": ["order_id"]}'
/// "#).build()?;
/// let answer = gate.evaluate(&Call::new("r", "lookup_order", serde_json::json!({})));
/// assert_eq!(answer.status(), CallStatus::Rejected);
/// assert_eq!(answer.reasons()[0].code(), "schema.required");
/// assert!(answer.reasons()[0].retryable());
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub(crate) call_id: Option<String>,
    pub(crate) key: Option<String>,
    pub(crate) status: CallStatus,
    pub(crate) reasons: Vec<Reason>,
    pub(crate) replayed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) args: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Value>,
}

impl Answer {
    /// The call id (`None` when the call was rejected before it had a key).
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }
    /// The idempotency key (hex SHA-256).
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }
    /// The decision or the recorded state.
    pub fn status(&self) -> CallStatus {
        self.status
    }
    /// Why it was rejected or parked.
    pub fn reasons(&self) -> &[Reason] {
        &self.reasons
    }
    /// Whether this is the recorded answer to an earlier, identical call.
    pub fn replayed(&self) -> bool {
        self.replayed
    }
    /// The stored arguments to execute with, when `status` is `approved`.
    pub fn args(&self) -> Option<&Value> {
        self.args.as_ref()
    }
    /// The recorded result of an executed call.
    pub fn result(&self) -> Option<&Value> {
        self.result.as_ref()
    }
    /// Whether this caller may (and must) execute the call now, with [`args`](Self::args).
    pub fn may_execute(&self) -> bool {
        self.status == CallStatus::Approved
    }

    pub(crate) fn rejected(reasons: Vec<Reason>) -> Answer {
        Answer {
            call_id: None,
            key: None,
            status: CallStatus::Rejected,
            reasons,
            replayed: false,
            args: None,
            result: None,
        }
    }
}

/// The answer a recorded proposal gives; `leased` when this caller just took its execution.
pub(crate) fn answer_of(p: &Proposal, leased: bool, replayed: bool) -> Answer {
    let mut reasons = p.reasons().to_vec();
    let mut result = None;
    match p.outcome() {
        Some(Outcome::Done(v)) => result = Some(v.clone()),
        Some(Outcome::Failed { transient }) => reasons.push(Reason::new(
            "execution.failed",
            "",
            if *transient {
                "The call ran and failed; the failure may pass (a new call may work)."
            } else {
                "The call ran and failed for good."
            },
            *transient,
        )),
        None => {}
    }
    Answer {
        call_id: Some(p.call_id().to_owned()),
        key: Some(p.key().to_owned()),
        status: if leased {
            CallStatus::Approved
        } else {
            p.status()
        },
        reasons,
        replayed,
        args: leased.then(|| p.args().clone()),
        result,
    }
}
