//! dynamic_partition's one run-time rule: the data's and partitions' dims
//! and the partition values to the slice dims and each output's count, or
//! the typed error. Every path calls it: the static functions, the
//! caller-buffer form, `DynTensor`.

use crate::kernel::SPEED_OVER_SIZE;
use crate::ops::indexed::StitchError;
use crate::ops::indexed::{with_rows, IndexSlice, StitchIndex};
use crate::shape::Dims;
use shapecheck_rules::indexed::slice_rank;

/// dynamic_partition's rule: checks that `data_dims` (holding `data_len`
/// values) starts with `partitions_dims` and that every partition value is in
/// `[0, counts.len())`, fills `counts[i]` with the number of slices going to
/// output `i`, and returns the slice dims (data's dims after the prefix).
/// Output `i` has dims `[counts[i]] + slice`. On error `counts` is untouched.
///
/// ```
/// use shapecheck::ops::partition::partition_slice_dims;
/// use shapecheck::IndexSlice;
/// let mut counts = [0; 2];
/// let slice = partition_slice_dims(&[3, 2], 6, &[3], IndexSlice::I32(&[1, 0, 1]), &mut counts).unwrap();
/// assert_eq!(slice.as_slice(), &[2]);
/// assert_eq!(counts, [1, 2]);
/// let err = partition_slice_dims(&[3, 2], 6, &[3], IndexSlice::I32(&[1, 2, 1]), &mut [9, 9]).unwrap_err();
/// assert_eq!(err.rule(), "dynamic_partition/range");
/// let err = partition_slice_dims(&[3, 2], 6, &[2], IndexSlice::I32(&[0, 1]), &mut counts).unwrap_err();
/// assert_eq!(err.rule(), "dynamic_partition/prefix");
/// assert_eq!(counts, [1, 2]); // untouched
/// ```
pub fn partition_slice_dims(
    data_dims: &[usize],
    data_len: usize,
    partitions_dims: &[usize],
    partitions: IndexSlice<'_>,
    counts: &mut [usize],
) -> Result<Dims, StitchError> {
    let slice = partition_check(
        data_dims,
        data_len,
        partitions_dims,
        partitions,
        counts.len(),
    )?;
    partition_count(partitions, counts);
    Ok(slice)
}

/// The checks of [`partition_slice_dims`] for `num` partitions, without
/// writing anything: the slice dims, or the first rule that fails.
pub(crate) fn partition_check(
    data_dims: &[usize],
    data_len: usize,
    partitions_dims: &[usize],
    partitions: IndexSlice<'_>,
    num: usize,
) -> Result<Dims, StitchError> {
    let slice = partition_shape_check(data_dims, data_len, partitions_dims, partitions.len(), num)?;
    if let Some((position, value)) = first_out_of_range(partitions, num) {
        return Err(out_of_range(position, value, num));
    }
    Ok(slice)
}

/// The rules of [`partition_check`] before the values': `num` > 0, the
/// lengths, the prefix, the outputs' rank. Returns the slice dims.
fn partition_shape_check(
    data_dims: &[usize],
    data_len: usize,
    partitions_dims: &[usize],
    partitions_len: usize,
    num: usize,
) -> Result<Dims, StitchError> {
    if num == 0 {
        return Err(StitchError::NoPartitions);
    }
    let data = Dims::for_data(data_dims, data_len)?;
    let parts = Dims::for_data(partitions_dims, partitions_len)?;
    let r = parts.rank();
    // the prefix: no more dims than the data, then the same dims
    let prefix_ok = slice_rank(data.rank(), r).is_some() && data.get(..r) == Some(parts.as_slice());
    if !prefix_ok {
        return Err(StitchError::PartitionPrefix {
            partitions: parts,
            data,
        });
    }
    let slice = data.get(r..).unwrap_or(&[]);
    // the outputs' rank: [count] + slice
    with_rows(0, slice)?;
    Ok(Dims::new(slice)?)
}

/// [`partition_slice_dims`] with one pass over the partition values instead
/// of two (the range check and the count together), for a caller whose
/// `counts` is its own scratch: the same checks in the same order and the
/// same result, but on a range error `counts` holds the counts up to the
/// bad value (the caller drops them). On W7's 2^20 values the second pass
/// was 4% of `dynamic_partition_into`.
pub(crate) fn partition_slice_dims_scratch(
    data_dims: &[usize],
    data_len: usize,
    partitions_dims: &[usize],
    partitions: IndexSlice<'_>,
    counts: &mut [usize],
) -> Result<Dims, StitchError> {
    let slice = partition_shape_check(
        data_dims,
        data_len,
        partitions_dims,
        partitions.len(),
        counts.len(),
    )?;
    count_partitions(partitions, counts)?;
    Ok(slice)
}

/// The partition values' rule alone (each in `[0, counts.len())`, the
/// first that is not is the error) and their counts, in one pass; `counts`
/// is the caller's scratch (partial counts on an error). The last step of
/// [`partition_slice_dims_scratch`], all of the rule that is left when the
/// types proved the others (`dynamic_partition`'s static forms), and the
/// count of [`partition_count`] after [`partition_check`].
pub(crate) fn count_partitions(
    partitions: IndexSlice<'_>,
    counts: &mut [usize],
) -> Result<(), StitchError> {
    counts.fill(0);
    let bad = match partitions {
        IndexSlice::I32(values) => count_checked(values, counts),
        IndexSlice::I64(values) => count_checked(values, counts),
    };
    match bad {
        Some((position, value)) => Err(out_of_range(position, value, counts.len())),
        None => Ok(()),
    }
}

fn out_of_range(position: usize, value: i64, num: usize) -> StitchError {
    StitchError::PartitionOutOfRange {
        position,
        value,
        num,
    }
}

/// Counts the values into `counts` until one is outside `[0, counts.len())`,
/// which is returned with its position.
///
/// Up to [`FEW`] outputs (W7 has 4), where the target spends code to save
/// time ([`SPEED_OVER_SIZE`]), the values are counted four at a time
/// into four tallies, one per lane, summed at the end: one tally is a chain
/// of increments of the same few counters, each waiting on the last, where
/// four chains run side by side. A group of four holding a bad value is
/// recounted one by one to find the first (the counts are then partial, as
/// the caller's doc allows).
fn count_checked<V: StitchIndex>(values: &[V], counts: &mut [usize]) -> Option<(usize, i64)> {
    let num = counts.len();
    let mut done = 0;
    if SPEED_OVER_SIZE && num <= FEW {
        let mut tally = [[0usize; FEW]; 4];
        let mut groups = values.chunks_exact(4);
        for group in groups.by_ref() {
            let slots = [0, 1, 2, 3].map(|lane| {
                group
                    .get(lane)
                    .and_then(|v| usize::try_from(v.to_i64()).ok())
                    .filter(|&i| i < num)
            });
            let [Some(a), Some(b), Some(c), Some(d)] = slots else {
                break;
            };
            for (t, i) in tally.iter_mut().zip([a, b, c, d]) {
                if let Some(n) = t.get_mut(i) {
                    *n += 1;
                }
            }
            done += 4;
        }
        for (k, c) in counts.iter_mut().enumerate() {
            *c = tally.iter().map(|t| t.get(k).copied().unwrap_or(0)).sum();
        }
    }
    for (position, v) in values.iter().enumerate().skip(done) {
        let value = v.to_i64();
        match usize::try_from(value).ok().and_then(|i| counts.get_mut(i)) {
            Some(c) => *c += 1,
            None => return Some((position, value)),
        }
    }
    None
}

/// The most outputs [`count_checked`] counts in four tallies.
const FEW: usize = 16;

/// The element count of one slice of dynamic_partition's data. A slice
/// whose count overflows `usize` comes only with no partition value (data's
/// count fits, so one of its dims before the slice is 0): no slice is copied
/// and every output is empty, so its count is taken as 0, not an error.
pub(crate) fn partition_slice_len(slice: &Dims) -> usize {
    slice.numel().unwrap_or(0)
}

/// `counts[i]` = the number of partition values equal to `i` (values
/// checked by [`partition_check`] for `counts.len()` partitions, so the
/// count meets no value out of range).
pub(crate) fn partition_count(partitions: IndexSlice<'_>, counts: &mut [usize]) {
    let _checked_before = count_partitions(partitions, counts);
}

/// The first partition value outside `[0, num)` and its position, one loop
/// per index type.
fn first_out_of_range(partitions: IndexSlice<'_>, num: usize) -> Option<(usize, i64)> {
    fn first<V: StitchIndex>(values: &[V], num: usize) -> Option<(usize, i64)> {
        values
            .iter()
            .map(|v| v.to_i64())
            .enumerate()
            .find(|&(_, v)| usize::try_from(v).ok().is_none_or(|i| i >= num))
    }
    match partitions {
        IndexSlice::I32(values) => first(values, num),
        IndexSlice::I64(values) => first(values, num),
    }
}
