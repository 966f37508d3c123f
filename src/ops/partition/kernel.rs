//! dynamic_partition's loops, and the caller-buffer form over run-time
//! dims, [`partition_slices`]. They run only after the rule ([`super::rule`])
//! accepted the inputs, so every partition value is in range and every
//! length consistent; they still use checked slicing (a slice that does not
//! fit is skipped, never a panic), which the checks make unreachable.

use super::rule;
use crate::ops::indexed::StitchError;
use crate::ops::indexed::{prefix_of, IndexSlice, StitchIndex};
use crate::shape::Dims;

/// Calls `row(i, src)` for each slice `src` of `data` (rows of `n > 0`
/// elements), in order, with `i` its partition value (a negative value,
/// which the rule rejects before any loop runs, is skipped). The index type
/// is matched once, and the common row lengths are made constants, as in
/// stitch's row copy, so that after inlining each row's copy is a fixed
/// number of moves rather than a call of `memcpy` (on W7's 2^20 rows of 16
/// f32 the call and the iterator over both index types cost about half of
/// the time).
#[inline(always)]
fn each_row<T: Copy>(
    data: &[T],
    n: usize,
    partitions: IndexSlice<'_>,
    mut row: impl FnMut(usize, &[T]),
) {
    if n == 0 {
        return;
    }
    match partitions {
        IndexSlice::I32(values) => rows_of_len(values, data, n, &mut row),
        IndexSlice::I64(values) => rows_of_len(values, data, n, &mut row),
    }
}

/// [`each_row`] for one index type, the row length dispatched to constants.
#[inline(always)]
fn rows_of_len<T: Copy, V: StitchIndex>(
    values: &[V],
    data: &[T],
    n: usize,
    row: &mut impl FnMut(usize, &[T]),
) {
    match n {
        1 => rows_of(values, data, 1, row),
        2 => rows_of(values, data, 2, row),
        3 => rows_of(values, data, 3, row),
        4 => rows_of(values, data, 4, row),
        8 => rows_of(values, data, 8, row),
        16 => rows_of(values, data, 16, row),
        32 => rows_of(values, data, 32, row),
        64 => rows_of(values, data, 64, row),
        n => rows_of(values, data, n, row),
    }
}

/// The loop of [`each_row`]: `n` is a constant where the caller matched it.
#[inline(always)]
fn rows_of<T: Copy, V: StitchIndex>(
    values: &[V],
    data: &[T],
    n: usize,
    row: &mut impl FnMut(usize, &[T]),
) {
    for (&v, src) in values.iter().zip(data.chunks_exact(n)) {
        if let Ok(i) = usize::try_from(v.to_i64()) {
            row(i, src);
        }
    }
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
    each_row(data, slice_len, partitions, |i, src| {
        let Some(cursor) = cursors.get_mut(i) else {
            return;
        };
        let at = *cursor;
        if let Some(dst) = out.get_mut(at..at.saturating_add(src.len())) {
            dst.copy_from_slice(src);
        }
        *cursor = at.saturating_add(src.len());
    });
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
            if value == want
                && let Some(d) = dst.next()
            {
                d.copy_from_slice(src);
            }
        }
    }
}

/// dynamic_partition into one vector per output (reserved by the caller):
/// slice `j` of `data` is appended to `outs[partitions[j]]`.
/// Slice `j` of `data` appended to `outs[partitions[j]]` (each written from
/// its front, in row-major order): the bounded form's loop, into rooms the
/// rule and the capacity check have sized.
pub(crate) fn partition_fronts<T: Copy, const NUM: usize>(
    data: &[T],
    slice_len: usize,
    partitions: IndexSlice<'_>,
    outs: &mut [&mut [T]; NUM],
) {
    if slice_len == 0 {
        return;
    }
    let mut cursors = [0usize; NUM];
    each_row(data, slice_len, partitions, |i, src| {
        let (Some(out), Some(at)) = (outs.get_mut(i), cursors.get_mut(i)) else {
            return;
        };
        if let Some(dst) = out.get_mut(*at..at.saturating_add(src.len())) {
            dst.copy_from_slice(src);
        }
        *at = at.saturating_add(src.len());
    });
}

/// The slices `data[j, ..]` with `partitions[j] == i`, in row-major order,
/// written from the front of `out` (which the rule and the capacity check
/// sized): the bounded `_into` form's loop, one output at a time.
pub(crate) fn partition_one<T: Copy>(
    data: &[T],
    slice_len: usize,
    partitions: IndexSlice<'_>,
    i: usize,
    out: &mut [T],
) {
    if slice_len == 0 {
        return;
    }
    let mut dst = out.chunks_exact_mut(slice_len);
    for (value, src) in partitions.values().zip(data.chunks_exact(slice_len)) {
        if usize::try_from(value).ok() != Some(i) {
            continue;
        }
        if let Some(row) = dst.next() {
            row.copy_from_slice(src);
        }
    }
}

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
    each_row(data, slice_len, partitions, |i, src| {
        if let Some(out) = outs.get_mut(i) {
            out.extend_from_slice(src);
        }
    });
}

/// dynamic_partition over run-time dims, no heap: fills `counts` (one
/// entry per partition, `counts.len()` = NUM) and writes the outputs one
/// after the other to the front of `out` (data's element count is enough);
/// output `i` has dims `[counts[i]] + slice` and starts after the outputs
/// before it. Returns the slice dims. An error, with `counts` and `out`
/// untouched, if a rule fails or `out` is too short.
///
/// ```
/// use shapecheck::ops::partition::partition_slices;
/// use shapecheck::StitchError;
/// let mut counts = [0; 2];
/// let mut out = [0; 6];
/// let slice = partition_slices(&[3, 2], &[1, 2, 3, 4, 5, 6], &[3], &[1i32, 0, 1], &mut counts, &mut out).unwrap();
/// assert_eq!((slice.as_slice(), counts), (&[2][..], [1, 2]));
/// assert_eq!(out, [3, 4, 1, 2, 5, 6]);
/// let err = partition_slices(&[3, 2], &[1, 2, 3, 4, 5, 6], &[3], &[1i32, 0, 2], &mut counts, &mut out);
/// assert_eq!(err, Err(StitchError::PartitionOutOfRange { position: 2, value: 2, num: 2 }));
/// ```
pub fn partition_slices<T: Copy, I: StitchIndex>(
    data_dims: &[usize],
    data: &[T],
    partitions_dims: &[usize],
    partitions: &[I],
    counts: &mut [usize],
    out: &mut [T],
) -> Result<Dims, StitchError> {
    let values = I::index_slice(partitions);
    // every check, then the buffer, before `counts` or `out` is written
    let slice =
        rule::partition_check(data_dims, data.len(), partitions_dims, values, counts.len())?;
    let slice_len = rule::partition_slice_len(&slice);
    let dst = prefix_of(out, &Dims::new(data_dims)?)?;
    rule::partition_count(values, counts);
    partition_rows_scan(data, slice_len, values, counts.len(), dst);
    Ok(slice)
}
