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
//! With run-time dims: `x.try_softmax(Axis::<-1>)` and `try_log_softmax`
//! (a `Vec` result, a `Room` for bounded dims), or the entry
//! [`Tensor::softmax_into`](crate::Tensor::softmax_into).
//!
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
//! ## Gradients
//! `x.softmax_backward(axis, &out, &dout)` and `log_softmax_backward` return
//! x's gradient typed as x, from the forward's output (as Paddle's grad ops,
//! x's values are not read): softmax `out · (dout - Σ dout · out)`,
//! log_softmax `dout - exp(out) · Σ dout`, the sums along the axis. `out`
//! and `dout` are typed as the output, so one of another shape is the
//! compile error `softmax/dout-shape`. They take any x whose dims its
//! type proves (static or branded), with no `Result`; a `Dyn` dim is
//! `try_softmax_backward`'s. Also
//! [`Tensor::softmax_backward_into`](crate::Tensor::softmax_backward_into)
//! (any shape, checked), [`Tensor::try_softmax_backward`](crate::Tensor::try_softmax_backward),
//! `DynTensor::softmax_backward(axis, &out, &dout)` and [`softmax_backward_slices`].
//! ```
//! use shapecheck::prelude::*;
//! let x = tensor![[0.0f64, 0.0]];
//! let gx = x.softmax_backward(Axis::<-1>, &x.softmax(Axis::<-1>), &tensor![[1.0f64, 0.0]]);
//! assert_eq!(gx.as_slice(), &[0.25, -0.25]);
//! ```
//!
//! ## Where things are
//! `rule.rs`: the rule ([`plan`](rule::plan)); `bounds.rs`: [`SoftmaxAxis`],
//! the axis rule as types; `kernel.rs`: the passes; `api.rs`: the static
//! entry [`Tensor::softmax_into`](crate::Tensor::softmax_into) and its two forms;
//! `dynamic.rs`; `backward.rs`: the gradients; `error.rs`.

mod api;
mod backward;
pub(crate) mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
pub mod rule;

pub use backward::{
    softmax_backward_slices, SoftmaxDout, SoftmaxDoutLink, SoftmaxDoutRule, SoftmaxGrad,
};
pub use bounds::*;
pub use error::SoftmaxError;
pub(crate) use kernel::softmax_in_place;
pub use kernel::softmax_slices;

/// `softmax` or `log_softmax`.
///
/// ```
/// use shapecheck::DynTensor;
/// use shapecheck::ops::softmax::SoftmaxKind;
/// let x = DynTensor::new(&[2], vec![0.0f32, 0.0]).unwrap();
/// let p = x.softmax_with(SoftmaxKind::Softmax, -1).unwrap();
/// assert_eq!(p.as_slice(), &[0.5, 0.5]);
/// let l = x.softmax_with(SoftmaxKind::LogSoftmax, -1).unwrap();
/// assert!((l.as_slice()[0] - 0.5f32.ln()).abs() < 1e-6);
/// ```
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
    /// `exp(self)` for `self <= 0` (or NaN), the softmax kernel's exp: a
    /// branch-free polynomial for `f32` that the row loop vectorises (within
    /// 2 ulp of the exact value; 0 below -87.33, where `exp` leaves the normal
    /// range), `num-traits`' (libm's) `exp` for `f64`.
    ///
    /// ```
    /// use shapecheck::ops::softmax::SoftmaxElement;
    /// assert_eq!(0.0f32.exp_nonpositive(), 1.0);
    /// assert!((f64::from((-1.0f32).exp_nonpositive()) - (-1.0f64).exp()).abs() < 1e-7);
    /// assert_eq!((-100.0f32).exp_nonpositive(), 0.0);
    /// assert!(f32::NAN.exp_nonpositive().is_nan());
    /// ```
    fn exp_nonpositive(self) -> Self;
}
#[diagnostic::do_not_recommend]
impl SoftmaxElement for f32 {
    type Gate<S> = S;
    #[inline(always)]
    fn exp_nonpositive(self) -> f32 {
        exp_f32(self)
    }
}
#[diagnostic::do_not_recommend]
impl SoftmaxElement for f64 {
    type Gate<S> = S;
    #[inline(always)]
    fn exp_nonpositive(self) -> f64 {
        num_traits::Float::exp(self)
    }
}

/// Cephes' `expf` without branches: `x = n ln2 + r` (`n` rounded by the
/// 1.5 * 2^23 trick, `ln2` in two parts), a degree-6 polynomial in `r`, and
/// `2^n` written into the exponent bits. For `x` in `[-87.33, 0]`; below,
/// 0; NaN stays NaN.
#[inline(always)]
fn exp_f32(x: f32) -> f32 {
    const LOG2E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    const MAGIC: f32 = 12_582_912.0; // 1.5 * 2^23: adding it rounds to an integer
    const LOWEST: f32 = -87.33;
    let xc = if x < LOWEST { LOWEST } else { x };
    let t = xc * LOG2E + MAGIC;
    let n = t - MAGIC;
    let r = xc - n * LN2_HI - n * LN2_LO;
    let mut p = 1.987_569_2e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let y = p * r * r + r + 1.0;
    // t's low bits hold n (|n| <= 126); 2^n as a float's exponent field
    let n_bits = t.to_bits().wrapping_sub(MAGIC.to_bits());
    let scale = f32::from_bits(n_bits.wrapping_add(127) << 23);
    if x < LOWEST {
        0.0
    } else {
        y * scale
    }
}
