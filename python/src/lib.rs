//! The `palisade._palisade` extension module: Palisade's fence, scan and screen for Python.
//!
//! A thin layer over the Rust library: arguments in, the library's results out as Python
//! objects with `str` offsets. No check lives here. Work on a text runs with the GIL
//! released, and a Rust panic surfaces as `PalisadeError`, never as a `PanicException`.

mod error;
mod screener;
mod types;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyList;

use crate::error::{guarded, panic_error, to_py};
use crate::types::{Cleaned, Fenced, Finding, Report, convert};

/// What the `nonce` argument of `fence` may be.
#[derive(FromPyObject)]
enum Nonce {
    Random(bool),
    Hex(String),
}

/// Wraps untrusted text (a ticket's title or body, a tool result) in BEGIN and END lines it
/// cannot forge or close, after removing every copy of the marker and invisible characters.
///
/// Args:
///     text: the untrusted text.
///     label: the block's label, such as ``"TICKET_BODY"`` (1 to 64 ASCII letters, digits,
///         ``_ - . :`` or inner spaces).
///     nonce: ``None`` (no nonce), a hex string of 8 to 64 digits for the END line (fixed per
///         conversation keeps prompt caching), or ``True`` for 128 random bits.
///     source: who wrote the text, for the BEGIN line ("was written by a customer"): 1 to 64
///         ASCII letters, digits, spaces and ``.,'-()&/``; ``None`` names no author.
///
/// Returns ``Fenced`` (``.text`` is the block, ``.findings`` the NOTICEs, spans into ``text``).
/// Raises ``FenceError`` for a bad label or nonce, ``InvalidSettingError`` for a bad source,
/// ``InputTooLargeError`` over 1 MiB.
#[pyfunction]
#[pyo3(signature = (text, label, *, nonce = None, source = None))]
fn fence(
    py: Python<'_>,
    text: PyBackedStr,
    label: &str,
    nonce: Option<Nonce>,
    source: Option<&str>,
) -> PyResult<Fenced> {
    let mut f = palisade::Fence::new(label).map_err(|e| to_py(py, e))?;
    if let Some(s) = source {
        f = f.with_source(s).map_err(|e| to_py(py, e))?;
    }
    f = match nonce {
        None | Some(Nonce::Random(false)) => Ok(f),
        Some(Nonce::Random(true)) => f.with_random_nonce(),
        Some(Nonce::Hex(n)) => f.with_nonce(&n),
    }
    .map_err(|e| to_py(py, e))?;
    let detector = palisade::Detector::new();
    let out = py
        .detach(|| guarded(|| detector.fence(&f, &text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    Fenced::new(py, &text, out)
}

/// Cleans text that will be used as a search query: the removals of ``fence`` without the
/// fence lines. Returns ``Cleaned`` (``.text``, ``.findings``).
#[pyfunction]
fn clean_query(py: Python<'_>, text: PyBackedStr) -> PyResult<Cleaned> {
    let detector = palisade::Detector::new();
    let out = py
        .detach(|| guarded(|| detector.clean_query(&text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    Cleaned::new(py, &text, out)
}

/// Scans untrusted text for injection-shaped and hidden text. Every finding is a NOTICE:
/// detection records, it never blocks. Nothing is changed.
#[pyfunction]
fn scan<'py>(py: Python<'py>, text: PyBackedStr) -> PyResult<Bound<'py, PyList>> {
    let detector = palisade::Detector::new();
    let found = py
        .detach(|| guarded(|| detector.scan(&text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    PyList::new(py, convert(&text, &found))
}

/// The native module.
#[pymodule]
fn _palisade(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(fence, m)?)?;
    m.add_function(wrap_pyfunction!(clean_query, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_class::<screener::Screener>()?;
    m.add_class::<Report>()?;
    m.add_class::<Finding>()?;
    m.add_class::<Fenced>()?;
    m.add_class::<Cleaned>()?;
    m.add_function(wrap_pyfunction!(types::_finding, m)?)?;
    m.add_function(wrap_pyfunction!(types::_report, m)?)?;
    m.add_function(wrap_pyfunction!(screener::_screener, m)?)?;
    error::register(m)?;
    Ok(())
}
