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
//! ## Where things are
//! - [`rule`](self) (`rule.rs`): the rule, one `const fn` from dims and axis
//!   to the output frame or an [`ElementwiseError`]; every path calls it;
//! - `kernel.rs`: the loops and the walk (a constant for static shapes);
//! - `api.rs`: the methods of [`Tensor`](crate::Tensor); `operators.rs`: `&x * &y`;
//! - `error.rs`, `activation.rs`; the type-level rule (for the compile
//!   errors) is in the `bounds` module.

mod activation;
mod api;
pub mod bounds;
mod error;
mod kernel;
pub mod operators;
mod rule;

pub use activation::{
    Activation, ActivationKind, Identity, Relu, Sigmoid, Tanh, UnknownActivation,
};
pub use api::{ElementwiseOutput, ElementwiseResult};
pub use bounds::ElementwiseShapes;
pub use error::ElementwiseError;
pub use kernel::elementwise_slices;
pub use rule::elementwise_output_dims;

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

kind_types!(
    /// A binary elementwise operation, as a type (static path).
    ///
    /// ```
    /// use shapecheck::prelude::*;
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
        /// let z = tensor![2.0f32, 3.0].try_elementwise(Mul, &tensor![4.0f32, 5.0], Axis::<-1>, Identity).unwrap();
        /// assert_eq!(z.as_slice(), &[8.0, 15.0]);
        /// assert_eq!(Mul::KIND, BinaryOpKind::Mul);
        /// ```
        Mul = "elementwise_mul",
        /// `x + y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![2, 3].try_elementwise(Add, &tensor![4, i32::MAX], Axis::<-1>, Identity).unwrap();
        /// assert_eq!(z.as_slice(), &[6, i32::MIN + 2]); // integers wrap
        /// assert_eq!(Add::KIND, BinaryOpKind::Add);
        /// ```
        Add = "elementwise_add",
        /// `x - y`.
        ///
        /// ```
        /// use shapecheck::prelude::*;
        /// let z = tensor![2.0f32, 3.0].try_elementwise(Sub, &tensor![4.0f32, 5.0], Axis::<-1>, Relu).unwrap();
        /// assert_eq!(z.as_slice(), &[0.0, 0.0]); // relu(-2), relu(-2)
        /// assert_eq!(Sub::KIND, BinaryOpKind::Sub);
        /// ```
        Sub = "elementwise_sub",
        /// `x / y` (integer division by zero is an error).
        ///
        /// ```
        /// use shapecheck::prelude::*;
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
