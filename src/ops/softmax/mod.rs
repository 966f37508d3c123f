//! `softmax` and `log_softmax` along an axis, as PaddlePaddle 3.3.1's
//! `paddle.nn.functional.softmax(x, axis)` and `log_softmax(x, axis)`.
//!
//! ## The rule
//! - The axis lies in `[-r, r - 1]` for a rank-r x and counts from the end
//!   when negative; a 0-d x takes 0 or -1 (`softmax/axis-range`). The
//!   output has x's shape; a zero-size x gives an empty output.
//! - Elements are `f32` or `f64` ([`SoftmaxElement`]); Paddle registers no
//!   integer kernel, and an integer tensor is a compile error
//!   (`softmax/float-element`).
//! - Numerically stable: each row's max is subtracted before `exp`.
//!   softmax is `exp(x - max) / sum`, log_softmax `x - max - ln(sum)`;
//!   a 0-d x gives 1.0 and 0.0. Against Paddle: float32 softmax within
//!   1e-6 relative, float32 log_softmax within `1e-6 · max(|want|, 1)`,
//!   float64 within 1e-12 relative (the conformance vectors' tolerances).
//!
//! ## Static path
//! ```
//! use shapecheck::prelude::*;
//! let x = tensor![[1.0f32, 1.0], [0.0, 0.0]];
//! let p: Tensor<f32, shape![2, 2]> = x.softmax(Axis::<-1>);
//! assert_eq!(p.as_slice(), &[0.5; 4]);
//! let l = x.log_softmax(Axis::<0>);
//! assert!((l.as_slice()[0] - (-0.31326166)).abs() < 1e-6);
//! ```
//! An axis out of range does not compile (`ui-tests/softmax/fail/`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let _ = tensor![[1.0f32, 1.0]].softmax(Axis::<2>); // softmax/axis-range
//! ```
//!
//! ## Dynamic path
//! ```
//! use shapecheck::DynTensor;
//! let x = DynTensor::new(&[2], vec![0.0f64, 0.0]).unwrap();
//! assert_eq!(x.softmax(-1).unwrap().as_slice(), &[0.5, 0.5]);
//! assert_eq!(x.log_softmax(1).unwrap_err().rule(), "softmax/axis-range");
//! ```
//!
//! ## Where things are
//! `rule.rs`: the rule ([`plan`](rule::plan)); `bounds.rs`: [`SoftmaxAxis`],
//! the axis rule as types; `kernel.rs`: the passes; `api.rs`: the static
//! entry [`softmax_with`] and its two forms; `dynamic.rs`; `error.rs`.

mod api;
pub(crate) mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
pub mod rule;

pub use bounds::*;
pub use error::SoftmaxError;
pub use kernel::softmax_slices;

/// `softmax` or `log_softmax`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftmaxKind {
    /// `exp(x - max) / sum`.
    Softmax,
    /// `x - max - ln(sum)`.
    LogSoftmax,
}

mod sealed {
    #[doc(hidden)]
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The element types softmax takes: `f32` and `f64` (`exp` and `ln` from
/// `num-traits`, through `libm` without `std`).
///
/// ```
/// use shapecheck::ops::softmax::SoftmaxElement;
/// fn takes<T: SoftmaxElement>() {}
/// takes::<f32>();
/// takes::<f64>();
/// ```
#[diagnostic::on_unimplemented(
    message = "softmax/float-element: softmax takes f32 or f64 elements, not {Self}",
    label = "a tensor of `{Self}`",
    note = "PaddlePaddle 3.3.1 registers no integer softmax kernel; convert with `x.map(|v| v as f32)`"
)]
#[doc(hidden)]
pub trait SoftmaxElement: num_traits::Float + Default + 'static + sealed::Sealed {
    /// `S` itself: x's shape, reached through the element type so that the
    /// axis rule is only looked at once the element type is accepted
    /// ([`SoftmaxAxis`]).
    type Gate<S>;
}
#[diagnostic::do_not_recommend]
impl SoftmaxElement for f32 {
    type Gate<S> = S;
}
#[diagnostic::do_not_recommend]
impl SoftmaxElement for f64 {
    type Gate<S> = S;
}
