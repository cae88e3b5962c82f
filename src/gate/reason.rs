//! Why a call was rejected or parked: a structured reason the model (or a person) can act on.

use serde::{Deserialize, Serialize};

/// One reason of a decision.
///
/// `code` is stable (`schema.required`, `money.bad_currency`, `zero_trust.credential`,
/// `limit.hard_ceiling`, `tool.forbidden`, or a business rule's own code); `field` is a JSON
/// pointer into the arguments (empty for the whole call); `message` is written for the model
/// and never quotes a credential; `retryable` says whether a corrected call can succeed
/// (format errors) or only a person can help (business rules, limits, credentials).
///
/// ```
/// let r = palisade::Reason::business("unknown_order", "/order_id", "No such order on this ticket.");
/// assert!(!r.retryable());
/// assert_eq!(serde_json::to_value(&r)?["field"], "/order_id");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    code: String,
    field: String,
    message: String,
    retryable: bool,
}

impl Reason {
    /// A reason with every part given.
    ///
    /// ```
    /// let r = palisade::Reason::new("schema.pattern", "/order_id", "Use ORD-12345.", true);
    /// assert_eq!(r.code(), "schema.pattern");
    /// ```
    pub fn new(
        code: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
        retryable: bool,
    ) -> Self {
        Reason {
            code: code.into(),
            field: field.into(),
            message: message.into(),
            retryable,
        }
    }

    /// A business-rule reason: not retryable (the call needs a person, not a rewrite).
    ///
    /// ```
    /// assert!(!palisade::Reason::business("x", "", "y").retryable());
    /// ```
    pub fn business(
        code: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Reason::new(code, field, message, false)
    }

    /// The stable code.
    ///
    /// ```
    /// assert_eq!(palisade::Reason::business("a.b", "", "m").code(), "a.b");
    /// ```
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The JSON pointer of the argument concerned (empty: the whole call).
    ///
    /// ```
    /// assert_eq!(palisade::Reason::business("a", "/x", "m").field(), "/x");
    /// ```
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The message for the model.
    ///
    /// ```
    /// assert_eq!(palisade::Reason::business("a", "", "m").message(), "m");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether a corrected call can succeed.
    ///
    /// ```
    /// assert!(palisade::Reason::new("a", "", "m", true).retryable());
    /// ```
    pub fn retryable(&self) -> bool {
        self.retryable
    }
}
