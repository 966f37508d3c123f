//! A reduction or softmax ending a fused expression of static tensors:
//! `(x.lazy() * &y + &b).relu().sum(Axis::<1>)`. The tree is computed row
//! by row along its walk, as [`Expr::eval`] computes it, and each value is
//! folded into its output element as it is made, so the expression's own
//! result never exists: no intermediate tensor, no heap, one pass over the
//! leaves. The output type is the plain reduction's
//! ([`ReduceOutput`], [`ReduceKeepOutput`]); the rules are the plain ops'
//! (the axes by the types, `reduce/empty` by [`StaticCheck`]).
//!
//! The fold visits the elements in order with one accumulator per output
//! element, where the plain `sum` over a contiguous run folds sixteen lanes:
//! float sums and means can differ from the unfused chain's in the last
//! bits (max, min and integer results are the same). softmax writes the
//! tree's values into its result first and runs the plain op's passes there
//! ([`SoftmaxAxis`]'s rule, x's shape).

use super::node::{Node, Piece, StaticTree};
use super::plan::MAX_LEAVES;
use super::row::RowValues;
use super::{run_static, Expr, StaticWalk};
use crate::element::Element;
use crate::ops::reduce::rule::plan;
use crate::ops::reduce::{
    OutputOffsets, Reduce, ReduceElement, ReduceKeepOutput, ReduceKind, ReduceOutput, Reduction,
    StaticCheck,
};
use crate::ops::softmax::rule::plan as softmax_plan;
use crate::ops::softmax::{
    softmax_in_place, SoftmaxAxis, SoftmaxElement, SoftmaxKind, SoftmaxOutput,
};
use crate::shape::StaticShape;
use crate::tensor::Tensor;

/// Every value of the tree, in order (row by row along its constant walk),
/// given to `each`; nothing is stored.
#[inline(always)]
fn for_each_value<T: Element, N: Node<T>, const K: usize>(node: &N, each: &mut impl FnMut(T)) {
    let walk = &StaticWalk::<T, N, K>::WALK;
    if !node.holds_its_shape() {
        return;
    }
    let inner = walk.inner_strides();
    let n = walk.inner();
    if StaticWalk::<T, N, K>::EVERY_LEAF_WALKS {
        rows::<T, N, K, false>(node, walk, &inner, n, each);
    } else {
        rows::<T, N, K, true>(node, walk, &inner, n, each);
    }
}

#[inline(always)]
fn rows<T: Element, N: Node<T>, const K: usize, const STRIDED: bool>(
    node: &N,
    walk: &crate::kernel::Walk<K>,
    inner: &[usize; K],
    n: usize,
    each: &mut impl FnMut(T),
) {
    walk.for_each_row(|offsets| {
        let at = Piece {
            offsets: &offsets,
            inner,
            start: 0,
        };
        if let Some(values) = node.row::<STRIDED>(0, &at, n) {
            for i in 0..n {
                each(values.at(i, T::default()));
            }
        }
    });
}

/// [`for_each_value`] with as many lanes as the tree has leaves.
#[inline(always)]
fn values<T: Element, N: Node<T>>(node: &N, mut each: impl FnMut(T)) {
    match N::LEAVES {
        0..=2 => for_each_value::<T, N, 2>(node, &mut each),
        3 => for_each_value::<T, N, 3>(node, &mut each),
        4 => for_each_value::<T, N, 4>(node, &mut each),
        _ => for_each_value::<T, N, MAX_LEAVES>(node, &mut each),
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
        let (init, f): (U, fn(U, U) -> U) = match kind {
            ReduceKind::Sum | ReduceKind::Mean => (U::ZERO, U::add),
            ReduceKind::Max => (U::LOWEST, U::max_of),
            ReduceKind::Min => (U::HIGHEST, U::min_of),
            ReduceKind::Prod => (U::ONE, U::mul),
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
        let slots = out.as_mut_slice();
        let mut offsets = OutputOffsets::new(&p);
        values(&self.node, |v: T| {
            if let Some(slot) = slots.get_mut(offsets.at()) {
                *slot = f(*slot, U::from(v));
            }
            offsets.step();
        });
        if kind == ReduceKind::Mean {
            for o in slots.iter_mut() {
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
    pub fn max_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, true>(ReduceKind::Max)
    }

    /// The tree's min over `axes`, fused (see [`Tensor::min`]).
    pub fn min<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, true>(ReduceKind::Min)
    }

    /// [`min`](Self::min) keeping the reduced dims as 1.
    pub fn min_keepdim<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceKeepOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceKeepOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, true, true>(ReduceKind::Min)
    }

    /// The tree's product over `axes`, fused (see [`Tensor::prod`]).
    pub fn prod<Ax>(&self, _axes: Ax) -> Tensor<T, ReduceOutput<S, Ax>>
    where
        T: ReduceElement,
        S: Reduce<Ax>,
        ReduceOutput<S, Ax>: StaticShape,
    {
        self.reduced::<_, Ax, _, false, false>(ReduceKind::Prod)
    }

    /// [`prod`](Self::prod) keeping the reduced dims as 1.
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
