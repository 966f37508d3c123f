//! `&x * &y`, `&x + &y`, `&x - &y`, `&x / &y`: the elementwise ops with
//! numpy broadcasting (Paddle's default `axis = -1`: shapes right-aligned,
//! aligned dims equal or one of them 1), on the static path.
//!
//! Both shapes must be static ([`StaticShape`]), so the operators cannot fail:
//! a pair of shapes the rule rejects does not compile, and the error's first
//! line names both shapes and the rule (`ui-tests/elementwise/fail/operator_mismatch.rs`).
//! The result's shape is in its type ([`BroadcastOf`]); it is inline, or a
//! `Vec` when the left operand is one (see [`crate::storage`]). The Paddle form with any axis and an activation is the named
//! method (`x.elementwise_mul(&y, Axis::<1>, Relu)`), and tensors with
//! run-time dims use `try_elementwise`.
//!
//! ```
//! use shapecheck::prelude::*;
//! let x = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let y = tensor![10.0, 20.0, 30.0];
//! let z: Tensor<f64, shape![2, 3]> = &x * &y;
//! assert_eq!(z, x.elementwise_mul(&y, Axis::<-1>, Identity));
//! assert_eq!(z.as_slice(), &[10.0, 40.0, 90.0, 40.0, 100.0, 180.0]);
//! // a column [2, 1] and a row [3] broadcast both ways to [2, 3]
//! let col = tensor![[1.0], [2.0]];
//! let sum: Tensor<f64, shape![2, 3]> = &col + &y;
//! assert_eq!(sum.as_slice(), &[11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
//! ```
//!
//! Shapes numpy rejects do not compile:
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3]>::full(1.0);
//! let y = Tensor::<f32, shape![2]>::full(1.0);
//! let _ = &x * &y; // [2] right-aligned against [2, 3] meets the 3
//! ```
//!
//! ## Division
//! `&x / &y` exists only for `f32` and `f64` ([`FloatElement`]), where a zero
//! divisor gives an infinity or NaN as IEEE 754 (and every framework) says.
//! An integer division by zero has no value, and shapecheck never panics on
//! user data, so integers use [`elementwise_div`](crate::Tensor::elementwise_div),
//! which returns `Err(ElementwiseError::DivisionByZero { .. })`:
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let a = tensor![7, 8];
//! let _ = &a / &a; // `/` on tensors of i32: integer division can fail ...
//! ```
//! ```
//! use shapecheck::prelude::*;
//! let (a, b) = (tensor![7, 8], tensor![2, 0]);
//! assert!(a.elementwise_div(&b, Axis::<-1>, Identity).is_err());
//! let q = &tensor![1.0, -1.0] / &tensor![0.0, 4.0];
//! assert_eq!(q.as_slice(), &[f64::INFINITY, -0.25]);
//! ```
//!
//! ## Generic code
//! One bound says "`S` and `Y` broadcast": [`BroadcastWith`], an alias trait
//! with a blanket impl (for every pair of static shapes numpy accepts), whose
//! output shape is [`BroadcastOf<S, Y>`]. It carries everything the operators
//! need, so a function generic over shapes (and elements) reads:
//! ```
//! use shapecheck::prelude::*;
//!
//! /// `x * y`, numpy broadcasting, for any element type and any shapes that broadcast.
//! fn scale<T: Element, S, Y>(x: &Tensor<T, S>, y: &Tensor<T, Y>) -> Tensor<T, BroadcastOf<S, Y>>
//! where
//!     S: BroadcastWith<Y>,
//!     Y: StaticShape,
//! {
//!     x * y
//! }
//!
//! let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
//! let s: Tensor<f32, shape![2, 2]> = scale(&x, &tensor![[10.0], [100.0]]);
//! assert_eq!(s.as_slice(), &[10.0, 20.0, 300.0, 400.0]);
//! let (a, b) = (Tensor::<i64, shape![4]>::full(2), Tensor::<i64, shape![3, 1]>::full(3));
//! let r: Tensor<i64, shape![3, 4]> = scale(&a, &b);
//! assert!(r.as_slice().iter().all(|&v| v == 6));
//! ```
//! Without the alias the same function needs the rule's bounds spelled out:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::ops::elementwise::ElementwiseOutput;
//! use shapecheck::ops::elementwise::ElementwiseShapes;
//!
//! fn scale<T: Element, S, Y>(
//!     x: &Tensor<T, S>,
//!     y: &Tensor<T, Y>,
//! ) -> Tensor<T, ElementwiseOutput<S, Y, -1>>
//! where
//!     S: StaticShape + ElementwiseShapes<Y, -1>,
//!     Y: StaticShape,
//!     ElementwiseOutput<S, Y, -1>: StaticShape,
//! {
//!     x.elementwise_mul(y, Axis::<-1>, Identity)
//! }
//! # let s = scale(&tensor![1.0, 2.0], &tensor![3.0]);
//! # assert_eq!(s.as_slice(), &[3.0, 6.0]);
//! ```
//!
//! ## Why the bounds are arranged this way
//! rustc checks `a * b` by looking for `Mul` impls *before* it has settled the
//! right operand's type (it may still coerce it). A bound of the impl that
//! only involves the left operand is decided at that point, and if it fails,
//! rustc reports a generic E0369 "cannot multiply `&Tensor<..>` by
//! `&Tensor<..>`" instead of the bound's own message. So every bound that can
//! fail on valid-looking code has the right operand's type in it: the shape
//! rule is `S: BroadcastWith<Y>` (it mentions `Y`), and the float-only rule of
//! `/` is put on the right operand's element type (`TY: FloatElement`, with
//! `TY` the same type as `T`). rustc then decides them once both types are
//! known, and the first line of the error is the rule's own message (the
//! elementwise broadcast rule, naming both shapes). The bounds left on the
//! left operand alone are the ones that cannot be moved: its shape is static
//! (`&x * &y` with a `Dyn` dim in `x` is an E0369 whose note says "`Dyn` does
//! not implement `StaticDim`") and its element type is numeric ([`Element`]).

use super::bounds::ElementwiseShapes;
use super::{BinaryOpKind, Identity};
use crate::element::{Element, SameElement};
use crate::ops::elementwise::Activation;
use crate::shape::StaticShape;
use crate::storage::{OwnedStorage, ResultStorage, Storage};
use crate::tensor::Tensor;

/// Numpy broadcasting of two static shapes: `Self` and `Y` right-aligned,
/// every aligned pair of dims equal or one of them 1 (Paddle's elementwise rule at
/// `axis = -1`). The output shape is [`Broadcast`](Self::Broadcast).
///
/// An alias trait with a blanket impl: any `S: StaticShape + ElementwiseShapes<Y, -1>`
/// whose output is static implements it.
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
/// ```
pub trait BroadcastWith<Y: StaticShape>: StaticShape + ElementwiseShapes<Y, -1> {
    /// The output shape.
    type Broadcast: StaticShape;
}

impl<S, Y> BroadcastWith<Y> for S
where
    Y: StaticShape,
    S: StaticShape + ElementwiseShapes<Y, -1>,
    <S as ElementwiseShapes<Y, -1>>::Output: StaticShape,
{
    type Broadcast = <S as ElementwiseShapes<Y, -1>>::Output;
}

/// The shape of `&x * &y` for `x` of shape `S` and `y` of shape `Y`.
pub type BroadcastOf<S, Y> = <S as BroadcastWith<Y>>::Broadcast;

/// The type of `&x op &y` for `x: Tensor<T, S, B>` and `y` of shape `Y`.
pub type BroadcastResult<T, S, B, Y> =
    Tensor<T, BroadcastOf<S, Y>, <B as ResultStorage<T, BroadcastOf<S, Y>>>::Out>;

// None of them can fail on static shapes: Mul, Add and Sub have no
// run-time error, and `/` is only defined for floats ([`FloatElement`],
// put on the right operand's element type, see above).
macro_rules! operator {
    ($trait:ident, $method:ident, $kind:ident, $elem:path) => {
        impl<'b, T, S, B, TY, Y, BY> core::ops::$trait<&'b Tensor<TY, Y, BY>> for &Tensor<T, S, B>
        where
            T: Element,
            TY: SameElement<T> + $elem,
            Y: StaticShape,
            BY: Storage<TY>,
            S: BroadcastWith<Y>,
            B: ResultStorage<T, BroadcastOf<S, Y>>,
        {
            type Output = BroadcastResult<T, S, B, Y>;
            #[inline]
            fn $method(self, y: &'b Tensor<TY, Y, BY>) -> Self::Output {
                let shape = <BroadcastOf<S, Y>>::default();
                let mut out =
                    Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
                let _ = self.static_elementwise_into::<TY, Y, BY, -1>(
                    BinaryOpKind::$kind,
                    <Identity as Activation>::KIND,
                    y,
                    out.as_mut_slice(),
                );
                out
            }
        }
    };
}

operator!(Mul, mul, Mul, Copy);
operator!(Add, add, Add, Copy);
operator!(Sub, sub, Sub, Copy);
operator!(Div, div, Div, FloatElement);

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
