//! The axis of the reductions and of softmax: which dim an axis names.

/// The axes' range for a rank: `[-n, n)` with `n = max(rank, 1)` (a 0-d
/// tensor takes axis 0 or -1, as Paddle does: it has one virtual dim).
///
/// ```
/// use shapecheck_rules::axis::span;
/// assert_eq!((span(0), span(1), span(3)), (1, 1, 3));
/// ```
#[must_use]
pub const fn span(rank: usize) -> usize {
    if rank == 0 {
        1
    } else {
        rank
    }
}

/// The dim `axis` names in a tensor of rank `rank` (a negative axis counts
/// from the end; a 0-d tensor's axis names its one virtual dim, 0), `None`
/// for an axis outside `[-n, n)` ([`span`]).
///
/// ```
/// use shapecheck_rules::axis::slot;
/// assert_eq!(slot(-1, 3), Some(2));
/// assert_eq!(slot(1, 3), Some(1));
/// assert_eq!(slot(0, 0), Some(0));
/// assert_eq!((slot(3, 3), slot(-4, 3)), (None, None));
/// ```
#[must_use]
pub const fn slot(axis: isize, rank: usize) -> Option<usize> {
    // a rank is at most a few dozen: the conversion is exact
    let n = span(rank) as isize;
    if axis < -n || axis >= n {
        None
    } else if axis < 0 {
        Some((axis + n).unsigned_abs())
    } else {
        Some(axis.unsigned_abs())
    }
}
