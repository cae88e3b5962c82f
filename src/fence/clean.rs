//! The fence's one cleaning pass (see the [module docs](super)): removals and rewrites of
//! hidden characters, and marker neutralisation on a stack of skeleton letters.

use std::borrow::Cow;
use std::ops::Range;

use super::{Markers, SENTINELS};
use crate::byte_class::{self, GROUP};
use crate::finding::{Finding, Kind, Severity};
use crate::hidden_text::{Cap, Grouper, control_finding, is_benign, line_break_finding};
use crate::normalize::{invisible, non_ascii_chars};
use crate::skeleton::{self, Prev, Reading, Skeleton};

/// Removes from `text` everything a fence must not contain and reports each removal.
/// Idempotent: cleaning the result again removes nothing. Text with nothing to remove comes
/// back borrowed.
pub(super) fn clean_with<'t>(text: &'t str, markers: &Markers) -> (Cow<'t, str>, Vec<Finding>) {
    let bytes = text.as_bytes();
    if plain_ascii(bytes) && !markers.needed.iter().any(|w| w.may_hold(bytes)) {
        return (Cow::Borrowed(text), Vec::new());
    }
    Cleaner::new(text, markers).run()
}

/// [`clean_with`] for a caller that already has the text's skeleton (the detector builds one
/// for its own phrases): text with nothing to remove and no needed word in its skeleton comes
/// back borrowed without the pass, whatever its script.
pub(super) fn clean_with_skeleton<'t>(
    text: &'t str,
    markers: &Markers,
    skeleton: &Skeleton<'_>,
) -> (Cow<'t, str>, Vec<Finding>) {
    let folded = skeleton.as_bytes();
    let no_word = || {
        !markers
            .needed
            .iter()
            .any(|w| w.finder.find(folded).is_some())
    };
    if nothing_to_remove(text) && no_word() {
        return (Cow::Borrowed(text), Vec::new());
    }
    Cleaner::new(text, markers).run()
}

/// Whether the pass would remove or rewrite no character of `text` (a marker aside).
fn nothing_to_remove(text: &str) -> bool {
    let bytes = text.as_bytes();
    if text.is_ascii() {
        return plain_ascii(bytes);
    }
    bytes
        .iter()
        .all(|&b| b >= 0x80 || (0x20..0x7F).contains(&b) || b == b'\n' || b == b'\t')
        && non_ascii_chars(text).all(|(at, c)| {
            if invisible(c).is_some() {
                // Kept only alone and benign (an emoji's variation selector, a joiner
                // between emoji), as the pass judges it.
                let prev = text[..at].chars().next_back();
                let next = text[at + c.len_utf8()..].chars().next();
                let alone = prev.is_none_or(|p| invisible(p).is_none())
                    && next.is_none_or(|n| invisible(n).is_none());
                return alone && is_benign(c, 1, prev, next.filter(|&n| !removed_or_rewritten(n)));
            }
            !(SENTINELS.contains(&c)
                || skeleton::is_other_line_break(c)
                || skeleton::is_removed_control(c))
        })
}

/// ASCII with no byte the cleaning changes (controls other than tab and newline, CR).
fn plain_ascii(bytes: &[u8]) -> bool {
    // Sixty-four bytes at a time from the byte-class masks (any control byte but the newline,
    // or a non-ASCII byte, makes a group odd); an odd group is looked at byte by byte, since a
    // tab is odd there and fine here. DEL is above the masks' range: one memchr.
    memchr::memchr(0x7F, bytes).is_none()
        && bytes.chunks(GROUP).all(|group| {
            !byte_class::plain_masks(group).1
                || group
                    .iter()
                    .all(|&b| (0x20..0x7F).contains(&b) || b == b'\n' || b == b'\t')
        })
}

/// English letter frequency, rarest first: the prefilter anchors on the rarest letter.
const RARITY: &[u8] = b"zqxjkvbpygfwmucdrhsnoatie";

/// A folded word the ASCII prefilter looks for, with its anchor letter chosen once.
#[derive(Debug, Clone)]
pub(super) struct Needed {
    word: Vec<u8>,
    /// Index of the rarest letter in `word`.
    anchor: usize,
    /// The ASCII bytes that read as that letter.
    variants: Vec<u8>,
    /// A searcher for `word` in a skeleton, built once with the fence (building one costs
    /// about as much as searching a 2 KiB ticket).
    finder: memchr::memmem::Finder<'static>,
}

// The rest is derived from the word.
impl PartialEq for Needed {
    fn eq(&self, other: &Self) -> bool {
        self.word == other.word
    }
}

impl Eq for Needed {}

impl Needed {
    pub(super) fn new(word: Vec<u8>) -> Self {
        let anchor = (0..word.len())
            .min_by_key(|&i| {
                RARITY
                    .iter()
                    .position(|r| *r == word[i])
                    .unwrap_or(RARITY.len())
            })
            .unwrap_or(0);
        let variants = match word.get(anchor) {
            Some(&letter) => (0u8..0x80)
                .filter(|&b| skeleton::ascii_reading(b) == letter)
                .collect(),
            None => Vec::new(),
        };
        Needed {
            finder: memchr::memmem::Finder::new(&word).into_owned(),
            word,
            anchor,
            variants,
        }
    }

    fn may_hold(&self, bytes: &[u8]) -> bool {
        may_hold(bytes, &self.word, self.anchor, &self.variants)
    }
}

/// Whether the skeleton of plain ASCII `bytes` may hold the folded `word` (letters in order
/// with only separators between them). Anchored on letter `anchor` of `word`, found as any of
/// `variants`; `true` when unsure (a verification that walks too far).
fn may_hold(bytes: &[u8], word: &[u8], anchor: usize, variants: &[u8]) -> bool {
    if word.is_empty() {
        return true;
    }
    let verify = |at: usize| {
        let mut budget = 512usize;
        let mut q = at;
        for &l in word[..anchor].iter().rev() {
            loop {
                if q == 0 || budget == 0 {
                    return budget == 0;
                }
                q -= 1;
                budget -= 1;
                let r = skeleton::ascii_reading(bytes[q]);
                if r != skeleton::ASCII_SEPARATOR {
                    if r != l {
                        return false;
                    }
                    break;
                }
            }
        }
        let mut q = at;
        for &l in &word[anchor + 1..] {
            loop {
                q += 1;
                budget = budget.saturating_sub(1);
                if q >= bytes.len() || budget == 0 {
                    return budget == 0;
                }
                let r = skeleton::ascii_reading(bytes[q]);
                if r != skeleton::ASCII_SEPARATOR {
                    if r != l {
                        return false;
                    }
                    break;
                }
            }
        }
        true
    };
    match *variants {
        [a] => memchr::memchr_iter(a, bytes).any(verify),
        [a, b] => memchr::memchr2_iter(a, b, bytes).any(verify),
        [a, b, c] => memchr::memchr3_iter(a, b, c, bytes).any(verify),
        _ => (0..bytes.len())
            .filter(|&i| variants.contains(&bytes[i]))
            .any(verify),
    }
}

/// A skeleton letter on the cleaning stack.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The folded letter; 0 for a letter outside ASCII, which no pattern holds.
    letter: u8,
    word_start: bool,
    /// What the visible character before it gave: the state to go back to when it is cut.
    prev: Prev,
    /// Where the output is cut to remove this letter's character (and all after it).
    out_cut: usize,
    /// Where the output is cut to remove the separators before it as well: right after the
    /// previous letter's character.
    gap_cut: usize,
    /// Where its character starts in the original.
    orig_start: usize,
}

/// The one pass that cleans a text: removals and rewrites of hidden characters, and marker
/// neutralisation on a stack of skeleton letters.
///
/// The stack holds the skeleton of the output so far and never holds a marker: a letter that
/// completes one cuts the output back to where the marker's removed part began, and pops the
/// stack to match. A prefix of marker-free text is marker-free (a marker is recognised by
/// what precedes it), so after the cut the stack is again marker-free, and the output is a
/// fixpoint in one pass: each character is pushed once and popped at most once.
pub(super) struct Cleaner<'t, 'm> {
    text: &'t str,
    markers: &'m Markers,
    /// Output so far; `text[copy_from..]` up to the current character is kept as well and
    /// copied on the next change.
    out: String,
    copy_from: usize,
    changed: bool,
    stack: Vec<Entry>,
    /// What the last visible character of the output gave.
    prev: Prev,
    /// Where a kept zero-width joiner starts in the output: a marker that starts at the next
    /// character removes it too.
    zwj_cut: Option<usize>,
    /// The output offset right after the last letter's character.
    after_letter: usize,
    findings: Vec<Finding>,
    marker_spans: Vec<Range<usize>>,
    grouper: Grouper,
    controls: Option<(Range<usize>, usize)>,
    breaks: Option<(Range<usize>, usize)>,
    /// Caps on the findings of each rule: sentinels, controls, line breaks.
    caps: [Cap; 3],
}

impl<'t, 'm> Cleaner<'t, 'm> {
    pub(super) fn new(text: &'t str, markers: &'m Markers) -> Self {
        Cleaner {
            text,
            markers,
            out: String::new(),
            copy_from: 0,
            changed: false,
            stack: Vec::new(),
            prev: Prev::Separator,
            zwj_cut: None,
            after_letter: 0,
            findings: Vec::new(),
            marker_spans: Vec::new(),
            grouper: Grouper::default(),
            controls: None,
            breaks: None,
            caps: Default::default(),
        }
    }

    /// The output offset the character at `at` of the text has (or would have, if kept).
    fn out_pos(&self, at: usize) -> usize {
        self.out.len() + (at - self.copy_from)
    }

    fn flush(&mut self, upto: usize) {
        if self.out.capacity() == 0 {
            self.out.reserve(self.text.len());
        }
        self.out.push_str(&self.text[self.copy_from..upto]);
        self.copy_from = upto;
    }

    fn replace(&mut self, r: Range<usize>, with: &str) {
        self.flush(r.start);
        self.out.push_str(with);
        self.copy_from = r.end;
        self.changed = true;
    }

    /// The last character of the output if the text is kept up to `at`.
    fn last_kept(&self, at: usize) -> Option<char> {
        if self.copy_from < at {
            self.text[..at].chars().next_back()
        } else {
            self.out.chars().next_back()
        }
    }

    /// A removed control character.
    fn control(&mut self, r: Range<usize>) {
        self.replace(r.clone(), "");
        if let Some((span, n)) = extend_run(&mut self.controls, r)
            && self.caps[1].admit(span.clone(), n)
        {
            self.findings.push(control_finding(span, n));
        }
    }

    /// A line break other than `\n`, made `\n`; CRLF silently.
    fn line_break(&mut self, r: Range<usize>, silent: bool) {
        self.separator(r.start, true);
        self.replace(r.clone(), "\n");
        if !silent
            && let Some((span, n)) = extend_run(&mut self.breaks, r)
            && self.caps[2].admit(span.clone(), n)
        {
            self.findings.push(line_break_finding(span, n));
        }
    }

    /// A visible character that gives no letter, at `at`, before it is kept: the word before
    /// it ends, which completes any marker that needs a word end.
    fn separator(&mut self, at: usize, whitespace: bool) {
        self.word_end(at);
        self.prev = Prev::Separator;
        self.zwj_cut = None;
        if whitespace {
            self.grouper.word_break();
        }
    }

    fn word_end(&mut self, at: usize) {
        while self.prev != Prev::Separator {
            let Some(p) = self.match_top(true) else {
                break;
            };
            let end = self.stack.last().map_or(at, |e| {
                e.orig_start
                    + self.text[e.orig_start..]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8)
            });
            self.neutralise(p, at, end);
        }
    }

    /// The letters of the character at `at..end`.
    fn letters(&mut self, at: usize, end: usize, letters: &str) {
        if self.prev == Prev::Ascii && letters.chars().next().is_some_and(|x| !x.is_ascii()) {
            // A letter of another script ends the Latin word before it.
            self.word_end(at);
        }
        let cut = self.zwj_cut.take().unwrap_or_else(|| self.out_pos(at));
        for x in letters.chars() {
            let letter = if x.is_ascii() { x as u8 } else { 0 };
            self.stack.push(Entry {
                letter,
                word_start: self.prev.starts_word(x),
                prev: self.prev,
                out_cut: cut,
                gap_cut: self.after_letter,
                orig_start: at,
            });
            self.prev = Prev::of(x);
            self.after_letter = self.out_pos(end);
            if letter != 0
                && self.markers.ends[usize::from(letter & 0x7F)]
                && let Some(p) = self.match_top(false)
            {
                // The character is cut with the marker: its other letters go too.
                self.neutralise(p, end, end);
                return;
            }
        }
    }

    /// The pattern (of those needing a word end or not) that the top of the stack completes.
    fn match_top(&self, word_end: bool) -> Option<usize> {
        let top = self.stack.last()?.letter;
        self.markers.patterns.iter().position(|p| {
            p.word_end == word_end
                && p.letters.last() == Some(&top)
                && self.stack.len() >= p.letters.len()
                && self.stack[self.stack.len() - p.letters.len()].word_start
                && self.stack[self.stack.len() - p.letters.len()..]
                    .iter()
                    .map(|e| e.letter)
                    .eq(p.letters.iter().copied())
        })
    }

    /// Cuts the output back to where pattern `p` (at the top of the stack) has its removed
    /// part begin, keeping the line breaks inside the cut; the text is kept up to `resume`,
    /// and the marker ends at `match_end` of the original.
    fn neutralise(&mut self, p: usize, resume: usize, match_end: usize) {
        let pattern = &self.markers.patterns[p];
        let start = self.stack.len() - pattern.letters.len();
        let mut idx = start + pattern.cut;
        // A character that gave several letters is cut whole.
        while idx > 0 && self.stack[idx - 1].out_cut == self.stack[idx].out_cut {
            idx -= 1;
        }
        // A removal inside the pattern (`UNTRUSTED` of `END UNTRUSTED`) takes the separators
        // before it too, so `END` is left as a word; one from the pattern's start keeps them.
        let gap = self.stack[idx].gap_cut;
        let (cut, prev) = if idx > start {
            let before = self.stack[idx - 1].letter;
            let kind = if before == 0 {
                Prev::Other
            } else {
                Prev::Ascii
            };
            (self.stack[idx].gap_cut, kind)
        } else {
            (self.stack[idx].out_cut, self.stack[idx].prev)
        };
        let span = self.stack[start].orig_start..match_end;
        self.flush(resume);
        let breaks = self.out[cut..].matches('\n').count();
        self.out.truncate(cut);
        for _ in 0..breaks {
            self.out.push('\n');
        }
        self.changed = true;
        self.stack.truncate(idx);
        self.prev = if breaks == 0 { prev } else { Prev::Separator };
        self.zwj_cut = None;
        self.after_letter = gap;
        // Nested copies give overlapping passages: one finding for each group.
        let mut span = span;
        while let Some(last) = self.marker_spans.last() {
            if last.end < span.start {
                break;
            }
            span = last.start.min(span.start)..last.end.max(span.end);
            self.marker_spans.pop();
        }
        self.marker_spans.push(span);
        if breaks > 0 && prev != Prev::Separator {
            // A line break kept from the cut ends the word before it, which may complete a
            // marker that needs a word end (`TICKET_BODY END` + `\n`).
            self.prev = prev;
            self.word_end(resume);
            self.prev = Prev::Separator;
        }
    }

    /// A run of invisible characters starting at `at`; returns where it ends.
    fn invisible_run(&mut self, at: usize) -> usize {
        let rest = &self.text[at..];
        let mut chars = rest.char_indices();
        let mut end = at;
        let mut count = 0;
        let mut first = None;
        let mut next = None;
        for (k, d) in chars.by_ref() {
            if invisible(d).is_none() {
                next = Some(d);
                break;
            }
            first.get_or_insert(d);
            count += 1;
            end = at + k + d.len_utf8();
        }
        let Some(c) = first else {
            return at;
        };
        // Judged against the output as it stands, so that cleaning the output again judges
        // the same way; the next character counts only if it is kept as it is.
        let prev = self.last_kept(at).filter(|p| invisible(*p).is_none());
        let next = next.filter(|&n| !removed_or_rewritten(n));
        if is_benign(c, count, prev, next) {
            if c == '\u{200D}' {
                self.zwj_cut = Some(self.out_pos(at));
            }
        } else {
            self.replace(at..end, "");
            self.grouper.run(self.text, at..end);
        }
        end
    }

    pub(super) fn run(mut self) -> (Cow<'t, str>, Vec<Finding>) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut i = 0;
        skeleton::with_reader(|reader| {
            while i < bytes.len() {
                let b = bytes[i];
                if b < 0x80 {
                    let r = skeleton::ascii_reading(b);
                    if r > skeleton::ASCII_DROPPED {
                        self.letters(i, i + 1, char::from(r).encode_utf8(&mut [0; 4]));
                    } else if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                        self.line_break(i..i + 2, true);
                        i += 1;
                    } else if skeleton::is_other_line_break(char::from(b)) {
                        self.line_break(i..i + 1, false);
                    } else if r == skeleton::ASCII_DROPPED {
                        self.control(i..i + 1);
                    } else {
                        self.separator(i, b == b' ' || b == b'\n' || b == b'\t');
                    }
                    i += 1;
                    continue;
                }
                let Some(c) = text[i..].chars().next() else {
                    break;
                };
                let end = i + c.len_utf8();
                if SENTINELS.contains(&c) {
                    self.replace(i..end, "");
                    if self.caps[0].admit(i..end, 1) {
                        self.findings.push(Finding::new(
                        "fence.marker-character",
                        Kind::FenceMarker,
                        Severity::Notice,
                        i..end,
                        "A fence sentinel character was removed: the text cannot forge a fence line.",
                    ));
                    }
                } else if skeleton::is_other_line_break(c) {
                    self.line_break(i..end, false);
                } else if skeleton::is_removed_control(c) {
                    self.control(i..end);
                } else if invisible(c).is_some() {
                    i = self.invisible_run(i);
                    continue;
                } else {
                    match reader.read(c) {
                        Reading::Dropped => {}
                        Reading::Separator => self.separator(i, c.is_whitespace()),
                        Reading::Letters(l) => self.letters(i, end, l.as_str()),
                    }
                }
                i = end;
            }
        });
        self.word_end(text.len());
        if let Some((span, n)) = self.controls.take()
            && self.caps[1].admit(span.clone(), n)
        {
            self.findings.push(control_finding(span, n));
        }
        if let Some((span, n)) = self.breaks.take()
            && self.caps[2].admit(span.clone(), n)
        {
            self.findings.push(line_break_finding(span, n));
        }
        let mut findings = self.findings;
        for (cap, rule, what) in [
            (
                &self.caps[0],
                "fence.marker-character",
                "fence sentinel characters removed",
            ),
            (
                &self.caps[1],
                "hidden.control-character",
                "control characters removed",
            ),
            (
                &self.caps[2],
                "hidden.line-break",
                "line breaks made newlines",
            ),
        ] {
            findings.extend(cap.summary(rule, what));
        }
        findings.extend(self.grouper.finish().into_iter().map(|h| h.finding));
        let mut phrases = Cap::default();
        let marker_spans: Vec<Range<usize>> = self
            .marker_spans
            .into_iter()
            .filter(|span| phrases.admit(span.clone(), 1))
            .collect();
        findings.extend(phrases.summary("fence.marker-phrase", "marker passages neutralised"));
        findings.extend(marker_spans.into_iter().map(|span| {
            Finding::new(
                "fence.marker-phrase",
                Kind::FenceMarker,
                Severity::Notice,
                span,
                "A passage that reads as a fence marker (BEGIN/END UNTRUSTED, or the label with \
                 BEGIN, END or UNTRUSTED) was neutralised: its marker words were removed, so the \
                 text cannot open or close a fence.",
            )
        }));
        if !self.changed {
            return (Cow::Borrowed(text), findings);
        }
        self.out.push_str(&text[self.copy_from..]);
        (Cow::Owned(self.out), findings)
    }
}

/// Extends the run of removals in `run` with `r` if it follows on; otherwise starts a new
/// run and returns the finished one.
fn extend_run(
    run: &mut Option<(Range<usize>, usize)>,
    r: Range<usize>,
) -> Option<(Range<usize>, usize)> {
    if let Some((span, count)) = run
        && span.end == r.start
    {
        span.end = r.end;
        *count += 1;
        return None;
    }
    run.replace((r, 1))
}

/// Whether the cleaning removes or rewrites `c` whatever surrounds it.
fn removed_or_rewritten(c: char) -> bool {
    SENTINELS.contains(&c)
        || skeleton::is_other_line_break(c)
        || skeleton::is_removed_control(c)
        || invisible(c).is_some()
}
