//! The named forms on one generic shape: in a function generic over `S`,
//! `x.elementwise_max(&y, Axis::<-1>, Identity)` with `y` of shape `S` or
//! `shape![]` needs no bound beyond `S: StaticShape`, as `&x - &y` needs
//! none; the `try_` forms take `y` of shape `S` for any `S: Shape`.
//!
//! The inherent methods (`api.rs`) state their rule as a bound on `S`,
//! which a shape rustc cannot see (`S` itself) never meets, so rustc
//! passes over them for such a call and finds these: [`SameShapeForms`],
//! implemented for every tensor and imported by the prelude (`as _`, so it
//! adds no name). Where the shapes are known, or a bound states the rule,
//! the inherent methods are chosen as before: nothing here changes a call
//! that compiled.
//!
//! The operand rule is asked of the activation (the argument typed last),
//! so that a mismatch is one error at the method rather than at an
//! argument with an excerpt of this file (docs/compile-errors.md): the
//! plain forms' [`PlainOperand`] holds where `S` meets `Y` by the
//! operators' rule with `S` as the output, which [`StaticShape`] promises
//! for its own shape and `shape![]`; the `try_` forms' [`SameOperand`]
//! where `Y` is `S` ([`SameShapeAs`], one blanket impl).
//!
//! Every form runs the one elementwise rule ([`super::super::rule`]): the
//! plain forms through a constant walk ([`kernel::SameWalk`], the rule at
//! compile time), the `try_` forms at run time on the dims (two `Dyn` dims
//! of one type may differ, or broadcast).

use super::super::kernel::{self, SameWalk};
use super::super::rule;
use super::{Activation, Axis, BinaryOpKind, ElementwiseError};
use crate::element::Element;
use crate::kernel::Walk;
use crate::shape::{Shape, StaticShape};
use crate::storage::{OwnedStorage, ResultStorage, Storage};
use crate::tensor::Tensor;

/// `Self` is the shape `S`: what the `try_` named forms (for any `S:
/// Shape`, run-time dims included) ask of their operand's shape when no
/// bound states a rule, so that a generic function can give them a tensor
/// of another type parameter that is in fact the receiver's shape. One
/// blanket impl (a shape is the same as itself): with two tensors of one
/// type parameter nothing is needed, and to broadcast two different shapes
/// the bound is [`ElementwiseShapes`](crate::ElementwiseShapes). (The plain
/// forms need no such bound: [`StaticShape`] promises its own shape.)
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{ElementwiseError, SameShapeAs};
/// fn diff<S: Shape, Y: Shape + SameShapeAs<S>>(
///     x: &Tensor<f32, S, Vec<f32>>,
///     y: &Tensor<f32, Y, Vec<f32>>,
/// ) -> Result<Tensor<f32, S, Vec<f32>>, ElementwiseError> {
///     x.try_elementwise_sub(y, Axis::<-1>, Identity)
/// }
/// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![3.0, 5.0]).unwrap();
/// assert_eq!(diff(&x, &x).unwrap().as_slice(), &[0.0, 0.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/broadcast: x of shape {S} and y of shape {Self}: nothing says that they broadcast",
    label = "{S} and {Self} must broadcast",
    note = "in generic code, add `{S}: BroadcastWith<{Self}>` (axis -1; the output is `BroadcastOf<{S}, {Self}>`) or `{S}: ElementwiseShapes<{Self}, AXIS>`; a shape meets its own with no bound"
)]
pub trait SameShapeAs<S> {
    /// The shape, as `S`.
    fn same(&self) -> S;
}

impl<S: Copy> SameShapeAs<S> for S {
    #[inline(always)]
    fn same(&self) -> S {
        *self
    }
}

/// The bound of every form, asked of the activation `A` (the argument
/// typed last): `y`'s shape `Y` is `S`.
#[doc(hidden)]
pub trait SameOperand<S, Y>: Activation {
    /// The output shape: `S`.
    type Out: Shape;
    /// The operand's shape as `S`.
    fn same(y: &Y) -> S;
    /// `S` as the output shape.
    fn out(s: S) -> Self::Out;
}

impl<S: Shape, Y: SameShapeAs<S>, A: Activation> SameOperand<S, Y> for A {
    type Out = S;
    #[inline(always)]
    fn same(y: &Y) -> S {
        y.same()
    }
    #[inline(always)]
    fn out(s: S) -> S {
        s
    }
}

/// The bound of the plain forms, asked of the activation `A` as
/// [`SameOperand`] is: `y`'s shape `Y` is `S` or `shape![]`, which every
/// static shape promises to meet ([`StaticShape`]'s supertraits, the
/// operators' rule at axis -1, with `S` as the output).
#[doc(hidden)]
pub trait PlainOperand<S, Y>: Activation {
    /// The output shape: `S`.
    type Out: Shape;
    /// `S` as the output shape.
    fn out(s: S) -> Self::Out;
}

impl<S, Y, A: Activation> PlainOperand<S, Y> for A
where
    S: StaticShape + super::OperatorShapes<Y, Output = S>,
    Y: StaticShape,
{
    type Out = S;
    #[inline(always)]
    fn out(s: S) -> S {
        s
    }
}

/// The output of a `try_` form: shape `S` (as [`SameOperand::Out`]),
/// stored as `B`'s results of that shape are.
type SameOut<T, S, B, Y, A> = Tensor<
    T,
    <A as SameOperand<S, Y>>::Out,
    <B as ResultStorage<T, <A as SameOperand<S, Y>>::Out>>::Out,
>;

/// The named elementwise forms for an operand of the receiver's own shape,
/// in generic code (see the [module docs](self)). Imported by the prelude;
/// called as the inherent methods are, whose docs describe each op.
#[doc(hidden)]
pub trait SameShapeForms<T: Element, S: Shape, B: Storage<T>> {
    /// [`Tensor::elementwise_mul`] for an operand of shape `S`.
    fn elementwise_mul<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::elementwise_add`] for an operand of shape `S`.
    fn elementwise_add<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::elementwise_sub`] for an operand of shape `S`.
    fn elementwise_sub<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::elementwise_max`] for an operand of shape `S`.
    fn elementwise_max<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::elementwise_min`] for an operand of shape `S`.
    fn elementwise_min<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;
    /// [`Tensor::elementwise_div`] for an operand of shape `S` (an integer
    /// division by zero is its one error).
    fn elementwise_div<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<PlainOut<T, S, B, Y, A>, ElementwiseError>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>;

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
    fn elementwise_mul<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Mul, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_add<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Add, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_sub<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Sub, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_max<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Max, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_min<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> PlainOut<T, S, B, Y, A>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
        let (out, _cannot_fail) =
            same_plain::<T, S, B, Y, BY, A>(BinaryOpKind::Min, &walk, self, y);
        out
    }
    #[inline]
    fn elementwise_div<Y: StaticShape, BY: Storage<T>, A: PlainOperand<S, Y>, const AXIS: isize>(
        &self,
        y: &Tensor<T, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Result<PlainOut<T, S, B, Y, A>, ElementwiseError>
    where
        S: StaticShape,
        B: ResultStorage<T, A::Out>,
    {
        let walk = SameWalk::<S, Y, AXIS>::WALK;
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

/// The output of a plain form: shape `S` (as [`PlainOperand::Out`]).
type PlainOut<T, S, B, Y, A> = Tensor<
    T,
    <A as PlainOperand<S, Y>>::Out,
    <B as ResultStorage<T, <A as PlainOperand<S, Y>>::Out>>::Out,
>;

/// A plain form's output, and whether an integer division met a zero divisor.
type SamePlain<T, S, B, Y, A> = (PlainOut<T, S, B, Y, A>, Result<(), ElementwiseError>);

/// The plain forms: a fresh output of shape `S` (x's), filled along
/// `walk` (the form's [`SameWalk`], read in the form itself so that an axis
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
    S: StaticShape,
    Y: StaticShape,
    B: Storage<T> + ResultStorage<T, A::Out>,
    BY: Storage<T>,
    A: PlainOperand<S, Y>,
{
    let shape = A::out(*x.shape());
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
    let y_shape = A::same(y.shape());
    let f = rule::frame(&x.dims(), &y_shape.dims(), axis)?;
    let shape = A::out(S::from_dims(&f.out_dims())?);
    let mut out = Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
    kernel::run(
        op,
        A::KIND,
        &kernel::walk(&f),
        x.as_slice(),
        y.as_slice(),
        out.as_mut_slice(),
    )?;
    Ok(out)
}
