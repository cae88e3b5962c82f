//! The result classes: `Finding`, `Report`, `Fenced`, `Cleaned`.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

/// One problem found in a text, as data.
///
/// ``start``/``end`` index the Python ``str`` that was scanned (``text[f.start:f.end]`` is the
/// span); ``byte_start``/``byte_end`` are the same span in UTF-8 bytes, as the CLI and the
/// Rust library report it. A finding never holds the text it matched: ``message`` names the
/// problem and, for a credential, shows at most its first four characters and its length.
#[pyclass(frozen, eq, hash, module = "palisade", name = "Finding")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Finding {
    rule: String,
    kind: &'static str,
    severity: &'static str,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    message: String,
}

#[pymethods]
impl Finding {
    /// The stable rule id, such as ``"credential.github-classic-token"``.
    #[getter]
    fn rule(&self) -> &str {
        &self.rule
    }

    /// The class of problem: ``"credential"``, ``"email"``, ``"injection"``, ...
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }

    /// ``"block"`` (holds a draft back) or ``"notice"`` (shown to the reviewer).
    #[getter]
    fn severity(&self) -> &'static str {
        self.severity
    }

    /// Start of the span, as an index into the Python ``str``.
    #[getter]
    fn start(&self) -> usize {
        self.start
    }

    /// End of the span (exclusive), as an index into the Python ``str``.
    #[getter]
    fn end(&self) -> usize {
        self.end
    }

    /// Start of the span in UTF-8 bytes (as the CLI's JSON reports it).
    #[getter]
    fn byte_start(&self) -> usize {
        self.byte_start
    }

    /// End of the span in UTF-8 bytes (exclusive).
    #[getter]
    fn byte_end(&self) -> usize {
        self.byte_end
    }

    /// The message for the model and the reviewer.
    #[getter]
    fn message(&self) -> &str {
        &self.message
    }

    /// The finding as a plain dict (JSON-ready).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("rule", &self.rule)?;
        d.set_item("kind", self.kind)?;
        d.set_item("severity", self.severity)?;
        d.set_item("start", self.start)?;
        d.set_item("end", self.end)?;
        d.set_item("byte_start", self.byte_start)?;
        d.set_item("byte_end", self.byte_end)?;
        d.set_item("message", &self.message)?;
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Finding(rule={}, kind={}, severity={}, start={}, end={}, message={})",
            py_repr(py, &self.rule)?,
            py_repr(py, self.kind)?,
            py_repr(py, self.severity)?,
            self.start,
            self.end,
            py_repr(py, &self.message)?
        ))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, FindingArgs)> {
        let rebuild = py.import("palisade._palisade")?.getattr("_finding")?;
        Ok((
            rebuild,
            (
                self.rule.clone(),
                self.kind,
                self.severity,
                self.start,
                self.end,
                self.byte_start,
                self.byte_end,
                self.message.clone(),
            ),
        ))
    }
}

/// Python's `repr` of a string (quotes and escapes as Python writes them).
fn py_repr(py: Python<'_>, s: &str) -> PyResult<String> {
    pyo3::types::PyString::new(py, s).repr()?.extract()
}

type FindingArgs = (
    String,
    &'static str,
    &'static str,
    usize,
    usize,
    usize,
    usize,
    String,
);

/// Rebuilds a pickled finding (the arguments of `Finding.__reduce__`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _finding(
    rule: String,
    kind: &str,
    severity: &str,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    message: String,
) -> PyResult<Finding> {
    let kind = palisade::Kind::ALL
        .iter()
        .map(|k| k.as_str())
        .find(|k| *k == kind)
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("unknown kind {kind:?}")))?;
    let severity = match severity {
        "block" => "block",
        "notice" => "notice",
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown severity {other:?}"
            )));
        }
    };
    Ok(Finding {
        rule,
        kind,
        severity,
        start,
        end,
        byte_start,
        byte_end,
        message,
    })
}

/// Converts findings over `text`, turning byte offsets into `str` (code point) indices.
pub(crate) fn convert(text: &str, findings: &[palisade::Finding]) -> Vec<Finding> {
    let offsets = CharOffsets::new(text, findings);
    findings
        .iter()
        .map(|f| {
            let span = f.span();
            Finding {
                rule: f.rule().to_owned(),
                kind: f.kind().as_str(),
                severity: f.severity().as_str(),
                start: offsets.get(span.start),
                end: offsets.get(span.end),
                byte_start: span.start,
                byte_end: span.end,
                message: f.message().to_owned(),
            }
        })
        .collect()
}

/// Byte offset → code point index for the offsets a set of findings uses.
enum CharOffsets {
    /// ASCII text: the two are the same.
    Same,
    /// Sorted (byte offset, char index) pairs.
    Table(Vec<(usize, usize)>),
}

impl CharOffsets {
    fn new(text: &str, findings: &[palisade::Finding]) -> Self {
        if findings.is_empty() || text.is_ascii() {
            return CharOffsets::Same;
        }
        let mut bytes: Vec<usize> = findings
            .iter()
            .flat_map(|f| [f.span().start, f.span().end])
            .collect();
        bytes.sort_unstable();
        bytes.dedup();
        // One pass over the text up to the last offset: count the characters between
        // successive offsets (spans are on char boundaries; `get` guards anyway).
        let (mut at_byte, mut at_char) = (0, 0);
        let mut table = Vec::with_capacity(bytes.len());
        for b in bytes {
            let chars = text.get(at_byte..b).map_or(0, |s| s.chars().count());
            at_char += chars;
            at_byte = b;
            table.push((b, at_char));
        }
        CharOffsets::Table(table)
    }

    fn get(&self, byte: usize) -> usize {
        match self {
            CharOffsets::Same => byte,
            CharOffsets::Table(t) => t
                .binary_search_by_key(&byte, |&(b, _)| b)
                .map_or(byte, |i| t[i].1),
        }
    }
}

/// The outcome of screening one draft.
///
/// ``blocked`` is true when any finding is a BLOCK: send the draft back for one rewrite with
/// ``feedback()`` before anyone is asked to approve it. NOTICE findings travel with the draft
/// to the reviewer. ``repr`` and ``to_dict()`` hold rule ids and messages, never the draft.
#[pyclass(frozen, module = "palisade", name = "Report")]
pub(crate) struct Report {
    inner: palisade::Report,
    /// Made on first use: many callers read only `blocked`.
    findings: PyOnceLock<Vec<Py<Finding>>>,
    draft: PyBackedStr,
    /// Set on an unpickled report: the library's report quotes the draft in its feedback
    /// from data that does not travel in its JSON.
    feedback: Option<String>,
}

impl Report {
    pub(crate) fn new(inner: palisade::Report, draft: PyBackedStr) -> Self {
        Report {
            inner,
            findings: PyOnceLock::new(),
            draft,
            feedback: None,
        }
    }

    fn finding_objects(&self, py: Python<'_>) -> PyResult<&[Py<Finding>]> {
        self.findings
            .get_or_try_init(py, || {
                convert(&self.draft, self.inner.findings())
                    .into_iter()
                    .map(|f| Py::new(py, f))
                    .collect()
            })
            .map(Vec::as_slice)
    }
}

#[pymethods]
impl Report {
    /// Whether any finding is a BLOCK.
    #[getter]
    fn blocked(&self) -> bool {
        self.inner.is_blocked()
    }

    /// The findings, in span order.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            self.finding_objects(py)?.iter().map(|f| f.clone_ref(py)),
        )
    }

    /// The problems as one instruction to hand back to the model for a rewrite ("" when there
    /// is nothing to fix). Built from rule messages only: it never quotes the draft.
    fn feedback(&self) -> String {
        match &self.feedback {
            Some(f) => f.clone(),
            None => self.inner.feedback(),
        }
    }

    /// A copy of the screened draft that is safe to log: credentials, foreign ids, email
    /// addresses and long numbers replaced by ``[REDACTED:<kind>]``.
    fn redact(&self) -> String {
        self.inner.redact(&self.draft)
    }

    /// A self-contained HTML review page of the screened draft: each finding highlighted
    /// with its rule, credentials shown only as their masked preview, the feedback for the
    /// rewrite. No external resources; safe to open from disk.
    fn to_html(&self) -> String {
        self.inner.to_html(&self.draft)
    }

    /// ``{"blocked": bool, "findings": [finding dicts]}`` (JSON-ready; no draft text).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("blocked", self.inner.is_blocked())?;
        let list = PyList::empty(py);
        for f in self.finding_objects(py)? {
            list.append(f.get().to_dict(py)?)?;
        }
        d.set_item("findings", list)?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.inner.findings().len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let rules = self
            .inner
            .findings()
            .iter()
            .map(|f| py_repr(py, f.rule()))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(format!(
            "Report(blocked={}, findings={}, rules=[{}])",
            if self.inner.is_blocked() {
                "True"
            } else {
                "False"
            },
            self.inner.findings().len(),
            rules.join(", ")
        ))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, String, String))> {
        // The draft travels with a pickled report because `redact()` needs it; the findings
        // travel as the library's JSON, so they come back exactly.
        let rebuild = py.import("palisade._palisade")?.getattr("_report")?;
        let json = serde_json_string(&self.inner)?;
        Ok((rebuild, (self.draft.to_string(), json, self.feedback())))
    }
}

fn serde_json_string(report: &palisade::Report) -> PyResult<String> {
    serde_json::to_string(report)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// Rebuilds a pickled report (the arguments of `Report.__reduce__`).
#[pyfunction]
pub(crate) fn _report(draft: Bound<'_, PyAny>, json: &str, feedback: String) -> PyResult<Report> {
    let inner: palisade::Report = serde_json::from_str(json)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let draft: PyBackedStr = draft.extract()?;
    let mut report = Report::new(inner, draft);
    report.feedback = Some(feedback);
    Ok(report)
}

/// A fenced block of untrusted text and what was found in it.
///
/// ``text`` is the whole block: the BEGIN line, the cleaned text, the END line, each ending in
/// a newline; paste it into the prompt as it is. ``findings`` (NOTICEs) list what was removed
/// and what looked like an injection, with spans into the text that was fenced.
#[pyclass(frozen, module = "palisade", name = "Fenced")]
pub(crate) struct Fenced {
    text: String,
    findings: Vec<Py<Finding>>,
}

/// Text cleaned for use as a search query (no fence lines) and what was found in it.
#[pyclass(frozen, module = "palisade", name = "Cleaned")]
pub(crate) struct Cleaned {
    text: String,
    findings: Vec<Py<Finding>>,
}

fn to_py_findings(
    py: Python<'_>,
    text: &str,
    found: &[palisade::Finding],
) -> PyResult<Vec<Py<Finding>>> {
    convert(text, found)
        .into_iter()
        .map(|f| Py::new(py, f))
        .collect()
}

fn dict_of<'py>(
    py: Python<'py>,
    key: &str,
    text: &str,
    findings: &[Py<Finding>],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(key, text)?;
    let list = PyList::empty(py);
    for f in findings {
        list.append(f.get().to_dict(py)?)?;
    }
    d.set_item("findings", list)?;
    Ok(d)
}

impl Fenced {
    pub(crate) fn new(py: Python<'_>, input: &str, out: palisade::Fenced) -> PyResult<Self> {
        Ok(Fenced {
            findings: to_py_findings(py, input, out.findings())?,
            text: out.fenced().to_owned(),
        })
    }
}

impl Cleaned {
    pub(crate) fn new(py: Python<'_>, input: &str, out: palisade::Cleaned) -> PyResult<Self> {
        Ok(Cleaned {
            findings: to_py_findings(py, input, out.findings())?,
            text: out.text().to_owned(),
        })
    }
}

#[pymethods]
impl Fenced {
    /// The whole fenced block.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// NOTICE findings, with spans into the text that was fenced.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.findings.iter().map(|f| f.clone_ref(py)))
    }

    /// ``{"fenced": str, "findings": [finding dicts]}``, the CLI's ``fence --json`` shape.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        dict_of(py, "fenced", &self.text, &self.findings)
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!(
            "Fenced(chars={}, findings={})",
            self.text.chars().count(),
            self.findings.len()
        )
    }
}

#[pymethods]
impl Cleaned {
    /// The cleaned text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// NOTICE findings, with spans into the text that was cleaned.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.findings.iter().map(|f| f.clone_ref(py)))
    }

    /// ``{"text": str, "findings": [finding dicts]}``, the CLI's ``query --json`` shape.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        dict_of(py, "text", &self.text, &self.findings)
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!(
            "Cleaned(chars={}, findings={})",
            self.text.chars().count(),
            self.findings.len()
        )
    }
}
