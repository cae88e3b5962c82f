//! `Gate`: the tool-call gate from Python, with business rules as Python callables.
//!
//! The decision, the idempotency key and the ledger are the library's; this file converts
//! JSON values both ways (through Python's `json` module, so any JSON-ready value works) and
//! lets a Python callable act as a `palisade::BusinessRule`.

use std::path::PathBuf;
use std::sync::Arc;

use palisade::{BusinessRule, Call, Outcome, ProposedCall, Reason, SqliteLedger};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::error::{guarded, panic_error, to_py};

/// A Python callable as a business rule. It gets the proposed call as a dict and returns the
/// reasons the call must not run: an iterable of dicts ``{"code", "message", "field"?}``
/// (empty: it may run). A rule that raises or returns something else rejects the call with
/// `business.rule_error`: a broken rule must not let calls through.
struct PyRule(Py<PyAny>);

impl BusinessRule for PyRule {
    fn check(&self, call: &ProposedCall<'_>) -> Vec<Reason> {
        Python::attach(|py| match self.run(py, call) {
            Ok(reasons) => reasons,
            Err(e) => {
                // The exception's type, not its text: a message could echo the arguments.
                let kind = e
                    .get_type(py)
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| "an exception".to_owned());
                vec![Reason::business(
                    "business.rule_error",
                    "",
                    format!("A business rule failed ({kind}); a person must look at this call."),
                )]
            }
        })
    }
}

impl PyRule {
    fn run(&self, py: Python<'_>, call: &ProposedCall<'_>) -> PyResult<Vec<Reason>> {
        let d = PyDict::new(py);
        d.set_item("run_id", call.run_id())?;
        d.set_item("tool", call.tool())?;
        d.set_item("args", to_python(py, call.args())?)?;
        d.set_item("context", to_python(py, call.context())?)?;
        match call.amount() {
            Some(m) => {
                let amount = PyDict::new(py);
                amount.set_item("minor", m.minor())?;
                amount.set_item("currency", m.currency())?;
                d.set_item("amount", amount)?;
            }
            None => d.set_item("amount", py.None())?,
        }
        let out = self.0.bind(py).call1((d,))?;
        let mut reasons = Vec::new();
        for item in out.try_iter()? {
            let item = item?;
            let get = |key: &str| -> PyResult<Option<String>> {
                match item.get_item(key) {
                    Ok(v) if !v.is_none() => Ok(Some(v.extract()?)),
                    _ => Ok(None),
                }
            };
            let (Some(code), Some(message)) = (get("code")?, get("message")?) else {
                return Err(PyTypeError::new_err(
                    "a reason needs \"code\" and \"message\"",
                ));
            };
            reasons.push(Reason::business(
                code,
                get("field")?.unwrap_or_default(),
                message,
            ));
        }
        Ok(reasons)
    }
}

fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

fn from_python(py: Python<'_>, value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (value,))
        .map_err(|e| PyTypeError::new_err(format!("{name} is not JSON-ready: {e}")))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| PyTypeError::new_err(format!("{name}: {e}")))
}

fn to_dict<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value)
        .map_err(|e| PyTypeError::new_err(format!("cannot convert the answer: {e}")))?;
    to_python(py, &json)
}

/// Runs `f` on the gate without the GIL (business rules take it back when they run).
fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> palisade::Result<T> + Send,
) -> PyResult<T> {
    match py.detach(|| guarded(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_py(py, e)),
        Err(panic) => Err(panic_error(py, panic)),
    }
}

/// The tool-call gate: checks each call a model proposes against its spec in ``tools.toml``
/// and real data, answers once per logical call, and records everything in a SQLite ledger.
///
/// Args:
///     tools: the ``tools.toml`` file (its examples run when the gate is built).
///     db: the ledger's SQLite file (``":memory:"`` for a throwaway one).
///     rules: business rules, callables taking the proposed call as a dict (``run_id``,
///         ``tool``, ``args``, ``context``, ``amount`` as ``{"minor", "currency"}`` or
///         ``None``) and returning reasons ``{"code", "message", "field"?}`` (empty: allowed).
///         They run when a call is proposed and again when a person approves it.
///
/// Raises ``PalisadeError`` (``RuleFileError`` style context) for a bad tools file.
#[pyclass(frozen, module = "palisade", name = "Gate")]
pub(crate) struct Gate {
    gate: Arc<palisade::Gate>,
    ledger: Arc<SqliteLedger>,
}

#[pymethods]
impl Gate {
    #[new]
    #[pyo3(signature = (tools, *, db = ":memory:".to_owned(), rules = Vec::new()))]
    fn new(
        py: Python<'_>,
        tools: PathBuf,
        db: String,
        rules: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut builder = palisade::Gate::builder().tools_file(&tools);
        for r in rules {
            if !r.is_callable() {
                return Err(PyTypeError::new_err("a business rule must be callable"));
            }
            builder = builder.rule(PyRule(r.unbind()));
        }
        let gate = detached(py, || builder.build())?;
        let ledger = detached(py, || SqliteLedger::open(&db))?;
        Ok(Gate {
            gate: Arc::new(gate),
            ledger: Arc::new(ledger),
        })
    }

    /// Decides one proposed call. Returns the answer as a dict: ``call_id``, ``key``,
    /// ``status`` (``"approved"``: the caller may execute it now, with ``args``;
    /// ``"pending_approval"``, ``"rejected"``, or a recorded later state), ``reasons`` (each
    /// ``{"code", "field", "message", "retryable"}``) and ``replayed`` (a retry got the
    /// recorded answer).
    #[pyo3(signature = (run_id, tool, args, *, context = None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        run_id: String,
        tool: String,
        args: Bound<'py, PyAny>,
        context: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut call = Call::new(run_id, tool, from_python(py, &args, "args")?);
        if let Some(c) = context {
            call = call.with_context(from_python(py, &c, "context")?);
        }
        let (gate, ledger) = (Arc::clone(&self.gate), Arc::clone(&self.ledger));
        let answer = detached(py, move || gate.check(ledger.as_ref(), &call))?;
        to_dict(py, &answer)
    }

    /// A person approves a call waiting for approval (business rules run again first).
    /// Returns the recorded proposal as a dict.
    fn approve<'py>(
        &self,
        py: Python<'py>,
        call_id: String,
        by: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (gate, ledger) = (Arc::clone(&self.gate), Arc::clone(&self.ledger));
        let p = detached(py, move || {
            gate.approve(ledger.as_ref(), &call_id, &by, None)
        })?;
        to_dict(py, &p)
    }

    /// A person rejects a call waiting for approval. Returns the recorded proposal.
    fn reject<'py>(
        &self,
        py: Python<'py>,
        call_id: String,
        by: String,
        reason: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (gate, ledger) = (Arc::clone(&self.gate), Arc::clone(&self.ledger));
        let p = detached(py, move || {
            gate.reject(ledger.as_ref(), &call_id, &by, &reason)
        })?;
        to_dict(py, &p)
    }

    /// Records that an executing call finished with ``result`` (any JSON-ready value).
    fn done<'py>(
        &self,
        py: Python<'py>,
        call_id: String,
        result: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let outcome = Outcome::Done(from_python(py, &result, "result")?);
        let (gate, ledger) = (Arc::clone(&self.gate), Arc::clone(&self.ledger));
        let p = detached(py, move || gate.finish(ledger.as_ref(), &call_id, outcome))?;
        to_dict(py, &p)
    }

    fn __repr__(&self) -> String {
        "Gate(...)".to_owned()
    }
}
