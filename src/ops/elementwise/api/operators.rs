//! The operators `&x * &y`, `+`, `-`, `/` (numpy broadcasting, axis -1),
//! and [`BroadcastWith`], the one bound generic code over static shapes
//! writes for them and for the methods; and the operators with a number on
//! one side, `&x * k` and `k * &x` (and `+`, `-`, `/`).
//!
//! A number meets every shape, run-time dims included, so those need no
//! shape bound. Each gives what the op with a `shape![]` tensor of `k`
//! gives (numpy's rule: the number repeats over every element), element by
//! element with [`Element`]'s arithmetic (wrapping for integers), and
//! stores its result as that op does ([`ResultStorage`]). `/` is for `f32`
//! and `f64` only ([`FloatElement`]), as between tensors.

use super::super::bounds::{ElementwiseNoCheck, ElementwiseShapes, NoCheckShape};
use super::super::kernel;
use super::super::{ActivationKind, BinaryOpKind};
use super::ElementwiseOutput;
use crate::element::{Element, SameElement};
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// Two static shapes that meet under Paddle's elementwise rule at `AXIS`
/// (default -1: numpy broadcasting, `Self` and `Y` right-aligned, every
/// aligned pair of dims equal or one of them 1). The output shape is
/// [`Broadcast`](Self::Broadcast). This is the one bound generic code over
/// static shapes writes for an elementwise op: it covers the plain, `try_`
/// and `_into` forms and (at -1) the operators.
///
/// An alias trait with a blanket impl: any static `S` whose rule at `AXIS`
/// holds with a static output implements it (it says so in its supertraits,
/// so that code bounded by it alone gets [`BroadcastOf<S, Y, AXIS>`] from the ops).
///
/// ```
/// use shapecheck::prelude::*;
/// /// The outer product of a column and a row, for any shapes that broadcast.
/// fn outer<S: BroadcastWith<Y>, Y: StaticShape>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) -> Tensor<f32, BroadcastOf<S, Y>> {
///     x * y
/// }
/// let z = outer(&tensor![[1.0f32], [2.0]], &tensor![10.0f32, 20.0, 30.0]);
/// assert_eq!(z.dims().as_slice(), &[2, 3]);
/// assert_eq!(z.as_slice(), &[10.0, 20.0, 30.0, 20.0, 40.0, 60.0]);
///
/// /// Y placed at axis 1 of X (Paddle's `axis = 1`).
/// fn add_at_1<S: BroadcastWith<Y, 1>, Y: StaticShape>(x: &Tensor<f32, S>, y: &Tensor<f32, Y>) -> Tensor<f32, BroadcastOf<S, Y, 1>> {
///     x.elementwise_add(y, Axis::<1>, Relu)
/// }
/// let w = add_at_1(&Tensor::<f32, shape![2, 3, 4]>::full(1.0), &tensor![1.0f32, -2.0, 3.0]);
/// assert_eq!(w.get(&[1, 1, 3]), Some(&0.0));
/// ```
pub trait BroadcastWith<Y: StaticShape, const AXIS: isize = -1>:
    StaticShape
    + ElementwiseShapes<Y, AXIS, Output = <Self as BroadcastWith<Y, AXIS>>::Broadcast>
    + ElementwiseNoCheck<Y, AXIS, Other = Y>
{
    /// The output shape.
    type Broadcast: StaticShape;
}

impl<S, Y, const AXIS: isize> BroadcastWith<Y, AXIS> for S
where
    Y: StaticShape,
    S: StaticShape + ElementwiseShapes<Y, AXIS> + ElementwiseNoCheck<Y, AXIS, Other = Y>,
    <S as ElementwiseShapes<Y, AXIS>>::Output: StaticShape,
{
    type Broadcast = <S as ElementwiseShapes<Y, AXIS>>::Output;
}

/// The shape of `x op y` for `x` of shape `S` and `y` of shape `Y` at
/// `AXIS` (default -1: `&x * &y`).
pub type BroadcastOf<S, Y, const AXIS: isize = -1> = <S as BroadcastWith<Y, AXIS>>::Broadcast;

/// The type of `&x op &y` for `x: Tensor<T, S, B>` and `y` of shape `Y`.
pub type BroadcastResult<T, S, B, Y> =
    Tensor<T, BroadcastOf<S, Y>, <B as ResultStorage<T, BroadcastOf<S, Y>>>::Out>;

/// The rule of the operators `&x op &y` on tensors: numpy broadcasting
/// (Paddle's axis -1) with no run-time check ([`ElementwiseNoCheck`]); the
/// output shape is [`Output`](Self::Output). One blanket impl; users write
/// [`BroadcastWith`] instead.
///
/// A trait of its own (not a bound on [`ElementwiseShapes`]) so that
/// [`StaticShape`] can promise it for its own shape and `shape![]` in its
/// supertraits: `S: StaticShape` alone then gives `&a - &b` and `&a * &t`,
/// while a method whose rule no bound states (`x.elementwise_mul(y, ..)`
/// for two generic shapes) is still the short "bounds were not satisfied"
/// error naming [`ElementwiseShapes`].
#[diagnostic::on_unimplemented(
    message = "elementwise/broadcast: `&x op &y` with x of shape {Self} and y of shape {Y}: nothing says that they broadcast",
    label = "{Self} and {Y} must broadcast (numpy's rule, axis -1)",
    note = "in generic code, add `{Self}: BroadcastWith<{Y}>` (the output is `BroadcastOf<{Self}, {Y}>`); a shape meets its own and `shape![]` with no bound"
)]
#[doc(hidden)]
pub trait OperatorShapes<Y: Shape>: Shape {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(x: &Self, y: &Y) -> Self::Output;
}

impl<S: Shape, Y: Shape> OperatorShapes<Y> for S
where
    S: ElementwiseNoCheck<Y, -1>,
    S: ElementwiseShapes<NoCheckShape<S, Y, -1>, -1>,
{
    type Output = ElementwiseOutput<S, NoCheckShape<S, Y, -1>, -1>;
    #[inline(always)]
    fn output(x: &S, y: &Y) -> Self::Output {
        let y_other = <S as ElementwiseNoCheck<Y, -1>>::other(y);
        <S as ElementwiseShapes<_, -1>>::output(x, &y_other)
    }
}

/// The rule of `a op b` on fused expressions ([`Expr`](crate::expr::Expr)):
/// numpy broadcasting (Paddle's axis -1), run-time dims checked when the
/// expression is evaluated. One blanket impl over [`ElementwiseShapes`];
/// a trait of its own for the reason [`OperatorShapes`] gives.
#[diagnostic::on_unimplemented(
    message = "elementwise/broadcast: `a op b` on an expression of shape {Self} and an operand of shape {Y}: nothing says that they broadcast",
    label = "{Self} and {Y} must broadcast (numpy's rule, axis -1)",
    note = "in generic code, add `{Self}: BroadcastWith<{Y}>` (static shapes) or `{Self}: ElementwiseShapes<{Y}, -1>` (run-time dims); a shape meets its own and `shape![]` with no bound"
)]
#[doc(hidden)]
pub trait LazyOperatorShapes<Y: Shape>: Shape {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(x: &Self, y: &Y) -> Self::Output;
}

impl<S: ElementwiseShapes<Y, -1>, Y: Shape> LazyOperatorShapes<Y> for S {
    type Output = ElementwiseOutput<S, Y, -1>;
    #[inline(always)]
    fn output(x: &S, y: &Y) -> Self::Output {
        <S as ElementwiseShapes<Y, -1>>::output(x, y)
    }
}

// The operator impls. `tensors:` one per operator, `&x op &y`: none of
// them can fail on static shapes (Mul, Add and Sub have no run-time error,
// and `/` is only defined for floats, [`FloatElement`], put on the right
// operand's element type, see above). `number:` one per number type,
// operator and side (`&x op k`, `k op &x`; see above the invocations).
macro_rules! operators {
    (tensors: $trait:ident, $method:ident, $kind:ident, $elem:path) => {
        impl<'b, T, S, B, TY, Y, BY> core::ops::$trait<&'b Tensor<TY, Y, BY>> for &Tensor<T, S, B>
        where
            T: Element,
            S: Shape,
            TY: SameElement<T> + $elem,
            Y: Shape,
            BY: Storage<TY>,
            // numpy's rule, and a `Dyn` dim meets only 1s or no dim
            // ([`OperatorShapes`]); for static shapes `S: BroadcastWith<Y>`
            // has it, and `S: StaticShape` for `Y` = `S` or `shape![]`
            S: OperatorShapes<Y>,
            B: ResultStorage<T, OperatorOutput<S, Y>>,
        {
            type Output = Tensor<T, OperatorOutput<S, Y>, B::Out>;
            #[inline]
            fn $method(self, y: &'b Tensor<TY, Y, BY>) -> Self::Output {
                let shape = <S as OperatorShapes<Y>>::output(self.shape(), y.shape());
                let mut out =
                    Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
                // `None` cannot happen (see `kernel::plain_walk`): the
                // output is then returned as filled; and none of these ops
                // can fail on a walk (`/` is for floats only)
                let out_first = shape.first_size();
                let mut room = None;
                if let Some(walk) =
                    kernel::plain_walk::<S, Y, -1>(self.shape(), y.shape(), out_first, &mut room)
                {
                    let _ = kernel::run(
                        BinaryOpKind::$kind,
                        ActivationKind::Identity,
                        walk,
                        self.as_slice(),
                        TY::same(y.as_slice()),
                        out.as_mut_slice(),
                    );
                }
                out
            }
        }
    };
    (number: $num:ty) => {
        operators!(number: $num, Mul, mul, Element);
        operators!(number: $num, Add, add, Element);
        operators!(number: $num, Sub, sub, Element);
        operators!(number: $num, Div, div, FloatElement);
    };
    (number: $num:ty, $trait:ident, $method:ident, $elem:path) => {
        #[doc = concat!("`&x ", stringify!($method), " k` for a number `k: ", stringify!($num), "`: each element and `k`, in that order.")]
        impl<T, S, B> core::ops::$trait<$num> for &Tensor<T, S, B>
        where
            T: $elem,
            S: Shape,
            B: ResultStorage<T, S>,
            $num: SameElement<T>,
        {
            type Output = Tensor<T, S, B::Out>;
            #[inline]
            fn $method(self, k: $num) -> Self::Output {
                let k = k.same_value();
                each(self, |v| T::$method(v, k))
            }
        }

        #[doc = concat!("`k ", stringify!($method), " &x` for a number `k: ", stringify!($num), "`: `k` and each element, in that order.")]
        impl<T, S, B> core::ops::$trait<&Tensor<T, S, B>> for $num
        where
            T: $elem,
            S: Shape,
            B: ResultStorage<T, S>,
            $num: SameElement<T>,
        {
            type Output = Tensor<T, S, B::Out>;
            #[inline]
            fn $method(self, x: &Tensor<T, S, B>) -> Self::Output {
                let k = self.same_value();
                each(x, |v| T::$method(k, v))
            }
        }
    };
}

/// The output shape of `&x op &y` (numpy broadcasting): [`BroadcastOf`] for
/// static shapes.
type OperatorOutput<S, Y> = <S as OperatorShapes<Y>>::Output;

operators!(tensors: Mul, mul, Mul, Copy);
operators!(tensors: Add, add, Add, Copy);
operators!(tensors: Sub, sub, Sub, Copy);
operators!(tensors: Div, div, Div, FloatElement);

/// Element types `&x / &y` is defined for: `f32` and `f64`, whose division
/// cannot fail (a zero divisor gives an infinity or NaN, as IEEE 754 and
/// every framework say). Sealed: [`Element`] cannot be implemented outside
/// shapecheck.
///
/// ```
/// use shapecheck::prelude::*;
/// let q = &tensor![1.0f32, 2.0] / &tensor![4.0f32, 0.0];
/// assert_eq!(q.as_slice(), &[0.25, f32::INFINITY]);
/// // integers: the `Result` form
/// let err = tensor![1, 2].elementwise_div(&tensor![1, 0], Axis::<-1>, Identity).unwrap_err();
/// assert_eq!(err.rule(), "elementwise/division-by-zero");
/// ```
///
/// `/` on integer tensors does not compile ("elementwise/division-by-zero: `/`
/// on tensors of i32"):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let _ = &tensor![1i32, 2] / &tensor![1i32, 1];
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/division-by-zero: `/` on tensors of {Self}: integer division can fail (division by zero), so the operator is only defined for f32 and f64",
    label = "use `x.elementwise_div(&y, Axis::<-1>, Identity)`, which returns a Result",
    note = "shapecheck never panics on user data: integer division by zero is an ElementwiseError::DivisionByZero"
)]
pub trait FloatElement: Element {}
#[diagnostic::do_not_recommend]
impl FloatElement for f32 {}
#[diagnostic::do_not_recommend]
impl FloatElement for f64 {}

/// `f(v)` for every element of `x`, into a result stored as the ops store
/// one of `x`'s shape.
#[inline(always)]
fn each<T, S, B>(x: &Tensor<T, S, B>, f: impl Fn(T) -> T) -> Tensor<T, S, B::Out>
where
    T: Element,
    S: Shape,
    B: ResultStorage<T, S>,
{
    let shape = *x.shape();
    let mut data = B::Out::filled(&shape, T::default());
    for (o, &v) in data.as_mut_slice().iter_mut().zip(x.as_slice()) {
        *o = f(v);
    }
    Tensor::from_parts_unchecked(shape, data)
}

// The numbers: one impl per number type, operator and side. Rust's orphan rule wants
// the number's type written out on the left (`k * &x`); on the right
// (`&x * k`) a written-out type keeps these impls apart from the one of
// `&x * &y`, so that a mistake there is still reported by that impl's own
// rule. Each is generic over the tensor's element type `T`: a number of
// another type (`&x_f32 * 2.0f64`) is the "elementwise/element-type" error,
// and an integer `/` the "elementwise/division-by-zero" one, rather than a
// list of impls.

operators!(number: f32);
operators!(number: f64);
operators!(number: i8);
operators!(number: i16);
operators!(number: i32);
operators!(number: i64);
operators!(number: u8);
operators!(number: u16);
operators!(number: u32);
operators!(number: u64);
#[cfg(feature = "half")]
operators!(number: half::f16);
#[cfg(feature = "half")]
operators!(number: half::bf16);
