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
use core::fmt;

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
#[derive(Clone)]
pub struct DynTensor<T> {
    dims: Dims,
    /// The elements are `data[start..]` (exactly the dims' count): `start`
    /// is 0 except in a large result whose rows an op scatters, which
    /// [`DynTensor::reset_kept`] starts on a cache line.
    data: Vec<T>,
    start: usize,
}

/// The cache line a scattered result is aligned to (64 bytes on x86-64
/// and on most ARM cores).
const LINE: usize = 64;

/// Results from this size on start on a cache line: a row of a whole
/// number of lines then writes only its own lines. Smaller ones mostly
/// stay in the cache, where it does not matter, and keep `start` 0 (so
/// that [`DynTensor::into_vec`] moves nothing).
const LINE_ALIGNED_FROM_BYTES: usize = 1 << 20;

/// Tensors are equal when their dims and elements are (where their buffers
/// start is not part of the value).
impl<T: PartialEq> PartialEq for DynTensor<T> {
    fn eq(&self, other: &Self) -> bool {
        self.dims == other.dims && self.elements() == other.elements()
    }
}

/// The dims and the elements, as `DynTensor { dims: [2, 2], data: [1, 2, 3, 4] }`.
impl<T: fmt::Debug> fmt::Debug for DynTensor<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynTensor")
            .field("dims", &self.dims)
            .field("data", &self.elements())
            .finish()
    }
}

impl<T> DynTensor<T> {
    /// The elements: `data[start..]` (never out of range: `start <=
    /// data.len()` is kept by every constructor).
    fn elements(&self) -> &[T] {
        self.data.get(self.start..).unwrap_or(&[])
    }
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
        Ok(DynTensor {
            dims,
            data,
            start: 0,
        })
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
            start: 0,
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
            start: 0,
        })
    }

    /// A tensor holding no buffer yet, for an op's `_into` form to fill
    /// ([`DynTensor::reset_kept`] then makes its buffer).
    pub(crate) fn unallocated() -> Self {
        DynTensor {
            dims: Dims::SCALAR,
            data: Vec::new(),
            start: 0,
        }
    }

    /// This tensor made `dims`, for an op that then writes every element
    /// or sets to `T::default()` those it does not write. It keeps its
    /// buffer when that holds enough elements (no allocation, and pages
    /// already touched), and the elements are then the buffer's earlier
    /// values (`T::default()` past its earlier length): nothing is filled.
    /// Otherwise a new buffer as [`DynTensor::defaulted`] makes, zeroed by
    /// the allocator. Returns whether every element is `T::default()` (a
    /// new buffer). On an error it is unchanged.
    ///
    /// For dynamic_stitch, whose rows land in any order: a result of
    /// [`LINE_ALIGNED_FROM_BYTES`] or more starts on a cache line, so that
    /// a row of whole lines writes only its own (on W5's rows of 64 bytes, a
    /// random scatter into a buffer 16 bytes off a line took 25 ms against
    /// 17.5 ms aligned: `docs/measurements.md`).
    pub(crate) fn reset_kept(&mut self, dims: &Dims) -> Result<bool, ShapeError>
    where
        T: Default,
    {
        let numel = dims.try_numel()?;
        let size = core::mem::size_of::<T>();
        // room for the elements that reach the next line
        let pad = if size > 0
            && LINE.is_multiple_of(size)
            && numel.saturating_mul(size) >= LINE_ALIGNED_FROM_BYTES
        {
            LINE / size
        } else {
            0
        };
        let want = numel
            .checked_add(pad)
            .ok_or(ShapeError::Allocation { numel })?;
        let fresh = self.data.capacity() < want;
        if fresh {
            // zeroed by the allocator, not filled (`default_vec`): only
            // its first `start + numel` elements are kept
            self.data = default_vec(want)?;
        }
        let offset = self.data.as_ptr().align_offset(LINE);
        self.start = if offset < pad { offset } else { 0 };
        // a new buffer only drops its tail; a kept one keeps its values
        // and grows with `T::default()` where it was shorter
        self.data.resize(self.start + numel, T::default());
        self.dims = *dims;
        Ok(fresh)
    }

    /// `f(v)` for every element, into a new tensor of the same dims, in
    /// one pass (the operators with a number on a borrowed tensor).
    pub(crate) fn map_each(&self, f: impl Fn(T) -> T) -> Self {
        DynTensor {
            dims: self.dims,
            data: self.elements().iter().map(|&v| f(v)).collect(),
            start: 0,
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
        self.elements()
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
        self.data.get_mut(self.start..).unwrap_or(&mut [])
    }

    /// The elements, as the vector that holds them: the one the tensor was
    /// made from, with no copy. A dynamic_stitch result of 1 MiB or more
    /// starts on a cache line inside its buffer; its elements are moved to
    /// the buffer's front first (one pass over them).
    ///
    /// ```
    /// use shapecheck::DynTensor;
    /// let t = DynTensor::new(&[3], vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.into_vec(), vec![1, 2, 3]);
    /// // a large stitched result: the same elements either way
    /// let rows = 1 << 16;
    /// let idx = DynTensor::new(&[rows], (0..rows as i32).rev().collect()).unwrap();
    /// let data = DynTensor::new(&[rows, 4], (0..4 * rows).map(|v| v as f32).collect()).unwrap();
    /// let out = DynTensor::dynamic_stitch(&[(&idx, &data)]).unwrap();
    /// let first_row = out.as_slice()[..4].to_vec();
    /// assert_eq!(first_row, [262140.0, 262141.0, 262142.0, 262143.0]);
    /// assert_eq!(out.into_vec()[..4], first_row[..]);
    /// ```
    #[must_use = "`into_vec` consumes the tensor: dropping the result drops its elements"]
    pub fn into_vec(mut self) -> Vec<T> {
        if self.start > 0 {
            self.data.drain(..self.start);
        }
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
        let shape = S::from_dims(&self.dims)?;
        Tensor::with_shape(shape, self.into_vec())
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
            start: 0,
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

impl<T: Copy + Default, S: crate::shape::FixedShape> TryFrom<&DynTensor<T>>
    for Tensor<T, S, Inline<T, S>>
{
    type Error = ShapeError;
    fn try_from(t: &DynTensor<T>) -> Result<Self, ShapeError> {
        S::from_dims(&t.dims)?;
        Tensor::from_slice(t.as_slice())
    }
}
