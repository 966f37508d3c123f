//! A slice of arrays as one flat slice: how a static tensor's nested array
//! (`[[T; 4]; 3]`) is read and written as its 12 elements
//! ([`StaticDim::flatten`](super::StaticDim::flatten) of `Dim` and `One`).
//! A fact of the arrays' layout, so it sits with the dims and, like them,
//! imports nothing of the crate.
//!
//! `core`'s `as_flattened` does the same, but it is a generic function not
//! marked `#[inline]`: in a user's crate built with the default release
//! profile (16 codegen units) its copy can land in another unit than the op
//! that calls it, and the op's loops are then optimized before they know
//! the slice's length. Bench X5 (`select` of `[2, 3, 4]` with a `[3, 1]`
//! condition and a scalar else) took 10.9 ns there against the hand loop's
//! 2.1 ns; with these two functions, which are inlined into every unit,
//! 2.4 ns (docs/measurements.md, issue 34 at stop 50).

/// `s`'s elements in order, as one slice of `s.len() * N` elements.
#[inline(always)]
pub(crate) fn flatten<T, const N: usize>(s: &[[T; N]]) -> &[T] {
    match s.len().checked_mul(N) {
        // SAFETY: `[T; N]` is `N` values of `T` one after the other, with
        // `T`'s alignment, and a slice of arrays is its arrays one after
        // the other: the `len` values of `T` from `s.as_ptr()` are exactly
        // the memory of `s`, every one initialized, and a pointer aligned
        // for `[T; N]` is aligned for `T`. Their size is `s`'s own, so it
        // fits in `isize`. The result borrows `s` immutably for its own
        // lifetime, so nothing writes to that memory while it lives.
        Some(len) => unsafe { core::slice::from_raw_parts(s.as_ptr().cast::<T>(), len) },
        // only for a zero-sized `T` (otherwise `len` bytes fit in memory)
        None => s.as_flattened(),
    }
}

/// `s`'s elements in order, as one mutable slice of `s.len() * N` elements.
#[inline(always)]
pub(crate) fn flatten_mut<T, const N: usize>(s: &mut [[T; N]]) -> &mut [T] {
    match s.len().checked_mul(N) {
        // SAFETY: as in `flatten`, the `len` values are exactly the memory
        // of `s`; the result borrows `s` mutably for its own lifetime, so
        // it is the only way to that memory while it lives.
        Some(len) => unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<T>(), len) },
        None => s.as_flattened_mut(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length from 0 to 9 rows, at every offset into a larger slice
    /// (so the start is not where the allocation starts), for elements of
    /// 1, 3, 8 and 16 bytes and of no size: the same elements as `core`'s
    /// `as_flattened`, at the same address, and a write through the flat
    /// slice lands in the row and column it names.
    #[test]
    fn flat_slices_are_the_rows_one_after_the_other() {
        fn check<T: Copy + PartialEq + core::fmt::Debug, const N: usize>(
            make: impl Fn(usize) -> T,
        ) {
            let mut rows: [[T; N]; 12] =
                core::array::from_fn(|r| core::array::from_fn(|c| make(r * N + c)));
            for start in 0..12 {
                for len in 0..=(12 - start).min(9) {
                    let s = &rows[start..start + len];
                    let flat = flatten(s);
                    assert_eq!(flat, s.as_flattened());
                    assert_eq!(flat.as_ptr(), s.as_ptr().cast::<T>());
                }
            }
            for start in 0..12 {
                let len = 12 - start;
                let last = len * N;
                if last == 0 {
                    continue;
                }
                let new = make(1000);
                flatten_mut(&mut rows[start..])[last - 1] = new;
                assert_eq!(rows[11][N - 1], new);
                assert_eq!(flatten_mut(&mut rows[start..]).len(), last);
            }
        }
        check::<u8, 1>(|i| i as u8);
        check::<u8, 3>(|i| i as u8);
        check::<[u8; 3], 5>(|i| [i as u8, 1, 2]);
        check::<f64, 4>(|i| i as f64);
        check::<u128, 2>(|i| i as u128);
        check::<(), 7>(|_| ());
    }

    /// Zero-sized elements, and rows of none: the flat length is the
    /// product, as for any other element.
    #[test]
    fn zero_sized_rows_count_like_core() {
        let rows = [[(); 3]; 5];
        assert_eq!(flatten(&rows).len(), 15);
        let none: [[(); 0]; 4] = [[]; 4];
        assert!(flatten(&none).is_empty());
    }
}
