//! dynamic_stitch's loops: the copy of the rows (every path), the static
//! builder's per-pair index scan and row copy, and the caller-buffer form
//! over run-time dims, [`stitch_slices`]. The copies run only after the rule
//! ([`super::rule`]) or the scan accepted the inputs, so every index is in
//! range and every length consistent; they still use checked slicing (a row
//! that does not fit is skipped, never a panic), which the checks make
//! unreachable.

use super::rule::StitchIndex;
use super::rule::{self, StitchPair};
use super::StitchError;
use crate::element::MaybeSync;
use crate::shape::Dims;

/// dynamic_stitch: `out` (exactly the output's elements, already holding
/// `T::default()`: the rows no index names keep it) gets slice `j` of
/// `data[m]` at row `indices[m][j]`, in order of (m, j), so the later of two
/// equal indices wins. Zeroing is the caller's: a fresh result is created
/// zeroed, a caller's buffer is zeroed once it is known to fit.
///
/// With feature `rayon` and an output of at least
/// [`crate::kernel::par::PAR_MIN_ELEMS`] elements, [`stitch_rows_par`].
pub(crate) fn stitch_rows<'a, T: Copy + MaybeSync + 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>>,
    slice_len: usize,
    out: &mut [T],
) {
    #[cfg(feature = "rayon")]
    if crate::kernel::par::splits(out.len()) {
        let pairs: alloc::vec::Vec<_> = pairs.collect();
        return stitch_rows_par(&pairs, out, || slice_len);
    }
    stitch_rows_from(pairs, slice_len, out, 0);
}

/// [`stitch_rows`] for the output rows `first_row..` only, `out` holding
/// them (whole rows of `slice_len`): every pair is read in the same (m, j)
/// order and an index outside `out`'s rows is skipped, so each range gets
/// what the whole-output loop writes there, the later duplicate included.
#[inline(always)]
pub(crate) fn stitch_rows_from<'a, T: Copy + 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>>,
    slice_len: usize,
    out: &mut [T],
    first_row: usize,
) {
    if slice_len == 0 {
        return;
    }
    for p in pairs {
        let rows = p.data.chunks_exact(slice_len);
        for (value, src) in p.indices.values().zip(rows) {
            let row = usize::try_from(value)
                .ok()
                .and_then(|v| v.checked_sub(first_row));
            let dst = row
                .and_then(|r| r.checked_mul(slice_len))
                .and_then(|s| out.get_mut(s..s.checked_add(slice_len)?));
            if let Some(dst) = dst {
                dst.copy_from_slice(src);
            }
        }
    }
}

/// dynamic_stitch on rayon's pool (feature `rayon`), for a `rule`-checked
/// output of at least [`crate::kernel::par::PAR_MIN_ELEMS`] elements: the
/// output rows are cut into one range per thread, and each task runs
/// [`stitch_rows_from`] over every pair for its own range (partition by
/// destination: the ranges are disjoint, and within each the pairs are read
/// in (m, j) order, so the later of two equal indices still wins). Each
/// task reads every index once; only the rows of its range are copied.
/// `slice_len` is a closure so that the static path can return its
/// constant inside the task, where the row copy then compiles to a fixed
/// number of moves.
///
/// Two other schemes were measured on W5 and were slower (2 threads, 2
/// shared cores): a branch-free choice between the row and a scratch row
/// (every index then costs a row copy), and a serial pass recording each
/// row's winning `(m, j)` followed by a parallel gather (random reads of
/// the sources instead of random writes: 34 ms against 17 ms).
#[cfg(feature = "rayon")]
pub(crate) fn stitch_rows_par<T: Copy + Send + Sync>(
    pairs: &[StitchPair<'_, T>],
    out: &mut [T],
    slice_len: impl Fn() -> usize + Sync + Send,
) {
    let n = slice_len();
    let pieces = rayon::current_num_threads();
    crate::kernel::par::for_row_pieces(out, n, pieces, |piece, first_row| {
        stitch_rows_from(pairs.iter().copied(), slice_len(), piece, first_row);
    });
}

/// The largest index seen so far by [`scan_indices`] and where (`value` -1:
/// none yet).
pub struct MaxIndex {
    /// The value.
    pub value: i64,
    /// The pair holding it.
    pub m: usize,
    /// Its flat position in `indices[m]`.
    pub j: usize,
}

/// The static builder's index scan of pair `m`: every value in order; the
/// first negative one is the rule's [`StitchError::NegativeIndex`]; `max`
/// gets the first of the largest (later pairs are scanned after, so over
/// all pairs it is the first in (m, j) order, as the rule's).
#[inline(always)]
pub(crate) fn scan_indices<I: StitchIndex>(
    m: usize,
    indices: &[I],
    max: &mut MaxIndex,
) -> Result<(), StitchError> {
    for (j, &v) in indices.iter().enumerate() {
        let value = v.to_i64();
        if value < 0 {
            return Err(StitchError::NegativeIndex { m, j, value });
        }
        if value > max.value {
            *max = MaxIndex { value, m, j };
        }
    }
    Ok(())
}

/// The static builder's row copy of one pair: row `indices[j]` of `out`
/// (rows of `n > 0` elements) gets row `j` of `data`, in order.
#[inline(always)]
pub(crate) fn copy_pair_rows<T: Copy, I: StitchIndex>(
    indices: &[I],
    data: &[T],
    n: usize,
    out: &mut [T],
) {
    for (&v, src) in indices.iter().zip(data.chunks_exact(n)) {
        // `scan_indices` accepted every value (0 <= v < rows, and `out`
        // holds rows * n elements); the checked slicing below cannot fail,
        // and would skip the row rather than panic
        let Ok(k) = usize::try_from(v.to_i64()) else {
            continue;
        };
        let dst = k
            .checked_mul(n)
            .and_then(|s| out.get_mut(s..s.checked_add(n)?));
        if let Some(dst) = dst {
            dst.copy_from_slice(src);
        }
    }
}

/// dynamic_stitch over run-time dims, no heap: writes the output to the
/// front of `out` and returns its dims (an error, with `out` untouched, if a
/// rule fails or the output does not fit).
///
/// ```
/// use shapecheck::ops::stitch::{stitch_slices, StitchError, StitchPair};
/// let pairs = [
///     StitchPair::new(&[2], &[0i32, 2], &[2, 2], &[1, 2, 5, 6]).unwrap(),
///     StitchPair::new(&[], &[3i32], &[2], &[7, 8]).unwrap(),
/// ];
/// let mut out = [-1; 10];
/// let dims = stitch_slices(&pairs, &mut out).unwrap();
/// assert_eq!(dims.as_slice(), &[4, 2]);
/// assert_eq!(out[..8], [1, 2, 0, 0, 5, 6, 7, 8]);
///
/// let bad = [StitchPair::new(&[2], &[0i32, -4], &[2, 2], &[1, 2, 5, 6]).unwrap()];
/// let err = stitch_slices(&bad, &mut out).unwrap_err();
/// assert_eq!(err, StitchError::NegativeIndex { m: 0, j: 1, value: -4 });
/// ```
pub fn stitch_slices<T: Copy + Default + MaybeSync>(
    pairs: &[StitchPair<'_, T>],
    out: &mut [T],
) -> Result<Dims, StitchError> {
    let dims = rule::stitch_output_dims(pairs.iter().copied())?;
    let dst = rule::prefix_of(out, &dims)?;
    dst.fill(T::default());
    stitch_rows(pairs.iter().copied(), rule::slice_len(&dims), dst);
    Ok(dims)
}
