//! The named forms on one generic shape: in a function generic over `S`,
//! `x.elementwise_max(&y, Axis::<-1>, Identity)` with `y` of shape `S` or
//! `shape![]` needs no bound beyond `S: StaticShape` (the plain forms) or
//! `S: Shape` (the `try_` forms), as `&x - &y` needs none.
//!
//! The inherent methods (`api.rs`) state their rule as a bound on `S`,
//! which a shape rustc cannot see (`S` itself) never meets, so rustc
//! passes over them for such a call and finds these: [`SameShapeForms`],
//! implemented for every tensor and imported by the prelude (`as _`, so it
//! adds no name). Where the shapes are known, or a bound states the rule,
//! the inherent methods are chosen as before: nothing here changes a call
//! that compiled.
//!
//! The operand rule, [`SameOperand`], is asked of the activation (the
//! argument typed last), so that a mismatch is one error at the method
//! rather than at an argument with an excerpt of this file
//! (docs/compile-errors.md). It holds where `S: SameOrScalar<Y>`: `Y` is
//! `S` or `shape![]`, which every shape promises (supertraits of
//! [`Shape`]), so the output is `S`. The plain forms ask `StaticShape` of
//! that output through [`SameOutput`] (per-rank impls, none blanket), not
//! of `S`: for a generic `S` and another operand it has no impl, and the
//! call is the operand rule's one error, not a second one for `S`.
//!
//! Every form runs the one elementwise rule ([`super::super::rule`]): the
//! plain forms through a constant walk (the planner's, of
//! [`kernel::SameFrame`]: the rule at compile time), the `try_` forms at run time on the dims (two `Dyn` dims
//! of one type may differ, or broadcast).

use super::super::kernel::{self, SameFrame};
use super::super::rule;
use super::{Activation, Axis, BinaryOpKind, ElementwiseError};
use crate::element::Element;
use crate::kernel::plan::Planned;
use crate::kernel::Walk;
use crate::ops::StaticShape;
use crate::shape::{SameOrScalar, SameOutput, Shape};
use crate::storage::{OwnedStorage, ResultStorage, Storage};
use crate::tensor::Tensor;

/// The bound of every form, asked of the activation `A` (the argument
/// typed last, so that a mismatch is reported at the method): `y`'s shape
/// `Y` is `S` or `shape![]` ([`SameOrScalar`], which every shape promises
/// for both).
#[doc(hidden)]
pub trait SameOperand<S, Y>: Activation {
    /// The output shape: `S`.
    type Out: Shape + SameOutput<Y>;
    /// `S` as the output shape.
    fn out(s: S) -> Self::Out;
}

impl<S: Shape + SameOrScalar<Y>, Y, A: Activation> SameOperand<S, Y> for A {
    type Out = S;
    #[inline(always)]
    fn out(s: S) -> S {
        s
    }
}

/// The output of a form: shape `S` (as [`SameOperand::Out`]),
/// stored as `B`'s results of that shape are.
type SameOut<T, S, B, Y, A> = Tensor<
    T,
    <A as SameOperand<S, Y>>::Out,
    <B as ResultStorage<T, <A as SameOperand<S, Y>>::Out>>::Out,
>;

/// The output shape of a plain form, `X` (`SameOperand`'s output, `S`) as
/// [`SameOutput::SameOut`]: a trait with one impl per rank and none
/// blanket, so that for a generic `S` and another operand it has no impl
/// and the plain form's `StaticShape` of it is not asked (rustc reports
/// the one missing `S: SameOrScalar<Y>`, which implies it, at the same
/// place), where a bound on `S` itself would be a second error.
type SameOf<X, Y> = <X as SameOutput<Y>>::SameOut;

/// The output of a plain form: shape `S` (as [`SameOf`]), stored as `B`'s
/// results of that shape are.
type PlainOut<T, S, B, Y, A> = Tensor<
    T,
    SameOf<<A as SameOperand<S, Y>>::Out, Y>,
    <B as ResultStorage<T, SameOf<<A as SameOperand<S, Y>>::Out, Y>>>::Out,
>;

/// The named elementwise forms for an operand of the receiver's own shape,
/// in generic code (see the [module docs](self)). Imported by the prelude;
/// called as the inherent methods are, whose docs describe each op.
#[doc(hidden)]
pub trait SameShapeForms<T: Element, S: Shape, B: Storage<T>> {
    /// [`Tensor::elementwise_mul`] for an operand of shape `S`.
    fn elementwise_mul<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;
    /// [`Tensor::elementwise_add`] for an operand of shape `S`.
    fn elementwise_add<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;
    /// [`Tensor::elementwise_sub`] for an operand of shape `S`.
    fn elementwise_sub<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;
    /// [`Tensor::elementwise_max`] for an operand of shape `S`.
    fn elementwise_max<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;
    /// [`Tensor::elementwise_min`] for an operand of shape `S`.
    fn elementwise_min<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;
    /// [`Tensor::elementwise_div`] for an operand of shape `S` (an integer
    /// division by zero is its one error).
    fn elementwise_div<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<PlainOut<T, S, B, Y, A>, ElementwiseError>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>;

    /// [`Tensor::try_elementwise_mul`] for an operand of shape `S`.
    fn try_elementwise_mul<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::try_elementwise_add`] for an operand of shape `S`.
    fn try_elementwise_add<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::try_elementwise_sub`] for an operand of shape `S`.
    fn try_elementwise_sub<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::try_elementwise_max`] for an operand of shape `S`.
    fn try_elementwise_max<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::try_elementwise_min`] for an operand of shape `S`.
    fn try_elementwise_min<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::try_elementwise_div`] for an operand of shape `S`.
    fn try_elementwise_div<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>;
}

impl<T: Element, S: Shape, B: Storage<T>> SameShapeForms<T, S, B> for Tensor<T, S, B> {
    #[inline]
    fn elementwise_mul<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Mul, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_add<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Add, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_sub<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Sub, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_max<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Max, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_min<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Min, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_div<Y: StaticShape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<PlainOut<T, S, B, Y, A>, ElementwiseError>
    where
        SameOf<A::Out, Y>: StaticShape,
        B: ResultStorage<T, SameOf<A::Out, Y>>,
    {
        let walk = Planned::<SameFrame<A::Out, Y, AXIS>, 2>::WALK;
        let (out, r) = same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Div, &walk, self, y);
        r.map(|()| out)
    }

    fn try_elementwise_mul<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Mul, self, y, AXIS)
    }
    fn try_elementwise_add<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Add, self, y, AXIS)
    }
    fn try_elementwise_sub<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Sub, self, y, AXIS)
    }
    fn try_elementwise_max<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Max, self, y, AXIS)
    }
    fn try_elementwise_min<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Min, self, y, AXIS)
    }
    fn try_elementwise_div<Y: Shape, BY: Storage<T>, A: SameOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
    where
        B: ResultStorage<T, A::Out>,
    {
        same_checked::<T, S, B, Y, BY, A>(BinaryOpKind::Div, self, y, AXIS)
    }
}

/// A plain form's output, and whether an integer division met a zero divisor.
type SamePlain<T, S, B, Y, A> = (PlainOut<T, S, B, Y, A>, Result<(), ElementwiseError>);

/// The plain forms: a fresh output of shape `S` (x's), filled along
/// `walk` (the planner's walk of the form's [`SameFrame`], read in the form itself so that an axis
/// the rule rejects is reported at the user's call); the `Result` is an integer
/// division's zero divisor, the one error a plain form can meet.
#[inline(always)]
fn same_plain<T, S, B, Y, BY, A>(
    op: BinaryOpKind,
    walk: &Walk<2>,
    x: &Tensor<T, S, B>,
    y: &Tensor<T, Y, BY>,
) -> SamePlain<T, S, B, Y, A>
where
    T: Element,
    S: Shape,
    Y: StaticShape,
    A: SameOperand<S, Y>,
    SameOf<A::Out, Y>: StaticShape,
    B: Storage<T> + ResultStorage<T, SameOf<A::Out, Y>>,
    BY: Storage<T>,
{
    let shape = <A::Out as SameOutput<Y>>::same_out(A::out(*x.shape()));
    let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
    let r = kernel::run(
        op,
        A::KIND,
        walk,
        x.as_slice(),
        y.as_slice(),
        out.as_mut_slice(),
    );
    (out, r)
}

/// The `try_` forms: the rule on the two tensors' dims first (two run-time
/// dims of one type may differ, or one may be 1 and broadcast), then a
/// fresh output of the shape it gives, filled along its walk.
fn same_checked<T, S, B, Y, BY, A>(
    op: BinaryOpKind,
    x: &Tensor<T, S, B>,
    y: &Tensor<T, Y, BY>,
    axis: isize,
) -> Result<SameOut<T, S, B, Y, A>, ElementwiseError>
where
    T: Element,
    S: Shape,
    Y: Shape,
    B: Storage<T> + ResultStorage<T, A::Out>,
    BY: Storage<T>,
    A: SameOperand<S, Y>,
{
    let f = rule::frame(&x.dims(), &y.dims(), axis)?;
    let shape = A::out(S::from_dims(&f.out_dims())?);
    let mut out = Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
    kernel::run(
        op,
        A::KIND,
        &crate::kernel::plan::walk(&f),
        x.as_slice(),
        y.as_slice(),
        out.as_mut_slice(),
    )?;
    Ok(out)
}
