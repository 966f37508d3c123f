//! The quantization arithmetic every layer with a fused activation or a
//! weights multiplier shares: TFLite's activation ranges (int8, int16,
//! f32) and the multiplier `input scale · weights scale / output scale`.

use crate::arith::quant::{quantize_multiplier, QuantizedMultiplier};
use crate::format::error::TfliteError;
use crate::format::types::Activation;

/// The int8 range an output with `scale` and `zero_point` is clamped to
/// after `activation`, as TFLite's `CalculateActivationRangeQuantized`:
/// `NONE` keeps [−128, 127]; `RELU` starts at the zero point; `RELU6` ends
/// at `zero_point + round(6 / scale)` and `RELU_N1_TO_1` spans the
/// quantized −1 to 1 (the quotient in `f32`, rounded half away from zero),
/// each within [−128, 127]. `TANH` and `SIGN_BIT` are not clamps:
/// [`TfliteError::UnsupportedActivation`].
///
/// ```
/// use shapecheck_tflite::{activation_range_int8, Activation};
///
/// assert_eq!(activation_range_int8(Activation::None, 0.1, 5)?, (-128, 127));
/// assert_eq!(activation_range_int8(Activation::Relu, 0.1, 5)?, (5, 127));
/// assert_eq!(activation_range_int8(Activation::Relu6, 0.1, -128)?, (-128, -68));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn activation_range_int8(
    activation: Activation,
    scale: f32,
    zero_point: i32,
) -> Result<(i32, i32), TfliteError> {
    activation_range(activation, scale, zero_point, (-128, 127))
}

/// The int16 range an output with `scale` and `zero_point` is clamped to
/// after `activation`: [`activation_range_int8`]'s rule within
/// [−32768, 32767] (TFLite's 16x8 mode).
///
/// ```
/// use shapecheck_tflite::{activation_range_int16, Activation};
///
/// assert_eq!(activation_range_int16(Activation::None, 0.1, 0)?, (-32768, 32767));
/// assert_eq!(activation_range_int16(Activation::Relu, 0.1, 0)?, (0, 32767));
/// assert_eq!(activation_range_int16(Activation::Relu6, 0.001, 0)?, (0, 6000));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn activation_range_int16(
    activation: Activation,
    scale: f32,
    zero_point: i32,
) -> Result<(i32, i32), TfliteError> {
    activation_range(activation, scale, zero_point, (-32768, 32767))
}

/// `v` rounded to the nearest integer, ties away from zero (C's `round`),
/// saturating to `i32` (NaN gives 0).
pub(crate) fn round_half_away(v: f32) -> i32 {
    let whole = v as i32; // toward zero, saturating
    let fraction = v - whole as f32;
    if fraction >= 0.5 {
        whole.saturating_add(1)
    } else if fraction <= -0.5 {
        whole.saturating_sub(1)
    } else {
        whole
    }
}

/// The range an f32 output is clamped to after `activation`, as TFLite's
/// `CalculateActivationRange`: `NONE` is unbounded, `RELU` [0, ∞), `RELU6`
/// [0, 6], `RELU_N1_TO_1` [−1, 1]. `TANH` and `SIGN_BIT` are not clamps:
/// [`TfliteError::UnsupportedActivation`].
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, Activation};
///
/// assert_eq!(activation_range_f32(Activation::Relu6)?, (0.0, 6.0));
/// assert_eq!(activation_range_f32(Activation::None)?, (f32::MIN, f32::MAX));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn activation_range_f32(activation: Activation) -> Result<(f32, f32), TfliteError> {
    match activation {
        Activation::None => Ok((f32::MIN, f32::MAX)),
        Activation::Relu => Ok((0.0, f32::MAX)),
        Activation::Relu6 => Ok((0.0, 6.0)),
        Activation::ReluN1To1 => Ok((-1.0, 1.0)),
        other => Err(TfliteError::UnsupportedActivation { activation: other }),
    }
}

/// The requantization multiplier TFLite gives a fully connected (or
/// convolution) output channel: `input_scale · weight_scale / output_scale`,
/// each scale widened to `f64` first, then [`quantize_multiplier`].
///
/// ```
/// use shapecheck_tflite::fully_connected_multiplier;
///
/// let m = fully_connected_multiplier(0.5, 0.25, 0.5)?; // 0.25
/// assert_eq!((m.multiplier(), m.shift()), (1 << 30, -1));
/// assert!(fully_connected_multiplier(0.5, 0.25, 0.0).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn fully_connected_multiplier(
    input_scale: f32,
    weight_scale: f32,
    output_scale: f32,
) -> Result<QuantizedMultiplier, TfliteError> {
    quantize_multiplier(f64::from(input_scale) * f64::from(weight_scale) / f64::from(output_scale))
}

/// One value of TFLite's `QUANTIZE` to int8 (`AffineQuantize`):
/// `x / scale` divided in `f32` (TFLite Micro divides by the scale; it does
/// not multiply by its inverse), rounded half away from zero in `f32`
/// (`std::round` of a `float`), plus `zero_point`, clamped to
/// [−128, 127].
///
/// Where TFLite's C++ is undefined this is defined as a Cortex-M computes
/// it: a quotient beyond the `i32` range saturates, NaN gives 0 (so the
/// zero point), and the sum with the zero point saturates. No scale is
/// refused (TFLite Micro checks none): a scale of 0 quantizes every
/// positive value to 127.
///
/// ```
/// use shapecheck_tflite::quantize_value;
///
/// assert_eq!(quantize_value(0.25, 0.1, 3), 6); // 2.5 rounds away from zero: 3, plus 3
/// assert_eq!(quantize_value(-0.25, 0.1, 3), 0); // −2.5 → −3
/// assert_eq!(quantize_value(100.0, 0.1, 0), 127);
/// assert_eq!(quantize_value(f32::NAN, 0.1, -5), -5);
/// ```
pub fn quantize_value(x: f32, scale: f32, zero_point: i32) -> i8 {
    let q = round_half_away(x / scale).saturating_add(zero_point);
    q.clamp(-128, 127) as i8
}

/// One value of TFLite's `QUANTIZE` to int16 (`AffineQuantize<int16_t>`,
/// TFLite's 16x8 mode): [`quantize_value`]'s arithmetic, clamped to
/// [−32768, 32767].
///
/// ```
/// use shapecheck_tflite::quantize_value_int16;
///
/// assert_eq!(quantize_value_int16(0.25, 0.001, 0), 250);
/// assert_eq!(quantize_value_int16(-0.00025, 0.0001, 0), -3); // −2.5 → −3
/// assert_eq!(quantize_value_int16(100.0, 0.001, 0), 32767);
/// assert_eq!(quantize_value_int16(f32::NAN, 0.1, 0), 0);
/// ```
pub fn quantize_value_int16(x: f32, scale: f32, zero_point: i32) -> i16 {
    let q = round_half_away(x / scale).saturating_add(zero_point);
    q.clamp(-32768, 32767) as i16
}

/// TFLite's `CalculateActivationRangeQuantized` within `(qmin, qmax)`.
fn activation_range(
    activation: Activation,
    scale: f32,
    zero_point: i32,
    (qmin, qmax): (i32, i32),
) -> Result<(i32, i32), TfliteError> {
    let quantize = |real: f32| zero_point.saturating_add(round_half_away(real / scale));
    let (lo, hi) = match activation {
        Activation::None => (i32::MIN, i32::MAX),
        Activation::Relu => (quantize(0.0), i32::MAX),
        Activation::Relu6 => (quantize(0.0), quantize(6.0)),
        Activation::ReluN1To1 => (quantize(-1.0), quantize(1.0)),
        other => return Err(TfliteError::UnsupportedActivation { activation: other }),
    };
    Ok((lo.max(qmin), hi.min(qmax)))
}
