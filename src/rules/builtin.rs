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

#[cfg(test)]
mod tests {
    use super::BUILTIN_RULE_FILES;

    #[test]
    fn every_rule_file_in_the_folder_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .map(|n| format!("rules/{n}"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = BUILTIN_RULE_FILES
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }
}
