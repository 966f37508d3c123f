//! The copy loops. They run only after the rule ([`super::rule`]) accepted
//! the inputs, so every index is in range and every length consistent; they
//! still use checked slicing (a row that does not fit is skipped, never a
//! panic), which the checks above make unreachable.

use super::{IndexSlice, StitchPair};
use crate::element::MaybeSync;

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

/// dynamic_partition into one buffer: `cursors[i]` is where output `i`'s next
/// slice goes in `out` (initially the outputs' start offsets, in elements);
/// slice `j` of `data` goes to output `partitions[j]`, in row-major order.
pub(crate) fn partition_rows<T: Copy>(
    data: &[T],
    slice_len: usize,
    partitions: IndexSlice<'_>,
    cursors: &mut [usize],
    out: &mut [T],
) {
    if slice_len == 0 {
        return;
    }
    for (value, src) in partitions.values().zip(data.chunks_exact(slice_len)) {
        let cursor = usize::try_from(value).ok().and_then(|i| cursors.get_mut(i));
        let Some(cursor) = cursor else { continue };
        let at = *cursor;
        if let Some(dst) = out.get_mut(at..at.saturating_add(slice_len)) {
            dst.copy_from_slice(src);
        }
        *cursor = at.saturating_add(slice_len);
    }
}

/// Start offsets (in elements) of outputs holding `counts[i]` slices each,
/// laid out one after the other; `cursors` gets them. The total is at most
/// the data's length, so nothing overflows.
pub(crate) fn start_offsets(counts: &[usize], slice_len: usize, cursors: &mut [usize]) {
    let mut at = 0usize;
    for (c, n) in cursors.iter_mut().zip(counts) {
        *c = at;
        at = at.saturating_add(n.saturating_mul(slice_len));
    }
}

/// dynamic_partition into one buffer without scratch space: output 0's
/// slices, then output 1's, ..., one pass over `partitions` per output.
pub(crate) fn partition_rows_scan<T: Copy>(
    data: &[T],
    slice_len: usize,
    partitions: IndexSlice<'_>,
    num: usize,
    out: &mut [T],
) {
    if slice_len == 0 {
        return;
    }
    let mut dst = out.chunks_exact_mut(slice_len);
    for i in 0..num {
        let want = i64::try_from(i).unwrap_or(i64::MAX);
        for (value, src) in partitions.values().zip(data.chunks_exact(slice_len)) {
            if value == want {
                if let Some(d) = dst.next() {
                    d.copy_from_slice(src);
                }
            }
        }
    }
}

/// dynamic_partition into one vector per output (reserved by the caller):
/// slice `j` of `data` is appended to `outs[partitions[j]]`.
#[cfg(feature = "alloc")]
pub(crate) fn partition_push<T: Copy>(
    data: &[T],
    slice_len: usize,
    partitions: IndexSlice<'_>,
    outs: &mut [alloc::vec::Vec<T>],
) {
    if slice_len == 0 {
        return;
    }
    for (value, src) in partitions.values().zip(data.chunks_exact(slice_len)) {
        if let Some(out) = usize::try_from(value).ok().and_then(|i| outs.get_mut(i)) {
            out.extend_from_slice(src);
        }
    }
}
