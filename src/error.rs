//! Errors shared by every operator: [`ShapeError`], defined with the dims it
//! describes in [`crate::dims`]. Each operator has its own error enum on top
//! (for example [`ElementwiseError`](crate::ElementwiseError)) that wraps it.

pub use crate::dims::ShapeError;

/// `From<ShapeError>` for an operator's error enum, whose `Shape` variant
/// wraps it (so `?` lifts a [`ShapeError`] into the op's error).
macro_rules! wraps_shape_error {
    ($t:ident) => {
        impl From<$crate::ShapeError> for $t {
            fn from(e: $crate::ShapeError) -> Self {
                $t::Shape(e)
            }
        }
    };
}
pub(crate) use wraps_shape_error;

impl ShapeError {
    /// The stable identifier of what went wrong, `shape/<what>`: not a rule
    /// of one operator but of shapes in general (`shape/rank`,
    /// `shape/rank-mismatch`, `shape/dim-mismatch`, `shape/data-length`,
    /// `shape/overflow`, `shape/output`, `shape/allocation`). The operators'
    /// error enums return it for their `Shape` variant.
    ///
    /// ```
    /// use shapecheck::{Dims, ShapeError};
    /// assert_eq!(Dims::new(&[1; 9]).unwrap_err().rule(), "shape/rank");
    /// assert_eq!(Dims::for_data(&[2, 3], 5).unwrap_err().rule(), "shape/data-length");
    /// ```
    pub const fn rule(&self) -> &'static str {
        match self {
            ShapeError::RankTooLarge { .. } => "shape/rank",
            ShapeError::RankMismatch { .. } => "shape/rank-mismatch",
            ShapeError::DimMismatch { .. } => "shape/dim-mismatch",
            ShapeError::DataLength { .. } => "shape/data-length",
            ShapeError::NumelOverflow { .. } => "shape/overflow",
            ShapeError::OutputShape { .. } => "shape/output",
            ShapeError::Allocation { .. } => "shape/allocation",
        }
    }
}
