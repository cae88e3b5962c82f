//! Running rules' examples and negative examples, alone and through the whole set.

use std::any::Any;

use super::compile::*;
use super::scan::*;
use super::schema::Status;
use crate::error::Error;
use crate::finding::Finding;
use crate::normalize::Normalized;

/// One problem found while checking a rule file's examples.
///
/// ```
/// let problems = palisade::Screener::builder()
///     .rules_toml("mine.toml", r#"
/// [[rule]]
/// id = "mine.refund-word"
/// kind = "promise"
/// severity = "notice"
/// description = "d"
/// rationale = "r"
/// message = "m"
/// pattern = '(?i)\brefund\b'
/// examples = ["no match here"]
/// negative_examples = ["nothing"]
/// "#)
///     .check_examples()?;
/// assert_eq!(problems[0].rule, "mine.refund-word");
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ExampleProblem {
    /// The rule file.
    pub file: String,
    /// The line where the rule starts.
    pub line: usize,
    /// The rule id.
    pub rule: String,
    /// What failed.
    pub reason: String,
}

impl std::fmt::Display for ExampleProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}:", self.file)?;
            if self.line > 0 {
                write!(f, "{}:", self.line)?;
            }
            f.write_str(" ")?;
        }
        if !self.rule.is_empty() {
            write!(f, "rule {}: ", self.rule)?;
        }
        f.write_str(&self.reason)
    }
}

impl From<Error> for ExampleProblem {
    /// A load or settings problem as a problem of its file, line and rule (empty, or line 0,
    /// when the error has none: a file that cannot be read, an unknown id in a setting).
    fn from(e: Error) -> Self {
        let problem = |file: String, line: usize, rule: String, reason: String| ExampleProblem {
            file,
            line,
            rule,
            reason,
        };
        match e {
            Error::RuleFileSyntax {
                file,
                line,
                column,
                reason,
            } => problem(
                file,
                line,
                String::new(),
                format!("column {column}: {reason}"),
            ),
            Error::InvalidRule {
                file,
                line,
                rule,
                reason,
            } => problem(file, line, rule, reason),
            Error::DuplicateRule {
                file,
                line,
                rule,
                first_file,
                first_line,
            } => problem(
                file,
                line,
                rule,
                format!("duplicate id (first defined at {first_file}:{first_line})"),
            ),
            Error::RuleFileRead { path, reason } => problem(
                path.display().to_string(),
                0,
                String::new(),
                format!("cannot read: {reason}"),
            ),
            other => problem(String::new(), 0, String::new(), other.to_string()),
        }
    }
}

/// Runs every rule's examples and negative examples, each through the rule alone and through
/// `full` (so prefilter bugs show). Returns one message per failure.
pub(crate) fn check_examples<'a>(
    rules: impl IntoIterator<Item = &'a CompiledRule>,
    ctx: Option<&dyn Any>,
    full: &dyn Fn(&str) -> Vec<Finding>,
) -> Vec<ExampleProblem> {
    let mut failures = Vec::new();
    for rule in rules {
        if rule.info.status == Status::Deprecated {
            continue;
        }
        let fail = |reason: String| ExampleProblem {
            file: rule.info.file.clone(),
            line: rule.info.line,
            rule: rule.info.id.clone(),
            reason,
        };
        for (positive, list) in [(true, &rule.examples), (false, &rule.negative_examples)] {
            for ex in list {
                let text = ex.text();
                let view = Normalized::new(text);
                let mut alone = Vec::new();
                run_rule(rule, &view, ctx, &mut alone);
                let through: Vec<Finding> = full(text)
                    .into_iter()
                    .filter(|f| f.rule() == rule.info.id)
                    .collect();
                let label = if positive {
                    "example"
                } else {
                    "negative example"
                };
                if positive {
                    if alone.is_empty() {
                        failures.push(fail(format!("{label} does not match: {text:?}")));
                    } else if through.is_empty() {
                        failures.push(fail(format!(
                            "{label} matches alone but not through the full rule set \
                             (check `keywords`): {text:?}"
                        )));
                    }
                    if let Some([s, e]) = ex.span()
                        && !alone.iter().any(|f| f.span() == (s..e))
                    {
                        let got: Vec<_> = alone.iter().map(Finding::span).collect();
                        failures.push(fail(format!(
                            "{label} span {s}..{e} not found (got {got:?}): {text:?}"
                        )));
                    }
                } else if !alone.is_empty() || !through.is_empty() {
                    failures.push(fail(format!("{label} matches: {text:?}")));
                }
            }
        }
    }
    failures
}
