//! Bit masks of byte classes over 64 bytes at a time: bit `k` of a mask says whether byte `k`
//! of the group is in the class.
//!
//! On x86-64 the classes come from SSE2 compares and `pmovmskb` (16 bytes to 16 bits in one
//! instruction), through `safe_arch`'s safe wrappers of the intrinsics, since the crate forbids
//! `unsafe`. SSE2 is part of the x86-64 baseline, so no feature detection is needed. Portable
//! byte loops cannot get `pmovmskb` from the compiler: they gather the bits with a multiply per
//! eight bytes, which costs more than the compares. Elsewhere the portable code runs.

/// Bytes per group: one bit each in a `u64`.
pub(crate) const GROUP: usize = 64;

/// Letters and digits (`[A-Za-z0-9]`), and bytes the prefilter probes wherever they are: any
/// other byte above a space that is not a UTF-8 continuation byte (`0x80..=0xBF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WordMasks {
    pub(crate) alnum: u64,
    pub(crate) other: u64,
}

/// [`WordMasks`] of one group.
#[inline(always)]
pub(crate) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::word_masks(group)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::word_masks(group)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use safe_arch::{
        bitandnot_m128i, bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i,
        max_u8_m128i, min_u8_m128i, move_mask_i8_m128i, set_splat_i8_m128i, sub_i8_m128i,
    };

    use super::{GROUP, WordMasks};

    fn splat(b: u8) -> m128i {
        set_splat_i8_m128i(b as i8)
    }

    /// All ones in the lanes where `x <= max` (unsigned).
    #[inline(always)]
    fn at_most(x: m128i, max: u8) -> m128i {
        cmp_eq_mask_i8_m128i(min_u8_m128i(x, splat(max)), x)
    }

    #[inline(always)]
    fn bits(x: m128i) -> u64 {
        u64::from(move_mask_i8_m128i(x) as u16)
    }

    #[inline(always)]
    pub(super) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
        let mut alnum = 0;
        let mut other = 0;
        for (k, chunk) in group.chunks_exact(16).enumerate() {
            let mut lanes = [0u8; 16];
            lanes.copy_from_slice(chunk);
            let c = load_unaligned_m128i(&lanes);
            let letter = at_most(sub_i8_m128i(bitor_m128i(c, splat(0x20)), splat(b'a')), 25);
            let digit = at_most(sub_i8_m128i(c, splat(b'0')), 9);
            let an = bitor_m128i(letter, digit);
            let above_space = cmp_eq_mask_i8_m128i(max_u8_m128i(c, splat(b'!')), c);
            let continuation = at_most(sub_i8_m128i(c, splat(0x80)), 0x3F);
            let ot = bitandnot_m128i(bitor_m128i(an, continuation), above_space);
            alnum |= bits(an) << (16 * k);
            other |= bits(ot) << (16 * k);
        }
        WordMasks { alnum, other }
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod portable {
    use super::{GROUP, WordMasks};

    pub(super) fn word_masks(group: &[u8; GROUP]) -> WordMasks {
        let mut alnum = 0;
        let mut other = 0;
        for (k, &c) in group.iter().enumerate() {
            let an = c.is_ascii_alphanumeric();
            alnum |= u64::from(an) << k;
            other |= u64::from(!an && c > b' ' && !(0x80..=0xBF).contains(&c)) << k;
        }
        WordMasks { alnum, other }
    }
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// The vector masks are the portable ones, on any bytes.
        #[test]
        fn word_masks_match_the_portable_ones(group in proptest::collection::vec(proptest::num::u8::ANY, 64)) {
            let group: [u8; 64] = group.try_into().unwrap();
            proptest::prop_assert_eq!(super::word_masks(&group), super::portable::word_masks(&group));
        }
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
            }
        }
    }
}
