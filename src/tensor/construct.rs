//! The constructors of [`Tensor`]: from a value, a function, an array, a
//! slice or a vector, for every storage (inline, heap, any owned storage),
//! and [`HeapConstructors`], the same names for heap tensors of static shape.

use super::Tensor;
use crate::error::ShapeError;
use crate::shape::{Dims, FixedShape, Shape};
use crate::storage::{Inline, OwnedStorage, Storage};

impl<T: Copy, S: Shape, B: OwnedStorage<T, S>> Tensor<T, S, B> {
    /// A tensor of shape `shape` with every element `v`, in storage `B`
    /// (an error if the element count overflows or cannot be allocated).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::try_full_with_shape((Dyn(3), Dim), 0.5).unwrap();
    /// assert_eq!(t.as_slice(), &[0.5; 6]);
    /// let err = Tensor::<u8, shape![Dyn, Dyn], Vec<u8>>::try_full_with_shape((Dyn(usize::MAX), Dyn(2)), 0)
    ///     .unwrap_err();
    /// assert_eq!(err.rule(), "shape/overflow");
    /// ```
    pub fn try_full_with_shape(shape: S, v: T) -> Result<Self, ShapeError> {
        Ok(Tensor::from_parts_unchecked(
            shape,
            B::try_filled(&shape, v)?,
        ))
    }

    /// A tensor of shape `shape` holding a copy of `data` (row-major), in
    /// storage `B`: any owned storage, so generic code builds the owned
    /// tensor of a shape whatever its dims ([`Owned`](crate::Owned)). A
    /// [`Room`](crate::Room) keeps the rest of its room `T::default()`. An
    /// error (`shape/data-length`) if `data` does not hold `shape`'s element
    /// count, or if it does not fit the storage (a `Bounded` dim's size is
    /// checked against its capacity when the dim is made).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{Owned, Room};
    /// type S = (Bounded<8>,);
    /// let shape = <S as Shape>::from_dims(&[3]).unwrap();
    /// let t = Tensor::<f32, S, Room<f32, S>>::from_shape_slice(shape, &[1.0, 2.0, 3.0]).unwrap();
    /// assert_eq!(t.dims().as_slice(), &[3]);
    /// let err = Tensor::<f32, S, Room<f32, S>>::from_shape_slice(shape, &[1.0]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// // past the capacity: refused when the dims are made
    /// assert_eq!(<S as Shape>::from_dims(&[9]).unwrap_err().rule(), "shape/capacity");
    /// // the owned tensor of a shape with a generic batch dim
    /// fn rows<B: DimLike>(b: B, data: &[f32]) -> Result<Owned<f32, (B, Dim<2>)>, ShapeError> {
    ///     Tensor::from_shape_slice((b, Dim), data)
    /// }
    /// assert_eq!(rows(Dyn(2), &[1.0, 2.0, 3.0, 4.0]).unwrap().as_slice(), &[1.0, 2.0, 3.0, 4.0]);
    /// let inline: Tensor<f32, shape![2, 2]> = rows(Dim::<2>, &[5.0, 6.0, 7.0, 8.0]).unwrap();
    /// assert_eq!(inline.as_slice(), &[5.0, 6.0, 7.0, 8.0]);
    /// ```
    pub fn from_shape_slice(shape: S, data: &[T]) -> Result<Self, ShapeError>
    where
        T: Default,
    {
        let numel = shape.numel()?;
        let mismatch = |len| ShapeError::DataLength {
            shape: shape.dims(),
            numel,
            len,
        };
        if data.len() != numel {
            return Err(mismatch(data.len()));
        }
        let mut buf = B::try_filled(&shape, T::default())?;
        let front = buf.used_mut(|| numel);
        if front.len() != numel {
            return Err(mismatch(front.len()));
        }
        front.copy_from_slice(data);
        Ok(Tensor::from_parts_unchecked(shape, buf))
    }
}

impl<T: Copy, S: FixedShape, B: Storage<T>> Tensor<T, S, B> {
    /// A tensor of a static shape over `data`, checking its length.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let buf = [1, 2, 3, 4, 5, 6];
    /// let t = Tensor::<i32, shape![3, 2], &[i32]>::from_storage(&buf[..]).unwrap();
    /// assert_eq!(t.get(&[2, 1]), Some(&6));
    /// let err = Tensor::<i32, shape![4, 2], &[i32]>::from_storage(&buf[..]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    pub fn from_storage(data: B) -> Result<Self, ShapeError> {
        // the element count is a constant here: no run-time product to check
        let len = data.as_slice().len();
        if len != S::NUMEL {
            return Err(ShapeError::DataLength {
                shape: S::default().dims(),
                numel: S::NUMEL,
                len,
            });
        }
        Ok(Tensor::from_parts_unchecked(S::default(), data))
    }
}

impl<T: Copy, S: FixedShape> Tensor<T, S> {
    /// An inline tensor from its nested array (`[[T; 3]; 2]` for `shape![2, 3]`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(t.get(&[1, 0]), Some(&4));
    /// ```
    #[inline]
    pub fn from_array(array: S::Array<T>) -> Self {
        Tensor::from_parts_unchecked(S::default(), Inline(array))
    }

    /// An inline tensor with every element `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![2, 2]>::full(1.5);
    /// assert_eq!(t.as_slice(), &[1.5; 4]);
    /// ```
    #[inline]
    pub fn full(v: T) -> Self {
        Self::from_array(S::array_filled(v))
    }

    /// An inline tensor of zeros (`T::default()`: `0`, `0.0`, `false`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<i32, shape![2, 2]>::zeros();
    /// assert_eq!(t.as_slice(), &[0, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn zeros() -> Self
    where
        T: Default,
    {
        Self::full(T::default())
    }

    /// An inline tensor copied from a row-major slice; an error unless it has
    /// exactly `S::NUMEL` elements.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<i32, shape![2, 2]>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.get(&[1, 0]), Some(&3));
    /// let err = Tensor::<i32, shape![2, 2]>::from_slice(&[1, 2, 3]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    pub fn from_slice(data: &[T]) -> Result<Self, ShapeError>
    where
        T: Default,
    {
        if data.len() != S::NUMEL {
            return Err(ShapeError::DataLength {
                shape: S::default().dims(),
                numel: S::NUMEL,
                len: data.len(),
            });
        }
        let mut out = Self::full(T::default());
        out.as_mut_slice().copy_from_slice(data);
        Ok(out)
    }

    /// An inline tensor whose element at each index is `f(index)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<usize, shape![2, 3]>::from_fn(|i| 10 * i[0] + i[1]);
    /// assert_eq!(t.as_slice(), &[0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn(mut f: impl FnMut(&[usize]) -> T) -> Self
    where
        T: Default,
    {
        let mut out = Self::full(T::default());
        fill_from_fn(out.as_mut_slice(), &S::default().dims(), &mut f);
        out
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy, S: Shape> Tensor<T, S, alloc::vec::Vec<T>> {
    /// A heap tensor from a shape value and a vector, checking its length
    /// (for a static shape the value is `Default::default()`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0; 4]).unwrap();
    /// assert_eq!(t.dims().as_slice(), &[2, 2]);
    /// assert!(Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim::<2>), vec![1.0; 4]).is_err());
    /// ```
    pub fn from_vec(shape: S, data: alloc::vec::Vec<T>) -> Result<Self, ShapeError> {
        Self::with_shape(shape, data)
    }

    /// A heap tensor of shape `shape` (run-time dims included) filled with
    /// zeros; an error if the element count overflows or cannot be allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<u8, shape![Dyn, 3], Vec<u8>>::try_zeros_with_shape((Dyn(2), Dim::<3>)).unwrap();
    /// assert_eq!(t.as_slice(), &[0; 6]);
    /// ```
    pub fn try_zeros_with_shape(shape: S) -> Result<Self, ShapeError>
    where
        T: Default,
    {
        Self::try_full_with_shape(shape, T::default())
    }
}

/// The constructors of inline tensors, with the same names, for heap
/// tensors of a static shape: no shape value needed (a shape with a `Dyn`
/// dim uses [`from_vec`](Tensor::from_vec),
/// [`try_full_with_shape`](Tensor::try_full_with_shape) or
/// [`try_zeros_with_shape`](Tensor::try_zeros_with_shape)).
///
/// A trait (in the prelude) rather than inherent methods, so that
/// `let t: Tensor<f32, shape![2]> = Tensor::full(1.0)` still infers the
/// inline storage: inherent constructors of the same name for both
/// storages would make that call ambiguous.
///
/// ```
/// use shapecheck::prelude::*;
/// type Heap = Tensor<f32, shape![2, 3], Vec<f32>>;
/// assert_eq!(Heap::full(1.5).as_slice(), Tensor::<f32, shape![2, 3]>::full(1.5).as_slice());
/// assert_eq!(Heap::zeros().as_slice(), &[0.0; 6]);
/// let f = Heap::from_fn(|i| (10 * i[0] + i[1]) as f32);
/// assert_eq!(f.as_slice(), &[0.0, 1.0, 2.0, 10.0, 11.0, 12.0]);
/// assert_eq!(Heap::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).as_slice()[5], 6.0);
/// assert!(Heap::from_slice(&[1.0; 5]).is_err());
/// ```
#[cfg(feature = "alloc")]
pub trait HeapConstructors<T: Copy, S: FixedShape>: Sized {
    /// A heap tensor with every element `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![2, 2], Vec<f32>>::full(2.0);
    /// assert_eq!(t.storage(), &vec![2.0; 4]);
    /// ```
    #[must_use]
    fn full(v: T) -> Self;
    /// A heap tensor of zeros (`T::default()`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<u8, shape![3], Vec<u8>>::zeros();
    /// assert_eq!(t.storage(), &vec![0; 3]);
    /// ```
    #[must_use]
    fn zeros() -> Self
    where
        T: Default,
    {
        Self::full(T::default())
    }
    /// A heap tensor whose element at each index is `f(index)`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<usize, shape![2, 2], Vec<usize>>::from_fn(|i| 10 * i[0] + i[1]);
    /// assert_eq!(t.storage(), &vec![0, 1, 10, 11]);
    /// ```
    #[must_use]
    fn from_fn(f: impl FnMut(&[usize]) -> T) -> Self
    where
        T: Default;
    /// A heap tensor from its nested array.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<i32, shape![2, 2], Vec<i32>>::from_array([[1, 2], [3, 4]]);
    /// assert_eq!(t.storage(), &vec![1, 2, 3, 4]);
    /// ```
    #[must_use]
    fn from_array(array: S::Array<T>) -> Self;
    /// A heap tensor copied from a row-major slice; an error unless it has
    /// exactly `S::NUMEL` elements.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<i32, shape![2, 2], Vec<i32>>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.storage(), &vec![1, 2, 3, 4]);
    /// let err = Tensor::<i32, shape![2, 2], Vec<i32>>::from_slice(&[1, 2, 3]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    fn from_slice(data: &[T]) -> Result<Self, ShapeError>;
}

#[cfg(feature = "alloc")]
impl<T: Copy, S: FixedShape> HeapConstructors<T, S> for Tensor<T, S, alloc::vec::Vec<T>> {
    fn full(v: T) -> Self {
        // built on the heap directly: a large static shape never sits on the stack
        Tensor::from_parts_unchecked(S::default(), alloc::vec![v; S::NUMEL])
    }

    fn from_fn(mut f: impl FnMut(&[usize]) -> T) -> Self
    where
        T: Default,
    {
        let mut out = Self::zeros();
        fill_from_fn(out.as_mut_slice(), &S::default().dims(), &mut f);
        out
    }

    fn from_array(array: S::Array<T>) -> Self {
        Tensor::<T, S>::from_array(array).to_heap()
    }

    fn from_slice(data: &[T]) -> Result<Self, ShapeError> {
        Self::from_vec(S::default(), data.to_vec())
    }
}

/// Writes `f(index)` into each slot of `data`, row-major over `dims`.
fn fill_from_fn<T>(data: &mut [T], dims: &Dims, f: &mut impl FnMut(&[usize]) -> T) {
    let zeros = [0usize; crate::dims::MAX_RANK];
    let mut index = Dims::new(zeros.get(..dims.rank()).unwrap_or(&[])).unwrap_or(Dims::SCALAR);
    for slot in data {
        *slot = f(index.as_slice());
        crate::kernel::advance_index(&mut index, dims);
    }
}
