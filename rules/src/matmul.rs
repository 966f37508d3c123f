//! Paddle's `matmul(x, y, transpose_x, transpose_y)`: how each operand's
//! rank is read, and where the batch dims go.
//!
//! A rank-1 operand is a vector (x a row, y a column; its transpose flag is
//! ignored), a rank-0 one is rejected; a matrix's last two dims are its
//! matrix and the others its batch dims, which broadcast right-aligned. The
//! output is the batch frame, then M unless x is a vector, then N unless y
//! is one.

use crate::align::{frame_rank, Placed};

/// How matmul reads an operand of a rank.
///
/// ```
/// use shapecheck_rules::matmul::{operand, Operand};
/// assert_eq!([operand(0), operand(1), operand(3)], [Operand::Scalar, Operand::Vector, Operand::Matrix]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Rank 0: rejected (the rank rule).
    Scalar,
    /// Rank 1: a vector, its one dim the inner dim; no output dim of its own.
    Vector,
    /// Rank 2 or more: a matrix (its last two dims) under batch dims.
    Matrix,
}

/// How matmul reads an operand of rank `rank`.
///
/// ```
/// use shapecheck_rules::matmul::{operand, Operand};
/// assert_eq!(operand(2), Operand::Matrix);
/// ```
#[must_use]
pub const fn operand(rank: usize) -> Operand {
    match rank {
        0 => Operand::Scalar,
        1 => Operand::Vector,
        _ => Operand::Matrix,
    }
}

/// The batch dims of an operand of rank `rank`: all but a matrix's last
/// two (none for a vector).
///
/// ```
/// use shapecheck_rules::matmul::batch_rank;
/// assert_eq!((batch_rank(1), batch_rank(2), batch_rank(4)), (0, 0, 2));
/// ```
#[must_use]
pub const fn batch_rank(rank: usize) -> usize {
    rank.saturating_sub(2)
}

/// The batch dims of x and y in the output's batch frame.
///
/// ```
/// use shapecheck_rules::matmul::batch;
/// // x [B1, B2, M, K], y [B3, K, N]: B3 meets B2
/// let b = batch(4, 3);
/// assert_eq!(b.frame, 2);
/// assert_eq!((b.x.dim_at(1), b.y.dim_at(1)), (Some(1), Some(0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Batch {
    /// The output's batch rank (the larger of x's and y's).
    pub frame: usize,
    /// x's batch dims in it (right-aligned).
    pub x: Placed,
    /// y's batch dims in it (right-aligned).
    pub y: Placed,
}

/// The batch alignment of x of rank `rx` and y of rank `ry`.
///
/// ```
/// use shapecheck_rules::matmul::batch;
/// assert_eq!(batch(2, 1).frame, 0);
/// assert_eq!(batch(3, 5).x.at, 2);
/// ```
#[must_use]
pub const fn batch(rx: usize, ry: usize) -> Batch {
    let (bx, by) = (batch_rank(rx), batch_rank(ry));
    let frame = frame_rank(&[bx, by]);
    Batch {
        frame,
        x: Placed::right(frame, bx),
        y: Placed::right(frame, by),
    }
}
