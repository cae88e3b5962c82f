//! The ledger: proposals, approvals, outcomes and an append-only audit log on a real
//! database. The logic is written once over a small SQL backend trait, so SQLite and
//! PostgreSQL share the schema, the statements and the test suite.
//!
//! Every status move is a compare-and-set (`UPDATE ... WHERE status = $from`) inside a
//! transaction with its audit row, so two approvers or two workers can never both move one
//! proposal.

/// Implements [`Ledger`] for a newtype over [`SqlLedger`] by forwarding.
macro_rules! forward_ledger {
    ($t:ty) => {
        impl $crate::gate::ledger::sealed::Sealed for $t {}
        impl $crate::gate::ledger::Ledger for $t {
            fn backend(&self) -> &'static str {
                $crate::gate::ledger::Ledger::backend(&self.0)
            }
            fn by_key(
                &self,
                key: &str,
            ) -> $crate::error::Result<Option<$crate::gate::ledger::Proposal>> {
                self.0.by_key(key)
            }
            fn get(
                &self,
                call_id: &str,
            ) -> $crate::error::Result<Option<$crate::gate::ledger::Proposal>> {
                self.0.get(call_id)
            }
            #[allow(private_interfaces)]
            fn record(
                &self,
                p: &$crate::gate::ledger::Proposal,
                hourly: $crate::gate::spec::HourlyLimit,
                lease: bool,
            ) -> $crate::error::Result<$crate::gate::ledger::Recorded> {
                self.0.record(p, hourly, lease)
            }
            #[allow(private_interfaces)]
            fn advance(
                &self,
                call_id: &str,
                m: &$crate::gate::ledger::Move<'_>,
            ) -> $crate::error::Result<bool> {
                self.0.advance(call_id, m)
            }
            fn note(
                &self,
                p: &$crate::gate::ledger::Proposal,
                event: &str,
                actor: &str,
                detail: &str,
            ) -> $crate::error::Result<()> {
                self.0.note(p, event, actor, detail)
            }
            fn audit(
                &self,
                run_id: Option<&str>,
            ) -> $crate::error::Result<Vec<$crate::gate::ledger::AuditEntry>> {
                self.0.audit(run_id)
            }
        }
    };
}
use forward_ledger;

#[cfg(feature = "postgres")]
pub(crate) mod postgres;
#[cfg(feature = "sqlite")]
pub(crate) mod sqlite;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::business::CheckSpec;
use super::money::Money;
use super::reason::Reason;
use super::spec::{HourlyLimit, Tier};
use crate::error::{Error, Result};

/// Where a proposal is in its life. Moves only forward:
/// `pending_approval → approved → executing → executed | failed`, and
/// `pending_approval → rejected`; a call rejected by the checks is recorded as `rejected`.
///
/// ```
/// use palisade::CallStatus;
/// assert_eq!(CallStatus::PendingApproval.as_str(), "pending_approval");
/// assert_eq!("executed".parse::<CallStatus>(), Ok(CallStatus::Executed));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    /// Waits for a person.
    PendingApproval,
    /// May run; the next caller to claim it runs it.
    Approved,
    /// Claimed by one caller, which runs it and reports the outcome.
    Executing,
    /// Ran; the result is recorded.
    Executed,
    /// Ran and failed; the failure is recorded.
    Failed,
    /// Will never run.
    Rejected,
}

impl CallStatus {
    /// The snake_case name used in JSON and in the database.
    ///
    /// ```
    /// assert_eq!(palisade::CallStatus::Executing.as_str(), "executing");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::PendingApproval => "pending_approval",
            CallStatus::Approved => "approved",
            CallStatus::Executing => "executing",
            CallStatus::Executed => "executed",
            CallStatus::Failed => "failed",
            CallStatus::Rejected => "rejected",
        }
    }
}

impl std::str::FromStr for CallStatus {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Ok(match s {
            "pending_approval" => CallStatus::PendingApproval,
            "approved" => CallStatus::Approved,
            "executing" => CallStatus::Executing,
            "executed" => CallStatus::Executed,
            "failed" => CallStatus::Failed,
            "rejected" => CallStatus::Rejected,
            other => return Err(format!("unknown status {other:?}")),
        })
    }
}

impl std::fmt::Display for CallStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the gate decided when the call was proposed, kept with the proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Plan {
    pub(crate) tier: Tier,
    pub(crate) reasons: Vec<Reason>,
    pub(crate) amount: Option<Money>,
    /// The tool's declarative checks, run again at approval time.
    pub(crate) checks: Vec<CheckSpec>,
}

/// How an execution ended.
///
/// ```
/// let o = palisade::Outcome::Failed { transient: true };
/// assert_eq!(serde_json::to_value(&o)?["failed"]["transient"], true);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It ran; the tool's result.
    Done(Value),
    /// It failed; `transient` when trying again later (as a new call) may work.
    Failed {
        /// Whether the failure may go away.
        transient: bool,
    },
}

/// One recorded proposal.
///
/// ```no_run
/// # fn main() -> palisade::Result<()> {
/// let ledger = palisade::SqliteLedger::open("gate.db")?;
/// if let Some(p) = palisade::Gate::show(&ledger, "c_0123")? {
///     println!("{} {} {}", p.call_id(), p.tool(), p.status());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    call_id: String,
    key: String,
    run_id: String,
    tool: String,
    args: Value,
    context: Value,
    plan: Plan,
    status: CallStatus,
    created_at: i64,
    updated_at: i64,
    outcome: Option<Outcome>,
}

impl Proposal {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        call_id: String,
        key: String,
        run_id: String,
        tool: String,
        args: Value,
        context: Value,
        plan: Plan,
        status: CallStatus,
        now: i64,
    ) -> Self {
        Proposal {
            call_id,
            key,
            run_id,
            tool,
            args,
            context,
            plan,
            status,
            created_at: now,
            updated_at: now,
            outcome: None,
        }
    }

    /// The call id (derived from the key, so a retry gets the same one).
    pub fn call_id(&self) -> &str {
        &self.call_id
    }
    /// The idempotency key (hex SHA-256).
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The run.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }
    /// The tool.
    pub fn tool(&self) -> &str {
        &self.tool
    }
    /// The arguments as validated: execution uses these, never new ones from the model.
    /// `null` when the arguments held a credential (it is never stored).
    pub fn args(&self) -> &Value {
        &self.args
    }
    /// The context the call was checked against.
    pub fn context(&self) -> &Value {
        &self.context
    }
    /// The reasons recorded with the decision.
    pub fn reasons(&self) -> &[Reason] {
        &self.plan.reasons
    }
    /// The money amount, for tools with a money field.
    pub fn amount(&self) -> Option<&Money> {
        self.plan.amount.as_ref()
    }
    /// The current status.
    pub fn status(&self) -> CallStatus {
        self.status
    }
    /// When it was proposed (Unix seconds).
    pub fn created_at(&self) -> i64 {
        self.created_at
    }
    /// The outcome, once reported.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    pub(crate) fn plan(&self) -> &Plan {
        &self.plan
    }
}

/// One line of the append-only audit log.
///
/// ```
/// # use palisade::AuditEntry;
/// fn print(entries: &[AuditEntry]) {
///     for e in entries {
///         let _ = (e.at(), e.call_id(), e.event(), e.actor(), e.detail());
///     }
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    id: i64,
    at: i64,
    call_id: String,
    run_id: String,
    event: String,
    actor: String,
    detail: String,
}

impl AuditEntry {
    /// Its position in the log.
    pub fn id(&self) -> i64 {
        self.id
    }
    /// Unix seconds.
    pub fn at(&self) -> i64 {
        self.at
    }
    /// The call.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }
    /// The run.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }
    /// `proposed`, `replayed`, `claimed`, `approved`, `rejected`, `executed`, `failed`.
    pub fn event(&self) -> &str {
        &self.event
    }
    /// Who: `gate`, a worker, or the approver's name.
    pub fn actor(&self) -> &str {
        &self.actor
    }
    /// A short note (status, reason codes, an approver's reason).
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

/// A status move and what comes with it.
pub(crate) struct Move<'a> {
    pub(crate) from: CallStatus,
    pub(crate) to: CallStatus,
    pub(crate) event: &'a str,
    pub(crate) actor: &'a str,
    pub(crate) detail: String,
    /// An approvals row: (decision, reason).
    pub(crate) approval: Option<(&'a str, &'a str)>,
    pub(crate) outcome: Option<&'a Outcome>,
    pub(crate) plan: Option<&'a Plan>,
}

/// The result of recording a new proposal.
pub(crate) enum Recorded {
    /// This call inserted it (the hourly limit may have turned it into a rejection).
    New(Proposal),
    /// A proposal with the same key was there already.
    Existing(Proposal),
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A place proposals are recorded: [`SqliteLedger`](crate::SqliteLedger) (feature `sqlite`,
/// on by default) or `PostgresLedger` (feature `postgres`).
/// Sealed: the gate's guarantees rest on the statements both backends share.
///
/// ```
/// fn gate_with(ledger: &dyn palisade::Ledger) { let _ = ledger.backend(); }
/// ```
pub trait Ledger: sealed::Sealed + Send + Sync {
    /// `sqlite` or `postgres`.
    fn backend(&self) -> &'static str;
    #[doc(hidden)]
    fn by_key(&self, key: &str) -> Result<Option<Proposal>>;
    #[doc(hidden)]
    fn get(&self, call_id: &str) -> Result<Option<Proposal>>;
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn record(&self, p: &Proposal, hourly: HourlyLimit, lease: bool) -> Result<Recorded>;
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn advance(&self, call_id: &str, m: &Move<'_>) -> Result<bool>;
    #[doc(hidden)]
    fn note(&self, p: &Proposal, event: &str, actor: &str, detail: &str) -> Result<()>;
    /// The audit log, oldest first, for one run or all.
    fn audit(&self, run_id: Option<&str>) -> Result<Vec<AuditEntry>>;
}

/// A value bound to or read from a statement: the schema uses only text and 64-bit integers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sql {
    Null,
    Int(i64),
    Text(String),
}

impl Sql {
    fn text(&self) -> String {
        match self {
            Sql::Text(s) => s.clone(),
            Sql::Int(i) => i.to_string(),
            Sql::Null => String::new(),
        }
    }
    fn int(&self) -> i64 {
        match self {
            Sql::Int(i) => *i,
            _ => 0,
        }
    }
}

/// One transaction on a backend. Statements use `$1`-style placeholders.
pub(crate) trait Tx {
    fn exec(&mut self, sql: &str, params: &[Sql]) -> Result<u64>;
    fn query(&mut self, sql: &str, params: &[Sql]) -> Result<Vec<Vec<Sql>>>;
}

/// A database the ledger logic runs on.
pub(crate) trait Backend: Send + Sync {
    const NAME: &'static str;
    /// Runs `f` in one write transaction. `lock` names a serialisation point (the tool) that
    /// backends without whole-database write locks take first.
    fn transaction<T>(
        &self,
        lock: Option<&str>,
        f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>,
    ) -> Result<T>;
    /// Runs `f`, which only reads, in one transaction.
    fn read<T>(&self, f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>) -> Result<T> {
        self.transaction(None, f)
    }
}

/// The schema, shared by both backends except the audit id column and the guard that makes
/// the audit log append-only (a trigger on each).
pub(crate) const TABLES: &str = "
CREATE TABLE IF NOT EXISTS proposals (
    call_id TEXT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    context TEXT NOT NULL,
    plan TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS proposals_run_window ON proposals (tool, run_id, created_at, status);
CREATE INDEX IF NOT EXISTS proposals_tool_window ON proposals (tool, created_at, status);
CREATE TABLE IF NOT EXISTS approvals (
    call_id TEXT NOT NULL REFERENCES proposals (call_id),
    decided_by TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS outcomes (
    call_id TEXT PRIMARY KEY REFERENCES proposals (call_id),
    outcome TEXT NOT NULL,
    at BIGINT NOT NULL
);
";

/// The ledger logic over any backend.
pub(crate) struct SqlLedger<B: Backend> {
    pub(crate) db: B,
}

const COLUMNS: &str =
    "call_id, key, run_id, tool, args, context, plan, status, created_at, updated_at";

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn corrupt(backend: &'static str, what: String) -> Error {
    Error::Ledger {
        backend,
        operation: "read",
        reason: what,
    }
}

fn row_to_proposal(backend: &'static str, row: &[Sql], outcome: Option<&Sql>) -> Result<Proposal> {
    let json = |i: usize| -> Result<Value> {
        serde_json::from_str(&row[i].text()).map_err(|e| corrupt(backend, e.to_string()))
    };
    if row.len() < 10 {
        return Err(corrupt(backend, "short row".to_owned()));
    }
    let plan: Plan =
        serde_json::from_str(&row[6].text()).map_err(|e| corrupt(backend, e.to_string()))?;
    let outcome = match outcome {
        Some(Sql::Text(t)) => {
            Some(serde_json::from_str(t).map_err(|e| corrupt(backend, e.to_string()))?)
        }
        _ => None,
    };
    Ok(Proposal {
        call_id: row[0].text(),
        key: row[1].text(),
        run_id: row[2].text(),
        tool: row[3].text(),
        args: json(4)?,
        context: json(5)?,
        plan,
        status: row[7].text().parse().map_err(|e| corrupt(backend, e))?,
        created_at: row[8].int(),
        updated_at: row[9].int(),
        outcome,
    })
}

fn audit_row(
    tx: &mut dyn Tx,
    p_call: &str,
    p_run: &str,
    event: &str,
    actor: &str,
    detail: &str,
    at: i64,
) -> Result<()> {
    tx.exec(
        "INSERT INTO audit (at, call_id, run_id, event, actor, detail) VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            Sql::Int(at),
            Sql::Text(p_call.to_owned()),
            Sql::Text(p_run.to_owned()),
            Sql::Text(event.to_owned()),
            Sql::Text(actor.to_owned()),
            Sql::Text(detail.to_owned()),
        ],
    )?;
    Ok(())
}

fn select_one(
    tx: &mut dyn Tx,
    backend: &'static str,
    column: &str,
    value: &str,
) -> Result<Option<Proposal>> {
    let sql = format!(
        "SELECT {COLUMNS}, (SELECT outcome FROM outcomes o WHERE o.call_id = p.call_id) FROM proposals p WHERE {column} = $1"
    );
    let rows = tx.query(&sql, &[Sql::Text(value.to_owned())])?;
    match rows.first() {
        Some(r) => Ok(Some(row_to_proposal(backend, &r[..10], r.get(10))?)),
        None => Ok(None),
    }
}

fn reason_codes(reasons: &[Reason]) -> String {
    reasons
        .iter()
        .map(Reason::code)
        .collect::<Vec<_>>()
        .join(",")
}

impl<B: Backend> SqlLedger<B> {
    fn json(v: &impl Serialize) -> Result<Sql> {
        serde_json::to_string(v)
            .map(Sql::Text)
            .map_err(|e| Error::Ledger {
                backend: B::NAME,
                operation: "write",
                reason: e.to_string(),
            })
    }
}

impl<B: Backend> sealed::Sealed for SqlLedger<B> {}

impl<B: Backend> Ledger for SqlLedger<B> {
    fn backend(&self) -> &'static str {
        B::NAME
    }

    fn by_key(&self, key: &str) -> Result<Option<Proposal>> {
        self.db.read(&mut |tx| select_one(tx, B::NAME, "key", key))
    }

    fn get(&self, call_id: &str) -> Result<Option<Proposal>> {
        self.db
            .read(&mut |tx| select_one(tx, B::NAME, "call_id", call_id))
    }

    fn record(&self, p: &Proposal, hourly: HourlyLimit, lease: bool) -> Result<Recorded> {
        let args = Self::json(&p.args)?;
        let context = Self::json(&p.context)?;
        self.db.transaction(Some(&p.tool), &mut |tx| {
            if let Some(existing) = select_one(tx, B::NAME, "key", &p.key)? {
                return Ok(Recorded::Existing(existing));
            }
            let t = now();
            let mut p = p.clone();
            p.created_at = t;
            p.updated_at = t;
            if p.status != CallStatus::Rejected {
                // Pending and approved proposals count as well as executed ones: a flood of
                // proposals waiting for a person is exactly what the limit is for.
                let since = t - 3600;
                // Counts at most `limit` rows (the answer only needs "reached or not"), from
                // an index that holds every column the filter reads.
                let count = |tx: &mut dyn Tx, run: Option<&str>, limit: u32| -> Result<i64> {
                    let mut sql = "SELECT COUNT(*) FROM (SELECT 1 FROM proposals WHERE tool = $1 AND created_at > $2 AND status <> 'rejected'".to_owned();
                    let mut params = vec![
                        Sql::Text(p.tool.clone()),
                        Sql::Int(since),
                        Sql::Int(i64::from(limit)),
                    ];
                    if let Some(r) = run {
                        sql.push_str(" AND run_id = $4");
                        params.push(Sql::Text(r.to_owned()));
                    }
                    sql.push_str(" LIMIT $3) AS window_rows");
                    Ok(tx.query(&sql, &params)?.first().and_then(|r| r.first()).map_or(0, Sql::int))
                };
                let mut over = None;
                if let Some(n) = hourly.per_run
                    && count(tx, Some(&p.run_id), n)? >= i64::from(n)
                {
                    over = Some(format!("This run may call {} at most {n} times an hour (pending proposals count); a person must raise the limit or the run must wait.", p.tool));
                }
                if over.is_none()
                    && let Some(n) = hourly.per_tool
                    && count(tx, None, n)? >= i64::from(n)
                {
                    over = Some(format!("{} may be called at most {n} times an hour across all runs (pending proposals count).", p.tool));
                }
                if let Some(message) = over {
                    p.status = CallStatus::Rejected;
                    p.plan.reasons.push(Reason::new("limit.hourly", "", message, false));
                }
            }
            tx.exec(
                &format!("INSERT INTO proposals ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"),
                &[
                    Sql::Text(p.call_id.clone()),
                    Sql::Text(p.key.clone()),
                    Sql::Text(p.run_id.clone()),
                    Sql::Text(p.tool.clone()),
                    args.clone(),
                    context.clone(),
                    Self::json(&p.plan)?,
                    Sql::Text(p.status.as_str().to_owned()),
                    Sql::Int(t),
                    Sql::Int(t),
                ],
            )?;
            let detail = match p.plan.reasons.is_empty() {
                true => p.status.as_str().to_owned(),
                false => format!("{} {}", p.status, reason_codes(&p.plan.reasons)),
            };
            audit_row(tx, &p.call_id, &p.run_id, "proposed", "gate", &detail, t)?;
            if lease && p.status == CallStatus::Approved {
                tx.exec(
                    "UPDATE proposals SET status = 'executing', updated_at = $1 WHERE call_id = $2 AND status = 'approved'",
                    &[Sql::Int(t), Sql::Text(p.call_id.clone())],
                )?;
                audit_row(tx, &p.call_id, &p.run_id, "claimed", "gate", "executing", t)?;
                p.status = CallStatus::Executing;
            }
            Ok(Recorded::New(p))
        })
    }

    fn advance(&self, call_id: &str, m: &Move<'_>) -> Result<bool> {
        let plan = match m.plan {
            Some(p) => Some(Self::json(p)?),
            None => None,
        };
        let outcome = match m.outcome {
            Some(o) => Some(Self::json(o)?),
            None => None,
        };
        self.db.transaction(None, &mut |tx| {
            let t = now();
            let id = Sql::Text(call_id.to_owned());
            let moved = match &plan {
                Some(plan) => tx.exec(
                    "UPDATE proposals SET status = $1, updated_at = $2, plan = $3 WHERE call_id = $4 AND status = $5",
                    &[Sql::Text(m.to.as_str().to_owned()), Sql::Int(t), plan.clone(), id.clone(), Sql::Text(m.from.as_str().to_owned())],
                )?,
                None => tx.exec(
                    "UPDATE proposals SET status = $1, updated_at = $2 WHERE call_id = $3 AND status = $4",
                    &[Sql::Text(m.to.as_str().to_owned()), Sql::Int(t), id.clone(), Sql::Text(m.from.as_str().to_owned())],
                )?,
            };
            if moved != 1 {
                return Ok(false);
            }
            let run = tx
                .query("SELECT run_id FROM proposals WHERE call_id = $1", std::slice::from_ref(&id))?
                .first()
                .and_then(|r| r.first())
                .map(Sql::text)
                .unwrap_or_default();
            if let Some((decision, reason)) = m.approval {
                tx.exec(
                    "INSERT INTO approvals (call_id, decided_by, decision, reason, at) VALUES ($1, $2, $3, $4, $5)",
                    &[id.clone(), Sql::Text(m.actor.to_owned()), Sql::Text(decision.to_owned()), Sql::Text(reason.to_owned()), Sql::Int(t)],
                )?;
            }
            if let Some(o) = &outcome {
                tx.exec(
                    "INSERT INTO outcomes (call_id, outcome, at) VALUES ($1, $2, $3)",
                    &[id.clone(), o.clone(), Sql::Int(t)],
                )?;
            }
            audit_row(tx, call_id, &run, m.event, m.actor, &m.detail, t)?;
            Ok(true)
        })
    }

    fn note(&self, p: &Proposal, event: &str, actor: &str, detail: &str) -> Result<()> {
        self.db.transaction(None, &mut |tx| {
            audit_row(tx, &p.call_id, &p.run_id, event, actor, detail, now())
        })
    }

    fn audit(&self, run_id: Option<&str>) -> Result<Vec<AuditEntry>> {
        self.db.read(&mut |tx| {
            let rows = match run_id {
                Some(r) => tx.query(
                    "SELECT id, at, call_id, run_id, event, actor, detail FROM audit WHERE run_id = $1 ORDER BY id",
                    &[Sql::Text(r.to_owned())],
                )?,
                None => tx.query(
                    "SELECT id, at, call_id, run_id, event, actor, detail FROM audit ORDER BY id",
                    &[],
                )?,
            };
            Ok(rows
                .into_iter()
                .filter(|r| r.len() == 7)
                .map(|r| AuditEntry {
                    id: r[0].int(),
                    at: r[1].int(),
                    call_id: r[2].text(),
                    run_id: r[3].text(),
                    event: r[4].text(),
                    actor: r[5].text(),
                    detail: r[6].text(),
                })
                .collect())
        })
    }
}
