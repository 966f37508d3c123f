//! Paddle's multiplex: candidates of one shape, of rank 2 or more, and an
//! index of shape `[rows, 1]`; the output is `[rows] + candidates[1..]`.

/// Whether candidates of rank `rank` are accepted (rank 2 or more).
///
/// ```
/// use shapecheck_rules::multiplex::candidate_rank_ok;
/// assert!(!candidate_rank_ok(1) && candidate_rank_ok(2));
/// ```
#[must_use]
pub const fn candidate_rank_ok(rank: usize) -> bool {
    rank >= 2
}

/// Whether an index of rank `rank` can have the shape `[rows, 1]` (rank 2;
/// its second dim is the caller's to compare with 1).
///
/// ```
/// use shapecheck_rules::multiplex::index_rank_ok;
/// assert!(index_rank_ok(2) && !index_rank_ok(1) && !index_rank_ok(3));
/// ```
#[must_use]
pub const fn index_rank_ok(rank: usize) -> bool {
    rank == 2
}
