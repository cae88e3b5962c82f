//! Clean support prose that does not repeat: the lines of `benches/fixtures/prose_varied.txt`
//! (64 KiB written by `benches/corpus/generate.py`) in a seeded pseudo-random order, to the
//! size asked. A text that repeats one paragraph lets the CPU's branch predictor learn every
//! branch of a scan, and measures twice the speed that varied text gets; this is what the
//! prose benchmarks and the `profile` example read.

/// The fixture, embedded so the benchmark needs no file at run time.
const LINES: &str = include_str!("../fixtures/prose_varied.txt");

/// `bytes` of varied prose (cut on a char boundary; the fixture is ASCII).
pub(crate) fn varied_prose(bytes: usize) -> String {
    shuffled(0x9E37_79B9_7F4A_7C15, bytes)
}

/// `count` different texts of `bytes` each, cut from one shuffle: drafts or tickets that are
/// not the same text every iteration (a benchmark that screens one text over and over measures
/// a branch predictor that has learnt it).
pub(crate) fn varied_texts(count: usize, bytes: usize) -> Vec<String> {
    let all = shuffled(0x2545_F491_4F6C_DD1D, count * bytes);
    (0..count)
        .map(|k| all[k * bytes..(k + 1) * bytes].to_owned())
        .collect()
}

fn shuffled(mut seed: u64, bytes: usize) -> String {
    let lines: Vec<&str> = LINES.lines().filter(|l| !l.is_empty()).collect();
    let mut out = String::with_capacity(bytes + 4096);
    // xorshift64: the same order on every machine.
    while out.len() < bytes {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = usize::try_from(seed % lines.len() as u64).unwrap_or(0);
        out.push_str(lines[pick]);
        out.push('\n');
    }
    cut(&mut out, bytes);
    out
}

/// Cuts `text` to at most `bytes`, on a char boundary.
pub(crate) fn cut(text: &mut String, bytes: usize) {
    let mut end = bytes.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
}
