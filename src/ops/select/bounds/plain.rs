//! Select's plain-form rule: no dim of cond, then or else needs a run-time
//! check (the mode's [`SelectProvenRule`]), beside the checked rule of
//! `bounds.rs`. Its dim rules carry the plain form's compile errors (a
//! run-time dim that meets another dim names the `try_` form).

use super::{NoBroadcast, Numpy, Pdpd, SelectMode};
use super::{
    NumpyOk, NumpyTE, PdpdAxisOk, SameOk, SameTE, SelectNumpyMerge, SelectNumpyPair,
    SelectNumpyThen, SelectPdpdThen, SelectSameMerge, SelectSamePair, SelectSameThen,
};
use crate::algebra::{BroadcastsToKnown, EqualityKnown, NeedsNoCheck};
use crate::dim::{DimLike, StaticDim};
use crate::shape::Shape;

/// Select, dim rule of the plain form (numpy): an aligned pair whose
/// broadcast needs no run-time check (the algebra's [`NeedsNoCheck`]).
#[diagnostic::on_unimplemented(
    message = "select/numpy-broadcast: cond {C}, then {T} and else {E}: aligned dims {Self} and {Other} meet, and whether they broadcast is only known at run time",
    label = "a run-time dim needs a check: call `try_select`, which returns a Result",
    note = "the plain forms accept a run-time dim only where it meets 1, no dim, or the same brand: check once with `brand_rows` (a `Branded` dim) or call `try_select`"
)]
#[doc(hidden)]
pub trait SelectNoCheckDim<Other, C, T, E>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}

/// The algebra's [`NeedsNoCheck`].
#[diagnostic::do_not_recommend]
impl<L: NeedsNoCheck<R>, R: DimLike, C, T, E> SelectNoCheckDim<R, C, T, E> for L {
    type Ok = ();
}

/// Select, dim rule of the plain form (none): a pair whose equality is known
/// without running (the algebra's [`EqualityKnown`]).
#[diagnostic::on_unimplemented(
    message = "select/none-shapes: cond {C}, then {T} and else {E}: dims {Self} and {Other} must be equal, which for a run-time dim is only known at run time",
    label = "a run-time dim needs a check: call `try_select`, which returns a Result",
    note = "the plain forms accept a run-time dim here only against the same brand: check once with `brand_rows` (a `Branded` dim) or call `try_select`"
)]
#[doc(hidden)]
pub trait SelectNoCheckSameDim<Other, C, T, E>: DimLike {
    /// `()`, only where the rule holds: the next pair's link waits for it.
    type Ok;
}

/// The algebra's [`EqualityKnown`].
#[diagnostic::do_not_recommend]
impl<L: EqualityKnown<R>, R: DimLike, C, T, E> SelectNoCheckSameDim<R, C, T, E> for L {
    type Ok = <L as EqualityKnown<R>>::Ok;
}

/// [`SelectNoCheckSameDim`] of the pair `L`, `R` as a link after the
/// previous pair's `Ok`: a failing pair leaves no `Ok`, so the pairs after
/// it are not looked at and the first failure is the one error.
#[doc(hidden)]
pub trait SelectNoCheckSameLink<L, R, C, T, E> {
    /// `()` once the pair's rule holds.
    type Out;
}

impl<L: SelectNoCheckSameDim<R, C, T, E>, R, C, T, E> SelectNoCheckSameLink<L, R, C, T, E> for () {
    type Out = L::Ok;
}

/// Select, dim rule of the plain form (pdpd): a placed dim whose one-way
/// broadcast is known without running (the algebra's [`BroadcastsToKnown`]).
#[diagnostic::on_unimplemented(
    message = "select/pdpd-one-way: with Pdpd<{AXIS}>, cond {C} and else {E} into then {T}: whether dim {Self} broadcasts to {Dst} is only known at run time",
    label = "a run-time dim needs a check: call `try_select`, which returns a Result",
    note = "the plain forms accept a run-time dim here only as a 1 source or against the same brand: check once with `brand_rows` (a `Branded` dim) or call `try_select`"
)]
#[doc(hidden)]
pub trait SelectNoCheckOneWayDim<Dst, C, T, E, const AXIS: isize>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}

/// The algebra's [`BroadcastsToKnown`].
#[diagnostic::do_not_recommend]
impl<S: BroadcastsToKnown<D>, D: DimLike, C, T, E, const AXIS: isize>
    SelectNoCheckOneWayDim<D, C, T, E, AXIS> for S
{
    type Ok = ();
}

/// Select, dim rule of the plain form (pdpd): a dim that runs past then's
/// last dim is static, since whether a run-time dim is 1 (and can be
/// dropped) is only known at run time.
#[diagnostic::on_unimplemented(
    message = "select/pdpd-runs-past: with Pdpd<{AXIS}>, cond {C} or else {E} runs past then {T}'s last dim, and whether its dim {Self} is 1 is only known at run time",
    label = "a run-time dim needs a check: call `try_select`, which returns a Result",
    note = "only trailing dims of size 1 can be dropped"
)]
#[doc(hidden)]
pub trait SelectNoCheckDropDim<C, T, E, const AXIS: isize>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}

/// A static dim: [`SelectPdpdDroppableDim`] decides it.
#[diagnostic::do_not_recommend]
impl<S: StaticDim, C, T, E, const AXIS: isize> SelectNoCheckDropDim<C, T, E, AXIS> for S {
    type Ok = ();
}

/// [`SelectNoCheckOneWayDim`] as a link with `Self = ()`: the error then
/// names the dim rule and not the pair's `SelectPdpdProven` too
/// (`ui-tests/select/fail/plain_dyn_pdpd`: bounding the dim directly adds
/// that line).
#[doc(hidden)]
pub trait SelectNoCheckOneWayLink<S, D, C, T, E, const AXIS: isize> {
    /// `()` once the rule holds.
    type Out;
}

impl<S: SelectNoCheckOneWayDim<D, C, T, E, AXIS>, D, C, T, E, const AXIS: isize>
    SelectNoCheckOneWayLink<S, D, C, T, E, AXIS> for ()
{
    type Out = S::Ok;
}

/// [`SelectNoCheckDropDim`] as a link with `Self = ()`, for the same reason
/// as [`SelectNoCheckOneWayLink`].
#[doc(hidden)]
pub trait SelectNoCheckDropLink<S, C, T, E, const AXIS: isize> {
    /// `()` once the rule holds.
    type Out;
}

impl<S: SelectNoCheckDropDim<C, T, E, AXIS>, C, T, E, const AXIS: isize>
    SelectNoCheckDropLink<S, C, T, E, AXIS> for ()
{
    type Out = S::Ok;
}

/// Select (numpy), the plain form's rule for a pair of shapes: every aligned
/// pair of dims needs no run-time check. Generated per pair of ranks, each
/// impl requiring the pair's [`SelectNumpyPair`] too: a concrete mismatch
/// fails there, in both chains, and is reported once; a generic shape has
/// no impl, and since this trait implies the pair's, rustc reports it alone,
/// with this message.
#[diagnostic::on_unimplemented(
    message = "select/numpy-broadcast: cond {C}, then {T} and else {E}: nothing says that they broadcast",
    label = "{C}, {T} and {E} must broadcast under Numpy",
    note = "in generic code, add `{C}: SelectWith<{T}, {E}, Numpy>` (static shapes; the output is `SelectOutput<{C}, {T}, {E}, Numpy>`) or, with run-time dims and `try_select`, `{C}: SelectShapes<{T}, {E}, Numpy>`"
)]
#[doc(hidden)]
pub trait SelectNumpyProven<Other: Shape, C, T, E>: SelectNumpyPair<Other, C, T, E> {}

/// Select (none), the plain form's rule for a pair of shapes: every pair's
/// equality is known without running. Generated per pair of ranks, each
/// requiring the pair's [`SelectSamePair`] (reported once, as with
/// [`SelectNumpyProven`]; ranks that differ fail there).
#[diagnostic::on_unimplemented(
    message = "select/none-shapes: cond {C}, then {T} and else {E}: nothing says that they have the same shape",
    label = "{C}, {T} and {E} must be one shape under NoBroadcast",
    note = "in generic code, add `{C}: SelectWith<{T}, {E}, NoBroadcast>` (static shapes) or, with run-time dims and `try_select`, `{C}: SelectShapes<{T}, {E}, NoBroadcast>`"
)]
#[doc(hidden)]
pub trait SelectSameProven<Other: Shape, C, T, E>: SelectSamePair<Other, C, T, E> {}

/// [`SelectNumpyProven`] of `A` as a link after then's rank.
#[doc(hidden)]
pub trait SelectNumpyProvenLink<A, B, C, T, E> {}

impl<P, A: SelectNumpyProven<B, C, T, E>, B: Shape, C, T, E> SelectNumpyProvenLink<A, B, C, T, E>
    for P
{
}

/// [`SelectSameProven`] of `A` as a link after then's rank.
#[doc(hidden)]
pub trait SelectSameProvenLink<A, B, C, T, E> {}

impl<P, A: SelectSameProven<B, C, T, E>, B: Shape, C, T, E> SelectSameProvenLink<A, B, C, T, E>
    for P
{
}

/// Select (pdpd), the plain form's rule for a source (`Self`: cond or else)
/// placed in then's shape `Dst`. Generated per pair of ranks and axis.
#[doc(hidden)]
pub trait SelectPdpdProven<Dst, C, T, E, const AXIS: isize> {
    /// `()` once the rule holds (the next source waits for it).
    type Ok;
}

/// [`SelectPdpdProven`] of `S` as a link of a chain (else, then cond).
#[doc(hidden)]
pub trait SelectPdpdProvenSource<S, D, C, T, E, const AXIS: isize> {
    /// `()` once the rule holds.
    type Out;
}

impl<S: SelectPdpdProven<D, C, T, E, AXIS>, D, C, T, E, const AXIS: isize>
    SelectPdpdProvenSource<S, D, C, T, E, AXIS> for ()
{
    type Out = S::Ok;
}

/// Select, the plain form's rule of one mode (`Self`): no dim of cond `C`,
/// then `T` and else `E` needs a run-time check. Checked only for shapes
/// with a run-time dim (see [`SelectNoCheck`]).
#[doc(hidden)]
pub trait SelectProvenRule<C, T, E>: SelectMode {}

/// Numpy: then with else, then their broadcast with cond.
impl<C: Shape, T: Shape, E: Shape> SelectProvenRule<C, T, E> for Numpy
where
    T: SelectNumpyThen<C, E>,
    NumpyOk<C, T, E>: SelectNumpyProvenLink<T, E, C, T, E>,
    NumpyOk<C, T, E>: SelectNumpyMerge<T, E, C, T, E>,
    NumpyTE<C, T, E>: SelectNumpyProven<C, C, T, E>,
{
}

/// None: then with else, then the common shape with cond.
impl<C: Shape, T: Shape, E: Shape> SelectProvenRule<C, T, E> for NoBroadcast
where
    T: SelectSameThen<C, E>,
    SameOk<C, T, E>: SelectSameProvenLink<T, E, C, T, E>,
    SameOk<C, T, E>: SelectSameMerge<T, E, C, T, E>,
    SameTE<C, T, E>: SelectSameProven<C, C, T, E>,
{
}

/// Pdpd: the axis, else into then, cond into then, as one chain.
impl<C: Shape, T: Shape, E: Shape, const AXIS: isize> SelectProvenRule<C, T, E> for Pdpd<AXIS>
where
    T: SelectPdpdThen<C, E, AXIS>,
    PdpdAxisOk<C, T, E, AXIS>: SelectPdpdProvenSource<E, T, C, T, E, AXIS>,
    <PdpdAxisOk<C, T, E, AXIS> as SelectPdpdProvenSource<E, T, C, T, E, AXIS>>::Out:
        SelectPdpdProvenSource<C, T, C, T, E, AXIS>,
{
}

/// Select, the plain form's rule beside [`SelectShapes`]: cond (`Self`),
/// then `T` and else `E` under `M` need no run-time check. One blanket
/// impl, through the mode's [`SelectProvenRule`], whose dim rules hold for
/// every pair of static dims (the compiler checks those) and for a run-time
/// dim that meets 1, no dim, or the same brand; a dim no other operand
/// aligns with (a batch dim) is never looked at, so generic code over it
/// needs only `B: DimLike`. Which loop runs is the kernel's choice.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::{SelectMode, SelectNoCheck};
/// fn plain<C: SelectNoCheck<T, E, M>, T: Shape, E: Shape, M: SelectMode>() {}
/// plain::<shape![2, 3], shape![2, 3], shape![3], Numpy>();
/// // cond's run-time rows meet then's and else's 1 rows: no check
/// plain::<shape![Dyn, 3], shape![3], shape![1, 3], Numpy>();
/// ```
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::{SelectMode, SelectNoCheck};
/// fn plain<C: SelectNoCheck<T, E, M>, T: Shape, E: Shape, M: SelectMode>() {}
/// plain::<shape![Dyn, 3], shape![2, 3], shape![3], Numpy>(); // the `Dyn` meets 2
/// ```
#[doc(hidden)]
pub trait SelectNoCheck<T: Shape, E: Shape, M: SelectMode>: Shape {
    /// `T` itself: the plain form's return type names it, so that rustc
    /// reports a failure of this rule where it reports the others.
    type Then: Shape;
    /// `t` as [`Then`](Self::Then).
    #[doc(hidden)]
    fn then(t: &T) -> Self::Then;
}

/// then's shape `T` once the plain form's rule holds ([`SelectNoCheck`]).
pub type NoCheckThen<C, T, E, M> = <C as SelectNoCheck<T, E, M>>::Then;

/// The one impl: the mode's no-check chain.
impl<C: Shape, T: Shape, E: Shape, M: SelectProvenRule<C, T, E>> SelectNoCheck<T, E, M> for C {
    type Then = T;
    #[inline(always)]
    fn then(t: &T) -> T {
        *t
    }
}
