//! [`StaticShape`]: the one bound generic code writes over a static shape.
//!
//! It lives with the operators because it is their promise: a static shape
//! meets itself and a scalar under each op's rule. rustc sees what holds
//! for a generic `S` only through the supertraits of its bounds, and each
//! op's shape trait has one impl over every shape, so this trait names the
//! facts as supertraits and every static shape has it by the blanket impl
//! below. The facts a storage or a tensor needs (`DIMS`, `NUMEL`, the
//! inline array) are [`FixedShape`]'s, a layer below.

use crate::ops::elementwise::{LazyOperatorShapes, OperatorShapes};
use crate::ops::matmul::{MatmulNoCheck, NoTrans, Trans};
use crate::ops::select::{Numpy, SelectNoCheck, SelectShapes};
use crate::shape::FixedShape;

/// A shape whose dims are all static ([`FixedShape`]: constant dims and
/// element count, an inline array type), together with what every operator
/// promises such a shape.
///
/// It is the one bound generic code writes to combine a tensor with another
/// of its own shape or with a scalar (`shape![]`): every static shape meets
/// both under numpy's rule (Paddle's axis -1), with itself as the output,
/// so the operators (`&a - &b`, `&a * &s`), fused expressions of them
/// (`a.lazy() * &b + &s`), `select(&c, &a, &b_or_s, Numpy)` with a cond of
/// the same shape and matmul's plain forms need no other bound; nor do the
/// named forms (`x.elementwise_max(&y, Axis::<-1>, Identity)`, ..., with
/// the prelude in scope). Shapes that differ take
/// [`BroadcastWith`](crate::ops::elementwise::BroadcastWith) or
/// [`SelectWith`](crate::ops::select::SelectWith).
///
/// ```
/// use shapecheck::prelude::*;
/// /// `a + t * (b - a)` over any static shape.
/// fn lerp<S: StaticShape>(a: &Tensor<f32, S>, b: &Tensor<f32, S>, t: &Tensor<f32, shape![]>) -> Owned<f32, S> {
///     &(&(b - a) * t) + a
/// }
/// let l = lerp(&tensor![[0.0f32, 4.0]], &tensor![[4.0f32, 8.0]], &Tensor::full(0.25));
/// assert_eq!(l.as_slice(), &[1.0, 5.0]);
/// /// `x` where `keep`, else 0.
/// fn masked<S: StaticShape>(keep: &Tensor<bool, S>, x: &Tensor<f32, S>) -> Owned<f32, S> {
///     select(keep, x, &Tensor::<f32, shape![]>::full(0.0), Numpy)
/// }
/// assert_eq!(masked(&tensor![true, false], &tensor![3.0f32, 4.0]).as_slice(), &[3.0, 0.0]);
/// /// `x` clipped below at `lo`, elementwise.
/// fn clip<S: StaticShape>(x: &Tensor<f32, S>, lo: &Tensor<f32, S>) -> Owned<f32, S> {
///     x.elementwise_max(lo, Axis::<-1>, Identity)
/// }
/// assert_eq!(clip(&tensor![-1.0f32, 2.0], &Tensor::full(0.0)).as_slice(), &[0.0, 2.0]);
/// // the facts of `FixedShape` come with it
/// fn count<S: StaticShape>() -> usize { S::NUMEL }
/// assert_eq!(count::<shape![2, 3]>(), 6);
/// ```
pub trait StaticShape:
    FixedShape
    + OperatorShapes<Self, Output = Self>
    + OperatorShapes<(), Output = Self>
    + LazyOperatorShapes<Self, Output = Self>
    + LazyOperatorShapes<(), Output = Self>
    + SelectShapes<Self, Self, Numpy, Output = Self>
    + SelectNoCheck<Self, Self, Numpy, Then = Self>
    + SelectShapes<Self, (), Numpy, Output = Self>
    + SelectNoCheck<Self, (), Numpy, Then = Self>
    + MatmulNoCheck<NoTrans>
    + MatmulNoCheck<Trans>
{
}

/// Every static shape: each op's impls cover every shape, so each
/// supertrait holds for every [`FixedShape`]. Where a shape is not
/// static, an error names `StaticShape` at the bound that asked for it,
/// not a dim deep inside this impl's conditions.
#[diagnostic::do_not_recommend]
impl<S> StaticShape for S where
    S: FixedShape
        + OperatorShapes<S, Output = S>
        + OperatorShapes<(), Output = S>
        + LazyOperatorShapes<S, Output = S>
        + LazyOperatorShapes<(), Output = S>
        + SelectShapes<S, S, Numpy, Output = S>
        + SelectNoCheck<S, S, Numpy, Then = S>
        + SelectShapes<S, (), Numpy, Output = S>
        + SelectNoCheck<S, (), Numpy, Then = S>
        + MatmulNoCheck<NoTrans>
        + MatmulNoCheck<Trans>
{
}
