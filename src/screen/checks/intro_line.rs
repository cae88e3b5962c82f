//! `intro_line`: the draft opens with the model talking to the operator.
//!
//! "Here is a friendly reply to the customer:", "Sure! Here's the response:", "Below is a
//! draft...", "I've drafted...", "Draft reply:" are words for the person who asked for the
//! draft; sent as they are, they tell the customer a machine wrote the reply. Only the first
//! non-empty line counts (and the line after it when the first is only "Sure!" or "Of
//! course!"); the span is that line.
//!
//! A line counts when, after optional interjections ("Sure!", "Certainly,"), it
//! - opens with "here is/here's/here are/below is/below you'll find/please find below" or
//!   "I've written/prepared/composed" followed by a noun phrase naming the reply itself: a
//!   *reply*, *response* or *draft* (not "our response", not "a reply from our team"), or an
//!   *email*, *message*, *answer*, *version*... that is described as a draft ("a polite
//!   email", "an updated version"), addressed to the customer ("an email to the customer",
//!   "a message you can send") or announced with a colon ("Here's the email:");
//! - says "here's how you could respond" or "I've drafted";
//! - is a label like "Draft reply:", "Response:", "Suggested response to the customer:".
//!
//! So "Here is your tracking number: ..." and "Below you will find the steps..." (nothing
//! about a reply) and "Here is the email we sent you" (no draft wording, no colon after the
//! noun) are not intro lines, nor is anything after the first line.

use memchr::memchr;

use super::Emit;
use crate::rules::{Vocabulary, is_word_byte};

/// Only this much of the first line is read; an operator preamble comes first.
const MAX_LINE: usize = 400;
const MAX_WORDS: usize = 24;

/// The word lists the check reads, from `[[words]]` tables with `check = "intro_line"` (the
/// embedded ones are in `rules/draft-words.toml`): lower-cased, matched case-insensitively.
#[derive(Debug, Clone, Default)]
pub(crate) struct Words {
    /// Nouns that name the reply itself whatever the wording around them.
    strong: Vec<String>,
    /// Nouns that name the reply only with draft wording, an addressee or a colon.
    weak: Vec<String>,
    /// Words that describe a draft ("a polite email", "a revised version").
    style: Vec<String>,
    /// Words after the noun that show who the text is for ("to the customer", "you can send").
    qualifiers: Vec<String>,
    /// Words that end the noun phrase after "here is": the rest is about something else.
    stops: Vec<String>,
    /// Verbs after "I've" / "I have" that need a reply noun after them.
    wrote: Vec<String>,
    /// Words a line may consist of and still be only an interjection ("Sure!", "Of course!").
    interjections: Vec<String>,
}

impl Words {
    /// The list names, as `[[words]]` tables give them.
    pub(crate) const LISTS: &'static [&'static str] = &[
        "strong",
        "weak",
        "style",
        "qualifiers",
        "stops",
        "wrote",
        "interjections",
    ];
}

impl From<&Vocabulary> for Words {
    fn from(v: &Vocabulary) -> Self {
        let list = |name: &str| v.words("intro_line", name);
        Words {
            strong: list("strong"),
            weak: list("weak"),
            style: list("style"),
            qualifiers: list("qualifiers"),
            stops: list("stops"),
            wrote: list("wrote"),
            interjections: list("interjections"),
        }
    }
}

/// Reports the first line when it is addressed to the operator rather than the customer.
pub(crate) fn run(view: &str, v: &Words, emit: &mut Emit<'_>) {
    let b = view.as_bytes();
    let Some(start) = b.iter().position(|&c| c != b' ' && c != b'\n') else {
        return;
    };
    let end = line_end(b, start);
    let line = head(view, start, end);
    // A line that cannot start an intro cannot be only interjections either (its first word
    // would be one): most drafts stop here.
    if !may_be_intro(line, v) {
        return;
    }
    if reads_as_intro(line, v) {
        emit(start..end, None);
        return;
    }
    if is_interjection(&view[start..end], v) && end < b.len() {
        let next = end + 1;
        let next_start = next + b[next..].iter().take_while(|&&c| c == b' ').count();
        if next_start < b.len() {
            let next_end = line_end(b, next_start);
            if is_intro(head(view, next_start, next_end), v) {
                emit(start..next_end, None);
            }
        }
    }
}

/// The first [`MAX_LINE`] bytes of `view[start..end]`, cut at a char boundary.
fn head(view: &str, start: usize, end: usize) -> &str {
    let mut cut = end.min(start + MAX_LINE);
    while !view.is_char_boundary(cut) {
        cut -= 1;
    }
    &view[start..cut]
}

/// End of the line starting at `start`, trailing spaces trimmed.
fn line_end(b: &[u8], start: usize) -> usize {
    let mut end = memchr(b'\n', &b[start..]).map_or(b.len(), |k| start + k);
    while end > start && b[end - 1] == b' ' {
        end -= 1;
    }
    end
}

fn is<S: AsRef<str>>(word: &str, list: &[S]) -> bool {
    list.iter().any(|w| w.as_ref().eq_ignore_ascii_case(word))
}

fn eq(word: &str, w: &str) -> bool {
    word.eq_ignore_ascii_case(w)
}

/// What [`tokens`] yields: a word, or the end of a clause (`.`, `!`, `?`, `;`, `:`, or `None`
/// at the end of the line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'l> {
    Word(&'l str),
    End(Option<u8>),
}

/// The words (runs of letters, digits, apostrophes and hyphens, those two trimmed off the
/// ends) and clause ends of `line`, read lazily: most first lines are settled by their first
/// word or first few.
fn tokens(line: &str) -> impl Iterator<Item = Token<'_>> {
    let b = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i <= b.len() {
            match b.get(i).copied() {
                Some(c) if is_word_byte(c) => {
                    let s = i;
                    while i < b.len() && is_word_byte(b[i]) {
                        i += 1;
                    }
                    // Apostrophes and hyphens are trimmed off the ends (bytes, not chars: both
                    // are ASCII); a dash on its own (" - ") is punctuation, not a word.
                    let (mut from, mut to) = (s, i);
                    while from < to && matches!(b[from], b'-' | b'\'') {
                        from += 1;
                    }
                    while to > from && matches!(b[to - 1], b'-' | b'\'') {
                        to -= 1;
                    }
                    if from < to {
                        return Some(Token::Word(&line[from..to]));
                    }
                }
                c @ (None | Some(b'.' | b'!' | b'?' | b';' | b':')) => {
                    i += 1;
                    return Some(Token::End(c));
                }
                Some(_) => i += 1,
            }
        }
        None
    })
}

/// Splits `line` into clauses and calls `f` with each clause's words (the first
/// [`MAX_WORDS`]) and whether a colon ended it, until `f` returns `Some`.
fn clauses<T>(line: &str, mut f: impl FnMut(&[&str], bool) -> Option<T>) -> Option<T> {
    let mut words: [&str; MAX_WORDS] = [""; MAX_WORDS];
    let mut n = 0;
    for token in tokens(line) {
        match token {
            Token::Word(w) => {
                if n < MAX_WORDS {
                    words[n] = w;
                    n += 1;
                }
            }
            Token::End(c) => {
                if n > 0
                    && let Some(out) = f(&words[..n], c == Some(b':'))
                {
                    return Some(out);
                }
                n = 0;
            }
        }
    }
    None
}

/// Whether the line holds only interjections ("Sure!", "Of course!", "Certainly."): at most
/// four to a clause.
fn is_interjection(line: &str, v: &Words) -> bool {
    let mut any = false;
    let mut in_clause = 0;
    for token in tokens(line) {
        match token {
            Token::Word(w) => {
                in_clause += 1;
                if in_clause > 4 || !is(w, &v.interjections) {
                    return false;
                }
                any = true;
            }
            Token::End(_) => in_clause = 0,
        }
    }
    any
}

/// The words an opener starts with (see [`opener`]).
const OPENERS: &[&str] = &[
    "here's",
    "heres",
    "here",
    "below",
    "find",
    "following",
    "attached",
    "i've",
    "ive",
    "i",
];

/// Whether `line` can be an intro line at all, from its first words: it starts with an
/// interjection or an opener, or its first clause is a label (a colon within five words).
/// Customer-facing first lines fail at their first word or clause, without the full reading.
fn may_be_intro(line: &str, v: &Words) -> bool {
    let mut words = 0;
    for token in tokens(line) {
        match token {
            Token::Word(w) => {
                if words == 0 && (is(w, &v.interjections) || is(w, OPENERS)) {
                    return true;
                }
                words += 1;
                if words > 5 {
                    return false;
                }
            }
            Token::End(c) if words > 0 => return c == Some(b':'),
            Token::End(_) => {}
        }
    }
    false
}

fn is_intro(line: &str, v: &Words) -> bool {
    may_be_intro(line, v) && reads_as_intro(line, v)
}

/// The whole reading of [`is_intro`], without the shortcut.
fn reads_as_intro(line: &str, v: &Words) -> bool {
    // Clauses before the one that speaks to the operator may only be interjections.
    clauses(line, |words, colon| {
        if clause_is_intro(words, colon, v) {
            return Some(true);
        }
        if words.iter().all(|w| is(w, &v.interjections)) {
            None
        } else {
            Some(false)
        }
    })
    .unwrap_or(false)
}

fn clause_is_intro(words: &[&str], colon: bool, v: &Words) -> bool {
    // A label: "Draft reply:", "Response:", "Suggested response to the customer:", "Reply to
    // Sam:"; not "Response time:".
    if colon
        && words.len() <= 5
        && words.iter().any(|w| is(w, &v.strong))
        && (words
            .last()
            .is_some_and(|w| is(w, &v.strong) || is(w, &["customer", "user", "client"]))
            || (is(words[0], &v.strong) && words.get(1).is_some_and(|w| is(w, &["to", "for"]))))
    {
        return true;
    }
    // The opener may follow a few interjection words ("Sure thing, here's...").
    for j in 0..words.len().min(5) {
        if let Some(found) = opener(words, j, colon, v) {
            return found;
        }
        if !is(words[j], &v.interjections) {
            break;
        }
    }
    false
}

/// Looks for an opener at `words[j]`: `Some(verdict)` when one is there.
fn opener(words: &[&str], j: usize, colon: bool, v: &Words) -> Option<bool> {
    let w = |k: usize| words.get(k).copied().unwrap_or("");
    let rest = |k: usize| words.get(k..).unwrap_or(&[]);
    // "here's", "here is", "here are"
    let after_here = if eq(w(j), "here's") || eq(w(j), "heres") {
        Some(j + 1)
    } else if eq(w(j), "here") && (eq(w(j + 1), "is") || eq(w(j + 1), "are")) {
        Some(j + 2)
    } else if eq(w(j), "below") {
        // "below is", "below are", "below you'll find", "below you will find"
        if eq(w(j + 1), "is") || eq(w(j + 1), "are") {
            Some(j + 2)
        } else if eq(w(j + 1), "you'll") && eq(w(j + 2), "find") {
            Some(j + 3)
        } else if eq(w(j + 1), "you") && eq(w(j + 3), "find") {
            Some(j + 4)
        } else {
            None
        }
    } else if (eq(w(j), "find") && eq(w(j + 1), "below"))
        || (eq(w(j), "following") && eq(w(j + 1), "is"))
        || (eq(w(j), "attached") && eq(w(j + 1), "is"))
    {
        Some(j + 2)
    } else {
        None
    };
    if let Some(k) = after_here {
        if eq(w(k), "how") {
            // "Here's how you could respond:"
            let verdict = rest(k + 1).iter().take(6).any(|x| {
                is(
                    x,
                    &[
                        "respond", "reply", "answer", "word", "phrase", "write", "put",
                    ],
                )
            });
            return Some(verdict);
        }
        return Some(names_the_reply(rest(k), colon, v));
    }
    // "I've drafted", "I have written a reply", "I wrote a draft"
    let after_i = if eq(w(j), "i've") || eq(w(j), "ive") {
        Some(j + 1)
    } else if eq(w(j), "i") && eq(w(j + 1), "have") {
        Some(j + 2)
    } else if eq(w(j), "i") {
        Some(j + 1)
    } else {
        None
    };
    if let Some(k) = after_i {
        if eq(w(k), "drafted") || eq(w(k), "redrafted") {
            return Some(true);
        }
        if is(w(k), &v.wrote) {
            let mut k = k + 1;
            // "put together", "come up with"
            while is(w(k), &["together", "up", "with"]) {
                k += 1;
            }
            return Some(names_the_reply(rest(k), colon, v));
        }
    }
    None
}

/// Whether `words` (what follows "here is") start with a noun phrase naming the reply.
fn names_the_reply(words: &[&str], colon: bool, v: &Words) -> bool {
    let mut your = false;
    let mut styled = false;
    for (idx, &w) in words.iter().enumerate().take(7) {
        if eq(w, "our") {
            return false;
        }
        if eq(w, "your") {
            your = true;
        }
        let strong = is(w, &v.strong);
        let weak = is(w, &v.weak);
        if strong || weak {
            let after = &words[idx + 1..];
            let next_is_strong = after.first().is_some_and(|n| is(n, &v.strong));
            if after.first().is_some_and(|n| eq(n, "from")) {
                // "a reply from our billing team"
                return false;
            }
            if strong || next_is_strong {
                return true;
            }
            if your {
                return false;
            }
            return styled
                || (colon && after.is_empty())
                || after.iter().take(8).any(|n| is(n, &v.qualifiers));
        }
        if is(w, &v.style) {
            styled = true;
        }
        if is(w, &v.stops) {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    /// The embedded word lists (`rules/draft-words.toml`).
    fn builtin() -> Words {
        Words::from(&crate::rules::builtin_vocabulary(&[
            "rules/draft-words.toml",
        ]))
    }

    fn found(text: &str) -> Option<&str> {
        let mut out = None;
        run(text, &builtin(), &mut |r: Range<usize>, _| {
            out = Some(&text[r])
        });
        out
    }

    #[test]
    fn operator_preambles_are_found() {
        for (text, line) in [
            (
                "Here is a friendly reply to the customer:\nHi Sam, thanks.",
                "Here is a friendly reply to the customer:",
            ),
            (
                "Sure! Here's the response:\nHi Sam,",
                "Sure! Here's the response:",
            ),
            (
                "Certainly, here is a draft:\nHi",
                "Certainly, here is a draft:",
            ),
            (
                "Certainly. Here is a draft:\nHi",
                "Certainly. Here is a draft:",
            ),
            (
                "Below is a draft reply you can send:\nHello",
                "Below is a draft reply you can send:",
            ),
            ("Below is a draft…\nHello", "Below is a draft…"),
            (
                "I've drafted the following reply.\nHi",
                "I've drafted the following reply.",
            ),
            (
                "I have written a reply for you:\nHi",
                "I have written a reply for you:",
            ),
            ("Draft reply:\nHi Sam", "Draft reply:"),
            ("Response:\nHi Sam", "Response:"),
            ("Reply to Sam:\nHi Sam", "Reply to Sam:"),
            (
                "Okay, here is the revised message:\nHi",
                "Okay, here is the revised message:",
            ),
            (
                "Suggested response to the customer:\nHi",
                "Suggested response to the customer:",
            ),
            (
                "Of course! Here's a reply you can send:\nHi",
                "Of course! Here's a reply you can send:",
            ),
            (
                "Here's a polite email you can send:\nHi",
                "Here's a polite email you can send:",
            ),
            (
                "Here is an email to the customer:\nHi",
                "Here is an email to the customer:",
            ),
            ("Here's the email:\nHi", "Here's the email:"),
            (
                "Here's an updated version of the reply:\nHi",
                "Here's an updated version of the reply:",
            ),
            (
                "Here's how you could respond:\nHi",
                "Here's how you could respond:",
            ),
            (
                "Absolutely - here's a short, empathetic response: Hi Sam, sorry.",
                "Absolutely - here's a short, empathetic response: Hi Sam, sorry.",
            ),
            ("\n  Here is the response:\nHi", "Here is the response:"),
            (
                "Sure!\nHere's the response:\nHi",
                "Sure!\nHere's the response:",
            ),
            ("**Draft reply:**\nHi", "**Draft reply:**"),
            (
                "HERE IS A REPLY TO THE CUSTOMER:\nHi",
                "HERE IS A REPLY TO THE CUSTOMER:",
            ),
        ] {
            assert_eq!(found(text), Some(line), "{text:?}");
        }
    }

    /// Lines made of the words and punctuation the reading turns on, and others.
    fn line_strategy() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        let pieces: Vec<&str> = [
            "here",
            "here's",
            "is",
            "are",
            "below",
            "you'll",
            "find",
            "i",
            "i've",
            "have",
            "written",
            "drafted",
            "a",
            "the",
            "our",
            "your",
            "reply",
            "response",
            "draft",
            "email",
            "polite",
            "to",
            "customer",
            "sure",
            "of",
            "course",
            "certainly",
            "thanks",
            "order",
            "how",
            "respond",
            "following",
            "attached",
            "--",
            "-",
            "'",
            ":",
            ".",
            "!",
            "?",
            ";",
            ",",
            "(",
            "\u{e9}",
        ]
        .into_iter()
        .collect();
        proptest::collection::vec(proptest::sample::select(pieces), 0..14)
            .prop_map(|words| words.join(" "))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The shortcut only turns away lines the full reading turns away.
        #[test]
        fn the_shortcut_agrees_with_the_full_reading(line in line_strategy()) {
            proptest::prop_assert_eq!(is_intro(&line, &builtin()), reads_as_intro(&line, &builtin()), "{:?}", line);
        }

        /// The lazy interjection test says what the clause-by-clause definition says.
        #[test]
        fn interjection_lines_match_the_clause_definition(line in line_strategy()) {
            let mut any = false;
            let by_clauses = clauses(&line, |words, _| {
                any = true;
                (words.len() > 4 || !words.iter().all(|w| is(w, &builtin().interjections))).then_some(())
            })
            .is_none()
                && any;
            proptest::prop_assert_eq!(is_interjection(&line, &builtin()), by_clauses, "{:?}", line);
        }
    }

    #[test]
    fn a_long_first_line_is_cut_at_a_char_boundary() {
        for pad in 0..4 {
            let line = format!(
                "Here is a reply: {}{}",
                "x".repeat(380 + pad),
                "é".repeat(20)
            );
            assert_eq!(found(&line), Some(line.as_str()));
        }
    }

    #[test]
    fn customer_facing_openings_are_not_intro_lines() {
        for text in [
            "Hi Sam,\nHere is your tracking number: ORD-48213.",
            "Here is your tracking number: ORD-48213.",
            "Here is your refund confirmation, Sam. It went out today.",
            "Hello! Below you will find the steps to reset your router.",
            "Here is the email we sent you on Monday.",
            "Here is a copy of the email you sent us.",
            "Here is our response to your complaint:",
            "Here is a reply from our billing team: we refunded you.",
            "Here are the steps:",
            "Response time: 24 hours.",
            "Great news! Here is your replacement order:",
            "Thanks for your patience! Here's an update:",
            "Hi Sam, here's a quick update on your order:",
            "I have written to our warehouse team.",
            "I've prepared a refund for you.",
            "Sure! We can do that.",
            "Sure!\nHi Sam, thanks.",
            "Hi Sam,\nHere is a friendly reply to the customer:",
            "Thanks for your reply. We have refunded you.",
            "Here is your message history.",
            "",
            "   \n  ",
        ] {
            assert_eq!(found(text), None, "{text:?}");
        }
    }
}
