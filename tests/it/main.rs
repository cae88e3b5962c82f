//! The one integration-test binary. Each concern has its own module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod credentials;
mod draft_checks;
mod fence;
#[cfg(feature = "sqlite")] // the gate tests record in a ledger
mod gate;
#[cfg(feature = "sqlite")]
mod gate_ledger;
mod hostile;
mod rules_files;
mod screen;
