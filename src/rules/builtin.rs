//! The rule files shipped inside the library, one `include_str!` per file.
//!
//! A test checks that this list matches the `rules/` folder, so a new file cannot go unshipped.

/// `(file name, contents)` of every embedded rule file.
pub(crate) const BUILTIN_RULE_FILES: &[(&str, &str)] = &[
    (
        "rules/injection.toml",
        include_str!("../../rules/injection.toml"),
    ),
    ("rules/draft.toml", include_str!("../../rules/draft.toml")),
    (
        "rules/credentials.toml",
        include_str!("../../rules/credentials.toml"),
    ),
];
