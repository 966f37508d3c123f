//! What a shape is: a tuple of dims, rank 0 to [`MAX_RANK`].
//!
//! `()` is a scalar, `(Dim<3>,)` a vector, `(Dim<2>, Dim<3>)` a 2×3 matrix.
//! [`Shape`] gives the dims as values whatever they are; [`StaticShape`] is a
//! shape whose dims are all static, which is what inline (no heap) storage and
//! the infallible operator forms need. The impls for every rank are generated
//! by `shapecheck-macros`.

use crate::dim::DimLike;
use core::fmt;

use crate::dims::ShapeError;
pub use crate::dims::{Dims, MAX_RANK};

/// A shape: a tuple of [`DimLike`] dims.
pub trait Shape: Copy + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The number of dims.
    const RANK: usize;
    /// `true` when every dim is static.
    const IS_STATIC: bool;
    /// The same as a type: [`kind::Fixed`](crate::dim::kind::Fixed) or
    /// [`kind::Runtime`](crate::dim::kind::Runtime) (what chooses a result's storage).
    #[doc(hidden)]
    type Kind: crate::dim::kind::Kind;
    /// The dims as values.
    fn dims(&self) -> Dims;
    /// Builds the shape from dims given at run time, checking the rank and
    /// every static dim.
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError>;
    /// The element count, or [`ShapeError::NumelOverflow`].
    fn numel(&self) -> Result<usize, ShapeError> {
        self.dims().try_numel()
    }
}

/// A shape whose dims are all static: its value, dims and element count are
/// constants, and it has an inline array type (`[[T; 3]; 2]` for `[2, 3]`).
pub trait StaticShape: Shape<Kind = crate::dim::kind::Fixed> + Default {
    /// The dims.
    const DIMS: &'static [usize];
    /// The element count. A shape whose count overflows `usize` fails to compile.
    const NUMEL: usize;
    /// The nested array holding one `T` per element, row-major.
    type Array<T: Copy>: Copy;
    /// An array with every element `v`.
    fn array_filled<T: Copy>(v: T) -> Self::Array<T>;
    /// The array as a flat row-major slice.
    fn array_as_slice<T: Copy>(a: &Self::Array<T>) -> &[T];
    /// The array as a flat row-major mutable slice.
    fn array_as_mut_slice<T: Copy>(a: &mut Self::Array<T>) -> &mut [T];
}

/// Checks one dim given at run time against the dim type of a shape.
pub(crate) fn dim_from_size<D: DimLike>(axis: usize, n: usize) -> Result<D, ShapeError> {
    D::from_size(n).ok_or(ShapeError::DimMismatch {
        axis,
        expected: D::STATIC.unwrap_or(n),
        found: n,
    })
}

impl Shape for () {
    const RANK: usize = 0;
    const IS_STATIC: bool = true;
    type Kind = crate::dim::kind::Fixed;
    fn dims(&self) -> Dims {
        Dims::SCALAR
    }
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError> {
        if dims.is_empty() {
            Ok(())
        } else {
            Err(ShapeError::RankMismatch {
                expected: 0,
                found: dims.len(),
            })
        }
    }
}

impl StaticShape for () {
    const DIMS: &'static [usize] = &[];
    const NUMEL: usize = 1;
    type Array<T: Copy> = T;
    fn array_filled<T: Copy>(v: T) -> T {
        v
    }
    fn array_as_slice<T: Copy>(a: &T) -> &[T] {
        core::slice::from_ref(a)
    }
    fn array_as_mut_slice<T: Copy>(a: &mut T) -> &mut [T] {
        core::slice::from_mut(a)
    }
}

// Ranks 1 to MAX_RANK.
shapecheck_macros::impl_shape_tuples!(8);
