//! The output side: screening a drafted reply before a person is asked to approve it.

pub(crate) mod checks;
mod context;
pub(crate) mod context_defaults {
    pub use super::context::DEFAULT_MAX_WORDS;
}
#[cfg(test)]
mod engine_tests;
mod report;

use std::sync::{Arc, LazyLock};

use crate::decode::{decode_runs_known, first_long_run};
use crate::error::Result;
use crate::finding::{Finding, Kind, Severity};
use crate::hidden_text::hidden_text_findings;
use crate::limit::InputLimit;
use crate::normalize::Normalized;
use crate::rules::{Builder, Profile, RuleInfo, RuleSet, tidy};

pub use context::{Context, IdPattern};
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
    Builder::<Screener>::default()
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
        Builder::default()
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
            Some(ctx as &dyn std::any::Any),
            &|_| true,
            Some(long_run.is_some()),
            &mut findings,
        );
        if !draft.is_ascii() {
            findings.extend(hidden_text_findings(draft).into_iter().map(|h| h.finding));
        }
        self.scan_decoded(&view, long_run, &mut findings);
        if let Some(pattern) = ctx.foreign_pattern() {
            self.scan_foreign_ids(&view, ctx, pattern, &mut findings);
        }
        findings.extend(truncated);
        Ok(Report::new(tidy(findings), draft))
    }

    /// Reports the matches of the context's foreign-id pattern that it does not allow, under
    /// the first rule of kind `foreign_id` (its severity and message; none when it is off).
    fn scan_foreign_ids(
        &self,
        view: &Normalized<'_>,
        ctx: &Context,
        pattern: &regex::Regex,
        findings: &mut Vec<Finding>,
    ) {
        let Some(rule) = self
            .inner
            .rules
            .rules()
            .iter()
            .find(|r| r.info.kind == Kind::ForeignId)
        else {
            return;
        };
        for m in pattern.find_iter(view.as_str()) {
            if !ctx.id_text_allowed(m.as_str()) {
                findings.push(Finding::new(
                    rule.info.id.clone(),
                    Kind::ForeignId,
                    rule.info.severity,
                    view.to_original(m.range()),
                    format!("{} (matches the foreign-id pattern)", rule.message),
                ));
            }
        }
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

/// Configures and builds a [`Screener`]: the embedded credential, draft and injection rules,
/// the draft checks, and any rule files added. See [`Builder`] for every setting.
///
/// ```
/// let screener: palisade::Screener = palisade::ScreenerBuilder::default().build()?;
/// # Ok::<(), palisade::Error>(())
/// ```
pub type ScreenerBuilder = Builder<Screener>;

/// The screener reports injection-shaped text in a draft in a draft's words: the rule files'
/// messages speak of a customer's text.
fn draft_message(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Injection => Some(
            "The draft contains text shaped like an instruction to a model; a reply to a \
             customer gives no instructions to an AI: remove it.",
        ),
        Kind::FenceMarker => Some(
            "The draft contains a copy of the untrusted-content fence marker; remove it from \
             the reply.",
        ),
        _ => None,
    }
}

impl Default for Builder<Screener> {
    fn default() -> Self {
        Builder::with_profile(Profile {
            builtin_files: &[
                "rules/credentials.toml",
                "rules/draft.toml",
                "rules/draft-words.toml",
                "rules/draft-phrasings.toml",
                "rules/injection.toml",
                "rules/injection-multilingual.toml",
            ],
            code_rules: &[],
            checks: checks::registry,
            keeps: |_| true,
            example_context: Some(Arc::new(Context::example())),
            message_for: draft_message,
        })
    }
}

impl Builder<Screener> {
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

    fn build_checked(self, check: bool) -> Result<Screener> {
        let rules = self.build_rule_set(check)?;
        Ok(Screener {
            inner: Arc::new(Inner {
                rules,
                limit: self.input_limit(),
            }),
        })
    }
}
