//! What a tensor's buffer can do, whatever it is: be read ([`Storage`]),
//! written ([`StorageMut`]), made for a shape ([`OwnedStorage`]), and name
//! the buffer of an op's result ([`ResultStorage`]). The buffers themselves
//! (inline arrays, `Vec`s, views, `Room`s) and the choice of one by a
//! shape's kind are in `storage.rs`, which re-exports these traits.
//!
//! These traits name a shape only as a type parameter, so this module sits
//! below `shape.rs`, whose kinds promise a buffer of this kind.

mod ordered;

use crate::dims::ShapeError;
pub use ordered::Ordered;

/// Read access to a buffer of `T`, in row-major order.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Storage;
/// fn total<B: Storage<i32>>(b: &B) -> i32 {
///     b.as_slice().iter().sum()
/// }
/// assert_eq!(total(tensor![[1, 2], [3, 4]].storage()), 10);
/// assert_eq!(total(&vec![1, 2, 3]), 6);
/// assert_eq!(total(&&[5, 6][..]), 11);
/// ```
pub trait Storage<T> {
    /// The elements.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Storage;
    /// let t = tensor![1, 2, 3];
    /// assert_eq!(t.storage().as_slice(), &[1, 2, 3]);
    /// ```
    #[must_use]
    fn as_slice(&self) -> &[T];

    /// The elements of a tensor whose shape counts `numel()` of them: all
    /// of [`as_slice`](Self::as_slice), except in a [`Room`](crate::Room), which holds
    /// its tensor's elements at its front (`numel` is asked only there).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Storage;
    /// use shapecheck::Room;
    /// let v = vec![1, 2, 3];
    /// assert_eq!(v.used(|| 3), &[1, 2, 3]);
    /// let r = Room::<i32, (Bounded<4>,)>([1, 2, 0, 0]);
    /// assert_eq!(r.used(|| 2), &[1, 2]);
    /// ```
    #[doc(hidden)]
    #[inline(always)]
    fn used(&self, numel: impl FnOnce() -> usize) -> &[T] {
        let _ = numel;
        self.as_slice()
    }
}

/// Write access to a buffer of `T`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::StorageMut;
/// fn zero<B: StorageMut<f32>>(b: &mut B) {
///     b.as_mut_slice().fill(0.0);
/// }
/// let mut buf = vec![1.0f32; 3];
/// zero(&mut buf);
/// assert_eq!(buf, [0.0; 3]);
/// ```
pub trait StorageMut<T>: Storage<T> {
    /// The elements, mutably.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::StorageMut;
    /// use shapecheck::Inline;
    /// let mut inline = Inline::<i32, shape![3]>([1, 2, 3]);
    /// inline.as_mut_slice()[0] = 9;
    /// assert_eq!(inline.0, [9, 2, 3]);
    /// ```
    fn as_mut_slice(&mut self) -> &mut [T];

    /// [`Storage::used`], mutably.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::StorageMut;
    /// use shapecheck::Room;
    /// let mut r = Room::<i32, (Bounded<4>,)>([1, 2, 0, 0]);
    /// r.used_mut(|| 2)[1] = 5;
    /// assert_eq!(r.0, [1, 5, 0, 0]);
    /// ```
    #[doc(hidden)]
    #[inline(always)]
    fn used_mut(&mut self, numel: impl FnOnce() -> usize) -> &mut [T] {
        let _ = numel;
        self.as_mut_slice()
    }
}

/// A buffer an op can create for a result of shape `S`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Inline;
/// use shapecheck::storage::OwnedStorage;
/// let heap: Vec<f32> = OwnedStorage::try_filled(&(Dyn(2), Dim::<3>), 1.5).unwrap();
/// assert_eq!(heap, vec![1.5; 6]);
/// let inline = <Inline<u8, shape![2]> as OwnedStorage<u8, shape![2]>>::filled(&(Dim,), 7);
/// assert_eq!(inline.0, [7, 7]);
/// ```
pub trait OwnedStorage<T: Copy, S>: StorageMut<T> + Sized {
    /// A buffer of `shape.numel()` copies of `v`; an error if the count
    /// overflows or cannot be allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::storage::OwnedStorage;
    /// type Heap = Vec<u8>;
    /// let ok = <Heap as OwnedStorage<u8, shape![Dyn, 2]>>::try_filled(&(Dyn(3), Dim), 1).unwrap();
    /// assert_eq!(ok, vec![1; 6]);
    /// let err = <Heap as OwnedStorage<u8, shape![Dyn, Dyn]>>::try_filled(&(Dyn(usize::MAX), Dyn(2)), 0).unwrap_err();
    /// assert_eq!(err.rule(), "shape/overflow");
    /// ```
    fn try_filled(shape: &S, v: T) -> Result<Self, ShapeError>;
    /// A buffer of `shape.numel()` copies of `v`, for static shapes whose count
    /// is a compile-time constant, and for results whose run-time dims come
    /// from operands already in memory (a heap buffer aborts on out-of-memory,
    /// as every std allocation does, and so does a count past `usize`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Inline;
    /// use shapecheck::storage::OwnedStorage;
    /// let b = <Inline<u8, shape![2, 2]> as OwnedStorage<u8, shape![2, 2]>>::filled(&Default::default(), 3);
    /// assert_eq!(b.0, [[3, 3], [3, 3]]);
    /// let v = <Vec<u8> as OwnedStorage<u8, shape![2, 2]>>::filled(&Default::default(), 3);
    /// assert_eq!(v, vec![3; 4]);
    /// ```
    fn filled(shape: &S, v: T) -> Self;
    /// A buffer for `shape` written front to back by `write` (internal:
    /// fused evaluation's allocating form). Filled with `v` and written
    /// over; a heap buffer instead grows as it is written, with no fill
    /// first. An error if the count overflows or cannot be allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::storage::OwnedStorage;
    /// let v = <Vec<u8> as OwnedStorage<u8, shape![Dyn]>>::try_written(&(Dyn(3),), 0, |_| {}).unwrap();
    /// assert_eq!(v, vec![0; 3]); // nothing written: the shape's count, of `v`
    /// ```
    #[doc(hidden)]
    fn try_written(
        shape: &S,
        v: T,
        write: impl FnOnce(&mut Ordered<'_, T>),
    ) -> Result<Self, ShapeError> {
        let mut out = Self::try_filled(shape, v)?;
        write(&mut Ordered::over(out.as_mut_slice()));
        Ok(out)
    }
}

/// The storage of an op's result of shape `S2` when `Self` is the storage of
/// its (left, or `then`) operand: the output shape's own choice
/// ([`OutputStorage`](crate::storage::OutputStorage)) for inline and view
/// operands, and `Vec` for a `Vec`
/// operand (a big static tensor on the heap keeps its result on the heap).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{Inline, ResultStorage};
/// // a heap operand keeps its (static-shaped) result on the heap ...
/// let x = Tensor::<f32, shape![2], Vec<f32>>::from_vec(Default::default(), vec![1.0, 2.0]).unwrap();
/// let y = tensor![3.0f32, 4.0];
/// let z: Tensor<f32, shape![2], Vec<f32>> = x.elementwise_add(&y, Axis::<-1>, Identity);
/// assert_eq!(z.as_slice(), &[4.0, 6.0]);
/// // ... and a view's result is stored as its shape chooses: inline here
/// let w: Tensor<f32, shape![2]> = x.view().elementwise_add(&y, Axis::<-1>, Identity);
/// assert_eq!(w.as_slice(), z.as_slice());
/// let _: Option<<&[f32] as ResultStorage<f32, shape![2]>>::Out> = Some(Inline([0.0, 0.0]));
/// ```
///
/// Code generic over an operand's storage names the result's with this
/// bound (`B: ResultStorage<f32, O>`, the result stored in `B::Out`); a
/// missing one is reported by the same message as a missing heap.
#[diagnostic::on_unimplemented(
    message = "no owned result of shape {S2} for an operand stored in {Self}: a run-time (`Dyn`) dim needs a heap, shapecheck's `alloc` feature",
    label = "an owned result of shape {S2} needs `alloc` (or, in generic code, a bound)",
    note = "without a heap, use the op's `_into` form (for example `try_elementwise_into`, `try_select_into`), which writes into a caller's tensor (`Tensor<T, S, &mut [T]>` over a buffer you own); in code generic over the operand's storage, add `{Self}: ResultStorage<{T}, {S2}>`"
)]
pub trait ResultStorage<T: Copy, S2>: Storage<T> {
    /// The result's storage.
    type Out: OwnedStorage<T, S2>;
}
