//! The dim algebra for a capacity-bounded dim ([`Bounded<C>`](crate::dim::Bounded)).
//!
//! `Bounded<C>` is a run-time dim at most `C`: against a static dim, a `Dyn`,
//! a brand or another `Bounded` it is checked when the op runs (the `try_`
//! forms; `SameDim` takes two of one capacity, through its one impl for a
//! dim meeting itself); against 1 it needs no check. Where the check makes it equal to a
//! more static dim, the output is that dim; where either side may be the 1
//! that repeats, the output is a `Dyn` (the result may exceed `C`).

use super::{Broadcast, BroadcastsTo, Droppable, Internal, IsOne, NeedsNoCheck, SameDim};
use crate::dim::{Bounded, Branded, Dim, DimLike, Dyn, One};

/// A bounded dim against a static one: checked when the op runs.
impl<const C: usize, const N: usize> SameDim<Dim<N>> for Bounded<C> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, other: Dim<N>, _: Internal) -> Dim<N> {
        let _ = (self, other);
        Dim
    }
}

/// A static dim against a bounded one: checked when the op runs.
impl<const C: usize, const N: usize> SameDim<Bounded<C>> for Dim<N> {
    type Out = Dim<N>;
    #[inline(always)]
    fn same(self, other: Bounded<C>, _: Internal) -> Dim<N> {
        let _ = other;
        self
    }
}

/// A bounded dim against 1: checked when the op runs.
impl<const C: usize> SameDim<One> for Bounded<C> {
    type Out = One;
    #[inline(always)]
    fn same(self, other: One, _: Internal) -> One {
        let _ = self;
        other
    }
}

/// 1 against a bounded dim: checked when the op runs.
impl<const C: usize> SameDim<Bounded<C>> for One {
    type Out = One;
    #[inline(always)]
    fn same(self, other: Bounded<C>, _: Internal) -> One {
        let _ = other;
        self
    }
}

/// A bounded dim against a run-time one: checked when the op runs, so the
/// output keeps the capacity.
impl<const C: usize> SameDim<Dyn> for Bounded<C> {
    type Out = Bounded<C>;
    #[inline(always)]
    fn same(self, other: Dyn, _: Internal) -> Bounded<C> {
        let _ = other;
        self
    }
}

/// A run-time dim against a bounded one: checked when the op runs, so the
/// output keeps the capacity.
impl<const C: usize> SameDim<Bounded<C>> for Dyn {
    type Out = Bounded<C>;
    #[inline(always)]
    fn same(self, other: Bounded<C>, _: Internal) -> Bounded<C> {
        let _ = self;
        other
    }
}

/// A bounded dim against a branded one: checked when the op runs, so the
/// output keeps the brand.
impl<'id, const C: usize> SameDim<Branded<'id>> for Bounded<C> {
    type Out = Branded<'id>;
    #[inline(always)]
    fn same(self, other: Branded<'id>, _: Internal) -> Branded<'id> {
        let _ = self;
        other
    }
}

/// A branded dim against a bounded one: checked when the op runs, so the
/// output keeps the brand.
impl<'id, const C: usize> SameDim<Bounded<C>> for Branded<'id> {
    type Out = Branded<'id>;
    #[inline(always)]
    fn same(self, other: Bounded<C>, _: Internal) -> Branded<'id> {
        let _ = other;
        self
    }
}

/// A bounded dim against N: checked when the op runs (it must be N or 1).
impl<const C: usize, const N: usize> Broadcast<Dim<N>> for Bounded<C> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, other: Dim<N>, _: Internal) -> Dim<N> {
        let _ = self;
        other
    }
}

/// N against a bounded dim: checked when the op runs (it must be N or 1).
impl<const C: usize, const N: usize> Broadcast<Bounded<C>> for Dim<N> {
    type Broadcast = Dim<N>;
    #[inline(always)]
    fn broadcast(self, other: Bounded<C>, _: Internal) -> Dim<N> {
        let _ = other;
        self
    }
}

/// A bounded dim against 1: always broadcasts, the output keeps the capacity.
impl<const C: usize> Broadcast<One> for Bounded<C> {
    type Broadcast = Bounded<C>;
    #[inline(always)]
    fn broadcast(self, other: One, _: Internal) -> Bounded<C> {
        let _ = other;
        self
    }
}

/// A bounded dim against a run-time one: checked when the op runs; either
/// may be the 1 that repeats, so the output is a run-time dim.
impl<const C: usize> Broadcast<Dyn> for Bounded<C> {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Dyn, _: Internal) -> Dyn {
        if self.size() == 1 {
            other
        } else {
            Dyn(self.size())
        }
    }
}

/// A run-time dim against a bounded one: as the pair the other way round.
impl<const C: usize> Broadcast<Bounded<C>> for Dyn {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Bounded<C>, _: Internal) -> Dyn {
        if self.size() == 1 {
            Dyn(other.size())
        } else {
            self
        }
    }
}

/// A bounded dim twice: checked when the op runs; the output is the one
/// that is not 1, still at most `C` (so a result stays in a `Room`).
impl<const C: usize> Broadcast<Bounded<C>> for Bounded<C> {
    type Broadcast = Bounded<C>;
    #[inline(always)]
    fn broadcast(self, other: Bounded<C>, _: Internal) -> Bounded<C> {
        if self.size() == 1 {
            other
        } else {
            self
        }
    }
}

/// A bounded dim against a branded one: checked when the op runs; either
/// may be the 1 that repeats, so the output is a run-time dim.
impl<const C: usize> Broadcast<Branded<'_>> for Bounded<C> {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Branded<'_>, _: Internal) -> Dyn {
        if self.size() == 1 {
            Dyn(other.size())
        } else {
            Dyn(self.size())
        }
    }
}

/// A branded dim against a bounded one: as the pair the other way round.
impl<const C: usize> Broadcast<Bounded<C>> for Branded<'_> {
    type Broadcast = Dyn;
    #[inline(always)]
    fn broadcast(self, other: Bounded<C>, _: Internal) -> Dyn {
        if self.size() == 1 {
            Dyn(other.size())
        } else {
            Dyn(self.size())
        }
    }
}

/// A bounded source: checked when the op runs (it must equal the
/// destination or be 1).
impl<const C: usize, D: DimLike> BroadcastsTo<D> for Bounded<C> {
    type Ok = ();
}
/// N to a bounded destination: checked when the op runs.
impl<const C: usize, const N: usize> BroadcastsTo<Bounded<C>> for Dim<N> {
    type Ok = ();
}
/// 1 to a bounded destination: always.
impl<const C: usize> BroadcastsTo<Bounded<C>> for One {
    type Ok = ();
}
/// A branded source to a bounded destination: checked when the op runs.
impl<const C: usize> BroadcastsTo<Bounded<C>> for Branded<'_> {
    type Ok = ();
}
/// A bounded dim: checked when the op runs (it must be 1).
impl<const C: usize> Droppable for Bounded<C> {
    type Ok = ();
}
/// A bounded dim: checked when the op runs (it must be 1).
impl<const C: usize> IsOne for Bounded<C> {}
/// A bounded dim against 1: broadcasts whatever its size.
impl<const C: usize> NeedsNoCheck<One> for Bounded<C> {}
/// 1 against a bounded dim: broadcasts whatever its size.
impl<const C: usize> NeedsNoCheck<Bounded<C>> for One {}
