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
    /// What the findings cover, for [`Report::feedback`], one after another in one string
    /// (a report is built per draft: one allocation, not one per finding). A view of the
    /// draft, not data: not serialised, not compared, not in `Debug`.
    #[serde(skip)]
    quoted: String,
    /// Each finding's quote in `quoted`: `None` for a credential and for anything
    /// overlapping one.
    #[serde(skip)]
    quotes: Vec<Option<(usize, usize)>>,
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

/// Whether `span` overlaps one of the credential spans `starts` (ascending starts) with
/// `reach[i]` the furthest end among the first `i + 1`: a binary search, so a draft with
/// thousands of findings costs no more than sorting them.
fn overlaps_secret(starts: &[usize], reach: &[usize], span: &std::ops::Range<usize>) -> bool {
    let before_end = starts.partition_point(|&s| s < span.end);
    before_end > 0 && reach[before_end - 1] > span.start
}

impl Report {
    /// `findings` in span order (as `tidy` leaves them) and the draft they are of.
    pub(crate) fn new(findings: Vec<Finding>, draft: &str) -> Self {
        let blocked = findings.iter().any(|f| f.severity() == Severity::Block);
        let mut starts = Vec::new();
        let mut reach: Vec<usize> = Vec::new();
        let mut secrets: Vec<_> = findings
            .iter()
            .filter(|f| f.kind() == Kind::Credential)
            .map(|f| f.span())
            .collect();
        secrets.sort_by_key(|s| s.start);
        for s in &secrets {
            starts.push(s.start);
            reach.push(reach.last().map_or(s.end, |&r| r.max(s.end)));
        }
        // Room for every quote and its ellipsis: one allocation, not one per growth.
        let mut quoted = String::with_capacity(findings.len() * (MAX_QUOTE_CHARS + 3));
        let quotes = findings
            .iter()
            .map(|f| {
                let span = f.span();
                if f.kind() == Kind::Credential || overlaps_secret(&starts, &reach, &span) {
                    return None;
                }
                let text = draft.get(span)?;
                let start = quoted.len();
                // An ASCII head is cut by bytes; only other text is walked char by char.
                let head = &text.as_bytes()[..text.len().min(MAX_QUOTE_CHARS)];
                let cut = if head.is_ascii() {
                    head.len()
                } else {
                    let mut chars = text.char_indices();
                    chars.nth(MAX_QUOTE_CHARS).map_or(text.len(), |(i, _)| i)
                };
                quoted.push_str(&text[..cut]);
                if cut < text.len() {
                    quoted.push('…');
                }
                Some((start, quoted.len()))
            })
            .collect();
        Report {
            blocked,
            findings,
            quoted,
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
            let quote = self
                .quotes
                .get(i)
                .copied()
                .flatten()
                .and_then(|(a, b)| self.quoted.get(a..b));
            match quote {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(kind: Kind, span: std::ops::Range<usize>) -> Finding {
        Finding::new("t.rule", kind, Severity::Block, span, "Fix it.")
    }

    #[test]
    fn feedback_quotes_all_but_credentials_and_what_overlaps_them() {
        let draft = "mail a@b.example key sk_live_abcdefgh1234 and 12345678";
        let at = |s: &str| draft.find(s).unwrap_or(0);
        let findings = vec![
            finding(Kind::Email, at("a@b")..at(" key")),
            finding(Kind::Credential, at("sk_")..at(" and")),
            // A long-number finding inside the credential must not quote it.
            finding(Kind::LongNumber, at("1234 and") - 4..at(" and")),
            finding(Kind::LongNumber, at("12345678")..draft.len()),
        ];
        let feedback = Report::new(findings, draft).feedback();
        assert!(feedback.contains("\"a@b.example\""), "{feedback}");
        assert!(feedback.contains("\"12345678\""), "{feedback}");
        assert!(
            !feedback.contains("abcdefgh") && !feedback.contains("1234\""),
            "{feedback}"
        );
        assert_eq!(feedback.lines().count(), 5);
    }

    /// Every one of many findings is quoted, next to credentials that are not.
    #[test]
    fn many_findings_are_each_quoted() {
        let draft = "x@y.example ".repeat(20_000);
        let findings: Vec<Finding> = (0..20_000)
            .map(|i| finding(Kind::Email, i * 12..i * 12 + 11))
            .chain((0..20_000).map(|i| finding(Kind::Credential, i * 12 + 11..i * 12 + 12)))
            .collect();
        let report = Report::new(findings, &draft);
        assert_eq!(report.feedback().matches("\"x@y.example\"").count(), 20_000);
    }
}
