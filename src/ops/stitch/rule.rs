//! The one run-time rule of each op: input dims (and the index values, which
//! decide the output's row count) to output dims, or the typed error. Every
//! path calls these: the static builder, the caller-buffer forms, `DynTensor`
//! (the static builder over static shapes only scans the index values, with
//! the same errors: see the [module docs](super)).

use super::{IndexSlice, StitchError, StitchPair};
use crate::shape::{Dims, MAX_RANK};

/// `[rows] + slice` as dims; an error if the rank exceeds [`MAX_RANK`].
pub(crate) fn with_rows(rows: usize, slice: &[usize]) -> Result<Dims, StitchError> {
    let mut buf = [0usize; MAX_RANK + 1];
    let dst = buf
        .get_mut(1..=slice.len())
        .ok_or(crate::ShapeError::RankTooLarge {
            rank: slice.len() + 1,
        })?;
    dst.copy_from_slice(slice);
    if let Some(first) = buf.first_mut() {
        *first = rows;
    }
    Ok(Dims::new(buf.get(..=slice.len()).unwrap_or(&[]))?)
}

/// dynamic_stitch's rule: the output dims `[rows] + slice`, where `slice` is
/// what follows `indices[m].shape` in `data[m].shape` (the same for every m)
/// and `rows` is the largest index + 1 (0 when every indices tensor is
/// empty). Checked in TensorFlow's order:
/// 1. at least one pair; each tensor holds as many values as its shape;
/// 2. every index value is `>= 0` ([`StitchError::NegativeIndex`], naming
///    the pair `m` and the flat position `j`);
/// 3. `data[m].shape` starts with `indices[m].shape` ([`StitchError::PrefixMismatch`]);
/// 4. every pair's slice equals pair 0's ([`StitchError::SliceMismatch`]);
/// 5. the output's rank is at most 8 and its element count fits `usize`
///    ([`StitchError::TooManyRows`]).
///
/// ```
/// use shapecheck::ops::stitch::stitch_output_dims;
/// use shapecheck::StitchPair;
/// let pairs = [StitchPair::new(&[2], &[3i32, 0], &[2, 4], &[0.0f32; 8]).unwrap()];
/// assert_eq!(stitch_output_dims(pairs.iter().copied()).unwrap().as_slice(), &[4, 4]);
/// let neg = [StitchPair::new(&[1], &[-1i32], &[1], &[0.0f32]).unwrap()];
/// assert_eq!(stitch_output_dims(neg.iter().copied()).unwrap_err().rule(), "dynamic_stitch/negative-index");
/// let bad = [StitchPair::new(&[2], &[0i32, 1], &[3], &[0.0f32; 3]).unwrap()];
/// assert_eq!(stitch_output_dims(bad.iter().copied()).unwrap_err().rule(), "dynamic_stitch/prefix");
/// ```
pub fn stitch_output_dims<'a, T: 'a>(
    pairs: impl Iterator<Item = StitchPair<'a, T>> + Clone,
) -> Result<Dims, StitchError> {
    let mut first: Option<StitchPair<'a, T>> = None;
    for p in pairs.clone() {
        Dims::for_data(&p.indices_dims, p.indices.len())?;
        Dims::for_data(&p.data_dims, p.data.len())?;
        first.get_or_insert(p);
    }
    let first = first.ok_or(StitchError::NoPairs)?;

    // the largest index and where it is; negatives are errors
    let mut max: Option<(usize, usize, i64)> = None;
    for (m, p) in pairs.clone().enumerate() {
        for (j, value) in p.indices.values().enumerate() {
            if value < 0 {
                return Err(StitchError::NegativeIndex { m, j, value });
            }
            if max.is_none_or(|(_, _, v)| value > v) {
                max = Some((m, j, value));
            }
        }
    }

    let slice0 = first
        .data_dims
        .get(first.indices_dims.rank()..)
        .unwrap_or(&[]);
    for (m, p) in pairs.enumerate() {
        let r = p.indices_dims.rank();
        if p.data_dims.get(..r) != Some(p.indices_dims.as_slice()) {
            return Err(StitchError::PrefixMismatch {
                m,
                indices: p.indices_dims,
                data: p.data_dims,
            });
        }
        if p.data_dims.get(r..) != Some(slice0) {
            return Err(StitchError::SliceMismatch {
                m,
                data0: first.data_dims,
                rank0: first.indices_dims.rank(),
                data: p.data_dims,
                rank: r,
            });
        }
    }

    let Some((m, j, value)) = max else {
        return with_rows(0, slice0);
    };
    // a tail of a `Dims` always fits a `Dims`
    let too_many = StitchError::TooManyRows {
        m,
        j,
        value,
        slice: Dims::new(slice0).unwrap_or(Dims::SCALAR),
    };
    // + 1 in usize: an index of i64::MAX asks for 2^63 rows, which a 64-bit
    // usize counts (an output of them with an empty slice holds nothing)
    let rows = usize::try_from(value)
        .ok()
        .and_then(|r| r.checked_add(1))
        .ok_or(too_many)?;
    let out = with_rows(rows, slice0)?;
    if out.numel().is_none() {
        return Err(too_many);
    }
    Ok(out)
}

/// dynamic_partition's rule: checks that `data_dims` (holding `data_len`
/// values) starts with `partitions_dims` and that every partition value is in
/// `[0, counts.len())`, fills `counts[i]` with the number of slices going to
/// output `i`, and returns the slice dims (data's dims after the prefix).
/// Output `i` has dims `[counts[i]] + slice`. On error `counts` is untouched.
///
/// ```
/// use shapecheck::ops::stitch::partition_slice_dims;
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
    if num == 0 {
        return Err(StitchError::NoPartitions);
    }
    let data = Dims::for_data(data_dims, data_len)?;
    let parts = Dims::for_data(partitions_dims, partitions.len())?;
    let r = parts.rank();
    if data.get(..r) != Some(parts.as_slice()) {
        return Err(StitchError::PartitionPrefix {
            partitions: parts,
            data,
        });
    }
    let slice = data.get(r..).unwrap_or(&[]);
    // the outputs' rank: [count] + slice
    with_rows(0, slice)?;
    for (position, value) in partitions.values().enumerate() {
        if usize::try_from(value).ok().is_none_or(|i| i >= num) {
            return Err(StitchError::PartitionOutOfRange {
                position,
                value,
                num,
            });
        }
    }
    Ok(Dims::new(slice)?)
}

/// The element count of one slice of dynamic_partition's data. A slice
/// whose count overflows `usize` comes only with no partition value (data's
/// count fits, so one of its dims before the slice is 0): no slice is copied
/// and every output is empty, so its count is taken as 0, not an error.
pub(crate) fn partition_slice_len(slice: &Dims) -> usize {
    slice.numel().unwrap_or(0)
}

/// `counts[i]` = the number of partition values equal to `i` (values
/// checked by [`partition_check`] for `counts.len()` partitions).
pub(crate) fn partition_count(partitions: IndexSlice<'_>, counts: &mut [usize]) {
    counts.fill(0);
    for value in partitions.values() {
        if let Some(c) = usize::try_from(value).ok().and_then(|i| counts.get_mut(i)) {
            *c += 1;
        }
    }
}
