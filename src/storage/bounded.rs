//! [`Room`]: inline storage with room for a shape's capacity, for tensors
//! with [`Bounded`](crate::Bounded) dims (a run-time size, at most a
//! compile-time capacity). No heap and no caller buffer: the RAM is in the
//! type.
//!
//! A `Room<T, S>` is the nested array of `S` with every `Bounded<CAP>` dim
//! read as `Dim<CAP>` (`[[T; 16]; 64]` for `(Bounded<64>, Dim<16>)`); the
//! tensor's elements are its first `numel`, row-major, and the sizes of the
//! bounded dims are in the tensor's shape. So `size_of` of a bounded tensor
//! is its capacity's worth of elements plus one `usize` per bounded dim: a
//! `(Bounded<64>, Dim<16>)` tensor of `f32` is 64 × 16 × 4 + 8 = **4104
//! bytes** on a 64-bit target (4100 on a 32-bit Cortex-M), measured in
//! `tests/bounded.rs`.
//!
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::Room;
//! type Rows = (Bounded<64>, Dim<16>);
//! assert_eq!(core::mem::size_of::<Tensor<f32, Rows, Room<f32, Rows>>>(), 64 * 16 * 4 + core::mem::size_of::<usize>());
//! ```

use super::{KindBufferOf, OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::dim::{DimLike, RoomDim};
use crate::error::ShapeError;
use crate::shape::{FixedShape, Shape};
use crate::tensor::Tensor;
use core::fmt;

/// A shape whose every dim fits a nested array ([`RoomDim`]): static dims
/// and [`Bounded`](crate::Bounded) ones, so that its
/// [`Room`](Shape::Room) (the static shape with room for all of its sizes)
/// holds every tensor of it. The ops' bounded forms ask for it.
#[diagnostic::on_unimplemented(
    message = "shape {Self} has a dim with no capacity: only static and `Bounded<CAP>` dims fit a `Room`",
    label = "a `Dyn` or branded dim has no bound on its size",
    note = "write the run-time dim as `Bounded<CAP>` (at most CAP), or keep the tensor in a `Vec` or a caller's buffer"
)]
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::storage::BoundedShape;
/// fn room<S: BoundedShape>() -> usize { <S::Room as FixedShape>::NUMEL }
/// assert_eq!(room::<(Bounded<3>, Dim<2>)>(), 6);
/// ```
#[doc(hidden)]
pub trait BoundedShape: Shape {}

// One impl per rank, 0 to MAX_RANK (8).

/// A scalar.
impl BoundedShape for () {}
/// Rank 1.
impl<D0: RoomDim> BoundedShape for (D0,) {}
/// Rank 2.
impl<D0: RoomDim, D1: RoomDim> BoundedShape for (D0, D1) {}
/// Rank 3.
impl<D0: RoomDim, D1: RoomDim, D2: RoomDim> BoundedShape for (D0, D1, D2) {}
/// Rank 4.
impl<D0: RoomDim, D1: RoomDim, D2: RoomDim, D3: RoomDim> BoundedShape for (D0, D1, D2, D3) {}
/// Rank 5.
impl<D0: RoomDim, D1: RoomDim, D2: RoomDim, D3: RoomDim, D4: RoomDim> BoundedShape
    for (D0, D1, D2, D3, D4)
{
}
/// Rank 6.
impl<D0: RoomDim, D1: RoomDim, D2: RoomDim, D3: RoomDim, D4: RoomDim, D5: RoomDim> BoundedShape
    for (D0, D1, D2, D3, D4, D5)
{
}
/// Rank 7.
impl<D0: RoomDim, D1: RoomDim, D2: RoomDim, D3: RoomDim, D4: RoomDim, D5: RoomDim, D6: RoomDim>
    BoundedShape for (D0, D1, D2, D3, D4, D5, D6)
{
}
/// Rank 8.
impl<
        D0: RoomDim,
        D1: RoomDim,
        D2: RoomDim,
        D3: RoomDim,
        D4: RoomDim,
        D5: RoomDim,
        D6: RoomDim,
        D7: RoomDim,
    > BoundedShape for (D0, D1, D2, D3, D4, D5, D6, D7)
{
}

/// The nested array of a shape's room, as [`Room`] holds it.
type RoomArray<T, S> = <<S as Shape>::Room as FixedShape>::Array<T>;

/// Inline storage with room for a shape's capacity (see the
/// `storage/bounded.rs` docs): the tensor's elements are the first `numel` of the
/// array, row-major. [`Storage::as_slice`] is the whole room;
/// [`Tensor::as_slice`] is the tensor's elements.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Storage;
/// use shapecheck::Room;
/// type S = (Bounded<4>, Dim<2>);
/// let t = Tensor::<i32, S, Room<i32, S>>::from_shape_slice((Bounded::new(2).unwrap(), Dim), &[1, 2, 3, 4]).unwrap();
/// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
/// assert_eq!(t.storage().as_slice().len(), 8); // the room: capacity 4 × 2
/// let copy = t; // `Copy`: no heap behind it
/// assert_eq!(copy, t);
/// ```
pub struct Room<T: Copy, S: Shape>(pub RoomArray<T, S>);

impl<T: Copy, S: Shape> Clone for Room<T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Copy, S: Shape> Copy for Room<T, S> {}

impl<T: Copy + fmt::Debug, S: Shape> fmt::Debug for Room<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + PartialEq, S: Shape> PartialEq for Room<T, S> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy, S: Shape> Room<T, S> {
    /// The number of elements the room holds: the product of the capacities
    /// and static dims.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Room;
    /// assert_eq!(Room::<f32, (Bounded<64>, Dim<16>)>::CAPACITY, 1024);
    /// ```
    pub const CAPACITY: usize = <S::Room as FixedShape>::NUMEL;

    /// A room with every element `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Room;
    /// let r = Room::<u8, (Bounded<2>,)>::filled_with(7);
    /// assert_eq!(r.0, [7, 7]);
    /// ```
    #[must_use]
    #[inline]
    pub fn filled_with(v: T) -> Self {
        Room(<S::Room as FixedShape>::array_filled(v))
    }

    /// A room whose element `i` is `f(i)`, each written once (no fill first).
    #[inline(always)]
    pub(crate) fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        Room(<S::Room as FixedShape>::array_from_fn(f))
    }

    /// The front of the room for `numel` elements, `None` if it has less.
    pub(crate) fn front_mut(&mut self, numel: usize) -> Option<&mut [T]> {
        self.as_mut_slice().get_mut(..numel)
    }
}

impl<T: Copy, S: Shape> Storage<T> for Room<T, S> {
    /// The whole room.
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        <S::Room as FixedShape>::array_as_slice(&self.0)
    }
    /// The first `numel` elements (the whole room if it has fewer, which a
    /// tensor's check then reports).
    #[inline]
    fn used(&self, numel: impl FnOnce() -> usize) -> &[T] {
        let all = self.as_slice();
        all.get(..numel()).unwrap_or(all)
    }
}

impl<T: Copy, S: Shape> StorageMut<T> for Room<T, S> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        <S::Room as FixedShape>::array_as_mut_slice(&mut self.0)
    }
    #[inline]
    fn used_mut(&mut self, numel: impl FnOnce() -> usize) -> &mut [T] {
        let n = numel();
        let all = <S::Room as FixedShape>::array_as_mut_slice(&mut self.0);
        if n <= all.len() {
            all.split_at_mut(n).0
        } else {
            all
        }
    }
}

impl<T: Copy, S: Shape> OwnedStorage<T, S> for Room<T, S> {
    /// An error (`shape/data-length`) only if `shape`'s count does not fit
    /// the room, which a `Bounded` dim's check prevents.
    #[inline]
    fn try_filled(shape: &S, v: T) -> Result<Self, ShapeError> {
        let numel = shape.numel()?;
        if numel > Self::CAPACITY {
            return Err(ShapeError::DataLength {
                shape: shape.dims(),
                numel,
                len: Self::CAPACITY,
            });
        }
        Ok(Self::filled_with(v))
    }
    #[inline]
    fn filled(_shape: &S, v: T) -> Self {
        Self::filled_with(v)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Copy, S: Shape, S2: Shape> ResultStorage<T, S2> for Room<T, S>
where
    KindBufferOf<T, S2>: OwnedStorage<T, S2>,
{
    type Out = KindBufferOf<T, S2>;
}

impl<T: Copy, S: BoundedShape> Tensor<T, S, Room<T, S>> {
    /// The element count this tensor's type has room for.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Room;
    /// type S = (Bounded<64>, Dim<16>);
    /// assert_eq!(Tensor::<f32, S, Room<f32, S>>::capacity(), 1024);
    /// ```
    #[must_use]
    pub const fn capacity() -> usize {
        Room::<T, S>::CAPACITY
    }
}

/// The bounded result of an op: `shape`'s element count written by `write`
/// into a fresh room (`T::default()` elsewhere). `shape` was made by the
/// rule's checks (its bounded dims within their capacities), so the front
/// fits; a count that did not would be `shape/data-length`, nothing written.
pub(crate) fn bounded_result<T, S, E>(
    shape: S,
    write: impl FnOnce(&mut [T]) -> Result<(), E>,
) -> Result<Tensor<T, S, Room<T, S>>, E>
where
    T: Copy + Default,
    S: BoundedShape,
    E: From<ShapeError>,
{
    let numel = shape.numel()?;
    bounded_result_of(shape, numel, write)
}

/// [`bounded_result`] for a caller that knows `shape`'s element count,
/// `numel` (a constant on a static path, where computing it from the dims
/// would be a loop the compiler keeps): it must be `shape.numel()`.
pub(crate) fn bounded_result_of<T, S, E>(
    shape: S,
    numel: usize,
    write: impl FnOnce(&mut [T]) -> Result<(), E>,
) -> Result<Tensor<T, S, Room<T, S>>, E>
where
    T: Copy + Default,
    S: BoundedShape,
    E: From<ShapeError>,
{
    let mut room = Room::<T, S>::filled_with(T::default());
    let front = room.front_mut(numel).ok_or(ShapeError::DataLength {
        shape: shape.dims(),
        numel,
        len: Room::<T, S>::CAPACITY,
    })?;
    write(front)?;
    Ok(Tensor::from_parts_unchecked(shape, room))
}

/// [`bounded_result_of`] with the front's element `i` given by `at(i)`
/// (`None` is a bug in the caller, written as `T::default()`) and the rest
/// `T::default()`: every element of the room is written once, where
/// [`bounded_result_of`] fills the room and then writes the front. For a
/// caller that has checked everything `at` reads (`numel` must be
/// `shape.numel()`).
pub(crate) fn bounded_result_from_fn<T, S, E>(
    shape: S,
    numel: usize,
    mut at: impl FnMut(usize) -> Option<T>,
) -> Result<Tensor<T, S, Room<T, S>>, E>
where
    T: Copy + Default,
    S: BoundedShape,
    E: From<ShapeError>,
{
    if numel > Room::<T, S>::CAPACITY {
        return Err(ShapeError::DataLength {
            shape: shape.dims(),
            numel,
            len: Room::<T, S>::CAPACITY,
        }
        .into());
    }
    let room = Room::from_fn(|i| {
        if i < numel {
            at(i).unwrap_or_default()
        } else {
            T::default()
        }
    });
    Ok(Tensor::from_parts_unchecked(shape, room))
}

/// An op's bounded result written into `out`, a bounded tensor the caller
/// keeps (a `static`, a reused local): `write` gets the front of its room
/// for `shape`'s element count, the rest of the room is reset to
/// `T::default()`, and only then does `out` take `shape`. `shape` was made
/// by the rule's checks; `write` must check everything before it writes, so
/// that on any error `out` is untouched (its shape and every element).
pub(crate) fn bounded_into<T, S, E>(
    out: &mut Tensor<T, S, Room<T, S>>,
    shape: S,
    write: impl FnOnce(&mut [T]) -> Result<(), E>,
) -> Result<(), E>
where
    T: Copy + Default,
    S: BoundedShape,
    E: From<ShapeError>,
{
    let numel = shape.numel()?;
    bounded_into_of(out, shape, numel, write)
}

/// [`bounded_into`] for a caller that knows `shape`'s element count,
/// `numel` (as [`bounded_result_of`]): it must be `shape.numel()`.
pub(crate) fn bounded_into_of<T, S, E>(
    out: &mut Tensor<T, S, Room<T, S>>,
    shape: S,
    numel: usize,
    write: impl FnOnce(&mut [T]) -> Result<(), E>,
) -> Result<(), E>
where
    T: Copy + Default,
    S: BoundedShape,
    E: From<ShapeError>,
{
    let (out_shape, room) = out.parts_mut();
    let Some(front) = room.front_mut(numel) else {
        return Err(ShapeError::DataLength {
            shape: shape.dims(),
            numel,
            len: Room::<T, S>::CAPACITY,
        }
        .into());
    };
    write(front)?;
    if let Some(rest) = room.as_mut_slice().get_mut(numel..) {
        rest.fill(T::default());
    }
    *out_shape = shape;
    Ok(())
}

/// The first dim as a [`Bounded<CAP>`](crate::Bounded), checked: the
/// `shape/capacity` error of axis 0 if `rows` exceeds `CAP`.
pub(crate) fn bounded_rows<const CAP: usize>(
    rows: usize,
) -> Result<crate::dim::Bounded<CAP>, ShapeError> {
    crate::dim::Bounded::<CAP>::from_size(rows).ok_or(ShapeError::Capacity {
        axis: 0,
        capacity: CAP,
        found: rows,
    })
}

/// The shape `S` with its first dim (its rows) [`Bounded<CAP>`](crate::Bounded):
/// the result shape of an op's bounded form (`run_bounded`,
/// `dynamic_partition_bounded`, `multiplex_bounded`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::storage::BoundedRows;
/// let s: BoundedRows<shape![Dyn, 3], 8> = (Bounded::new(2).unwrap(), Dim);
/// assert_eq!(s.dims().as_slice(), &[2, 3]);
/// ```
pub type BoundedRows<S, const CAP: usize> =
    <S as crate::rows::RowShape>::WithRows<crate::dim::Bounded<CAP>>;

/// The tensor an op's bounded form returns: shape `S` with rows
/// `Bounded<CAP>`, in a [`Room`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::storage::BoundedTensor;
/// let (i, d) = (tensor![1, 0], tensor![[1, 2], [3, 4]]);
/// let out: BoundedTensor<i32, shape![Dyn, 2], 4> = dynamic_stitch(&i, &d).run_bounded::<4>().unwrap();
/// assert_eq!(out.as_slice(), &[3, 4, 1, 2]);
/// ```
pub type BoundedTensor<T, S, const CAP: usize> =
    Tensor<T, BoundedRows<S, CAP>, Room<T, BoundedRows<S, CAP>>>;
