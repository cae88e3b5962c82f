//! The one integration-test binary. Each concern has its own module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod architecture;
#[cfg(feature = "cli")]
mod browser;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cli_jsonl;
#[cfg(feature = "cli")]
mod cli_policy;
mod credentials;
mod detection_sets;
mod draft_checks;
mod fence;
#[cfg(feature = "sqlite")] // the gate tests record in a ledger
mod gate;
#[cfg(feature = "sqlite")]
mod gate_ledger;
mod hostile;
mod prefilter_differential;
#[cfg(feature = "cli")]
mod review_pages;
mod rules_files;
mod screen;
