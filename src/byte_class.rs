//! Bit masks of byte classes over 64 bytes at a time: bit `k` of a mask says whether byte `k`
//! of the group is in the class.
//!
//! On x86-64 the classes come from SSE2 compares and `pmovmskb` (16 bytes to 16 bits in one
//! instruction), through `safe_arch`'s safe wrappers of the intrinsics, since the crate forbids
//! `unsafe`. SSE2 is part of the x86-64 baseline, so no feature detection is needed. Portable
//! byte loops cannot get `pmovmskb` from the compiler: they gather the bits with a multiply per
//! eight bytes, which costs more than the compares. Elsewhere the portable code runs.

// The implementation this target runs.
#[cfg(not(target_arch = "x86_64"))]
use portable as classes;
#[cfg(target_arch = "x86_64")]
use sse2 as classes;

/// Bytes per group: one bit each in a `u64`.
pub(crate) const GROUP: usize = 64;

/// Letters and digits (`[A-Za-z0-9]`), bytes the prefilter probes wherever they are (any
/// other byte above a space that is not a UTF-8 continuation byte, `0x80..=0xBF`), and the
/// bytes that separate words (a space or any ASCII control byte: `0x00..=0x20`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WordMasks {
    pub(crate) alnum: u64,
    pub(crate) other: u64,
    pub(crate) blank: u64,
}

/// [`WordMasks`] of one group.
#[inline(always)]
pub(crate) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
    classes::word_masks(group)
}

/// Whitespace (a space, or tab through carriage return) and the whitespace that may stand for
/// itself in a view (a space or newline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SpaceMasks {
    pub(crate) space: u64,
    pub(crate) plain: u64,
}

/// [`SpaceMasks`] of up to [`GROUP`] bytes (bits past the end of a shorter slice are clear).
#[inline(always)]
pub(crate) fn space_masks(bytes: &[u8]) -> SpaceMasks {
    on_group(bytes, classes::space_masks)
}

/// Spaces and newlines among up to [`GROUP`] bytes, and whether any is a control byte other
/// than a newline, or not ASCII: what tells whether a text is its own view, in one pass.
#[inline(always)]
pub(crate) fn plain_masks(bytes: &[u8]) -> (u64, bool) {
    match <&[u8; GROUP]>::try_from(bytes) {
        Ok(group) => classes::plain_masks(group),
        // Padded with a letter, which is in neither class (a zero is a control byte).
        Err(_) => classes::plain_masks(&padded_with(bytes, b'a')),
    }
}

/// Printable ASCII (`0x21..=0x7E`: no whitespace, control or non-ASCII byte) among up to
/// [`GROUP`] bytes (bits past the end of a shorter slice are clear).
#[inline(always)]
pub(crate) fn printable_mask(bytes: &[u8]) -> u64 {
    range_mask(bytes, 0x21, 0x7E)
}

/// ASCII digits among up to [`GROUP`] bytes (bits past the end of a shorter slice are clear).
#[inline(always)]
pub(crate) fn digit_mask(bytes: &[u8]) -> u64 {
    range_mask(bytes, b'0', b'9')
}

/// ASCII hex digits (`[0-9A-Fa-f]`) among up to [`GROUP`] bytes (bits past the end of a
/// shorter slice are clear).
#[inline(always)]
pub(crate) fn hex_mask(bytes: &[u8]) -> u64 {
    on_group(bytes, classes::hex_mask)
}

/// The reading skeleton's view of a group of ASCII bytes: each letter lowercased, with `l`
/// read as `i` (in `lowered`, at its own offset; other lanes hold anything), the bytes the
/// skeleton keeps (letters, digits, `$` and `@`) and, of those, the ones whose reading is not
/// their lowered form (digits, `$` and `@`: the leet table says what they read as).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SkeletonGroup {
    /// The group's letters lowercased, `l` as `i`; sixteen more bytes so that a run can be
    /// copied sixteen bytes at a time from any offset.
    pub(crate) lowered: [u8; GROUP + 16],
    /// Letters, digits, `$` and `@`.
    pub(crate) kept: u64,
    /// Digits, `$` and `@`.
    pub(crate) looked_up: u64,
}

/// [`SkeletonGroup`] of one group.
#[inline(always)]
pub(crate) fn skeleton_group(group: &[u8; GROUP]) -> SkeletonGroup {
    classes::skeleton_group(group)
}

/// Copies `src` into the start of `dst` (at least as long) with every newline made a space:
/// sixteen bytes at a time (a compare, a mask and an exclusive or), then the rest one by one.
#[inline(always)]
pub(crate) fn copy_newlines_as_spaces(dst: &mut [u8], src: &[u8]) {
    let dst = &mut dst[..src.len()];
    let mut to = dst.chunks_exact_mut(16);
    let mut from = src.chunks_exact(16);
    for (d, s) in (&mut to).zip(&mut from) {
        let mut lanes = [0u8; 16];
        lanes.copy_from_slice(s);
        d.copy_from_slice(&classes::newlines_as_spaces(lanes));
    }
    for (d, &s) in to.into_remainder().iter_mut().zip(from.remainder()) {
        *d = if s == b'\n' { b' ' } else { s };
    }
}

/// Bytes from `low` to `high` (`low` above zero) among up to [`GROUP`] bytes.
#[inline(always)]
fn range_mask(bytes: &[u8], low: u8, high: u8) -> u64 {
    on_group(bytes, |group| classes::range_mask(group, low, high))
}

/// `class` of up to [`GROUP`] bytes: a whole group is read in place, a shorter slice from a
/// zero-padded copy (not by recursion, which would keep the mask functions from being inlined
/// into the loops that call them; zeros are in no class of this module).
#[inline(always)]
fn on_group<T>(bytes: &[u8], class: impl FnOnce(&[u8; GROUP]) -> T) -> T {
    match <&[u8; GROUP]>::try_from(bytes) {
        Ok(group) => class(group),
        Err(_) => class(&padded(bytes)),
    }
}

/// The first offset `p >= from` where `bytes[p..p + len]` are all in a class (`len` from 1 to
/// [`GROUP`]), given the class's mask function (which clears bits past a short slice's end).
/// A run that crosses into a group is the run ending the previous group, counted, joined to
/// the one starting this one; a run inside a group shows as a bit of [`run_starts`].
#[inline(always)]
pub(crate) fn first_run(
    bytes: &[u8],
    from: usize,
    len: usize,
    mask_of: impl Fn(&[u8]) -> u64,
) -> Option<usize> {
    debug_assert!((1..=GROUP).contains(&len));
    // Bytes in the class right before `at` (fewer than `len`).
    let mut tail = 0;
    let mut at = from;
    while at < bytes.len() {
        let mask = mask_of(&bytes[at..bytes.len().min(at + GROUP)]);
        let lead = (!mask).trailing_zeros() as usize;
        if tail + lead >= len {
            return Some(at - tail);
        }
        let starts = run_starts(mask, len);
        if starts != 0 {
            return Some(at + starts.trailing_zeros() as usize);
        }
        // Not every byte is in the class (or `lead` would have reached `len`).
        tail = (!mask).leading_zeros() as usize;
        at += GROUP;
    }
    None
}

/// Bit `i` set where bits `i..i + len` of `mask` are all set (`len` from 1 to 64): runs of
/// one bit, joined pairwise into runs of two, four, eight and so on, then topped up.
#[inline(always)]
pub(crate) fn run_starts(mut mask: u64, len: usize) -> u64 {
    let mut have = 1;
    while have * 2 <= len {
        mask &= mask >> have;
        have *= 2;
    }
    if have < len {
        mask &= mask >> (len - have);
    }
    mask
}

/// Up to [`GROUP`] bytes, then zeros (in no class of this module but [`plain_masks`]'s).
fn padded(bytes: &[u8]) -> [u8; GROUP] {
    padded_with(bytes, 0)
}

/// Up to [`GROUP`] bytes, then `fill`.
fn padded_with(bytes: &[u8], fill: u8) -> [u8; GROUP] {
    let mut group = [fill; GROUP];
    let n = bytes.len().min(GROUP);
    group[..n].copy_from_slice(&bytes[..n]);
    group
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use safe_arch::{
        add_i8_m128i, bitand_m128i, bitandnot_m128i, bitor_m128i, bitxor_m128i,
        cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i, load_unaligned_m128i, m128i, max_u8_m128i,
        min_u8_m128i, move_mask_i8_m128i, set_splat_i8_m128i, store_unaligned_m128i, sub_i8_m128i,
    };

    use super::{GROUP, SkeletonGroup, SpaceMasks, WordMasks};

    fn splat(b: u8) -> m128i {
        set_splat_i8_m128i(b as i8)
    }

    /// All ones in the lanes where `x <= max` (unsigned).
    #[inline(always)]
    fn at_most(x: m128i, max: u8) -> m128i {
        cmp_eq_mask_i8_m128i(min_u8_m128i(x, splat(max)), x)
    }

    /// All ones in the lanes where `low <= c <= low + span` (unsigned, `span` below 255): one
    /// add moves the range to the bottom of the signed bytes and one signed compare tests it,
    /// where a subtraction and an unsigned [`at_most`] take three instructions.
    #[inline(always)]
    fn in_range(c: m128i, low: u8, span: u8) -> m128i {
        debug_assert!(span < 255);
        let shifted = add_i8_m128i(c, splat(0x80u8.wrapping_sub(low)));
        cmp_gt_mask_i8_m128i(set_splat_i8_m128i((span as i8).wrapping_sub(127)), shifted)
    }

    #[inline(always)]
    fn bits(x: m128i) -> u64 {
        u64::from(move_mask_i8_m128i(x) as u16)
    }

    #[inline(always)]
    pub(super) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
        let mut alnum = 0;
        let mut other = 0;
        let mut above = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let letter = in_range(bitor_m128i(c, splat(0x20)), b'a', 25);
            let digit = in_range(c, b'0', 9);
            let an = bitor_m128i(letter, digit);
            let above_space = cmp_eq_mask_i8_m128i(max_u8_m128i(c, splat(b'!')), c);
            let continuation = in_range(c, 0x80, 0x3F);
            let ot = bitandnot_m128i(bitor_m128i(an, continuation), above_space);
            alnum |= bits(an) << (16 * k);
            other |= bits(ot) << (16 * k);
            above |= bits(above_space) << (16 * k);
        }
        WordMasks {
            alnum,
            other,
            blank: !above,
        }
    }

    #[inline(always)]
    pub(super) fn space_masks(group: &[u8; GROUP]) -> SpaceMasks {
        let mut space = 0;
        let mut plain = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let blank = cmp_eq_mask_i8_m128i(c, splat(b' '));
            let control = in_range(c, b'\t', 4);
            let newline = cmp_eq_mask_i8_m128i(c, splat(b'\n'));
            space |= bits(bitor_m128i(blank, control)) << (16 * k);
            plain |= bits(bitor_m128i(blank, newline)) << (16 * k);
        }
        SpaceMasks { space, plain }
    }

    /// Bytes from `low` to `high` (unsigned, `low <= high`).
    #[inline(always)]
    pub(super) fn range_mask(group: &[u8; GROUP], low: u8, high: u8) -> u64 {
        let mut out = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let inside = if high - low < 255 {
                in_range(c, low, high - low)
            } else {
                at_most(sub_i8_m128i(c, splat(low)), high - low)
            };
            out |= bits(inside) << (16 * k);
        }
        out
    }

    /// Below a space as signed bytes is a control byte or a non-ASCII one: one compare, and
    /// those lanes OR-ed together give one bit for the group.
    #[inline(always)]
    pub(super) fn plain_masks(group: &[u8; GROUP]) -> (u64, bool) {
        let mut blank = 0;
        let mut odd = splat(0);
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let newline = cmp_eq_mask_i8_m128i(c, splat(b'\n'));
            let below_space = cmp_gt_mask_i8_m128i(splat(b' '), c);
            odd = bitor_m128i(odd, bitandnot_m128i(newline, below_space));
            blank |= bits(bitor_m128i(cmp_eq_mask_i8_m128i(c, splat(b' ')), newline)) << (16 * k);
        }
        (blank, move_mask_i8_m128i(odd) != 0)
    }

    /// Sixteen bytes with every newline made a space: a newline's lane is flipped by the bits
    /// in which the two differ.
    #[inline(always)]
    pub(super) fn newlines_as_spaces(lanes: [u8; 16]) -> [u8; 16] {
        let c = load_unaligned_m128i(&lanes);
        let newline = cmp_eq_mask_i8_m128i(c, splat(b'\n'));
        let flipped = bitxor_m128i(c, bitand_m128i(newline, splat(b'\n' ^ b' ')));
        let mut out = [0u8; 16];
        store_unaligned_m128i(&mut out, flipped);
        out
    }

    /// Letters by one OR and one range compare; `l` becomes `i` by subtracting 3 where the
    /// lowered byte equals `l`.
    #[inline(always)]
    pub(super) fn skeleton_group(group: &[u8; GROUP]) -> SkeletonGroup {
        let mut lowered = [0u8; GROUP + 16];
        let mut kept = 0;
        let mut looked_up = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let lower = bitor_m128i(c, splat(0x20));
            let letter = in_range(lower, b'a', 25);
            let ell = cmp_eq_mask_i8_m128i(lower, splat(b'l'));
            let read = sub_i8_m128i(lower, bitand_m128i(ell, splat(b'l' - b'i')));
            let special = bitor_m128i(
                in_range(c, b'0', 9),
                bitor_m128i(
                    cmp_eq_mask_i8_m128i(c, splat(b'$')),
                    cmp_eq_mask_i8_m128i(c, splat(b'@')),
                ),
            );
            kept |= bits(bitor_m128i(letter, special)) << (16 * k);
            looked_up |= bits(special) << (16 * k);
            let mut out = [0u8; 16];
            store_unaligned_m128i(&mut out, read);
            lowered[16 * k..16 * k + 16].copy_from_slice(&out);
        }
        SkeletonGroup {
            lowered,
            kept,
            looked_up,
        }
    }

    #[inline(always)]
    pub(super) fn hex_mask(group: &[u8; GROUP]) -> u64 {
        let mut out = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let digit = in_range(c, b'0', 9);
            let letter = in_range(bitor_m128i(c, splat(0x20)), b'a', 5);
            out |= bits(bitor_m128i(digit, letter)) << (16 * k);
        }
        out
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::{GROUP, SkeletonGroup, SpaceMasks, WordMasks};

    pub(super) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
        let mut alnum = 0;
        let mut other = 0;
        let mut blank = 0;
        for (k, &c) in group.iter().enumerate() {
            let an = c.is_ascii_alphanumeric();
            alnum |= u64::from(an) << k;
            other |= u64::from(!an && c > b' ' && !(0x80..=0xBF).contains(&c)) << k;
            blank |= u64::from(c <= b' ') << k;
        }
        WordMasks {
            alnum,
            other,
            blank,
        }
    }

    pub(super) fn space_masks(group: &[u8; GROUP]) -> SpaceMasks {
        let mut space = 0;
        let mut plain = 0;
        for (k, &c) in group.iter().enumerate() {
            space |= u64::from(c == b' ' || (b'\t'..=b'\r').contains(&c)) << k;
            plain |= u64::from(c == b' ' || c == b'\n') << k;
        }
        SpaceMasks { space, plain }
    }

    pub(super) fn range_mask(group: &[u8; GROUP], low: u8, high: u8) -> u64 {
        let mut out = 0;
        for (k, &c) in group.iter().enumerate() {
            out |= u64::from((low..=high).contains(&c)) << k;
        }
        out
    }

    pub(super) fn skeleton_group(group: &[u8; GROUP]) -> SkeletonGroup {
        let mut lowered = [0u8; GROUP + 16];
        let mut kept = 0;
        let mut looked_up = 0;
        for (k, &c) in group.iter().enumerate() {
            let lower = c.to_ascii_lowercase();
            lowered[k] = if lower == b'l' { b'i' } else { lower };
            let special = c.is_ascii_digit() || c == b'$' || c == b'@';
            kept |= u64::from(c.is_ascii_alphabetic() || special) << k;
            looked_up |= u64::from(special) << k;
        }
        SkeletonGroup {
            lowered,
            kept,
            looked_up,
        }
    }

    pub(super) fn hex_mask(group: &[u8; GROUP]) -> u64 {
        let mut out = 0;
        for (k, &c) in group.iter().enumerate() {
            out |= u64::from(c.is_ascii_hexdigit()) << k;
        }
        out
    }

    pub(super) fn newlines_as_spaces(lanes: [u8; 16]) -> [u8; 16] {
        lanes.map(|b| if b == b'\n' { b' ' } else { b })
    }

    pub(super) fn plain_masks(group: &[u8; GROUP]) -> (u64, bool) {
        let mut blank = 0;
        let mut odd = false;
        for (k, &c) in group.iter().enumerate() {
            blank |= u64::from(c == b' ' || c == b'\n') << k;
            odd |= (c < b' ' && c != b'\n') || c >= 0x80;
        }
        (blank, odd)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "x86_64")]
    proptest::proptest! {
        /// The vector masks are the portable ones, on any bytes.
        #[test]
        fn word_masks_match_the_portable_ones(group in proptest::collection::vec(proptest::num::u8::ANY, 64)) {
            let group: [u8; 64] = group.try_into().unwrap();
            proptest::prop_assert_eq!(super::word_masks(&group), super::portable::word_masks(&group));
            proptest::prop_assert_eq!(super::space_masks(&group), super::portable::space_masks(&group));
            for (low, high) in [(0x21, 0x7E), (b'0', b'9'), (0, 0xFF), (0x80, 0xBF)] {
                proptest::prop_assert_eq!(
                    super::sse2::range_mask(&group, low, high),
                    super::portable::range_mask(&group, low, high)
                );
            }
            proptest::prop_assert_eq!(super::sse2::hex_mask(&group), super::portable::hex_mask(&group));
            proptest::prop_assert_eq!(super::sse2::plain_masks(&group), super::portable::plain_masks(&group));
            let (fast, plain) = (super::sse2::skeleton_group(&group), super::portable::skeleton_group(&group));
            proptest::prop_assert_eq!((fast.kept, fast.looked_up), (plain.kept, plain.looked_up));
            for (k, byte) in group.iter().enumerate() {
                if fast.kept & !fast.looked_up & (1 << k) != 0 {
                    proptest::prop_assert_eq!(fast.lowered[k], plain.lowered[k], "byte {}", byte);
                }
            }
            for chunk in group.chunks_exact(16) {
                let lanes: [u8; 16] = chunk.try_into().unwrap();
                proptest::prop_assert_eq!(
                    super::sse2::newlines_as_spaces(lanes),
                    super::portable::newlines_as_spaces(lanes)
                );
            }
        }
    }

    proptest::proptest! {
        /// The copy is the source with newlines as spaces, whatever its length (whole chunks
        /// and the rest), and leaves the destination's tail alone.
        #[test]
        fn copy_newlines_as_spaces_is_a_mapped_copy(
            src in proptest::collection::vec(proptest::sample::select(b"\n \ta\x00\x0b\xff*".to_vec()), 0..70),
            extra in 0usize..20,
        ) {
            let mut dst = vec![b'#'; src.len() + extra];
            super::copy_newlines_as_spaces(&mut dst, &src);
            let want: Vec<u8> = src.iter().map(|&b| if b == b'\n' { b' ' } else { b }).collect();
            proptest::prop_assert_eq!(&dst[..src.len()], &want[..]);
            proptest::prop_assert!(dst[src.len()..].iter().all(|&b| b == b'#'));
        }
    }

    proptest::proptest! {
        /// The first run of a class from any offset, for any length, is the first window of
        /// that length whose bytes are all in the class.
        #[test]
        fn first_run_is_the_first_full_window(
            text in proptest::collection::vec(proptest::sample::select(b"09a -".to_vec()), 0..300),
            from in 0usize..300,
            len in 1usize..=64,
        ) {
            let from = from.min(text.len());
            let want = (from..text.len()).find(|&p| {
                text.get(p..p + len).is_some_and(|w| w.iter().all(u8::is_ascii_digit))
            });
            proptest::prop_assert_eq!(super::first_run(&text, from, len, super::digit_mask), want);
        }
    }

    #[test]
    fn run_starts_marks_full_windows() {
        for len in 1..=64 {
            for mask in [
                0u64,
                u64::MAX,
                0xFFFF_0000_FFFF_F0F0,
                0x8000_0000_0000_0001,
                0x00FF_FFFF_FF00_0000,
            ] {
                let got = super::run_starts(mask, len);
                for i in 0..64 {
                    let want = i + len <= 64 && (i..i + len).all(|b| (mask >> b) & 1 == 1);
                    assert_eq!(
                        (got >> i) & 1 == 1,
                        want,
                        "mask {mask:#x} len {len} bit {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn short_slices_have_no_bits_past_their_end() {
        let bytes = [b'7'; 64];
        for n in 0..64 {
            assert_eq!(super::digit_mask(&bytes[..n]), (1u64 << n) - 1);
            assert_eq!(super::printable_mask(&bytes[..n]), (1u64 << n) - 1);
            assert_eq!(super::hex_mask(&bytes[..n]), (1u64 << n) - 1);
            let spaces = [b' '; 64];
            assert_eq!(super::space_masks(&spaces[..n]).space, (1u64 << n) - 1);
            assert_eq!(super::space_masks(&spaces[..n]).plain, (1u64 << n) - 1);
        }
        assert_eq!(super::digit_mask(&bytes), u64::MAX);
    }

    #[test]
    fn every_byte_value_is_classed_as_defined() {
        for start in (0..256).step_by(64) {
            let group: [u8; 64] = std::array::from_fn(|k| (start + k) as u8);
            let m = super::word_masks(&group);
            for (k, &c) in group.iter().enumerate() {
                let an = c.is_ascii_alphanumeric();
                assert_eq!((m.alnum >> k) & 1 == 1, an, "{c:#x}");
                let other = !an && c > b' ' && !(0x80..=0xBF).contains(&c);
                assert_eq!((m.other >> k) & 1 == 1, other, "{c:#x}");
                assert_eq!((m.blank >> k) & 1 == 1, c <= b' ', "{c:#x}");
                let s = super::space_masks(&group);
                assert_eq!(
                    (s.space >> k) & 1 == 1,
                    c.is_ascii_whitespace() || c == 0x0B,
                    "{c:#x}"
                );
                assert_eq!((s.plain >> k) & 1 == 1, c == b' ' || c == b'\n', "{c:#x}");
                let printable = (0x21..=0x7E).contains(&c);
                assert_eq!(
                    (super::printable_mask(&group) >> k) & 1 == 1,
                    printable,
                    "{c:#x}"
                );
                assert_eq!(
                    (super::hex_mask(&group) >> k) & 1 == 1,
                    c.is_ascii_hexdigit(),
                    "{c:#x}"
                );
            }
        }
    }
}
