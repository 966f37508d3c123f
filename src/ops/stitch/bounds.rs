//! dynamic_stitch's rules at the type level, built on the
//! [dim algebra](crate::algebra); dynamic_partition's
//! ([`ops::partition::bounds`](crate::ops::partition::bounds)) reuses the
//! index-element rule and the output shape.
//!
//! From the outside in:
//! - [`StitchFirst`] (a first pair) and [`StitchNext`] (a later pair) are
//!   the bounds of [`dynamic_stitch`](super::dynamic_stitch) and
//!   [`Stitch::pair`](super::Stitch::pair), each one blanket impl that
//!   requires a chain of links: [`StitchIndexLink`] (the index-element rule,
//!   [`StitchIndex`]), the prefix rule [`StitchPrefix`] itself, then [`StitchSliceLink`] (the slice rule,
//!   [`StitchSliceOf`]) or [`StitchOutLink`] (the output's rank, [`PrependDyn`]);
//! - [`StitchPrefix`] and [`StitchSliceOf`] carry the compile errors. Their
//!   impls are one per pair of ranks (`shapecheck_macros::impl_stitch_rules!`
//!   generates them, with those of [`PrependDyn`] and `StaticSlice`), each
//!   requiring the algebra's [`SameDim`](crate::algebra::SameDim) of every
//!   dim it compares and marked `#[diagnostic::do_not_recommend]`, so that a
//!   failing dim is reported by the rule's message (both shapes, the rule).
//!
//! These traits exist only for the compile errors: the values (index values,
//! [`Dyn`](crate::Dyn) dims) are checked at run time by the one rule of
//! [`rule`](super::rule), which every path calls.

use super::rule::{Sealed, StitchIndex};
use crate::ops::indexed::{PrependDyn, SameRows, StaticSlice};
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// dynamic_stitch, prefix rule: the data shape (`Self`) starts with the
/// indices shape `I` (each of `I`'s dims [`SameDim`](crate::algebra::SameDim)
/// as the data's); [`Slice`](Self::Slice) is what follows that prefix.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::StitchPrefix;
/// let _: Option<<shape![2, 3, 4] as StitchPrefix<shape![2]>>::Slice> = Some((Dim::<3>, Dim::<4>));
/// // the rule of `dynamic_stitch`: data [2, 3] after indices [2] leaves [3]
/// let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1, 2, 3], [4, 5, 6]]).run().unwrap();
/// let _: &Tensor<i32, (Dyn, Dim<3>), Vec<i32>> = &merged;
/// assert_eq!(merged.as_slice(), &[4, 5, 6, 1, 2, 3]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/prefix: data {Self} does not start with indices {I}: each data[m].shape must be indices[m].shape + slice",
    label = "data {Self} must start with indices {I}",
    note = "TensorFlow: \"data[m].shape = [...] does not start with indices[m].shape = [...]\""
)]
#[doc(hidden)]
pub trait StitchPrefix<I>: Shape {
    /// The data's dims after the prefix.
    type Slice: Shape + StaticSlice;
}

/// `T`, for any `Self`: how the prefix rule's `Slice` waits on each prefix
/// dim's [`SameDim`](crate::algebra::SameDim) output (its impls, generated
/// by `shapecheck_macros::impl_stitch_rules!`, write
/// `<<J0 as SameDim<D0>>::Out as Then<..>>::Out`). With a dim that fails,
/// `Self` names no type and neither does `Out`, so the rules after the
/// prefix rule (the slice rule, the output's rank) report nothing more than
/// its error (`ui-tests/stitch/fail/prefix_after_scalar_slice.rs`).
#[doc(hidden)]
pub trait Then<T> {
    /// `T`.
    type Out;
}

impl<P, T> Then<T> for P {
    type Out = T;
}

/// dynamic_stitch, slice rule: what follows the indices shape `I` in the data
/// shape (`Self`) is `S0`, the slice of the earlier pairs (same rank, each
/// dim [`SameDim`](crate::algebra::SameDim)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::StitchSliceOf;
/// fn fits<D: StitchSliceOf<I, S0>, I, S0>() {}
/// fits::<shape![2, 4], shape![2], shape![4]>();
/// fits::<shape![4], shape![], shape![4]>();
/// let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1, 2], [3, 4]])
///     .pair(&Tensor::<i32, shape![]>::from_array(2), &tensor![5, 6])
///     .run()
///     .unwrap();
/// assert_eq!(merged.as_slice(), &[3, 4, 1, 2, 5, 6]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/slice: data {Self} after indices {I} does not leave the slice {S0} of the earlier pairs: the slice must be the same for every pair",
    label = "this pair's slice differs from {S0}",
    note = "TensorFlow: \"Need data[0].shape[1:] = data[m].shape[1:]\": data[m].shape = indices[m].shape + slice, one slice for all m"
)]
#[doc(hidden)]
pub trait StitchSliceOf<I, S0> {
    /// `S0`.
    type Slice;
}

/// [`StitchIndex`] of the indices' element type `E`, as a link with
/// `Self = ()` (any `Self`): the indices as a view of
/// [`Index`](Self::Index)s. A step of [`StitchFirst`] and [`StitchNext`].
///
/// `Index` is `E` itself, named through a trait only `i32` and `i64`
/// implement: with any other `E` it names no type, so the builder that
/// holds the view reports nothing after the rule's own error (its
/// `.run()` would otherwise fail a second time, on `E`).
#[doc(hidden)]
pub trait StitchIndexLink<E: Copy> {
    /// `E`, once the rule holds.
    type Index: StitchIndex;
    /// A view of `t`'s values as [`Index`](Self::Index)s.
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

impl<P, E: StitchIndex> StitchIndexLink<E> for P {
    type Index = <E as Sealed>::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        Tensor::from_parts_unchecked(*t.shape(), E::same(t.as_slice()))
    }
}

/// [`StitchSliceOf`] of `D` as the link after the prefix rule's (`Self` is
/// its slice, so that a failing prefix rule is reported alone). A step of
/// [`StitchNext`].
#[doc(hidden)]
pub trait StitchSliceLink<D, I, S0> {
    /// `S0`, once the slice rule holds.
    type Slice;
}

impl<P, D: StitchSliceOf<I, S0>, I, S0> StitchSliceLink<D, I, S0> for P {
    type Slice = D::Slice;
}

/// The output shape of a first pair (`(Dyn, slice..)`, [`PrependDyn`]) as a
/// link with `Self = ()` (any `Self`). A step of [`StitchFirst`].
#[doc(hidden)]
pub trait StitchOutLink<D, I> {
    /// `(Dyn, slice..)`.
    type Out: Shape;
}

impl<P, D: StitchPrefix<I>, I> StitchOutLink<D, I> for P
where
    D::Slice: PrependDyn,
{
    type Out = <D::Slice as PrependDyn>::Out;
}

/// The slice of a pair whose prefix rule holds.
type PrefixSlice<D, I> = <D as StitchPrefix<I>>::Slice;

/// dynamic_stitch's rule for its first pair: data of shape `Self` after
/// indices of shape `I` holding `E` (`i32` or `i64`). Write `D:
/// StitchFirst<IS, E>` in a function generic over the data's shape `D`;
/// the output's shape is [`StitchOut<D, IS, E>`]. One impl per rank of the
/// data, each requiring the blanket `StitchFirstRule` (the index-element and
/// prefix rules, and the output's rank): a generic data shape has no impl,
/// and rustc names this trait; its types appear in the builder's type, so
/// that rustc reports a failing rule once, at the call, by its own message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::{StitchFirst, StitchOut};
/// // data [2, 3] after indices [2] of i32: slice [3], output [rows, 3]
/// type Data = shape![2, 3];
/// let _: Option<<Data as StitchFirst<shape![2], i32>>::Slice> = Some((Dim::<3>,));
/// let _: Option<StitchOut<Data, shape![2], i32>> = Some((Dyn(4), Dim::<3>));
/// // generic over the data's shape: one bound
/// fn merge<D: StaticShape + StitchFirst<shape![2], i32>>(
///     order: &Tensor<i32, shape![2]>,
///     x: &Tensor<f32, D>,
/// ) -> Result<Tensor<f32, StitchOut<D, shape![2], i32>, Vec<f32>>, StitchError> {
///     dynamic_stitch(order, x).run()
/// }
/// let merged = merge(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
/// assert_eq!(merged.as_slice(), &[4.0, 5.0, 6.0, 1.0, 2.0, 3.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch: data {Self} and indices {I} of `{E}`: nothing says that the data's shape starts with the indices'",
    label = "data {Self} must start with indices {I}",
    note = "in generic code, add `{Self}: StitchFirst<{I}, {E}>` (the output is `StitchOut<{Self}, {I}, {E}>`); TensorFlow: \"data[m].shape must start with indices[m].shape\""
)]
pub trait StitchFirst<I, E: Copy>: Shape {
    /// What follows the prefix `I`.
    type Slice: Shape + StaticSlice;
    /// The output shape `(Dyn, slice..)` ([`PrependDyn`]).
    type Out: Shape;
    /// `E`, once the index-element rule holds ([`StitchIndexLink`]).
    type Index: StitchIndex;
    /// The indices as a view of [`Index`](Self::Index)s.
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

/// The output shape of dynamic_stitch for data of shape `D` after indices of
/// shape `IS` holding `E`: `(Dyn, slice..)` ([`StitchFirst::Out`]).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::StitchOut;
/// let merged: Tensor<i32, StitchOut<shape![2, 3], shape![2], i32>, Vec<i32>> =
///     dynamic_stitch(&tensor![1, 0], &tensor![[1, 2, 3], [4, 5, 6]]).run().unwrap();
/// assert_eq!(merged.dims().as_slice(), &[2, 3]);
/// ```
pub type StitchOut<D, IS, E> = <D as StitchFirst<IS, E>>::Out;

/// dynamic_stitch's first-pair rule as one blanket impl over links, which
/// each per-rank impl of [`StitchFirst`] requires.
#[doc(hidden)]
pub trait StitchFirstRule<I, E: Copy>: Shape {
    /// [`StitchFirst::Slice`].
    type Slice: Shape + StaticSlice;
    /// [`StitchFirst::Out`].
    type Out: Shape;
    /// [`StitchFirst::Index`].
    type Index: StitchIndex;
    /// [`StitchFirst::indices`].
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

/// [`StitchFirst`] as [`dynamic_stitch`](crate::dynamic_stitch) bounds it
/// and names it in its return type: one blanket impl through
/// [`StitchFirstLink`], so that data of a generic shape is one error, at
/// the call (with the public trait's own message). Bounding the link
/// directly in `dynamic_stitch` (tried) turns
/// `ui-tests/generic/fail/stitch_missing_bound` into two errors, the first
/// quoting the function's where-clause.
#[doc(hidden)]
pub trait StitchData<I, E: Copy>: Shape {
    /// [`StitchFirst::Slice`].
    type Slice: Shape + StaticSlice;
    /// [`StitchFirst::Out`].
    type Out: Shape;
    /// [`StitchFirst::Index`].
    type Index: StitchIndex;
    /// [`StitchFirst::indices`].
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

impl<D: Shape, I, E: Copy> StitchData<I, E> for D
where
    (): StitchFirstLink<D, I, E>,
{
    type Slice = <() as StitchFirstLink<D, I, E>>::Slice;
    type Out = <() as StitchFirstLink<D, I, E>>::Out;
    type Index = <() as StitchFirstLink<D, I, E>>::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        <() as StitchFirstLink<D, I, E>>::indices(t)
    }
}

/// [`StitchFirst`] of the data `D` as a link with `Self = ()`, a step of
/// [`StitchData`].
#[doc(hidden)]
pub trait StitchFirstLink<D, I, E: Copy> {
    /// [`StitchFirst::Slice`].
    type Slice: Shape + StaticSlice;
    /// [`StitchFirst::Out`].
    type Out: Shape;
    /// [`StitchFirst::Index`].
    type Index: StitchIndex;
    /// [`StitchFirst::indices`].
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

impl<X, D: StitchFirst<I, E>, I, E: Copy> StitchFirstLink<D, I, E> for X {
    type Slice = D::Slice;
    type Out = D::Out;
    type Index = D::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        D::indices(t)
    }
}

impl<D: Shape, I, E: Copy> StitchFirstRule<I, E> for D
where
    (): StitchIndexLink<E>,
    D: StitchPrefix<I>,
    (): StitchOutLink<D, I>,
{
    type Slice = PrefixSlice<D, I>;
    type Out = <() as StitchOutLink<D, I>>::Out;
    type Index = <() as StitchIndexLink<E>>::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        <() as StitchIndexLink<E>>::indices(t)
    }
}

/// dynamic_stitch, a later pair (data shape `Self`, indices shape `I`,
/// indices element `E`) against the slice `S0` of the earlier pairs: the
/// index-element and prefix rules, then the slice rule, as for
/// [`StitchFirst`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::StitchNext;
/// // data [2, 2, 3] after indices [2, 2] of i64 leaves the slice [3]
/// type Data = shape![2, 2, 3];
/// let _: Option<<Data as StitchNext<shape![2, 2], shape![3], i64>>::Slice> = Some((Dim::<3>,));
/// ```
#[doc(hidden)]
pub trait StitchNext<I, S0, E: Copy>: Shape {
    /// `S0`, once the rules hold.
    type Slice;
    /// `E`, once the index-element rule holds ([`StitchIndexLink`]).
    type Index: StitchIndex;
    /// The indices as a view of [`Index`](Self::Index)s.
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]>;
}

#[cfg(not(shapecheck_mutant = "stitch-slice-static"))]
impl<D: Shape, I, S0, E: Copy> StitchNext<I, S0, E> for D
where
    (): StitchIndexLink<E>,
    D: StitchPrefix<I>,
    PrefixSlice<D, I>: StitchSliceLink<D, I, S0>,
{
    type Slice = <PrefixSlice<D, I> as StitchSliceLink<D, I, S0>>::Slice;
    type Index = <() as StitchIndexLink<E>>::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        <() as StitchIndexLink<E>>::indices(t)
    }
}

/// `shapecheck_mutant = "stitch-slice-static"`: a planted bug for the
/// agreement test (conformance/tests/agreement.rs): a later pair's slice
/// rule dropped from the compile-time form.
#[cfg(shapecheck_mutant = "stitch-slice-static")]
impl<D: Shape, I, S0, E: Copy> StitchNext<I, S0, E> for D
where
    (): StitchIndexLink<E>,
    D: StitchPrefix<I>,
{
    type Slice = S0;
    type Index = <() as StitchIndexLink<E>>::Index;
    #[inline(always)]
    fn indices<S: Shape, B: Storage<E>>(
        t: &Tensor<E, S, B>,
    ) -> Tensor<Self::Index, S, &[Self::Index]> {
        <() as StitchIndexLink<E>>::indices(t)
    }
}

/// dynamic_stitch backward: `Self`, the shape of `dout`, is the output's
/// `O` but for the rows: the slice dims the same, the rows any dim
/// ([`Dyn`](crate::Dyn), [`Branded`](crate::Branded),
/// [`Bounded`](crate::Bounded): the row count is checked at run time).
/// dynamic_partition's backward requires it of each output.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::stitch::StitchDout;
/// fn fits<D: StitchDout<O>, O: Shape>() {}
/// fits::<(Bounded<4>, Dim<2>), (Dyn, Dim<2>)>();
/// fits::<(Dyn,), (Dyn,)>();
/// ```
#[diagnostic::on_unimplemented(
    message = "dynamic_stitch/dout-shape: dout {Self} must have the output's shape {O} (its rows may be any run-time dim)",
    label = "dout must be shaped like the output {O}"
)]
#[doc(hidden)]
pub trait StitchDout<O>: Shape {}

#[diagnostic::do_not_recommend]
impl<S: crate::rows::RowShape, O: crate::rows::RowShape> StitchDout<O> for S where
    S::Rows: SameRows<O::Rows>
{
}

shapecheck_macros::impl_stitch_rules!(8);
