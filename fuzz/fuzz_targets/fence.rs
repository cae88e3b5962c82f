//! `fence`: arbitrary text under an arbitrary label and nonce. Either the label or nonce is
//! refused with its own error, or the block has one BEGIN and one END line around exactly
//! `clean_query(text)`, no sentinel or marker phrase survives normalisation inside it,
//! fencing the cleaned text again changes nothing, and every finding span is valid.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/hostile/props.rs"]
mod props;

/// Mostly labels and nonces that are valid, so most runs reach the fence itself.
#[derive(Debug, Arbitrary)]
enum Choice<'a> {
    Listed(u8),
    Any(&'a str),
}

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    label: Choice<'a>,
    nonce: Option<Choice<'a>>,
    /// The rest of the input, as lossy UTF-8.
    text: &'a [u8],
}

fuzz_target!(|input: Input<'_>| {
    if input.text.len() > props::MAX_INPUT {
        return;
    }
    let label = match input.label {
        Choice::Listed(i) => props::LABELS[usize::from(i) % props::LABELS.len()],
        Choice::Any(s) => s,
    };
    let nonce = input.nonce.map(|n| match n {
        Choice::Listed(i) => props::NONCES[usize::from(i) % props::NONCES.len()],
        Choice::Any(s) => s,
    });
    props::check_fence(label, nonce, &String::from_utf8_lossy(input.text));
});
