//! The one integration-test binary. Each concern has its own module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod credentials;
mod detection_sets;
mod draft_checks;
mod fence;
mod hostile;
mod rules_files;
mod screen;
