//! A reduction or softmax ending a fused expression of static tensors:
//! `(x.lazy() * &y + &b).relu().sum(Axis::<1>)`. The tree is computed along
//! its walk into a stack array a row at a time (rows of at most 256
//! elements, longer ones in pieces of 256; element by element through the
//! tree, as `Expr::eval`'s rows), or, on the targets that save memory
//! (`kernel::SPEED_OVER_SIZE` off: the Cortex-M cores), a piece of at most
//! [`TILE`] at a time node by node ([`Node::write`]); each is folded into
//! its output elements while it is in the cache. The expression's own
//! result never exists, no heap, one pass over the leaves. The output type
//! is the plain reduction's ([`ReduceOutput`], [`ReduceKeepOutput`]); the
//! rules are the plain ops' (the axes by the types, `reduce/empty` by
//! [`StaticCheck`]).
//!
//! The fold takes the elements in order, a run of reduced elements with
//! eight accumulators (the plain `sum` folds sixteen, and a run cut by the
//! rows or pieces is folded in parts): float sums and means can differ
//! from the unfused chain's in the last bits (max, min and integer results
//! are the same). Cost, counted by cachegrind (instructions per call,
//! release, x86-64): `relu(x * y + b).sum(Axis::<1>)` on `[64, 256]` f32,
//! 75 k fused against 182 k for `eval()` then `sum`; over axis 0, 67 k
//! against 184 k; `relu(x * y).sum(Axis::<1>)` on `[16, 1024]`, 66 k
//! against 179 k.
//!
//! softmax writes the tree's values into its result first and runs the
//! plain op's passes there ([`SoftmaxAxis`]'s rule, x's shape).

use super::node::{Node, Piece, StaticTree, TILE};
use super::plan::MAX_LEAVES;
use super::row::RowValues;
use super::{run_static, Expr, Static, Tree};
use crate::dims::MAX_RANK;
use crate::element::Element;
use crate::kernel::plan::{static_rows_or_pieces, RowCases};
use crate::kernel::{Walk, SPEED_OVER_SIZE};
use crate::ops::reduce::rule::{plan, ReducePlan};
use crate::ops::reduce::{
    runs, Reduce, ReduceElement, ReduceKeepOutput, ReduceKind, ReduceOutput, Reduction, StaticCheck,
};
use crate::ops::softmax::rule::plan as softmax_plan;
use crate::ops::softmax::{
    softmax_in_place, SoftmaxAxis, SoftmaxElement, SoftmaxKind, SoftmaxOutput,
};
use crate::ops::StaticShape;
use crate::tensor::Tensor;

/// What takes the tree's values, in order, a piece of a row (at most
/// [`TILE`]) at a time.
trait PieceSink<T> {
    fn piece(&mut self, values: &[T]);
}

/// Every value of the tree, in order (along its constant walk), a piece at
/// a time: each piece computed node by node into a stack array of [`TILE`]
/// elements ([`Node::write`], the unit-stride loops `Expr::eval`'s pieces
/// run), then given to `sink`. The tree's output never exists whole.
#[inline(always)]
fn for_each_piece<T: Element, N: Node<T>, const K: usize>(node: &N, sink: &mut impl PieceSink<T>) {
    let walk = &Static::<T, N, K>::WALK;
    if !node.holds_its_shape() {
        return;
    }
    // constants the compiler folds (as `Expr::eval`'s rows)
    let n = Static::<T, N, K>::INNER.unwrap_or(walk.inner());
    walk.for_each_row(|offsets| {
        let inner = &Static::<T, N, K>::STRIDES;
        let mut start = 0;
        if SPEED_OVER_SIZE {
            // whole rows, or pieces of ROW, element by element through the
            // tree (as `Expr::eval`'s rows: the length a constant, no
            // bounds check left)
            if n <= ROW {
                row_piece(node, &offsets, inner, 0, n, sink);
                return;
            }
            while start + ROW <= n {
                row_piece(node, &offsets, inner, start, ROW, sink);
                start += ROW;
            }
        }
        while start < n {
            let m = TILE.min(n - start);
            let at = Piece {
                offsets: &offsets,
                inner,
                start,
            };
            let mut piece = [T::default(); TILE];
            if let Some(values) = piece.get_mut(..m) {
                node.write(0, &at, values);
                sink.piece(values);
            }
            start += m;
        }
    });
}

/// The longest row computed whole into a stack array, element by element
/// (where the target spends memory to save time, [`SPEED_OVER_SIZE`]);
/// longer rows go in pieces of `ROW` that way, their remainder (and every
/// row elsewhere) a piece of [`TILE`] at a time, node by node.
const ROW: usize = 256;

/// `len` values of the row at `offsets` from `start` (at most [`ROW`]),
/// computed element by element into a stack array, given to `sink`.
#[inline(always)]
fn row_piece<T: Element, N: Node<T>, const K: usize>(
    node: &N,
    offsets: &[usize; K],
    inner: &[usize; K],
    start: usize,
    len: usize,
    sink: &mut impl PieceSink<T>,
) {
    let at = Piece {
        offsets,
        inner,
        start,
    };
    let mut row = [T::default(); ROW];
    let fill = FillRow {
        node,
        at: &at,
        n: len,
        buf: &mut row,
    };
    if let Some(values) = static_rows_or_pieces::<Tree<T, N, K>, K, _>(fill) {
        sink.piece(values);
    }
}

/// The row at `at` (`n` values, at most [`ROW`]) into `buf`'s front, in
/// the planner's stride case of the tree's static walk ([`RowCases`]).
struct FillRow<'a, 'b, T, N> {
    node: &'a N,
    at: &'a Piece<'a>,
    n: usize,
    buf: &'b mut [T; ROW],
}

impl<'b, T: Element, N: Node<T>, const K: usize> RowCases<K> for FillRow<'_, 'b, T, N> {
    type Out = Option<&'b [T]>;
    #[inline(always)]
    fn run<const STRIDED: bool>(self, _: &Walk<K>, _: &[usize; K]) -> Self::Out {
        let FillRow { node, at, n, buf } = self;
        let values = node.row::<STRIDED>(0, at, n)?;
        for (i, d) in buf.iter_mut().take(n).enumerate() {
            *d = values.at(i, T::default());
        }
        buf.get(..n)
    }
}

/// [`for_each_piece`] with as many lanes as the tree has leaves.
#[inline(always)]
fn each_piece<T: Element, N: Node<T>>(node: &N, sink: &mut impl PieceSink<T>) {
    match N::LEAVES {
        0..=2 => for_each_piece::<T, N, 2>(node, sink),
        3 => for_each_piece::<T, N, 3>(node, sink),
        4 => for_each_piece::<T, N, 4>(node, sink),
        _ => for_each_piece::<T, N, MAX_LEAVES>(node, sink),
    }
}

/// Lanes of a reduced segment's fold.
const LANES: usize = 8;

/// The fold of the tree's values into the output: x (the tree's output) as
/// the reduce kernel sees it, coalesced runs of kept and reduced dims, the
/// innermost run (`inner` long) a segment that either folds into one
/// output element (reduced: [`LANES`] accumulators, so that it vectorises)
/// or adds into `inner` consecutive ones (kept); an odometer over the
/// outer runs moves the output offset once per segment. The walk's rows
/// and the segments need not align: a segment may span rows.
struct Fold<'o, U, F> {
    out: &'o mut [U],
    f: F,
    init: U,
    inner: usize,
    inner_reduced: bool,
    /// The outer runs (size, output stride), outermost first.
    outer: [(usize, usize); MAX_RANK],
    outer_len: usize,
    index: [usize; MAX_RANK],
    /// The current segment's output offset, and how far into it we are.
    base: usize,
    pos: usize,
}

impl<'o, U: Copy, F: Fn(U, U) -> U> Fold<'o, U, F> {
    fn new(p: &ReducePlan, out: &'o mut [U], init: U, f: F) -> Self {
        let (runs, len) = runs(p);
        let (inner, inner_reduced) = match len.checked_sub(1).and_then(|l| runs.get(l)) {
            Some(&last) => last,
            // every dim 1 (or a 0-d x): one element, output offset 0
            None => (1, true),
        };
        let mut outer = [(1usize, 0usize); MAX_RANK];
        let outer_len = len.saturating_sub(1);
        let mut step = if inner_reduced { 1 } else { inner };
        for k in (0..outer_len).rev() {
            if let (Some(&(size, reduced)), Some(slot)) = (runs.get(k), outer.get_mut(k)) {
                *slot = (size, if reduced { 0 } else { step });
                if !reduced {
                    step *= size;
                }
            }
        }
        Fold {
            out,
            f,
            init,
            inner,
            inner_reduced,
            outer,
            outer_len,
            index: [0; MAX_RANK],
            base: 0,
            pos: 0,
        }
    }

    /// On to the next segment.
    #[inline(always)]
    fn next_segment(&mut self) {
        self.pos = 0;
        for k in (0..self.outer_len).rev() {
            let (Some(i), Some(&(size, stride))) = (self.index.get_mut(k), self.outer.get(k))
            else {
                break;
            };
            *i += 1;
            self.base += stride;
            if *i < size {
                break;
            }
            *i = 0;
            self.base -= stride * size;
        }
    }
}

impl<T: Copy, U: Copy + From<T>, F: Fn(U, U) -> U> PieceSink<T> for Fold<'_, U, F> {
    /// The next values of x, in order, folded into their output elements.
    #[inline(always)]
    fn piece(&mut self, mut values: &[T]) {
        while !values.is_empty() {
            let k = (self.inner - self.pos).min(values.len());
            if k == 0 {
                // a zero-size innermost run: nothing is walked
                return;
            }
            let (seg, rest) = values.split_at(k);
            let f = &self.f;
            if self.inner_reduced {
                let mut acc = [self.init; LANES];
                let mut chunks = seg.chunks_exact(LANES);
                for c in &mut chunks {
                    for (a, &v) in acc.iter_mut().zip(c) {
                        *a = f(*a, U::from(v));
                    }
                }
                let [a0, a1, a2, a3, a4, a5, a6, a7] = acc;
                let mut r = f(f(f(a0, a4), f(a1, a5)), f(f(a2, a6), f(a3, a7)));
                for &v in chunks.remainder() {
                    r = f(r, U::from(v));
                }
                if let Some(slot) = self.out.get_mut(self.base) {
                    *slot = f(*slot, r);
                }
            } else {
                let from = self.base + self.pos;
                if let Some(dst) = self.out.get_mut(from..from + k) {
                    for (d, &v) in dst.iter_mut().zip(seg) {
                        *d = f(*d, U::from(v));
                    }
                }
            }
            values = rest;
            self.pos += k;
            if self.pos == self.inner {
                self.next_segment();
            }
        }
    }
}

impl<T: Element, N: StaticTree<T> + Node<T, Shape = S>, S: StaticShape> Expr<T, N, S> {
    /// The tree reduced by `kind` over `Ax` into a fresh inline tensor of
    /// shape `O` (`KEEP`: keepdim; `NEEDS_ONE`: max or min).
    fn reduced<U, Ax, O, const KEEP: bool, const NEEDS_ONE: bool>(
        &self,
        kind: ReduceKind,
    ) -> Tensor<U, O>
    where
        T: ReduceElement,
        U: ReduceElement + From<T>,
        S: Reduce<Ax>,
        O: StaticShape,
    {
        let () = StaticCheck::<S, Ax, O, KEEP, NEEDS_ONE, false>::CHECK;
        let init = match kind {
            ReduceKind::Sum | ReduceKind::Mean => U::ZERO,
            ReduceKind::Max => U::LOWEST,
            ReduceKind::Min => U::HIGHEST,
            ReduceKind::Prod => U::ONE,
        };
        let mut out = Tensor::<U, O>::full(init);
        // the rule held on these static shapes (the check above)
        let Ok(p) = plan(
            S::DIMS,
            <S as Reduce<Ax>>::AXES,
            KEEP,
            Reduction::Reduce(kind),
        ) else {
            return out;
        };
        // one fold per kind, each its own function (inlined, vectorised)
        let slots = out.as_mut_slice();
        match kind {
            ReduceKind::Sum | ReduceKind::Mean => {
                each_piece(&self.node, &mut Fold::new(&p, slots, init, U::add));
            }
            ReduceKind::Max => each_piece(&self.node, &mut Fold::new(&p, slots, init, U::max_of)),
            ReduceKind::Min => each_piece(&self.node, &mut Fold::new(&p, slots, init, U::min_of)),
            ReduceKind::Prod => each_piece(&self.node, &mut Fold::new(&p, slots, init, U::mul)),
        }
        if kind == ReduceKind::Mean {
            for o in out.as_mut_slice().iter_mut() {
                *o = o.div_count(p.count);
            }
        }
        out
    }

    /// The tree's sum over `axes`, fused: no intermediate tensor (see
    /// [`Tensor::sum`]; i64 for i32 elements).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, -2.0, 3.0], [4.0, 5.0, -6.0]];
    /// let (y, b) = (tensor![2.0f32, 2.0, 2.0], tensor![1.0f32, 1.0, 1.0]);
    /// let s: Tensor<f32, shape![2]> = (x.lazy() * &y + &b).relu().sum(Axis::<1>);
    /// assert_eq!(s.as_slice(), &[10.0, 20.0]); // [3 + 0 + 7, 9 + 11 + 0]
    /// ```
    pub fn sum<Ax>(&self, _axes: Ax) -> Tensor<T::Sum, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, false>(ReduceKind::Sum)
    }

    /// [`sum`](Self::sum) keeping the reduced dims as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// let s: Tensor<i64, shape![1, 2]> = (x.lazy() * 10).sum_keepdim(Axis::<0>);
    /// assert_eq!(s.as_slice(), &[40, 60]);
    /// ```
    pub fn sum_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T::Sum, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, false>(ReduceKind::Sum)
    }

    /// The tree's mean over `axes`, fused (see [`Tensor::mean`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::All;
    /// let x = tensor![[1.0f64, 2.0], [3.0, 4.0]];
    /// assert_eq!((x.lazy() * 2.0).mean(All).as_slice(), &[5.0]);
    /// ```
    pub fn mean<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, false>(ReduceKind::Mean)
    }

    /// [`mean`](Self::mean) keeping the reduced dims as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f64, 2.0], [3.0, 4.0]];
    /// let m: Tensor<f64, shape![2, 1]> = (x.lazy() + 1.0).mean_keepdim(Axis::<1>);
    /// assert_eq!(m.as_slice(), &[2.5, 4.5]);
    /// ```
    pub fn mean_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, false>(ReduceKind::Mean)
    }

    /// The tree's max over `axes`, fused (see [`Tensor::max`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, -9], [-7, 3]];
    /// assert_eq!((x.lazy() * -1).max(Axis::<-1>).as_slice(), &[9, 7]);
    /// ```
    pub fn max<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, true>(ReduceKind::Max)
    }

    /// [`max`](Self::max) keeping the reduced dims as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, -9], [-7, 3]];
    /// let m: Tensor<i32, shape![1, 2]> = (x.lazy() * 2).max_keepdim(Axis::<0>);
    /// assert_eq!(m.as_slice(), &[2, 6]);
    /// ```
    pub fn max_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, true>(ReduceKind::Max)
    }

    /// The tree's min over `axes`, fused (see [`Tensor::min`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, -9], [-7, 3]];
    /// assert_eq!((x.lazy() + 1).min(Axis::<-1>).as_slice(), &[-8, -6]);
    /// ```
    pub fn min<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, true>(ReduceKind::Min)
    }

    /// [`min`](Self::min) keeping the reduced dims as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, -9], [-7, 3]];
    /// let m: Tensor<i32, shape![2, 1]> = (x.lazy() + 1).min_keepdim(Axis::<1>);
    /// assert_eq!(m.as_slice(), &[-8, -6]);
    /// ```
    pub fn min_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, true>(ReduceKind::Min)
    }

    /// The tree's product over `axes`, fused (see [`Tensor::prod`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// assert_eq!((x.lazy() + 1).prod(Axis::<0>).as_slice(), &[8, 15]);
    /// ```
    pub fn prod<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, false>(ReduceKind::Prod)
    }

    /// [`prod`](Self::prod) keeping the reduced dims as 1.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, 2], [3, 4]];
    /// let p: Tensor<i32, shape![2, 1]> = (x.lazy() * 1).prod_keepdim(Axis::<1>);
    /// assert_eq!(p.as_slice(), &[2, 12]);
    /// ```
    pub fn prod_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, false>(ReduceKind::Prod)
    }

    /// The tree's softmax (or log_softmax) along `Ax` into a fresh inline
    /// tensor: the tree written once, then the plain op's passes in place.
    fn softmaxed<Ax>(&self, kind: SoftmaxKind) -> Tensor<T, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: StaticShape,
    {
        let mut out = Tensor::<T, SoftmaxOutput<S, T, Ax>>::full(T::default());
        run_static::<T, N, true>(&self.node, out.as_mut_slice());
        // the axis rule held by the types; the plan is x's
        if let Ok(p) = softmax_plan(S::DIMS, <S as SoftmaxAxis<T, Ax>>::AXIS) {
            softmax_in_place(&p, kind, out.as_mut_slice());
        }
        out
    }

    /// The tree's softmax along `axis`, fused: its values written once into
    /// the result, normalised there (see [`Tensor::softmax`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 1.0], [0.0, 2.0f32.ln()]];
    /// let p = (x.lazy() * 1.0).softmax(Axis::<-1>);
    /// assert_eq!(p.as_slice()[..2], [0.5, 0.5]);
    /// ```
    pub fn softmax<Ax>(&self, _axis: Ax) -> Tensor<T, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: StaticShape,
    {
        self.softmaxed::<Ax>(SoftmaxKind::Softmax)
    }

    /// The tree's log_softmax along `axis`, fused (see [`Tensor::log_softmax`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let l = (tensor![3.0f64, 3.0].lazy() - 1.0).log_softmax(Axis::<0>);
    /// assert!(l.iter().all(|v| (v + core::f64::consts::LN_2).abs() < 1e-15));
    /// ```
    pub fn log_softmax<Ax>(&self, _axis: Ax) -> Tensor<T, SoftmaxOutput<S, T, Ax>>
    where
        T: SoftmaxElement,
        S: SoftmaxAxis<T, Ax>,
        SoftmaxOutput<S, T, Ax>: StaticShape,
    {
        self.softmaxed::<Ax>(SoftmaxKind::LogSoftmax)
    }
}
