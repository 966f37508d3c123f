//! dynamic_stitch's loops: the copy of the rows, one per pair over its own
//! index type (every path: the static builder with its constant row length,
//! the others with the common lengths made constants), and the
//! caller-buffer form over run-time dims, [`stitch_slices`]. The copies run
//! only after the rule ([`super::rule`]) or its index scan accepted the
//! inputs, so every index is in
//! range and every length consistent; they still use checked slicing (a row
//! that does not fit is skipped, never a panic), which the checks make
//! unreachable.

use super::rule::{self, IndexSlice, StitchIndex, StitchPair};
use super::StitchError;
use crate::element::MaybeSync;
use crate::shape::Dims;

/// dynamic_stitch: `out` (exactly the output's elements, already holding
/// `T::default()`: the rows no index names keep it) gets slice `j` of
/// `data[m]` at row `indices[m][j]`, in order of (m, j), so the later of two
/// equal indices wins. Zeroing is the caller's: a fresh result is created
/// zeroed; in a caller's buffer or a kept tensor, once the output is known
/// to fit, [`clear_unnamed_rows`] zeroes the rows no index names.
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
/// Each pair's rows are copied by [`copy_pair_rows`] over its own index
/// type, as on the static path.
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
        match p.indices {
            IndexSlice::I32(indices) => copy_rows_of(indices, p.data, slice_len, out, first_row),
            IndexSlice::I64(indices) => copy_rows_of(indices, p.data, slice_len, out, first_row),
        }
    }
}

/// [`copy_pair_rows`] for a row length known at run time only (`n > 0`):
/// the common lengths are given as constants, so that, as on the static
/// path (whose length is a constant of its types), each row is a fixed
/// number of moves rather than a call of `memcpy` (on W5's 2^20 rows of 16
/// f32, the call was a fifth of the time).
#[inline(always)]
fn copy_rows_of<T: Copy, I: StitchIndex>(
    indices: &[I],
    data: &[T],
    n: usize,
    out: &mut [T],
    first_row: usize,
) {
    match n {
        1 => copy_pair_rows(indices, data, 1, out, first_row),
        2 => copy_pair_rows(indices, data, 2, out, first_row),
        3 => copy_pair_rows(indices, data, 3, out, first_row),
        4 => copy_pair_rows(indices, data, 4, out, first_row),
        8 => copy_pair_rows(indices, data, 8, out, first_row),
        16 => copy_pair_rows(indices, data, 16, out, first_row),
        32 => copy_pair_rows(indices, data, 32, out, first_row),
        64 => copy_pair_rows(indices, data, 64, out, first_row),
        n => copy_pair_rows(indices, data, n, out, first_row),
    }
}

/// Sets the rows of `out` that no index of `pairs` names to `T::default()`
/// (rows of `slice_len` elements; `out` is exactly the output and every
/// index is checked, as for [`stitch_rows`], which then writes the others).
///
/// On a large output of long rows, with a heap ([`named_rows`]), only the
/// unnamed rows are written, found from a bit set of the named ones: on W5
/// (2^20 rows of 16 f32, every row named) the fill of all 64 MiB was the
/// whole gap between the `into` form and the hand-written scatter. Else,
/// and where the bit set cannot be allocated, the whole output is filled.
pub(crate) fn clear_unnamed_rows<'a, T: Copy + Default + 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>>,
    slice_len: usize,
    out: &mut [T],
) {
    #[cfg(feature = "alloc")]
    if let Some(named) = named_rows(pairs, slice_len, out.len()) {
        let mut start = None;
        for (k, &word) in named.iter().enumerate() {
            // a word of named rows while no run is open, or of unnamed
            // rows while one is, changes nothing
            if (word == u64::MAX && start.is_none()) || (word == 0 && start.is_some()) {
                continue;
            }
            for bit in 0..64 {
                let row = k * 64 + bit;
                match (word >> bit & 1 == 1, start) {
                    (false, None) => start = Some(row),
                    (true, Some(first)) => {
                        fill_rows(out, slice_len, first, row);
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        // a run still open here started past the last row (the bits past
        // the rows are clear): the last row is named, by the largest index
        return;
    }
    #[cfg(not(feature = "alloc"))]
    let _ = (pairs, slice_len);
    out.fill(T::default());
}

/// Rows `first..end` of `out` (rows of `n` elements) set to `T::default()`.
#[cfg(feature = "alloc")]
fn fill_rows<T: Copy + Default>(out: &mut [T], n: usize, first: usize, end: usize) {
    // `first < end <= rows`: the range is inside `out`
    if let Some(rows) = out.get_mut(first.saturating_mul(n)..end.saturating_mul(n)) {
        rows.fill(T::default());
    }
}

/// The outputs on which [`clear_unnamed_rows`] writes only the unnamed
/// rows: at least 1 MiB, in rows of at least 64 bytes. On shorter rows
/// the fill costs less per row than setting a row's bit (a random write),
/// and a small output fills in less time than the bit set's allocation.
#[cfg(feature = "alloc")]
const NAMED_ROWS_FROM_BYTES: usize = 1 << 20;
#[cfg(feature = "alloc")]
const NAMED_ROWS_MIN_ROW_BYTES: usize = 64;

/// The bit set of the output rows some index of `pairs` names (bit `r % 64`
/// of word `r / 64` for row `r`), or `None` where the whole output is filled
/// instead: an output below the sizes above, a target that keeps code
/// small ([`crate::kernel::SPEED_OVER_SIZE`]), or a bit set that cannot be
/// allocated.
#[cfg(feature = "alloc")]
fn named_rows<'a, T: 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>>,
    slice_len: usize,
    len: usize,
) -> Option<alloc::vec::Vec<u64>> {
    let size = core::mem::size_of::<T>();
    if !crate::kernel::SPEED_OVER_SIZE
        || slice_len.saturating_mul(size) < NAMED_ROWS_MIN_ROW_BYTES
        || len.saturating_mul(size) < NAMED_ROWS_FROM_BYTES
    {
        return None;
    }
    let rows = len / slice_len;
    let mut words = alloc::vec::Vec::new();
    words.try_reserve_exact(rows.div_ceil(64)).ok()?;
    words.resize(rows.div_ceil(64), 0u64);
    fn mark<I: StitchIndex>(words: &mut [u64], indices: &[I]) {
        for &v in indices {
            // checked by the rule: 0 <= v < rows
            if let Ok(r) = usize::try_from(v.to_i64())
                && let Some(w) = words.get_mut(r / 64)
            {
                *w |= 1 << (r % 64);
            }
        }
    }
    for p in pairs {
        match p.indices {
            IndexSlice::I32(indices) => mark(&mut words, indices),
            IndexSlice::I64(indices) => mark(&mut words, indices),
        }
    }
    Some(words)
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

/// The row copy of one pair, every path's: row `indices[j]` of the output
/// (rows of `n > 0` elements; `out` holds its rows `first_row..`, and an
/// index outside them is skipped) gets row `j` of `data`, in order. The
/// static builder calls it with its constant `n` and `first_row` 0, the
/// other paths through [`copy_rows_of`].
///
/// On a large output of rows of 32 bytes or more
/// ([`prefetch::pays`](crate::kernel::prefetch::pays)), the row of
/// `indices[j + AHEAD]` is asked for while row `j` is copied, so that the
/// scattered writes do not each wait for their line (W5: 0.8 of the plain
/// loop's time).
#[inline(always)]
pub(crate) fn copy_pair_rows<T: Copy, I: StitchIndex>(
    indices: &[I],
    data: &[T],
    n: usize,
    out: &mut [T],
    first_row: usize,
) {
    use crate::kernel::prefetch;
    let rows = indices.iter().zip(data.chunks_exact(n));
    if prefetch::pays::<T>(n, out.len()) {
        for (j, (&v, src)) in rows.enumerate() {
            let ahead = j.saturating_add(prefetch::AHEAD);
            if let Some(row) = indices
                .get(ahead)
                .and_then(|&w| out_row(out, w, n, first_row))
            {
                prefetch::row(row);
            }
            if let Some(dst) = out_row(out, v, n, first_row) {
                dst.copy_from_slice(src);
            }
        }
    } else {
        for (&v, src) in rows {
            if let Some(dst) = out_row(out, v, n, first_row) {
                dst.copy_from_slice(src);
            }
        }
    }
}

/// Row `v` of the output in `out` (rows of `n` elements, `out` holding rows
/// `first_row..`), `None` outside them. The rule (or the static scan)
/// accepted every value (0 <= v < rows, and the output holds rows * n
/// elements), so for the whole output this is never `None`: the checked
/// slicing skips a row rather than panic.
#[inline(always)]
fn out_row<T, I: StitchIndex>(out: &mut [T], v: I, n: usize, first_row: usize) -> Option<&mut [T]> {
    let start = usize::try_from(v.to_i64())
        .ok()?
        .checked_sub(first_row)?
        .checked_mul(n)?;
    out.get_mut(start..start.checked_add(n)?)
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
    clear_unnamed_rows(pairs.iter().copied(), rule::slice_len(&dims), dst);
    stitch_rows(pairs.iter().copied(), rule::slice_len(&dims), dst);
    Ok(dims)
}
