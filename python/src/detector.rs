//! `Detector`: the input side (scan, fence, clean_query) with custom rules, a policy and
//! limits. The module-level `scan`, `fence` and `clean_query` use the default one.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::error::{guarded, panic_error, to_py};
use crate::types::{Cleaned, Fenced, convert};

/// What the `nonce` argument of `fence` may be.
#[derive(FromPyObject)]
pub(crate) enum Nonce {
    Random(bool),
    Hex(String),
}

/// The input side: scans untrusted text for injection-shaped and hidden text (NOTICEs only),
/// fences it and cleans search queries, with the embedded injection rules plus your own.
///
/// Build it once; every method releases the GIL while it works. Pickles as its construction
/// arguments, like ``Screener``.
///
/// Args:
///     policy: path of a ``palisade.toml``: its ``[scan]`` rule files and input limit, its
///         ``off`` entries for input-side rules, and its ``[fence]`` source.
///     rules: paths of extra injection rule files.
///     disable: rule ids (or kinds) to turn off.
///     max_input_bytes: largest text accepted, in UTF-8 bytes (default 1 MiB).
#[pyclass(frozen, module = "palisade", name = "Detector")]
pub(crate) struct Detector {
    inner: palisade::Detector,
    policy: Option<(PathBuf, palisade::Policy)>,
    rules: Vec<PathBuf>,
    disable: Vec<String>,
    max_input_bytes: Option<usize>,
}

impl Detector {
    /// The default detector (embedded rules, 1 MiB limit).
    pub(crate) fn default_inner() -> palisade::Detector {
        palisade::Detector::new()
    }
}

/// Fences `text` with `detector`; shared by `Detector.fence` and the module's `fence`.
pub(crate) fn fence_with(
    py: Python<'_>,
    detector: &palisade::Detector,
    policy: Option<&palisade::Policy>,
    text: PyBackedStr,
    label: &str,
    nonce: Option<Nonce>,
    source: Option<&str>,
) -> PyResult<Fenced> {
    let mut f = match policy {
        Some(p) => p.fence(label),
        None => palisade::Fence::new(label),
    }
    .map_err(|e| to_py(py, e))?;
    if let Some(s) = source {
        f = f.with_source(s).map_err(|e| to_py(py, e))?;
    }
    f = match nonce {
        None | Some(Nonce::Random(false)) => Ok(f),
        Some(Nonce::Random(true)) => f.with_random_nonce(),
        Some(Nonce::Hex(n)) => f.with_nonce(&n),
    }
    .map_err(|e| to_py(py, e))?;
    let out = py
        .detach(|| guarded(|| detector.fence(&f, &text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    Fenced::new(py, &text, out)
}

/// Cleans a query with `detector`.
pub(crate) fn clean_with(
    py: Python<'_>,
    detector: &palisade::Detector,
    text: PyBackedStr,
) -> PyResult<Cleaned> {
    let out = py
        .detach(|| guarded(|| detector.clean_query(&text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    Cleaned::new(py, &text, out)
}

/// Scans with `detector`.
pub(crate) fn scan_with<'py>(
    py: Python<'py>,
    detector: &palisade::Detector,
    text: PyBackedStr,
) -> PyResult<Bound<'py, PyList>> {
    let found = py
        .detach(|| guarded(|| detector.scan(&text)))
        .map_err(|m| panic_error(py, m))?
        .map_err(|e| to_py(py, e))?;
    PyList::new(py, convert(&text, &found))
}

#[pymethods]
impl Detector {
    #[new]
    #[pyo3(signature = (*, policy = None, rules = Vec::new(), disable = Vec::new(), max_input_bytes = None))]
    fn new(
        py: Python<'_>,
        policy: Option<PathBuf>,
        rules: Vec<PathBuf>,
        disable: Vec<String>,
        max_input_bytes: Option<usize>,
    ) -> PyResult<Self> {
        let policy = match policy {
            Some(path) => {
                let p = py
                    .detach(|| guarded(|| palisade::Policy::from_file(&path)))
                    .map_err(|m| panic_error(py, m))?
                    .map_err(|e| to_py(py, e))?;
                Some((path, p))
            }
            None => None,
        };
        let mut builder = match &policy {
            Some((_, p)) => p.detector_builder(),
            None => palisade::Detector::builder(),
        };
        for path in &rules {
            builder = builder.rules_file(path);
        }
        for rule in &disable {
            builder = builder.disable(rule.clone());
        }
        if let Some(n) = max_input_bytes {
            builder = builder.max_input_bytes(n);
        }
        let plain =
            policy.is_none() && rules.is_empty() && disable.is_empty() && max_input_bytes.is_none();
        let inner = if plain {
            Detector::default_inner()
        } else {
            py.detach(|| guarded(|| builder.build()))
                .map_err(|m| panic_error(py, m))?
                .map_err(|e| to_py(py, e))?
        };
        let absolute = |p: PathBuf| std::path::absolute(&p).unwrap_or(p);
        Ok(Detector {
            inner,
            policy: policy.map(|(path, p)| (absolute(path), p)),
            rules: rules.into_iter().map(absolute).collect(),
            disable,
            max_input_bytes,
        })
    }

    /// Scans untrusted text; every finding is a NOTICE. Nothing is changed.
    fn scan<'py>(&self, py: Python<'py>, text: PyBackedStr) -> PyResult<Bound<'py, PyList>> {
        scan_with(py, &self.inner, text)
    }

    /// Fences untrusted text, like the module's ``fence``; ``source`` defaults to the
    /// policy's ``[fence]`` source.
    #[pyo3(signature = (text, label, *, nonce = None, source = None))]
    fn fence(
        &self,
        py: Python<'_>,
        text: PyBackedStr,
        label: &str,
        nonce: Option<Nonce>,
        source: Option<&str>,
    ) -> PyResult<Fenced> {
        let policy = self.policy.as_ref().map(|(_, p)| p);
        fence_with(py, &self.inner, policy, text, label, nonce, source)
    }

    /// Cleans text for use as a search query, like the module's ``clean_query``.
    fn clean_query(&self, py: Python<'_>, text: PyBackedStr) -> PyResult<Cleaned> {
        clean_with(py, &self.inner, text)
    }

    fn __repr__(&self) -> String {
        format!(
            "Detector(policy={:?}, rules={}, disable={:?})",
            self.policy.as_ref().map(|(p, _)| p.display().to_string()),
            self.rules.len(),
            self.disable
        )
    }

    /// Pickles as the construction arguments; unpickling rebuilds (and re-validates) it.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let kwargs = PyDict::new(py);
        if let Some((path, _)) = &self.policy {
            kwargs.set_item("policy", path.to_string_lossy())?;
        }
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        kwargs.set_item("rules", rules)?;
        kwargs.set_item("disable", self.disable.clone())?;
        kwargs.set_item("max_input_bytes", self.max_input_bytes)?;
        let rebuild = py.import("palisade._palisade")?.getattr("_detector")?;
        Ok((rebuild, PyTuple::new(py, [kwargs])?))
    }
}

/// Rebuilds a pickled `Detector` from its construction arguments.
#[pyfunction]
pub(crate) fn _detector<'py>(
    py: Python<'py>,
    kwargs: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    py.get_type::<Detector>().call((), Some(&kwargs))
}
