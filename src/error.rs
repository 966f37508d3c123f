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
