//! What a draft is screened against: this ticket's ids, allowed addresses, the word limit.

use uuid::Uuid;

use crate::error::{Error, Result};

/// Per-draft facts the checks need.
///
/// Ids are compared by value: hyphenated, braced, `urn:uuid:` and simple forms, in either
/// case, are the same id.
///
/// ```
/// use palisade::Context;
/// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?
///     .allow_id("{0F0E0D0C-0B0A-4908-8706-050403020100}")?
///     .allow_email("support@example.com")
///     .allow_email("@help.example.com")
///     .max_words(120);
/// assert_eq!(ctx.word_limit(), 120);
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    ticket_id: Option<Uuid>,
    allowed_ids: Vec<Uuid>,
    allowed_emails: Vec<String>,
    max_words: usize,
}

/// The default word limit of a draft.
pub const DEFAULT_MAX_WORDS: usize = 80;

fn parse_id(value: &str) -> Result<Uuid> {
    Uuid::parse_str(value.trim()).map_err(|_| Error::InvalidId {
        value: value.chars().take(80).collect(),
    })
}

impl Context {
    /// A context for the ticket with this id (any UUID form).
    ///
    /// ```
    /// assert!(palisade::Context::new("not-a-uuid").is_err());
    /// ```
    pub fn new(ticket_id: &str) -> Result<Self> {
        Ok(Context {
            ticket_id: Some(parse_id(ticket_id)?),
            allowed_ids: Vec::new(),
            allowed_emails: Vec::new(),
            max_words: DEFAULT_MAX_WORDS,
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
            max_words: DEFAULT_MAX_WORDS,
        }
    }

    /// Allows another id that belongs to this ticket (a linked ticket, the order).
    ///
    /// ```
    /// # use palisade::Context;
    /// let ctx = Context::without_ticket().allow_id("urn:uuid:6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn allow_id(mut self, id: &str) -> Result<Self> {
        self.allowed_ids.push(parse_id(id)?);
        Ok(self)
    }

    /// Allows an email address (`support@example.com`) or a whole domain (`@example.com` or
    /// `example.com`). Compared case-insensitively.
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().allow_email("Support@Example.com");
    /// assert!(ctx.email_allowed("support@example.com"));
    /// ```
    pub fn allow_email(mut self, address_or_domain: &str) -> Self {
        self.allowed_emails
            .push(address_or_domain.trim().to_ascii_lowercase());
        self
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

    /// The ticket's own id.
    ///
    /// ```
    /// let ctx = palisade::Context::new("6F1C2D3E4B5A4C6D8E7F9A0B1C2D3E4F")?;
    /// assert_eq!(ctx.ticket_id().unwrap().to_string(), "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn ticket_id(&self) -> Option<Uuid> {
        self.ticket_id
    }

    /// The word limit.
    ///
    /// ```
    /// assert_eq!(palisade::Context::without_ticket().word_limit(), 80);
    /// ```
    pub fn word_limit(&self) -> usize {
        self.max_words
    }

    /// Whether `id` is this ticket's or an allowed one.
    ///
    /// ```
    /// # use palisade::Context;
    /// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
    /// let id = uuid::Uuid::parse_str("{6F1C2D3E-4B5A-4C6D-8E7F-9A0B1C2D3E4F}").unwrap();
    /// assert!(ctx.id_allowed(id));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn id_allowed(&self, id: Uuid) -> bool {
        self.ticket_id == Some(id) || self.allowed_ids.contains(&id)
    }

    /// Whether an email address is allowed (exact address, or its domain or a parent domain).
    ///
    /// ```
    /// let ctx = palisade::Context::without_ticket().allow_email("@example.com");
    /// assert!(ctx.email_allowed("help@eu.example.com"));
    /// assert!(!ctx.email_allowed("help@example.com.evil.io"));
    /// ```
    pub fn email_allowed(&self, address: &str) -> bool {
        let address = address.to_ascii_lowercase();
        let domain = address.rsplit_once('@').map_or("", |(_, d)| d);
        self.allowed_emails.iter().any(|allowed| {
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
        })
    }

    /// The context rule examples run with (documented in `rules/README.md`).
    pub(crate) fn example() -> Self {
        Context {
            ticket_id: Uuid::parse_str("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").ok(),
            allowed_ids: Vec::new(),
            allowed_emails: vec!["support@example.com".to_owned()],
            max_words: DEFAULT_MAX_WORDS,
        }
    }
}
