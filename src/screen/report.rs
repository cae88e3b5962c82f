//! The result of screening one draft.

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Kind, Severity};

/// Findings for one draft, in span order, and whether the draft is held back.
///
/// ```
/// use palisade::{Context, Screener};
/// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
/// let report = Screener::new().screen(&ctx, "Sure! Here's the response:\nHi Sam, all sorted.")?;
/// assert!(report.is_blocked());
/// let json = serde_json::to_value(&report).unwrap();
/// assert_eq!(json["blocked"], true);
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct Report {
    blocked: bool,
    findings: Vec<Finding>,
    /// What each finding covers, for [`Report::feedback`]: `None` for credentials and for
    /// anything overlapping one. A view of the draft, not data: not serialised, not compared,
    /// not in `Debug`.
    #[serde(skip)]
    quotes: Vec<Option<String>>,
}

impl PartialEq for Report {
    fn eq(&self, other: &Self) -> bool {
        self.blocked == other.blocked && self.findings == other.findings
    }
}

impl Eq for Report {}

impl std::fmt::Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Report")
            .field("blocked", &self.blocked)
            .field("findings", &self.findings)
            .finish()
    }
}

/// The longest quote [`Report::feedback`] gives, in characters.
const MAX_QUOTE_CHARS: usize = 60;

/// The text a finding covers, shortened, unless it is or overlaps a credential.
fn quote(findings: &[Finding], f: &Finding, draft: &str) -> Option<String> {
    let span = f.span();
    let secret = |g: &Finding| {
        g.kind() == Kind::Credential && g.span().start < span.end && span.start < g.span().end
    };
    if f.kind() == Kind::Credential || findings.iter().any(secret) {
        return None;
    }
    let text = draft.get(span)?;
    let mut out: String = text.chars().take(MAX_QUOTE_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    Some(out)
}

impl Report {
    pub(crate) fn new(findings: Vec<Finding>, draft: &str) -> Self {
        let blocked = findings.iter().any(|f| f.severity() == Severity::Block);
        let quotes = findings
            .iter()
            .map(|f| quote(&findings, f, draft))
            .collect();
        Report {
            blocked,
            findings,
            quotes,
        }
    }

    /// Whether any finding is [`Severity::Block`]: the draft goes back for a rewrite before
    /// anyone is asked to approve it.
    ///
    /// ```
    /// # use palisade::{Context, Screener};
    /// # let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// assert!(!Screener::new().screen(&ctx, "Thanks, Sam!")?.is_blocked());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn is_blocked(&self) -> bool {
        self.blocked
    }

    /// The findings, in span order.
    ///
    /// ```
    /// # use palisade::{Context, Screener};
    /// # let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// assert!(Screener::new().screen(&ctx, "Thanks, Sam!")?.findings().is_empty());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The problems as one instruction to hand back to the model for a rewrite: one line per
    /// finding (two addresses are two problems), each quoting the text it is about. Never
    /// echoes a secret: a credential, or anything overlapping one, is named by its rule
    /// message only. Empty when there is nothing to fix. A report read back from JSON has no
    /// quotes.
    ///
    /// ```
    /// # use palisade::{Context, Screener};
    /// # let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let report = Screener::new().screen(&ctx, "Hi [Customer Name], mail a@example.org or b@example.org")?;
    /// let feedback = report.feedback();
    /// assert!(feedback.contains("\"[Customer Name]\""));
    /// assert!(feedback.contains("\"a@example.org\"") && feedback.contains("\"b@example.org\""));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn feedback(&self) -> String {
        if self.findings.is_empty() {
            return String::new();
        }
        let mut out =
            String::from("Rewrite the reply to fix these problems, and change nothing else:\n");
        for (i, f) in self.findings.iter().enumerate() {
            let severity = match f.severity() {
                Severity::Block => "must fix",
                Severity::Notice => "consider",
            };
            let message = strip_preview(f);
            match self.quotes.get(i).and_then(Option::as_deref) {
                // `escape_debug` shows hidden and control characters instead of hiding them.
                Some(q) if f.kind() != Kind::Length => out.push_str(&format!(
                    "- ({severity}) \"{}\": {message}\n",
                    q.escape_debug()
                )),
                _ => out.push_str(&format!("- ({severity}) {message}\n")),
            }
        }
        out
    }

    /// A copy of `draft` safe to log: credentials, foreign ids, email addresses and long
    /// numbers are replaced by `[REDACTED:<kind>]`. `draft` must be the text that was screened.
    ///
    /// ```
    /// # use palisade::{Context, Screener};
    /// # let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let draft = "Write to bob@example.org.";
    /// let report = Screener::new().screen(&ctx, draft)?;
    /// assert_eq!(report.redact(draft), "Write to [REDACTED:email].");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn redact(&self, draft: &str) -> String {
        let mut out = String::with_capacity(draft.len());
        let mut at = 0;
        for f in &self.findings {
            if !f.kind().is_sensitive() {
                continue;
            }
            let span = f.span();
            if span.start < at
                || span.end > draft.len()
                || !draft.is_char_boundary(span.start)
                || !draft.is_char_boundary(span.end)
            {
                // Overlaps the previous masked span (already covered) or is not from this draft.
                if span.end > at && span.end <= draft.len() && draft.is_char_boundary(span.end) {
                    at = span.end;
                }
                continue;
            }
            out.push_str(&draft[at..span.start]);
            out.push_str("[REDACTED:");
            out.push_str(f.kind().as_str());
            out.push(']');
            at = span.end;
        }
        out.push_str(draft.get(at..).unwrap_or_default());
        out
    }

    /// Kinds present, each once, in order of first appearance.
    ///
    /// ```
    /// # use palisade::{Context, Kind, Screener};
    /// # let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let r = Screener::new().screen(&ctx, "Mail bob@example.org")?;
    /// assert_eq!(r.kinds(), vec![Kind::Email]);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn kinds(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        for f in &self.findings {
            if !kinds.contains(&f.kind()) {
                kinds.push(f.kind());
            }
        }
        kinds
    }
}

/// The rule message without the masked preview, so feedback quotes nothing of a value.
fn strip_preview(f: &Finding) -> &str {
    let m = f.message();
    if f.kind() == Kind::Credential
        && let Some(i) = m.rfind(" [")
    {
        return &m[..i];
    }
    m
}
