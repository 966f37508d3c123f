//! `generic-array` and `typenum` (feature `generic-array`; no `std`, no
//! `alloc`).
//!
//! Two things, for code that holds its data in `GenericArray<T, N>` with a
//! typenum length `N` (heapless-style buffers, cryptography crates, older
//! nalgebra):
//!
//! **`GenericArray<T, N>` is a tensor's storage** ([`Storage`] /
//! [`StorageMut`]): no copy, no heap. Its length is checked against the shape
//! - at compile time when both are static: [`Tensor::from_generic_array`]
//!   for a static shape `S` asserts `N == S::NUMEL` in a constant, and a
//!   vector shape `(TDim<N>,)` takes a `GenericArray<T, N>` by `From`, its
//!   length the same type;
//! - at construction otherwise: [`Tensor::with_shape`] /
//!   [`Tensor::with_dims`] return [`ShapeError::DataLength`](crate::ShapeError::DataLength).
//!
//! ```
//! use generic_array::{arr, GenericArray};
//! use shapecheck::prelude::*;
//! let a: GenericArray<i32, typenum::U6> = arr![1, 2, 3, 4, 5, 6];
//! let t = Tensor::<i32, shape![2, 3], _>::from_generic_array(a);
//! assert_eq!(t.get(&[1, 0]), Some(&4));
//! // ops read it through a view (the result is inline)
//! let y = Tensor::<i32, shape![3]>::from_array([10, 20, 30]);
//! let z = t.view().elementwise_add(&y, Axis::<-1>, Identity);
//! assert_eq!(z.as_slice(), &[11, 22, 33, 14, 25, 36]);
//! ```
//!
//! Six elements in a `[2, 2]` shape fail when the program is built
//! (`cargo build`; `cargo check` does not evaluate the constant): the
//! compiler prints "`error[E0080]`: evaluation panicked: a GenericArray's
//! length (typenum N) must equal the static shape's element count", with a
//! note naming both types (`SameLen::<UInt<…>, (Dim<2>, Dim<2>)>::OK`): a
//! constant's panic message cannot format numbers on stable Rust, and no
//! trait bound can compare a typenum with a const generic (see below).
//! ```compile_fail
//! use generic_array::{arr, GenericArray};
//! use shapecheck::prelude::*;
//! let a: GenericArray<i32, typenum::U6> = arr![1, 2, 3, 4, 5, 6];
//! let t = Tensor::<i32, shape![2, 2], _>::from_generic_array(a);
//! ```
//!
//! **[`TDim<N>`] is a dim whose size is a typenum**, so code generic over
//! `N: ArrayLength` can carry a shape: `(TDim<N>, Dim<3>)` is an `N`×3 shape.
//! It is a [`DimLike`] with a static size (`TDim::<U5>::STATIC == Some(5)`),
//! but not a [`StaticDim`](crate::StaticDim): inline storage would need
//! `GenericArray<T, N>: Copy` for every `T: Copy`, which generic-array
//! promises only under `N::ArrayType<T>: Copy`. Store such tensors in a
//! `GenericArray`, a `Vec` or a slice.
//!
//! **No shape rule accepts a `TDim`.** Every rule (elementwise broadcasting,
//! select, multiplex) compares two dims as types: `Dim<N>` with `Dim<N>` is
//! "equal" because both carry the same const generic. Equating a typenum
//! `TDim<N>` with a `Dim<M>` needs the bound `N::USIZE == M`, an expression
//! in a const generic, which stable Rust cannot state (`generic_const_exprs`
//! is unstable), and typenum cannot be built from a const generic either
//! without a table of impls. rustc reports it as the rule's ordinary
//! mismatch, which names the typenum (rustc prints a type's full name, so a
//! `TDim` shows typenum's `UInt<…>`) and, since the rule only knows equal
//! `Dim`s, says "differ" even for two equal `TDim`s. With `x` and `y` of
//! shape `(TDim<U3>,)` (Rust 1.95):
//!
//! ```text
//! x.try_elementwise(Add, &y, Axis::<-1>, Identity)
//! error[E0277]: elementwise: X (TDim<UInt<UInt<UTerm, B1>, B1>>,) and Y (TDim<UInt<UInt<UTerm, B1>, B1>>,)
//!   do not broadcast with shapecheck::Axis<-1>: aligned dims TDim<UInt<UInt<UTerm, B1>, B1>> (X)
//!   and TDim<UInt<UInt<UTerm, B1>, B1>> (Y) differ and neither is 1
//!
//! shapecheck::try_select(&c, &x, &x, Numpy)   // c of shape (Dyn,)
//! error[E0277]: select (numpy): cond (shapecheck::Dyn,), then (TDim<UInt<UInt<UTerm, B1>, B1>>,)
//!   and else (TDim<UInt<UInt<UTerm, B1>, B1>>,) do not broadcast: aligned dims
//!   TDim<UInt<UInt<UTerm, B1>, B1>> and TDim<UInt<UInt<UTerm, B1>, B1>> differ and neither is 1
//!
//! shapecheck::multiplex(&[x.clone(), x], &ix).run()  // x of shape (TDim<U3>, Dim<2>), ix of shape![3, 1]
//! error[E0277]: multiplex: index (shapecheck::Dim<3>, One) has shapecheck::Dim<3> rows but the
//!   candidates (TDim<UInt<UInt<UTerm, B1>, B1>>, shapecheck::Dim<2>) have TDim<UInt<UInt<UTerm, B1>, B1>>
//! ```
//!
//! The infallible forms (`x.elementwise_add(..)`) ask for a
//! [`StaticShape`] first, which a `TDim` shape is not. To run an op, view the
//! data with `Dyn` dims (checked at run time, no copy):
//! `Tensor::<T, (Dyn,), &[T]>::with_dims(&t.dims(), t.as_slice())`.
//!
//! ```compile_fail
//! use generic_array::{arr, GenericArray};
//! use shapecheck::interop::generic_array::TDim;
//! use shapecheck::prelude::*;
//! use shapecheck::ops::Add;
//! let a: GenericArray<i32, typenum::U3> = arr![1, 2, 3];
//! let x: Tensor<i32, (TDim<typenum::U3>,), _> = a.into();
//! let _ = x.try_elementwise(Add, &x, Axis::<-1>, Identity); // no rule accepts TDim
//! ```

use crate::dim::sealed::Sealed;
use crate::dim::DimLike;
use crate::ops::StaticShape;
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;
use ::generic_array::{ArrayLength, GenericArray};
use core::fmt;
use core::marker::PhantomData;

/// A static dim whose size is the typenum `N` (`TDim<U4>` has size 4).
pub struct TDim<N: ArrayLength>(PhantomData<fn() -> N>);

impl<N: ArrayLength> TDim<N> {
    /// The dim.
    pub const fn new() -> Self {
        TDim(PhantomData)
    }
}

impl<N: ArrayLength> Default for TDim<N> {
    fn default() -> Self {
        TDim::new()
    }
}
impl<N: ArrayLength> Clone for TDim<N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<N: ArrayLength> Copy for TDim<N> {}
impl<N: ArrayLength> PartialEq for TDim<N> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<N: ArrayLength> Eq for TDim<N> {}
impl<N: ArrayLength> fmt::Debug for TDim<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TDim<{}>", N::USIZE)
    }
}

impl<N: ArrayLength> Sealed for TDim<N> {}

impl<N: ArrayLength> DimLike for TDim<N> {
    const STATIC: Option<usize> = Some(N::USIZE);
    // No inline array can be built from a typenum length (`TDim` is not a
    // `StaticDim`), so an op's result with a `TDim` dim is stored like one
    // with a run-time dim: on the heap, or in a caller's buffer.
    type Kind = crate::dim::kind::Runtime;
    // planned like a run-time dim, for the same reason
    type Placeholder<const P: usize> = crate::dim::Dim<P>;
    // no room either: its results are never stored in a `Room`
    type Room = crate::dim::Dim<0>;
    #[inline(always)]
    fn size(self) -> usize {
        N::USIZE
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == N::USIZE).then_some(TDim::new())
    }
}

/// A typenum dim against 1: the 1 is repeated (what every [`DimLike`]
/// promises: a dim meets a size-1 dim on its right). 1 against it is the
/// algebra's one impl for a 1 on the left.
impl<N: ArrayLength> crate::algebra::Broadcast<crate::dim::One> for TDim<N> {
    type Broadcast = TDim<N>;
    #[inline(always)]
    fn broadcast(self, _other: crate::dim::One, _: crate::algebra::Internal) -> TDim<N> {
        self
    }
}

/// A typenum dim and itself: one size, nothing to check (what every
/// [`DimLike`] promises: a dim meets its own type).
impl<N: ArrayLength> crate::algebra::Broadcast<TDim<N>> for TDim<N> {
    type Broadcast = TDim<N>;
    #[inline(always)]
    fn broadcast(self, _other: TDim<N>, _: crate::algebra::Internal) -> TDim<N> {
        self
    }
}

impl<T, N: ArrayLength> Storage<T> for GenericArray<T, N> {
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        GenericArray::as_slice(self)
    }
}

impl<T, N: ArrayLength> StorageMut<T> for GenericArray<T, N> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        GenericArray::as_mut_slice(self)
    }
}

/// `N == S::NUMEL`, evaluated when the program is built.
struct SameLen<N, S>(PhantomData<(N, S)>);

impl<N: ArrayLength, S: StaticShape> SameLen<N, S> {
    const OK: () = assert!(
        N::USIZE == S::NUMEL,
        "a GenericArray's length (typenum N) must equal the static shape's element count"
    );
}

impl<T: Copy, S: StaticShape, N: ArrayLength> Tensor<T, S, GenericArray<T, N>> {
    /// A tensor of static shape `S` over `a`, no copy; `N` must be
    /// `S::NUMEL`, checked when the program is built (see the module docs).
    pub fn from_generic_array(a: GenericArray<T, N>) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = SameLen::<N, S>::OK;
        Tensor::from_parts_unchecked(S::default(), a)
    }
}

impl<T: Copy, N: ArrayLength> From<GenericArray<T, N>>
    for Tensor<T, (TDim<N>,), GenericArray<T, N>>
{
    /// A vector of length `N` over `a`: the length is its type, nothing to check.
    fn from(a: GenericArray<T, N>) -> Self {
        Tensor::from_parts_unchecked((TDim::new(),), a)
    }
}

impl<T: Copy + Default, S: StaticShape, B: Storage<T>> Tensor<T, S, B> {
    /// A copy of the elements in a `GenericArray<T, N>`; `N` must be
    /// `S::NUMEL`, checked when the program is built.
    pub fn to_generic_array<N: ArrayLength>(&self) -> GenericArray<T, N> {
        #[allow(clippy::let_unit_value)]
        let () = SameLen::<N, S>::OK;
        let mut out = GenericArray::<T, N>::default();
        for (dst, src) in out.iter_mut().zip(self.as_slice()) {
            *dst = *src;
        }
        out
    }
}
