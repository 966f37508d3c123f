//! The dim algebra: how two dims relate, written once for every op.
//!
//! Eight relations, each a plain trait with one plain impl per pair of dim
//! kinds ([`Dim<N>`], [`One`], [`Dyn`], [`Branded`], [`Bounded`](crate::dim::Bounded)), each impl with a line
//! saying why it holds:
//!
//! | relation | holds when | output dim |
//! |---|---|---|
//! | [`SameDim`] | the two dims are equal | the common dim |
//! | [`Broadcast`] | equal, or either is 1 (numpy, both ways) | the larger |
//! | [`BroadcastsTo`] | the source equals the destination or is 1 (one way) | (the destination) |
//! | [`Droppable`] | a dim past the end that may be dropped: it is 1 | (none) |
//! | [`IsOne`] | the dim is 1 (a hand-written `Dim<1>` too) | (none) |
//! | [`NeedsNoCheck`] | whether the two broadcast is known without running: both static, a run-time dim against 1, or one brand twice | (none) |
//! | [`EqualityKnown`] | whether the two are equal is known without running: both static, or one brand twice | (none) |
//! | [`BroadcastsToKnown`] | whether the source broadcasts one way to the destination is known without running: both static, a 1 source, or one brand twice | (none) |
//!
//! A [`Dyn`] dim passes every relation here: the compiler cannot know its
//! size, so the op's run-time rule checks it when the op runs (the `try_`
//! forms) and returns a typed error. The output dim is then the most static
//! one the compiler can name (`Dyn` meeting `Dim<N>` gives `Dim<N>`, since the
//! run-time check makes them equal). [`NeedsNoCheck`] says which pairs need
//! no such check: the plain (not `try_`) forms of an op require it, so that
//! a `Dyn` dim that meets only a 1 keeps them (its output dim is the `Dyn`).
//!
//! A [`Branded`] dim is a run-time dim already checked: `Branded<'id>` meets
//! its own brand with no check, and keeps the brand in the output; against
//! any other dim it is a run-time dim like `Dyn`. The same-brand impls are
//! written `Branded<'id>` against `Branded<'other>` with `'id: 'other`: a
//! brand's lifetime is the placeholder of one call of
//! [`brand`](crate::brand)'s `for<'id>` closure, which no other brand's
//! lifetime outlives (none is `'static`, and the closure's argument implies
//! no bound), so `'id: 'other` holds exactly when the two are one brand.
//! Two brands are then rejected by the borrow checker, with one error (an
//! equality, `Branded<'id>` twice, would be two: one per direction).
//!
//! Every op's type-level rule (`ops/<op>/bounds.rs`) is built from these
//! relations: it declares a trait carrying the op's compile error
//! (`#[diagnostic::on_unimplemented]`, naming the op's whole shapes and the
//! rule) with one blanket impl over the relation here. That impl is
//! `#[diagnostic::do_not_recommend]`, so a failing pair is reported by the
//! op's message, not by the relation's.
//!
//! ```
//! use shapecheck::algebra::{Broadcast, SameDim};
//! use shapecheck::{Dim, Dyn, One};
//! // 3 and 1 broadcast to 3; the output dim is a type
//! fn broadcast<A: Broadcast<B, Broadcast = O>, B: shapecheck::DimLike, O>() {}
//! broadcast::<Dim<3>, One, Dim<3>>();
//! // a run-time dim meeting a static one: checked when the op runs
//! fn same<A: SameDim<B, Out = O>, B: shapecheck::DimLike, O>() {}
//! same::<Dyn, Dim<3>, Dim<3>>();
//! ```
//!
//! ```compile_fail
//! use shapecheck::algebra::Broadcast;
//! use shapecheck::Dim;
//! fn broadcast<A: Broadcast<B>, B: shapecheck::DimLike>() {}
//! broadcast::<Dim<3>, Dim<4>>(); // 3 and 4 differ and neither is 1
//! ```

use crate::dim::{Branded, Dim, DimLike, Dyn, One};

// The token of the algebra's methods and the `Broadcast` relation are
// defined in `dim.rs`, beside `DimLike`, which promises that every dim
// broadcasts with itself and with a `One`.
pub use crate::dim::Broadcast;
pub(crate) use crate::dim::Internal;

// The impls for a capacity-bounded dim, in a file of their own.
mod bounded;
// What is known without running the op: `NeedsNoCheck`, `EqualityKnown`,
// `BroadcastsToKnown`.
mod known;
pub use known::{BroadcastsToKnown, EqualityKnown, NeedsNoCheck};

/// The two dims are equal. `Out` is the common dim.
#[diagnostic::on_unimplemented(
    message = "dims {Self} and {Other} differ",
    label = "these dims must be equal"
)]
///
/// ```
/// use shapecheck::algebra::SameDim;
/// use shapecheck::{Dim, Dyn, One};
/// /// A bound generic code can state: the two dims are equal.
/// fn common<A: SameDim<B>, B: shapecheck::DimLike>() {}
/// common::<Dim<3>, Dim<3>>();
/// common::<One, Dyn>(); // the run-time dim is checked by the op
/// ```
pub trait SameDim<Other: DimLike>: DimLike {
    /// The common dim.
    type Out: DimLike;
    /// The common dim's value, for the ops once their rule has held (it
    /// checks nothing: `Internal` keeps it out of users' reach).
    #[doc(hidden)]
    fn same(self, other: Other, _: Internal) -> Self::Out;
}

/// A dim meets itself: the same static size, one `Dyn` (whose sizes the
/// op checks when it runs), one brand, one capacity. One impl for every
/// dim, so code generic over a dim `B` needs no bound for `B` to meet `B`.
impl<D: DimLike> SameDim<D> for D {
    type Out = D;
    #[inline(always)]
    fn same(self, _other: D, _: Internal) -> D {
        self
    }
}

/// A run-time dim against a static one: checked when the op runs.
impl<const N: usize> SameDim<Dim<N>> for Dyn {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dim<N>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A static dim against a run-time one: checked when the op runs.
impl<const N: usize> SameDim<Dyn> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dyn, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against 1: checked when the op runs.
impl SameDim<One> for Dyn {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: One, _: Internal) -> One {
        One
    }
}

/// 1 against a run-time dim: checked when the op runs.
impl SameDim<Dyn> for One {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: Dyn, _: Internal) -> One {
        One
    }
}

/// A branded dim against a static one: checked when the op runs.
impl<const N: usize> SameDim<Dim<N>> for Branded<'_> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dim<N>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A static dim against a branded one: checked when the op runs.
impl<const N: usize> SameDim<Branded<'_>> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Branded<'_>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A branded dim against 1: checked when the op runs.
impl SameDim<One> for Branded<'_> {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: One, _: Internal) -> One {
        One
    }
}

/// 1 against a branded dim: checked when the op runs.
impl SameDim<Branded<'_>> for One {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: Branded<'_>, _: Internal) -> One {
        One
    }
}

/// A branded dim against a run-time one: checked when the op runs, so
/// the output keeps the brand.
impl<'id> SameDim<Dyn> for Branded<'id> {
    type Out = Branded<'id>;
    #[inline(always)]
    fn same(self, _other: Dyn, _: Internal) -> Branded<'id> {
        self
    }
}

/// A run-time dim against a branded one: checked when the op runs, so
/// the output keeps the brand.
impl<'id> SameDim<Branded<'id>> for Dyn {
    type Out = Branded<'id>;
    #[inline(always)]
    fn same(self, other: Branded<'id>, _: Internal) -> Branded<'id> {
        other
    }
}

/// N and itself. Generic code over `D: DimLike` sees `D` meeting itself
/// (and meeting a `One` on its right) through `DimLike`'s supertraits.
impl<const N: usize> Broadcast<Dim<N>> for Dim<N> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>, _: Internal) -> Dim<N> {
        self
    }
}

/// 1 against any dim, generic or not: the 1 is repeated, the output is the
/// other dim (checked at run time only where the other dim is, never here).
/// One impl for every dim, so that a `One` meets a generic dim with no bound.
impl<R: DimLike> Broadcast<R> for One {
    type Broadcast = R;
    #[inline(always)]
    fn broadcast(self, other: R, _: Internal) -> R {
        other
    }
}

/// N against 1: the 1 is repeated.
impl<const N: usize> Broadcast<One> for Dim<N> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: One, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against N: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Dim<N>> for Dyn {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// N against a run-time dim: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Dyn> for Dim<N> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dyn, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against 1: always broadcasts, the output is the run-time dim.
impl Broadcast<One> for Dyn {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, _other: One, _: Internal) -> Dyn {
        self
    }
}

/// Two run-time dims: checked when the op runs; the output is the one that is not 1.
impl Broadcast<Dyn> for Dyn {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Dyn, _: Internal) -> Dyn {
        if self.0 == 1 {
            other
        } else {
            self
        }
    }
}

/// One brand twice: equal, nothing to check.
impl<'id: 'other, 'other> Broadcast<Branded<'other>> for Branded<'id> {
    type Broadcast = Branded<'id>;
    #[inline(always)]
    fn broadcast(self, _other: Branded<'other>, _: Internal) -> Branded<'id> {
        self
    }
}

/// A branded dim against 1: always broadcasts, the output keeps the brand.
impl<'id> Broadcast<One> for Branded<'id> {
    type Broadcast = Branded<'id>;
    #[inline(always)]
    fn broadcast(self, _other: One, _: Internal) -> Branded<'id> {
        self
    }
}

/// A branded dim against N: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Dim<N>> for Branded<'_> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// N against a branded dim: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Branded<'_>> for Dim<N> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Branded<'_>, _: Internal) -> Dim<N> {
        Dim
    }
}

/// A branded dim against a run-time one: checked when the op runs; either
/// may be the 1 that repeats, so the output is a run-time dim.
impl Broadcast<Dyn> for Branded<'_> {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Dyn, _: Internal) -> Dyn {
        Dyn(self.size()).broadcast(other, Internal(()))
    }
}

/// A run-time dim against a branded one: as the pair the other way round.
impl Broadcast<Branded<'_>> for Dyn {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Branded<'_>, _: Internal) -> Dyn {
        self.broadcast(Dyn(other.size()), Internal(()))
    }
}

/// The source dim (`Self`) broadcasts one way to the destination `Dst`: it
/// equals it or is 1 (the destination is the output's dim and never repeats).
#[diagnostic::on_unimplemented(
    message = "dim {Self} does not broadcast to {Dst}: it must equal it or be 1",
    label = "a one-way broadcast: the source dim must equal the destination or be 1"
)]
///
/// ```
/// use shapecheck::algebra::BroadcastsTo;
/// use shapecheck::{Dim, One};
/// fn one_way<S: BroadcastsTo<D>, D: shapecheck::DimLike>() {}
/// one_way::<One, Dim<3>>(); // 1 repeats along 3
/// one_way::<Dim<3>, Dim<3>>();
/// ```
///
/// ```compile_fail
/// use shapecheck::algebra::BroadcastsTo;
/// use shapecheck::{Dim, One};
/// fn one_way<S: BroadcastsTo<D>, D: shapecheck::DimLike>() {}
/// one_way::<Dim<3>, One>(); // the destination never repeats
/// ```
#[doc(hidden)]
pub trait BroadcastsTo<Dst: DimLike>: DimLike {
    /// `()`. A chain of rules names it so that its next link waits until this
    /// relation holds (for a pair with no impl, it names no type).
    type Ok;
}

/// Equal static sizes.
impl<const N: usize> BroadcastsTo<Dim<N>> for Dim<N> {
    type Ok = ();
}
/// 1 to N: the 1 is repeated.
impl<const N: usize> BroadcastsTo<Dim<N>> for One {
    type Ok = ();
}
/// 1 to 1.
impl BroadcastsTo<One> for One {
    type Ok = ();
}
/// A run-time source: checked when the op runs.
impl<D: DimLike> BroadcastsTo<D> for Dyn {
    type Ok = ();
}
/// A run-time destination: checked when the op runs.
impl<const N: usize> BroadcastsTo<Dyn> for Dim<N> {
    type Ok = ();
}
/// 1 to a run-time destination: always.
impl BroadcastsTo<Dyn> for One {
    type Ok = ();
}

/// One brand to itself: equal.
impl<'id: 'other, 'other> BroadcastsTo<Branded<'other>> for Branded<'id> {
    type Ok = ();
}
/// A branded source to a static or run-time destination: checked when the op runs.
impl<const N: usize> BroadcastsTo<Dim<N>> for Branded<'_> {
    type Ok = ();
}
/// A branded source to 1: checked when the op runs (it must be 1).
impl BroadcastsTo<One> for Branded<'_> {
    type Ok = ();
}
/// A branded source to a run-time destination: checked when the op runs.
impl BroadcastsTo<Dyn> for Branded<'_> {
    type Ok = ();
}
/// N to a branded destination: checked when the op runs.
impl<const N: usize> BroadcastsTo<Branded<'_>> for Dim<N> {
    type Ok = ();
}
/// 1 to a branded destination: always.
impl BroadcastsTo<Branded<'_>> for One {
    type Ok = ();
}

/// A trailing dim that runs past the other operand's last dim may be dropped:
/// it is 1 (Paddle's axis rule ignores trailing 1s).
#[diagnostic::on_unimplemented(
    message = "dim {Self} cannot be dropped: only a trailing dim of size 1 can",
    label = "this dim runs past the end and is not 1"
)]
///
/// ```
/// use shapecheck::algebra::Droppable;
/// use shapecheck::{Dyn, One};
/// fn droppable<D: Droppable>() {}
/// droppable::<One>();
/// droppable::<Dyn>(); // checked when the op runs
/// ```
#[doc(hidden)]
pub trait Droppable: DimLike {
    /// `()`, as [`BroadcastsTo::Ok`].
    type Ok;
}

/// 1 can be dropped.
impl Droppable for One {
    type Ok = ();
}
/// A run-time dim: checked when the op runs (it must be 1).
impl Droppable for Dyn {
    type Ok = ();
}
/// A branded dim: checked when the op runs (it must be 1).
impl Droppable for Branded<'_> {
    type Ok = ();
}

/// The dim is 1: a single row or column where an op needs exactly one (the
/// second dim of multiplex's index).
#[diagnostic::on_unimplemented(message = "dim {Self} is not 1", label = "this dim must be 1")]
///
/// ```
/// use shapecheck::algebra::IsOne;
/// use shapecheck::{Dim, Dyn, One};
/// fn one<D: IsOne>() {}
/// one::<One>();
/// one::<Dim<1>>();
/// one::<Dyn>(); // checked when the op runs
/// ```
#[doc(hidden)]
pub trait IsOne: DimLike {}

/// 1.
impl IsOne for One {}
/// A hand-written `Dim<1>`.
impl IsOne for Dim<1> {}
/// A run-time dim: checked when the op runs (it must be 1).
impl IsOne for Dyn {}
/// A branded dim: checked when the op runs (it must be 1).
impl IsOne for Branded<'_> {}
