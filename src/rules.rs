//! Rule files: loading, validation, compilation, and the two-stage matching engine.
//!
//! Stage one: every rule's `keywords` and the anchor literals derived from its pattern go into
//! one literal prefilter (`prefilter.rs`), run once over the normalised view; a rule with
//! keywords runs only when one of them occurs. Stage two: each candidate rule confirms its
//! pattern with an anchored lazy DFA where its anchor literals occur (or runs its regex, or its
//! named check, over the view) for spans.
//!
//! Most credential patterns match only inside a long run of encoding bytes (a token), which
//! support prose never has. A screen knows whether its view has one before the rules run; on a
//! view without one, a second prefilter without those rules' literals runs instead (Twilio's
//! `AC` and a hex digit no longer stop at every `account`).

mod anchor;
mod builder;
mod builtin;
mod check;
mod compile;
mod confirm;
mod emit;
mod examples;
mod filters;
mod load;
mod nfa_code;
mod prefilter;
mod reference;
mod scan;
pub(crate) mod schema;
mod set;
#[cfg(test)]
mod spec_rows;
mod start;
#[cfg(test)]
pub(crate) mod testkit;
mod token_run;
mod vocabulary;
mod words;

use serde::{Deserialize, Serialize};

use crate::finding::{Kind, Severity};

pub use builder::Builder;
pub(crate) use builder::Profile;
pub(crate) use builtin::BUILTIN_RULE_FILES;
pub(crate) use check::{Check, Checks, Emit, Pass};
pub(crate) use compile::CompiledRule;
pub(crate) use emit::tidy;
pub use examples::ExampleProblem;
pub(crate) use filters::luhn;
#[cfg(test)]
pub(crate) use load::builtin_vocabulary;
pub use reference::PrefilterKind;
pub use schema::Status;
pub(crate) use set::RuleSet;
pub(crate) use vocabulary::Vocabulary;
pub(crate) use words::{WordTally, count_words, is_word_byte, next_word, prev_word, words};

/// Limits applied when compiling rule patterns. User rule files are untrusted input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatternLimits {
    /// Longest pattern source accepted, in bytes.
    pub(crate) max_pattern_len: usize,
    /// The regex crate's compiled program size limit, in bytes.
    pub(crate) compiled_size: usize,
    /// The lazy DFA cache size, in bytes.
    pub(crate) dfa_size: usize,
}

impl Default for PatternLimits {
    fn default() -> Self {
        PatternLimits {
            max_pattern_len: 4096,
            compiled_size: 1 << 20,
            dfa_size: 2 << 20,
        }
    }
}

/// What a rule is, for listing and documentation. Carries no pattern internals.
///
/// ```
/// let screener = palisade::Screener::new();
/// let info = screener.rules().find(|r| r.id == "draft.email-address").unwrap();
/// assert_eq!(info.kind, palisade::Kind::Email);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RuleInfo {
    /// Stable id.
    pub id: String,
    /// Class of problem.
    pub kind: Kind,
    /// Severity in effect (after builder overrides).
    pub severity: Severity,
    /// Life-cycle state.
    pub status: Status,
    /// What it flags.
    pub description: String,
    /// Why it matters.
    pub rationale: String,
    /// The file it came from.
    pub file: String,
    /// The line where it starts.
    pub line: usize,
}

#[cfg(test)]
mod tests;
