//! Review pages: self-contained HTML that shows a person what was found.
//!
//! Three pages, all built from findings and the text they point into:
//!
//! - [`Report::to_html`](crate::Report::to_html): one screened draft, each finding a `<mark>`,
//!   a findings list beside it, and the [`feedback`](crate::Report::feedback) for the rewrite.
//! - [`Fenced::to_html`](crate::Fenced::to_html): the original ticket text with the removed
//!   marker copies, hidden text and injection NOTICEs marked, and the fenced block below.
//! - [`BatchReport`]: totals and a filterable table for thousands of drafts or tickets, each
//!   expandable to its highlighted view.
//!
//! Every page is one file: inline CSS, no external resource, and a Content-Security-Policy that
//! forbids loading anything (the batch page allows its one script by hash). Text is
//! HTML-escaped; a credential span is replaced by its masked preview before any HTML or JSON
//! is written, so no page holds a matched secret in text, attributes or data.

mod batch;
mod draft;
mod fence_page;
mod segments;

pub use batch::BatchReport;

use std::fmt::Write as _;

use crate::finding::{Finding, Severity};
use segments::{Piece, Segment};

/// The stylesheet shared by the three pages.
const STYLE: &str = include_str!("html/style.css");

/// Appends `s` HTML-escaped: safe in text and in double-quoted attributes.
fn esc(out: &mut String, s: &str) {
    // Writing to a String cannot fail.
    let _ = askama_escape::escape_html(&mut *out, s);
}

/// The opening of a page: doctype, CSP, inline style, and the page's `<h1>`.
fn page_start(out: &mut String, title: &str, script_hash: Option<&str>) {
    let script_src = match script_hash {
        Some(h) => format!("'sha256-{h}'"),
        None => "'none'".to_owned(),
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src {script_src}; \
         base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"generator\" content=\"palisade {}\">\n<title>",
        env!("CARGO_PKG_VERSION")
    );
    esc(out, title);
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<header class=\"top\"><span class=\"brand\">palisade</span><h1>");
    esc(out, title);
    out.push_str("</h1></header>\n");
}

fn page_end(out: &mut String) {
    out.push_str("</body>\n</html>\n");
}

/// The label a reviewer reads for a severity: an icon and a word, never colour alone.
fn severity_label(s: Severity) -> &'static str {
    match s {
        Severity::Block => "\u{2716} BLOCK",
        Severity::Notice => "\u{25C6} NOTICE",
    }
}

/// The tooltip of a mark: severity, rule and message.
fn tooltip(f: &Finding) -> String {
    format!(
        "{} {}: {}",
        severity_label(f.severity()),
        f.rule(),
        f.message()
    )
}

/// Writes the text as `<pre>` with every segment's findings as nested `<mark>`s, outermost
/// first. The first mark of finding `n` gets `id="{prefix}f{n}"` for the findings list.
fn write_marked_text(out: &mut String, prefix: &str, findings: &[Finding], segs: &[Segment]) {
    let mut started = vec![false; findings.len()];
    out.push_str("<pre class=\"text\">");
    for seg in segs {
        for &n in &seg.findings {
            let f = &findings[n];
            out.push_str("<mark class=\"");
            out.push_str(f.severity().as_str());
            out.push('"');
            if !started[n] {
                started[n] = true;
                let _ = write!(
                    out,
                    " id=\"{prefix}f{n}\" data-first=\"\" data-n=\"{}\"",
                    n + 1
                );
            }
            out.push_str(" data-rule=\"");
            esc(out, f.rule());
            let _ = write!(
                out,
                "\" data-kind=\"{}\" data-severity=\"{}\" title=\"",
                f.kind(),
                f.severity()
            );
            esc(out, &tooltip(f));
            out.push_str("\">");
        }
        for piece in &seg.pieces {
            match piece {
                Piece::Text(t) => esc(out, t),
                Piece::Masked(t) => {
                    out.push_str("<span class=\"masked\">");
                    esc(out, t);
                    out.push_str("</span>");
                }
                Piece::Invisible(t) => {
                    out.push_str("<span class=\"inv\">");
                    esc(out, t);
                    out.push_str("</span>");
                }
            }
        }
        for _ in &seg.findings {
            out.push_str("</mark>");
        }
    }
    out.push_str("</pre>\n");
}

/// The list of findings, each linking to its first mark (or saying its span is not in the
/// text shown).
fn write_findings_list(out: &mut String, prefix: &str, findings: &[Finding], marked: &[bool]) {
    if findings.is_empty() {
        out.push_str("<p class=\"none\">No findings.</p>\n");
        return;
    }
    out.push_str("<ol class=\"findings\">\n");
    for (n, f) in findings.iter().enumerate() {
        let _ = write!(
            out,
            "<li class=\"{sev}\"><span class=\"sev {sev}\">{label}</span> ",
            sev = f.severity(),
            label = severity_label(f.severity())
        );
        if marked[n] {
            let _ = write!(out, "<a href=\"#{prefix}f{n}\" class=\"rule\">");
        } else {
            out.push_str("<span class=\"rule\">");
        }
        let _ = write!(out, "<sup>{}</sup> ", n + 1);
        esc(out, f.rule());
        out.push_str(if marked[n] { "</a>" } else { "</span>" });
        let _ = write!(out, " <span class=\"kind\">{}</span>", f.kind());
        out.push_str("<div class=\"msg\">");
        esc(out, f.message());
        out.push_str("</div>");
        if !marked[n] {
            out.push_str("<div class=\"note\">Its span is not in the text shown.</div>");
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
}

/// The legend under a page: what the marks mean (`removed`: the fence page's struck marks).
fn write_legend(out: &mut String, removed: bool) {
    out.push_str(
        "<footer class=\"legend\"><span><mark class=\"block\" data-first=\"\" data-n=\"n\">BLOCK</mark> \
         holds the draft back (solid underline, \u{2716})</span> \
         <span><mark class=\"notice\" data-first=\"\" data-n=\"n\">NOTICE</mark> for the reviewer \
         (dashed underline, \u{25C6})</span> \
         <span><span class=\"masked\">ab\u{2026} 40 chars</span> a credential, \
         masked</span> <span><span class=\"inv\">U+200B</span> an invisible character</span>",
    );
    if removed {
        out.push_str(
            " <span><mark class=\"notice removed\">struck</mark> removed from the fenced \
             block</span>",
        );
    }
    out.push_str("</footer>\n");
}
