//! One output row of a tree whose every leaf walks along the row (no leaf
//! repeats there): each node bound to the row, so the whole tree is
//! computed element by element in one loop (`out[i] = row.at(i)`), every
//! leaf read as a slice of exactly the row's length. This is the common
//! case of big tensors (F1, F2, W1 after the walk merges dims); trees with
//! a leaf that repeats along the row go piece by piece ([`super::Node::write`]).

use crate::element::Element;
use crate::ops::elementwise::{Activation, BinaryOp};
use core::marker::PhantomData;

/// The values of a node along one row: `at(i)` for `i` below the row's
/// length (0 past it, which the loop never asks).
#[doc(hidden)]
pub trait RowValues<T> {
    /// The value at position `i` of the row.
    fn at(&self, i: usize) -> T;
}

/// A leaf's row: a slice of the row's length.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct LeafRow<'r, T>(pub(crate) &'r [T]);

impl<T: Element> RowValues<T> for LeafRow<'_, T> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        self.0.get(i).copied().unwrap_or_default()
    }
}

/// A constant's row: the constant.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ScalarRow<T>(pub(crate) T);

impl<T: Copy> RowValues<T> for ScalarRow<T> {
    #[inline(always)]
    fn at(&self, _i: usize) -> T {
        self.0
    }
}

/// `l op r` along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct BinaryRow<L, R, Op> {
    pub(crate) l: L,
    pub(crate) r: R,
    pub(crate) op: PhantomData<Op>,
}

impl<T: Element, L: RowValues<T>, R: RowValues<T>, Op: BinaryOp> RowValues<T>
    for BinaryRow<L, R, Op>
{
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        super::node::op_fn::<T>(Op::KIND)(self.l.at(i), self.r.at(i))
    }
}

/// `f(l, r)` along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ZipRow<'r, L, R, F> {
    pub(crate) l: L,
    pub(crate) r: R,
    pub(crate) f: &'r F,
}

impl<T, L: RowValues<T>, R: RowValues<T>, F: Fn(T, T) -> T> RowValues<T> for ZipRow<'_, L, R, F> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        (self.f)(self.l.at(i), self.r.at(i))
    }
}

/// An activation along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ActivateRow<N, A> {
    pub(crate) node: N,
    pub(crate) act: PhantomData<A>,
}

impl<T: Element, N: RowValues<T>, A: Activation> RowValues<T> for ActivateRow<N, A> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        A::KIND.apply(self.node.at(i))
    }
}

/// `f(v)` along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct MapRow<'r, N, F> {
    pub(crate) node: N,
    pub(crate) f: &'r F,
}

impl<T, N: RowValues<T>, F: Fn(T) -> T> RowValues<T> for MapRow<'_, N, F> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        (self.f)(self.node.at(i))
    }
}

/// `cond ? then : else` along a row (branch-free, as the select kernel).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct SelectRow<'r, Th, El> {
    pub(crate) cond: &'r [bool],
    pub(crate) then: Th,
    pub(crate) els: El,
}

impl<T, Th: RowValues<T>, El: RowValues<T>> RowValues<T> for SelectRow<'_, Th, El> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        let c = self.cond.get(i).copied().unwrap_or(false);
        core::hint::select_unpredictable(c, self.then.at(i), self.els.at(i))
    }
}
