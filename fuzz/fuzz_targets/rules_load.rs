//! `rules_load`: any bytes as a rule file give `Ok` or a located rule-file error, never a
//! panic; a rule set that loads screens ordinary drafts within the screening invariants.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/hostile/props.rs"]
mod props;

fuzz_target!(|data: &[u8]| {
    if data.len() > props::MAX_INPUT {
        return;
    }
    props::check_rules_load(&String::from_utf8_lossy(data));
});
