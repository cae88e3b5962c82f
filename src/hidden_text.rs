//! Hidden text: invisible characters, control characters and line breaks other than `\n`.
//!
//! [`hidden_text_findings`] reports the invisible characters of a text (what
//! [`Detector::scan`](crate::Detector::scan) records); the fence's cleaning pass feeds the same
//! [`Grouper`] as it removes them, and reports the controls and line breaks it removes or
//! rewrites through [`control_finding`] and [`line_break_finding`].

use std::ops::Range;

use crate::finding::{Finding, Kind, Severity};
use crate::normalize::{Invisible, invisible};

/// Invisible characters found in a text: one run, or several of the same class inside one word
/// (`i\u{200B}g\u{200B}n\u{200B}o\u{200B}r\u{200B}e` is one finding, not five).
pub(crate) struct Hidden {
    /// Spans the runs, with the visible characters between them.
    pub(crate) finding: Finding,
}

const TAG_PREVIEW_CHARS: usize = 40;

fn characters(count: usize) -> &'static str {
    if count == 1 {
        "character"
    } else {
        "characters"
    }
}

/// Which finding a group of invisible characters makes, by the strongest kind in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HiddenClass {
    Tag,
    Bidi,
    VariationSelectors,
    ZeroWidth,
    Format,
}

impl HiddenClass {
    fn rule(self) -> &'static str {
        match self {
            HiddenClass::Tag => "hidden.tag-characters",
            HiddenClass::Bidi => "hidden.bidi-control",
            HiddenClass::VariationSelectors => "hidden.variation-selectors",
            HiddenClass::ZeroWidth => "hidden.zero-width",
            HiddenClass::Format => "hidden.invisible-format",
        }
    }

    fn of(kinds: &[Invisible]) -> Self {
        if kinds.contains(&Invisible::Tag) {
            HiddenClass::Tag
        } else if kinds.contains(&Invisible::Bidi) {
            HiddenClass::Bidi
        } else if kinds.contains(&Invisible::VariationSelector) {
            HiddenClass::VariationSelectors
        } else if kinds.contains(&Invisible::ZeroWidth) {
            HiddenClass::ZeroWidth
        } else {
            HiddenClass::Format
        }
    }
}

/// Invisible characters of one class, not yet a finding.
struct HiddenGroup {
    class: HiddenClass,
    /// From the first run's start to the last run's end.
    span: Range<usize>,
    count: usize,
    /// The first [`TAG_PREVIEW_CHARS`] TAG characters as the ASCII they spell, and how many
    /// there are.
    tag_text: String,
    tag_chars: usize,
}

impl HiddenGroup {
    fn into_hidden(self) -> Hidden {
        let count = self.count;
        let (rule, message) = match self.class {
            HiddenClass::Tag => {
                let more = if self.tag_chars > TAG_PREVIEW_CHARS {
                    "…"
                } else {
                    ""
                };
                (
                    "hidden.tag-characters",
                    format!(
                        "{count} invisible Unicode TAG {} spelling {:?}{more}: hidden \
                         instructions a model can read and a person cannot; treat as data.",
                        characters(count),
                        self.tag_text
                    ),
                )
            }
            HiddenClass::Bidi => (
                "hidden.bidi-control",
                format!(
                    "{count} bidirectional control {} that change how the text \
                     displays; treat as data.",
                    characters(count)
                ),
            ),
            HiddenClass::VariationSelectors => (
                "hidden.variation-selectors",
                format!(
                    "{count} variation {} that can carry hidden bytes.",
                    if count == 1 { "selector" } else { "selectors" }
                ),
            ),
            HiddenClass::ZeroWidth => (
                "hidden.zero-width",
                format!(
                    "{count} zero-width {} that can split words to evade filters.",
                    characters(count)
                ),
            ),
            HiddenClass::Format => (
                "hidden.invisible-format",
                format!("{count} invisible format {}.", characters(count)),
            ),
        };
        let span = self.span;
        Hidden {
            finding: Finding::new(rule, Kind::HiddenText, Severity::Notice, span, message),
        }
    }
}

/// How many findings of one rule one text gets; the rest become one summary finding, so a
/// text made of thousands of removals costs no more to report than to clean.
pub(crate) const MAX_FINDINGS_PER_RULE: usize = 64;

/// Counts the findings of one rule and holds back those past [`MAX_FINDINGS_PER_RULE`].
#[derive(Debug, Default)]
pub(crate) struct Cap {
    seen: usize,
    more: usize,
    span: Option<Range<usize>>,
}

impl Cap {
    /// Whether the next finding (at `span`, for `n` removals) is reported on its own; if not,
    /// it is counted into the summary.
    pub(crate) fn admit(&mut self, span: Range<usize>, n: usize) -> bool {
        self.seen += 1;
        if self.seen <= MAX_FINDINGS_PER_RULE {
            return true;
        }
        self.more += n;
        self.span = Some(match self.span.take() {
            Some(s) => s.start.min(span.start)..s.end.max(span.end),
            None => span,
        });
        false
    }

    /// The summary of what was held back, if anything was.
    pub(crate) fn summary(&self, rule: &str, what: &str) -> Option<Finding> {
        let span = self.span.clone()?;
        let kind = if rule.starts_with("fence.") {
            Kind::FenceMarker
        } else {
            Kind::HiddenText
        };
        Some(Finding::new(
            rule,
            kind,
            Severity::Notice,
            span.clone(),
            format!(
                "{} more {what} between bytes {} and {}; the first {MAX_FINDINGS_PER_RULE} \
                 findings of this rule are listed one by one.",
                self.more, span.start, span.end
            ),
        ))
    }
}

/// Whether a lone invisible character is part of ordinary text: a variation selector right
/// after a visible character, or a zero-width joiner between two visible non-ASCII characters
/// (emoji sequences). `prev` and `next` are the visible characters around it, if any.
pub(crate) fn is_benign(c: char, count: usize, prev: Option<char>, next: Option<char>) -> bool {
    count == 1
        && match c {
            '\u{FE0E}' | '\u{FE0F}' => prev.is_some_and(|p| !p.is_whitespace()),
            '\u{200D}' => {
                prev.is_some_and(|p| !p.is_ascii()) && next.is_some_and(|n| !n.is_ascii())
            }
            _ => false,
        }
}

/// Groups removed invisible characters into findings as a text is read: runs of one class
/// with no whitespace between them are one finding (characters sprinkled through a word to
/// split it are one act).
#[derive(Default)]
pub(crate) struct Grouper {
    group: Option<HiddenGroup>,
    out: Vec<Hidden>,
    cap: Cap,
    /// The rule of the first group held back by the cap.
    held_back: Option<&'static str>,
}

impl Grouper {
    /// A run of invisible characters at `run` of `text`, all removed.
    pub(crate) fn run(&mut self, text: &str, run: Range<usize>) {
        let mut kinds: Vec<Invisible> = Vec::new();
        let mut count = 0;
        for c in text[run.clone()].chars() {
            count += 1;
            if let Some(k) = invisible(c)
                && !kinds.contains(&k)
            {
                kinds.push(k);
            }
        }
        let class = HiddenClass::of(&kinds);
        if self.group.as_ref().is_some_and(|g| g.class != class)
            && let Some(done) = self.group.take()
        {
            self.push(done);
        }
        let g = self.group.get_or_insert_with(|| HiddenGroup {
            class,
            span: run.clone(),
            count: 0,
            tag_text: String::new(),
            tag_chars: 0,
        });
        g.count += count;
        for t in text[run.clone()].chars() {
            let cp = t as u32;
            if (0xE0020..=0xE007E).contains(&cp) {
                g.tag_chars += 1;
                if g.tag_text.chars().count() < TAG_PREVIEW_CHARS {
                    g.tag_text.push(char::from((cp - 0xE0000) as u8));
                }
            }
        }
        g.span.end = run.end;
    }

    /// Whitespace: the word, and the group, end.
    pub(crate) fn word_break(&mut self) {
        if let Some(done) = self.group.take() {
            self.push(done);
        }
    }

    fn push(&mut self, done: HiddenGroup) {
        if self.cap.admit(done.span.clone(), done.count) {
            self.out.push(done.into_hidden());
        } else {
            self.held_back.get_or_insert(done.class.rule());
        }
    }

    /// The findings, in order.
    pub(crate) fn finish(mut self) -> Vec<Hidden> {
        self.word_break();
        if let Some(rule) = self.held_back
            && let Some(finding) = self.cap.summary(rule, "invisible characters removed")
        {
            self.out.push(Hidden { finding });
        }
        self.out
    }
}

/// Finds runs of invisible characters, except the benign ones ([`is_benign`]), grouped by
/// [`Grouper`].
pub(crate) fn hidden_text_findings(text: &str) -> Vec<Hidden> {
    // Most non-ASCII text (an em dash, curly quotes) holds no invisible character at all.
    if !crate::normalize::non_ascii_chars(text).any(|(_, c)| invisible(c).is_some()) {
        return Vec::new();
    }
    let mut grouper = Grouper::default();
    let mut chars = text.char_indices().peekable();
    let mut prev_visible: Option<char> = None;
    while let Some((start, c)) = chars.next() {
        if invisible(c).is_none() {
            if c.is_whitespace() {
                grouper.word_break();
            }
            prev_visible = Some(c);
            continue;
        }
        let mut end = start + c.len_utf8();
        let mut count = 1usize;
        while let Some(&(i, d)) = chars.peek() {
            if invisible(d).is_none() {
                break;
            }
            chars.next();
            end = i + d.len_utf8();
            count += 1;
        }
        let next_visible = chars.peek().map(|&(_, d)| d);
        let benign = is_benign(c, count, prev_visible, next_visible);
        prev_visible = None;
        if !benign {
            grouper.run(text, start..end);
        }
    }
    grouper.finish()
}

/// Control characters removed from a run at `span` (`count` of them).
pub(crate) fn control_finding(span: Range<usize>, count: usize) -> Finding {
    Finding::new(
        "hidden.control-character",
        Kind::HiddenText,
        Severity::Notice,
        span,
        format!(
            "{count} control {} removed (NUL, escape, DEL, C1 controls, object replacement): \
             a later step that strips them would rebuild what they split.",
            characters(count)
        ),
    )
}

/// Line breaks other than `\n` rewritten as `\n` in a run at `span` (`count` of them).
pub(crate) fn line_break_finding(span: Range<usize>, count: usize) -> Finding {
    Finding::new(
        "hidden.line-break",
        Kind::HiddenText,
        Severity::Notice,
        span,
        format!(
            "{count} line {} other than a newline (carriage return, vertical tab, form feed, \
             next line, line or paragraph separator) made a newline: each starts a line on \
             screen.",
            if count == 1 { "break" } else { "breaks" }
        ),
    )
}
