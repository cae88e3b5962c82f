//! `decode`: encoded-run decoding stays within its documented bounds for any input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/hostile/props.rs"]
mod props;

fuzz_target!(|data: &[u8]| {
    if data.len() > props::MAX_INPUT {
        return;
    }
    props::check_decode(&String::from_utf8_lossy(data));
});
