//! Splitting a text into segments, each covered by one set of findings, with credential spans
//! replaced by their masked preview and invisible characters made visible.
//!
//! Overlapping findings become nested marks over the segments they share, so each stays
//! readable. A credential span is one atomic segment whose only content is the preview: any
//! boundary inside it is moved to its edges, so no byte of the secret is ever copied out.

use crate::finding::{Finding, Kind};
use crate::normalize::{Invisible, invisible};

/// What a segment shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    /// Text of the original, to be escaped.
    Text(&'a str),
    /// The masked preview standing in for a credential span.
    Masked(String),
    /// A visible name for invisible characters (`U+200B`, `tags "ign"`).
    Invisible(String),
}

/// A run of text covered by the same findings (indices into the finding list, outermost
/// first). A segment with no pieces is a point: a finding with an empty span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Segment<'a> {
    pub(super) findings: Vec<usize>,
    pub(super) pieces: Vec<Piece<'a>>,
}

/// The segments of `text`, and for each finding whether it has a mark (its span lies in
/// `text` on character boundaries).
pub(super) fn segment<'a>(text: &'a str, findings: &[Finding]) -> (Vec<Segment<'a>>, Vec<bool>) {
    let valid: Vec<bool> = findings
        .iter()
        .map(|f| {
            let s = f.span();
            s.start <= s.end
                && s.end <= text.len()
                && text.is_char_boundary(s.start)
                && text.is_char_boundary(s.end)
        })
        .collect();
    let regions = masked_regions(text, findings);
    // Regions are sorted and disjoint: the one that may hold `at` is found by bisection, so a
    // hostile text with thousands of credentials stays O(n log n).
    let region_at = |at: usize| -> Option<&Region> {
        let i = regions.partition_point(|r| r.end <= at);
        regions.get(i).filter(|r| r.start <= at)
    };
    let widen = |at: usize, to_end: bool| -> usize {
        match region_at(at) {
            Some(r) if r.start < at && to_end => r.end,
            Some(r) if r.start < at => r.start,
            _ => at,
        }
    };
    // Effective spans: widened to whole masked regions.
    let eff: Vec<(usize, usize)> = findings
        .iter()
        .map(|f| {
            let s = f.span();
            let start = widen(s.start, false);
            let end = widen(s.end, true).max(start);
            (start, end)
        })
        .collect();
    let mut bounds = vec![0, text.len()];
    for (i, &(s, e)) in eff.iter().enumerate() {
        if valid[i] {
            bounds.push(s);
            bounds.push(e);
        }
    }
    for r in &regions {
        bounds.push(r.start);
        bounds.push(r.end);
    }
    bounds.sort_unstable();
    bounds.dedup();

    let mut order: Vec<usize> = (0..findings.len())
        .filter(|&i| valid[i] && eff[i].0 < eff[i].1)
        .collect();
    order.sort_by_key(|&i| (eff[i].0, std::cmp::Reverse(eff[i].1), i));
    let mut points: Vec<usize> = (0..findings.len())
        .filter(|&i| valid[i] && eff[i].0 == eff[i].1)
        .collect();
    points.sort_by_key(|&i| (eff[i].0, i));

    let badges = badge_runs(text);
    let mut segs = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    let (mut next, mut next_point) = (0, 0);
    for (k, &a) in bounds.iter().enumerate() {
        while next_point < points.len() && eff[points[next_point]].0 == a {
            segs.push(Segment {
                findings: vec![points[next_point]],
                pieces: Vec::new(),
            });
            next_point += 1;
        }
        let Some(&b) = bounds.get(k + 1) else { break };
        active.retain(|&i| eff[i].1 > a);
        while next < order.len() && eff[order[next]].0 <= a {
            active.push(order[next]);
            next += 1;
        }
        let pieces = match region_at(a).filter(|r| r.start == a) {
            Some(r) => vec![Piece::Masked(r.previews.join("; "))],
            None => pieces_of(text, a, b, &badges),
        };
        segs.push(Segment {
            findings: active.clone(),
            pieces,
        });
    }
    (segs, valid)
}

/// A union of overlapping credential spans and the previews of the credentials in it.
struct Region {
    start: usize,
    end: usize,
    previews: Vec<String>,
}

/// Credential spans merged where they overlap. A span in bounds but off a character boundary
/// (not from this text, or a broken caller) is widened to whole characters and still masked:
/// hiding too much is the safe mistake.
fn masked_regions(text: &str, findings: &[Finding]) -> Vec<Region> {
    let mut creds: Vec<(std::ops::Range<usize>, &Finding)> = findings
        .iter()
        .filter(|f| f.kind() == Kind::Credential)
        .filter_map(|f| {
            let mut s = f.span();
            if s.start >= s.end || s.end > text.len() {
                return None;
            }
            while !text.is_char_boundary(s.start) {
                s.start -= 1;
            }
            while !text.is_char_boundary(s.end) {
                s.end += 1;
            }
            Some((s, f))
        })
        .collect();
    creds.sort_by_key(|(s, _)| (s.start, s.end));
    let mut regions: Vec<Region> = Vec::new();
    for (s, f) in creds {
        let preview = preview(text, f);
        match regions.last_mut() {
            Some(r) if s.start < r.end => {
                r.end = r.end.max(s.end);
                if !r.previews.contains(&preview) {
                    r.previews.push(preview);
                }
            }
            _ => regions.push(Region {
                start: s.start,
                end: s.end,
                previews: vec![preview],
            }),
        }
    }
    regions
}

/// The masked preview a credential finding's message ends with (`[ghp_… 40 chars]`), or,
/// for a rule that gives none, the span's length only.
fn preview(text: &str, f: &Finding) -> String {
    let m = f.message();
    if let Some(i) = m.rfind(" [")
        && m.ends_with(']')
    {
        return m[i + 2..m.len() - 1].to_owned();
    }
    let chars = text
        .get(f.span())
        .map_or(f.span().len(), |s| s.chars().count());
    format!("{chars} chars")
}

/// Byte ranges of characters a page must not print as they are: invisible characters (bidi
/// controls would even reorder the text around them) and control characters other than line
/// breaks and tabs. An emoji's own variation selector or zero-width joiner is left alone.
fn badge_runs(text: &str) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    if text
        .bytes()
        .all(|b| b >= 0x20 || matches!(b, b'\n' | b'\t' | b'\r'))
        && text.is_ascii()
    {
        return runs;
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(at, c)) in chars.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| chars[p].1);
        let next = chars.get(k + 1).map(|&(_, d)| d);
        let shown = |d: Option<char>| {
            d.is_some_and(|d| !d.is_ascii() && invisible(d).is_none() && !d.is_whitespace())
        };
        let hide = match invisible(c) {
            Some(Invisible::VariationSelector) => !shown(prev),
            Some(Invisible::ZeroWidth) if c == '\u{200D}' => !(shown(prev) && shown(next)),
            Some(_) => true,
            None => c.is_control() && !matches!(c, '\n' | '\t' | '\r'),
        };
        if hide {
            let end = at + c.len_utf8();
            match runs.last_mut() {
                Some(r) if r.1 == at => r.1 = end,
                _ => runs.push((at, end)),
            }
        }
    }
    runs
}

fn pieces_of<'a>(text: &'a str, a: usize, b: usize, badges: &[(usize, usize)]) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let mut at = a;
    let first = badges.partition_point(|r| r.1 <= a);
    for &(s, e) in &badges[first..] {
        if s >= b {
            break;
        }
        let (s, e) = (s.max(a), e.min(b));
        if at < s {
            out.push(Piece::Text(&text[at..s]));
        }
        out.push(Piece::Invisible(badge_label(&text[s..e])));
        at = e;
    }
    if at < b {
        out.push(Piece::Text(&text[at..b]));
    }
    out
}

/// `tags "ign"` for a run of TAG characters (they spell ASCII), else each code point.
fn badge_label(run: &str) -> String {
    if run
        .chars()
        .all(|c| ('\u{E0020}'..='\u{E007E}').contains(&c))
    {
        let spelled: String = run
            .chars()
            .map(|c| char::from_u32(c as u32 - 0xE0000).unwrap_or('?'))
            .collect();
        return format!("tags \"{spelled}\"");
    }
    run.chars()
        .map(|c| format!("U+{:04X}", c as u32))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;

    fn f(kind: Kind, span: std::ops::Range<usize>, message: &str) -> Finding {
        Finding::new("t.r", kind, Severity::Notice, span, message)
    }

    fn shown(segs: &[Segment<'_>]) -> Vec<(Vec<usize>, String)> {
        segs.iter()
            .map(|s| {
                let text = s
                    .pieces
                    .iter()
                    .map(|p| match p {
                        Piece::Text(t) => (*t).to_owned(),
                        Piece::Masked(m) => format!("[{m}]"),
                        Piece::Invisible(i) => format!("<{i}>"),
                    })
                    .collect();
                (s.findings.clone(), text)
            })
            .collect()
    }

    proptest::proptest! {
        /// Whatever the findings, no character of a credential span is shown, every other
        /// visible character is shown once and in order, and every valid finding is marked.
        #[test]
        fn credentials_vanish_and_everything_else_stays_in_order(
            text in "[a-c\u{200B}é ]{0,40}",
            spans in proptest::collection::vec((0usize..48, 0usize..48, proptest::bool::ANY), 0..6),
        ) {
            let fs: Vec<Finding> = spans
                .iter()
                .map(|&(a, b, cred)| {
                    let kind = if cred { Kind::Credential } else { Kind::Email };
                    f(kind, a.min(b)..a.max(b), "m")
                })
                .collect();
            let (segs, marked) = segment(&text, &fs);
            // A character is hidden when any in-bounds credential span touches one of its bytes.
            let masked = |i: usize, c: char| {
                fs.iter().any(|g| {
                    let s = g.span();
                    g.kind() == Kind::Credential
                        && s.start < s.end
                        && s.end <= text.len()
                        && s.start < i + c.len_utf8()
                        && i < s.end
                })
            };
            let expected: String = text
                .char_indices()
                .filter(|&(i, c)| !masked(i, c) && c != '\u{200B}')
                .map(|(_, c)| c)
                .collect();
            let shown: String = segs
                .iter()
                .flat_map(|s| &s.pieces)
                .filter_map(|p| match p {
                    Piece::Text(t) => Some(*t),
                    _ => None,
                })
                .collect();
            proptest::prop_assert_eq!(shown, expected);
            for (n, ok) in marked.iter().enumerate() {
                let has_mark = segs.iter().any(|s| s.findings.contains(&n));
                proptest::prop_assert_eq!(*ok, has_mark, "finding {}", n);
            }
        }
    }

    #[test]
    fn overlapping_findings_split_into_nested_segments() {
        let text = "abcdefghij";
        let fs = [f(Kind::Promise, 1..6, "m"), f(Kind::Email, 4..8, "m")];
        let (segs, marked) = segment(text, &fs);
        assert_eq!(marked, vec![true, true]);
        assert_eq!(
            shown(&segs),
            vec![
                (vec![], "a".to_owned()),
                (vec![0], "bcd".to_owned()),
                (vec![0, 1], "ef".to_owned()),
                (vec![1], "gh".to_owned()),
                (vec![], "ij".to_owned()),
            ]
        );
    }

    #[test]
    fn a_credential_span_shows_only_its_preview_even_when_overlapped() {
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let text = format!("key {secret} end");
        let cred = f(
            Kind::Credential,
            4..4 + secret.len(),
            "Remove it. [ghp_… 40 chars]",
        );
        // A finding that ends inside the secret must not cut it and expose part of it.
        let other = f(Kind::LongNumber, 2..10, "m");
        let (segs, _) = segment(&text, &[other, cred]);
        assert_eq!(
            shown(&segs),
            vec![
                (vec![], "ke".to_owned()),
                (vec![0], "y ".to_owned()),
                (vec![0, 1], "[ghp_… 40 chars]".to_owned()),
                (vec![], " end".to_owned()),
            ]
        );
    }

    #[test]
    fn a_credential_span_off_a_character_boundary_is_still_masked() {
        // 'é' is two bytes: 2..5 starts inside it.
        let fs = [f(Kind::Credential, 2..5, "Remove it.")];
        let (segs, marked) = segment("héllo", &fs);
        assert_eq!(marked, vec![false]);
        let shown: String = shown(&segs).into_iter().map(|(_, t)| t).collect();
        assert_eq!(shown, "h[3 chars]o", "the whole 'é' is hidden with 'll'");
    }

    #[test]
    fn a_credential_without_preview_shows_its_length() {
        let fs = [f(Kind::Credential, 0..8, "Remove it.")];
        let (segs, _) = segment("hunter22", &fs);
        assert_eq!(shown(&segs), vec![(vec![0], "[8 chars]".to_owned())]);
    }

    #[test]
    fn invisible_characters_become_labels_but_emoji_stay_whole() {
        let text =
            "a\u{200B}b \u{202E}x \u{E0069}\u{E0067} \u{1F44D}\u{FE0F} \u{1F468}\u{200D}\u{1F469}";
        let (segs, _) = segment(text, &[]);
        assert_eq!(
            shown(&segs)[0].1,
            "a<U+200B>b <U+202E>x <tags \"ig\"> \u{1F44D}\u{FE0F} \u{1F468}\u{200D}\u{1F469}"
        );
    }

    #[test]
    fn spans_outside_the_text_get_no_mark_and_empty_spans_are_points() {
        let fs = [f(Kind::Length, 3..3, "m"), f(Kind::Email, 2..99, "m")];
        let (segs, marked) = segment("héllo", &fs);
        assert_eq!(marked, vec![true, false]);
        assert_eq!(
            shown(&segs),
            vec![
                (vec![], "hé".to_owned()),
                (vec![0], String::new()),
                (vec![], "llo".to_owned()),
            ]
        );
        // Not on a character boundary: no mark either.
        let (_, marked) = segment("héllo", &[f(Kind::Email, 2..3, "m")]);
        assert_eq!(marked, vec![false]);
    }
}
