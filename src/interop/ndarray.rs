//! `ndarray` interop (feature `ndarray`, which turns on `alloc`).
//!
//! | from | to | copies? |
//! |---|---|---|
//! | `ArrayView<'a, T, D>` | `Tensor<T, S, &'a [T]>` (`TryFrom`) | no: the tensor borrows the view's buffer; the layout must be standard (row-major, contiguous) |
//! | `ArrayViewMut<'a, T, D>` | `Tensor<T, S, &'a mut [T]>` (`TryFrom`) | no, same condition |
//! | any `Tensor<T, S, B>` | `ArrayViewD<'_, T>` ([`Tensor::as_ndarray`]) | no |
//! | `Tensor<T, S, B: StorageMut>` | `ArrayViewMutD<'_, T>` ([`Tensor::as_ndarray_mut`]) | no |
//! | `Array<T, D>` | `Tensor<T, S, Vec<T>>` (`TryFrom`) | no when the array is standard and starts at its buffer's start (the `Vec` moves); otherwise one row-major copy |
//! | `Tensor<T, S, Vec<T>>` | `ArrayD<T>` ([`Tensor::into_ndarray`]) | no (the `Vec` moves) |
//! | any `Tensor<T, S, B>` | `ArrayD<T>` ([`Tensor::to_ndarray`]) | one copy |
//! | `ArrayD<T>` / `DynTensor<T>` | `DynTensor<T>` / `ArrayD<T>` (`TryFrom`, [`DynTensor::into_ndarray`]) | as for `Array` / `Vec` tensors |
//!
//! Every static dim of `S` is checked against the array's dims, and a
//! non-standard layout (a transposed or strided view) is rejected rather than
//! copied: [`NdarrayError`] names the array's shape (and strides) and the
//! rule. Going the other way, ndarray refuses shapes whose product of nonzero
//! dims exceeds `isize::MAX` (a tensor of shape `[0, usize::MAX]` is one):
//! that is [`NdarrayError::Ndarray`].
//!
//! ```
//! use ndarray::{array, ArrayView2};
//! use shapecheck::prelude::*;
//!
//! let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! // no copy: the tensor reads ndarray's buffer
//! let t = Tensor::<f32, shape![2, 3], &[f32]>::try_from(a.view()).unwrap();
//! assert_eq!(t.as_slice().as_ptr(), a.as_ptr());
//! // a transposed view is not row-major: an error, not a silent copy
//! let err = Tensor::<f32, shape![3, 2], &[f32]>::try_from(a.t()).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "ndarray view of shape [3, 2] with strides [1, 3] is not in standard \
//!      (row-major, contiguous) layout; copy it with `as_standard_layout()` first"
//! );
//! // and back, still without copying
//! let v: ArrayView2<f32> = t.as_ndarray().unwrap().into_dimensionality().unwrap();
//! assert_eq!(v, a);
//! ```

use crate::dims::{Dims, ShapeError, MAX_RANK};
use crate::dynamic::DynTensor;
use crate::shape::Shape;
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;
use ::ndarray::{Array, ArrayBase, ArrayD, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD};
use ::ndarray::{Data, Dimension, IxDyn};
use alloc::vec::Vec;
use core::fmt;

/// Why an ndarray array could not become a tensor, or a tensor an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NdarrayError {
    /// The array's dims do not fit the tensor's shape type (a static dim
    /// differs, or the rank).
    Shape {
        /// The array's dims.
        array: Dims,
        /// What the shape type said.
        error: ShapeError,
    },
    /// The array has more than [`MAX_RANK`] dims, or its data does not fit its shape.
    Invalid(ShapeError),
    /// A view whose elements are not row-major and contiguous.
    NotStandardLayout {
        /// The view's dims.
        dims: Dims,
        /// The view's strides (in elements), `dims.rank()` of them.
        strides: [isize; MAX_RANK],
    },
    /// ndarray refused the tensor's shape (its product of nonzero dims
    /// exceeds `isize::MAX`).
    Ndarray {
        /// The tensor's dims.
        dims: Dims,
    },
}

impl fmt::Display for NdarrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NdarrayError::Shape { array, error } => write!(
                f,
                "ndarray array of shape {array} does not fit the tensor's shape type: {error}"
            ),
            NdarrayError::Invalid(error) => write!(f, "ndarray array: {error}"),
            NdarrayError::NotStandardLayout { dims, strides } => {
                write!(f, "ndarray view of shape {dims} with strides [")?;
                for (i, s) in strides.iter().take(dims.rank()).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{s}")?;
                }
                f.write_str(
                    "] is not in standard (row-major, contiguous) layout; \
                     copy it with `as_standard_layout()` first",
                )
            }
            NdarrayError::Ndarray { dims } => write!(
                f,
                "ndarray cannot describe shape {dims}: its product of nonzero dims exceeds isize::MAX"
            ),
        }
    }
}

impl core::error::Error for NdarrayError {}

impl From<ShapeError> for NdarrayError {
    fn from(error: ShapeError) -> Self {
        NdarrayError::Invalid(error)
    }
}

/// The array's dims as [`Dims`], and `S` built from them.
fn shape_of<S: Shape>(dims: &[usize]) -> Result<(Dims, S), NdarrayError> {
    let array = Dims::new(dims)?;
    let shape = S::from_dims(dims).map_err(|error| NdarrayError::Shape { array, error })?;
    Ok((array, shape))
}

fn check_standard<A, St: Data<Elem = A>, D: Dimension>(
    a: &ArrayBase<St, D>,
) -> Result<(), NdarrayError> {
    if a.is_standard_layout() {
        return Ok(());
    }
    let dims = Dims::new(a.shape())?;
    let mut strides = [0isize; MAX_RANK];
    for (dst, &s) in strides.iter_mut().zip(a.strides()) {
        *dst = s;
    }
    Err(NdarrayError::NotStandardLayout { dims, strides })
}

/// A tensor of shape `S` over a view's buffer, without copying: `S` checked
/// against the view's dims, then the layout (it must be standard), then
/// `buffer` takes the view's elements as one slice.
fn over_view<T, S, St, D, B>(
    v: ArrayBase<St, D>,
    buffer: impl FnOnce(ArrayBase<St, D>) -> Option<B>,
) -> Result<Tensor<T, S, B>, NdarrayError>
where
    T: Copy,
    S: Shape,
    St: Data<Elem = T>,
    D: Dimension,
    B: Storage<T>,
{
    let (dims, shape) = shape_of::<S>(v.shape())?;
    check_standard(&v)?;
    let data = buffer(v).ok_or(NdarrayError::NotStandardLayout {
        dims,
        strides: [0; MAX_RANK],
    })?;
    Ok(Tensor::with_shape(shape, data)?)
}

impl<'a, T: Copy, S: Shape, D: Dimension> TryFrom<ArrayView<'a, T, D>> for Tensor<T, S, &'a [T]> {
    type Error = NdarrayError;
    /// A tensor over the view's buffer, without copying.
    fn try_from(v: ArrayView<'a, T, D>) -> Result<Self, NdarrayError> {
        over_view(v, |v| v.to_slice())
    }
}

impl<'a, T: Copy, S: Shape, D: Dimension> TryFrom<ArrayViewMut<'a, T, D>>
    for Tensor<T, S, &'a mut [T]>
{
    type Error = NdarrayError;
    /// A tensor over the view's buffer, without copying.
    fn try_from(v: ArrayViewMut<'a, T, D>) -> Result<Self, NdarrayError> {
        over_view(v, ArrayViewMut::into_slice)
    }
}

/// The `Vec` of an owned array in row-major order: moved when the array is
/// standard and starts at its buffer's start, copied otherwise.
fn into_row_major_vec<T: Copy, D: Dimension>(a: Array<T, D>) -> Vec<T> {
    if a.is_standard_layout() {
        let len = a.len();
        let (v, offset) = a.into_raw_vec_and_offset();
        if offset.unwrap_or(0) == 0 && v.len() == len {
            return v;
        }
        // standard but a slice of a larger buffer: copy the elements it owns
        let start = offset.unwrap_or(0);
        let part = start.checked_add(len).and_then(|end| v.get(start..end));
        return part.map(<[T]>::to_vec).unwrap_or_default();
    }
    a.iter().copied().collect()
}

impl<T: Copy, S: Shape, D: Dimension> TryFrom<Array<T, D>> for Tensor<T, S, Vec<T>> {
    type Error = NdarrayError;
    /// A heap tensor holding the array's elements (moved, not copied, when
    /// the array is row-major and contiguous from its buffer's start).
    fn try_from(a: Array<T, D>) -> Result<Self, NdarrayError> {
        let (_, shape) = shape_of::<S>(a.shape())?;
        Ok(Tensor::with_shape(shape, into_row_major_vec(a))?)
    }
}

impl<T: Copy> TryFrom<ArrayD<T>> for DynTensor<T> {
    type Error = NdarrayError;
    /// The array's elements in row-major order (moved when they already are).
    fn try_from(a: ArrayD<T>) -> Result<Self, NdarrayError> {
        let dims = Dims::new(a.shape())?;
        Ok(DynTensor::new(&dims, into_row_major_vec(a))?)
    }
}

fn view_of<T>(dims: Dims, data: &[T]) -> Result<ArrayViewD<'_, T>, NdarrayError> {
    ArrayView::from_shape(IxDyn(&dims), data).map_err(|_| NdarrayError::Ndarray { dims })
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A row-major ndarray view of this tensor, without copying.
    pub fn as_ndarray(&self) -> Result<ArrayViewD<'_, T>, NdarrayError> {
        view_of(self.dims(), self.as_slice())
    }

    /// A copy of this tensor as an owned ndarray array.
    pub fn to_ndarray(&self) -> Result<ArrayD<T>, NdarrayError> {
        Ok(self.as_ndarray()?.to_owned())
    }
}

impl<T: Copy, S: Shape, B: StorageMut<T>> Tensor<T, S, B> {
    /// A mutable row-major ndarray view of this tensor, without copying.
    pub fn as_ndarray_mut(&mut self) -> Result<ArrayViewMutD<'_, T>, NdarrayError> {
        let dims = self.dims();
        ArrayViewMut::from_shape(IxDyn(&dims), self.as_mut_slice())
            .map_err(|_| NdarrayError::Ndarray { dims })
    }
}

impl<T: Copy, S: Shape> Tensor<T, S, Vec<T>> {
    /// This heap tensor as an owned ndarray array; the `Vec` moves, nothing is copied.
    pub fn into_ndarray(self) -> Result<ArrayD<T>, NdarrayError> {
        let dims = self.dims();
        let (_, data) = self.into_parts();
        Array::from_shape_vec(IxDyn(&dims), data).map_err(|_| NdarrayError::Ndarray { dims })
    }
}

impl<T: Copy> DynTensor<T> {
    /// A row-major ndarray view, without copying.
    pub fn as_ndarray(&self) -> Result<ArrayViewD<'_, T>, NdarrayError> {
        view_of(self.dims(), self.as_slice())
    }

    /// This tensor as an owned ndarray array; the `Vec` moves, nothing is copied.
    pub fn into_ndarray(self) -> Result<ArrayD<T>, NdarrayError> {
        let dims = self.dims();
        Array::from_shape_vec(IxDyn(&dims), self.into_vec())
            .map_err(|_| NdarrayError::Ndarray { dims })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::{Dim, Dyn};
    use ::ndarray::Array2;

    /// Both view conversions go through one check sequence: the shape type
    /// first, then the layout; a rejected mutable view leaves the array as
    /// it was.
    #[test]
    fn mutable_views_are_checked_like_shared_ones() {
        let mut a = Array2::from_shape_vec((2, 3), (1..=6).collect::<Vec<i32>>()).unwrap();

        let err =
            Tensor::<i32, (Dim<3>, Dim<2>), &mut [i32]>::try_from(a.view_mut().reversed_axes())
                .unwrap_err();
        let mut strides = [0isize; MAX_RANK];
        strides[..2].copy_from_slice(&[1, 3]);
        assert_eq!(
            err,
            NdarrayError::NotStandardLayout {
                dims: Dims::new(&[3, 2]).unwrap(),
                strides,
            }
        );
        let shared = Tensor::<i32, (Dim<3>, Dim<2>), &[i32]>::try_from(a.t()).unwrap_err();
        assert_eq!(shared, err);

        // a static dim that differs is reported before the layout
        let err = Tensor::<i32, (Dyn, Dim<3>), &mut [i32]>::try_from(a.view_mut().reversed_axes())
            .unwrap_err();
        assert!(
            matches!(err, NdarrayError::Shape { array, .. } if array.as_slice() == [3, 2]),
            "{err:?}"
        );
        assert_eq!(a.as_slice(), Some(&[1, 2, 3, 4, 5, 6][..]));

        let mut t = Tensor::<i32, (Dyn, Dim<3>), &mut [i32]>::try_from(a.view_mut()).unwrap();
        assert_eq!(t.dims().as_slice(), &[2, 3]);
        if let Some(x) = t.get_mut(&[1, 2]) {
            *x = 60;
        }
        assert_eq!(a[[1, 2]], 60);
    }
}
