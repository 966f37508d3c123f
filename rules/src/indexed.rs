//! TensorFlow's dynamic_stitch and dynamic_partition: the data's shape
//! starts with the indices' (or partitions') shape, what follows is the
//! slice, and each output is `[rows] + slice`.

/// The slice's rank for data of rank `data_rank` under a prefix of rank
/// `prefix_rank`, `None` when the prefix outranks the data (it cannot be a
/// prefix; the dims themselves are the caller's to compare).
///
/// ```
/// use shapecheck_rules::indexed::slice_rank;
/// assert_eq!(slice_rank(3, 1), Some(2));
/// assert_eq!(slice_rank(1, 2), None);
/// ```
#[must_use]
pub const fn slice_rank(data_rank: usize, prefix_rank: usize) -> Option<usize> {
    data_rank.checked_sub(prefix_rank)
}

/// The rank of an output over a slice of rank `slice_rank`: one row dim,
/// then the slice.
///
/// ```
/// use shapecheck_rules::indexed::output_rank;
/// assert_eq!(output_rank(2), 3);
/// ```
#[must_use]
pub const fn output_rank(slice_rank: usize) -> usize {
    slice_rank.saturating_add(1)
}
