//! What a dim is.
//!
//! A dim is either **static**, a type whose size the compiler knows, or
//! **dynamic** ([`Dyn`]), a `usize` known at run time. Both implement
//! [`DimLike`], so one shape can mix them (`shape![Dyn, 16]`).
//!
//! Size 1 has a type of its own, [`One`], because it is the size that
//! broadcasts: with `Dim<N>` for every other size, "equal, or one of them is 1"
//! is four disjoint impls, `(Dim<N>, Dim<N>)`, `(Dim<N>, One)`, `(One, Dim<N>)`
//! and `(One, One)`, which stable Rust accepts (a single `Dim<N>` for every N
//! would need overlapping impls). The [`shape!`](crate::shape!) macro writes
//! `One` for a literal 1. A `Dim<1>` written by hand is a valid dim of size 1
//! but does not broadcast in static rules: it only matches another `Dim<1>`.

mod flat;

use crate::dims::ShapeError;
use core::fmt::{self, Debug};
use core::marker::PhantomData;

pub(crate) mod sealed {
    #[doc(hidden)]
    pub trait Sealed {}
}

/// A dim's kind, as a type: [`kind::Fixed`], [`kind::Capacity`] or
/// [`kind::Runtime`]. Defined with the shapes (`shape::kind`), whose kind
/// is their dims' kinds joined and chooses their storage.
#[doc(hidden)]
pub use crate::shape::kind;

mod internal {
    /// The last argument of the algebra's methods ([`SameDim::same`](crate::algebra::SameDim),
    /// [`Broadcast::broadcast`](super::Broadcast)): only the crate can make
    /// one, so only the ops, whose rules have held, call them.
    #[derive(Clone, Copy, Debug)]
    pub struct Internal(pub(crate) ());
}
pub(crate) use internal::Internal;

/// The two dims broadcast (numpy, both ways): equal, or either is 1. `Out`
/// is the broadcast dim (the one that is not 1). One of the relations of
/// [`crate::algebra`], which holds its impls (one per pair of dim kinds);
/// defined here because [`DimLike`] promises two of them for every dim.
#[diagnostic::on_unimplemented(
    message = "dims {Self} and {Other} do not broadcast: they differ and neither is 1",
    label = "these dims must be equal or one of them 1"
)]
///
/// ```
/// use shapecheck::algebra::Broadcast;
/// use shapecheck::{Dim, Dyn, One};
/// fn meet<A: Broadcast<B, Broadcast = O>, B: shapecheck::DimLike, O>() {}
/// meet::<One, Dim<5>, Dim<5>>();
/// // two run-time dims: checked when the op runs
/// meet::<Dyn, Dyn, Dyn>();
/// ```
///
/// Its method is the ops' own: it checks nothing, and users cannot call it.
///
/// ```compile_fail
/// use shapecheck::algebra::Broadcast;
/// use shapecheck::{Dim, Dyn};
/// let _ = Dyn(4).broadcast(Dim::<3>);
/// ```
pub trait Broadcast<Other: DimLike> {
    /// The broadcast dim.
    type Broadcast: DimLike;
    /// The broadcast dim's value, for the ops once their rule has held (it
    /// checks nothing: `Internal` keeps it out of users' reach).
    #[doc(hidden)]
    fn broadcast(self, other: Other, _: Internal) -> Self::Broadcast;
}

/// A dim: static ([`Dim`], [`One`]) or dynamic ([`Dyn`]).
///
/// Every dim broadcasts with a dim of its own type into that type
/// ([`Broadcast<Self>`](Broadcast), a supertrait): so a
/// function generic over `B: DimLike` may give two tensors of `(B, Dim<4>)`
/// to a checked (`try_`) form, which compares the two `B`s when it runs.
/// Every dim also broadcasts with a [`One`] on its right into itself (a
/// second supertrait), so a generic dim meets a size-1 dim with no bound.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{ElementwiseError, Owned};
///
/// fn add_rows<B: DimLike>(
///     x: &Owned<f32, (B, Dim<2>)>,
///     y: &Owned<f32, (B, Dim<2>)>,
/// ) -> Result<Owned<f32, (B, Dim<2>)>, ElementwiseError> {
///     x.try_elementwise_add(y, Axis::<-1>, Identity)
/// }
/// let two = tensor![[1.0f32, 2.0], [3.0, 4.0]]; // a static batch
/// assert_eq!(add_rows(&two, &two).unwrap().as_slice(), &[2.0, 4.0, 6.0, 8.0]);
/// let rows = |n| Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(n), Dim), vec![1.0; 2 * n]).unwrap();
/// assert_eq!(add_rows(&rows(2), &rows(3)).unwrap_err().rule(), "elementwise/broadcast");
/// ```
///
/// ```
/// use shapecheck::prelude::*;
/// assert_eq!(Dim::<3>.size(), 3);
/// assert_eq!(Dyn(7).size(), 7);
/// assert_eq!(<One as DimLike>::STATIC, Some(1));
/// assert_eq!(<Dyn as DimLike>::STATIC, None);
/// ```
pub trait DimLike:
    Copy
    + Debug
    + PartialEq
    + Eq
    + Send
    + Sync
    + sealed::Sealed
    + Broadcast<Self, Broadcast = Self>
    + Broadcast<One, Broadcast = Self>
{
    /// `Some(n)` when the size is part of the type.
    const STATIC: Option<usize>;
    /// `Some(cap)` for a [`Bounded<CAP>`] dim: the largest size it may
    /// have; `None` for every other dim.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(<Bounded<8> as DimLike>::CAPACITY, Some(8));
    /// assert_eq!(<Dyn as DimLike>::CAPACITY, None);
    /// ```
    const CAPACITY: Option<usize> = None;
    /// [`kind::Fixed`] for a static dim, [`kind::Capacity`] for [`Bounded`],
    /// [`kind::Runtime`] for [`Dyn`] and a brand.
    #[doc(hidden)]
    type Kind: kind::Kind;
    /// The dim itself if static, `Dim<P>` for a run-time dim: a static
    /// stand-in with which an op plans the loops of a shape with run-time
    /// dims at compile time (see `ops::elementwise`'s plain forms).
    #[doc(hidden)]
    type Placeholder<const P: usize>: StaticDim;
    /// The static dim with room for every size of this one: the dim itself
    /// if static, `Dim<CAP>` for [`Bounded<CAP>`], `Dim<0>` for [`Dyn`] and a
    /// brand (no bound, no room: their results live on the heap). What a
    /// [`Room`](crate::Room)'s array is made of.
    #[doc(hidden)]
    type Room: StaticDim;
    /// The size of this dim.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<4>.size(), 4);
    /// assert_eq!(One.size(), 1);
    /// assert_eq!(Dyn(5).size(), 5);
    /// ```
    #[must_use]
    fn size(self) -> usize;
    /// Builds the dim from a size; `None` if a static dim has another size.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<3>::from_size(3), Some(Dim::<3>));
    /// assert_eq!(Dim::<3>::from_size(2), None);
    /// assert_eq!(One::from_size(2), None);
    /// assert_eq!(Dyn::from_size(9), Some(Dyn(9)));
    /// ```
    #[must_use]
    fn from_size(n: usize) -> Option<Self>;
}

/// A dim whose size is part of its type: the building block of inline storage.
///
/// ```
/// use shapecheck::prelude::*;
/// assert_eq!(<Dim<4> as StaticDim>::SIZE, 4);
/// assert_eq!(<One as StaticDim>::SIZE, 1);
/// let row: <Dim<3> as StaticDim>::Arr<i32> = [1, 2, 3];
/// assert_eq!(Dim::<3>::arr_as_slice::<i32>(&row), &[1, 2, 3]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dim {Self} has a size known only at run time, but a static shape is required here",
    label = "every dim of this shape must be static",
    note = "a `Bounded<CAP>` dim (at most CAP) is stored in a `Room` (`Tensor<T, S, Room<T, S>>`), the ops' bounded forms return one; for an op that needs static shapes, use its `try_` form"
)]
pub trait StaticDim:
    DimLike<Kind = kind::Fixed, Room = Self> + ProvenDim + Default + 'static
{
    /// The size.
    const SIZE: usize;
    /// An array of `SIZE` values of `T`: `[T; SIZE]`.
    type Arr<T: Copy>: Copy;
    /// An array with every element set to `v`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<3>::arr_filled(7u8), [7, 7, 7]);
    /// assert_eq!(One::arr_filled(0.5f32), [0.5]);
    /// ```
    fn arr_filled<T: Copy>(v: T) -> Self::Arr<T>;
    /// An array whose element `i` is `f(i)`, called once per element in
    /// order (each element is written once: no fill first).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<3>::arr_from_fn(|i| i * 10), [0, 10, 20]);
    /// ```
    fn arr_from_fn<T: Copy>(f: impl FnMut(usize) -> T) -> Self::Arr<T>;
    /// The array as a slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Dim::<2>::arr_as_slice::<i32>(&[1, 2]), &[1, 2]);
    /// ```
    fn arr_as_slice<T: Copy>(a: &Self::Arr<T>) -> &[T];
    /// The array as a mutable slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut a = [1, 2];
    /// Dim::<2>::arr_as_mut_slice::<i32>(&mut a)[0] = 5;
    /// assert_eq!(a, [5, 2]);
    /// ```
    fn arr_as_mut_slice<T: Copy>(a: &mut Self::Arr<T>) -> &mut [T];
    /// A slice of arrays as one flat slice (nested arrays are contiguous).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let rows = [[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(Dim::<3>::flatten::<i32>(&rows), &[1, 2, 3, 4, 5, 6]);
    /// ```
    fn flatten<T: Copy>(s: &[Self::Arr<T>]) -> &[T];
    /// A mutable slice of arrays as one flat mutable slice.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut rows = [[1, 2, 3], [4, 5, 6]];
    /// Dim::<3>::flatten_mut::<i32>(&mut rows)[3] = 40;
    /// assert_eq!(rows, [[1, 2, 3], [40, 5, 6]]);
    /// ```
    fn flatten_mut<T: Copy>(s: &mut [Self::Arr<T>]) -> &mut [T];
}

/// A static dim of size `N` (written by [`shape!`](crate::shape!) for every size but 1).
///
/// ```
/// use shapecheck::prelude::*;
/// let s: shape![2, 3] = (Dim::<2>, Dim::<3>);
/// assert_eq!(s.dims().as_slice(), &[2, 3]);
/// assert_eq!(Dim::<5>.size(), 5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim<const N: usize>;

/// The static dim of size 1, the one that broadcasts.
///
/// ```
/// use shapecheck::prelude::*;
/// // `shape![2, 1]` is `(Dim<2>, One)`: the column broadcasts across the rows' 3 columns
/// let x = Tensor::<f32, shape![2, 3]>::full(1.0);
/// let col = Tensor::<f32, (Dim<2>, One)>::from_array([[10.0], [20.0]]);
/// let y = x.elementwise_add(&col, Axis::<-1>, Identity);
/// assert_eq!(y.as_slice(), &[11.0, 11.0, 11.0, 21.0, 21.0, 21.0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct One;

/// A dim known only at run time. Every rule that involves it is checked when
/// the op runs and reported as a typed error.
///
/// ```
/// use shapecheck::prelude::*;
/// let t = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![0.0; 6]).unwrap();
/// assert_eq!(t.dims().as_slice(), &[2, 3]);
/// // the run-time dim is checked against the data
/// let err = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![0.0; 5]).unwrap_err();
/// assert_eq!(err.rule(), "shape/data-length");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyn(pub usize);

/// A run-time dim **checked once and carried as a type**: every tensor
/// whose shape holds `Branded<'id>` was checked, when it got the brand, to
/// have the brand's size there. Two tensors with the same brand therefore
/// meet in the plain (not `try_`) forms of the ops with no run-time shape
/// comparison; the compiler sees the equal lifetimes.
///
/// A brand is made only by [`brand`] (or [`Tensor::with_brand`](crate::Tensor::with_brand),
/// which calls it), for the length of one closure call. It cannot be forged:
/// - its fields are private and [`DimLike::from_size`] returns `None` for it,
///   so no size given at run time (`from_dims`, serde, `DynTensor`) becomes one;
/// - `'id` is **invariant** (the marker is `fn(&'id ()) -> &'id ()`), so the
///   compiler never shortens or lengthens it to make two brands agree;
/// - [`brand`]'s closure is generic over `'id` (`for<'id> FnOnce(Branded<'id>)`):
///   each call gets a lifetime of its own that no other call, and no code
///   outside the closure, can name, so a branded value cannot leave the
///   closure (its result type is chosen outside, without `'id`).
///
/// This is the design of the `generativity` and `indexing` crates. A
/// mistake (two brands meeting, a branded tensor returned from its closure)
/// is a borrow-check error naming both lifetimes, not a run-time error.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
/// let w = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![10.0, 10.0, 0.5, 0.5]).unwrap();
/// let out = x.with_brand(|x, rows| {
///     // the one check: w has as many rows as x
///     let w = w.brand_rows(rows)?;
///     // then no check: the rows of both are `Branded` with the same brand
///     let y = x.elementwise_mul(&w, Axis::<-1>, Identity);
///     let z = y.elementwise_max(&x, Axis::<-1>, Identity);
///     Ok::<_, ShapeError>((&z + &w).unbrand_rows())
/// }).unwrap();
/// assert_eq!(out.as_slice(), &[20.0, 30.0, 3.5, 4.5]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Branded<'id> {
    size: usize,
    brand: PhantomData<fn(&'id ()) -> &'id ()>,
}

/// Calls `f` with a new brand of size `size`: the one place a brand is made
/// (see [`Branded`] for why it cannot be forged). Tensors get it with
/// [`Tensor::brand_rows`](crate::Tensor::brand_rows), which checks their
/// first dim against `size` once.
///
/// ```
/// use shapecheck::prelude::*;
/// // a LoD level's sequence count as a brand: one row of features per sequence
/// use shapecheck::Lengths;
/// let dense = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(5),), vec![1.0; 5]).unwrap();
/// let lod = LodTensor::from_lengths(dense, &[Lengths::new(&[2, 3])]).unwrap();
/// let sequences = lod.level(0).unwrap().lengths().count();
/// let feats = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
/// let scale = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![10.0, 100.0]).unwrap();
/// let scaled = brand(sequences, |seqs| {
///     let f = feats.brand_rows(seqs)?;
///     let s = scale.brand_rows(seqs)?;
///     Ok::<_, ShapeError>(f.elementwise_mul(&s, Axis::<-1>, Identity).unbrand_rows())
/// }).unwrap();
/// assert_eq!(scaled.as_slice(), &[10.0, 20.0, 300.0, 400.0]);
/// ```
pub fn brand<R>(size: usize, f: impl for<'id> FnOnce(Branded<'id>) -> R) -> R {
    f(Branded {
        size,
        brand: PhantomData,
    })
}

/// A run-time dim **bounded at compile time**: a size known when the
/// tensor is made, at most `CAP`. A tensor with `Bounded` dims can live in a
/// [`Room`](crate::Room): a nested array with room for the capacity, inline
/// (no heap, no caller buffer; `Copy` when the elements are), like
/// `heapless::Vec<T, CAP>`. The size is checked against `CAP` once, when
/// the dim is made ([`Bounded::new`], [`DimLike::from_size`]); an op whose
/// result would not fit returns `shape/capacity` with nothing written.
///
/// Against the other dims it is a run-time dim: it needs a check (the
/// `try_` forms) against a static dim, a [`Dyn`] or another `Bounded`, and
/// none against [`One`] or no dim.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::Room;
/// let rows = Bounded::<4>::new(3).unwrap();
/// assert_eq!(rows.size(), 3);
/// assert_eq!(Bounded::<4>::new(5), None);
/// let t = Tensor::<i32, (Bounded<4>, Dim<2>), Room<i32, (Bounded<4>, Dim<2>)>>::from_shape_slice(
///     (rows, Dim), &[1, 2, 3, 4, 5, 6]).unwrap();
/// assert_eq!(t.as_slice(), &[1, 2, 3, 4, 5, 6]);
/// let err = <(Bounded<4>, Dim<2>) as Shape>::from_dims(&[5, 2]).unwrap_err();
/// assert_eq!(err.to_string(), "dim 0 holds at most 4 (its capacity in the shape type), but 5 was given");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounded<const CAP: usize>(usize);

impl<const CAP: usize> Bounded<CAP> {
    /// The dim of size `size`, `None` if it exceeds `CAP`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// assert_eq!(Bounded::<2>::new(2).map(|b| b.size()), Some(2));
    /// assert_eq!(Bounded::<2>::new(3), None);
    /// ```
    #[must_use]
    pub const fn new(size: usize) -> Option<Self> {
        if size <= CAP {
            Some(Bounded(size))
        } else {
            None
        }
    }
}

/// A dim that fits a nested array: a static dim ([`Dim`], [`One`]) is its
/// own room, a [`Bounded<CAP>`] has the room of `Dim<CAP>`
/// ([`DimLike::Room`]); a [`Dyn`] or a brand has no bound and no room.
/// Only shapes of these dims may be stored in a [`Room`](crate::Room) by
/// the ops' bounded forms.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::dim::RoomDim;
/// fn fits<D: RoomDim>() -> usize { <D::Room as StaticDim>::SIZE }
/// assert_eq!(fits::<Bounded<3>>(), 3);
/// assert_eq!(fits::<Dim<2>>(), 2);
/// ```
#[doc(hidden)]
pub trait RoomDim: DimLike {}

/// A static dim is its own room.
impl<const N: usize> RoomDim for Dim<N> {}
/// 1 is its own room.
impl RoomDim for One {}
/// Room for the capacity.
impl<const CAP: usize> RoomDim for Bounded<CAP> {}

impl Debug for Branded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Branded({})", self.size)
    }
}

/// A dim whose size a tensor's type proves: static ([`Dim`], [`One`]) or
/// [`Branded`] (checked against its brand when the tensor got it). Not
/// [`Dyn`]. A buffer whose shape has only such dims needs no run-time check
/// to be an op's output, so the plain `_into` forms accept it.
#[diagnostic::on_unimplemented(
    message = "the size of dim {Self} is only known at run time",
    label = "a run-time dim of the output: a plain `_into` form cannot check the buffer",
    note = "brand the dim once (`brand_rows`), or call the `try_..._into` form, which checks the buffer and returns a Result"
)]
///
/// ```
/// use shapecheck::prelude::*;
/// fn proven<D: shapecheck::dim::ProvenDim>() {}
/// proven::<Dim<3>>();
/// proven::<One>();
/// brand(2, |b| {
///     fn of<D: shapecheck::dim::ProvenDim>(_: D) {}
///     of(b);
/// });
/// ```
#[doc(hidden)]
pub trait ProvenDim: DimLike {}
impl<const N: usize> ProvenDim for Dim<N> {}
impl ProvenDim for One {}
impl ProvenDim for Branded<'_> {}

impl<const N: usize> sealed::Sealed for Dim<N> {}
impl sealed::Sealed for One {}
impl sealed::Sealed for Dyn {}
impl sealed::Sealed for Branded<'_> {}
impl<const CAP: usize> sealed::Sealed for Bounded<CAP> {}

impl<const N: usize> DimLike for Dim<N> {
    const STATIC: Option<usize> = Some(N);
    type Kind = kind::Fixed;
    type Placeholder<const P: usize> = Dim<N>;
    type Room = Dim<N>;
    #[inline(always)]
    fn size(self) -> usize {
        N
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == N).then_some(Dim)
    }
}

impl DimLike for One {
    const STATIC: Option<usize> = Some(1);
    type Kind = kind::Fixed;
    type Placeholder<const P: usize> = One;
    type Room = One;
    #[inline(always)]
    fn size(self) -> usize {
        1
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == 1).then_some(One)
    }
}

impl DimLike for Dyn {
    const STATIC: Option<usize> = None;
    type Kind = kind::Runtime;
    type Placeholder<const P: usize> = Dim<P>;
    type Room = Dim<0>;
    #[inline(always)]
    fn size(self) -> usize {
        self.0
    }
    fn from_size(n: usize) -> Option<Self> {
        Some(Dyn(n))
    }
}

impl DimLike for Branded<'_> {
    const STATIC: Option<usize> = None;
    type Kind = kind::Runtime;
    type Placeholder<const P: usize> = Dim<P>;
    type Room = Dim<0>;
    #[inline(always)]
    fn size(self) -> usize {
        self.size
    }
    /// Always `None`: a brand comes from [`brand`], never from a size.
    fn from_size(_n: usize) -> Option<Self> {
        None
    }
}

impl<const CAP: usize> DimLike for Bounded<CAP> {
    const STATIC: Option<usize> = None;
    const CAPACITY: Option<usize> = Some(CAP);
    type Kind = kind::Capacity;
    type Placeholder<const P: usize> = Dim<P>;
    type Room = Dim<CAP>;
    #[inline(always)]
    fn size(self) -> usize {
        self.0
    }
    /// `None` if `n` exceeds `CAP`.
    fn from_size(n: usize) -> Option<Self> {
        Self::new(n)
    }
}

impl<const N: usize> StaticDim for Dim<N> {
    const SIZE: usize = N;
    type Arr<T: Copy> = [T; N];
    #[inline(always)]
    fn arr_filled<T: Copy>(v: T) -> [T; N] {
        [v; N]
    }
    #[inline(always)]
    fn arr_from_fn<T: Copy>(f: impl FnMut(usize) -> T) -> [T; N] {
        core::array::from_fn(f)
    }
    #[inline(always)]
    fn arr_as_slice<T: Copy>(a: &[T; N]) -> &[T] {
        a
    }
    #[inline(always)]
    fn arr_as_mut_slice<T: Copy>(a: &mut [T; N]) -> &mut [T] {
        a
    }
    #[inline(always)]
    fn flatten<T: Copy>(s: &[[T; N]]) -> &[T] {
        flat::flatten(s)
    }
    #[inline(always)]
    fn flatten_mut<T: Copy>(s: &mut [[T; N]]) -> &mut [T] {
        flat::flatten_mut(s)
    }
}

impl StaticDim for One {
    const SIZE: usize = 1;
    type Arr<T: Copy> = [T; 1];
    #[inline(always)]
    fn arr_filled<T: Copy>(v: T) -> [T; 1] {
        [v]
    }
    #[inline(always)]
    fn arr_from_fn<T: Copy>(mut f: impl FnMut(usize) -> T) -> [T; 1] {
        [f(0)]
    }
    #[inline(always)]
    fn arr_as_slice<T: Copy>(a: &[T; 1]) -> &[T] {
        a
    }
    #[inline(always)]
    fn arr_as_mut_slice<T: Copy>(a: &mut [T; 1]) -> &mut [T] {
        a
    }
    #[inline(always)]
    fn flatten<T: Copy>(s: &[[T; 1]]) -> &[T] {
        flat::flatten(s)
    }
    #[inline(always)]
    fn flatten_mut<T: Copy>(s: &mut [[T; 1]]) -> &mut [T] {
        flat::flatten_mut(s)
    }
}

/// The dims of a shape as the compiler knows them: `Some(n)` for a static dim,
/// `None` for [`Dyn`]. At most [`MAX_RANK`](crate::MAX_RANK).
pub type StaticDims = &'static [Option<usize>];

/// Checks one dim given at run time against the dim type of a shape.
pub(crate) fn dim_from_size<D: DimLike>(axis: usize, n: usize) -> Result<D, ShapeError> {
    D::from_size(n).ok_or(match (D::STATIC, D::CAPACITY) {
        (Some(expected), _) => ShapeError::DimMismatch {
            axis,
            expected,
            found: n,
        },
        (None, Some(capacity)) => ShapeError::Capacity {
            axis,
            capacity,
            found: n,
        },
        // only a brand refuses a size without a static one or a capacity
        (None, None) => ShapeError::Branded { axis },
    })
}

// A tuple of dims is a shape: `Shape`, `StaticShape` and their companions
// for ranks 1 to MAX_RANK, written per rank by `shapecheck-macros` (the
// scalar, `()`, is in `shape.rs`).
shapecheck_macros::impl_shape_tuples!(8);
