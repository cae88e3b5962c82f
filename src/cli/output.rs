//! How findings are shown: JSON with `line` and `column` beside the byte span, and text lines
//! that quote what was found (a credential only by the masked preview in its message).

use std::io::{self, Write};

use clap::{Args, ValueEnum};
use palisade::{Finding, Kind, Report, Severity};
use serde::Serialize;
use serde::ser::SerializeStruct;

/// The output formats of the commands that print one result. Another format is a variant
/// here and a file that writes it.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Lines for a person: `line:column: severity rule (kind) "quote": message`.
    Text,
    /// One JSON object.
    Json,
}

#[derive(Args)]
pub(crate) struct FormatOpts {
    /// Print one JSON object (same as --format json).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<Format>,
}

impl FormatOpts {
    pub(crate) fn format(&self) -> Format {
        match (self.json, self.format) {
            (true, _) => Format::Json,
            (false, Some(f)) => f,
            (false, None) => Format::Text,
        }
    }
}

/// Line and column (1-based, columns in characters) of ascending byte offsets, found in one
/// pass over the text however many findings there are.
pub(crate) struct Positions<'t> {
    text: &'t str,
    at: usize,
    line: usize,
    line_start: usize,
}

impl<'t> Positions<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Positions {
            text,
            at: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The position of `offset`; offsets before the last one asked start over.
    pub(crate) fn of(&mut self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.at {
            *self = Positions::new(self.text);
        }
        let gap = &self.text.as_bytes()[self.at..offset];
        for i in memchr::memchr_iter(b'\n', gap) {
            self.line += 1;
            self.line_start = self.at + i + 1;
        }
        self.at = offset;
        let column = self.text[self.line_start..offset].chars().count() + 1;
        (self.line, column)
    }
}

/// A finding as printed in JSON: the library's fields with `line` and `column` of its start.
pub(crate) struct Located<'a> {
    pub(crate) finding: &'a Finding,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl Serialize for Located<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.finding;
        let mut st = s.serialize_struct("Finding", 8)?;
        st.serialize_field("rule", f.rule())?;
        st.serialize_field("kind", &f.kind())?;
        st.serialize_field("severity", &f.severity())?;
        st.serialize_field("start", &f.span().start)?;
        st.serialize_field("end", &f.span().end)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.serialize_field("message", f.message())?;
        st.end()
    }
}

/// The findings of `text` with their positions.
pub(crate) fn locate<'a>(text: &str, findings: &'a [Finding]) -> Vec<Located<'a>> {
    let mut pos = Positions::new(text);
    findings
        .iter()
        .map(|finding| {
            let (line, column) = pos.of(finding.span().start);
            Located {
                finding,
                line,
                column,
            }
        })
        .collect()
}

/// `{"blocked", "findings"}` of a screened draft.
#[derive(Serialize)]
pub(crate) struct ReportOut<'a> {
    pub(crate) blocked: bool,
    pub(crate) findings: Vec<Located<'a>>,
}

impl<'a> ReportOut<'a> {
    pub(crate) fn new(text: &str, report: &'a Report) -> Self {
        ReportOut {
            blocked: report.is_blocked(),
            findings: locate(text, report.findings()),
        }
    }
}

/// The longest quote in text output, in characters.
const MAX_QUOTE: usize = 60;

/// What a finding covers, for a person: escaped (hidden characters show), shortened; `None`
/// for a credential, whose message carries the masked preview instead, and for a length
/// finding, which covers the whole draft.
fn quote(text: &str, f: &Finding) -> Option<String> {
    if matches!(f.kind(), Kind::Credential | Kind::Length | Kind::Truncated) {
        return None;
    }
    let covered = text.get(f.span())?;
    let short: String = covered.chars().take(MAX_QUOTE).collect();
    let more = if short.len() < covered.len() {
        "…"
    } else {
        ""
    };
    Some(format!("\"{}{more}\"", short.escape_debug()))
}

/// One line per finding: `line:column: severity rule (kind) "quote": message`.
pub(crate) fn write_findings(
    out: &mut impl Write,
    text: &str,
    findings: &[Finding],
) -> io::Result<()> {
    for l in locate(text, findings) {
        let f = l.finding;
        write!(
            out,
            "{}:{}: {} {} ({})",
            l.line,
            l.column,
            f.severity(),
            f.rule(),
            f.kind()
        )?;
        if let Some(q) = quote(text, f) {
            write!(out, " {q}")?;
        }
        writeln!(out, ": {}", f.message())?;
    }
    Ok(())
}

/// A screened draft for a person: the findings, then a verdict line.
pub(crate) fn write_report(out: &mut impl Write, text: &str, report: &Report) -> io::Result<()> {
    write_findings(out, text, report.findings())?;
    let blocks = report
        .findings()
        .iter()
        .filter(|f| f.severity() == Severity::Block)
        .count();
    if report.is_blocked() {
        writeln!(
            out,
            "blocked: {blocks} blocking finding(s), {} in all",
            report.findings().len()
        )
    } else {
        writeln!(out, "ok: {} notice(s)", report.findings().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\nçé x\n\ny";
        let mut p = Positions::new(text);
        assert_eq!(p.of(0), (1, 1));
        assert_eq!(p.of(text.find('x').unwrap_or(0)), (2, 4));
        assert_eq!(p.of(text.find('y').unwrap_or(0)), (4, 1));
        assert_eq!(p.of(1), (1, 2));
    }
}
