//! TFLite's int8 `RELU` and `RELU6` on slices, as TFLite Micro's
//! `activations.cc` computes them: `RELU` rescales the input to the
//! output's quantization; `RELU6` does not (see [`relu6_int8`]). And
//! their f32 kernels ([`relu_f32`], [`relu6_f32`]): TFLite Micro's
//! `ReluFloat` and `Relu6Float`, plain comparisons.

use crate::arith::activation::quantize_value;
use crate::arith::quant::{
    check_int8, check_int8_clamp, check_scale, quantize_multiplier, QuantizedMultiplier, Rounding,
    Scale,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, UnaryStep};
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// An int8 `RELU`'s parameters, as TFLite Micro's `CalculateReluOpData`
/// derives them ([`relu_params`]).
///
/// ```
/// use shapecheck_tflite::{relu_params, QuantizedMultiplier, ReluParams};
///
/// const P: ReluParams = ReluParams {
///     input_zero_point: 5,
///     output_zero_point: -128,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0), // 0.5
///     output_min: -128,
///     output_max: 127,
/// };
/// assert_eq!(relu_params(0.25, 5, 0.5, -128)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReluParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / output_scale`
    pub output_multiplier: QuantizedMultiplier,
    /// the clamp's lower end: the output's zero point (the real 0)
    pub output_min: i32,
    /// the clamp's upper end: 127
    pub output_max: i32,
}

impl crate::base::write_rust::WriteRust for ReluParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ReluParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// TFLite Micro's `CalculateReluOpData` for int8: the multiplier
/// `input_scale / output_scale` divided in `f32`, widened to `f64` and
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier); the
/// clamp from the output's zero point (0.0 quantized) to 127.
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::{relu_params, TfliteError};
///
/// assert_eq!(relu_params(0.1, 0, 0.1, 3)?.output_min, 3);
/// assert!(matches!(relu_params(0.1, 0, f32::NAN, 3), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn relu_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<ReluParams, TfliteError> {
    check_scale("RELU's input scale", input_scale)?;
    check_scale("RELU's output scale", output_scale)?;
    let params = ReluParams {
        input_zero_point,
        output_zero_point,
        output_multiplier: quantize_multiplier(f64::from(input_scale / output_scale))?,
        output_min: output_zero_point,
        output_max: 127,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &ReluParams) -> Result<(), TfliteError> {
    check_int8("RELU's input zero point", p.input_zero_point)?;
    check_int8("RELU's output zero point", p.output_zero_point)?;
    check_int8_clamp("RELU's output_min", p.output_min, p.output_max)
}

/// TFLite's int8 `RELU` (TFLite Micro's `ReluQuantized`): for each input
/// `x`, `y = multiply(x − zp_in, M) + zp_out` (double rounding) clamped to
/// `[output_min, output_max]`.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or `params` break [`relu_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{relu_int8, relu_params};
///
/// let params = relu_params(0.5, 2, 0.25, -128)?;
/// let mut out = [0i8; 4];
/// relu_int8(&[-10, 2, 3, 100], &params, &mut out)?;
/// assert_eq!(out, [-128, -128, -126, 68]); // max(x − 2, 0) · 2 − 128
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn relu_int8(input: &[i8], params: &ReluParams, output: &mut [i8]) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check(params)?;
    let m = Scale::new(params.output_multiplier);
    for (y, &x) in output.iter_mut().zip(input) {
        let raw = m
            .apply(i32::from(x) - params.input_zero_point, Rounding::Double)
            .saturating_add(params.output_zero_point);
        *y = raw.clamp(params.output_min, params.output_max) as i8;
    }
    Ok(())
}

/// An int8 `RELU6`'s clamp, as TFLite Micro's `Relu6Prepare` derives it
/// from the input's quantization alone ([`relu6_params`]).
///
/// ```
/// use shapecheck_tflite::{relu6_params, Relu6Params};
///
/// const P: Relu6Params = Relu6Params { lower: 5, upper: 55 };
/// assert_eq!(relu6_params(0.12, 5)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relu6Params {
    /// the input's zero point (the real 0 in the input's scale)
    pub lower: i32,
    /// 6.0 quantized in the input's scale and zero point, at least `lower`
    pub upper: i32,
}

impl crate::base::write_rust::WriteRust for Relu6Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "Relu6Params",
            &[("lower", &self.lower), ("upper", &self.upper)],
        )
    }
}

/// TFLite Micro's `Relu6Prepare` for int8: `lower` is the input's zero
/// point, `upper` is 6.0 quantized with the input's scale and zero point
/// (`FloatToQuantizedType`: `round(6 / scale)` in `f32`, plus the zero
/// point, clamped to int8: [`quantize_value`](crate::quantize_value)).
/// The output's scale and zero point are not read: TFLite Micro's int8
/// `RELU6` does not rescale.
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::relu6_params;
///
/// assert_eq!(relu6_params(0.01, 0)?.upper, 127); // 600 steps: clamped
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn relu6_params(input_scale: f32, input_zero_point: i32) -> Result<Relu6Params, TfliteError> {
    check_scale("RELU6's input scale", input_scale)?;
    check_int8("RELU6's input zero point", input_zero_point)?;
    Ok(Relu6Params {
        lower: input_zero_point,
        upper: i32::from(quantize_value(6.0, input_scale, input_zero_point)),
    })
}

/// TFLite's int8 `RELU6` as TFLite Micro computes it (`Relu6Quantized`):
/// each input clamped to `[lower, upper]`, the input's own zero point and
/// 6.0 in the input's scale, and written as it is, **without rescaling**
/// to the output's quantization (TFLite's own interpreter rescales; TFLite
/// Micro does not, whatever the output's scale and zero point say).
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`, or `params` are not an int8 clamp with `lower ≤ upper`.
///
/// ```
/// use shapecheck_tflite::{relu6_int8, relu6_params};
///
/// let params = relu6_params(0.119, 5)?; // 6.0 is 50 steps above 5
/// let mut out = [0i8; 4];
/// relu6_int8(&[-100, 5, 30, 127], &params, &mut out)?;
/// assert_eq!(out, [5, 5, 30, 55]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn relu6_int8(
    input: &[i8],
    params: &Relu6Params,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check_int8_clamp("RELU6's lower end", params.lower, params.upper)?;
    // both ends in int8
    let (lower, upper) = (params.lower as i8, params.upper as i8);
    for (y, &x) in output.iter_mut().zip(input) {
        *y = x.clamp(lower, upper);
    }
    Ok(())
}

/// `RELU`'s row in `OPS`: checks the operator (an int8 activation in and
/// out, or an f32 one) and prepares its step.
pub(crate) fn prepare_relu<'m, S: From<UnaryStep<i8, ReluParams>> + From<MapF32Step<ReluF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, ReluF32).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(relu_params(si, zi, so, zo)?)))
}

/// `RELU6`'s row in `OPS`: checks the operator (an int8 activation in and
/// out, or an f32 one) and prepares its step (TFLite Micro's clamp in the input's scale).
pub(crate) fn prepare_relu6<
    'm,
    S: From<UnaryStep<i8, Relu6Params>> + From<MapF32Step<Relu6F32>>,
>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, Relu6F32).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), _] = operands.quant;
    Ok(S::from(operands.step(relu6_params(si, zi)?)))
}

impl crate::shared::elementwise::UnaryApply<i8> for ReluParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        relu_int8(x, self, y)
    }
}

impl crate::shared::elementwise::UnaryApply<i8> for Relu6Params {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        relu6_int8(x, self, y)
    }
}

/// One value of TFLite's f32 `RELU`, as TFLite Micro's `ReluFloat`
/// computes it: `x < 0 ? 0 : x`. A NaN stays NaN and `−0` stays `−0` (it
/// is not below 0).
///
/// ```
/// use shapecheck_tflite::relu_value;
///
/// assert_eq!(relu_value(-2.5), 0.0);
/// assert_eq!(relu_value(1.5), 1.5);
/// assert!(relu_value(-0.0).is_sign_negative());
/// assert!(relu_value(f32::NAN).is_nan());
/// ```
pub fn relu_value(x: f32) -> f32 {
    if x < 0.0 {
        0.0
    } else {
        x
    }
}

/// One value of TFLite's f32 `RELU6`, as TFLite Micro's `Relu6Float`
/// computes it: `x > 6 ? 6 : x < 0 ? 0 : x`. A NaN stays NaN and `−0`
/// stays `−0`.
///
/// ```
/// use shapecheck_tflite::relu6_value;
///
/// assert_eq!(relu6_value(-2.5), 0.0);
/// assert_eq!(relu6_value(7.0), 6.0);
/// assert_eq!(relu6_value(f32::INFINITY), 6.0);
/// assert!(relu6_value(-0.0).is_sign_negative());
/// assert!(relu6_value(f32::NAN).is_nan());
/// ```
// TFLite Micro's ternaries as they are written (f32::clamp agrees on
// every input, NaN and −0 included: the property tests check it)
#[allow(clippy::manual_clamp)]
pub fn relu6_value(x: f32) -> f32 {
    if x > 6.0 {
        6.0
    } else if x < 0.0 {
        0.0
    } else {
        x
    }
}

/// TFLite's f32 `RELU`, element by element ([`relu_value`]). Fails, with
/// `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::relu_f32;
///
/// let mut out = [9f32; 3];
/// relu_f32(&[-1.0, 0.5, 8.0], &mut out)?;
/// assert_eq!(out, [0.0, 0.5, 8.0]);
/// assert!(relu_f32(&[1.0], &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn relu_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, relu_value)
}

/// TFLite's f32 `RELU6`, element by element ([`relu6_value`]). Fails,
/// with `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::relu6_f32;
///
/// let mut out = [9f32; 3];
/// relu6_f32(&[-1.0, 0.5, 8.0], &mut out)?;
/// assert_eq!(out, [0.0, 0.5, 6.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn relu6_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, relu6_value)
}

/// `RELU`'s f32 function: [`relu_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct ReluF32;

impl crate::shared::float_ops::MapF32Apply for ReluF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        relu_value(x)
    }
}

impl crate::base::write_rust::WriteRust for ReluF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "ReluF32")
    }
}

/// `RELU6`'s f32 function: [`relu6_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct Relu6F32;

impl crate::shared::float_ops::MapF32Apply for Relu6F32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        relu6_value(x)
    }
}

impl crate::base::write_rust::WriteRust for Relu6F32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "Relu6F32")
    }
}
