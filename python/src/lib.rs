//! The `palisade._palisade` extension module: Palisade's fence, scan and screen for Python.
//!
//! A thin layer over the Rust library: arguments in, the library's results out as Python
//! objects with `str` offsets. No check lives here. Work on a text runs with the GIL
//! released, and a Rust panic surfaces as `PalisadeError`, never as a `PanicException`.

mod detector;
mod error;
mod gate;
mod screener;
mod types;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyList;

use crate::detector::{Detector, Nonce, clean_with, fence_with, scan_with};
use crate::types::{Cleaned, Fenced, Finding, Report};

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
    let detector = Detector::default_inner();
    fence_with(py, &detector, None, text, label, nonce, source)
}

/// Cleans text that will be used as a search query: the removals of ``fence`` without the
/// fence lines. Returns ``Cleaned`` (``.text``, ``.findings``).
#[pyfunction]
fn clean_query(py: Python<'_>, text: PyBackedStr) -> PyResult<Cleaned> {
    clean_with(py, &Detector::default_inner(), text)
}

/// Scans untrusted text for injection-shaped and hidden text. Every finding is a NOTICE:
/// detection records, it never blocks. Nothing is changed.
#[pyfunction]
fn scan<'py>(py: Python<'py>, text: PyBackedStr) -> PyResult<Bound<'py, PyList>> {
    scan_with(py, &Detector::default_inner(), text)
}

/// The native module.
#[pymodule]
fn _palisade(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(fence, m)?)?;
    m.add_function(wrap_pyfunction!(clean_query, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_class::<screener::Screener>()?;
    m.add_class::<Detector>()?;
    m.add_class::<gate::Gate>()?;
    m.add_class::<Report>()?;
    m.add_class::<Finding>()?;
    m.add_class::<Fenced>()?;
    m.add_class::<Cleaned>()?;
    m.add_function(wrap_pyfunction!(types::_finding, m)?)?;
    m.add_function(wrap_pyfunction!(types::_report, m)?)?;
    m.add_function(wrap_pyfunction!(screener::_screener, m)?)?;
    m.add_function(wrap_pyfunction!(detector::_detector, m)?)?;
    error::register(m)?;
    Ok(())
}
