//! `placeholder`: text left in a draft for someone to fill in.
//!
//! A reply that still says `[Customer's Name]` tells the customer nobody read it. Flagged:
//! - square brackets holding a label: Title Case or ALL CAPS words (`[Your Name]`,
//!   `[Order Number]`, `[DATE]`), an instruction (`[insert date]`, `[enter link here]`), a short
//!   lowercase noun phrase ending in a placeholder noun (`[order number]`, `[name]`), an
//!   identifier (`[customer_name]`) or X's (`[XXX]`);
//! - template variables: `{first_name}`, `${name}`, `{0}`, `{{customer.name}}`;
//! - angle brackets holding ALL CAPS (`<NAME>`), snake_case (`<order_id>`) or `<your ...>`,
//!   and any `<<name>>`;
//! - bare X fill-ins: `XXXX`, `xxxx-xxxx`, `XX/XX/XXXX`, and blanks of three or more
//!   underscores (`Name: ____`);
//! - template variables between double underscores: `__FIRST_NAME__`, `__NAME__` (upper case,
//!   two words or a placeholder noun).
//!
//! Not flagged: markdown links `[text](url)` and reference links `[text][1]` or definitions,
//! bracketed asides that read as prose (`[the one from May]`), checkboxes (`[ ]`, `[x]`),
//! citations (`[1]`, `[2, 3]`), editorial marks (`[sic]`, `[Redacted]`), HTML tags (`<br>`,
//! `<b>`, `</p>`, `<BR>`), autolinks (`<https://...>`), comparisons (`a < b > c`), masked numbers
//! (`XXXX-XXXX-XXXX-1234`), words with X's in them (`XXL`) and markdown rules (`___` alone on a
//! line).
//!
//! Speed: a placeholder starts with `[`, `{`, `<`, `_`, or an `x` or `X` that starts a word.
//! Those are literals of the rule engine's prefilter (see [`ANCHOR_LITERALS`]), found in the
//! same pass as every other rule's literals; the check reads only the text from those offsets.
//! Called without them (unit tests, a caller outside the engine) it finds them with `memchr3`.

use std::ops::Range;

use memchr::memchr3_iter;

use super::Emit;
use crate::rules::Vocabulary;

/// The longest bracketed text considered a placeholder.
const MAX_INNER: usize = 60;

/// The word lists the check reads, from `[[words]]` tables with `check = "placeholder"` (the
/// embedded ones are in `rules/draft-words.toml`): lower-cased, matched case-insensitively.
#[derive(Debug, Clone, Default)]
pub(crate) struct Words {
    /// Words after which a bracketed text is an instruction to fill something in.
    fill_verbs: Vec<String>,
    /// The last word of a lowercase bracketed noun phrase that names a value to fill in.
    nouns: Vec<String>,
    /// Words that open a prose aside, not a label (`[the one from May]`).
    determiners: Vec<String>,
    /// Title Case or capitalised bracketed words that are editorial marks, not fill-ins.
    editorial: Vec<String>,
    /// Lowercase words allowed inside a Title Case label (`[Name of Customer]`).
    small_words: Vec<String>,
    /// HTML element names: `<BR>` and `<B>` are markup, not placeholders.
    html_tags: Vec<String>,
}

impl Words {
    /// The list names, as `[[words]]` tables give them.
    pub(crate) const LISTS: &'static [&'static str] = &[
        "fill_verbs",
        "nouns",
        "determiners",
        "editorial",
        "small_words",
        "html_tags",
    ];
}

impl From<&Vocabulary> for Words {
    fn from(v: &Vocabulary) -> Self {
        let list = |name: &str| v.words("placeholder", name);
        Words {
            fill_verbs: list("fill_verbs"),
            nouns: list("nouns"),
            determiners: list("determiners"),
            editorial: list("editorial"),
            small_words: list("small_words"),
            html_tags: list("html_tags"),
        }
    }
}

/// The bytes a placeholder starts with, for the prefilter (which matches ASCII
/// case-insensitively and reports a literal that starts with a letter only at word starts:
/// an X fill-in glued to the word before it is none).
pub(crate) const ANCHOR_LITERALS: &[&[&str]] = &[&["[", "{", "<", "_", "x"]];

/// Reports every placeholder in `view`; the note names its form. `anchors` are offsets where
/// one may start, ascending (the prefilter's hits for [`ANCHOR_LITERALS`]); `None` finds them.
pub(crate) fn run(view: &str, anchors: Option<&[usize]>, v: &Words, emit: &mut Emit<'_>) {
    let b = view.as_bytes();
    match anchors {
        Some(offsets) => {
            let with = |bytes: &'static [u8]| {
                offsets
                    .iter()
                    .copied()
                    .filter(move |&i| bytes.contains(&b[i]))
            };
            run_at(b, with(b"[{<"), with(b"Xx_"), v, emit);
        }
        None => run_at(
            b,
            memchr3_iter(b'[', b'{', b'<', b),
            memchr3_iter(b'X', b'x', b'_', b),
            v,
            emit,
        ),
    }
}

/// Reports the placeholders opened by a bracket at one of `brackets`, then the X fill-ins and
/// underscore blanks starting at one of `fills` (both ascending; `fills` may hold X's inside
/// words, which are passed over).
fn run_at(
    b: &[u8],
    brackets: impl Iterator<Item = usize>,
    fills: impl Iterator<Item = usize>,
    v: &Words,
    emit: &mut Emit<'_>,
) {
    // Ranges already reported, in order; X runs inside them are not reported again.
    let mut flagged: Vec<Range<usize>> = Vec::new();
    for i in brackets {
        if flagged.last().is_some_and(|r| i < r.end) {
            continue;
        }
        let hit = match b[i] {
            b'[' => square(b, i, v),
            b'{' => curly(b, i),
            _ => angle(b, i, v),
        };
        if let Some((span, note)) = hit {
            emit(span.clone(), Some(note.to_owned()));
            flagged.push(span);
        }
    }
    let mut next_flagged = 0;
    // Everything before `pos` belongs to a run already read.
    let mut pos = 0;
    for at in fills {
        if at < pos {
            continue;
        }
        let (hit, end) = if b[at] == b'_' {
            underscores(b, at, v)
        } else {
            x_fill(b, at)
        };
        pos = end.max(at + 1);
        let Some(span) = hit else { continue };
        while flagged
            .get(next_flagged)
            .is_some_and(|r| r.end <= span.start)
        {
            next_flagged += 1;
        }
        if flagged
            .get(next_flagged)
            .is_some_and(|r| r.start < span.end)
        {
            continue;
        }
        let note = if b[at] != b'_' {
            "an XXXX fill-in"
        } else if b[span.clone()].iter().all(|&c| c == b'_') {
            "a blank to fill in"
        } else {
            "a __template__ variable"
        };
        emit(span, Some(note.to_owned()));
    }
}

/// Finds the closing `close` for an opener whose inner text starts at `from`: within
/// [`MAX_INNER`] bytes, on the same line, with no other opener in between.
fn closing(b: &[u8], from: usize, open: u8, close: u8) -> Option<usize> {
    let limit = (from + MAX_INNER + 1).min(b.len());
    for (k, &c) in b.get(from..limit)?.iter().enumerate() {
        if c == close {
            return Some(from + k);
        }
        if c == open || c == b'\n' {
            return None;
        }
    }
    None
}

fn square(b: &[u8], i: usize, v: &Words) -> Option<(Range<usize>, &'static str)> {
    let close = closing(b, i + 1, b'[', b']')?;
    match b.get(close + 1) {
        // Markdown inline and reference links.
        Some(b'(' | b'[') => return None,
        // A reference definition `[docs]: https://...` at the start of a line.
        Some(b':') if i == 0 || b[i - 1] == b'\n' => return None,
        _ => {}
    }
    square_label(&b[i + 1..close], v).then_some((i..close + 1, "a [bracketed] placeholder"))
}

/// Whether the text inside `[...]` is a label to fill in rather than prose, a checkbox or a
/// citation.
fn square_label(inner: &[u8], v: &Words) -> bool {
    let inner = inner.trim_ascii();
    // `[ ]`, `[x]`, `[X]`, `[1]`, `[2, 3]`, `[4-6]`
    if inner.len() < 2
        || inner
            .iter()
            .all(|c| matches!(c, b'0'..=b'9' | b',' | b'-' | b' '))
    {
        return false;
    }
    if is_x_fill(inner, 3) {
        return true;
    }
    if !inner.iter().all(|&c| {
        c.is_ascii_alphanumeric()
            || matches!(c, b' ' | b'\'' | b'_' | b'.' | b'-' | b'/' | b'&' | b'#')
    }) {
        return false;
    }
    if !inner.contains(&b' ') && inner.contains(&b'_') {
        // `[customer_name]`, `[___]`
        return true;
    }
    // At most six words, kept on the stack. A label's words are split at spaces only, not
    // read as prose words (`rules::words`): `e.g.`, `#1` and `and/or` stay whole.
    let mut buf: [&[u8]; 6] = [&[]; 6];
    let mut n = 0;
    for w in inner.split(|&c| c == b' ').filter(|w| !w.is_empty()) {
        let Some(slot) = buf.get_mut(n) else {
            return false;
        };
        *slot = w;
        n += 1;
    }
    let words = &buf[..n];
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    if one_of(first, &v.fill_verbs) {
        return true;
    }
    // `[Order #12345]`, `[May 12]`: a filled-in value, not a label.
    if words
        .iter()
        .any(|w| w.iter().filter(|c| c.is_ascii_digit()).count() >= 2)
    {
        return false;
    }
    let starts_upper = |w: &&[u8]| {
        w.first()
            .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'#')
    };
    if first.first().is_some_and(u8::is_ascii_uppercase)
        && words
            .iter()
            .all(|w| starts_upper(w) || one_of(w, &v.small_words))
    {
        // `[Customer's Name]`, `[Order Number]`, `[DATE]`, but not `[Sic]` or `[Redacted]`.
        return !(words.len() == 1 && one_of(first, &v.editorial));
    }
    // `[order number]`, `[your name]`, `[date]`; not `[the one from May]`.
    words.len() <= 4
        && !one_of(first, &v.determiners)
        && one_of(last, &v.nouns)
        && words.iter().all(|w| {
            w.iter()
                .all(|c| c.is_ascii_lowercase() || *c == b'\'' || *c == b'-')
        })
}

fn curly(b: &[u8], i: usize) -> Option<(Range<usize>, &'static str)> {
    let start = if i > 0 && b[i - 1] == b'$' { i - 1 } else { i };
    if b.get(i + 1) == Some(&b'{') {
        // `{{customer.name}}`, `{{ name | default }}`: template syntax, whatever is inside.
        let from = i + 2;
        let limit = (from + MAX_INNER + 2).min(b.len());
        let window = b.get(from..limit)?;
        let close = window.windows(2).position(|w| w == b"}}")?;
        let inner = &window[..close];
        if inner.trim_ascii().is_empty() || inner.iter().any(|&c| c == b'\n' || c == b'{') {
            return None;
        }
        return Some((start..from + close + 2, "a {{template}} variable"));
    }
    let close = closing(b, i + 1, b'{', b'}')?;
    let inner = b[i + 1..close].trim_ascii();
    let ident = inner.first().is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && inner
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b' '))
        // A braced 32-hex-digit id belongs to the foreign_id check.
        && !(inner.len() >= 16 && inner.iter().all(u8::is_ascii_hexdigit));
    // `{0}`, `{1}`: positional format arguments.
    let positional = (1..=2).contains(&inner.len()) && inner.iter().all(u8::is_ascii_digit);
    (ident || positional).then_some((start..close + 1, "a {template} variable"))
}

fn angle(b: &[u8], i: usize, v: &Words) -> Option<(Range<usize>, &'static str)> {
    if b.get(i + 1) == Some(&b'<') {
        // `<<name>>`
        let from = i + 2;
        let limit = (from + MAX_INNER + 2).min(b.len());
        let window = b.get(from..limit)?;
        let close = window.windows(2).position(|w| w == b">>")?;
        let inner = &window[..close];
        let word_like = inner.first().is_some_and(u8::is_ascii_alphabetic)
            && inner
                .iter()
                .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b' ' | b'-'));
        return word_like.then_some((i..from + close + 2, "an <<angle>> placeholder"));
    }
    let close = closing(b, i + 1, b'<', b'>')?;
    let inner = &b[i + 1..close];
    // `</p>`, `<!-- -->`, `< b >`, `<a href="...">`, `<https://...>`, `<bob@example.com>`.
    if !inner.first().is_some_and(u8::is_ascii_alphabetic)
        || !inner
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b' ' | b'-' | b'\''))
    {
        return None;
    }
    let letters = inner.iter().filter(|c| c.is_ascii_alphabetic()).count();
    let all_caps =
        letters >= 2 && !inner.iter().any(u8::is_ascii_lowercase) && !one_of(inner, &v.html_tags);
    let snake = inner.contains(&b'_') && !inner.contains(&b' ');
    let first_word = inner.split(|&c| c == b' ').next().unwrap_or_default();
    let instruction = inner.contains(&b' ')
        && (first_word.eq_ignore_ascii_case(b"your") || one_of(first_word, &v.fill_verbs));
    (all_caps || snake || instruction).then_some((i..close + 1, "an <angle> placeholder"))
}

/// A run of X's starting at `at` (`XXXX`, `xxxx-xxxx`, `XX/XX/XXXX`). Returns the span when it
/// is a fill-in, and where scanning resumes.
fn x_fill(b: &[u8], at: usize) -> (Option<Range<usize>>, usize) {
    let x = b[at];
    let mut end = at;
    while end < b.len() && b[end] == x {
        end += 1;
    }
    if at > 0 && is_word(b[at - 1]) {
        // Inside a word (`boxxx`, `Max`): skip the rest of it.
        return (None, end);
    }
    let mut count = end - at;
    // Further groups joined by one `-`, `/` or space.
    while let (Some(&sep), Some(&next)) = (b.get(end), b.get(end + 1)) {
        if !matches!(sep, b'-' | b'/' | b' ') || next != x {
            break;
        }
        let mut e = end + 1;
        while e < b.len() && b[e] == x {
            e += 1;
        }
        if e < b.len() && is_word(b[e]) {
            break;
        }
        count += e - end - 1;
        end = e;
    }
    let glued = b.get(end).is_some_and(|&c| is_word(c));
    // `XXXX-XXXX-XXXX-1234`: a masked number, not a fill-in.
    let masked = matches!(b.get(end), Some(b'-' | b' ' | b'/'))
        && b.get(end + 1).is_some_and(u8::is_ascii_digit);
    let masked_left =
        at >= 2 && matches!(b[at - 1], b'-' | b' ' | b'/') && b[at - 2].is_ascii_digit();
    if glued || masked || masked_left || count < 4 {
        return (None, end);
    }
    (Some(at..end), end)
}

/// A blank of three or more underscores, not glued to a word and not a markdown rule.
fn underscores(b: &[u8], at: usize, v: &Words) -> (Option<Range<usize>>, usize) {
    let mut end = at;
    while end < b.len() && b[end] == b'_' {
        end += 1;
    }
    if end - at == 2 && !(at > 0 && b[at - 1].is_ascii_alphanumeric()) {
        return dunder(b, at, end, v);
    }
    let glued = (at > 0 && b[at - 1].is_ascii_alphanumeric())
        || b.get(end).is_some_and(u8::is_ascii_alphanumeric);
    if glued || end - at < 3 {
        return (None, end);
    }
    let line_start = b[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |k| k + 1);
    let line_end = b[end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |k| end + k);
    let rule = b[line_start..line_end]
        .iter()
        .all(|&c| matches!(c, b'_' | b' ' | b'-' | b'*'));
    if rule {
        return (None, end);
    }
    (Some(at..end), end)
}

/// A template variable between double underscores, `__FIRST_NAME__` or `__NAME__`: upper-case
/// letters and digits, words joined by single underscores, and either two words or more or a
/// placeholder noun (`__IMPORTANT__` in markdown bold is not one; nor is Python's `__init__`).
/// `open..inner` are the two opening underscores.
fn dunder(b: &[u8], open: usize, inner: usize, v: &Words) -> (Option<Range<usize>>, usize) {
    let mut k = inner;
    while k < b.len() && (b[k].is_ascii_uppercase() || b[k].is_ascii_digit() || b[k] == b'_') {
        if b[k] == b'_' && b.get(k + 1) == Some(&b'_') {
            break;
        }
        k += 1;
    }
    let name = &b[inner..k];
    let closed =
        b.get(k..k + 2) == Some(b"__".as_slice()) && !b.get(k + 2).is_some_and(|&c| is_word(c));
    let shaped = name.first().is_some_and(u8::is_ascii_uppercase)
        && name.len() <= MAX_INNER
        && !name.ends_with(b"_");
    if !(closed && shaped) {
        return (None, inner);
    }
    let words = name.split(|&c| c == b'_').count();
    if words < 2 && !one_of(name, &v.nouns) {
        return (None, k + 2);
    }
    (Some(open..k + 2), k + 2)
}

/// X's (one case) with `-`, `/` or space between groups, at least `min` X's.
fn is_x_fill(inner: &[u8], min: usize) -> bool {
    let Some(&x) = inner.first() else {
        return false;
    };
    (x == b'X' || x == b'x')
        && inner
            .iter()
            .all(|&c| c == x || matches!(c, b'-' | b'/' | b' '))
        && inner.iter().filter(|&&c| c == x).count() >= min
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

fn one_of(word: &[u8], list: &[String]) -> bool {
    list.iter().any(|w| w.as_bytes().eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let v = Words::from(&crate::rules::builtin_vocabulary(&[
            "rules/draft-words.toml",
        ]));
        run(text, None, &v, &mut |r: Range<usize>, _| out.push(&text[r]));
        out
    }

    #[test]
    fn placeholders_are_found() {
        let cases = [
            ("Dear [Customer's Name], thanks.", "[Customer's Name]"),
            ("Best regards,\n[Your Name]", "[Your Name]"),
            ("On [insert date] we ship.", "[insert date]"),
            ("[Agent Name]\nSupport", "[Agent Name]"),
            ("Hi {first_name}, ok", "{first_name}"),
            ("Hi {{customer.name}}!", "{{customer.name}}"),
            (
                "Hi {{ customer.name | default }}!",
                "{{ customer.name | default }}",
            ),
            ("Hi ${name}!", "${name}"),
            ("Order {0} shipped", "{0}"),
            ("Hello <NAME>, hi", "<NAME>"),
            ("Hello <ORDER ID>, hi", "<ORDER ID>"),
            ("Hello <<name>>, hi", "<<name>>"),
            ("Hello <customer_name>, hi", "<customer_name>"),
            ("Hello <your name here>, hi", "<your name here>"),
            ("ending in XXXX is active", "XXXX"),
            ("code xxxx-xxxx works", "xxxx-xxxx"),
            ("born XX/XX/XXXX.", "XX/XX/XXXX"),
            ("card [XXX] ok", "[XXX]"),
            ("at [Company] we", "[Company]"),
            ("on [Date].", "[Date]"),
            ("order [Order Number].", "[Order Number]"),
            ("order [ORDER NUMBER].", "[ORDER NUMBER]"),
            ("order [order number].", "[order number]"),
            ("hi [name],", "[name]"),
            ("hi [customer_name],", "[customer_name]"),
            ("see [Name of Customer].", "[Name of Customer]"),
            (
                "link: [Insert tracking link here]",
                "[Insert tracking link here]",
            ),
            ("Name: ____ thanks", "____"),
            ("Name: [___] thanks", "[___]"),
            ("Hi __FIRST_NAME__, thanks", "__FIRST_NAME__"),
            ("Hi __NAME__.", "__NAME__"),
            ("Order __ORDER_ID__ shipped", "__ORDER_ID__"),
            ("(__AGENT_NAME_2__)", "__AGENT_NAME_2__"),
        ];
        for (text, want) in cases {
            assert_eq!(found(text), vec![want], "{text}");
        }
    }

    #[test]
    fn near_misses_are_not_placeholders() {
        for text in [
            "You can [track your order](https://example.com/track) any time.",
            "See ![photo](https://example.com/a.png).",
            "See [the guide][1] and [Our Guide][docs].",
            "[docs]: https://example.com/docs",
            "The charge [the one from May] has been reversed.",
            "We checked (and double-checked) the address.",
            "- [x] done\n- [ ] to do\n- [X] done",
            "As shown in [1] and [2, 3] and [4-6].",
            "Line one<br>line two <b>bold</b> </p> <BR> <B> <p>",
            "Visit <https://example.com> or mail <bob@example.com>.",
            "if a < b and c > d then",
            "i <3 you",
            "He wrote [sic] and [Redacted] and [Edit].",
            "Card XXXX-XXXX-XXXX-1234 was charged.",
            "Size XXL or XXXL shirts, box xxx.",
            "Love, xxx",
            "Maximum, Xerox, taxi",
            "above\n___\nbelow",
            "a __init__ method and snake_case_name",
            "This is __IMPORTANT__ and __NOTE__ and __Name__.",
            "x__NAME__ and __NAME__x and __FIRST__NAME__ and __NAME_ __ and __A_B_",
            "__ alone __ and __",
            "{\"a\": 1} and {color: red} and {1, 2, 3}",
            "set {0B5A3C2E9D8F4E7AB6C5D4E3F2A1B0C9}",
            "{0B5A3C2E-9D8F-4E7A-B6C5-D4E3F2A1B0C9}",
            "[Hi there, how are you?]",
            "Your order [Order #12345] and [May 12] shipped.",
            "unclosed [Customer Name and { and < and {{",
            "",
        ] {
            assert_eq!(found(text), Vec::<&str>::new(), "{text}");
        }
    }

    #[test]
    fn an_x_placeholder_in_brackets_is_reported_once() {
        assert_eq!(found("a [XXXX] b {XXXX} c"), vec!["[XXXX]", "{XXXX}"]);
        assert_eq!(found("{{XXXX}} XXXX"), vec!["{{XXXX}}", "XXXX"]);
    }
}
