//! The engine's extension point: matching code a rule names with `check = "..."`.
//!
//! The engine knows no check by name. A client (the screener) hands the builder a [`Checks`]
//! table; a rule that names a check gets the code registered under that name, and an unknown
//! name is a rule error. What a check needs from the engine's pass (the offsets of its anchor
//! words, the word count, the view) reaches it through [`Pass`]. Context the engine does not
//! read (the screener's ticket id and allow lists) travels as `&dyn Any`, which only the
//! check that knows its type looks into: the engine stays below its clients.

use std::any::Any;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use super::words::WordTally;
use crate::normalize::Normalized;

/// Where a check reports a match: a view range and an optional note for the message.
pub(crate) type Emit<'e> = dyn FnMut(Range<usize>, Option<String>) + 'e;

/// What the engine's pass hands a check for one text.
pub(crate) struct Pass<'p, 't> {
    /// The normalised view; reported ranges are ranges of it.
    pub(crate) view: &'p Normalized<'t>,
    /// The caller's context, if the scan has one (the screener's `Context`).
    pub(crate) context: Option<&'p dyn Any>,
    /// Where the check's [`Check::anchor_words`] occur at word starts (ascending), or `None`
    /// for the check to find its own starts.
    pub(crate) anchors: Option<&'p [usize]>,
    /// The view's words, counted in the prefilter's pass when the check asked for them
    /// ([`Check::wants_word_tally`]).
    pub(crate) words: Option<&'p WordTally>,
}

impl Pass<'_, '_> {
    /// The view's text.
    pub(crate) fn text(&self) -> &str {
        self.view.as_str()
    }

    /// The context, if it is a `T`.
    pub(crate) fn context<T: Any>(&self) -> Option<&T> {
        self.context.and_then(|c| c.downcast_ref::<T>())
    }
}

/// Matching code a rule can name. Implemented by the draft checks; the engine calls it.
pub(crate) trait Check: Send + Sync + fmt::Debug {
    /// Words the check needs at a word start before it can report anything there (matched ASCII
    /// case-insensitively). When it has some, the prefilter finds them with every other rule's
    /// literals, the check runs only on a text with one and gets their offsets.
    fn anchor_words(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether every span the check reports holds a run of at least
    /// [`crate::decode::SHORTEST_RUN`] encoding bytes: a view without one is not searched.
    fn needs_long_run(&self) -> bool {
        false
    }

    /// Whether the check may ever ask for the word count (so the engine keeps a tally).
    fn counts_words(&self) -> bool {
        false
    }

    /// Whether the prefilter's pass should count the words of a text of `len` bytes for it.
    fn wants_word_tally(&self, len: usize, context: Option<&dyn Any>) -> bool {
        let _ = (len, context);
        false
    }

    /// The names of the word lists the check reads from `[[words]]` tables (see
    /// `vocabulary.rs`); a table naming another list of this check is an error.
    fn word_lists(&self) -> &'static [&'static str] {
        &[]
    }

    /// Reports the check's matches in the pass's view.
    fn run(&self, pass: &Pass<'_, '_>, emit: &mut Emit<'_>);
}

/// The checks a rule set can name, by name.
#[derive(Clone, Default)]
pub(crate) struct Checks {
    named: Vec<(&'static str, Arc<dyn Check>)>,
}

impl fmt::Debug for Checks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Checks {
    /// Registers `check` under `name` (a later registration of the same name wins).
    pub(crate) fn with(mut self, name: &'static str, check: impl Check + 'static) -> Self {
        self.named.retain(|(n, _)| *n != name);
        self.named.push((name, Arc::new(check)));
        self
    }

    /// The check registered under `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Arc<dyn Check>> {
        self.named.iter().find(|(n, _)| *n == name).map(|(_, c)| c)
    }

    /// The registered names, in registration order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.named.iter().map(|(n, _)| *n)
    }
}

/// A rule's check as the engine keeps it: the code, and what it said about itself at build
/// time (asked once, not on every scan).
#[derive(Debug, Clone)]
pub(crate) struct RuleCheck {
    /// The name the rule gave.
    pub(crate) name: String,
    pub(crate) code: Arc<dyn Check>,
    /// [`Check::anchor_words`], lower-cased.
    pub(crate) anchor_words: Vec<String>,
    pub(crate) needs_long_run: bool,
    pub(crate) counts_words: bool,
}

impl RuleCheck {
    pub(crate) fn new(name: &str, code: &Arc<dyn Check>) -> Self {
        RuleCheck {
            name: name.to_owned(),
            anchor_words: code
                .anchor_words()
                .iter()
                // An empty literal would be found everywhere (a word list may hold one; the
                // builder reports it).
                .filter(|w| !w.is_empty())
                .map(|w| w.to_ascii_lowercase())
                .collect(),
            needs_long_run: code.needs_long_run(),
            counts_words: code.counts_words(),
            code: Arc::clone(code),
        }
    }
}
