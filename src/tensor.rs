//! The tensor: a shape (a type, plus the values of its [`Dyn`](crate::Dyn)
//! dims) over row-major storage.

use crate::error::ShapeError;
use crate::shape::{Dims, Shape};
use crate::storage::{Inline, OutputStorage, OwnedStorage, Storage, StorageMut};
use core::fmt;
use core::marker::PhantomData;

mod brand;
mod construct;
pub use brand::{BrandedRows, WithRows};
#[cfg(feature = "alloc")]
pub use construct::HeapConstructors;

/// The owned tensor of shape `S`, stored as an op stores a result of that
/// shape ([`OutputStorage`]): inline for a static shape, a [`Room`](crate::Room) for
/// `Bounded<CAP>` dims (no heap), a `Vec` for a `Dyn` or branded dim. The
/// one name for "what `x.op(..)` returns" in a signature, whatever the kind
/// of its dims, and with no bound in generic code: a function generic over
/// a batch dim `B: DimLike` returns `Owned<f32, (B, Dim<8>)>`, which is a
/// `Vec` tensor for `Dyn` rows, inline for `Dim<2>` and a `Room` for
/// `Bounded<CAP>`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Owned;
/// // generic over the batch dim: takes and returns the owned tensor of its shape
/// fn gate<B: DimLike>(x: &Owned<f32, (B, Dim<3>)>, w: &Tensor<f32, shape![3]>) -> Owned<f32, (B, Dim<3>)> {
///     x.elementwise_mul(w, Axis::<1>, Relu)
/// }
/// let w = tensor![1.0f32, 2.0, 3.0];
/// let heap = Tensor::from_vec((Dyn(1), Dim), vec![1.0f32, -1.0, 1.0]).unwrap();
/// assert_eq!(gate(&heap, &w).as_slice(), &[1.0, 0.0, 3.0]);
/// let inline: Tensor<f32, shape![1, 3]> = gate(&tensor![[1.0f32, -1.0, 1.0]], &w);
/// assert_eq!(inline.as_slice(), &[1.0, 0.0, 3.0]);
/// // a capacity, generic: the result stays inline, no heap
/// fn clip<const CAP: usize>(x: &Owned<f32, (Bounded<CAP>, Dim<3>)>) -> Owned<f32, (Bounded<CAP>, Dim<3>)> {
///     x.elementwise_max(&tensor![0.0f32, 0.0, 0.0], Axis::<1>, Identity)
/// }
/// let (i, d) = (tensor![1, 0], tensor![[1.0f32, -2.0, 3.0], [-4.0, 5.0, -6.0]]);
/// let x = dynamic_stitch(&i, &d).run_bounded::<4>().unwrap();
/// assert_eq!(clip(&x).as_slice(), &[0.0, 5.0, 0.0, 1.0, 0.0, 3.0]);
/// assert_eq!(gate(&x, &w).as_slice(), &[0.0, 10.0, 0.0, 1.0, 0.0, 9.0]);
/// // a static shape, generic
/// fn twice<S: StaticShape>(x: &Tensor<f32, S>) -> Owned<f32, S> {
///     x.map(|v| v * 2.0)
/// }
/// assert_eq!(twice(&tensor![1.0f32, 2.0]).as_slice(), &[2.0, 4.0]);
/// ```
///
/// An op keeps a `Vec` operand's result in a `Vec` whatever its shape
/// ([`ResultStorage`](crate::ResultStorage): a big static tensor stays on
/// the heap), so a generic function that takes `Owned` (as `gate` above)
/// returns `Owned`; one that takes a `Vec` tensor returns a `Vec` tensor.
/// Without `alloc`, `Owned` of a shape with a `Dyn` dim is a type no op
/// returns (the ops point to their `_into` forms).
pub type Owned<T, S> = Tensor<T, S, <S as OutputStorage<T>>::Buffer>;

/// A row-major tensor of `T` with shape `S`, stored in `B`.
///
/// `B` defaults to [`Inline`] (a nested array, no heap). Use `Vec<T>`
/// (feature `alloc`) for large tensors or shapes with run-time dims, and
/// `&[T]` / `&mut [T]` to work on a caller's buffer.
///
/// ```
/// use shapecheck::prelude::*;
///
/// // inline, from a nested array
/// let a = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
/// assert_eq!(a.get(&[1, 0]), Some(&3));
///
/// // a view over a buffer the caller owns (no copy, no heap)
/// static BUF: [f32; 6] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
/// let v = Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&BUF[..]).unwrap();
/// assert_eq!(v.dims().as_slice(), &[3, 2]);
///
/// // the wrong length is an error, not a panic
/// let err = Tensor::<f32, shape![4, 2], &[f32]>::from_storage(&BUF[..]).unwrap_err();
/// assert_eq!(err.to_string(), "shape [4, 2] holds 8 elements, but the data has 6");
/// ```
#[must_use = "a tensor computed and dropped is work lost; bind it (`let _ = ...` to discard on purpose)"]
pub struct Tensor<T: Copy, S: Shape, B: Storage<T> = Inline<T, S>> {
    shape: S,
    data: B,
    _elem: PhantomData<T>,
}

impl<T: Copy, S: Shape, B: Storage<T> + Clone> Clone for Tensor<T, S, B> {
    fn clone(&self) -> Self {
        Tensor {
            shape: self.shape,
            data: self.data.clone(),
            _elem: PhantomData,
        }
    }
}

impl<T: Copy, S: Shape, B: Storage<T> + Copy> Copy for Tensor<T, S, B> {}

impl<T: Copy + PartialEq, S: Shape, B: Storage<T>, B2: Storage<T>> PartialEq<Tensor<T, S, B2>>
    for Tensor<T, S, B>
{
    fn eq(&self, other: &Tensor<T, S, B2>) -> bool {
        self.shape == other.shape && self.as_slice() == other.as_slice()
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// A tensor over `data`, checking that it holds `shape`'s element count.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let buf = [1, 2, 3, 4];
    /// let t = Tensor::<i32, shape![Dyn, 2], &[i32]>::with_shape((Dyn(2), Dim), &buf[..]).unwrap();
    /// assert_eq!(t.get(&[1, 0]), Some(&3));
    /// let err = Tensor::<i32, shape![Dyn, 2], &[i32]>::with_shape((Dyn(3), Dim), &buf[..]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// ```
    pub fn with_shape(shape: S, data: B) -> Result<Self, ShapeError> {
        let numel = shape.numel()?;
        let len = data.used(|| numel).len();
        if numel != len {
            return Err(ShapeError::DataLength {
                shape: shape.dims(),
                numel,
                len,
            });
        }
        Ok(Tensor {
            shape,
            data,
            _elem: PhantomData,
        })
    }

    /// Same as [`with_shape`](Self::with_shape) with the dims given as values:
    /// every static dim of `S` is checked against them.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let buf = [1, 2, 3, 4, 5, 6];
    /// let t = Tensor::<i32, shape![Dyn, 3], &[i32]>::with_dims(&[2, 3], &buf[..]).unwrap();
    /// assert_eq!(t.get(&[1, 2]), Some(&6));
    /// // dim 1 is 3 in the type
    /// let err = Tensor::<i32, shape![Dyn, 3], &[i32]>::with_dims(&[3, 2], &buf[..]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/dim-mismatch");
    /// ```
    pub fn with_dims(dims: &[usize], data: B) -> Result<Self, ShapeError> {
        Self::with_shape(S::from_dims(dims)?, data)
    }

    /// The same data under another shape type with the same dims: a static
    /// shape made run-time (`Dyn`) or a run-time one checked into a static
    /// one. `TryFrom` cannot express this (the standard library's blanket
    /// `TryFrom<T> for T` would overlap when the two shape types are equal).
    /// An error, and the tensor dropped, when a static dim of `S2` or its
    /// rank differs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3], Vec<f32>>::from_vec((Dim, Dim), vec![1.0; 6]).unwrap();
    /// // static -> run-time dims
    /// let d: Tensor<f32, shape![Dyn, 3], Vec<f32>> = x.try_into_shape().unwrap();
    /// assert_eq!(d.dims().as_slice(), &[2, 3]);
    /// // run-time -> static, checked
    /// let back: Tensor<f32, shape![2, 3], Vec<f32>> = d.clone().try_into_shape().unwrap();
    /// assert_eq!(back.as_slice(), &[1.0; 6]);
    /// let wrong = d.try_into_shape::<shape![3, 2]>().unwrap_err();
    /// assert_eq!(wrong.rule(), "shape/dim-mismatch");
    /// ```
    pub fn try_into_shape<S2: Shape>(self) -> Result<Tensor<T, S2, B>, ShapeError> {
        let shape = S2::from_dims(&self.dims())?;
        Ok(Tensor::from_parts_unchecked(shape, self.data))
    }

    /// Builds the tensor without checking; only for callers that checked.
    pub(crate) fn from_parts_unchecked(shape: S, data: B) -> Self {
        Tensor {
            shape,
            data,
            _elem: PhantomData,
        }
    }

    /// The shape and the storage, to be changed together; only for callers
    /// that keep the tensor's invariant (the storage holds the shape's
    /// elements).
    pub(crate) fn parts_mut(&mut self) -> (&mut S, &mut B) {
        (&mut self.shape, &mut self.data)
    }

    /// The shape value (its static dims are zero-sized).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 6]).unwrap();
    /// assert_eq!(*t.shape(), (Dyn(2), Dim::<3>));
    /// assert_eq!(t.shape().0.size(), 2);
    /// ```
    #[inline]
    #[must_use]
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The dims as values.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<u8, shape![2, 1, 3]>::zeros();
    /// assert_eq!(t.dims().as_slice(), &[2, 1, 3]);
    /// assert_eq!(t.dims().rank(), 3);
    /// ```
    #[inline]
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.shape.dims()
    }

    /// The elements in row-major order.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        // all of the storage, or a `Room`'s front (the count asked only there)
        self.data.used(|| self.shape.numel().unwrap_or(0))
    }

    /// The elements in row-major order.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.iter().copied().max(), Some(4));
    /// assert_eq!(t.iter().sum::<i32>(), 10);
    /// ```
    pub fn iter(&self) -> core::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// `f(v)` for every element, into a fresh tensor of the same shape whose
    /// storage the shape chooses (inline for a static shape, a `Vec` for a
    /// run-time dim). One pass; for `U = T` it is the one-node expression
    /// `x.lazy().map(f)`, which fuses with more nodes.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1.0f32, -2.0], [3.0, -4.0]];
    /// let positive: Tensor<bool, shape![2, 2]> = t.map(|v| v > 0.0);
    /// assert_eq!(positive.as_slice(), &[true, false, true, false]);
    /// assert_eq!(t.map(|v| v * 2.0), t.lazy().map(|v| v * 2.0).eval());
    /// ```
    pub fn map<U, F>(&self, f: F) -> Tensor<U, S, <S as OutputStorage<U>>::Buffer>
    where
        U: Copy + Default,
        F: Fn(T) -> U,
        S: OutputStorage<U>,
    {
        let shape = self.shape;
        let mut data = <S as OutputStorage<U>>::Buffer::filled(&shape, U::default());
        for (o, &v) in data.as_mut_slice().iter_mut().zip(self.as_slice()) {
            *o = f(v);
        }
        Tensor::from_parts_unchecked(shape, data)
    }

    /// The storage.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.storage().0, [[1, 2], [3, 4]]);
    /// ```
    #[must_use]
    pub fn storage(&self) -> &B {
        &self.data
    }

    /// The shape and the storage.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0, 2.0, 3.0]).unwrap();
    /// let (shape, data) = t.into_parts();
    /// assert_eq!(shape, (Dyn(3),));
    /// assert_eq!(data, vec![1.0, 2.0, 3.0]);
    /// ```
    #[must_use = "`into_parts` consumes the tensor: dropping the result drops its data"]
    pub fn into_parts(self) -> (S, B) {
        (self.shape, self.data)
    }

    /// The row-major position of `index`, `None` if its rank or any coordinate is out of range.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = Tensor::<u8, shape![2, 3]>::zeros();
    /// assert_eq!(t.flat_index(&[1, 2]), Some(5));
    /// assert_eq!(t.flat_index(&[2, 0]), None);
    /// assert_eq!(t.flat_index(&[1]), None);
    /// ```
    #[must_use]
    pub fn flat_index(&self, index: &[usize]) -> Option<usize> {
        let dims = self.dims();
        if index.len() != dims.rank() {
            return None;
        }
        let mut flat = 0usize;
        for (&i, &d) in index.iter().zip(dims.iter()) {
            if i >= d {
                return None;
            }
            // overflows only when a later dim is 0 (no element at all)
            flat = flat.checked_mul(d)?.checked_add(i)?;
        }
        Some(flat)
    }

    /// The element at `index`, `None` if out of range.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(t.get(&[1, 1]), Some(&5));
    /// assert_eq!(t.get(&[0, 3]), None);
    /// ```
    #[must_use]
    pub fn get(&self, index: &[usize]) -> Option<&T> {
        self.flat_index(index).and_then(|i| self.as_slice().get(i))
    }

    /// A borrowed view of this tensor.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let t = tensor![[1, 2], [3, 4]];
    /// let v: Tensor<i32, shape![2, 2], &[i32]> = t.view();
    /// assert_eq!(v.get(&[1, 0]), Some(&3));
    /// assert_eq!(v, t);
    /// ```
    pub fn view(&self) -> Tensor<T, S, &[T]> {
        Tensor::from_parts_unchecked(self.shape, self.as_slice())
    }

    /// A copy of the elements in a `Vec`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(tensor![[1, 2], [3, 4]].to_vec(), vec![1, 2, 3, 4]);
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use = "the result is a copy; the tensor is unchanged"]
    pub fn to_vec(&self) -> alloc::vec::Vec<T> {
        self.as_slice().to_vec()
    }

    /// The same tensor, stored on the heap.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let h: Tensor<i32, shape![2, 2], Vec<i32>> = tensor![[1, 2], [3, 4]].to_heap();
    /// assert_eq!(h.storage(), &vec![1, 2, 3, 4]);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_heap(&self) -> Tensor<T, S, alloc::vec::Vec<T>> {
        Tensor::from_parts_unchecked(self.shape, self.to_vec())
    }
}

impl<T: Copy, S: Shape, B: StorageMut<T>> Tensor<T, S, B> {
    /// The elements in row-major order, mutably.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 2]>::zeros();
    /// t.as_mut_slice()[3] = 7;
    /// assert_eq!(t.get(&[1, 1]), Some(&7));
    /// ```
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let shape = self.shape;
        self.data.used_mut(|| shape.numel().unwrap_or(0))
    }

    /// The elements in row-major order, mutably.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut t = tensor![1, 2, 3];
    /// t.iter_mut().for_each(|v| *v *= 10);
    /// assert_eq!(t.as_slice(), &[10, 20, 30]);
    /// ```
    pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }

    /// The element at `index`, mutably; `None` if out of range.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut t = Tensor::<i32, shape![2, 2]>::zeros();
    /// if let Some(v) = t.get_mut(&[0, 1]) {
    ///     *v = 5;
    /// }
    /// assert_eq!(t.as_slice(), &[0, 5, 0, 0]);
    /// assert!(t.get_mut(&[2, 0]).is_none());
    /// ```
    pub fn get_mut(&mut self, index: &[usize]) -> Option<&mut T> {
        let i = self.flat_index(index)?;
        self.as_mut_slice().get_mut(i)
    }

    /// A mutable borrowed view of this tensor.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut t = Tensor::<i32, shape![2]>::zeros();
    /// let mut v = t.view_mut();
    /// v.as_mut_slice()[1] = 4;
    /// assert_eq!(t.as_slice(), &[0, 4]);
    /// ```
    pub fn view_mut(&mut self) -> Tensor<T, S, &mut [T]> {
        let shape = self.shape;
        Tensor::from_parts_unchecked(shape, self.as_mut_slice())
    }
}

impl<T: Copy + fmt::Debug, S: Shape, B: Storage<T>> fmt::Debug for Tensor<T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor{} ", self.dims())?;
        write_nested(f, self.dims().as_slice(), self.as_slice(), &|f, v| {
            write!(f, "{v:?}")
        })
    }
}

impl<T: Copy + fmt::Display, S: Shape, B: Storage<T>> fmt::Display for Tensor<T, S, B> {
    /// Nested brackets, as numpy prints: `[[1, 2], [3, 4]]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nested(f, self.dims().as_slice(), self.as_slice(), &|f, v| {
            write!(f, "{v}")
        })
    }
}

type ElemFmt<'a, T> = &'a dyn Fn(&mut fmt::Formatter<'_>, &T) -> fmt::Result;

/// Writes `data` with shape `dims` as nested brackets.
///
/// A tensor with no element prints as `[]` whatever its dims, as numpy's
/// `str` does (`np.zeros((2, 0))` prints `[]`): its other dims can be huge
/// (`[2^40, 0]` holds no element), so printing one bracket pair per row
/// would not end, and their product could overflow.
fn write_nested<T>(
    f: &mut fmt::Formatter<'_>,
    dims: &[usize],
    data: &[T],
    elem: ElemFmt<'_, T>,
) -> fmt::Result {
    if data.is_empty() {
        return f.write_str("[]");
    }
    let Some((&outer, rest)) = dims.split_first() else {
        return match data.first() {
            Some(v) => elem(f, v),
            None => f.write_str("[]"),
        };
    };
    // `data` is not empty, so no dim is 0 and this product is at most its length
    let chunk = rest.iter().fold(1usize, |acc, &d| acc.saturating_mul(d));
    f.write_str("[")?;
    for i in 0..outer {
        if i > 0 {
            f.write_str(", ")?;
        }
        let start = i.saturating_mul(chunk);
        let part = data.get(start..start.saturating_add(chunk)).unwrap_or(&[]);
        write_nested(f, rest, part, elem)?;
    }
    f.write_str("]")
}
