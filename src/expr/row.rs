//! One output row of a tree whose every leaf walks along the row (no leaf
//! repeats there): each node bound to the row, so the whole tree is
//! computed element by element in one loop (`out[i] = row.at(i, current)`), every
//! leaf read as a slice of exactly the row's length. This is the common
//! case of big tensors (F1, F2, W1 after the walk merges dims); trees with
//! a leaf that repeats along the row go piece by piece ([`super::Node::write`]).

use crate::element::Element;
use crate::ops::elementwise::{Activation, BinaryOp};
use core::marker::PhantomData;

/// The values of a node along one row: `at(i, current)` for `i` below the
/// row's length (0 past it, which the loop never asks), where `current` is
/// the output's value there before it is written (what a [`PlaceRow`], the
/// operand an in-place evaluation writes into, reads).
#[doc(hidden)]
pub trait RowValues<T> {
    /// The value at position `i` of the row.
    fn at(&self, i: usize, current: T) -> T;
}

/// A leaf's row: `data[i * step]`, `step` 1 (a slice of the row's length)
/// or 0 (one value repeated). Without `STRIDED` every leaf walks the row
/// (`step` is 1 and not read), so the loop is a plain zip of slices.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct LeafRow<'r, T, const STRIDED: bool> {
    pub(crate) data: &'r [T],
    pub(crate) step: usize,
}

impl<T: Element, const STRIDED: bool> RowValues<T> for LeafRow<'_, T, STRIDED> {
    #[inline(always)]
    fn at(&self, i: usize, _current: T) -> T {
        let i = if STRIDED { i * self.step } else { i };
        self.data.get(i).copied().unwrap_or_default()
    }
}

/// A constant's row: the constant.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ScalarRow<T>(pub(crate) T);

impl<T: Copy> RowValues<T> for ScalarRow<T> {
    #[inline(always)]
    fn at(&self, _i: usize, _current: T) -> T {
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
    fn at(&self, i: usize, current: T) -> T {
        super::node::op_fn::<T>(Op::KIND)(self.l.at(i, current), self.r.at(i, current))
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

impl<T: Copy, L: RowValues<T>, R: RowValues<T>, F: Fn(T, T) -> T> RowValues<T>
    for ZipRow<'_, L, R, F>
{
    #[inline(always)]
    fn at(&self, i: usize, current: T) -> T {
        (self.f)(self.l.at(i, current), self.r.at(i, current))
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
    fn at(&self, i: usize, current: T) -> T {
        A::KIND.apply(self.node.at(i, current))
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
    fn at(&self, i: usize, current: T) -> T {
        (self.f)(self.node.at(i, current))
    }
}

/// `cond ? then : else` along a row (branch-free, as the select kernel).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct SelectRow<'r, Th, El, const STRIDED: bool> {
    pub(crate) cond: LeafRow<'r, bool, STRIDED>,
    pub(crate) then: Th,
    pub(crate) els: El,
}

impl<T: Copy, Th: RowValues<T>, El: RowValues<T>, const STRIDED: bool> RowValues<T>
    for SelectRow<'_, Th, El, STRIDED>
{
    #[inline(always)]
    fn at(&self, i: usize, current: T) -> T {
        let i_cond = if STRIDED { i * self.cond.step } else { i };
        let c = self.cond.data.get(i_cond).copied().unwrap_or(false);
        core::hint::select_unpredictable(c, self.then.at(i, current), self.els.at(i, current))
    }
}

/// The operand an in-place evaluation writes into, along a row: the
/// output's own value at `i`, read before it is written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct PlaceRow;

impl<T> RowValues<T> for PlaceRow {
    #[inline(always)]
    fn at(&self, _i: usize, current: T) -> T {
        current
    }
}
