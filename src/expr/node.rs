//! The nodes of a fused expression and how each computes a piece of the
//! output.
//!
//! Every node type says three things: its output shape as a type (the plain
//! op's rule trait computes it, so a node that does not fit is a compile
//! error where it is built), its [`Plan`] (the run-time rule, a constant
//! when every leaf is static), and how to compute a piece of the output:
//! [`Node::write`] puts the node's values into the piece, [`Node::combine`]
//! folds them into values already there (`out[i] = f(out[i], node[i])`).
//! A piece is at most [`TILE`] elements of one output row, so a node's
//! values never leave the cache: a binary node writes its left child into
//! the piece and folds its right child in, and only a right child that is
//! itself a node (not a tensor or a constant) needs a stack array of one
//! piece. The leaves (a tensor, the in-place output, a constant) are in
//! `leaf.rs`.

use super::plan::Plan;
use super::row::{op_fn, ActivateRow, BinaryRow, LeafRow, MapRow, RowValues, SelectRow, ZipRow};
use super::ExprError;
use crate::element::Element;
use crate::ops::elementwise::{Activation, BinaryOp};
use crate::ops::select::SelectMode;
use crate::ops::StaticShape;
use crate::shape::{FixedShape, PlaceholderDims, Shape};
use core::marker::PhantomData;

/// The most output elements a node computes at once: one piece of a row.
pub const TILE: usize = 64;

/// Where the piece being computed sits: each leaf's offset at the start of
/// its output row, whether the leaf walks along the row (1) or repeats (0),
/// and the piece's start in the row.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    pub(crate) offsets: &'a [usize],
    pub(crate) inner: &'a [usize],
    pub(crate) start: usize,
}

/// What leaf `k` holds for a piece of `len` elements.
pub(super) enum Part<'d, T> {
    /// The leaf walks along the row: its `len` elements.
    Row(&'d [T]),
    /// The leaf repeats along the row: one value.
    Repeat(T),
}

impl Piece<'_> {
    /// Leaf `k`'s part of the piece. `None` cannot happen for a plan that
    /// matches the leaves (the walk stays inside every operand); the piece
    /// is then left as it is.
    #[inline(always)]
    pub(super) fn part<'d, T: Copy>(
        &self,
        k: usize,
        data: &'d [T],
        len: usize,
    ) -> Option<Part<'d, T>> {
        let off = self.offsets.get(k).copied().unwrap_or(0);
        if self.inner.get(k).copied().unwrap_or(0) == 1 {
            let from = off.checked_add(self.start)?;
            data.get(from..from.checked_add(len)?).map(Part::Row)
        } else {
            data.get(off).copied().map(Part::Repeat)
        }
    }
}

/// Leaf `k`'s row of `len` elements: `len` values where it walks along the
/// row, one where it repeats (only when `STRIDED`).
#[inline(always)]
pub(super) fn leaf_row<'d, T, const STRIDED: bool>(
    data: &'d [T],
    k: usize,
    at: &Piece<'_>,
    len: usize,
) -> Option<LeafRow<'d, T, STRIDED>> {
    let off = *at.offsets.get(k)?;
    let step = at.inner.get(k).copied().unwrap_or(0);
    if STRIDED && step != 1 {
        return data.get(off..off.checked_add(1)?).map(|d| LeafRow {
            data: d,
            step: 0,
            leaf: k,
            base: off,
        });
    }
    let from = off.checked_add(at.start)?;
    let data = data.get(from..from.checked_add(len)?)?;
    Some(LeafRow {
        data,
        step: 1,
        leaf: k,
        base: from,
    })
}

/// A static shape's element count (`None` for a shape with a run-time dim).
// the index is below the slice's length
#[allow(clippy::indexing_slicing)]
pub(super) const fn static_len<S: Shape>() -> Option<usize> {
    if !S::IS_STATIC {
        return None;
    }
    let dims = <S::Placeholder<1> as PlaceholderDims>::DIMS;
    let mut n = 1usize;
    let mut i = 0;
    while i < dims.len() {
        n = n.saturating_mul(dims[i]);
        i += 1;
    }
    Some(n)
}

/// A node of a fused expression over elements `T` (sealed: the node types
/// of this module are the whole list). `Sync`, so that one evaluation can
/// share the tree between threads (feature `rayon`): the function of a
/// `map` or `zip_with` node is `Sync` (every closure that captures no
/// `Cell` or `Rc` is).
#[doc(hidden)]
pub trait Node<T: Element>: sealed::Sealed + Sync {
    /// The node's output shape.
    type Shape: Shape;
    /// How many tensors the node's subtree reads.
    #[doc(hidden)]
    const LEAVES: usize;
    /// The subtree's plan when every leaf's shape is static, `None` if a
    /// leaf has a run-time dim.
    #[doc(hidden)]
    const PLAN: Option<Result<Plan, ExprError>>;
    /// The output shape's value.
    fn shape(&self) -> Self::Shape;
    /// The subtree's plan from the leaves' dims: every rule checked.
    #[doc(hidden)]
    fn plan(&self) -> Result<Plan, ExprError>;
    /// Whether every leaf of a static shape holds its shape's element count
    /// (always so for tensors built through this crate). A static walk asks
    /// once before its loop, so that the compiler knows each row it reads
    /// is in bounds, also where the evaluation is a function of its own
    /// that does not see the tensors.
    #[doc(hidden)]
    fn holds_its_shape(&self) -> bool;
    /// `out[i] = self[i]` for the piece; the subtree's leaves are numbered
    /// from `first`.
    #[doc(hidden)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]);
    /// The node bound to one row of `len` elements whose every leaf walks
    /// along the row ([`super::row`]); `None` if a leaf's row is out of its
    /// data (cannot happen for a plan that matches the leaves).
    #[doc(hidden)]
    type Row<'r, const STRIDED: bool>: RowValues<T>
    where
        Self: 'r;
    /// See [`Node::Row`]: the row starting at `at`. `STRIDED`: a leaf may
    /// repeat along the row (read at `i * step`, `step` 0 or 1, which a
    /// static walk makes a constant); otherwise every leaf walks it.
    #[doc(hidden)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>>;
    /// `out[i] = f(out[i], self[i])` for the piece: by default the node is
    /// written into a stack array of one piece first.
    #[doc(hidden)]
    #[inline(always)]
    fn combine<F: Fn(T, T) -> T>(&self, first: usize, at: &Piece<'_>, out: &mut [T], f: F) {
        let mut tmp = [T::default(); TILE];
        if let Some(tmp) = tmp.get_mut(..out.len()) {
            self.write(first, at, tmp);
            for (o, &v) in out.iter_mut().zip(tmp.iter()) {
                *o = f(*o, v);
            }
        }
    }
}

/// Trees whose every leaf has a static shape: their plan is a constant,
/// checked by the compiler, and [`Expr::eval`](super::Expr::eval) needs no
/// `Result`.
#[diagnostic::on_unimplemented(
    message = "this expression reads a tensor with a run-time dim: evaluate it with `try_eval` or `try_eval_into`, which check its rules when it runs and return a Result",
    label = "a leaf of this expression has a run-time (`Dyn`, branded or bounded) dim"
)]
#[doc(hidden)]
pub trait StaticTree<T: Element>: Node<T, Shape: FixedShape> {}

pub(super) mod sealed {
    #[doc(hidden)]
    pub trait Sealed {}
}

/// `l op r` with Paddle's elementwise rule at `AXIS` (numpy's at -1), of
/// output shape `S` (computed when the node was built, by the rule trait
/// the builder requires).
#[derive(Clone, Copy, Debug)]
pub struct Binary<L, R, Op, S, const AXIS: isize> {
    pub(crate) l: L,
    pub(crate) r: R,
    pub(crate) shape: S,
    pub(crate) op: PhantomData<fn() -> Op>,
}

impl<L, R, Op, S, const AXIS: isize> sealed::Sealed for Binary<L, R, Op, S, AXIS> {}

/// The plan of `op(l, r)` at `axis` from the children's constant plans.
const fn binary_plan(
    l: Option<Result<Plan, ExprError>>,
    r: Option<Result<Plan, ExprError>>,
    axis: isize,
) -> Option<Result<Plan, ExprError>> {
    match (l, r) {
        (Some(Ok(l)), Some(Ok(r))) => Some(Plan::elementwise(&l, &r, axis)),
        (Some(Err(e)), _) | (_, Some(Err(e))) => Some(Err(e)),
        _ => None,
    }
}

impl<T, L, R, Op, S, const AXIS: isize> Node<T> for Binary<L, R, Op, S, AXIS>
where
    T: Element,
    L: Node<T>,
    R: Node<T>,
    Op: BinaryOp,
    S: Shape,
{
    type Shape = S;
    const LEAVES: usize = L::LEAVES + R::LEAVES;
    const PLAN: Option<Result<Plan, ExprError>> = binary_plan(L::PLAN, R::PLAN, AXIS);
    fn shape(&self) -> S {
        self.shape
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        self.l.holds_its_shape() && self.r.holds_its_shape()
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        Plan::elementwise(&self.l.plan()?, &self.r.plan()?, AXIS)
    }
    type Row<'r, const STRIDED: bool>
        = BinaryRow<L::Row<'r, STRIDED>, R::Row<'r, STRIDED>, Op>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>> {
        Some(BinaryRow {
            l: self.l.row::<STRIDED>(first, at, len)?,
            r: self.r.row::<STRIDED>(first + L::LEAVES, at, len)?,
            op: PhantomData,
        })
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        self.l.write(first, at, out);
        self.r
            .combine(first + L::LEAVES, at, out, op_fn::<T>(Op::KIND));
    }
}

#[diagnostic::do_not_recommend]
impl<T, L, R, Op, S, const AXIS: isize> StaticTree<T> for Binary<L, R, Op, S, AXIS>
where
    T: Element,
    L: StaticTree<T>,
    R: StaticTree<T>,
    Op: BinaryOp,
    S: FixedShape,
{
}

/// `f(l, r)` for a function of the caller's, numpy broadcasting, of
/// output shape `S`.
#[derive(Clone, Copy, Debug)]
pub struct ZipWith<L, R, F, S> {
    pub(crate) l: L,
    pub(crate) r: R,
    pub(crate) f: F,
    pub(crate) shape: S,
}

impl<L, R, F, S> sealed::Sealed for ZipWith<L, R, F, S> {}

impl<T, L, R, F, S> Node<T> for ZipWith<L, R, F, S>
where
    T: Element,
    L: Node<T>,
    R: Node<T>,
    F: Fn(T, T) -> T + Sync,
    S: Shape,
{
    type Shape = S;
    const LEAVES: usize = L::LEAVES + R::LEAVES;
    const PLAN: Option<Result<Plan, ExprError>> = binary_plan(L::PLAN, R::PLAN, -1);
    fn shape(&self) -> S {
        self.shape
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        self.l.holds_its_shape() && self.r.holds_its_shape()
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        Plan::elementwise(&self.l.plan()?, &self.r.plan()?, -1)
    }
    type Row<'r, const STRIDED: bool>
        = ZipRow<'r, L::Row<'r, STRIDED>, R::Row<'r, STRIDED>, F>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>> {
        Some(ZipRow {
            l: self.l.row::<STRIDED>(first, at, len)?,
            r: self.r.row::<STRIDED>(first + L::LEAVES, at, len)?,
            f: &self.f,
        })
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        self.l.write(first, at, out);
        self.r.combine(first + L::LEAVES, at, out, &self.f);
    }
}

#[diagnostic::do_not_recommend]
impl<T, L, R, F, S> StaticTree<T> for ZipWith<L, R, F, S>
where
    T: Element,
    L: StaticTree<T>,
    R: StaticTree<T>,
    F: Fn(T, T) -> T + Sync,
    S: FixedShape,
{
}

/// An activation (relu, tanh, sigmoid) applied to a node.
#[derive(Clone, Copy, Debug)]
pub struct Activate<N, A> {
    pub(crate) node: N,
    pub(crate) act: PhantomData<fn() -> A>,
}

impl<N, A> sealed::Sealed for Activate<N, A> {}

impl<T: Element, N: Node<T>, A: Activation> Node<T> for Activate<N, A> {
    type Shape = N::Shape;
    const LEAVES: usize = N::LEAVES;
    const PLAN: Option<Result<Plan, ExprError>> = N::PLAN;
    fn shape(&self) -> N::Shape {
        self.node.shape()
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        self.node.holds_its_shape()
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        self.node.plan()
    }
    type Row<'r, const STRIDED: bool>
        = ActivateRow<N::Row<'r, STRIDED>, A>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>> {
        Some(ActivateRow {
            node: self.node.row::<STRIDED>(first, at, len)?,
            act: PhantomData,
        })
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        self.node.write(first, at, out);
        A::KIND.apply_all(out);
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, N: StaticTree<T>, A: Activation> StaticTree<T> for Activate<N, A> {}

/// `f(v)` for every value of a node, a function of the caller's.
#[derive(Clone, Copy, Debug)]
pub struct Map<N, F> {
    pub(crate) node: N,
    pub(crate) f: F,
}

impl<N, F> sealed::Sealed for Map<N, F> {}

impl<T: Element, N: Node<T>, F: Fn(T) -> T + Sync> Node<T> for Map<N, F> {
    type Shape = N::Shape;
    const LEAVES: usize = N::LEAVES;
    const PLAN: Option<Result<Plan, ExprError>> = N::PLAN;
    fn shape(&self) -> N::Shape {
        self.node.shape()
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        self.node.holds_its_shape()
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        self.node.plan()
    }
    type Row<'r, const STRIDED: bool>
        = MapRow<'r, N::Row<'r, STRIDED>, F>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>> {
        Some(MapRow {
            node: self.node.row::<STRIDED>(first, at, len)?,
            f: &self.f,
        })
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        self.node.write(first, at, out);
        for o in out.iter_mut() {
            *o = (self.f)(*o);
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: Element, N: StaticTree<T>, F: Fn(T) -> T + Sync> StaticTree<T> for Map<N, F> {}

/// `cond ? then : else` under OpenVINO's Select-1 rule in mode `M`, of
/// output shape `S`; cond is a tensor of `bool`s (leaf 0 of the node), then
/// and else are nodes.
#[derive(Clone, Copy, Debug)]
pub struct Select<'a, C, Th, El, M, S> {
    pub(crate) cond: &'a [bool],
    pub(crate) cond_shape: C,
    pub(crate) then: Th,
    pub(crate) els: El,
    pub(crate) shape: S,
    pub(crate) mode: PhantomData<fn() -> M>,
}

impl<C, Th, El, M, S> sealed::Sealed for Select<'_, C, Th, El, M, S> {}

/// The plan of `select(c, t, e)` from the children's constant plans.
const fn select_plan<C: Shape, M: SelectMode>(
    t: Option<Result<Plan, ExprError>>,
    e: Option<Result<Plan, ExprError>>,
) -> Option<Result<Plan, ExprError>> {
    if !C::IS_STATIC {
        return None;
    }
    let c = match Plan::leaf(<C::Placeholder<1> as PlaceholderDims>::DIMS) {
        Ok(c) => c,
        Err(x) => return Some(Err(x)),
    };
    match (t, e) {
        (Some(Ok(t)), Some(Ok(e))) => Some(Plan::select(M::KIND, &c, &t, &e)),
        (Some(Err(x)), _) | (_, Some(Err(x))) => Some(Err(x)),
        _ => None,
    }
}

impl<T, C, Th, El, M, S> Node<T> for Select<'_, C, Th, El, M, S>
where
    T: Element,
    C: Shape,
    Th: Node<T>,
    El: Node<T>,
    M: SelectMode,
    S: Shape,
{
    type Shape = S;
    const LEAVES: usize = 1 + Th::LEAVES + El::LEAVES;
    const PLAN: Option<Result<Plan, ExprError>> = select_plan::<C, M>(Th::PLAN, El::PLAN);
    fn shape(&self) -> S {
        self.shape
    }
    #[inline(always)]
    fn holds_its_shape(&self) -> bool {
        static_len::<C>().is_none_or(|n| self.cond.len() >= n)
            && self.then.holds_its_shape()
            && self.els.holds_its_shape()
    }
    fn plan(&self) -> Result<Plan, ExprError> {
        let c = Plan::leaf(&self.cond_shape.dims())?;
        Plan::select(M::KIND, &c, &self.then.plan()?, &self.els.plan()?)
    }
    type Row<'r, const STRIDED: bool>
        = SelectRow<'r, Th::Row<'r, STRIDED>, El::Row<'r, STRIDED>, STRIDED>
    where
        Self: 'r;
    #[inline(always)]
    fn row<const STRIDED: bool>(
        &self,
        first: usize,
        at: &Piece<'_>,
        len: usize,
    ) -> Option<Self::Row<'_, STRIDED>> {
        Some(SelectRow {
            cond: leaf_row(self.cond, first, at, len)?,
            then: self.then.row::<STRIDED>(first + 1, at, len)?,
            els: self.els.row::<STRIDED>(first + 1 + Th::LEAVES, at, len)?,
        })
    }
    #[inline(always)]
    fn write(&self, first: usize, at: &Piece<'_>, out: &mut [T]) {
        use core::hint::select_unpredictable as pick;
        self.then.write(first + 1, at, out);
        let mut els = [T::default(); TILE];
        let Some(els) = els.get_mut(..out.len()) else {
            return;
        };
        self.els.write(first + 1 + Th::LEAVES, at, els);
        match at.part(first, self.cond, out.len()) {
            Some(Part::Row(cond)) => {
                for ((o, &c), &e) in out.iter_mut().zip(cond).zip(els.iter()) {
                    *o = pick(c, *o, e);
                }
            }
            Some(Part::Repeat(false)) => {
                for (o, &e) in out.iter_mut().zip(els.iter()) {
                    *o = e;
                }
            }
            Some(Part::Repeat(true)) | None => {}
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T, C, Th, El, M, S> StaticTree<T> for Select<'_, C, Th, El, M, S>
where
    T: Element,
    C: StaticShape,
    Th: StaticTree<T>,
    El: StaticTree<T>,
    M: SelectMode,
    S: StaticShape,
{
}
