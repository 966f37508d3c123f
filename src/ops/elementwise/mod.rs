//! `elementwise_mul` and its family (add, sub, div, max, min), with
//! PaddlePaddle's `axis` broadcast rule and an optional activation.
//!
//! ## The rule (Paddle's current one, which the conformance vectors record)
//! - identical shapes: accepted whatever the axis;
//! - equal ranks: `axis` must be -1 or 0; numpy broadcasting;
//! - otherwise `axis` must lie in `[-R, R)` (`R` the larger rank); the
//!   lower-rank operand (X or Y, either may be the larger) is placed at
//!   `axis`, a negative axis meaning `|rank(X) - rank(Y)| + axis + 1` (so -1
//!   is numpy's right alignment), and must not land before the first dim;
//! - if it runs past the other operand's last dim, its trailing 1s are
//!   dropped ("Y's trailing dims of size 1 are ignored", the seed's rule);
//!   if it still runs past, the shapes are rejected. Paddle 3.3.1 overflows a
//!   buffer on these inputs and aborts or answers at random; we never do;
//! - every aligned pair of dims must be equal or one of them 1 (0 broadcasts
//!   only against 0 or 1, as numpy and Paddle do); the output dim is the other.
//!
//! The docs of Paddle's OpMaker still say "Y's rank <= X's rank" and "the
//! output has X's shape"; the implementation broadcasts both ways, and so do we.
//!
//! ## Static path
//! ```
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(2.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(3.0);
//! // Paddle's documented example: Y at axis 1 of X
//! let z = x.elementwise_mul(&y, Axis::<1>, Relu);
//! let _: &Tensor<f32, shape![2, 3, 4, 5]> = &z;
//! assert!(z.as_slice().iter().all(|&v| v == 6.0));
//! ```
//! At axis -1 the same shapes do not compile (`ui-tests/elementwise/dim_mismatch.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(2.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(3.0);
//! let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! ```
//!
//! ## Dynamic path
//! ```
//! use shapecheck::ops::elementwise::{elementwise_slices, ElementwiseError};
//! use shapecheck::{ActivationKind, BinaryOpKind};
//! let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let y = [10.0f32, 100.0];
//! let mut out = [0.0f32; 6];
//! // X [2, 3] with Y [2] at axis 0: row i is scaled by y[i]
//! let dims = elementwise_slices(BinaryOpKind::Mul, ActivationKind::Identity,
//!     &[2, 3], &x, &[2], &y, 0, &mut out).unwrap();
//! assert_eq!(dims.as_slice(), &[2, 3]);
//! assert_eq!(out, [10.0, 20.0, 30.0, 400.0, 500.0, 600.0]);
//! // at axis -1 the 2 meets the 3: a typed error naming the rule and the values
//! let err = elementwise_slices(BinaryOpKind::Mul, ActivationKind::Identity,
//!     &[2, 3], &x, &[2], &y, -1, &mut out).unwrap_err();
//! assert!(matches!(err, ElementwiseError::DimMismatch { x_dim: 3, y_dim: 2, .. }));
//! ```
//!
//! ## Run-time dims in the plain forms
//! A `Dyn` dim needs a run-time check only where it meets a dim of the other
//! operand other than 1. Where it meets 1 or no dim, nothing can fail: the
//! plain forms (`elementwise_mul`, ..., `elementwise_div`) accept it, keep it
//! `Dyn` in the output (stored in a `Vec`, feature `alloc`; without it, the
//! `try_..._into` forms) and give what the `try_` forms give. The static dims
//! are checked by the compiler as ever ([`ElementwiseNoCheck`]).
//! ```
//! use shapecheck::prelude::*;
//! // dynamic_stitch's output has a run-time number of rows
//! let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
//! let w = tensor![10.0f32, 100.0];
//! // the rows meet no dim of w: no check, no `Result`
//! let z: Tensor<f32, shape![Dyn, 2], Vec<f32>> = merged.elementwise_mul(&w, Axis::<-1>, Identity);
//! assert_eq!(z.as_slice(), &[30.0, 400.0, 10.0, 200.0]);
//! assert_eq!(z, merged.try_elementwise_mul(&w, Axis::<-1>, Identity).unwrap());
//! ```
//! Where the `Dyn` meets another dim, the plain form does not compile, and
//! the error says to call the `try_` form (`ui-tests/elementwise/fail/plain_dyn_*.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
//! let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
//! let _ = merged.elementwise_mul(&w, Axis::<-1>, Identity); // the `Dyn` rows meet 2
//! ```
//!
//! ## Operators
//! `&x * &y`, `&x + &y`, `&x - &y`, `&x / &y`: the elementwise ops with
//! numpy broadcasting (Paddle's default `axis = -1`: shapes right-aligned,
//! aligned dims equal or one of them 1), on the static path.
//!
//! The operators cannot fail: a pair of shapes the rule rejects does not
//! compile, and the error's first line names both shapes and the rule
//! (`ui-tests/elementwise/fail/operator_mismatch.rs`); a run-time (`Dyn`)
//! dim is accepted where it needs no check, as by the plain forms (above).
//! The result's shape is in its type ([`BroadcastOf`] for static shapes); it
//! is inline, or a `Vec` when the left operand is one or the shape has a
//! `Dyn` dim (see [`crate::storage`]). The Paddle form with any axis and an activation is the named
//! method (`x.elementwise_mul(&y, Axis::<1>, Relu)`), which also takes
//! tensors with run-time dims that need no check (see above); the others use
//! `try_elementwise`.
//!
//! A number on either side (`&x * 0.5`, `1.0 - &x`, for every element type;
//! `/` for floats) is what the op with a `shape![]` tensor of it gives: it
//! meets every shape, run-time dims included, so generic code needs no
//! bound for it (`fn half<S: Shape>(x: &Owned<f32, S>) -> Owned<f32, S> {
//! x * 0.5 }`). Its type must be the tensor's element type
//! (`ui-tests/elementwise/fail/number_element_mismatch.rs`). `DynTensor` has
//! the same operators; there `&x * &y` is checked when it runs and returns
//! a `Result` (an [`ElementwiseError`], as `elementwise_mul` at axis -1).
//! `DynTensor`'s operands may also be owned (`x * y`, `x * 0.5`, reusing
//! `x`'s buffer); `Tensor`'s are borrowed (an inline tensor is `Copy`, and
//! owned forms would have clippy's `op_ref` ask to drop every `&`).
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
//! // numbers
//! assert_eq!((2.0 * &(&sum - 10.0)).as_slice(), &[2.0, 22.0, 42.0, 4.0, 24.0, 44.0]);
//!
//! // the same on run-time shapes: `&x * &y` is a `Result`, a number cannot fail
//! let (dx, dy) = (x.to_dyn(), y.to_dyn());
//! assert_eq!((&dx * &dy).unwrap().as_slice(), z.as_slice());
//! assert_eq!((1.0 - dx.clone()).as_slice(), &[0.0, -1.0, -2.0, -3.0, -4.0, -5.0]);
//! let two = DynTensor::new(&[2], vec![1.0, 2.0]).unwrap();
//! assert_eq!((dx * two).unwrap_err().rule(), "elementwise/broadcast");
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
//! [`ElementwiseShapes`] alone is the rule without the promise that no dim
//! needs a run-time check: enough for the `try_` forms, which return a `Result`
//! (the plain forms also need [`ElementwiseNoCheck`], which the alias carries):
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::ElementwiseError;
//! use shapecheck::ops::elementwise::ElementwiseOutput;
//! use shapecheck::ops::elementwise::ElementwiseShapes;
//!
//! fn scale<T: Element, S, Y>(
//!     x: &Tensor<T, S>,
//!     y: &Tensor<T, Y>,
//! ) -> Result<Tensor<T, ElementwiseOutput<S, Y, -1>>, ElementwiseError>
//! where
//!     S: StaticShape + ElementwiseShapes<Y, -1>,
//!     Y: StaticShape,
//!     ElementwiseOutput<S, Y, -1>: StaticShape,
//! {
//!     x.try_elementwise_mul(y, Axis::<-1>, Identity)
//! }
//! # let s = scale(&tensor![1.0, 2.0], &tensor![3.0]).unwrap();
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
//! rules are `S: ElementwiseNoCheck<Y, -1>` and `S: ElementwiseShapes<..Y.., -1>`
//! (for static shapes, what `S: BroadcastWith<Y>` says), and the float-only rule of
//! `/` is put on the right operand's element type (`TY: FloatElement`, with
//! `TY` the same type as `T`). rustc then decides them once both types are
//! known, and the first line of the error is the rule's own message (the
//! elementwise broadcast rule, naming both shapes). The one bound left on
//! the left operand alone cannot fail on valid-looking code: its element
//! type is numeric ([`Element`](crate::Element)).
//!
//! ## Where things are
//! - `mod.rs`: these docs, the op and activation kinds, [`Axis`];
//! - `api.rs`: the methods of [`Tensor`](crate::Tensor) and the operators;
//! - `bounds.rs`: the rule at the type level ([`ElementwiseShapes`]; for the
//!   plain forms also [`ElementwiseNoCheck`]), whose failing bound is the
//!   compile error;
//! - `rule.rs`: the rule, one `const fn` from dims and axis to the output
//!   frame or an [`ElementwiseError`]; every path calls it;
//! - `kernel.rs`: the loops and the walk (a constant for static shapes);
//! - `backward.rs`: the gradients (`elementwise_backward` and its `_into`
//!   and `try_` forms, [`elementwise_backward_slices`]): the rule per op
//!   and activation, each operand's gradient summed back to its shape along
//!   the forward's walk; max/min split ties evenly and, unlike Paddle's own
//!   grad op (which ignores `axis`), follow Y where the axis placed it;
//! - `error.rs`: [`ElementwiseError`]; `dynamic.rs`: the methods of
//!   [`DynTensor`](crate::DynTensor), the backward's included.

mod api;
mod backward;
mod bounds;
#[cfg(feature = "alloc")]
mod dynamic;
mod error;
mod kernel;
pub(crate) mod rule;

pub use api::{
    BroadcastOf, BroadcastResult, BroadcastWith, ElementwiseOutput, ElementwiseResult,
    FloatElement, LazyOperatorShapes, OperatorShapes, SameOperand, SameShapeForms,
};
pub use backward::{
    elementwise_backward_slices, ElementwiseDout, ElementwiseDoutLink, ElementwiseDoutRule,
    ElementwiseGrads, GradElement,
};
pub use bounds::*;
pub use error::ElementwiseError;
pub use kernel::elementwise_slices;
pub use rule::elementwise_output_dims;

use core::fmt;

/// Paddle's `axis` attribute as a compile-time value: `Axis::<1>`, `Axis::<-1>`.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = Tensor::<f32, shape![2, 3]>::full(1.0);
/// // Y [2] placed at axis 0: y[i] meets row i
/// let at0 = x.elementwise_mul(&tensor![2.0f32, 3.0], Axis::<0>, Identity);
/// assert_eq!(at0.as_slice(), &[2.0, 2.0, 2.0, 3.0, 3.0, 3.0]);
/// // axis -1: right-aligned, as numpy
/// let last = x.elementwise_mul(&tensor![2.0f32, 3.0, 4.0], Axis::<-1>, Identity);
/// assert_eq!(last.as_slice(), &[2.0, 3.0, 4.0, 2.0, 3.0, 4.0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Axis<const A: isize>;

/// An axis as the dynamic path ([`DynTensor`](crate::DynTensor)'s methods)
/// takes it: the static path's [`Axis::<A>`](Axis), or an `isize` chosen at
/// run time. Users write it only to pass an axis on; it is sealed.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = DynTensor::new(&[2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
/// let y = DynTensor::new(&[3], vec![10.0f32, 20.0, 30.0]).unwrap();
/// let a = x.elementwise_mul(&y, Axis::<-1>, Relu).unwrap();
/// let b = x.elementwise_mul(&y, -1, ActivationKind::Relu).unwrap();
/// assert_eq!(a, b);
/// ```
pub trait DynAxis: crate::ops::sealed::Sealed + Copy {
    /// The axis's value.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::elementwise::DynAxis;
    /// assert_eq!(Axis::<-1>.value(), -1);
    /// assert_eq!(2isize.value(), 2);
    /// ```
    fn value(self) -> isize;
}

impl<const A: isize> DynAxis for Axis<A> {
    #[inline(always)]
    fn value(self) -> isize {
        A
    }
}
impl crate::ops::sealed::Sealed for isize {}
impl DynAxis for isize {
    #[inline(always)]
    fn value(self) -> isize {
        self
    }
}

kind_types!(
    /// A binary elementwise operation, as a type (static path).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{BinaryOp, BinaryOpKind};
    /// use shapecheck::ops::{Div, Mul, Sub};
    /// assert_eq!(<Mul as BinaryOp>::KIND, BinaryOpKind::Mul);
    /// // the op as a type parameter
    /// fn apply<Op: BinaryOp>(op: Op) -> Vec<f32> {
    ///     let x = tensor![6.0f32, 8.0];
    ///     x.try_elementwise(op, &tensor![2.0f32, 4.0], Axis::<-1>, Identity).unwrap().to_vec()
    /// }
    /// assert_eq!(apply(Div), vec![3.0, 2.0]);
    /// assert_eq!(apply(Sub), vec![4.0, 4.0]);
    /// ```
    trait BinaryOp;
    /// A binary elementwise operation as a value (dynamic path).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::BinaryOpKind;
    /// use shapecheck::ops::elementwise::elementwise_slices;
    /// let mut out = [0.0f32; 2];
    /// elementwise_slices(BinaryOpKind::Max, ActivationKind::Identity, &[2], &[1.0, 5.0], &[2], &[3.0, 4.0], -1, &mut out).unwrap();
    /// assert_eq!(out, [3.0, 5.0]);
    /// assert_eq!(BinaryOpKind::ALL.len(), 6);
    /// ```
    enum BinaryOpKind {
        /// `x * y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::BinaryOp;
        /// use shapecheck::BinaryOpKind;
        /// use shapecheck::ops::Mul;
        /// let z = tensor![2.0f32, 3.0].try_elementwise(Mul, &tensor![4.0f32, 5.0], Axis::<-1>, Identity).unwrap();
        /// assert_eq!(z.as_slice(), &[8.0, 15.0]);
        /// assert_eq!(Mul::KIND, BinaryOpKind::Mul);
        /// ```
        Mul = "elementwise_mul",
        /// `x + y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::BinaryOp;
        /// use shapecheck::BinaryOpKind;
        /// use shapecheck::ops::Add;
        /// let z = tensor![2, 3].try_elementwise(Add, &tensor![4, i32::MAX], Axis::<-1>, Identity).unwrap();
        /// assert_eq!(z.as_slice(), &[6, i32::MIN + 2]); // integers wrap
        /// assert_eq!(Add::KIND, BinaryOpKind::Add);
        /// ```
        Add = "elementwise_add",
        /// `x - y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::BinaryOp;
        /// use shapecheck::BinaryOpKind;
        /// use shapecheck::ops::Sub;
        /// let z = tensor![2.0f32, 3.0].try_elementwise(Sub, &tensor![4.0f32, 5.0], Axis::<-1>, Relu).unwrap();
        /// assert_eq!(z.as_slice(), &[0.0, 0.0]); // relu(-2), relu(-2)
        /// assert_eq!(Sub::KIND, BinaryOpKind::Sub);
        /// ```
        Sub = "elementwise_sub",
        /// `x / y` (integer division by zero is an error).
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::ops::Div;
        /// let z = tensor![7, -7].try_elementwise(Div, &tensor![2, 2], Axis::<-1>, Identity).unwrap();
        /// assert_eq!(z.as_slice(), &[3, -3]); // truncates toward zero
        /// let err = tensor![1, 2].try_elementwise(Div, &tensor![1, 0], Axis::<-1>, Identity).unwrap_err();
        /// assert_eq!(err.rule(), "elementwise/division-by-zero");
        /// ```
        Div = "elementwise_div",
        /// `x > y ? x : y` (Paddle's functor, NaN handling included).
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::ops::Max;
        /// let z = tensor![1.0f32, f32::NAN, 5.0]
        ///     .try_elementwise(Max, &tensor![f32::NAN, 2.0, 3.0], Axis::<-1>, Identity)
        ///     .unwrap();
        /// // a comparison with NaN is false, so the result is y's element
        /// assert!(z.as_slice()[0].is_nan());
        /// assert_eq!(z.as_slice()[1..], [2.0, 5.0]);
        /// ```
        Max = "elementwise_max",
        /// `x < y ? x : y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// use shapecheck::ops::Min;
        /// let z = tensor![1.0f32, f32::NAN, 5.0]
        ///     .try_elementwise(Min, &tensor![f32::NAN, 2.0, 3.0], Axis::<-1>, Identity)
        ///     .unwrap();
        /// assert!(z.as_slice()[0].is_nan());
        /// assert_eq!(z.as_slice()[1..], [2.0, 3.0]);
        /// ```
        Min = "elementwise_min",
    }
);

impl BinaryOpKind {
    /// Parses Paddle's op name (`elementwise_mul`, or just `mul`).
    ///
    /// ```
    /// use shapecheck::ops::elementwise::BinaryOpKind;
    /// assert_eq!(BinaryOpKind::from_name("elementwise_max"), Some(BinaryOpKind::Max));
    /// assert_eq!(BinaryOpKind::from_name("max"), Some(BinaryOpKind::Max));
    /// assert_eq!(BinaryOpKind::Max.name(), "elementwise_max");
    /// assert_eq!(BinaryOpKind::from_name("elementwise_pow"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::from_exact_name(name).or_else(|| {
            let short = Some(name);
            Self::ALL
                .iter()
                .copied()
                .find(|k| k.name().strip_prefix("elementwise_") == short)
        })
    }
}

kind_types!(
    /// An activation, as a type (static path). `Identity` is "no activation".
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::Activation;
    /// // the activation as a type parameter: its value is `KIND`
    /// fn name<A: Activation>(_: A) -> &'static str {
    ///     A::KIND.name()
    /// }
    /// assert_eq!(name(Relu), "relu");
    /// ```
    trait Activation;
    /// An activation as a value (dynamic path).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2], vec![-1.0f32, 2.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![1.0f32, 1.0]).unwrap();
    /// let z = x.elementwise_add(&y, -1, ActivationKind::Relu).unwrap();
    /// assert_eq!(z.as_slice(), &[0.0, 3.0]);
    /// ```
    enum ActivationKind default Identity {
        /// No activation (Paddle's `act=None`).
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![-1.0f32, 2.0].elementwise_mul(&tensor![1.0f32, 1.0], Axis::<-1>, Identity);
        /// assert_eq!(z.as_slice(), &[-1.0, 2.0]);
        /// ```
        Identity = "identity",
        /// `max(x, 0)`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![-1.0f32, 2.0].elementwise_mul(&tensor![1.0f32, 1.0], Axis::<-1>, Relu);
        /// assert_eq!(z.as_slice(), &[0.0, 2.0]);
        /// ```
        Relu = "relu",
        /// `tanh(x)`, computed in `f64` and rounded to the element type.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![0.0f32, 100.0].elementwise_mul(&tensor![1.0f32, 1.0], Axis::<-1>, Tanh);
        /// assert_eq!(z.as_slice(), &[0.0, 1.0]);
        /// ```
        Tanh = "tanh",
        /// `1 / (1 + e^-x)`, computed in `f64` and rounded to the element type.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![0.0f32, 100.0].elementwise_mul(&tensor![1.0f32, 1.0], Axis::<-1>, Sigmoid);
        /// assert_eq!(z.as_slice(), &[0.5, 1.0]);
        /// ```
        Sigmoid = "sigmoid",
    }
);

/// An activation name Paddle does not have here.
///
/// ```
/// use shapecheck::ActivationKind;
/// let err = ActivationKind::from_name("gelu").unwrap_err();
/// assert_eq!(err.to_string(), "unknown activation: expected one of relu, tanh, sigmoid");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownActivation;

impl fmt::Display for UnknownActivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown activation: expected one of relu, tanh, sigmoid")
    }
}

impl core::error::Error for UnknownActivation {}

impl ActivationKind {
    /// Parses Paddle's `act` name: `relu`, `tanh`, `sigmoid` (or `""`/`none` for none).
    ///
    /// ```
    /// use shapecheck::ActivationKind;
    /// assert_eq!(ActivationKind::from_name("relu"), Ok(ActivationKind::Relu));
    /// assert_eq!(ActivationKind::from_name("none"), Ok(ActivationKind::Identity));
    /// assert_eq!(ActivationKind::Sigmoid.name(), "sigmoid");
    /// assert!(ActivationKind::from_name("gelu").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Self, UnknownActivation> {
        match name {
            "" | "none" => Ok(ActivationKind::Identity),
            _ => Self::from_exact_name(name).ok_or(UnknownActivation),
        }
    }
}
