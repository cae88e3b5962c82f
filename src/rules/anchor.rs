//! Anchors: the literals that every match of a pattern carries near its start.
//!
//! The engine puts every rule's anchor literals into one literal prefilter (`prefilter.rs`), run
//! once over the normalised view, and confirms a rule's pattern only where one of its literals
//! occurs (see `RuleSet::scan`), trying starts up to `max_offset` bytes before it that begin
//! with one of the pattern's possible first bytes. This file is also compiled by `build.rs`,
//! which computes the anchors of the embedded rules ahead of time so a process does not parse
//! every pattern at start-up; it therefore uses nothing from the crate but `regex-syntax`.

use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Capture, Class, Hir, HirKind, Look, Repetition};

use super::start::{AT_TEXT_START, StartCondition, start_condition};

/// The syntax settings every pattern is compiled with (`regex::bytes`, no Unicode classes).
/// `None` if the pattern does not parse (the regex crate then reports why).
pub(crate) fn parse_hir(pattern: &str) -> Option<Hir> {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .nest_limit(64)
        .build()
        .parse(pattern)
        .ok()
}

/// Most literals a pattern may contribute to the shared prefilter.
pub(crate) const MAX_PREFIXES: usize = 128;
/// Longest stretch a match may run before its literal for the literal to be used.
const MAX_LITERAL_OFFSET: usize = 32;

/// Literals that anchor every match of a pattern: each match has one of `literals` (compared
/// ASCII case-insensitively) starting at most `max_offset` bytes after the match's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Anchor {
    /// How far after a match's start its literal may begin.
    pub(crate) max_offset: usize,
    /// ASCII-lowercased, newlines as spaces, sorted; compared ASCII case-insensitively with a
    /// newline in the text taken for a space.
    pub(crate) literals: Vec<Vec<u8>>,
    /// The bytes a match can start with (case as written), sorted, when the set is known: a
    /// confirmation skips every other start in front of the literal, and drops a literal the
    /// prefilter found in the other case (`account` for `\bAC[0-9a-f]{32}`) before the
    /// pattern's DFA is touched.
    pub(crate) first_bytes: Option<Vec<u8>>,
    /// Every occurrence a match needs starts a word: a literal that starts with a word byte
    /// (`[A-Za-z0-9_]`) is always preceded there by a byte that is not one, or by nothing.
    /// The prefilter then looks for it only at word starts (see `prefilter.rs`).
    pub(crate) word_start: bool,
    /// Where a match can start (see `start.rs`), when the pattern narrows it.
    pub(crate) start: Option<StartCondition>,
}

/// The anchor of a pattern, or `None` when it has no usable one (it then searches the text).
pub(crate) fn literal_anchor(hir: &Hir) -> Option<Anchor> {
    let start = start_condition(hir);
    // A pattern that can only match at the start of the text is tried there once per text,
    // which costs less than looking for its literals everywhere.
    if start
        .as_ref()
        .is_some_and(|c| c.looks == AT_TEXT_START && c.bytes.is_empty())
    {
        return None;
    }
    let mut anchor = anchor_of(&fold_ascii_case(hir), Before::Unknown)?;
    strip_leading_space(&mut anchor);
    anchor.first_bytes = first_bytes(hir);
    anchor.start = start;
    Some(anchor)
}

/// A literal that starts with the view's whitespace (a space or newline) is looked for without
/// it, one byte later: what follows a space starts a word, or is itself not a word byte, so
/// the rest is found at word starts, which prose has fewer of than spaces.
fn strip_leading_space(anchor: &mut Anchor) {
    if !anchor.literals.iter().any(|l| starts_with_space(l)) {
        return;
    }
    if anchor
        .literals
        .iter()
        .any(|l| starts_with_space(l) && l.len() < 2)
    {
        return;
    }
    for l in &mut anchor.literals {
        if starts_with_space(l) {
            l.remove(0);
        }
    }
    anchor.literals.sort();
    anchor.literals.dedup();
    anchor.max_offset += 1;
}

fn starts_with_space(literal: &[u8]) -> bool {
    matches!(literal.first(), Some(b' ' | b'\n'))
}

/// An ASCII letter or digit: what the prefilter's word starts are made of. `\b` also counts
/// `_` as a word byte, so a `\b` before a letter means the byte before is not one of these;
/// bytes of non-ASCII characters are not either, so a word start after one is looked at (a
/// Unicode `\b` may hold there).
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// Where a literal that cannot be looked for from its start may be looked for instead: the
/// first offset `d > 0` that is a probe wherever the literal occurs (a byte other than a letter,
/// digit, whitespace or UTF-8 continuation byte, or any byte after a space or newline, which
/// starts a word or is such a byte: a view never has two whitespace bytes in a row). The
/// literal is then found by its suffix from `d`, and checked back to its start.
pub(crate) fn probe_offset(literal: &[u8]) -> Option<usize> {
    (1..literal.len()).find(|&d| probed_at(literal, d))
}

/// Whether offset `d > 0` of a literal is always a place the prefilter tests: a letter or digit
/// after a space or newline (a word start), or a byte other than a letter, digit, whitespace,
/// control byte or UTF-8 continuation byte (tested wherever it is).
fn probed_at(literal: &[u8], d: usize) -> bool {
    let b = literal[d];
    let tested = b > b' ' && !matches!(b, 0x80..=0xBF);
    tested && (matches!(literal[d - 1], b' ' | b'\n') || !is_word_byte(b))
}

/// Where the prefilter looks for a literal from: among the offsets it can (its start if
/// [`word_start_literal`] allows, else those [`probe_offset`] would), the one whose next four
/// bytes are rarest by [`score`] (`the secret` is looked for as `secr`, not as `the `, which
/// starts a tenth of all words in prose), the earliest on a tie, and not its last three letters
/// when there is another choice, unless it starts with one of the most frequent words; `None`
/// if there is none.
pub(crate) fn best_probe_offset(literal: &[u8], word_start: bool) -> Option<usize> {
    let usable = |d: usize| usable_offset(literal, word_start, d);
    let key = |d: usize| {
        let rest = &literal[d..];
        // The last three letters of a literal (`com` of `your com`) start a word every hundred
        // or so, and every one of those words reaches the candidate check (which then finds
        // no `your ` before it), while from its start the eight-byte bitmap sees `your com`. Not
        // when the literal starts with one of the most frequent words (`the sec`): those pass
        // the first bitmap more often than the last three letters of any word start a word.
        let fragment = d > 0
            && rest.len() == 3
            && rest.iter().all(u8::is_ascii_alphabetic)
            && literal
                .split(|&b| b == b' ')
                .next()
                .is_none_or(|w| MOST_FREQUENT_WORDS.binary_search(&w).is_err());
        // Three bytes or more make a key the bitmaps can tell apart.
        (
            rest.len() >= 3,
            if fragment {
                0
            } else {
                score(&rest[..rest.len().min(4)])
            },
        )
    };
    (0..literal.len())
        .filter(|&d| usable(d))
        .fold(None, |best: Option<usize>, d| match best {
            Some(b) if key(b) >= key(d) => Some(b),
            _ => Some(d),
        })
}

/// Whether a literal is found without the every-offset pass: from its start (see
/// [`word_start_literal`]) or from a later probe offset.
pub(crate) fn found_at_probes(literal: &[u8], word_start: bool) -> bool {
    // Whether [`best_probe_offset`] has an offset to choose, without scoring them (loading the
    // rules asks this of every anchor literal).
    (0..literal.len()).any(|d| usable_offset(literal, word_start, d))
}

/// Whether the prefilter can look for `literal` from offset `d`: its start if
/// [`word_start_literal`] allows, else an offset [`probe_offset`] could pick.
fn usable_offset(literal: &[u8], word_start: bool, d: usize) -> bool {
    if d == 0 {
        word_start_literal(literal, word_start)
    } else {
        probed_at(literal, d)
    }
}

/// Whether the word-start table may hold a literal: see `prefilter.rs`.
pub(crate) fn word_start_literal(literal: &[u8], word_start: bool) -> bool {
    match literal.first() {
        None => true,
        Some(&b) if is_word_byte(b) => word_start,
        Some(&b) => b > b' ' && !matches!(b, 0x80..=0xBF),
    }
}

/// `anchor` with every literal replaced by its suffix from its probe offset (see
/// [`probe_offset`]), which the prefilter finds without testing every byte, and the reach
/// extended to match; `None` if it is not found at word starts and some literal has no
/// probe offset. A literal that starts with a byte other than a letter or digit stays.
fn from_probe_offsets(anchor: &Anchor) -> Option<Anchor> {
    if anchor.word_start {
        return None;
    }
    let mut extra = 0;
    let mut literals = Vec::with_capacity(anchor.literals.len());
    for l in &anchor.literals {
        let d = if word_start_literal(l, false) {
            0
        } else {
            probe_offset(l)?
        };
        extra = extra.max(d);
        literals.push(l[d..].to_vec());
    }
    literals.sort();
    literals.dedup();
    Some(Anchor {
        max_offset: anchor.max_offset + extra,
        literals,
        first_bytes: None,
        word_start: true,
        start: None,
    })
}

/// What precedes a position inside a match, as far as word starts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Before {
    /// A byte that is not a word byte, or a `\b`/`^` there: a word byte at the position
    /// starts a word.
    NonWord,
    /// Nothing of the pattern (every item before may match empty): whatever precedes the
    /// match's start, which is unknown.
    Unknown,
}

/// How `hir` ends as far as the position after it goes: `Some(true)` when every match ends
/// with a byte that is not a word byte or with an assertion that gives a word start (`\b`,
/// `^`), `Some(false)` when that is not known, `None` when it may match the empty string
/// without an assertion (then what came before decides).
fn ends_word_boundary(hir: &Hir) -> Option<bool> {
    match hir.kind() {
        HirKind::Empty => None,
        HirKind::Literal(lit) => lit.0.last().map(|&b| !is_word_byte(b)),
        HirKind::Class(Class::Bytes(c)) => Some(
            c.ranges()
                .iter()
                .all(|r| (r.start()..=r.end()).all(|b| !is_word_byte(b))),
        ),
        // Non-ASCII characters end with a byte over 0x7F: not a word byte.
        HirKind::Class(Class::Unicode(c)) => Some(
            c.ranges()
                .iter()
                .all(|r| (r.start()..=r.end().min('\x7F')).all(|ch| !is_word_byte(ch as u8))),
        ),
        HirKind::Look(look) => Some(matches!(
            look,
            Look::Start
                | Look::StartLF
                | Look::StartCRLF
                | Look::WordAscii
                | Look::WordUnicode
                | Look::WordStartAscii
                | Look::WordStartUnicode
                | Look::WordStartHalfAscii
                | Look::WordStartHalfUnicode
        )),
        HirKind::Repetition(rep) => {
            if rep.max == Some(0) {
                return None;
            }
            match ends_word_boundary(&rep.sub) {
                Some(false) => Some(false),
                Some(true) if rep.min > 0 => Some(true),
                _ => None,
            }
        }
        HirKind::Capture(c) => ends_word_boundary(&c.sub),
        HirKind::Concat(items) => {
            for item in items.iter().rev() {
                if let Some(ends) = ends_word_boundary(item) {
                    return Some(ends);
                }
            }
            None
        }
        HirKind::Alternation(branches) => {
            let mut any_empty = false;
            for b in branches {
                match ends_word_boundary(b) {
                    Some(false) => return Some(false),
                    Some(true) => {}
                    None => any_empty = true,
                }
            }
            (!any_empty).then_some(true)
        }
    }
}

/// What precedes the position after `item`, given what preceded `item`.
fn after(before: Before, item: &Hir) -> Before {
    match ends_word_boundary(item) {
        Some(true) => Before::NonWord,
        Some(false) => Before::Unknown,
        None => before,
    }
}

/// Whether literals found at a position preceded as `before` say are needed only at word
/// starts: they are, or they start with a byte that is not a word byte.
fn at_word_starts(before: Before, literals: &[Vec<u8>]) -> bool {
    before == Before::NonWord
        || literals
            .iter()
            .all(|l| l.first().is_some_and(|&b| !is_word_byte(b)))
}

/// The bytes every match of `hir` (as written, case and all) can start with, or `None` when
/// that is not a small known set.
fn first_bytes(hir: &Hir) -> Option<Vec<u8>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_class(128)
        .limit_repeat(4)
        .limit_literal_len(1)
        .limit_total(256);
    let seq = extractor.extract(hir);
    let mut bytes = Vec::new();
    for lit in seq.literals()? {
        bytes.push(*lit.as_bytes().first()?);
    }
    bytes.sort_unstable();
    bytes.dedup();
    Some(bytes)
}

/// The anchor of `hir`, where `before` says what precedes its start in a match.
fn anchor_of(hir: &Hir, before: Before) -> Option<Anchor> {
    match hir.kind() {
        HirKind::Alternation(branches) => {
            let mut found: Vec<Anchor> = Vec::with_capacity(branches.len());
            for branch in branches {
                found.push(anchor_of(branch, before)?);
            }
            // One flag covers the set: when branches differ, those found anywhere are looked
            // for by their suffixes from a probe offset if they all have one.
            let word_start = found.iter().all(|a| a.word_start)
                || found.iter_mut().all(|a| {
                    if let Some(suffixed) = from_probe_offsets(a) {
                        *a = suffixed;
                    }
                    a.word_start
                });
            let mut max_offset = 0;
            let mut literals = Vec::new();
            for a in found {
                max_offset = max_offset.max(a.max_offset);
                literals.extend(a.literals);
            }
            let literals = few_literals(literals)?;
            // Cutting literals short keeps their first bytes, so word starts still hold.
            (quality(&literals) >= MIN_QUALITY).then_some(Anchor {
                max_offset,
                literals,
                first_bytes: None,
                word_start,
                start: None,
            })
        }
        HirKind::Capture(c) => anchor_of(&c.sub, before),
        _ => {
            let mut items = Vec::new();
            flatten_concat(hir, &mut items);
            // The best-quality literals within reach of the start (earliest on a tie).
            let mut best: Option<(usize, Anchor)> = None;
            let mut offset = 0usize;
            // What precedes `items[k]`.
            let mut here = before;
            for k in 0..items.len().min(MAX_ANCHOR_TRIES) {
                if let Some(literals) = prefix_literals(&Hir::concat(items[k..].to_vec())) {
                    // Assertions right at `items[k]` (`\b`, `^`) say what precedes too.
                    let at = items[k..]
                        .iter()
                        .take_while(|h| matches!(h.kind(), HirKind::Look(_)))
                        .fold(here, after);
                    let word_start = at_word_starts(at, &literals);
                    let q = rank(&literals, word_start);
                    if best.as_ref().is_none_or(|(b, _)| q > *b) {
                        best = Some((
                            q,
                            Anchor {
                                max_offset: offset,
                                literals,
                                first_bytes: None,
                                word_start,
                                start: None,
                            },
                        ));
                    }
                    if q >= 1_000_000 + 2 * GOOD_QUALITY {
                        break;
                    }
                }
                // An alternation may have an anchor in every branch past their common start
                // (each match passes through one branch, which starts within reach).
                if is_alternation(&items[k])
                    && let Some(a) = anchor_of(&items[k], here)
                    && offset + a.max_offset <= MAX_LITERAL_OFFSET
                {
                    let q = rank(&a.literals, a.word_start);
                    if best.as_ref().is_none_or(|(b, _)| q > *b) {
                        best = Some((
                            q,
                            Anchor {
                                max_offset: offset + a.max_offset,
                                ..a
                            },
                        ));
                    }
                    if k + 1 == items.len() {
                        break;
                    }
                }
                here = after(here, &items[k]);
                match view_max_len(&items[k]) {
                    Some(len) if offset + len <= MAX_LITERAL_OFFSET => offset += len,
                    _ => break,
                }
            }
            best.filter(|(_, a)| quality(&a.literals) >= MIN_QUALITY)
                .map(|(_, a)| a)
        }
    }
}

/// How an anchor compares with the others a pattern offers: a set the prefilter finds without
/// testing every byte (see [`found_at_probes`]) beats every set it would have to, since it
/// skips that whole pass when no rule needs it; then [`quality`], word starts first on a tie.
fn rank(literals: &[Vec<u8>], word_start: bool) -> usize {
    let probed = literals.iter().all(|l| found_at_probes(l, word_start));
    1_000_000 * usize::from(probed) + 2 * quality(literals) + usize::from(word_start)
}

/// How selective a literal set is: its weakest literal's score. A literal scores its length,
/// with every byte that is neither a letter nor whitespace counting double (`e` hits
/// everywhere in prose, `<|` almost nowhere). Words score low whatever their length: a single
/// letter 0 (never an anchor), two letters or a very common word 1, a common word 2. Such
/// anchors are taken only when nothing rarer is within reach: `the ` starts a match attempt
/// every few words, but searching the whole text for want of an anchor costs more.
fn quality(literals: &[Vec<u8>]) -> usize {
    // Dozens of one- and two-byte literals (a hex or digit class spelled out) hit everywhere.
    if literals.len() > 16 && literals.iter().any(|l| l.len() <= 2) {
        return 0;
    }
    literals.iter().map(|l| score(l)).min().unwrap_or(0)
}

pub(crate) fn score(literal: &[u8]) -> usize {
    // A full stop or comma alone ends every other sentence: a pattern anchored there is
    // better searched by the regex itself (which has its own prefilter).
    if matches!(literal, [b'.' | b',']) {
        return 0;
    }
    let wordy = literal
        .iter()
        .all(|b| b.is_ascii_alphabetic() || matches!(b, b' ' | b'\n' | b'\'' | b','));
    let core = literal
        .iter()
        .position(u8::is_ascii_alphanumeric)
        .map_or(&literal[..0], |start| {
            let end = literal
                .iter()
                .rposition(u8::is_ascii_alphanumeric)
                .map_or(start, |e| e + 1);
            &literal[start..end]
        });
    if wordy && core.len() <= 2 {
        return core.len().saturating_sub(1);
    }
    if wordy && VERY_COMMON_WORDS.binary_search(&core).is_ok() {
        return 1;
    }
    if wordy && COMMON_WORDS.binary_search(&core).is_ok() {
        return 2;
    }
    // Words in a row (`your ac`, `what are`): each scores on its own and the scores add up, so
    // a common word and the start of the next (`your ac`count) score as low as they hit.
    if wordy && core.contains(&b' ') | core.contains(&b'\n') {
        return core
            .split(|b| matches!(b, b' ' | b'\n'))
            .filter(|w| !w.is_empty())
            .map(score)
            .sum();
    }
    let rare = literal
        .iter()
        .filter(|b| !b.is_ascii_alphabetic() && !matches!(b, b' ' | b'\n'))
        .count();
    literal.len() + rare
}

/// The most frequent words of support prose that injection patterns also start with: an
/// anchor made of them would confirm a pattern every few words. Sorted, lowercase.
const VERY_COMMON_WORDS: &[&[u8]] = &[
    b"all", b"and", b"any", b"are", b"can", b"does", b"end", b"for", b"from", b"here", b"new",
    b"not", b"our", b"that", b"the", b"this", b"what", b"will", b"with", b"you", b"your",
];

/// The most frequent words of English, each a few percent of all the words of prose (the
/// first bitmap lets every one through when a literal is looked for from it). Sorted,
/// lowercase.
const MOST_FREQUENT_WORDS: &[&[u8]] = &[
    b"and", b"are", b"can", b"for", b"not", b"our", b"that", b"the", b"this", b"will", b"with",
    b"you",
];

/// Words frequent in support prose, less so than [`VERY_COMMON_WORDS`]. Sorted, lowercase.
const COMMON_WORDS: &[&[u8]] = &[
    b"above",
    b"address",
    b"anything",
    b"complete",
    b"continue",
    b"date",
    b"dear",
    b"doesn't",
    b"don't",
    b"egin",
    b"email",
    b"free",
    b"full",
    b"give",
    b"hello",
    b"hey",
    b"host",
    b"key",
    b"list",
    b"name",
    b"never",
    b"now",
    b"open",
    b"order",
    b"original",
    b"phone",
    b"previous",
    b"print",
    b"read",
    b"real",
    b"reply",
    b"server",
    b"share",
    b"ship",
    b"show",
    b"start",
    b"stop",
    b"switch",
    b"system",
    b"take",
    b"team",
    b"tell",
    b"token",
    b"true",
    b"two",
    b"user",
    b"without",
    b"won't",
];
/// How many leading items of a pattern may be stepped over to find its anchor.
const MAX_ANCHOR_TRIES: usize = 6;
/// Literal sets below this are not worth a prefilter entry (single letters and digits).
const MIN_QUALITY: usize = 1;
/// A set this good ends the search for a better one further into the pattern.
const GOOD_QUALITY: usize = 4;

/// The longest text `hir` can match in a normalised view, where every whitespace run is one
/// space or newline (so `\s+` matches one byte), or `None` if unbounded.
fn view_max_len(hir: &Hir) -> Option<usize> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Some(0),
        HirKind::Literal(lit) => Some(lit.0.len()),
        HirKind::Class(Class::Bytes(_)) => Some(1),
        HirKind::Class(Class::Unicode(c)) => c.maximum_len(),
        HirKind::Repetition(rep) => {
            if let HirKind::Class(Class::Bytes(c)) = rep.sub.kind()
                && c.ranges()
                    .iter()
                    .all(|r| (r.start()..=r.end()).all(is_space))
            {
                return Some(usize::from(rep.max != Some(0)));
            }
            let sub = view_max_len(&rep.sub)?;
            sub.checked_mul(usize::try_from(rep.max?).ok()?)
        }
        HirKind::Capture(c) => view_max_len(&c.sub),
        HirKind::Concat(items) => items
            .iter()
            .try_fold(0usize, |acc, h| acc.checked_add(view_max_len(h)?)),
        HirKind::Alternation(items) => items
            .iter()
            .try_fold(0usize, |acc, h| Some(acc.max(view_max_len(h)?))),
    }
}

/// The items of a concatenation, with capture groups around concatenations opened up.
fn flatten_concat(hir: &Hir, out: &mut Vec<Hir>) {
    match hir.kind() {
        HirKind::Concat(items) => items.iter().for_each(|h| flatten_concat(h, out)),
        HirKind::Capture(c) if matches!(c.sub.kind(), HirKind::Concat(_)) => {
            flatten_concat(&c.sub, out);
        }
        _ => out.push(hir.clone()),
    }
}

/// `hir` with ASCII letters lowercased and `[Xx]` classes turned into the lowercase letter.
/// The prefilter compares ASCII case-insensitively, so literals of this form find every
/// place the original can match, without one literal per spelling in upper and lower case.
fn fold_ascii_case(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Literal(lit) if lit.0.iter().any(u8::is_ascii_uppercase) => {
            Hir::literal(lit.0.to_ascii_lowercase())
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ranges = class.ranges();
            if let [a, b] = ranges
                && a.start() == a.end()
                && b.start() == b.end()
                && a.start().is_ascii_uppercase()
                && b.start() == a.start().to_ascii_lowercase()
            {
                return Hir::literal([b.start()]);
            }
            // Tab, CR, VT and FF never occur in a view (whitespace runs become one space or
            // newline), so they add no place to look.
            let never = |b: u8| matches!(b, b'\t' | b'\r' | 0x0B | 0x0C);
            if !ranges.iter().any(|r| (r.start()..=r.end()).any(never)) {
                return hir.clone();
            }
            let mut class = class.clone();
            class.difference(&regex_syntax::hir::ClassBytes::new(
                [(b'\t', b'\t'), (b'\r', b'\r'), (0x0B, 0x0C)]
                    .map(|(a, b)| regex_syntax::hir::ClassBytesRange::new(a, b)),
            ));
            Hir::class(Class::Bytes(class))
        }
        HirKind::Class(Class::Unicode(class)) => match class.ranges() {
            [a, b]
                if a.start() == a.end()
                    && b.start() == b.end()
                    && a.start().is_ascii_uppercase()
                    && b.start() == a.start().to_ascii_lowercase() =>
            {
                Hir::literal([b.start() as u8])
            }
            _ => hir.clone(),
        },
        HirKind::Repetition(rep) => {
            // A view never holds two whitespace bytes in a row, so a run of whitespace is one
            // space or newline there: `\s+` spelled that way gives literals that go on past it.
            if let HirKind::Class(Class::Bytes(c)) = rep.sub.kind()
                && c.ranges()
                    .iter()
                    .all(|r| (r.start()..=r.end()).all(is_space))
            {
                let one = Hir::class(Class::Bytes(regex_syntax::hir::ClassBytes::new([
                    regex_syntax::hir::ClassBytesRange::new(b'\n', b'\n'),
                    regex_syntax::hir::ClassBytesRange::new(b' ', b' '),
                ])));
                return match (rep.min, rep.max) {
                    (1, _) => one,
                    (0, _) => Hir::repetition(Repetition {
                        min: 0,
                        max: Some(1),
                        greedy: true,
                        sub: Box::new(one),
                    }),
                    _ => hir.clone(),
                };
            }
            Hir::repetition(Repetition {
                sub: Box::new(fold_ascii_case(&rep.sub)),
                ..rep.clone()
            })
        }
        HirKind::Capture(cap) => Hir::capture(Capture {
            sub: Box::new(fold_ascii_case(&cap.sub)),
            ..cap.clone()
        }),
        HirKind::Concat(items) => Hir::concat(items.iter().map(fold_ascii_case).collect()),
        HirKind::Alternation(items) => {
            Hir::alternation(items.iter().map(fold_ascii_case).collect())
        }
        HirKind::Empty | HirKind::Look(_) | HirKind::Literal(_) => hir.clone(),
    }
}

/// The literals every match of `hir` starts with, ASCII-lowercased, deduplicated and cut
/// short until there are few, or `None` when there is no finite, non-empty set.
fn prefix_literals(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_class(16)
        .limit_repeat(16)
        .limit_literal_len(8)
        .limit_total(512);
    let seq = extractor.extract(hir);
    let literals: Vec<Vec<u8>> = seq
        .literals()?
        .iter()
        .map(|l| l.as_bytes().to_ascii_lowercase())
        .filter(|l| could_be_in_view(l))
        // The prefilter takes a newline for a space: `your\s+system` is one literal, not two,
        // and the cap on literals per pattern cuts fewer of them short.
        .map(|mut l| {
            l.iter_mut()
                .filter(|b| **b == b'\n')
                .for_each(|b| *b = b' ');
            l
        })
        .collect();
    few_literals(literals)
}

/// Whether `literal` can occur in a normalised view: no tab, CR, VT or FF, no two whitespace
/// bytes in a row.
fn could_be_in_view(literal: &[u8]) -> bool {
    !literal
        .iter()
        .any(|b| matches!(b, b'\t' | b'\r' | 0x0B | 0x0C))
        && !literal
            .windows(2)
            .any(|w| matches!(w[0], b' ' | b'\n') && matches!(w[1], b' ' | b'\n'))
}

/// Sorted, deduplicated, at most [`MAX_PREFIXES`]: too many are cut to a shorter common
/// length (a prefix of a literal every match starts with is one too). `None` if any is empty.
fn few_literals(mut literals: Vec<Vec<u8>>) -> Option<Vec<Vec<u8>>> {
    literals.sort();
    literals.dedup();
    // A literal that starts with another adds no place to look (sorted: it follows it).
    let mut kept: Vec<Vec<u8>> = Vec::with_capacity(literals.len());
    for l in literals {
        if !kept.last().is_some_and(|k| l.starts_with(k)) {
            kept.push(l);
        }
    }
    let mut literals = collapse_shared_prefixes(kept);
    if literals.is_empty() || literals.iter().any(Vec::is_empty) {
        return None;
    }
    let longest = literals.iter().map(Vec::len).max().unwrap_or(0);
    for len in (1..=longest).rev() {
        if literals.len() <= MAX_PREFIXES {
            return Some(literals);
        }
        literals.iter_mut().for_each(|l| l.truncate(len));
        literals.sort();
        literals.dedup();
    }
    (literals.len() <= MAX_PREFIXES).then_some(literals)
}

fn is_alternation(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(_) => true,
        HirKind::Capture(c) => is_alternation(&c.sub),
        _ => false,
    }
}

/// Literals that share their first four bytes with many others (a prefix followed by a spelled
/// out character class: `key-0`, `key-1`, ...) become their longest common prefix: the
/// prefilter keys literals by four bytes, and one literal there checks faster than dozens.
fn collapse_shared_prefixes(sorted: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    const MAX_SHARING: usize = 4;
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(sorted.len());
    let mut i = 0;
    while i < sorted.len() {
        let key = &sorted[i][..sorted[i].len().min(4)];
        let j = i + sorted[i..]
            .iter()
            .take_while(|l| key.len() == 4 && l.starts_with(key))
            .count()
            .max(1);
        let first = &sorted[i];
        let common = sorted[i + 1..j].iter().fold(first.len(), |n, l| {
            n.min(first.iter().zip(l).take_while(|(a, b)| a == b).count())
        });
        // Not when the common part is a word that hits everywhere (`what are`, `what is`,
        // ... would become `what`).
        if j - i > MAX_SHARING && score(&first[..common]) >= GOOD_QUALITY {
            out.push(first[..common].to_vec());
        } else {
            out.extend(sorted[i..j].iter().cloned());
        }
        i = j;
    }
    out
}

/// ASCII whitespace as the view knows it (the `\s` of a pattern without Unicode).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

#[cfg(test)]
mod common_words_tests {
    /// Sorted for the binary search, and spelled as [`super::score`] compares them: lower case,
    /// apostrophes inside (`don't`).
    #[test]
    fn common_words_are_sorted_lowercase() {
        for w in [
            super::VERY_COMMON_WORDS,
            super::COMMON_WORDS,
            super::MOST_FREQUENT_WORDS,
        ] {
            assert!(w.windows(2).all(|p| p[0] < p[1]));
            assert!(w.iter().all(|x| {
                x.iter().all(|&c| c.is_ascii_lowercase() || c == b'\'')
                    && x.first().is_some_and(u8::is_ascii_lowercase)
                    && x.last().is_some_and(u8::is_ascii_lowercase)
            }));
        }
        // A contraction scores as a common word, as its letters alone do.
        assert_eq!(super::score(b"don't "), 2);
        assert_eq!(super::score(b"team "), 2);
    }

    #[test]
    fn probe_offsets_avoid_common_words_and_short_word_ends() {
        // A very common word is passed over for a rarer four bytes.
        assert_eq!(super::best_probe_offset(b"the secr", true), Some(4));
        // The last three letters start too many words; the eight-byte bitmap sees `your com`.
        assert_eq!(super::best_probe_offset(b"your com", true), Some(0));
        // Unless the literal starts with one of the most frequent words.
        assert_eq!(super::best_probe_offset(b"the sec", true), Some(4));
        assert_eq!(super::best_probe_offset(b"and pro", true), Some(4));
        // With no other offset, the word end is used.
        assert_eq!(super::best_probe_offset(b"your com", false), Some(5));
    }

    #[test]
    fn found_at_probes_is_whether_an_offset_is_chosen() {
        let mut literals: Vec<&[u8]> = vec![
            b"",
            b"a",
            b"ab",
            b"the sec",
            b"ghp_",
            b"-----begin",
            b"x.y",
            b" a",
            b"a b",
            b"\n\n",
            b"<|im_start|>",
            b"sk-ant-",
            b"__",
            b"--x",
            b"a-",
            b"_x",
        ];
        // Pieces of the rule files: words, punctuation, spaces and token prefixes side by side.
        for (_, source) in crate::rules::builtin::BUILTIN_RULE_FILES {
            let b = source.as_bytes();
            literals.extend(
                (0..b.len().saturating_sub(12))
                    .step_by(53)
                    .map(|at| &b[at..at + 12]),
            );
        }
        for l in literals {
            for ws in [false, true] {
                for end in 0..l.len() {
                    let l = &l[..=end];
                    assert_eq!(
                        super::found_at_probes(l, ws),
                        super::best_probe_offset(l, ws).is_some(),
                        "{:?} {ws}",
                        String::from_utf8_lossy(l)
                    );
                }
            }
        }
    }

    #[test]
    fn scores() {
        assert_eq!(super::score(b"the "), 1);
        assert_eq!(super::score(b"system "), 2);
        assert_eq!(super::score(b"as "), 1);
        assert_eq!(super::score(b"i "), 0);
        assert_eq!(super::score(b"."), 0);
        assert_eq!(super::score(b":"), 2);
        assert_eq!(super::score(b"ai"), 1);
        assert_eq!(super::score(b"ignore "), 7);
        assert_eq!(super::score(b"sk-"), 4);
        assert_eq!(super::score(b"your ac"), 2);
        assert_eq!(super::score(b"act like"), 7);
        assert_eq!(super::score(b"<|"), 4);
    }
}
