//! `normalize`: both views idempotent; the offset map in bounds, on char boundaries, monotone.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/hostile/props.rs"]
mod props;

fuzz_target!(|data: &[u8]| {
    if data.len() > props::MAX_INPUT {
        return;
    }
    props::check_normalize(&String::from_utf8_lossy(data));
});
