//! What a draft is screened against: this ticket's ids and text, allowed addresses and
//! numbers, the word limit.

use std::collections::HashSet;
use std::sync::Arc;

use uuid::Uuid;

use crate::error::{Error, Result};

/// Per-draft facts the checks need.
///
/// A ticket id is any non-empty text without whitespace (`48213`, `#48213`, `ORD-31415`, a
/// UUID). UUIDs are compared by value: hyphenated, braced, `urn:uuid:` and simple forms, in
/// either case, are the same id. Other ids are compared by their letters and digits, case
/// ignored, so `#48213` and `48213`, or `ORD-31415` and `ord31415`, are one id.
///
/// With the ticket's text ([`ticket_text`](Self::ticket_text)), a draft may repeat the
/// numbers, ids and email addresses the customer wrote, except numbers shaped like a card
/// (passing the Luhn check) or an IBAN, which still block: the customer may have pasted them
/// by mistake, and a reply should not carry them back.
///
/// ```
/// use palisade::Context;
/// let ctx = Context::new("#48213")?
///     .allow_id("{0F0E0D0C-0B0A-4908-8706-050403020100}")?
///     .allow_email("support@example.com")
///     .allow_email("*@help.example.com")
///     .allow_number("0800 123 4567")?
///     .ticket_text("My order 7731 9902 never came; write to jane@example.org.")
///     .max_words(120);
/// assert_eq!(ctx.word_limit(), 120);
/// assert!(ctx.email_allowed("jane@example.org"));
/// assert!(ctx.number_allowed("77319902", false));
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Context {
    ticket_id: Option<Id>,
    allowed_ids: Vec<Id>,
    allowed_emails: Vec<String>,
    /// Digits only.
    allowed_numbers: Vec<String>,
    ticket: Option<Arc<TicketText>>,
    allow_from_ticket: bool,
    foreign_ids: Option<IdPattern>,
    max_words: usize,
}

/// What other tickets' ids look like (`#\d{5,}`, `ORD-\d+`): a regex compiled once and shared
/// by every context of a deployment (a clone is one atomic increment).
///
/// ```
/// let pattern = palisade::IdPattern::new(r"#\d{5,}")?;
/// assert_eq!(pattern.as_str(), r"#\d{5,}");
/// assert!(palisade::IdPattern::new("(").is_err());
/// assert!(palisade::IdPattern::new("x*").is_err()); // matches the empty string
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct IdPattern(Arc<regex::Regex>);

impl PartialEq for IdPattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for IdPattern {}

impl IdPattern {
    /// Compiles the pattern, with the size limits user rules get. A bad regex, or one that
    /// matches the empty string, is an error naming the setting `foreign_id_pattern`.
    pub fn new(pattern: &str) -> Result<Self> {
        let bad = |reason: String| Error::InvalidSetting {
            setting: "foreign_id_pattern".to_owned(),
            reason,
        };
        let regex = regex::RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .dfa_size_limit(1 << 20)
            .build()
            .map_err(|e| bad(e.to_string()))?;
        if regex.is_match("") {
            return Err(bad("matches the empty string".to_owned()));
        }
        Ok(IdPattern(Arc::new(regex)))
    }

    /// The pattern as written.
    ///
    /// ```
    /// assert_eq!(palisade::IdPattern::new("ORD-[0-9]+")?.as_str(), "ORD-[0-9]+");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Written by hand: the ticket text may hold a secret the customer pasted, so only its
        // length is shown.
        f.debug_struct("Context")
            .field("ticket_id", &self.ticket_id.as_ref().map(|i| &i.text))
            .field("allowed_ids", &self.allowed_ids.len())
            .field("allowed_emails", &self.allowed_emails)
            .field("allowed_numbers", &self.allowed_numbers.len())
            .field("ticket_text_bytes", &self.ticket.as_ref().map(|t| t.bytes))
            .field("allow_from_ticket", &self.allow_from_ticket)
            .field(
                "foreign_ids",
                &self.foreign_ids.as_ref().map(IdPattern::as_str),
            )
            .field("max_words", &self.max_words)
            .finish()
    }
}

/// The default word limit of a draft.
pub const DEFAULT_MAX_WORDS: usize = 80;

/// The longest id accepted (ids are not prose).
const MAX_ID_LEN: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Id {
    text: String,
    /// Letters and digits, lower-cased.
    key: String,
    uuid: Option<Uuid>,
}

fn id_key(id: &str) -> String {
    // ASCII ids (nearly all) skip the Unicode tables: same letters and digits, same case.
    if id.is_ascii() {
        let mut key = String::with_capacity(id.len());
        for b in id.bytes().filter(u8::is_ascii_alphanumeric) {
            key.push(char::from(b.to_ascii_lowercase()));
        }
        return key;
    }
    id.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn parse_id(value: &str) -> Result<Id> {
    let bad = |reason: &str| Error::InvalidId {
        value: value.chars().take(80).collect(),
        reason: reason.to_owned(),
    };
    let text = value.trim();
    if text.is_empty() {
        return Err(bad("empty"));
    }
    if text.chars().any(char::is_whitespace) {
        return Err(bad("contains whitespace"));
    }
    if text.len() > MAX_ID_LEN {
        return Err(bad(&format!("over {MAX_ID_LEN} bytes")));
    }
    Ok(Id {
        text: text.to_owned(),
        key: id_key(text),
        uuid: Uuid::parse_str(text).ok(),
    })
}

/// What the checks need of the ticket's text, worked out once per context into sets, so each
/// lookup is one hash however long the ticket (a hostile draft may hold thousands of
/// addresses or numbers to look up).
#[derive(Debug, PartialEq, Eq)]
struct TicketText {
    /// Its length, for `Debug`.
    bytes: usize,
    /// Its words, ASCII lower-cased: runs between whitespace and `,;:()<>[]{}"'`, without a
    /// sentence's closing `.`, `!` or `?` (emails, ids, UUIDs).
    tokens: HashSet<String>,
    /// The digits of every run of digits and number punctuation (`5501 2377`, `+44 (0)20
    /// 7946 0958`), and of each space-separated part of such a run (`12345678 2024`).
    numbers: HashSet<String>,
}

/// Characters between a ticket's tokens besides whitespace.
fn splits_tokens(c: char) -> bool {
    c.is_whitespace() || ",;:()<>[]{}\"'".contains(c)
}

impl TicketText {
    fn new(text: &str) -> Self {
        let tokens = text
            .split(splits_tokens)
            .map(|t| t.trim_end_matches(['.', '!', '?']).to_ascii_lowercase())
            .filter(|t| !t.is_empty())
            .collect();
        let mut numbers = HashSet::new();
        let (mut run, mut part) = (String::new(), String::new());
        for c in text.chars().chain(std::iter::once('\n')) {
            if c.is_ascii_digit() {
                run.push(c);
                part.push(c);
                continue;
            }
            if c == ' ' && !part.is_empty() {
                numbers.insert(std::mem::take(&mut part));
            }
            if !matches!(c, ' ' | '-' | '(' | ')' | '+' | '.' | '/') {
                if !part.is_empty() {
                    numbers.insert(std::mem::take(&mut part));
                }
                if !run.is_empty() {
                    numbers.insert(std::mem::take(&mut run));
                }
            }
        }
        TicketText {
            bytes: text.len(),
            tokens,
            numbers,
        }
    }

    /// Whether the ticket holds `token` (lower case) as one of its words.
    fn has_token(&self, token: &str) -> bool {
        self.tokens.contains(token)
    }
}

impl Context {
    /// A context for the ticket with this id: any non-empty text without whitespace.
    ///
    /// ```
    /// use palisade::Context;
    /// assert!(Context::new("ORD-31415").is_ok());
    /// assert!(Context::new("#48213").is_ok());
    /// assert!(Context::new("two words").is_err());
    /// assert!(Context::new("").is_err());
    /// ```
    pub fn new(ticket_id: &str) -> Result<Self> {
        Ok(Context {
            ticket_id: Some(parse_id(ticket_id)?),
            ..Context::without_ticket()
        })
    }

    /// A context with no ticket id: every UUID in the draft is foreign.
    ///
    /// ```
    /// assert_eq!(palisade::Context::without_ticket().ticket_id(), None);
    /// ```
    pub fn without_ticket() -> Self {
        Context {
            ticket_id: None,
            allowed_ids: Vec::new(),
            allowed_emails: Vec::new(),
            allowed_numbers: Vec::new(),
            ticket: None,
            allow_from_ticket: true,
            foreign_ids: None,
            max_words: DEFAULT_MAX_WORDS,
        }
    }

    /// Allows another id that belongs to this ticket (a linked ticket, the order), in any
    /// form [`new`](Self::new) takes.
    ///
    /// ```
    /// # use palisade::Context;
    /// let ctx = Context::without_ticket()
    ///     .allow_id("urn:uuid:6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?
    ///     .allow_id("#55120")?;
    /// assert!(ctx.id_text_allowed("#55120"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn allow_id(mut self, id: &str) -> Result<Self> {
        self.allowed_ids.push(parse_id(id)?);
        Ok(self)
    }

    /// Allows an email address (`support@example.com`) or a whole domain (`@example.com`,
    /// `*@example.com` or `example.com`). Compared case-insensitively.
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().allow_email("Support@Example.com");
    /// assert!(ctx.email_allowed("support@example.com"));
    /// ```
    pub fn allow_email(mut self, address_or_domain: &str) -> Self {
        let a = address_or_domain.trim().to_ascii_lowercase();
        let a = a.strip_prefix('*').map_or(a.clone(), str::to_owned);
        self.allowed_emails.push(a);
        self
    }

    /// Allows a number (a hotline, the company's account): compared by its digits, so
    /// `0800 123 4567` also allows `08001234567`. It must hold a digit.
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().allow_number("0800 123 4567")?;
    /// assert!(ctx.number_allowed("08001234567", false));
    /// assert!(palisade::Context::without_ticket().allow_number("none").is_err());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn allow_number(mut self, number: &str) -> Result<Self> {
        let digits: String = number.chars().filter(char::is_ascii_digit).collect();
        if digits.is_empty() {
            return Err(Error::InvalidSetting {
                setting: "allow_numbers".to_owned(),
                reason: format!(
                    "{:?} has no digits",
                    number.chars().take(40).collect::<String>()
                ),
            });
        }
        self.allowed_numbers.push(digits);
        Ok(self)
    }

    /// The text of the ticket the draft answers. Numbers, ids and email addresses the
    /// customer wrote there may be repeated in the draft (unless
    /// [`allow_from_ticket`](Self::allow_from_ticket) is off), except card numbers that pass
    /// the Luhn check and IBANs.
    ///
    /// ```
    /// use palisade::{Context, Screener};
    /// let ctx = Context::new("48213")?.ticket_text("Where is order 55012377?");
    /// let report = Screener::new().screen(&ctx, "Order 55012377 ships today.")?;
    /// assert!(!report.is_blocked());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn ticket_text(mut self, text: &str) -> Self {
        self.ticket = Some(Arc::new(TicketText::new(text)));
        self
    }

    /// Whether what the customer wrote in the ticket text may be repeated (default: yes).
    ///
    /// ```
    /// use palisade::{Context, Screener};
    /// let ctx = Context::new("48213")?
    ///     .ticket_text("Where is order 55012377?")
    ///     .allow_from_ticket(false);
    /// assert!(Screener::new().screen(&ctx, "Order 55012377 ships today.")?.is_blocked());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn allow_from_ticket(mut self, allow: bool) -> Self {
        self.allow_from_ticket = allow;
        self
    }

    /// Other tickets' ids, besides UUIDs: a match of `pattern` in the draft that is not this
    /// ticket's id, an allowed id or an id the customer wrote in the ticket is reported as a
    /// foreign id, under the screener's `foreign_id` rule (its severity and message; nothing
    /// when that rule is off).
    ///
    /// ```
    /// use palisade::{Context, IdPattern, Kind, Screener};
    /// let ours = IdPattern::new(r"#\d{5,}")?;
    /// let ctx = Context::new("#48213")?.foreign_ids(&ours);
    /// let report = Screener::new().screen(&ctx, "Your ticket #48213 is linked to #55120.")?;
    /// assert_eq!(report.findings().len(), 1);
    /// assert_eq!(report.findings()[0].kind(), Kind::ForeignId);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn foreign_ids(mut self, pattern: &IdPattern) -> Self {
        self.foreign_ids = Some(pattern.clone());
        self
    }

    /// The compiled foreign-id pattern, for the screener.
    pub(crate) fn foreign_pattern(&self) -> Option<&regex::Regex> {
        self.foreign_ids.as_ref().map(|p| &*p.0)
    }

    /// Sets the word limit (default [`DEFAULT_MAX_WORDS`]).
    ///
    /// ```
    /// assert_eq!(palisade::Context::without_ticket().max_words(10).word_limit(), 10);
    /// ```
    pub fn max_words(mut self, limit: usize) -> Self {
        self.max_words = limit;
        self
    }

    /// The ticket's own id, as given (trimmed).
    ///
    /// ```
    /// let ctx = palisade::Context::new("ORD-31415")?;
    /// assert_eq!(ctx.ticket_id(), Some("ORD-31415"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn ticket_id(&self) -> Option<&str> {
        self.ticket_id.as_ref().map(|i| i.text.as_str())
    }

    /// The ticket's own id when it is a UUID.
    ///
    /// ```
    /// let ctx = palisade::Context::new("6F1C2D3E4B5A4C6D8E7F9A0B1C2D3E4F")?;
    /// assert_eq!(ctx.ticket_uuid().unwrap().to_string(), "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn ticket_uuid(&self) -> Option<Uuid> {
        self.ticket_id.as_ref().and_then(|i| i.uuid)
    }

    /// The word limit.
    ///
    /// ```
    /// assert_eq!(palisade::Context::without_ticket().word_limit(), 80);
    /// ```
    pub fn word_limit(&self) -> usize {
        self.max_words
    }

    fn usable_ticket(&self) -> Option<&TicketText> {
        self.ticket.as_deref().filter(|_| self.allow_from_ticket)
    }

    /// Whether the UUID `id` is this ticket's, an allowed one, or one the customer wrote in
    /// the ticket text.
    ///
    /// ```
    /// # use palisade::Context;
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let id = uuid::Uuid::parse_str("{6F1C2D3E-4B5A-4C6D-8E7F-9A0B1C2D3E4F}").unwrap();
    /// assert!(ctx.id_allowed(id));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn id_allowed(&self, id: Uuid) -> bool {
        let listed = self
            .ticket_id
            .iter()
            .chain(&self.allowed_ids)
            .any(|i| i.uuid == Some(id));
        listed
            || self.usable_ticket().is_some_and(|t| {
                let mut buf = Uuid::encode_buffer();
                t.has_token(id.hyphenated().encode_lower(&mut buf))
                    || t.has_token(id.simple().encode_lower(&mut buf))
            })
    }

    /// Whether an id that is not a UUID (one matched by the screener's foreign-id pattern) is
    /// this ticket's, an allowed one, or one the customer wrote in the ticket text. Compared
    /// by letters and digits, case ignored.
    ///
    /// ```
    /// let ctx = palisade::Context::new("48213")?.ticket_text("Same as #50001.");
    /// assert!(ctx.id_text_allowed("#48213"));
    /// assert!(ctx.id_text_allowed("#50001"));
    /// assert!(!ctx.id_text_allowed("#55120"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn id_text_allowed(&self, id: &str) -> bool {
        let key = id_key(id);
        if key.is_empty() {
            return false;
        }
        self.ticket_id
            .iter()
            .chain(&self.allowed_ids)
            .any(|i| i.key == key)
            || self
                .usable_ticket()
                .is_some_and(|t| t.has_token(&id.to_ascii_lowercase()))
    }

    /// Whether an email address is allowed: the exact address, its domain or a parent
    /// domain is on the allow-list, or the customer wrote the address in the ticket text.
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().allow_email("@example.com");
    /// assert!(ctx.email_allowed("help@eu.example.com"));
    /// assert!(!ctx.email_allowed("help@example.com.evil.io"));
    /// ```
    pub fn email_allowed(&self, address: &str) -> bool {
        let address = address.to_ascii_lowercase();
        let domain = address.rsplit_once('@').map_or("", |(_, d)| d);
        let listed = self.allowed_emails.iter().any(|allowed| {
            if allowed.contains('@') && !allowed.starts_with('@') {
                *allowed == address
            } else {
                let d = allowed.trim_start_matches('@');
                !d.is_empty()
                    && (domain == d
                        || (domain.len() > d.len()
                            && domain.ends_with(d)
                            && domain.as_bytes()[domain.len() - d.len() - 1] == b'.'))
            }
        });
        listed || self.usable_ticket().is_some_and(|t| t.has_token(&address))
    }

    /// Whether a number (its digits only) is allowed: it is on the allow-list, or the
    /// customer wrote it in the ticket text and it is not `sensitive` (a card number that
    /// passes the Luhn check, or an IBAN).
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().ticket_text("card 4111 1111 1111 1111, order 55012377");
    /// assert!(ctx.number_allowed("55012377", false));
    /// assert!(!ctx.number_allowed("4111111111111111", true));
    /// ```
    pub fn number_allowed(&self, digits: &str, sensitive: bool) -> bool {
        if digits.is_empty() {
            return false;
        }
        self.allowed_numbers.iter().any(|n| n == digits)
            || (!sensitive
                && self
                    .usable_ticket()
                    .is_some_and(|t| t.numbers.contains(digits)))
    }

    /// Whether [`number_allowed`](Self::number_allowed) can say yes to anything: the long
    /// number check skips its per-number work otherwise.
    pub(crate) fn allows_numbers(&self) -> bool {
        !self.allowed_numbers.is_empty() || self.usable_ticket().is_some()
    }

    /// The context rule examples run with (documented in `rules/README.md`).
    pub(crate) fn example() -> Self {
        Context {
            ticket_id: parse_id("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").ok(),
            allowed_emails: vec!["support@example.com".to_owned()],
            ..Context::without_ticket()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `id_key` without its ASCII shortcut.
    fn id_key_by_chars(id: &str) -> String {
        id.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn id_key_ascii_shortcut_agrees_with_reading_chars(id in "[ -~]{0,40}|[a-zA-Z0-9_#-]{0,40}\\PC{0,4}") {
            proptest::prop_assert_eq!(id_key(&id), id_key_by_chars(&id));
        }
    }

    #[test]
    fn id_key_keeps_letters_and_digits_lower_cased() {
        assert_eq!(id_key("ORD-31415_Ab"), "ord31415ab");
        assert_eq!(id_key("ÄB-1"), "äb1");
        assert_eq!(id_key("#-_"), "");
    }

    #[test]
    fn ids_of_any_form_compare_by_letters_and_digits() {
        let ctx = Context::new("ORD-31415").unwrap();
        assert!(ctx.id_text_allowed("ord31415"));
        assert!(ctx.id_text_allowed("ORD-31415"));
        assert!(!ctx.id_text_allowed("ORD-31416"));
        assert!(!ctx.id_text_allowed("--"));
        assert_eq!(ctx.ticket_uuid(), None);
    }

    #[test]
    fn ticket_numbers_join_their_punctuation() {
        let t = TicketText::new("Call 0412 345-678 or (02) 9876 5432. Order #1234, 2024.");
        for n in ["0412345678", "0298765432", "1234", "2024", "0412", "9876"] {
            assert!(t.numbers.contains(n), "{n}: {:?}", t.numbers);
        }
        assert!(!t.numbers.contains("12345678"));
        let t = TicketText::new("order 12345678 2024");
        assert!(t.numbers.contains("12345678") && t.numbers.contains("123456782024"));
    }

    #[test]
    fn ticket_tokens_need_boundaries() {
        let t = TicketText::new("Write to Jane@Example.org. Not xjane@example.org.uk");
        assert!(t.has_token("jane@example.org"));
        let t = TicketText::new("Not xjane@example.org.uk");
        assert!(!t.has_token("jane@example.org"));
        let t = TicketText::new(
            "<Jane@Example.org>, mailto:bob@example.org! {6F1C2D3E-4B5A-4C6D-8E7F-9A0B1C2D3E4F}",
        );
        for token in [
            "jane@example.org",
            "bob@example.org",
            "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
        ] {
            assert!(t.has_token(token), "{token}");
        }
    }

    #[test]
    fn allow_from_ticket_off_allows_nothing_from_it() {
        let ctx = Context::without_ticket()
            .ticket_text("jane@example.org 55012377")
            .allow_from_ticket(false);
        assert!(!ctx.email_allowed("jane@example.org"));
        assert!(!ctx.number_allowed("55012377", false));
        assert!(!ctx.allows_numbers());
    }

    /// Through the whole screener: what the ticket says may be repeated, except a card
    /// number that passes Luhn and an IBAN.
    #[test]
    fn a_draft_may_repeat_the_ticket_but_not_its_card_or_iban() {
        let ticket = "Order 5501 2377, account 842290456173, jane@example.org, \
                      card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, \
                      linked 0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9 and #55120.";
        let ctx = Context::new("#48213").unwrap().ticket_text(ticket);
        let ctx = ctx.foreign_ids(&IdPattern::new(r"#\d{5}").unwrap());
        let screener = crate::Screener::new();
        let quiet = "Order 55012377 on account 842290456173 for jane@example.org \
                     (0B5A3C2E-9D8F-4E7A-B6C5-D4E3F2A1B0C9, #55120, #48213).";
        let report = screener.screen(&ctx, quiet).unwrap();
        assert!(report.findings().is_empty(), "{report:?}");
        for leak in ["card 4111 1111 1111 1111", "to DE89 3704 0044 0532 0130 00"] {
            let report = screener.screen(&ctx, leak).unwrap();
            assert!(report.is_blocked(), "{leak}");
        }
        // Not in the ticket: still blocked.
        for other in ["order 55012378", "bob@example.org", "#55121"] {
            assert!(
                screener.screen(&ctx, other).unwrap().is_blocked(),
                "{other}"
            );
        }
    }

    #[test]
    fn debug_does_not_show_the_ticket_text() {
        let ctx = Context::without_ticket().ticket_text("password hunter2hunter2");
        assert!(!format!("{ctx:?}").contains("hunter2"));
    }
}
