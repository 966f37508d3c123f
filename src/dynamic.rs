//! The dynamic escape hatch: [`DynTensor`], a tensor whose shape is known only
//! at run time. Every op checks its rules when it runs and returns a typed
//! error. Static tensors convert to it always ([`Tensor::to_dyn`]); back to a
//! static shape with a checked `TryFrom`.

pub mod prelude;

use crate::error::ShapeError;
use crate::shape::{Dims, Shape};
use crate::storage::{default_vec, filled_vec, Inline, Storage};
use crate::tensor::Tensor;
use alloc::vec::Vec;

/// A row-major tensor whose shape is a run-time value (rank at most [`MAX_RANK`](crate::MAX_RANK)).
///
/// ```
/// use shapecheck::{BinaryOpKind, ActivationKind, DynTensor};
/// let x = DynTensor::new(&[2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
/// assert_eq!(x.dims().as_slice(), &[2, 3]);
/// let y = DynTensor::new(&[2], vec![10.0f32, 20.0]).unwrap();
/// let z = x.elementwise(BinaryOpKind::Mul, &y, 0, ActivationKind::Identity).unwrap();
/// assert_eq!(z.as_slice(), &[10.0, 20.0, 30.0, 80.0, 100.0, 120.0]);
/// let err = x.elementwise(BinaryOpKind::Mul, &y, -1, ActivationKind::Identity).unwrap_err();
/// assert_eq!(err.rule(), "elementwise/broadcast");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DynTensor<T> {
    dims: Dims,
    data: Vec<T>,
}

impl<T: Copy> DynTensor<T> {
    /// A tensor of shape `dims` over `data`, checking the length.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let t = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    /// assert_eq!(DynTensor::new(&[2, 3], vec![0; 5]).unwrap_err().rule(), "shape/data-length");
    /// assert_eq!(DynTensor::new(&[1; 9], vec![0]).unwrap_err().rule(), "shape/rank");
    /// ```
    pub fn new(dims: &[usize], data: Vec<T>) -> Result<Self, ShapeError> {
        let dims = Dims::for_data(dims, data.len())?;
        Ok(DynTensor { dims, data })
    }

    /// A tensor of shape `dims` with every element `v`.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// assert_eq!(DynTensor::full(&[2, 2], 0.5f32).unwrap().as_slice(), &[0.5; 4]);
    /// assert_eq!(DynTensor::full(&[usize::MAX, 2], 0u8).unwrap_err().rule(), "shape/overflow");
    /// ```
    pub fn full(dims: &[usize], v: T) -> Result<Self, ShapeError> {
        let d = Dims::new(dims)?;
        Ok(DynTensor {
            dims: d,
            data: filled_vec(d.try_numel()?, v)?,
        })
    }

    /// A tensor of shape `dims` holding `T::default()`: an op's result,
    /// which the op then writes. The same buffer as the static path's
    /// results (`storage::default_vec`: zeroed by the allocator, not
    /// filled, for the primitive types).
    pub(crate) fn defaulted(dims: &Dims) -> Result<Self, ShapeError>
    where
        T: Default,
    {
        Ok(DynTensor {
            dims: *dims,
            data: default_vec(dims.try_numel()?)?,
        })
    }

    /// A tensor holding no buffer yet, for an op's `_into` form to fill
    /// ([`DynTensor::reset_defaulted`] then makes its buffer).
    pub(crate) fn unallocated() -> Self {
        DynTensor {
            dims: Dims::SCALAR,
            data: Vec::new(),
        }
    }

    /// This tensor made `dims` with every element `T::default()`, for an op
    /// to write, keeping its buffer when that holds enough elements (no
    /// allocation, and pages already touched); otherwise a new buffer as
    /// [`DynTensor::defaulted`] makes. On an error it is unchanged.
    pub(crate) fn reset_defaulted(&mut self, dims: &Dims) -> Result<(), ShapeError>
    where
        T: Default,
    {
        let numel = dims.try_numel()?;
        if self.data.capacity() >= numel {
            self.data.clear();
            self.data.resize(numel, T::default());
        } else {
            self.data = default_vec(numel)?;
        }
        self.dims = *dims;
        Ok(())
    }

    /// `f(v)` for every element, into a new tensor of the same dims, in
    /// one pass (the operators with a number on a borrowed tensor).
    pub(crate) fn map_each(&self, f: impl Fn(T) -> T) -> Self {
        DynTensor {
            dims: self.dims,
            data: self.data.iter().map(|&v| f(v)).collect(),
        }
    }

    /// The dims.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let t = DynTensor::full(&[2, 0, 3], 1u8).unwrap();
    /// assert_eq!(t.dims().as_slice(), &[2, 0, 3]);
    /// assert!(t.as_slice().is_empty());
    /// ```
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The elements in row-major order.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let t = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// The elements, mutably.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let mut t = DynTensor::full(&[2, 2], 0).unwrap();
    /// t.as_mut_slice()[1] = 5;
    /// assert_eq!(t.as_slice(), &[0, 5, 0, 0]);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// The elements.
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let t = DynTensor::new(&[3], vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.into_vec(), vec![1, 2, 3]);
    /// ```
    #[must_use = "`into_vec` consumes the tensor: dropping the result drops its elements"]
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }

    /// Checked conversion to a static shape `S` on the heap.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let s: Tensor<i32, shape![Dyn, 3], Vec<i32>> = t.clone().into_static().unwrap();
    /// assert_eq!(s.get(&[1, 0]), Some(&4));
    /// assert_eq!(t.into_static::<shape![3, 2]>().unwrap_err().rule(), "shape/dim-mismatch");
    /// ```
    pub fn into_static<S: Shape>(self) -> Result<Tensor<T, S, Vec<T>>, ShapeError> {
        Tensor::with_shape(S::from_dims(&self.dims)?, self.data)
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// This tensor with its shape as a run-time value (always succeeds).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let d = tensor![[1, 2, 3], [4, 5, 6]].to_dyn();
    /// assert_eq!(d, DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap());
    /// ```
    pub fn to_dyn(&self) -> DynTensor<T> {
        DynTensor {
            dims: self.dims(),
            data: self.as_slice().to_vec(),
        }
    }
}

/// [`Tensor::to_dyn`] as a conversion.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = Tensor::<i32, shape![2]>::from_array([1, 2]);
/// let d = DynTensor::from(&x);
/// assert_eq!((d.dims().as_slice(), d.as_slice()), (&[2][..], &[1, 2][..]));
/// ```
impl<T: Copy, S: Shape, B: Storage<T>> From<&Tensor<T, S, B>> for DynTensor<T> {
    fn from(t: &Tensor<T, S, B>) -> Self {
        t.to_dyn()
    }
}

impl<T: Copy, S: Shape> TryFrom<DynTensor<T>> for Tensor<T, S, Vec<T>> {
    type Error = ShapeError;
    fn try_from(t: DynTensor<T>) -> Result<Self, ShapeError> {
        t.into_static()
    }
}

impl<T: Copy + Default, S: crate::shape::StaticShape> TryFrom<&DynTensor<T>>
    for Tensor<T, S, Inline<T, S>>
{
    type Error = ShapeError;
    fn try_from(t: &DynTensor<T>) -> Result<Self, ShapeError> {
        S::from_dims(&t.dims)?;
        Tensor::from_slice(&t.data)
    }
}
