//! Palisade: guardrails for the two edges where an LLM support agent touches the world.
//!
//! (Crate docs are being written.)
#![forbid(unsafe_code)]

mod detect;
mod error;
mod fence;
mod finding;
mod normalize;
mod rules;
mod screen;

pub use detect::{Detector, DetectorBuilder};
pub use error::{Error, Result};
pub use fence::{Cleaned, Fence, Fenced, SENTINELS};
pub use finding::{Finding, Kind, Severity};
pub use normalize::Normalized;
pub use rules::{RuleInfo, Status};
pub use screen::context_defaults::DEFAULT_MAX_WORDS;
pub use screen::{
    Context, DEFAULT_MAX_INPUT_BYTES, ExampleProblem, Report, Screener, ScreenerBuilder,
};
