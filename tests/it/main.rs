//! The one integration-test binary. Each concern has its own module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod browser;
mod cli;
mod credentials;
mod draft_checks;
mod fence;
mod hostile;
mod review_pages;
mod rules_files;
mod screen;
