//! The page for one screened draft.

use std::fmt::Write as _;

use super::{
    esc, page_end, page_start, segments, write_findings_list, write_legend, write_marked_text,
};
use crate::finding::{Finding, Severity};
use crate::screen::Report;

impl Report {
    /// A self-contained HTML page for a reviewer: `draft` with every finding as a `<mark>`
    /// (`data-rule`, `data-kind`, `data-severity`, the message as tooltip), the findings
    /// listed beside it with links to their marks, and the [`feedback`](Self::feedback) for
    /// the rewrite. `draft` must be the text that was screened; a finding whose span is not
    /// in it is listed without a mark.
    ///
    /// A credential span shows its masked preview, never the value; all text is escaped; the
    /// page loads nothing and runs no script.
    ///
    /// ```
    /// use palisade::{Context, Screener};
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let draft = "Hi [Customer Name], your key is ghp_0123456789abcdefghijABCDEFGHIJ012345";
    /// let report = Screener::new().screen(&ctx, draft)?;
    /// let page = report.to_html(draft);
    /// assert!(page.contains(r#"data-rule="draft.placeholder""#));
    /// assert!(!page.contains("0123456789abcdef"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn to_html(&self, draft: &str) -> String {
        let findings = self.findings();
        let (segs, marked) = segments::segment(draft, findings);
        let mut out = String::with_capacity(4096 + draft.len() * 2);
        page_start(&mut out, "Draft review", None);
        out.push_str("<main>\n");
        write_verdict(&mut out, self.is_blocked(), findings);
        out.push_str("<div class=\"cols\">\n<div>\n<section class=\"panel\"><h2>Draft</h2>\n");
        write_marked_text(&mut out, "", findings, &segs);
        out.push_str(
            "</section>\n<section class=\"panel feedback\"><h2>Feedback for the rewrite</h2>\n",
        );
        let feedback = self.feedback();
        if feedback.is_empty() {
            out.push_str("<p class=\"none\">Nothing to fix.</p>\n");
        } else {
            out.push_str("<pre>");
            esc(&mut out, &feedback);
            out.push_str("</pre>\n");
        }
        let _ = write!(
            out,
            "</section>\n</div>\n<aside class=\"panel\"><h2>Findings ({})</h2>\n",
            findings.len()
        );
        write_findings_list(&mut out, "", findings, &marked);
        out.push_str("</aside>\n</div>\n</main>\n");
        write_legend(&mut out, false);
        page_end(&mut out);
        out
    }
}

/// The banner: blocked or not, in words and an icon.
fn write_verdict(out: &mut String, blocked: bool, findings: &[Finding]) {
    let blocks = findings
        .iter()
        .filter(|f| f.severity() == Severity::Block)
        .count();
    let notices = findings.len() - blocks;
    if blocked {
        let _ = writeln!(
            out,
            "<p class=\"verdict blocked\" data-verdict=\"blocked\">\u{2716} Blocked: \
             {blocks} blocking finding(s), {notices} notice(s). The draft goes back for a \
             rewrite.</p>"
        );
    } else {
        let _ = writeln!(
            out,
            "<p class=\"verdict ok\" data-verdict=\"ok\">\u{2714} Not blocked: {notices} \
             notice(s) for the reviewer.</p>"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::finding::{Finding, Kind, Severity};
    use crate::screen::{Context, Screener};

    const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

    #[test]
    fn every_finding_is_marked_and_the_secret_is_nowhere() {
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let draft = format!(
            "Sure! Here's the reply:\nHi [Customer Name], <script>alert(1)</script> key {secret} \
             mail bob@example.org"
        );
        let ctx = Context::new(TICKET).unwrap();
        let report = Screener::new().screen(&ctx, &draft).unwrap();
        assert!(report.findings().len() >= 4);
        let page = report.to_html(&draft);
        for f in report.findings() {
            assert!(
                page.contains(&format!("data-rule=\"{}\"", f.rule())),
                "{f:?}"
            );
        }
        assert!(!page.contains(&secret[4..]));
        assert!(!page.contains("<script>"));
        assert!(page.contains("&#60;script&#62;alert(1)"));
        assert!(page.contains("ghp_… 40 chars"));
    }

    #[test]
    fn an_unmarkable_finding_is_still_listed() {
        let report = crate::screen::Report::new(
            vec![Finding::new(
                "x.y",
                Kind::Email,
                Severity::Block,
                5..50,
                "m",
            )],
            "short",
        );
        let page = report.to_html("short");
        assert!(page.contains("not in the text shown"));
        assert!(!page.contains("<mark class=\"block\" id="));
    }
}
