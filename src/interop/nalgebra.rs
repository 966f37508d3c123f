//! `nalgebra` (feature `nalgebra`; nalgebra without default features, so no
//! `std`; `DMatrix` needs `alloc` as well).
//!
//! nalgebra stores a matrix **column-major**; a tensor is **row-major**.
//! Every conversion here therefore copies, element by element, transposing
//! the order: tensor element `[r, c]` (row-major position `r * C + c`) is
//! matrix element `(r, c)` (column-major position `c * R + r`). A 2×3
//! tensor `[[1, 2, 3], [4, 5, 6]]` is the matrix with rows `1 2 3` and
//! `4 5 6`, whose buffer reads `1 4 2 5 3 6`. No conversion here shares
//! memory: for a zero-copy view use the `ndarray` feature, which is
//! row-major.
//!
//! | from | to | check |
//! |---|---|---|
//! | `SMatrix<T, R, C>` | `Tensor<T, S>` (inline) | at compile time: `S` must be `shape![R, C]` ([`MatrixDims`]) |
//! | `Tensor<T, S, B>` | `SMatrix<T, R, C>` ([`Tensor::to_smatrix`]) | at compile time, as above |
//! | `DMatrix<T>` | `Tensor<T, S, Vec<T>>` ([`Tensor::try_from_dmatrix`]), `DynTensor<T>` (`TryFrom`) | `S`'s static dims at run time ([`ShapeError`](crate::ShapeError)) |
//! | 2-D `Tensor<T, S, B>` / `DynTensor<T>` | `DMatrix<T>` ([`Tensor::to_dmatrix`], [`DynTensor::to_dmatrix`](crate::DynTensor::to_dmatrix)) | a `DynTensor` of another rank is [`ShapeError::RankMismatch`](crate::ShapeError::RankMismatch) |
//!
//! ```
//! use nalgebra::SMatrix;
//! use shapecheck::prelude::*;
//! let m = SMatrix::<i32, 2, 3>::new(1, 2, 3, 4, 5, 6); // written row by row
//! assert_eq!(m.as_slice(), &[1, 4, 2, 5, 3, 6]);         // stored column by column
//! let t: Tensor<i32, shape![2, 3]> = m.into();
//! assert_eq!(t.as_slice(), &[1, 2, 3, 4, 5, 6]);         // a tensor is row-major
//! let back: SMatrix<i32, 2, 3> = t.to_smatrix();
//! assert_eq!(back, m);
//! ```
//!
//! A shape other than `[R, C]` does not compile:
//! ```compile_fail
//! use nalgebra::SMatrix;
//! use shapecheck::prelude::*;
//! let t: Tensor<i32, shape![3, 2]> = SMatrix::<i32, 2, 3>::zeros().into();
//! ```

use crate::dim::{Dim, DimLike, One};
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;
use ::nalgebra::{SMatrix, Scalar};

/// "`Self` is the tensor shape of an `R`×`C` matrix": `shape![R, C]`, with
/// [`One`] for a 1, as [`shape!`](crate::shape!) writes it (a hand-written
/// `Dim<1>` is accepted too).
#[diagnostic::on_unimplemented(
    message = "an R×C = {R}×{C} nalgebra matrix is a tensor of shape [{R}, {C}], not {Self}",
    label = "the tensor's shape type is {Self}",
    note = "write the tensor's shape as shape![{R}, {C}]"
)]
#[doc(hidden)]
pub trait MatrixDims<const R: usize, const C: usize>: StaticShape {}

#[diagnostic::do_not_recommend]
impl<const R: usize, const C: usize> MatrixDims<R, C> for (Dim<R>, Dim<C>) {}
#[diagnostic::do_not_recommend]
impl<const C: usize> MatrixDims<1, C> for (One, Dim<C>) {}
#[diagnostic::do_not_recommend]
impl<const R: usize> MatrixDims<R, 1> for (Dim<R>, One) {}
#[diagnostic::do_not_recommend]
impl MatrixDims<1, 1> for (One, One) {}

/// A shape of rank 2, whatever its dims: what converts to a `DMatrix`.
#[doc(hidden)]
pub trait Rank2: Shape {}
impl<A: DimLike, B: DimLike> Rank2 for (A, B) {}

impl<T, S, const R: usize, const C: usize> From<SMatrix<T, R, C>> for Tensor<T, S>
where
    T: Scalar + Copy + Default,
    S: MatrixDims<R, C>,
{
    /// Copies the matrix into an inline tensor, row by row (see the module docs).
    fn from(m: SMatrix<T, R, C>) -> Self {
        let mut out = Tensor::<T, S>::full(T::default());
        // the transpose's column-major order is the matrix's row-major order
        for (dst, src) in out.as_mut_slice().iter_mut().zip(m.transpose().iter()) {
            *dst = *src;
        }
        out
    }
}

impl<T: Scalar + Copy + Default, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A copy of this tensor as an `R`×`C` matrix (column-major; see the module docs).
    pub fn to_smatrix<const R: usize, const C: usize>(&self) -> SMatrix<T, R, C>
    where
        S: MatrixDims<R, C>,
    {
        let data = self.as_slice();
        SMatrix::from_fn(|r, c| data.get(r * C + c).copied().unwrap_or_default())
    }
}

#[cfg(feature = "alloc")]
mod heap {
    use super::*;
    use crate::dims::ShapeError;
    use crate::dynamic::DynTensor;
    use ::nalgebra::DMatrix;
    use alloc::vec::Vec;

    /// The matrix's elements in row-major order.
    fn row_major<T: Scalar + Copy>(m: &DMatrix<T>) -> Vec<T> {
        m.transpose().iter().copied().collect()
    }

    impl<T: Scalar + Copy, S: Shape> Tensor<T, S, Vec<T>> {
        /// A heap tensor copied from `m` row by row; `S`'s static dims are
        /// checked against `[nrows, ncols]`.
        pub fn try_from_dmatrix(m: &DMatrix<T>) -> Result<Self, ShapeError> {
            let shape = S::from_dims(&[m.nrows(), m.ncols()])?;
            Tensor::with_shape(shape, row_major(m))
        }
    }

    impl<T: Scalar + Copy + Default, S: Rank2, B: Storage<T>> Tensor<T, S, B> {
        /// A copy of this 2-D tensor as a `DMatrix` (column-major).
        pub fn to_dmatrix(&self) -> DMatrix<T> {
            let dims = self.dims();
            let (r, c) = (dims.first().copied(), dims.get(1).copied());
            to_dmatrix(r.unwrap_or(0), c.unwrap_or(0), self.as_slice())
        }
    }

    fn to_dmatrix<T: Scalar + Copy + Default>(rows: usize, cols: usize, data: &[T]) -> DMatrix<T> {
        DMatrix::from_fn(rows, cols, |r, c| {
            data.get(r * cols + c).copied().unwrap_or_default()
        })
    }

    impl<T: Scalar + Copy> TryFrom<&DMatrix<T>> for DynTensor<T> {
        type Error = ShapeError;
        /// A copy of `m`, row by row, as a tensor of shape `[nrows, ncols]`.
        fn try_from(m: &DMatrix<T>) -> Result<Self, ShapeError> {
            DynTensor::new(&[m.nrows(), m.ncols()], row_major(m))
        }
    }

    impl<T: Scalar + Copy + Default> DynTensor<T> {
        /// A copy of this tensor as a `DMatrix` (column-major); a rank other
        /// than 2 is [`ShapeError::RankMismatch`].
        pub fn to_dmatrix(&self) -> Result<DMatrix<T>, ShapeError> {
            match *self.dims() {
                [r, c] => Ok(to_dmatrix(r, c, self.as_slice())),
                ref d => Err(ShapeError::RankMismatch {
                    expected: 2,
                    found: d.len(),
                }),
            }
        }
    }
}
