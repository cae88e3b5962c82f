//! The output side: screening a drafted reply before a person is asked to approve it.

pub(crate) mod checks;
mod context;
pub(crate) mod context_defaults {
    pub use super::context::DEFAULT_MAX_WORDS;
}
mod report;

use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::decode::{decode_runs_known, first_long_run};
use crate::error::{Error, Result};
use crate::finding::{Finding, Kind, Severity};
use crate::hidden_text::hidden_text_findings;
use crate::limit::{DEFAULT_MAX_INPUT_BYTES, InputLimit};
use crate::normalize::Normalized;
use crate::rules::{
    CompiledRule, PatternLimits, RuleInfo, RuleSet, builtin_rules, check_examples, load_file,
};

pub use context::Context;
pub use report::Report;

/// The compiled draft screener: build once, screen many drafts, from any thread.
///
/// ```
/// use palisade::{Context, Screener};
/// let screener = Screener::new();
/// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
/// let report = screener.screen(&ctx, "Hi Sam, your refund is on its way. Best, Ana")?;
/// assert!(!report.is_blocked());
///
/// let report = screener.screen(&ctx, "Hi [Customer Name], write to bob@example.org.")?;
/// assert!(report.is_blocked());
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Clone)]
pub struct Screener {
    inner: Arc<Inner>,
}

struct Inner {
    rules: RuleSet,
    limit: InputLimit,
}

impl std::fmt::Debug for Screener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screener")
            .field("rules", &self.inner.rules.rules().len())
            .field("max_input_bytes", &self.inner.limit.max_bytes)
            .finish()
    }
}

static DEFAULT_SCREENER: LazyLock<Screener> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    ScreenerBuilder::default()
        .build_checked(false)
        // The embedded rules are compiled and their examples run by the test suite, so this
        // cannot fail in a released build.
        .expect("embedded default rules compile")
});

impl Default for Screener {
    fn default() -> Self {
        Screener::new()
    }
}

impl Screener {
    /// The screener with the embedded default rules. Built once per process, then cloned
    /// (a clone is one atomic increment).
    ///
    /// ```
    /// let screener = palisade::Screener::new();
    /// assert!(screener.rules().count() > 50);
    /// ```
    pub fn new() -> Self {
        DEFAULT_SCREENER.clone()
    }

    /// A builder for custom rule files, severity overrides, disabled rules and limits.
    ///
    /// ```
    /// use palisade::{Screener, Severity};
    /// let screener = Screener::builder()
    ///     .severity("draft.promise", Severity::Notice)
    ///     .disable("draft.length")
    ///     .build()?;
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn builder() -> ScreenerBuilder {
        ScreenerBuilder::default()
    }

    /// Screens one draft. Findings come back in span order.
    ///
    /// Fails only when the draft is over the input limit (see
    /// [`ScreenerBuilder::max_input_bytes`]).
    ///
    /// ```
    /// # use palisade::{Context, Screener, Kind};
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let report = Screener::new().screen(&ctx, "Call us on +1 (415) 555-0132.")?;
    /// assert_eq!(report.findings()[0].kind(), Kind::LongNumber);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn screen(&self, ctx: &Context, draft: &str) -> Result<Report> {
        let (draft, truncated) = self.inner.limit.apply(draft, Severity::Block)?;
        let view = Normalized::new(draft);
        // Rules made of long token runs and the decoding of encoded runs both need it; support
        // prose has none.
        let long_run = first_long_run(view.as_str().as_bytes());
        let mut findings = Vec::new();
        self.inner.rules.scan_knowing(
            &view,
            Some(ctx),
            &|_| true,
            Some(long_run.is_some()),
            &mut findings,
        );
        if !draft.is_ascii() {
            findings.extend(hidden_text_findings(draft).into_iter().map(|h| h.finding));
        }
        self.scan_decoded(&view, long_run, &mut findings);
        findings.extend(truncated);
        Ok(Report::new(tidy(findings)))
    }

    /// Runs the credential rules over base64, hex and percent-encoded runs (bounded; see
    /// [`decode_runs`](crate::decode_runs)). A finding covers the whole encoded run.
    fn scan_decoded(
        &self,
        view: &Normalized<'_>,
        long_run: Option<usize>,
        findings: &mut Vec<Finding>,
    ) {
        for run in decode_runs_known(view.as_str(), long_run) {
            let inner = Normalized::new(run.decoded());
            let mut found = Vec::new();
            self.inner.rules.scan(
                &inner,
                None,
                &|r| r.info.kind == Kind::Credential,
                &mut found,
            );
            let span = view.to_original(run.span());
            for f in found {
                findings.push(Finding::new(
                    f.rule(),
                    f.kind(),
                    f.severity(),
                    span.clone(),
                    format!(
                        "{} (inside {}-encoded text)",
                        f.message(),
                        run.encoding().as_str()
                    ),
                ));
            }
        }
    }

    /// Every loaded rule (deprecated ones included, marked by status).
    ///
    /// ```
    /// let ids: Vec<String> = palisade::Screener::new().rules().map(|r| r.id.clone()).collect();
    /// assert!(ids.iter().any(|id| id.starts_with("credential.")));
    /// ```
    pub fn rules(&self) -> impl Iterator<Item = &RuleInfo> {
        self.inner.rules.rules().iter().map(|r| &r.info)
    }
}

/// Sorts by span and drops credential findings covered by a longer credential finding (a
/// generic `password=` rule and a specific token rule on the same value say one thing).
pub(crate) fn tidy(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.span().start, std::cmp::Reverse(a.span().end), a.rule()).cmp(&(
            b.span().start,
            std::cmp::Reverse(b.span().end),
            b.rule(),
        ))
    });
    let mut out: Vec<Finding> = Vec::with_capacity(findings.len());
    let mut cover_end = 0usize;
    let mut cover_start = usize::MAX;
    for f in findings {
        if f.kind() == Kind::Credential {
            let s = f.span();
            if cover_start != usize::MAX && s.start >= cover_start && s.end <= cover_end {
                continue;
            }
            cover_start = s.start;
            cover_end = s.end;
        }
        out.push(f);
    }
    out
}

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
        write!(
            f,
            "{}:{}: rule {}: {}",
            self.file, self.line, self.rule, self.reason
        )
    }
}

enum Source {
    Path(std::path::PathBuf),
    Text(String, String),
}

/// Configures and builds a [`Screener`]. All validation happens in [`build`](Self::build).
///
/// ```
/// let screener = palisade::Screener::builder().max_input_bytes(64 * 1024).build()?;
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Default)]
pub struct ScreenerBuilder {
    without_defaults: bool,
    sources: Vec<Source>,
    severities: Vec<(String, Severity)>,
    disabled: Vec<String>,
    max_input_bytes: Option<usize>,
    truncate: bool,
    limits: PatternLimits,
}

impl std::fmt::Debug for ScreenerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScreenerBuilder")
            .field("without_defaults", &self.without_defaults)
            .field("sources", &self.sources.len())
            .field("disabled", &self.disabled)
            .finish()
    }
}

impl ScreenerBuilder {
    /// Adds a rule file from disk (read in [`build`](Self::build)). A path that ends like an
    /// embedded file (`rules/credentials.toml`) replaces that embedded file, so an edited copy
    /// of a default file can be checked and used.
    ///
    /// ```
    /// let err = palisade::Screener::builder().rules_file("no/such/file.toml").build();
    /// assert!(err.is_err());
    /// ```
    pub fn rules_file(mut self, path: impl AsRef<Path>) -> Self {
        self.sources.push(Source::Path(path.as_ref().to_owned()));
        self
    }

    /// Adds a rule file from a string; `name` is used in error messages.
    ///
    /// ```
    /// let b = palisade::Screener::builder().rules_toml("inline.toml", "");
    /// assert!(b.build().is_ok());
    /// ```
    pub fn rules_toml(mut self, name: impl Into<String>, source: impl Into<String>) -> Self {
        self.sources.push(Source::Text(name.into(), source.into()));
        self
    }

    /// Leaves out the embedded default rules (only the added files are used).
    ///
    /// ```
    /// let s = palisade::Screener::builder().without_defaults().build()?;
    /// assert_eq!(s.rules().count(), 0);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn without_defaults(mut self) -> Self {
        self.without_defaults = true;
        self
    }

    /// Overrides a rule's severity. An unknown id is an error in `build`.
    ///
    /// ```
    /// # use palisade::Severity;
    /// assert!(palisade::Screener::builder().severity("no.such-rule", Severity::Notice).build().is_err());
    /// ```
    pub fn severity(mut self, rule: impl Into<String>, severity: Severity) -> Self {
        self.severities.push((rule.into(), severity));
        self
    }

    /// Turns a rule off. An unknown id is an error in `build`.
    ///
    /// ```
    /// let s = palisade::Screener::builder().disable("draft.length").build()?;
    /// assert!(!s.rules().any(|r| r.id == "draft.length"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn disable(mut self, rule: impl Into<String>) -> Self {
        self.disabled.push(rule.into());
        self
    }

    /// The largest draft accepted, in bytes (default [`DEFAULT_MAX_INPUT_BYTES`]).
    ///
    /// ```
    /// # use palisade::{Context, Screener};
    /// let s = Screener::builder().max_input_bytes(4).build()?;
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// assert!(s.screen(&ctx, "hello").is_err());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn max_input_bytes(mut self, limit: usize) -> Self {
        self.max_input_bytes = Some(limit);
        self
    }

    /// Screens only the first `max_input_bytes` of an oversized draft instead of failing; the
    /// unscreened rest is reported as a BLOCK finding of kind [`Kind::Truncated`] (nobody
    /// should approve text that was not screened).
    ///
    /// ```
    /// # use palisade::{Context, Kind, Screener};
    /// let s = Screener::builder().max_input_bytes(5).truncate_over_limit().build()?;
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let report = s.screen(&ctx, "hello world")?;
    /// assert_eq!(report.findings()[0].kind(), Kind::Truncated);
    /// assert_eq!(report.findings()[0].span(), 5..11);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn truncate_over_limit(mut self) -> Self {
        self.truncate = true;
        self
    }

    pub(crate) fn input_limit(&self) -> InputLimit {
        InputLimit {
            max_bytes: self.max_input_bytes.unwrap_or(DEFAULT_MAX_INPUT_BYTES),
            truncate: self.truncate,
        }
    }

    fn load(&self) -> Result<(Vec<CompiledRule>, usize)> {
        let mut all = if self.without_defaults {
            Vec::new()
        } else {
            builtin_rules(&self.limits)?
        };
        // A file whose path ends like an embedded one (`rules/draft.toml`) is an edited copy of
        // it: it replaces the embedded file instead of clashing with every id in it.
        for source in &self.sources {
            if let Source::Path(path) = source {
                let path = path.to_string_lossy().replace('\\', "/");
                all.retain(|r| {
                    !(path == r.info.file || path.ends_with(&format!("/{}", r.info.file)))
                });
            }
        }
        let builtin_count = all.len();
        for source in &self.sources {
            match source {
                Source::Path(path) => {
                    let text = std::fs::read_to_string(path).map_err(|e| Error::RuleFileRead {
                        path: path.clone(),
                        reason: e.to_string(),
                    })?;
                    all.extend(load_file(&path.display().to_string(), &text, &self.limits)?);
                }
                Source::Text(name, text) => all.extend(load_file(name, text, &self.limits)?),
            }
        }
        Ok((all, builtin_count))
    }

    fn assemble(&self, mut all: Vec<CompiledRule>) -> Result<RuleSet> {
        for id in &self.disabled {
            let before = all.len();
            all.retain(|r| &r.info.id != id);
            if all.len() == before {
                return Err(Error::UnknownRule {
                    rule: id.clone(),
                    setting: "disable",
                });
            }
        }
        for (id, severity) in &self.severities {
            let rule =
                all.iter_mut()
                    .find(|r| &r.info.id == id)
                    .ok_or_else(|| Error::UnknownRule {
                        rule: id.clone(),
                        setting: "severity",
                    })?;
            rule.info.severity = *severity;
        }
        RuleSet::new(all)
    }

    /// Builds the rule set, keeping the rules `keep` accepts; with `check`, the added files'
    /// examples must pass first (the embedded ones are run by the test suite).
    pub(crate) fn build_rule_set(
        &self,
        check: bool,
        keep: &dyn Fn(&CompiledRule) -> bool,
    ) -> Result<RuleSet> {
        if check
            && !self.sources.is_empty()
            && let Some(p) = self.problems(false)?.into_iter().next()
        {
            return Err(Error::InvalidRule {
                file: p.file,
                line: p.line,
                rule: p.rule,
                reason: p.reason,
            });
        }
        let (mut all, _) = self.load()?;
        all.retain(|r| keep(r));
        self.assemble(all)
    }

    fn build_checked(self, check: bool) -> Result<Screener> {
        let rules = self.build_rule_set(check, &|_| true)?;
        Ok(Screener {
            inner: Arc::new(Inner {
                rules,
                limit: self.input_limit(),
            }),
        })
    }

    /// Validates everything and compiles. Errors name the file, line and rule id: duplicate
    /// ids, bad or oversized patterns, unknown kinds, checks or fields, and any example of an
    /// added rule file that does not match (or negative example that does).
    ///
    /// ```
    /// let err = palisade::Screener::builder()
    ///     .rules_toml("bad.toml", "[[rule]]\nid = \"x.y\"\nkind = \"email\"\nseverity = \"block\"\n\
    ///         description = \"d\"\nrationale = \"r\"\nmessage = \"m\"\npattern = \"(\"\n\
    ///         examples = [\"a\"]\nnegative_examples = [\"b\"]\n")
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.to_string().starts_with("bad.toml:1: rule x.y: bad pattern"));
    /// ```
    pub fn build(self) -> Result<Screener> {
        self.build_checked(true)
    }

    /// Runs examples: of the added files only, or of every rule when `all` is set.
    fn problems(&self, all_rules: bool) -> Result<Vec<ExampleProblem>> {
        let (all, builtin_count) = self.load()?;
        let added: Vec<String> = all[builtin_count..]
            .iter()
            .map(|r| r.info.id.clone())
            .collect();
        let set = self.assemble(all)?;
        let ctx = Context::example();
        let full = |text: &str| {
            let view = Normalized::new(text);
            let mut out = Vec::new();
            set.scan(&view, Some(&ctx), &|_| true, &mut out);
            out
        };
        let to_check = set
            .rules()
            .iter()
            .filter(|r| all_rules || added.contains(&r.info.id));
        Ok(check_examples(to_check, &full)
            .into_iter()
            .map(|(file, line, rule, reason)| ExampleProblem {
                file,
                line,
                rule,
                reason,
            })
            .collect())
    }

    /// Loads and compiles like [`build`](Self::build), then runs the examples of every added
    /// rule file (and of the embedded rules when no file was added), returning every problem
    /// instead of the first. Structural errors (bad TOML, bad regex) still return `Err`.
    ///
    /// ```
    /// let problems = palisade::Screener::builder().check_examples()?;
    /// assert!(problems.is_empty(), "{problems:?}");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn check_examples(self) -> Result<Vec<ExampleProblem>> {
        self.problems(self.sources.is_empty())
    }
}
