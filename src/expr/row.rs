//! One output row of a tree whose every leaf walks along the row (no leaf
//! repeats there): each node bound to the row, so the whole tree is
//! computed element by element in one loop (`out[i] = row.at(i, current)`), every
//! leaf read as a slice of exactly the row's length. This is the common
//! case of big tensors (F1, F2, W1 after the walk merges dims); trees with
//! a leaf that repeats along the row go piece by piece ([`super::Node::write`]).

use crate::element::Element;
use crate::ops::elementwise::{Activation, ActivationKind, BinaryOp, BinaryOpKind};
use core::marker::PhantomData;

/// `a op b` as the elementwise kernel computes it (same functions, so a
/// fused expression gives the plain ops' values bit for bit).
#[inline(always)]
pub(crate) fn op_fn<T: Element>(op: BinaryOpKind) -> fn(T, T) -> T {
    match op {
        BinaryOpKind::Mul => T::mul,
        BinaryOpKind::Add => T::add,
        BinaryOpKind::Sub => T::sub,
        BinaryOpKind::Div => T::div,
        BinaryOpKind::Max => |a, b| if a > b { a } else { b },
        BinaryOpKind::Min => |a, b| if a < b { a } else { b },
    }
}

/// The values of a node along one row: `at(i, current)` for `i` below the
/// row's length (0 past it, which the loop never asks), where `current` is
/// the output's value there before it is written (what a [`PlaceRow`], the
/// operand an in-place evaluation writes into, reads).
#[doc(hidden)]
pub trait RowValues<T> {
    /// The value at position `i` of the row.
    fn at(&self, i: usize, current: T) -> T;
    /// What this node's backward needs from the forward at one position:
    /// its children's values there, and theirs below them (a tuple as deep
    /// as the tree, which stays in registers).
    type Tape: Copy + Default;
    /// The value at position `i` and its tape: each node of the tree
    /// computed once, for [`back`](Self::back).
    fn record(&self, i: usize) -> (T, Self::Tape);
    /// Backward at position `i`: `g` is the gradient of this node's value
    /// there, `tape` what [`record`](Self::record) kept; each leaf below
    /// receives its share as `sink(leaf, position in the leaf's data,
    /// gradient)` (added there: a leaf that repeats along the row sums its
    /// row's shares, the reduction back to its shape). Only the nodes of
    /// [`super::Backward`] are asked.
    fn back<F: FnMut(usize, usize, T)>(&self, i: usize, g: T, tape: &Self::Tape, sink: &mut F);
}

/// A leaf's row: `data[i * step]`, `step` 1 (a slice of the row's length)
/// or 0 (one value repeated). Without `STRIDED` every leaf walks the row
/// (`step` is 1 and not read), so the loop is a plain zip of slices.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct LeafRow<'r, T, const STRIDED: bool> {
    pub(crate) data: &'r [T],
    pub(crate) step: usize,
    /// The leaf's number in the tree and where `data` starts in the
    /// leaf's elements (for [`RowValues::back`]).
    pub(crate) leaf: usize,
    pub(crate) base: usize,
}

impl<T: Element, const STRIDED: bool> RowValues<T> for LeafRow<'_, T, STRIDED> {
    #[inline(always)]
    fn at(&self, i: usize, _current: T) -> T {
        let i = if STRIDED { i * self.step } else { i };
        self.data.get(i).copied().unwrap_or_default()
    }
    type Tape = ();
    #[inline(always)]
    fn record(&self, i: usize) -> (T, ()) {
        (self.at(i, T::default()), ())
    }
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, i: usize, g: T, _: &(), sink: &mut F) {
        let i = if STRIDED { i * self.step } else { i };
        sink(self.leaf, self.base + i, g);
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
    type Tape = ();
    #[inline(always)]
    fn record(&self, _i: usize) -> (T, ()) {
        (self.0, ())
    }
    /// A constant has no gradient.
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, _i: usize, _g: T, _: &(), _sink: &mut F) {}
}

/// `l op r` along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct BinaryRow<L, R, Op> {
    pub(crate) l: L,
    pub(crate) r: R,
    pub(crate) op: PhantomData<fn() -> Op>,
}

impl<T: Element, L: RowValues<T>, R: RowValues<T>, Op: BinaryOp> RowValues<T>
    for BinaryRow<L, R, Op>
{
    #[inline(always)]
    fn at(&self, i: usize, current: T) -> T {
        op_fn::<T>(Op::KIND)(self.l.at(i, current), self.r.at(i, current))
    }
    /// The two operands' values, then their tapes.
    type Tape = (T, T, L::Tape, R::Tape);
    #[inline(always)]
    fn record(&self, i: usize) -> (T, Self::Tape) {
        let (a, ta) = self.l.record(i);
        let (b, tb) = self.r.record(i);
        (op_fn::<T>(Op::KIND)(a, b), (a, b, ta, tb))
    }
    /// The derivative of each op (Paddle's elementwise grad kernels): mul
    /// `(g·b, g·a)`, add `(g, g)`, sub `(g, -g)`, div `(g / b, -(g · a/b) / b)`,
    /// max and min the whole of `g` to the larger (smaller) side, split
    /// evenly on a tie.
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, i: usize, g: T, tape: &Self::Tape, sink: &mut F) {
        let zero = T::default();
        let (a, b, ta, tb) = tape;
        let (a, b) = (*a, *b);
        let half = T::mul(g, T::from_f64(0.5));
        let (ga, gb) = match Op::KIND {
            BinaryOpKind::Mul => (T::mul(g, b), T::mul(g, a)),
            BinaryOpKind::Add => (g, g),
            BinaryOpKind::Sub => (g, T::sub(zero, g)),
            BinaryOpKind::Div => (
                T::div(g, b),
                T::sub(zero, T::div(T::mul(g, T::div(a, b)), b)),
            ),
            BinaryOpKind::Max if a > b => (g, zero),
            BinaryOpKind::Max if a < b => (zero, g),
            BinaryOpKind::Min if a < b => (g, zero),
            BinaryOpKind::Min if a > b => (zero, g),
            BinaryOpKind::Max | BinaryOpKind::Min => (half, half),
        };
        self.l.back(i, ga, ta, sink);
        self.r.back(i, gb, tb, sink);
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

impl<T: Copy + Default, L: RowValues<T>, R: RowValues<T>, F: Fn(T, T) -> T> RowValues<T>
    for ZipRow<'_, L, R, F>
{
    #[inline(always)]
    fn at(&self, i: usize, current: T) -> T {
        (self.f)(self.l.at(i, current), self.r.at(i, current))
    }
    type Tape = ();
    #[inline(always)]
    fn record(&self, i: usize) -> (T, ()) {
        (self.at(i, T::default()), ())
    }
    /// A function of the caller's has no known derivative: `zip_with` is
    /// not a [`super::Backward`] node, so this is not asked.
    #[inline(always)]
    fn back<G: FnMut(usize, usize, T)>(&self, _i: usize, _g: T, _: &(), _sink: &mut G) {}
}

/// An activation along a row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ActivateRow<N, A> {
    pub(crate) node: N,
    pub(crate) act: PhantomData<fn() -> A>,
}

impl<T: Element, N: RowValues<T>, A: Activation> RowValues<T> for ActivateRow<N, A> {
    #[inline(always)]
    fn at(&self, i: usize, current: T) -> T {
        A::KIND.apply(self.node.at(i, current))
    }
    /// The activation's derivative from its output, as Paddle's grad
    /// kernels take it: relu `g` where the output is above 0, tanh
    /// `g·(1 - out²)`, sigmoid `g·out·(1 - out)`.
    /// The activation's output, then its operand's tape.
    type Tape = (T, N::Tape);
    #[inline(always)]
    fn record(&self, i: usize) -> (T, Self::Tape) {
        let (v, t) = self.node.record(i);
        let out = A::KIND.apply(v);
        (out, (out, t))
    }
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, i: usize, g: T, tape: &Self::Tape, sink: &mut F) {
        let zero = T::default();
        let (out, below) = tape;
        let out = *out;
        let one = T::from_f64(1.0);
        let g = match A::KIND {
            ActivationKind::Identity => g,
            ActivationKind::Relu => {
                if out > zero {
                    g
                } else {
                    zero
                }
            }
            ActivationKind::Tanh => T::mul(g, T::sub(one, T::mul(out, out))),
            ActivationKind::Sigmoid => T::mul(g, T::mul(out, T::sub(one, out))),
        };
        self.node.back(i, g, below, sink);
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
    type Tape = ();
    #[inline(always)]
    fn record(&self, i: usize) -> (T, ()) {
        (self.node.record(i).0, ())
    }
    /// A function of the caller's has no known derivative: `map` is not a
    /// [`super::Backward`] node, so this is not asked.
    #[inline(always)]
    fn back<G: FnMut(usize, usize, T)>(&self, _i: usize, _g: T, _: &(), _sink: &mut G) {}
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
        let c = self.cond_at(i);
        core::hint::select_unpredictable(c, self.then.at(i, current), self.els.at(i, current))
    }
    /// The chosen branch's tape (the other's is left at its default).
    type Tape = (Th::Tape, El::Tape);
    #[inline(always)]
    fn record(&self, i: usize) -> (T, Self::Tape) {
        if self.cond_at(i) {
            let (v, t) = self.then.record(i);
            (v, (t, El::Tape::default()))
        } else {
            let (v, e) = self.els.record(i);
            (v, (Th::Tape::default(), e))
        }
    }
    /// `g` to then where cond holds, to else elsewhere; cond has none.
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, i: usize, g: T, tape: &Self::Tape, sink: &mut F) {
        if self.cond_at(i) {
            self.then.back(i, g, &tape.0, sink);
        } else {
            self.els.back(i, g, &tape.1, sink);
        }
    }
}

impl<Th, El, const STRIDED: bool> SelectRow<'_, Th, El, STRIDED> {
    /// cond at position `i` of the row.
    #[inline(always)]
    fn cond_at(&self, i: usize) -> bool {
        let i = if STRIDED { i * self.cond.step } else { i };
        self.cond.data.get(i).copied().unwrap_or(false)
    }
}

/// The operand an in-place evaluation writes into, along a row: the
/// output's own value at `i`, read before it is written.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct PlaceRow;

impl<T: Default> RowValues<T> for PlaceRow {
    #[inline(always)]
    fn at(&self, _i: usize, current: T) -> T {
        current
    }
    type Tape = ();
    /// Not asked: an in-place evaluation has no backward.
    #[inline(always)]
    fn record(&self, _i: usize) -> (T, ()) {
        (T::default(), ())
    }
    /// An in-place evaluation has no backward: not asked.
    #[inline(always)]
    fn back<F: FnMut(usize, usize, T)>(&self, _i: usize, _g: T, _: &(), _sink: &mut F) {}
}
