//! Half-precision elements (feature `half`): [`f16`](struct@f16) and [`bf16`] from the
//! `half` crate implement [`Element`](crate::Element), so they work in every
//! op: `elementwise_*` (with activations), `select` and `multiplex` (which
//! move elements and need only `Copy`), and `&x / &y` ([`FloatElement`]).
//!
//! Arithmetic follows the frameworks' half kernels (Paddle's `float16` and
//! `bfloat16` compute in `float` and round back): each of `+ - * /` is done in
//! `f32` and rounded once to the half type, which is the correctly rounded
//! half result for `+ - *` (an `f32` holds the exact result of two halves'
//! `+ -` and `*`; for `/`, rounding twice can differ by one half-ulp in rare
//! cases). `tanh` and `sigmoid` are computed in `f64` and rounded once.
//!
//! Tolerance against the conformance vectors (`tests/interop_half.rs`): the
//! inputs are small integers and halves, exact in both types; a result is
//! accepted within one unit in the last place of the half type relative to
//! its magnitude, `|got - want| <= eps * max(1, |want|)` with
//! `eps = 2^-10` for `f16` and `2^-7` for `bf16`; select and multiplex
//! results, which only move values, must be bit-exact.
//!
//! ```
//! use half::f16;
//! use shapecheck::prelude::*;
//! let h = |v: f32| f16::from_f32(v);
//! let x = Tensor::<f16, shape![2, 2]>::from_array([[h(1.0), h(2.0)], [h(3.0), h(4.0)]]);
//! let y = Tensor::<f16, shape![2]>::from_array([h(0.5), h(-1.0)]);
//! let z = x.elementwise_mul(&y, Axis::<-1>, Relu);
//! assert_eq!(z.as_slice(), &[h(0.5), h(0.0), h(1.5), h(0.0)]);
//! ```

pub use ::half::{bf16, f16};

use crate::ops::elementwise::FloatElement;

// As for f32 and f64: kept out of the "other types implement" list, so `/`
// on integers reports the same one error whatever the features.
#[diagnostic::do_not_recommend]
impl FloatElement for f16 {}
#[diagnostic::do_not_recommend]
impl FloatElement for bf16 {}
