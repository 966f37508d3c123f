//! What a shape is: a tuple of dims, rank 0 to [`MAX_RANK`].
//!
//! `()` is a scalar, `(Dim<3>,)` a vector, `(Dim<2>, Dim<3>)` a 2×3 matrix.
//! [`Shape`] gives the dims as values whatever they are; [`StaticShape`] is a
//! shape whose dims are all static, which is what inline (no heap) storage and
//! the infallible operator forms need. The impls for every rank are generated
//! by `shapecheck-macros`.

use crate::dim::DimLike;
use crate::error::ShapeError;
use core::fmt;

/// The largest rank a shape can have, in the type system and at run time.
pub const MAX_RANK: usize = 8;

/// The dims of a shape as values: a small inline list (no heap), at most
/// [`MAX_RANK`] long. Displays as `[2, 3, 4]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    len: usize,
    buf: [usize; MAX_RANK],
}

impl Dims {
    /// The dims of a scalar.
    pub const SCALAR: Dims = Dims {
        len: 0,
        buf: [0; MAX_RANK],
    };

    /// Copies `dims`; an error if there are more than [`MAX_RANK`].
    pub fn new(dims: &[usize]) -> Result<Dims, ShapeError> {
        let mut out = Dims::SCALAR;
        let dst = out
            .buf
            .get_mut(..dims.len())
            .ok_or(ShapeError::RankTooLarge { rank: dims.len() })?;
        dst.copy_from_slice(dims);
        out.len = dims.len();
        Ok(out)
    }

    /// The dims as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[usize] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// The number of dims.
    #[inline]
    pub fn rank(&self) -> usize {
        self.len
    }

    /// The element count, `None` if it overflows `usize`.
    pub fn numel(&self) -> Option<usize> {
        // a 0 anywhere makes the count 0, whatever the other dims (as numpy's
        // `size`); only a product of nonzero dims can overflow
        if self.as_slice().contains(&0) {
            return Some(0);
        }
        self.as_slice()
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
    }

    /// The element count, or [`ShapeError::NumelOverflow`].
    pub fn try_numel(&self) -> Result<usize, ShapeError> {
        self.numel()
            .ok_or(ShapeError::NumelOverflow { shape: *self })
    }

    /// The dims of data given as `(dims, len)` on the dynamic path: checks the
    /// rank, that the element count fits in `usize`, and that it equals `len`.
    pub fn for_data(dims: &[usize], len: usize) -> Result<Dims, ShapeError> {
        let d = Dims::new(dims)?;
        let numel = d.try_numel()?;
        if numel != len {
            return Err(ShapeError::DataLength {
                shape: d,
                numel,
                len,
            });
        }
        Ok(d)
    }
}

impl core::ops::Deref for Dims {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        self.as_slice()
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A shape: a tuple of [`DimLike`] dims.
pub trait Shape: Copy + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The number of dims.
    const RANK: usize;
    /// `true` when every dim is static.
    const IS_STATIC: bool;
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
pub trait StaticShape: Shape + Default {
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
#[doc(hidden)]
pub fn dim_from_size<D: DimLike>(axis: usize, n: usize) -> Result<D, ShapeError> {
    D::from_size(n).ok_or(ShapeError::DimMismatch {
        axis,
        expected: D::STATIC.unwrap_or(n),
        found: n,
    })
}

impl Shape for () {
    const RANK: usize = 0;
    const IS_STATIC: bool = true;
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
