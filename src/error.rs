//! Errors shared by every operator: shapes that do not fit their data,
//! ranks beyond [`MAX_RANK`](crate::MAX_RANK), element counts that overflow.
//! Each operator has its own error enum on top (for example
//! [`ElementwiseError`](crate::ElementwiseError)) that wraps this one.

use crate::shape::Dims;
use core::fmt;

/// A shape that cannot describe the data or the type it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// More dims than the library supports.
    RankTooLarge {
        /// The rank that was asked for.
        rank: usize,
    },
    /// A static shape type was given dims of another rank.
    RankMismatch {
        /// The static shape's rank.
        expected: usize,
        /// The rank of the dims given.
        found: usize,
    },
    /// A static dim was given another size.
    DimMismatch {
        /// Which dim.
        axis: usize,
        /// The size in the type.
        expected: usize,
        /// The size given.
        found: usize,
    },
    /// The data does not hold exactly one element per position of the shape.
    DataLength {
        /// The shape.
        shape: Dims,
        /// Its element count.
        numel: usize,
        /// The length of the data.
        len: usize,
    },
    /// The product of the dims does not fit in `usize`.
    NumelOverflow {
        /// The shape.
        shape: Dims,
    },
    /// An output buffer has another shape than the op produces.
    OutputShape {
        /// The shape the op produces.
        expected: Dims,
        /// The shape of the buffer given.
        found: Dims,
    },
    /// The allocator could not provide the buffer.
    Allocation {
        /// Elements requested.
        numel: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::RankTooLarge { rank } => write!(
                f,
                "rank {rank} exceeds the supported maximum of {}",
                crate::MAX_RANK
            ),
            ShapeError::RankMismatch { expected, found } => write!(
                f,
                "the shape type has rank {expected}, but dims of rank {found} were given"
            ),
            ShapeError::DimMismatch {
                axis,
                expected,
                found,
            } => write!(
                f,
                "dim {axis} is {expected} in the shape type, but {found} was given"
            ),
            ShapeError::DataLength { shape, numel, len } => write!(
                f,
                "shape {shape} holds {numel} elements, but the data has {len}"
            ),
            ShapeError::NumelOverflow { shape } => {
                write!(f, "the element count of shape {shape} overflows usize")
            }
            ShapeError::OutputShape { expected, found } => write!(
                f,
                "the output buffer has shape {found}, but the op produces shape {expected}"
            ),
            ShapeError::Allocation { numel } => {
                write!(f, "could not allocate a buffer of {numel} elements")
            }
        }
    }
}

impl core::error::Error for ShapeError {}
