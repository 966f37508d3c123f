//! The relations that say what is known without running an op: whether
//! two dims broadcast ([`NeedsNoCheck`]), are equal ([`EqualityKnown`]) or
//! broadcast one way ([`BroadcastsToKnown`]) is decided by their kinds alone
//! (both static, a 1 against anything, one brand twice). The plain (not
//! `try_`) forms of the ops require them.

use crate::dim::{Bounded, Branded, Dim, DimLike, Dyn, One, StaticDim};

/// [`Broadcast`] of the two dims is decided without running the op: both are
/// static (the compiler decides, and a pair that differs is rejected by
/// [`Broadcast`] itself, not here), a run-time dim meets 1 (which
/// broadcasts against any size), or a [`Branded`] dim meets its own brand
/// (both were checked against it). Not implemented where a [`Dyn`] meets a
/// static dim other than 1 or another `Dyn`: whether those broadcast is only
/// known when the op runs, so only an op's `try_` form accepts them.
#[diagnostic::on_unimplemented(
    message = "whether dims {Self} and {Other} broadcast is only known at run time",
    label = "a run-time dim that meets another dim than 1 needs a check when the op runs"
)]
///
/// ```
/// use shapecheck::algebra::NeedsNoCheck;
/// use shapecheck::{Dim, Dyn, One};
/// fn known<A: NeedsNoCheck<B>, B: shapecheck::DimLike>() {}
/// known::<Dim<3>, One>();
/// known::<Dyn, One>(); // any size broadcasts against 1
/// known::<Dim<3>, Dim<4>>(); // known, and rejected by `Broadcast`
/// ```
///
/// ```compile_fail
/// use shapecheck::algebra::NeedsNoCheck;
/// use shapecheck::{Dim, Dyn};
/// fn known<A: NeedsNoCheck<B>, B: shapecheck::DimLike>() {}
/// known::<Dyn, Dim<3>>(); // the run-time dim may be 3, 1 or neither
/// ```
#[doc(hidden)]
pub trait NeedsNoCheck<Other: DimLike>: DimLike {}

/// Two static dims (`Dim<N>`, `One`): the compiler decides. One impl for
/// every pair, so that generic code over `D: StaticDim` sees it.
impl<A: StaticDim, B: StaticDim> NeedsNoCheck<B> for A {}
/// A run-time dim against 1: broadcasts whatever its size.
impl NeedsNoCheck<One> for Dyn {}
/// 1 against a run-time dim: broadcasts whatever its size.
impl NeedsNoCheck<Dyn> for One {}
/// One brand twice: checked once, when the tensors got the brand.
impl<'id: 'other, 'other> NeedsNoCheck<Branded<'other>> for Branded<'id> {}
/// A branded dim against 1: broadcasts whatever its size.
impl NeedsNoCheck<One> for Branded<'_> {}
/// 1 against a branded dim: broadcasts whatever its size.
impl NeedsNoCheck<Branded<'_>> for One {}

/// Whether the two dims are **equal** is decided without running the op:
/// both are static (the compiler decides; a pair that differs is rejected
/// by [`SameDim`] itself, not here), or both carry one brand. A run-time dim
/// against anything else, 1 included, is only known when the op runs.
#[diagnostic::on_unimplemented(
    message = "whether dims {Self} and {Other} are equal is only known at run time",
    label = "a run-time dim that must equal another needs a check when the op runs"
)]
///
/// ```
/// use shapecheck::algebra::EqualityKnown;
/// use shapecheck::{Dim, One};
/// fn known<A: EqualityKnown<B>, B: shapecheck::DimLike>() {}
/// known::<Dim<3>, Dim<3>>();
/// known::<Dim<3>, One>(); // known, and rejected by `SameDim`
/// shapecheck::brand(4, |b| {
///     fn same_brand<A: EqualityKnown<B>, B: shapecheck::DimLike>(_: A, _: B) {}
///     same_brand(b, b);
/// });
/// ```
///
/// ```compile_fail
/// use shapecheck::algebra::EqualityKnown;
/// use shapecheck::{Dyn, One};
/// fn known<A: EqualityKnown<B>, B: shapecheck::DimLike>() {}
/// known::<Dyn, One>(); // the run-time dim may be 1 or not
/// ```
#[doc(hidden)]
pub trait EqualityKnown<Other: DimLike>: DimLike {
    /// `()`. The impls are written per kind of pair (no blanket impl), so
    /// `<D as EqualityKnown<E>>::Ok` names a type only where the equality is
    /// known: a chain of dim rules that waits for it stops at the first pair
    /// that fails, which is then the one error.
    type Ok;
}

/// Two static sizes: the compiler decides.
impl<const N: usize, const M: usize> EqualityKnown<Dim<M>> for Dim<N> {
    type Ok = ();
}
/// N against 1: the compiler decides.
impl<const N: usize> EqualityKnown<One> for Dim<N> {
    type Ok = ();
}
/// 1 against N: the compiler decides.
impl<const N: usize> EqualityKnown<Dim<N>> for One {
    type Ok = ();
}
/// 1 and 1.
impl EqualityKnown<One> for One {
    type Ok = ();
}
/// One brand twice: equal, checked when the tensors got the brand.
impl<'id: 'other, 'other> EqualityKnown<Branded<'other>> for Branded<'id> {
    type Ok = ();
}

/// Whether the source dim (`Self`) [broadcasts one way](BroadcastsTo) to
/// `Dst` is decided without running the op: both are static (the compiler
/// decides), the source is 1 (it repeats along any size), or both carry one
/// brand. A run-time source, or a static source against a run-time
/// destination, is only known when the op runs.
#[diagnostic::on_unimplemented(
    message = "whether dim {Self} broadcasts to {Dst} is only known at run time",
    label = "a run-time dim in a one-way broadcast needs a check when the op runs"
)]
///
/// ```
/// use shapecheck::algebra::BroadcastsToKnown;
/// use shapecheck::{Dim, Dyn, One};
/// fn known<S: BroadcastsToKnown<D>, D: shapecheck::DimLike>() {}
/// known::<Dim<3>, Dim<3>>();
/// known::<One, Dyn>(); // 1 repeats along any size
/// ```
///
/// ```compile_fail
/// use shapecheck::algebra::BroadcastsToKnown;
/// use shapecheck::{Dim, Dyn};
/// fn known<S: BroadcastsToKnown<D>, D: shapecheck::DimLike>() {}
/// known::<Dyn, Dim<3>>(); // the run-time source may be 3, 1 or neither
/// ```
#[doc(hidden)]
pub trait BroadcastsToKnown<Dst: DimLike>: DimLike {}

/// Two static sizes: the compiler decides.
impl<const N: usize, const M: usize> BroadcastsToKnown<Dim<M>> for Dim<N> {}
/// N to 1: the compiler decides (and rejects it).
impl<const N: usize> BroadcastsToKnown<One> for Dim<N> {}
/// 1 to N: the 1 repeats.
impl<const N: usize> BroadcastsToKnown<Dim<N>> for One {}
/// 1 to 1.
impl BroadcastsToKnown<One> for One {}
/// 1 to a run-time destination: the 1 repeats whatever its size.
impl BroadcastsToKnown<Dyn> for One {}
/// 1 to a branded destination: the 1 repeats whatever its size.
impl BroadcastsToKnown<Branded<'_>> for One {}
/// One brand to itself: equal, checked when the tensors got the brand.
impl<'id: 'other, 'other> BroadcastsToKnown<Branded<'other>> for Branded<'id> {}
/// 1 to a bounded destination: the 1 repeats whatever its size.
impl<const C: usize> BroadcastsToKnown<Bounded<C>> for One {}
