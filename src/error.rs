//! The one error type of the crate.

use std::path::PathBuf;

/// Everything that can go wrong in Palisade.
///
/// Errors happen while *building* (loading and validating rule files, checking
/// limits and labels); once a [`Screener`](crate::Screener) or
/// [`Detector`](crate::Detector) is built, scanning cannot fail except for the
/// input-size limit, which is checked before any work is done.
///
/// Every variant names where the problem is: the rule file, line and column,
/// the rule id, the byte offset or the limit. No variant ever carries the text
/// of a draft or ticket, so an error can be logged without leaking a secret.
///
/// ```
/// let err = palisade::Screener::builder()
///     .rules_toml("mine.toml", "[[rule]]\nid = 'x'\n")
///     .build()
///     .unwrap_err();
/// assert!(err.to_string().contains("mine.toml"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A rule file could not be read from disk.
    #[error("cannot read rule file {path}: {reason}")]
    RuleFileRead {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A rule file is not valid TOML or does not follow the rule schema.
    #[error("{file}:{line}:{column}: {reason}")]
    RuleFileSyntax {
        /// The file name as given.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        reason: String,
    },
    /// A rule parsed but is not valid (bad regex, unknown check, failing example, ...).
    #[error("{file}:{line}: rule {rule}: {reason}")]
    InvalidRule {
        /// The file name as given.
        file: String,
        /// 1-based line where the rule starts.
        line: usize,
        /// The rule id.
        rule: String,
        /// What is wrong.
        reason: String,
    },
    /// Two rules share one id.
    #[error(
        "{file}:{line}: rule {rule}: duplicate id (first defined at {first_file}:{first_line})"
    )]
    DuplicateRule {
        /// The file of the second definition.
        file: String,
        /// Its line.
        line: usize,
        /// The id.
        rule: String,
        /// The file of the first definition.
        first_file: String,
        /// Its line.
        first_line: usize,
    },
    /// Several problems in the rule files and settings, every one found in one run (each is
    /// one of the other variants), one per line.
    #[error("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    RuleProblems {
        /// The problems, in the order they were found.
        problems: Vec<Error>,
    },
    /// A builder setting names a rule that does not exist.
    #[error("unknown rule id {rule} in {setting}")]
    UnknownRule {
        /// The id that was given.
        rule: String,
        /// The setting that named it (`disable`, `severity`).
        setting: &'static str,
    },
    /// An input is larger than the configured limit.
    #[error("input is {size} bytes, over the limit of {limit} bytes")]
    InputTooLarge {
        /// The input size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A fence label is not acceptable.
    #[error("invalid fence label: {reason}")]
    InvalidLabel {
        /// What is wrong with it.
        reason: String,
    },
    /// A fence nonce is not acceptable.
    #[error("invalid fence nonce: {reason}")]
    InvalidNonce {
        /// What is wrong with it.
        reason: String,
    },
    /// The operating system's random source failed while making a nonce.
    #[error("operating system random source failed: {reason}")]
    Random {
        /// The reason.
        reason: String,
    },
    /// A ticket id or allowed id is not acceptable (empty, or with whitespace).
    #[error("invalid id {value:?}: {reason}")]
    InvalidId {
        /// The value (ids are not secrets).
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A builder or policy setting has a bad value (a bad foreign-id pattern, a number with no
    /// digits, a bad fence source).
    #[error("{setting}: {reason}")]
    InvalidSetting {
        /// The setting or policy key, such as `foreign_id_pattern`.
        setting: String,
        /// What is wrong with its value.
        reason: String,
    },
    /// A policy file could not be read from disk.
    #[error("cannot read policy file {path}: {reason}")]
    PolicyFileRead {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A policy file is not valid TOML, has an unknown key or a bad value.
    #[error("{file}:{line}:{column}: {reason}")]
    PolicySyntax {
        /// The file name as given.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong (an unknown key is named).
        reason: String,
    },
    /// A tool file could not be read from disk.
    #[error("cannot read tool file {path}: {reason}")]
    ToolFileRead {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A tool file is not valid: bad TOML, bad schema, bad limit, failing example.
    #[error("{file}:{line}: {key}: {reason}")]
    ToolFile {
        /// The file name as given.
        file: String,
        /// 1-based line.
        line: usize,
        /// `tool.key` (e.g. `issue_refund.hard_ceiling`).
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// The gate's ledger database failed.
    #[error("{backend} ledger: {operation}: {reason}")]
    Ledger {
        /// `sqlite` or `postgres`.
        backend: &'static str,
        /// What was being done.
        operation: &'static str,
        /// The database's reason.
        reason: String,
    },
    /// A ledger call named a proposal that is missing or in the wrong state.
    #[error("call {call_id}: {reason}")]
    Call {
        /// The call id.
        call_id: String,
        /// What is wrong (e.g. `is approved, not pending_approval`).
        reason: String,
    },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
