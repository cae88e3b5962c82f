//! The tool-call gate: a model proposes a tool call, the gate decides — reject it with
//! reasons, park it for a person, or let it run once — and records every step in a ledger.
//!
//! The decision runs in a fixed order, so a retry gets the recorded answer instead of being
//! judged again: tool exists → arguments match the schema (and the money field reads) →
//! idempotency key → a recorded call replays → zero-trust checks (no credential, no foreign
//! id) → business rules → hard ceiling → hourly limit → tier.

mod builder;
mod business;
mod call;
mod canonical;
// Without a backend feature the shared SQL logic has no user; the trait stays for callers.
#[cfg_attr(
    not(any(feature = "sqlite", feature = "postgres")),
    allow(dead_code, unused_macros, unused_imports)
)]
pub(crate) mod ledger;
mod money;
mod reason;
pub(crate) mod spec;
mod strings;

use std::sync::Arc;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::finding::Kind;
use crate::rules::ExampleProblem;
use crate::screen::Screener;

pub use builder::GateBuilder;
pub use business::{BusinessRule, ProposedCall};
pub use call::{Answer, Call};
pub use canonical::canonical_json;
#[cfg(feature = "postgres")]
pub use ledger::postgres::PostgresLedger;
#[cfg(feature = "sqlite")]
pub use ledger::sqlite::SqliteLedger;
pub use ledger::{AuditEntry, CallStatus, Ledger, Outcome, Proposal};
pub use money::{Money, MoneyError, currency_exponent};
pub use reason::Reason;
pub use spec::Tier;

use business::Check;
use call::answer_of;
use ledger::{Move, Plan, Recorded};
use spec::Tool;
use strings::{collect_strings, schema_message, screen_context, truncate};

/// The compiled gate: tool specs, business rules and the credential rules. Build once,
/// check many calls from any thread; the ledger is passed to each call.
///
/// ```
/// use palisade::{Call, CallStatus, Gate, SqliteLedger};
/// # fn main() -> palisade::Result<()> {
/// let gate = Gate::builder().tools_file("examples/tools.toml").build()?;
/// let ledger = SqliteLedger::open(":memory:")?;
/// let call = Call::new("run-1", "issue_refund",
///         serde_json::json!({"order_id": "ORD-12345", "amount": 20.00, "currency": "EUR"}))
///     .with_context(serde_json::json!({"orders": ["ORD-12345"], "open_balance": "80.00"}));
/// let first = gate.check(&ledger, &call)?;
/// assert!(first.may_execute());
/// let retry = gate.check(&ledger, &call)?; // the stuttering agent
/// assert!(retry.replayed() && !retry.may_execute());
/// gate.finish(&ledger, first.call_id().unwrap_or_default(),
///             palisade::Outcome::Done(serde_json::json!({"refund_id": "R-1"})))?;
/// assert_eq!(gate.check(&ledger, &call)?.status(), CallStatus::Executed);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Gate {
    inner: Arc<Inner>,
}

struct Inner {
    tools: Vec<Tool>,
    rules: Vec<Arc<dyn BusinessRule>>,
    screener: Screener,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate")
            .field("tools", &self.inner.tools.len())
            .field("rules", &self.inner.rules.len())
            .finish()
    }
}

/// What the checks after the key decided (before the hourly limit).
struct Judged {
    status: CallStatus,
    reasons: Vec<Reason>,
    store_args: bool,
}

/// The part of the decision before the ledger is consulted.
enum Front<'g> {
    Rejected(Answer),
    Keyed {
        tool: &'g Tool,
        amount: Option<Money>,
        key: String,
        call_id: String,
    },
}

impl Gate {
    /// A builder.
    ///
    /// ```
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn builder() -> GateBuilder {
        GateBuilder::default()
    }

    /// The tool names, in file order.
    ///
    /// ```
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// assert!(gate.tools().any(|t| t == "issue_refund"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn tools(&self) -> impl Iterator<Item = &str> {
        self.inner.tools.iter().map(|t| t.name.as_str())
    }

    /// A tool's description and tier.
    ///
    /// ```
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// assert_eq!(gate.describe("issue_refund").map(|d| d.1), Some(palisade::Tier::Auto));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn describe(&self, tool: &str) -> Option<(&str, Tier)> {
        self.tool(tool).map(|t| (t.description.as_str(), t.tier))
    }

    fn tool(&self, name: &str) -> Option<&Tool> {
        self.inner.tools.iter().find(|t| t.name == name)
    }

    /// Decides without a ledger: nothing is recorded, nothing replays, the hourly limit is
    /// not counted. For examples, dry runs and tests.
    ///
    /// ```
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// let a = gate.evaluate(&palisade::Call::new("r", "delete_account", serde_json::json!({"customer_id": "C-1"})));
    /// assert_eq!(a.reasons()[0].code(), "tool.forbidden");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn evaluate(&self, call: &Call) -> Answer {
        match self.front(call) {
            Front::Rejected(a) => a,
            Front::Keyed {
                tool,
                amount,
                key,
                call_id,
            } => {
                let j = self.judge(tool, call, amount.as_ref());
                Answer {
                    call_id: Some(call_id),
                    key: Some(key),
                    status: j.status,
                    args: (j.status == CallStatus::Approved).then(|| call.args.clone()),
                    reasons: j.reasons,
                    replayed: false,
                    result: None,
                }
            }
        }
    }

    /// Decides and records. Fails only when the ledger does.
    ///
    /// ```
    /// # fn main() -> palisade::Result<()> {
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// let ledger = palisade::SqliteLedger::open(":memory:")?;
    /// let call = palisade::Call::new("r", "lookup_order", serde_json::json!({"order_id": "ORD-12345"}));
    /// assert!(gate.check(&ledger, &call)?.may_execute());
    /// # Ok(()) }
    /// ```
    pub fn check(&self, ledger: &dyn Ledger, call: &Call) -> Result<Answer> {
        let (tool, amount, key, call_id) = match self.front(call) {
            Front::Rejected(a) => return Ok(a),
            Front::Keyed {
                tool,
                amount,
                key,
                call_id,
            } => (tool, amount, key, call_id),
        };
        if let Some(p) = ledger.by_key(&key)? {
            return self.replay(ledger, p);
        }
        let j = self.judge(tool, call, amount.as_ref());
        let plan = Plan {
            tier: tool.tier,
            reasons: j.reasons,
            amount,
            checks: tool.checks.iter().map(|c| c.spec().clone()).collect(),
        };
        let proposal = Proposal::new(
            call_id,
            key,
            call.run_id.clone(),
            call.tool.clone(),
            if j.store_args {
                call.args.clone()
            } else {
                Value::Null
            },
            call.context.clone(),
            plan,
            j.status,
            0,
        );
        match ledger.record(&proposal, tool.hourly, true)? {
            Recorded::New(p) => Ok(answer_of(&p, p.status() == CallStatus::Executing, false)),
            Recorded::Existing(p) => self.replay(ledger, p),
        }
    }

    fn replay(&self, ledger: &dyn Ledger, p: Proposal) -> Result<Answer> {
        ledger.note(&p, "replayed", "gate", p.status().as_str())?;
        if p.status() == CallStatus::Approved {
            // Approved by a person since it was proposed: the first retry runs it.
            let claimed = ledger.advance(
                p.call_id(),
                &Move {
                    from: CallStatus::Approved,
                    to: CallStatus::Executing,
                    event: "claimed",
                    actor: "gate",
                    detail: "executing".to_owned(),
                    approval: None,
                    outcome: None,
                    plan: None,
                },
            )?;
            if claimed {
                return Ok(answer_of(&p, true, true));
            }
            if let Some(now) = ledger.get(p.call_id())? {
                return Ok(answer_of(&now, false, true));
            }
        }
        Ok(answer_of(&p, false, true))
    }

    /// Tool exists → schema → money → key.
    fn front(&self, call: &Call) -> Front<'_> {
        let Some(tool) = self.tool(&call.tool) else {
            let known: Vec<&str> = self.tools().take(20).collect();
            return Front::Rejected(Answer::rejected(vec![Reason::new(
                "tool.unknown",
                "",
                format!(
                    "There is no tool {:?}. Tools: {}.",
                    truncate(&call.tool),
                    known.join(", ")
                ),
                true,
            )]));
        };
        let mut reasons: Vec<Reason> = tool
            .validator
            .iter_errors(&call.args)
            .map(|e| {
                Reason::new(
                    format!("schema.{}", e.kind().keyword()),
                    e.instance_path().as_str().to_owned(),
                    schema_message(&e, &call.args),
                    true,
                )
            })
            .collect();
        if !reasons.is_empty() {
            return Front::Rejected(Answer::rejected(reasons));
        }
        let mut canonical = call.args.clone();
        let mut amount = None;
        if let Some(m) = &tool.money {
            let currency = call.args.pointer(&m.currency);
            let value = call.args.pointer(&m.amount);
            match (value, currency.and_then(Value::as_str)) {
                (Some(v), Some(c)) => match Money::from_json(v, c) {
                    Ok(money) if money.minor() < 0 => reasons.push(Reason::new(
                        "money.negative",
                        m.amount.clone(),
                        "The amount must not be negative.",
                        true,
                    )),
                    Ok(money) => {
                        if let Some(slot) = canonical.pointer_mut(&m.amount) {
                            *slot = Value::from(money.minor());
                        }
                        amount = Some(money);
                    }
                    Err(MoneyError::UnknownCurrency(_)) => reasons.push(Reason::new(
                        "money.bad_currency",
                        m.currency.clone(),
                        "The currency is not an ISO 4217 code with a minor unit (EUR, USD, GBP, JPY, ...).",
                        true,
                    )),
                    Err(e) => reasons.push(Reason::new(
                        "money.bad_amount",
                        m.amount.clone(),
                        format!("The amount cannot be read exactly: {e}. Send a decimal like \"120.50\"."),
                        true,
                    )),
                },
                (None, _) => reasons.push(Reason::new(
                    "money.missing",
                    m.amount.clone(),
                    "The amount is missing.",
                    true,
                )),
                (_, None) => reasons.push(Reason::new(
                    "money.bad_currency",
                    m.currency.clone(),
                    "The currency is missing or not a string.",
                    true,
                )),
            }
        }
        if !reasons.is_empty() {
            return Front::Rejected(Answer::rejected(reasons));
        }
        let key = canonical::idempotency_key(&call.run_id, &call.tool, &canonical);
        let call_id = format!("c_{}", &key[..24]);
        Front::Keyed {
            tool,
            amount,
            key,
            call_id,
        }
    }

    /// Zero-trust → business rules → hard ceiling → tier.
    fn judge(&self, tool: &Tool, call: &Call, amount: Option<&Money>) -> Judged {
        let rejected = |reasons, store_args| Judged {
            status: CallStatus::Rejected,
            reasons,
            store_args,
        };
        let (reasons, has_credential) = self.zero_trust(call);
        if !reasons.is_empty() {
            return rejected(reasons, !has_credential);
        }
        let reasons = self.business(
            &tool.checks,
            &ProposedCall::new(&call.run_id, &call.tool, &call.args, &call.context, amount),
        );
        if !reasons.is_empty() {
            return rejected(reasons, true);
        }
        if let (Some(a), false) = (amount, tool.hard_ceiling.is_empty()) {
            let field = tool
                .money
                .as_ref()
                .map(|m| m.amount.clone())
                .unwrap_or_default();
            match tool
                .hard_ceiling
                .iter()
                .find(|c| c.currency() == a.currency())
            {
                None => {
                    return rejected(
                        vec![Reason::new(
                            "limit.no_ceiling_for_currency",
                            field,
                            format!(
                                "{} has no hard ceiling in {}; a person must handle it.",
                                tool.name,
                                a.currency()
                            ),
                            false,
                        )],
                        true,
                    );
                }
                Some(c) if a.minor() > c.minor() => {
                    return rejected(
                        vec![Reason::new(
                            "limit.hard_ceiling",
                            field,
                            format!(
                                "{a} is above the hard ceiling of {c} for {}; a person must handle it.",
                                tool.name
                            ),
                            false,
                        )],
                        true,
                    );
                }
                Some(_) => {}
            }
        }
        let (status, reasons) = match tool.tier {
            Tier::Forbidden => (
                CallStatus::Rejected,
                vec![Reason::new(
                    "tool.forbidden",
                    "",
                    format!("{} may not be called by an agent.", tool.name),
                    false,
                )],
            ),
            Tier::Read => (CallStatus::Approved, Vec::new()),
            Tier::Approve => (
                CallStatus::PendingApproval,
                vec![Reason::new(
                    "approval.required",
                    "",
                    format!(
                        "{} needs a person's approval; ask again later with the same arguments.",
                        tool.name
                    ),
                    false,
                )],
            ),
            Tier::Auto => match (amount, tool.auto_limit.is_empty()) {
                (Some(a), false) => match tool
                    .auto_limit
                    .iter()
                    .find(|l| l.currency() == a.currency())
                {
                    Some(l) if a.minor() <= l.minor() => (CallStatus::Approved, Vec::new()),
                    Some(l) => (
                        CallStatus::PendingApproval,
                        vec![Reason::new(
                            "approval.over_auto_limit",
                            tool.money
                                .as_ref()
                                .map(|m| m.amount.clone())
                                .unwrap_or_default(),
                            format!(
                                "{a} is above the automatic limit of {l}; a person must approve it."
                            ),
                            false,
                        )],
                    ),
                    None => (
                        CallStatus::PendingApproval,
                        vec![Reason::new(
                            "approval.no_auto_limit_for_currency",
                            tool.money
                                .as_ref()
                                .map(|m| m.currency.clone())
                                .unwrap_or_default(),
                            format!(
                                "{} has no automatic limit in {}; a person must approve it.",
                                tool.name,
                                a.currency()
                            ),
                            false,
                        )],
                    ),
                },
                _ => (CallStatus::Approved, Vec::new()),
            },
        };
        Judged {
            status,
            reasons,
            store_args: true,
        }
    }

    /// Credentials and foreign ids in any string of the arguments. Returns the reasons and
    /// whether a credential was seen (then the arguments are not stored).
    fn zero_trust(&self, call: &Call) -> (Vec<Reason>, bool) {
        let ctx = screen_context(&call.context);
        let mut reasons = Vec::new();
        let mut credential = false;
        let mut strings = Vec::new();
        collect_strings(&call.args, &mut String::new(), &mut strings);
        for (field, text) in strings {
            let report = match self.inner.screener.screen(&ctx, text) {
                Ok(r) => r,
                Err(_) => {
                    reasons.push(Reason::new(
                        "args.too_large",
                        field,
                        "This argument is too large to check.",
                        true,
                    ));
                    continue;
                }
            };
            for f in report.findings() {
                match f.kind() {
                    Kind::Credential => {
                        credential = true;
                        reasons.push(Reason::new(
                            "zero_trust.credential",
                            field.clone(),
                            format!("This argument holds what looks like a credential ({}); credentials never go through tool arguments. A person must look at this run.", f.rule()),
                            false,
                        ));
                    }
                    Kind::ForeignId => reasons.push(Reason::new(
                        "zero_trust.foreign_id",
                        field.clone(),
                        "This argument holds an id that does not belong to this ticket.",
                        false,
                    )),
                    _ => {}
                }
            }
        }
        (reasons, credential)
    }

    fn business(&self, checks: &[Check], call: &ProposedCall<'_>) -> Vec<Reason> {
        let mut reasons: Vec<Reason> = checks.iter().filter_map(|c| c.run(call)).collect();
        for rule in &self.inner.rules {
            reasons.extend(rule.check(call));
        }
        reasons
    }

    fn example_problems(&self) -> Vec<ExampleProblem> {
        let mut problems = Vec::new();
        for tool in &self.inner.tools {
            for (i, ex) in tool.examples.iter().enumerate() {
                let call = Call::new("example", tool.name.clone(), ex.args.clone())
                    .with_context(ex.context.clone());
                let a = self.evaluate(&call);
                let got = a.status().as_str();
                let codes: Vec<&str> = a.reasons().iter().map(Reason::code).collect();
                let mut reason = None;
                if got != ex.expect {
                    reason = Some(format!(
                        "example {i} (line {}): expected {}, got {got} ({})",
                        ex.line,
                        ex.expect,
                        codes.join(", ")
                    ));
                } else if let Some(code) = &ex.code
                    && !codes.contains(&code.as_str())
                {
                    reason = Some(format!(
                        "example {i} (line {}): expected reason {code}, got {}",
                        ex.line,
                        codes.join(", ")
                    ));
                }
                if let Some(reason) = reason {
                    problems.push(ExampleProblem {
                        file: tool.file.clone(),
                        line: ex.line,
                        rule: tool.name.clone(),
                        reason,
                    });
                }
            }
        }
        problems
    }

    /// A person approves a parked call. The business rules run again first, on the stored
    /// arguments and on `context` (fresh facts) or the stored context; if they fail now the
    /// call is rejected instead. Fails when the call is not `pending_approval` (a second
    /// approval changes nothing).
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let gate = palisade::Gate::builder().tools_file("examples/tools.toml").build()?;
    /// let ledger = palisade::SqliteLedger::open("gate.db")?;
    /// let p = gate.approve(&ledger, "c_0123456789abcdef01234567", "ana", None)?;
    /// # Ok(()) }
    /// ```
    pub fn approve(
        &self,
        ledger: &dyn Ledger,
        call_id: &str,
        by: &str,
        context: Option<&Value>,
    ) -> Result<Proposal> {
        let p = pending(ledger, call_id)?;
        let mut checks = Vec::new();
        let mut reasons = Vec::new();
        for spec in &p.plan().checks {
            match Check::parse(spec.clone()) {
                Ok(c) => checks.push(c),
                Err(e) => reasons.push(Reason::business(spec.code.clone(), "", e)),
            }
        }
        let ctx = context.unwrap_or(p.context());
        reasons.extend(self.business(
            &checks,
            &ProposedCall::new(p.run_id(), p.tool(), p.args(), ctx, p.amount()),
        ));
        let mut plan = p.plan().clone();
        let (to, event, decision, detail) = if reasons.is_empty() {
            (CallStatus::Approved, "approved", "approved", String::new())
        } else {
            let codes = reasons
                .iter()
                .map(Reason::code)
                .collect::<Vec<_>>()
                .join(",");
            plan.reasons.extend(reasons);
            (
                CallStatus::Rejected,
                "rejected",
                "rejected",
                format!("business rules failed at approval: {codes}"),
            )
        };
        let moved = ledger.advance(
            call_id,
            &Move {
                from: CallStatus::PendingApproval,
                to,
                event,
                actor: by,
                detail: detail.clone(),
                approval: Some((decision, &detail)),
                outcome: None,
                plan: Some(&plan),
            },
        )?;
        settled(ledger, call_id, moved)
    }

    /// A person rejects a parked call.
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::SqliteLedger::open("gate.db")?;
    /// palisade::Gate::builder().build()?.reject(&ledger, "c_0123456789abcdef01234567", "ana", "duplicate")?;
    /// # Ok(()) }
    /// ```
    pub fn reject(
        &self,
        ledger: &dyn Ledger,
        call_id: &str,
        by: &str,
        reason: &str,
    ) -> Result<Proposal> {
        let p = pending(ledger, call_id)?;
        let mut plan = p.plan().clone();
        plan.reasons.push(Reason::new(
            "approval.rejected",
            "",
            format!("A person rejected this call: {reason}"),
            false,
        ));
        let moved = ledger.advance(
            call_id,
            &Move {
                from: CallStatus::PendingApproval,
                to: CallStatus::Rejected,
                event: "rejected",
                actor: by,
                detail: reason.to_owned(),
                approval: Some(("rejected", reason)),
                outcome: None,
                plan: Some(&plan),
            },
        )?;
        settled(ledger, call_id, moved)
    }

    /// Takes the execution of an approved call (what a repeated [`check`](Self::check) does
    /// too); `None` when another caller has it or it is not approved.
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::SqliteLedger::open("gate.db")?;
    /// if let Some(p) = palisade::Gate::claim(&ledger, "c_0123456789abcdef01234567")? {
    ///     let _args = p.args(); // execute with these
    /// }
    /// # Ok(()) }
    /// ```
    pub fn claim(ledger: &dyn Ledger, call_id: &str) -> Result<Option<Proposal>> {
        let moved = ledger.advance(
            call_id,
            &Move {
                from: CallStatus::Approved,
                to: CallStatus::Executing,
                event: "claimed",
                actor: "gate",
                detail: "executing".to_owned(),
                approval: None,
                outcome: None,
                plan: None,
            },
        )?;
        if moved { ledger.get(call_id) } else { Ok(None) }
    }

    /// Records how an execution ended; the call must be `executing`.
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::SqliteLedger::open("gate.db")?;
    /// palisade::Gate::builder().build()?.finish(&ledger, "c_0123456789abcdef01234567",
    ///     palisade::Outcome::Failed { transient: true })?;
    /// # Ok(()) }
    /// ```
    pub fn finish(&self, ledger: &dyn Ledger, call_id: &str, outcome: Outcome) -> Result<Proposal> {
        let (to, event) = match &outcome {
            Outcome::Done(_) => (CallStatus::Executed, "executed"),
            Outcome::Failed { .. } => (CallStatus::Failed, "failed"),
        };
        let detail = match &outcome {
            Outcome::Done(_) => String::new(),
            Outcome::Failed { transient: true } => "transient".to_owned(),
            Outcome::Failed { transient: false } => "permanent".to_owned(),
        };
        let moved = ledger.advance(
            call_id,
            &Move {
                from: CallStatus::Executing,
                to,
                event,
                actor: "gate",
                detail,
                approval: None,
                outcome: Some(&outcome),
                plan: None,
            },
        )?;
        if !moved {
            let status = ledger.get(call_id)?.map(|p| p.status());
            return Err(Error::Call {
                call_id: call_id.to_owned(),
                reason: match status {
                    Some(s) => format!("is {s}, not executing"),
                    None => "no such call".to_owned(),
                },
            });
        }
        settled(ledger, call_id, true)
    }

    /// One recorded proposal.
    ///
    /// ```
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::SqliteLedger::open(":memory:")?;
    /// assert!(palisade::Gate::show(&ledger, "c_nothing")?.is_none());
    /// # Ok(()) }
    /// ```
    pub fn show(ledger: &dyn Ledger, call_id: &str) -> Result<Option<Proposal>> {
        ledger.get(call_id)
    }
}

fn pending(ledger: &dyn Ledger, call_id: &str) -> Result<Proposal> {
    match ledger.get(call_id)? {
        Some(p) if p.status() == CallStatus::PendingApproval => Ok(p),
        Some(p) => Err(Error::Call {
            call_id: call_id.to_owned(),
            reason: format!("is {}, not pending_approval", p.status()),
        }),
        None => Err(Error::Call {
            call_id: call_id.to_owned(),
            reason: "no such call".to_owned(),
        }),
    }
}

fn settled(ledger: &dyn Ledger, call_id: &str, moved: bool) -> Result<Proposal> {
    let p = ledger.get(call_id)?;
    match (moved, p) {
        (true, Some(p)) => Ok(p),
        (_, p) => Err(Error::Call {
            call_id: call_id.to_owned(),
            reason: match p {
                Some(p) => format!("was moved to {} by someone else meanwhile", p.status()),
                None => "no such call".to_owned(),
            },
        }),
    }
}
