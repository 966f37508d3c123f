//! Shapes given as slices of dims, for the kernels that take a shape of
//! any rank (`ADD`'s broadcasting, `PAD`): their element counts, checked.

use crate::format::error::TfliteError;

/// The most dims a shape given to [`add_int8`](crate::add_int8) or
/// [`pad`](crate::ops::pad) may have (TFLite Micro broadcasts up to 6; it pads
/// up to 5).
pub(crate) const MAX_RANK: usize = 6;

/// The element count of `shape`, its product taken from the innermost dim
/// outward, or `None` if one of those partial products overflows: then
/// every block of inner dims a kernel walks has a count that fits too,
/// even when an outer dim of 0 makes the whole count 0.
pub(crate) fn element_count(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .rev()
        .try_fold(1usize, |count, &d| count.checked_mul(d))
}

/// Checks that a slice `what` of `actual` elements holds a tensor of
/// `shape`, and returns its element count (an overflowing count is a
/// [`TfliteError::Length`] with `expected` `usize::MAX`).
pub(crate) fn check_length(
    what: &'static str,
    shape: &[usize],
    actual: usize,
) -> Result<usize, TfliteError> {
    match element_count(shape) {
        Some(expected) if expected == actual => Ok(expected),
        Some(expected) => Err(TfliteError::Length {
            what,
            expected,
            actual,
        }),
        None => Err(TfliteError::Length {
            what,
            expected: usize::MAX,
            actual,
        }),
    }
}

/// Dim `k` (`0 ≤ k < rank`) of `shape` right-aligned in `rank` dims, as
/// TFLite's `RuntimeShape::ExtendedShape`: 1 where `shape` has none.
pub(crate) fn aligned(shape: &[usize], rank: usize, k: usize) -> usize {
    k.checked_sub(rank.saturating_sub(shape.len()))
        .and_then(|i| shape.get(i))
        .copied()
        .unwrap_or(1)
}
