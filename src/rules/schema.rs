//! The rule-file format, as serde types. See `rules/README.md` for the prose version.

use serde::Deserialize;

use crate::finding::{Kind, Severity};

/// One rule file: a list of `[[rule]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleFileSpec {
    #[serde(default)]
    pub(crate) rule: Vec<toml::Spanned<RuleSpec>>,
}

/// One `[[rule]]` table as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleSpec {
    pub(crate) id: String,
    pub(crate) kind: Kind,
    /// Replaces an earlier rule (an embedded one) of the same id instead of clashing with it.
    #[serde(default)]
    pub(crate) replaces: bool,
    pub(crate) severity: Severity,
    #[serde(default)]
    pub(crate) status: Status,
    pub(crate) description: String,
    pub(crate) rationale: String,
    pub(crate) message: String,
    #[serde(default)]
    pub(crate) keywords: Vec<String>,
    pub(crate) pattern: Option<String>,
    pub(crate) check: Option<String>,
    pub(crate) min_entropy: Option<f64>,
    pub(crate) validate: Option<ValidatorName>,
    #[serde(default)]
    pub(crate) examples: Vec<ExampleSpec>,
    #[serde(default)]
    pub(crate) negative_examples: Vec<ExampleSpec>,
}

/// A rule's life-cycle state. Retired rules keep their id (ids are never reused).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Runs by default.
    #[default]
    Stable,
    /// Runs by default; its precision is still being measured.
    Preview,
    /// Kept for its id; does not run.
    Deprecated,
}

/// Post-match validation a rule can name with `validate = "..."`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ValidatorName {
    /// GitHub token: the last 6 characters are the base62 CRC32 of the rest.
    GithubChecksum,
    /// npm token: same scheme as GitHub.
    NpmChecksum,
    /// JSON Web Token: the header decodes as a JSON object with `alg`.
    Jwt,
    /// Digits pass the Luhn check.
    Luhn,
}

/// An example: plain text, or a table with the text and its exact expected span.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum ExampleSpec {
    Text(String),
    Table {
        text: String,
        span: Option<[usize; 2]>,
    },
}

impl ExampleSpec {
    pub(crate) fn text(&self) -> &str {
        match self {
            ExampleSpec::Text(t) => t,
            ExampleSpec::Table { text, .. } => text,
        }
    }

    pub(crate) fn span(&self) -> Option<[usize; 2]> {
        match self {
            ExampleSpec::Text(_) => None,
            ExampleSpec::Table { span, .. } => *span,
        }
    }
}
