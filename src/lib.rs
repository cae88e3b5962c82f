//! Palisade: guardrails for the two edges where an LLM support agent touches the world.
#![forbid(unsafe_code)]

mod error;
mod finding;
mod normalize;

pub use error::{Error, Result};
pub use finding::{Finding, Kind, Severity};
pub use normalize::Normalized;
