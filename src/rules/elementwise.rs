//! Elementwise's rules: Paddle's axis placement and the dim rules of each
//! aligned pair (see the [parent module](super) for how rules are built).

use super::sealed::Sealed;
use super::*;

/// Elementwise, dim rule: a trailing dim of the lower-rank operand that runs
/// past the other's last dim must be 1 (it is then ignored, as Paddle's docs say).
#[diagnostic::on_unimplemented(
    message = "elementwise/runs-past: with {Ax}, the lower-rank of X {X} and Y {Y} runs past the other's last dim; only trailing dims of size 1 can be dropped, and this one is {Self}",
    label = "the lower-rank operand does not fit at this axis",
    note = "fix: a smaller axis, so that the lower-rank operand ends within the other (Paddle itself overflows a buffer on these shapes)"
)]
pub trait ElementwiseDroppableDim<X, Y, Ax>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}
droppable_rule!(ElementwiseDroppableDim [X, Y, Ax] [X, Y, Ax]);

check_chain!(
    /// Elementwise: [`ElementwiseDroppableDim`] of `D` as a link of a chain.
    ElementwiseDropLink [D, X, Y, Ax] [D, X, Y, Ax] where D: ElementwiseDroppableDim<X, Y, Ax>
);

/// Elementwise, axis gate: implemented by no type. Required where a negative
/// axis lands before the first dim (`|rank(X) - rank(Y)| + axis + 1 < 0`).
#[diagnostic::on_unimplemented(
    message = "elementwise/axis-before-start: {Ax} places the lower-rank of X {X} and Y {Y} before the first dim of the other",
    label = "a negative axis counts as |rank(X) - rank(Y)| + axis + 1, which must not be negative",
    note = "fix: an axis in [-(|rank(X) - rank(Y)| + 1), R), R the larger rank (Paddle: \"Axis should be great than or equal to 0\")"
)]
pub trait ElementwiseAxisBeforeStart<X, Y, Ax> {}

/// Placement: the lower-rank operand starts at dim `O` of the other and fits
/// (equal ranks: `At<0>`, numpy broadcasting).
#[derive(Clone, Copy, Debug, Default)]
pub struct At<const O: usize>;
/// Placement: the lower-rank operand starts at dim `O` and keeps its first `K`
/// dims; the rest run past the end and must be trailing 1s.
#[derive(Clone, Copy, Debug, Default)]
pub struct AtTrimmed<const O: usize, const K: usize>;
/// Placement: equal ranks with an axis other than -1 or 0 (identical shapes only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Identical;
/// Placement: a negative axis before the first dim (always rejected).
#[derive(Clone, Copy, Debug, Default)]
pub struct BeforeStart;
/// Placement: an axis outside `[-R, R)` (always rejected; generated for the
/// axes in `[-16, 16)`, beyond which [`ElementwiseAxis`] has no impl).
#[derive(Clone, Copy, Debug, Default)]
pub struct OutOfRange;

/// Elementwise, axis gate: implemented by no type. Required for an axis
/// outside `[-R, R)` (`R` the larger rank).
#[diagnostic::on_unimplemented(
    message = "elementwise/axis-range: {Ax} is out of range for X {X} and Y {Y}",
    label = "Paddle requires -R <= axis < R, where R is the larger rank",
    note = "fix: an axis in [-R, R); Axis::<-1> right-aligns the operands as numpy does (Paddle: \"The axis range must be [-R, R)\")"
)]
pub trait ElementwiseAxisRange<X, Y, Ax> {}

impl<X: Shape, Y: Shape, Ax> ElementwiseAlign<X, Y, Ax> for OutOfRange
where
    (): ElementwiseAxisRange<X, Y, Ax>,
{
    type Output = X;
    fn output(x: &X, _y: &Y) -> X {
        *x
    }
}

/// Elementwise, axis rule: which placement the axis `Ax` means for X (`Self`)
/// and Y, by Paddle's rule. Generated for every pair of ranks 0..=8 and every
/// axis in `[-R, R)` (`R` the larger rank; `[-16, 16)` when the ranks are
/// equal). X is the `Self` type so that an error points at the call, not at
/// the axis argument.
#[diagnostic::on_unimplemented(
    message = "elementwise/axis-range: {Ax} is out of range for X {Self} and Y {Y}",
    label = "Paddle requires -R <= axis < R, where R is the larger rank",
    note = "fix: an axis in [-R, R) (Axis::<-1> right-aligns as numpy); in generic code, the missing bound is `{Self}: ElementwiseShapes<{Y}, AXIS>` (`{Self}: BroadcastWith<{Y}>` for axis -1)"
)]
pub trait ElementwiseAxis<Y, Ax>: Sealed {
    /// The placement ([`At`], [`AtTrimmed`], [`Identical`] or [`BeforeStart`]).
    type Place;
}

/// Elementwise, alignment rule: the output shape of X and Y placed by the
/// placement `Self`, requiring the dim rules of every aligned pair. `Ax` is the
/// axis, only for the messages. The placement is the `Self` type so that rustc
/// decides nothing about the alignment until the axis has chosen a placement.
pub trait ElementwiseAlign<X: Shape, Y: Shape, Ax>: Sealed {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value (its run-time dims computed from X's and Y's).
    fn output(x: &X, y: &Y) -> Self::Output;
}

impl<X: Shape, Y: Shape, Ax> ElementwiseAlign<X, Y, Ax> for BeforeStart
where
    (): ElementwiseAxisBeforeStart<X, Y, Ax>,
{
    type Output = X;
    fn output(x: &X, _y: &Y) -> X {
        *x
    }
}

/// Elementwise, shape rule: where Y goes in X at `AXIS`, and the output shape,
/// following Paddle's current rule (op-semantics §1 C):
/// - identical shapes: any axis (in `[-16, 16)` here), output = X;
/// - equal ranks: axis -1 or 0, numpy broadcasting;
/// - different ranks: the lower-rank operand is placed at `axis`
///   (`axis < 0` means `|rx - ry| + axis + 1`, so -1 is numpy's right
///   alignment); trailing 1s that run past the end are dropped; every aligned
///   pair broadcasts.
///
/// One blanket impl: the axis picks a placement ([`ElementwiseAxis`]) and the
/// placement the dim rules ([`ElementwiseAlign`]). Splitting it that way lets
/// rustc wait until it knows both shapes and the axis before it decides, so
/// the error it reports names all three.
pub trait ElementwiseShapes<Y: Shape, const AXIS: isize>: Shape + Sealed {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value (its run-time dims computed from X's and Y's).
    fn output(x: &Self, y: &Y) -> Self::Output;
}

/// Elementwise: the whole rule for X (`Self`), Y and the axis `Ax`, as one
/// blanket impl. [`ElementwiseShapes`] has one impl per rank of X, each
/// requiring this: generic code that forgets its bound is then told to
/// write `S: ElementwiseShapes<Y, AXIS>`, and a rejected pair of shapes is
/// reported by its dim rule without a list of the per-rank impls.
pub trait ElementwiseRule<Y: Shape, Ax>: Shape {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(x: &Self, y: &Y) -> Self::Output;
}

/// Elementwise: [`ElementwiseAxis`] of X as a link with `Self = ()`, so that
/// an axis out of range is reported at the call (not blamed on the axis
/// argument) and without a list of impls.
pub trait ElementwiseAxisLink<X, Y, Ax> {
    /// See [`ElementwiseAxis::Place`].
    type Place;
}

impl<P, X: ElementwiseAxis<Y, Ax>, Y, Ax> ElementwiseAxisLink<X, Y, Ax> for P {
    type Place = <X as ElementwiseAxis<Y, Ax>>::Place;
}

type PlaceOf<X, Y, Ax> = <() as ElementwiseAxisLink<X, Y, Ax>>::Place;

impl<X: Shape, Y: Shape, Ax> ElementwiseRule<Y, Ax> for X
where
    (): ElementwiseAxisLink<X, Y, Ax>,
    PlaceOf<X, Y, Ax>: ElementwiseAlign<X, Y, Ax>,
{
    type Output = <PlaceOf<X, Y, Ax> as ElementwiseAlign<X, Y, Ax>>::Output;
    #[inline(always)]
    fn output(x: &X, y: &Y) -> Self::Output {
        <PlaceOf<X, Y, Ax> as ElementwiseAlign<X, Y, Ax>>::output(x, y)
    }
}

/// The impls of [`ElementwiseShapes`], one per rank of X.
macro_rules! elementwise_shapes {
    ($(($($x:ident),*);)*) => { $(
        impl<$($x: DimLike,)* Y: Shape, const A: isize> ElementwiseShapes<Y, A> for ($($x,)*)
        where
            ($($x,)*): ElementwiseRule<Y, Axis<A>>,
        {
            type Output = <($($x,)*) as ElementwiseRule<Y, Axis<A>>>::Output;
            #[inline(always)]
            fn output(x: &Self, y: &Y) -> Self::Output {
                <($($x,)*) as ElementwiseRule<Y, Axis<A>>>::output(x, y)
            }
        }
    )* };
}

elementwise_shapes!(
    ();
    (X0);
    (X0, X1);
    (X0, X1, X2);
    (X0, X1, X2, X3);
    (X0, X1, X2, X3, X4);
    (X0, X1, X2, X3, X4, X5);
    (X0, X1, X2, X3, X4, X5, X6);
    (X0, X1, X2, X3, X4, X5, X6, X7);
);

dim_rules! {
    /// Elementwise, dim rule: two aligned dims broadcast (equal, or one is 1).
    two_way ElementwiseBroadcastDim [X, Y, Ax] => ElementwiseBroadcastLink: message = "elementwise/broadcast: X {X} and Y {Y} do not broadcast with {Ax}: aligned dims {Self} (X) and {Other} (Y) differ and neither is 1", label = "{Self} and {Other} conflict", note = "the lower-rank operand is placed at `axis` of the other (-1: right-aligned, as numpy) and each aligned pair must be equal or 1; fix: pass the axis at which Y lines up with X, or reshape so the conflicting dims agree";
    /// Elementwise, dim rule for operands of equal rank with an axis other than -1
    /// or 0: Paddle accepts that only when the shapes are identical.
    equal ElementwiseSameDim [X, Y, Ax] => ElementwiseSameLink: message = "elementwise/equal-rank-axis: {Ax} is invalid for X {X} and Y {Y}: with equal ranks the axis must be -1 or 0 unless the shapes are identical (dims {Self} and {Other} differ)", label = "fix: use Axis::<-1> (or Axis::<0>) for equal-rank operands", note = "Paddle: \"axis should be -1 or 0 while the dimension of tensor X is equal to the dimension of tensor Y\"";
}

shapecheck_macros::impl_elementwise_rules!(8);
