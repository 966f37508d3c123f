//! Fused expressions: a chain of elementwise ops, activations and selects,
//! checked as one and computed in one pass over memory, with no
//! intermediate tensor.
//!
//! `relu(x * y + b)` with the plain ops is three passes and two
//! intermediate tensors. As an expression it is one:
//!
//! ```
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]);
//! let y = tensor![2.0f32, 2.0, 2.0];
//! let b = tensor![1.0f32, 1.0, 1.0];
//! let z: Tensor<f32, shape![2, 3]> = (x.lazy() * &y + &b).relu().eval();
//! // the same values as the chain of plain ops, bit for bit
//! let xy = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! assert_eq!(z, xy.elementwise_add(&b, Axis::<-1>, Relu));
//! ```
//!
//! **Building.** `x.lazy()` starts an expression (nothing is computed);
//! then the same names as the plain ops, with the same arguments
//! ([`Expr::elementwise_mul`]`(&y, Axis::<1>, Relu)`, ... `_max`, `_min`),
//! the operators `*`, `+`, `-`, `/` (numpy broadcasting, axis -1) with a
//! tensor, another expression or a number on the right (and a number on
//! the left: `1.0 - x.lazy()`), the activations
//! ([`Expr::relu`], [`Expr::tanh`], [`Expr::sigmoid`]), [`Expr::map`] and
//! [`Expr::zip_with`] for your own functions, and [`select`] (OpenVINO's
//! Select-1, any mode). The entry point is explicit because `&x * &y` on
//! tensors already means the eager op, which stays as it is.
//!
//! **Checked as one.** Every node's output shape is computed by the
//! compiler from the same rule traits as the plain op's `try_` form, so a
//! node whose shapes the rule rejects is a compile error at that node,
//! naming its op and both shapes, however deep it sits. The run-time form
//! of the whole tree's rule is the plain ops' rules composed
//! ([`plan`]): a constant for a tree of static tensors ([`Expr::eval`],
//! which cannot fail), checked when it runs for a tree with run-time dims
//! ([`Expr::try_eval`]: the first rule that fails, before anything is
//! written).
//!
//! **One pass.** The output is walked as the plain ops walk it (the shared
//! kernel's walk, with every tensor of the tree as an operand read through
//! its broadcast strides), in pieces of at most [`TILE`] elements of a row;
//! each piece is computed node by node in place (unit-stride loops the
//! compiler vectorises) while it stays in the cache, so every tensor is
//! read once and the output written once. A right operand that is itself
//! an expression takes a stack array of one piece; nothing else is
//! allocated, and a fresh result is the only allocation (none for an
//! inline result or an `_into` form).
//!
//! Integer division is not offered in expressions (it can fail on a zero
//! divisor); use the plain `elementwise_div`. An expression reads at most
//! [`MAX_LEAVES`] tensors.

mod backward;
mod build;
mod error;
mod leaf;
mod node;
mod numbers;
pub mod plan;
mod reduce;
mod row;

#[cfg(feature = "alloc")]
pub use backward::Gradients;
pub use backward::{Backward, LeafGrad};
pub use build::{select, BinaryExpr, FloatOp, IntoNode, SelectExpr, ZipExpr};
pub use error::ExprError;
pub use leaf::{Leaf, Place, Scalar};
pub use node::{Activate, Binary, Map, Node, Select, StaticTree, ZipWith, TILE};
pub use plan::MAX_LEAVES;

use crate::broadcast::Frame;
use crate::element::Element;
use crate::kernel::plan::{self as planner, RowCases, ShapeFrame};
use crate::kernel::{self, Walk};
use crate::shape::Shape;
use crate::storage::{Inline, Ordered, OutputStorage, OwnedStorage, Storage, StorageMut};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use node::Piece;
use plan::Plan;
use row::RowValues;

/// A fused expression over elements `T`: a tree of nodes ([`Node`]) whose
/// output shape is `S` (the root node's `Shape`, computed by the compiler
/// from the plain ops' rules; written in the type so that a node the rules
/// reject is one error, where it is built). Built from [`Tensor::lazy`]; nothing is
/// computed until it is evaluated.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::expr::Expr;
/// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
/// let e = x.lazy() * 2.0; // an Expr: nothing computed yet
/// let _: &Expr<f32, _, shape![2, 2]> = &e;
/// assert_eq!(e.eval().as_slice(), &[2.0, 4.0, 6.0, 8.0]);
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use = "an expression computes nothing until it is evaluated (`eval`, `try_eval`, `eval_into`)"]
pub struct Expr<T, N, S> {
    pub(crate) node: N,
    pub(crate) types: PhantomData<fn() -> (T, S)>,
}

impl<T, N, S> Expr<T, N, S> {
    pub(crate) fn new(node: N) -> Self {
        Expr {
            node,
            types: PhantomData,
        }
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Starts a fused expression reading this tensor (see [`crate::expr`]).
    /// Nothing is computed until the expression is evaluated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[10.0], [20.0]]);
    /// let z = (a.lazy() * &col - 5.0).eval();
    /// assert_eq!(z.as_slice(), &[5.0, 15.0, 55.0, 75.0]);
    /// ```
    pub fn lazy(&self) -> Expr<T, Leaf<'_, T, S>, S> {
        Expr::new(Leaf {
            data: self.as_slice(),
            shape: *self.shape(),
        })
    }
}

/// The composed rules' frame of a tree of static tensors with `K` lanes,
/// computed by the compiler, for the planner ([`planner::Planned`]): the
/// walk keeps its outer loops apart ([`planner::fused_walk`]), and a stride
/// case counts the tree's leaves.
struct Tree<T, N, const K: usize>(PhantomData<(T, N)>);

impl<T: Element, N: Node<T>, const K: usize> ShapeFrame<K> for Tree<T, N, K> {
    const STATIC: Option<Frame<K>> = match N::PLAN {
        Some(Ok(plan)) => Some(plan.frame::<K>()),
        _ => None,
    };
    /// A build error where a static walk is asked of a tree that reads
    /// more than [`MAX_LEAVES`] tensors, or (a bug in shapecheck) whose
    /// type-level rules accepted shapes the run-time rules reject.
    const NOT_STATIC: &'static str = match N::PLAN {
        Some(Err(ExprError::TooManyLeaves)) => {
            "a fused expression reads at most 8 tensors (MAX_LEAVES): evaluate a part of it first"
        }
        _ => "shapecheck bug: a fused expression's type-level rules accepted shapes its run-time rules reject",
    };
    const FUSED: bool = true;
    const LANES: usize = N::LEAVES;
}

/// The planner's static walk of the tree `N` with `K` lanes.
type Static<T, N, const K: usize> = planner::Planned<Tree<T, N, K>, K>;

/// Computes `node` into `out` along a walk planned when it runs (`K`
/// lanes, at least one per leaf): row by row if every leaf walks along the
/// rows ([`Node::row`]), piece by piece otherwise ([`Node::write`]).
#[inline(always)]
fn run<T: Element, N: Node<T>, const K: usize>(node: &N, walk: &Walk<K>, out: &mut [T]) {
    planner::rows_or_pieces(walk, N::LEAVES, Eval::<T, N, true, false> { node, out });
}

/// An evaluation into `out` in the planner's stride case
/// ([`RowCases`]): row by row ([`run_rows`]), except a walk planned when
/// it runs (`PLANNED`) whose leaves do not all walk the rows, which goes
/// piece by piece, node by node ([`Node::write`]). `BY_NUMBER`: how each
/// row is cut from `out` ([`kernel::for_each_tile`]).
struct Eval<'a, T, N, const PLANNED: bool, const BY_NUMBER: bool> {
    node: &'a N,
    out: &'a mut [T],
}

impl<T: Element, N: Node<T>, const K: usize, const PLANNED: bool, const BY_NUMBER: bool> RowCases<K>
    for Eval<'_, T, N, PLANNED, BY_NUMBER>
{
    type Out = ();
    #[inline(always)]
    fn run<const STRIDED: bool>(self, walk: &Walk<K>, strides: &[usize; K]) {
        let Eval { node, out } = self;
        if PLANNED && STRIDED {
            planner::tiles::<T, K, false>(
                walk,
                out,
                TILE,
                #[inline(always)]
                |offsets, start, piece| {
                    let at = Piece {
                        offsets,
                        inner: strides,
                        start,
                    };
                    node.write(0, &at, piece);
                },
            );
        } else {
            run_rows::<T, N, K, STRIDED, PLANNED, BY_NUMBER>(node, walk, strides, out);
        }
    }
}

/// [`run`] for a tree of static tensors: its walk is a constant, and so is
/// the choice: row by row, where a leaf that repeats along the rows reads
/// `data[i * 0]` (the strides are constants the compiler folds).
#[inline(always)]
fn run_static_walk<T: Element, N: Node<T>, const K: usize, const BY_NUMBER: bool>(
    node: &N,
    out: &mut [T],
) {
    // both always hold (the types say so); checked once here, where the
    // target spends code to save time, so that no row is checked again
    let out = if kernel::SPEED_OVER_SIZE {
        match out.get_mut(..Static::<T, N, K>::WALK.numel()) {
            Some(out) if node.holds_its_shape() => out,
            _ => return,
        }
    } else {
        out
    };
    planner::static_rows_or_pieces::<Tree<T, N, K>, K, _>(Eval::<T, N, false, BY_NUMBER> {
        node,
        out,
    });
}

/// Row by row: `out[i] = row.at(i)` for the tree bound to each row. Each
/// leaf's row is a slice of exactly the row's length, so the loop has no
/// bounds check left and vectorizes. `PLANNED` (a walk planned when it
/// runs): the row's length is `row.len()`; otherwise the tree is static and
/// every row is `INNER` long, a constant (also in a task of rayon's pool,
/// where `row.len()` is not known), which the compiler folds; an in-place
/// walk planned when it runs (`try_update`) takes the row's length.
/// `BY_NUMBER`: how each row is cut from `out` ([`kernel::for_each_tile`]).
///
/// The loop was once written in chunks of 32 elements, each leaf's chunk an
/// array (one bounds check per chunk): bench F2's `try_eval_into` of
/// run-time rows measured 0.59 ms in chunks against 0.44 ms for this loop
/// (docs/measurements.md).
#[inline(always)]
fn run_rows<
    T: Element,
    N: Node<T>,
    const K: usize,
    const STRIDED: bool,
    const PLANNED: bool,
    const BY_NUMBER: bool,
>(
    node: &N,
    walk: &Walk<K>,
    inner: &[usize; K],
    out: &mut [T],
) {
    planner::tiles::<T, K, BY_NUMBER>(
        walk,
        out,
        usize::MAX,
        #[inline(always)]
        |offsets, start, row| {
            let at = Piece {
                offsets,
                inner,
                start,
            };
            let n = if PLANNED {
                row.len()
            } else {
                Static::<T, N, K>::INNER.unwrap_or(row.len())
            };
            if let Some(values) = node.row::<STRIDED>(0, &at, n) {
                for (i, o) in row.iter_mut().take(n).enumerate() {
                    *o = values.at(i, *o);
                }
            }
        },
    );
}

/// [`run`] with as many lanes as the tree has leaves, rounded up to 2, 3,
/// 4 or [`MAX_LEAVES`] (a walk's per-row step is written out for 2 and 3
/// lanes; fewer lanes, less to update per row).
#[inline(always)]
fn run_plan<T: Element, N: Node<T>>(node: &N, p: &Plan, out: &mut [T]) {
    match N::LEAVES {
        0..=2 => run(node, &planner::fused_walk(&p.frame::<2>()), out),
        3 => run(node, &planner::fused_walk(&p.frame::<3>()), out),
        4 => run(node, &planner::fused_walk(&p.frame::<4>()), out),
        _ => run(node, &planner::fused_walk(&p.frame::<MAX_LEAVES>()), out),
    }
}

/// [`run_plan`] front to back into `out` (an allocating evaluation): row
/// by row, each row's values given in order, a leaf that repeats along the
/// rows read at `i * 0`.
#[inline(always)]
fn in_order_plan<T: Element, N: Node<T>>(node: &N, p: &Plan, out: &mut Ordered<'_, T>) {
    match N::LEAVES {
        0..=2 => in_order(node, &planner::fused_walk(&p.frame::<2>()), out),
        3 => in_order(node, &planner::fused_walk(&p.frame::<3>()), out),
        4 => in_order(node, &planner::fused_walk(&p.frame::<4>()), out),
        _ => in_order(node, &planner::fused_walk(&p.frame::<MAX_LEAVES>()), out),
    }
}

#[inline(always)]
fn in_order<T: Element, N: Node<T>, const K: usize>(
    node: &N,
    walk: &Walk<K>,
    out: &mut Ordered<'_, T>,
) {
    planner::rows_or_pieces(walk, N::LEAVES, InOrder::<T, N> { node, out });
}

/// [`in_order`] in the planner's stride case ([`RowCases`]).
struct InOrder<'a, 'o, T, N> {
    node: &'a N,
    out: &'a mut Ordered<'o, T>,
}

impl<T: Element, N: Node<T>, const K: usize> RowCases<K> for InOrder<'_, '_, T, N> {
    type Out = ();
    #[inline(always)]
    fn run<const STRIDED: bool>(self, walk: &Walk<K>, strides: &[usize; K]) {
        rows_in_order::<T, N, K, STRIDED>(self.node, walk, strides, self.out);
    }
}

/// Each row of the walk, in order: `n` values (`n` the row's length), the
/// tree bound to the row. Each leaf's row is a slice of exactly `n`
/// elements (or one, repeated), so the run's loop has no bounds check left.
#[inline(always)]
fn rows_in_order<T: Element, N: Node<T>, const K: usize, const STRIDED: bool>(
    node: &N,
    walk: &Walk<K>,
    inner: &[usize; K],
    out: &mut Ordered<'_, T>,
) {
    let n = walk.inner();
    walk.for_each_row(|offsets| {
        let at = Piece {
            offsets: &offsets,
            inner,
            start: 0,
        };
        match node.row::<STRIDED>(0, &at, n) {
            Some(values) => out.run(n, |i| values.at(i, T::default())),
            // the plan checked every leaf's length, so this cannot happen;
            // the row is still given, so the output keeps its count
            None => out.run(n, |_| T::default()),
        }
    });
}

/// [`run_plan`] for a tree of static tensors: its walk is a constant.
/// Inlined into [`Expr::eval`] (its result written where the caller keeps
/// it), rows cut by number ([`kernel::for_each_tile`]); by count through
/// [`run_static_apart`]. Bench F3: `eval` 16 ns (26 ns by count).
#[inline(always)]
fn run_static<T: Element, N: Node<T>, const BY_NUMBER: bool>(node: &N, out: &mut [T]) {
    match N::LEAVES {
        0..=2 => run_static_walk::<T, N, 2, BY_NUMBER>(node, out),
        3 => run_static_walk::<T, N, 3, BY_NUMBER>(node, out),
        4 => run_static_walk::<T, N, 4, BY_NUMBER>(node, out),
        _ => run_static_walk::<T, N, MAX_LEAVES, BY_NUMBER>(node, out),
    }
}

/// [`run_static`] for [`Expr::eval_into`], rows cut by count. Where the
/// target spends code to save time ([`kernel::SPEED_OVER_SIZE`], the same
/// `cfg`) it is kept a function of its own, so that the compiler knows its
/// `out` aliases no input: bench F3's `eval_into` in a caller's loop ran
/// 12-13 ns so and 42-44 ns inlined into the caller. Elsewhere it is
/// `#[inline]`: the Cortex-M4F's fused firmwares are then the bytes they
/// were (docs/measurements.md).
#[cfg_attr(
    any(
        target_feature = "sse2",
        target_feature = "neon",
        target_feature = "simd128"
    ),
    inline(never)
)]
#[cfg_attr(
    not(any(
        target_feature = "sse2",
        target_feature = "neon",
        target_feature = "simd128"
    )),
    inline
)]
fn run_static_apart<T: Element, N: Node<T>>(node: &N, out: &mut [T]) {
    run_static::<T, N, false>(node, out);
}

/// The result of [`Expr::try_eval`]: stored as its shape says (inline for
/// a static shape, a `Vec` for a run-time dim).
pub type ExprResult<T, S> = Result<Tensor<T, S, <S as OutputStorage<T>>::Buffer>, ExprError>;

impl<T: Element, N: Node<T, Shape = S>, S: Shape> Expr<T, N, S> {
    /// The output shape's value (its run-time dims computed from the
    /// leaves', as the plain ops compute theirs; [`Expr::try_eval`] checks
    /// them).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 6]).unwrap();
    /// assert_eq!((x.lazy() + &tensor![1.0f32, 2.0, 3.0]).shape().dims().as_slice(), &[2, 3]);
    /// ```
    pub fn shape(&self) -> S {
        self.node.shape()
    }

    /// Evaluates an expression with run-time dims (or any other): every
    /// rule of the tree is checked first, and the first that fails is
    /// returned, before anything is allocated or written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let col = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![1.0, -1.0]).unwrap();
    /// let z = (x.lazy() * &col).relu().try_eval().unwrap();
    /// assert_eq!(z.as_slice(), &[1.0, 2.0, 3.0, 0.0, 0.0, 0.0]);
    /// // three rows of col meet x's two: the elementwise rule, at that node
    /// let col3 = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(3), One), vec![1.0; 3]).unwrap();
    /// let err = (x.lazy() + 1.0).elementwise_mul(&col3, Axis::<-1>, Identity).try_eval().unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/broadcast");
    /// ```
    pub fn try_eval(&self) -> ExprResult<T, S>
    where
        S: OutputStorage<T>,
    {
        let plan = self.node.plan()?;
        let shape = self.node.shape();
        plan.out_dims().expect_output(shape.dims())?;
        // with feature `rayon`, an output big enough to split is filled
        // first and its rows shared out; otherwise it is written front to
        // back, a heap result growing as it is written (no fill first)
        #[cfg(feature = "rayon")]
        if planner::splits(shape.numel()?) {
            let mut out = Tensor::from_parts_unchecked(
                shape,
                <S as OutputStorage<T>>::Buffer::try_filled(&shape, T::default())?,
            );
            run_plan(&self.node, &plan, out.as_mut_slice());
            return Ok(out);
        }
        let buffer = <S as OutputStorage<T>>::Buffer::try_written(&shape, T::default(), |out| {
            in_order_plan(&self.node, &plan, out);
        })?;
        Ok(Tensor::from_parts_unchecked(shape, buffer))
    }

    /// [`try_eval`](Self::try_eval) writing into `out` (any storage, a
    /// caller's buffer included), whose dims must be the output's; on an
    /// error `out` is untouched.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let mut buf = [0.0f32; 4];
    /// let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[2, 2], &mut buf[..]).unwrap();
    /// (x.lazy() * 2.0).try_eval_into(&mut out).unwrap();
    /// assert_eq!(buf, [2.0, 4.0, 6.0, 8.0]);
    /// ```
    pub fn try_eval_into<B: StorageMut<T>>(
        &self,
        out: &mut Tensor<T, S, B>,
    ) -> Result<(), ExprError> {
        let plan = self.node.plan()?;
        plan.out_dims().expect_output(out.dims())?;
        run_plan(&self.node, &plan, out.as_mut_slice());
        Ok(())
    }
}

impl<T: Element, N: Node<T, Shape = S>, S: Shape> Expr<T, N, S> {
    /// Evaluates an expression of static tensors into a fresh inline
    /// tensor: its rules were checked by the compiler and its walk is a
    /// constant, so it cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let b = tensor![1.0f32, 0.0];
    /// // b placed at axis 0, then relu and a function of yours
    /// let z = a.lazy().elementwise_sub(&b, Axis::<0>, Relu).map(|v| v * 10.0).eval();
    /// assert_eq!(z.as_slice(), &[0.0, 10.0, 20.0, 40.0, 50.0, 60.0]);
    /// ```
    #[inline]
    pub fn eval(&self) -> Tensor<T, S>
    where
        N: StaticTree<T>,
    {
        let shape = S::default();
        let mut out = Tensor::from_parts_unchecked(shape, Inline::filled(&shape, T::default()));
        run_static::<T, N, true>(&self.node, out.as_mut_slice());
        out
    }

    /// [`eval`](Self::eval) writing into `out` (a caller's buffer, no heap):
    /// `out`'s type is the output's shape, so nothing can fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, -2.0], [3.0, -4.0]];
    /// let mut buf = [0.0f32; 4];
    /// let mut out = Tensor::<f32, shape![2, 2], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// (x.lazy() * &tensor![1.0f32, 2.0]).relu().eval_into(&mut out);
    /// assert_eq!(buf, [1.0, 0.0, 3.0, 0.0]);
    /// ```
    pub fn eval_into<B: StorageMut<T>>(&self, out: &mut Tensor<T, S, B>)
    where
        N: StaticTree<T>,
    {
        run_static_apart(&self.node, out.as_mut_slice());
    }
}

impl<T: Element, S: Shape, B: StorageMut<T>> Tensor<T, S, B> {
    /// `self = f(self)` in place, in one pass, for static tensors: `f`
    /// builds an expression from `x` (this tensor, as a leaf that reads each
    /// element before it is written) whose output has this tensor's shape.
    /// No buffer besides this tensor's own.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]]);
    /// let y = tensor![2.0f32, 2.0, 2.0];
    /// x.update(|x| (x * &y + 1.0).relu());
    /// assert_eq!(x.as_slice(), &[3.0, 0.0, 7.0, 0.0, 11.0, 0.0]);
    /// ```
    pub fn update<N, F>(&mut self, f: F)
    where
        F: FnOnce(Expr<T, Place<S>, S>) -> Expr<T, N, S>,
        N: StaticTree<T> + Node<T, Shape = S>,
    {
        let e = f(Expr::new(Place {
            shape: *self.shape(),
        }));
        let out = self.as_mut_slice();
        match N::LEAVES {
            0..=2 => in_place::<T, N, 2>(&e.node, &Static::<T, N, 2>::WALK, out),
            3 => in_place::<T, N, 3>(&e.node, &Static::<T, N, 3>::WALK, out),
            4 => in_place::<T, N, 4>(&e.node, &Static::<T, N, 4>::WALK, out),
            _ => in_place::<T, N, MAX_LEAVES>(&e.node, &Static::<T, N, MAX_LEAVES>::WALK, out),
        }
    }

    /// [`update`](Self::update) for tensors with run-time dims: every rule
    /// of the tree is checked first, and the output's dims must be this
    /// tensor's (`shape/output`); on an error nothing is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let mut x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let col = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![10.0, 100.0]).unwrap();
    /// x.try_update(|x| x * &col).unwrap();
    /// assert_eq!(x.as_slice(), &[10.0, 20.0, 300.0, 400.0]);
    /// // col with 3 rows meets x's 2: the rule's error, and x is untouched
    /// let col3 = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(3), One), vec![1.0; 3]).unwrap();
    /// assert_eq!(x.try_update(|x| x * &col3).unwrap_err().rule(), "elementwise/broadcast");
    /// assert_eq!(x.as_slice(), &[10.0, 20.0, 300.0, 400.0]);
    /// ```
    pub fn try_update<N, F>(&mut self, f: F) -> Result<(), ExprError>
    where
        F: FnOnce(Expr<T, Place<S>, S>) -> Expr<T, N, S>,
        N: Node<T, Shape = S>,
    {
        let e = f(Expr::new(Place {
            shape: *self.shape(),
        }));
        let p = e.node.plan()?;
        p.out_dims().expect_output(self.dims())?;
        let out = self.as_mut_slice();
        match N::LEAVES {
            0..=2 => in_place::<T, N, 2>(&e.node, &planner::fused_walk(&p.frame::<2>()), out),
            3 => in_place::<T, N, 3>(&e.node, &planner::fused_walk(&p.frame::<3>()), out),
            4 => in_place::<T, N, 4>(&e.node, &planner::fused_walk(&p.frame::<4>()), out),
            _ => in_place::<T, N, MAX_LEAVES>(
                &e.node,
                &planner::fused_walk(&p.frame::<MAX_LEAVES>()),
                out,
            ),
        }
        Ok(())
    }
}

/// An in-place evaluation: always row by row (the [`Place`] leaf reads
/// the output's old value where it is written), a leaf that repeats along
/// the rows read at `i * 0`.
#[inline(always)]
fn in_place<T: Element, N: Node<T>, const K: usize>(node: &N, walk: &Walk<K>, out: &mut [T]) {
    planner::strided_rows(walk, Eval::<T, N, false, false> { node, out });
}
