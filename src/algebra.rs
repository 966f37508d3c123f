//! The dim algebra: how two dims relate, written once for every op.
//!
//! Six relations, each a plain trait with one plain impl per pair of dim
//! kinds ([`Dim<N>`], [`One`], [`Dyn`]), each impl with a line saying why it
//! holds:
//!
//! | relation | holds when | output dim |
//! |---|---|---|
//! | [`SameDim`] | the two dims are equal | the common dim |
//! | [`Broadcast`] | equal, or either is 1 (numpy, both ways) | the larger |
//! | [`BroadcastsTo`] | the source equals the destination or is 1 (one way) | (the destination) |
//! | [`Droppable`] | a dim past the end that may be dropped: it is 1 | (none) |
//! | [`IsOne`] | the dim is 1 (a hand-written `Dim<1>` too) | (none) |
//! | [`NeedsNoCheck`] | whether the two broadcast is known without running: both static, or a `Dyn` against 1 | (none) |
//!
//! A [`Dyn`] dim passes every relation here: the compiler cannot know its
//! size, so the op's run-time rule checks it when the op runs (the `try_`
//! forms) and returns a typed error. The output dim is then the most static
//! one the compiler can name (`Dyn` meeting `Dim<N>` gives `Dim<N>`, since the
//! run-time check makes them equal). [`NeedsNoCheck`] says which pairs need
//! no such check: the plain (not `try_`) forms of an op require it, so that
//! a `Dyn` dim that meets only a 1 keeps them (its output dim is the `Dyn`).
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
//! let d: Dim<3> = Dim::<3>.broadcast(One);
//! assert_eq!(d, Dim::<3>);
//! // a run-time dim meeting a static one: checked when the op runs
//! let e: Dim<3> = Dyn(3).same(Dim::<3>);
//! assert_eq!(e, Dim::<3>);
//! ```
//!
//! ```compile_fail
//! use shapecheck::algebra::Broadcast;
//! use shapecheck::Dim;
//! let _ = Dim::<3>.broadcast(Dim::<4>); // 3 and 4 differ and neither is 1
//! ```

use crate::dim::{Dim, DimLike, Dyn, One};

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
/// fn common<A: SameDim<B>, B: shapecheck::DimLike>(a: A, b: B) -> A::Out {
///     a.same(b)
/// }
/// assert_eq!(common(Dim::<3>, Dim::<3>), Dim::<3>);
/// assert_eq!(common(One, Dyn(1)), One); // the run-time 1 is checked by the op
/// ```
pub trait SameDim<Other: DimLike>: DimLike {
    /// The common dim.
    type Out: DimLike;
    /// The common dim's value.
    ///
    /// ```
    /// use shapecheck::algebra::SameDim;
    /// use shapecheck::{Dim, Dyn};
    /// assert_eq!(Dyn(4).same(Dyn(4)), Dyn(4));
    /// assert_eq!(Dim::<2>.same(Dyn(2)), Dim::<2>);
    /// ```
    fn same(self, other: Other) -> Self::Out;
}

/// Equal static sizes.
impl<const N: usize> SameDim<Dim<N>> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dim<N>) -> Dim<N> {
        Dim
    }
}

/// 1 and 1.
impl SameDim<One> for One {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: One) -> One {
        One
    }
}

/// A run-time dim against a static one: checked when the op runs.
impl<const N: usize> SameDim<Dim<N>> for Dyn {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dim<N>) -> Dim<N> {
        Dim
    }
}

/// A static dim against a run-time one: checked when the op runs.
impl<const N: usize> SameDim<Dyn> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, _other: Dyn) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against 1: checked when the op runs.
impl SameDim<One> for Dyn {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: One) -> One {
        One
    }
}

/// 1 against a run-time dim: checked when the op runs.
impl SameDim<Dyn> for One {
    type Out = One;
    #[inline(always)]
    fn same(self, _other: Dyn) -> One {
        One
    }
}

/// Two run-time dims: checked when the op runs.
impl SameDim<Dyn> for Dyn {
    type Out = Dyn;
    #[inline(always)]
    fn same(self, _other: Dyn) -> Dyn {
        self
    }
}

/// The two dims broadcast (numpy, both ways): equal, or either is 1. `Out`
/// is the broadcast dim (the one that is not 1).
#[diagnostic::on_unimplemented(
    message = "dims {Self} and {Other} do not broadcast: they differ and neither is 1",
    label = "these dims must be equal or one of them 1"
)]
///
/// ```
/// use shapecheck::algebra::Broadcast;
/// use shapecheck::{Dim, Dyn, One};
/// assert_eq!(One.broadcast(Dim::<5>), Dim::<5>);
/// // two run-time dims: the output is the one that is not 1
/// assert_eq!(Dyn(1).broadcast(Dyn(7)), Dyn(7));
/// ```
pub trait Broadcast<Other: DimLike>: DimLike {
    /// The broadcast dim.
    type Out: DimLike;
    /// The broadcast dim's value.
    ///
    /// ```
    /// use shapecheck::algebra::Broadcast;
    /// use shapecheck::{Dim, Dyn, One};
    /// assert_eq!(Dim::<4>.broadcast(Dim::<4>), Dim::<4>);
    /// assert_eq!(Dyn(3).broadcast(One), Dyn(3));
    /// ```
    fn broadcast(self, other: Other) -> Self::Out;
}

/// Equal static sizes.
impl<const N: usize> Broadcast<Dim<N>> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>) -> Dim<N> {
        Dim
    }
}

/// 1 and 1.
impl Broadcast<One> for One {
    type Out = One;
    #[inline(always)]
    fn broadcast(self, _other: One) -> One {
        One
    }
}

/// N against 1: the 1 is repeated.
impl<const N: usize> Broadcast<One> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: One) -> Dim<N> {
        Dim
    }
}

/// 1 against N: the 1 is repeated.
impl<const N: usize> Broadcast<Dim<N>> for One {
    type Out = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against N: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Dim<N>> for Dyn {
    type Out = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dim<N>) -> Dim<N> {
        Dim
    }
}

/// N against a run-time dim: checked when the op runs (it must be N or 1).
impl<const N: usize> Broadcast<Dyn> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn broadcast(self, _other: Dyn) -> Dim<N> {
        Dim
    }
}

/// A run-time dim against 1: always broadcasts, the output is the run-time dim.
impl Broadcast<One> for Dyn {
    type Out = Dyn;
    #[inline(always)]
    fn broadcast(self, _other: One) -> Dyn {
        self
    }
}

/// 1 against a run-time dim: always broadcasts, the output is the run-time dim.
impl Broadcast<Dyn> for One {
    type Out = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Dyn) -> Dyn {
        other
    }
}

/// Two run-time dims: checked when the op runs; the output is the one that is not 1.
impl Broadcast<Dyn> for Dyn {
    type Out = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Dyn) -> Dyn {
        if self.0 == 1 {
            other
        } else {
            self
        }
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
pub trait IsOne: DimLike {}

/// 1.
impl IsOne for One {}
/// A hand-written `Dim<1>`.
impl IsOne for Dim<1> {}
/// A run-time dim: checked when the op runs (it must be 1).
impl IsOne for Dyn {}

/// [`Broadcast`] of the two dims is decided without running the op: both are
/// static (the compiler decides, and a pair that differs is rejected by
/// [`Broadcast`] itself, not here), or a run-time dim meets 1 (which
/// broadcasts against any size). Not implemented where a [`Dyn`] meets a
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
pub trait NeedsNoCheck<Other: DimLike>: DimLike {}

/// Two static sizes: the compiler decides.
impl<const N: usize, const M: usize> NeedsNoCheck<Dim<M>> for Dim<N> {}
/// N against 1: broadcasts.
impl<const N: usize> NeedsNoCheck<One> for Dim<N> {}
/// 1 against N: broadcasts.
impl<const N: usize> NeedsNoCheck<Dim<N>> for One {}
/// 1 and 1.
impl NeedsNoCheck<One> for One {}
/// A run-time dim against 1: broadcasts whatever its size.
impl NeedsNoCheck<One> for Dyn {}
/// 1 against a run-time dim: broadcasts whatever its size.
impl NeedsNoCheck<Dyn> for One {}
