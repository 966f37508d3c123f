//! Shared by tests/select.rs and tests/grad.rs: shapes drawn so that they
//! usually fit one of select's rules (and, through numpy's, the
//! elementwise rule), so that a property test meets accepted cases often.

use proptest::prelude::*;

/// A shape derived from `base` so that it usually fits one of the rules.
pub fn derived(base: Vec<usize>) -> impl Strategy<Value = Vec<usize>> {
    let r = base.len();
    let b1 = base.clone();
    let b2 = base.clone();
    let b3 = base;
    prop_oneof![
        // the same shape
        Just(b1),
        // numpy: a suffix with some dims set to 1
        (0..=r, prop::collection::vec(any::<bool>(), r)).prop_map(move |(k, ones)| {
            b2[r - k..]
                .iter()
                .zip(&ones)
                .map(|(&d, &one)| if one { 1 } else { d })
                .collect()
        }),
        // pdpd: a slice at some offset, some dims set to 1, trailing 1s appended
        (
            0..=r,
            0..=r,
            prop::collection::vec(any::<bool>(), r),
            0..3usize
        )
            .prop_map(move |(off, len, ones, extra)| {
                let end = (off + len).min(r);
                let mut v: Vec<usize> = b3[off.min(end)..end]
                    .iter()
                    .zip(&ones)
                    .map(|(&d, &one)| if one { 1 } else { d })
                    .collect();
                v.extend(std::iter::repeat_n(1, extra));
                v
            }),
        // anything
        prop::collection::vec(0..4usize, 0..=4),
    ]
}
