//! Palisade's errors as Python exceptions, with the Rust error's context as attributes.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _palisade,
    PalisadeError,
    PyValueError,
    "Base class of every Palisade error (a ValueError).\n\n\
     Attributes (None when the error has no such context): file, line, column, rule, \
     setting, size, limit, path, index (the item of a screen_many batch)."
);
pyo3::create_exception!(
    _palisade,
    RuleFileError,
    PalisadeError,
    "A rule file or policy could not be read, parsed or validated; `file`, `line`, `column` \
     and `rule` say where."
);
pyo3::create_exception!(
    _palisade,
    PolicyError,
    PalisadeError,
    "A policy file (palisade.toml) could not be read or has an unknown key or a bad value; \
     `file`, `line`, `column` (or `path`) say where."
);
pyo3::create_exception!(
    _palisade,
    InvalidSettingError,
    PalisadeError,
    "A setting has a bad value (a fence source, an allowed number with no digits, a \
     foreign-id pattern); `setting` names it."
);
pyo3::create_exception!(
    _palisade,
    UnknownRuleError,
    PalisadeError,
    "A setting (`severities`, a disable list) names a rule id that is not loaded; `rule` and \
     `setting` say which."
);
pyo3::create_exception!(
    _palisade,
    InputTooLargeError,
    PalisadeError,
    "A text is over the input limit; `size` and `limit` are in UTF-8 bytes."
);
pyo3::create_exception!(
    _palisade,
    FenceError,
    PalisadeError,
    "A fence label or nonce is not acceptable."
);
pyo3::create_exception!(
    _palisade,
    InvalidIdError,
    PalisadeError,
    "A ticket id or allowed id is not acceptable (empty, or holds whitespace)."
);

/// The context fields every exception instance carries (None when absent).
const FIELDS: [&str; 9] = [
    "file", "line", "column", "rule", "setting", "size", "limit", "path", "index",
];

/// One piece of context: an attribute name and its value.
pub(crate) enum Ctx {
    Str(&'static str, String),
    Int(&'static str, usize),
}

/// Builds an exception of class `E` with `message` and the context as attributes.
pub(crate) fn raise<E: pyo3::PyTypeInfo>(py: Python<'_>, message: String, ctx: &[Ctx]) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of memory
    // exhaustion; the error is still raised, with less context, if it does.
    for name in FIELDS {
        let _ = value.setattr(name, py.None());
    }
    for c in ctx {
        let _ = match c {
            Ctx::Str(name, v) => value.setattr(*name, v),
            Ctx::Int(name, v) => value.setattr(*name, *v),
        };
    }
    err
}

/// The Python exception for a Palisade error.
pub(crate) fn to_py(py: Python<'_>, e: palisade::Error) -> PyErr {
    use palisade::Error as E;
    let message = e.to_string();
    match e {
        E::RuleFileRead { path, .. } => raise::<RuleFileError>(
            py,
            message,
            &[
                Ctx::Str("path", path.display().to_string()),
                Ctx::Str("file", path.display().to_string()),
            ],
        ),
        E::RuleFileSyntax {
            file, line, column, ..
        } => raise::<RuleFileError>(
            py,
            message,
            &[
                Ctx::Str("file", file),
                Ctx::Int("line", line),
                Ctx::Int("column", column),
            ],
        ),
        E::InvalidRule {
            file, line, rule, ..
        }
        | E::DuplicateRule {
            file, line, rule, ..
        } => raise::<RuleFileError>(
            py,
            message,
            &[
                Ctx::Str("file", file),
                Ctx::Int("line", line),
                Ctx::Str("rule", rule),
            ],
        ),
        E::UnknownRule { rule, setting } => raise::<UnknownRuleError>(
            py,
            message,
            &[
                Ctx::Str("rule", rule),
                Ctx::Str("setting", setting.to_owned()),
            ],
        ),
        E::InputTooLarge { size, limit } => raise::<InputTooLargeError>(
            py,
            message,
            &[Ctx::Int("size", size), Ctx::Int("limit", limit)],
        ),
        E::InvalidLabel { .. } | E::InvalidNonce { .. } => raise::<FenceError>(py, message, &[]),
        E::InvalidId { .. } => raise::<InvalidIdError>(py, message, &[]),
        E::InvalidSetting { setting, .. } => {
            raise::<InvalidSettingError>(py, message, &[Ctx::Str("setting", setting)])
        }
        E::PolicyFileRead { path, .. } => raise::<PolicyError>(
            py,
            message,
            &[
                Ctx::Str("path", path.display().to_string()),
                Ctx::Str("file", path.display().to_string()),
            ],
        ),
        E::PolicySyntax {
            file, line, column, ..
        } => raise::<PolicyError>(
            py,
            message,
            &[
                Ctx::Str("file", file),
                Ctx::Int("line", line),
                Ctx::Int("column", column),
            ],
        ),
        _ => raise::<PalisadeError>(py, message, &[]),
    }
}

/// Adds `index` (the batch item) to an exception and prefixes its message.
pub(crate) fn at_index(py: Python<'_>, err: PyErr, index: usize) -> PyErr {
    let value = err.value(py);
    let _ = value.setattr("index", index);
    if let Ok(args) = value.getattr("args")
        && let Ok((msg,)) = args.extract::<(String,)>()
    {
        let _ = value.setattr("args", (format!("item {index}: {msg}"),));
    }
    err
}

/// Runs library code so that a Rust panic becomes a `PalisadeError`, never a
/// `PanicException` (a BaseException that `except Exception` would not catch).
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        format!("internal error in palisade (please report): {what}")
    })
}

/// The exception for a caught panic.
pub(crate) fn panic_error(py: Python<'_>, message: String) -> PyErr {
    raise::<PalisadeError>(py, message, &[])
}

/// Registers the exception classes on the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PalisadeError", py.get_type::<PalisadeError>())?;
    m.add("RuleFileError", py.get_type::<RuleFileError>())?;
    m.add("UnknownRuleError", py.get_type::<UnknownRuleError>())?;
    m.add("PolicyError", py.get_type::<PolicyError>())?;
    m.add("InvalidSettingError", py.get_type::<InvalidSettingError>())?;
    m.add("InputTooLargeError", py.get_type::<InputTooLargeError>())?;
    m.add("FenceError", py.get_type::<FenceError>())?;
    m.add("InvalidIdError", py.get_type::<InvalidIdError>())?;
    // Class-level defaults, so `err.file` is None on an exception raised from Python code.
    let base = py.get_type::<PalisadeError>();
    for name in FIELDS {
        base.setattr(name, py.None())?;
    }
    Ok(())
}
