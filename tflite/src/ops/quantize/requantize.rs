//! TFLite's `QUANTIZE` from int8 to int8 and from int16 to int16 on
//! slices: a requantization from the input's scale and zero point to the
//! output's, as TFLite Micro's `quantize_common.cc` and
//! `reference_ops::Requantize` compute it, one kernel generic over the
//! element type.

use crate::arith::quant::{
    check_int16, check_int8, check_scale, quantize_multiplier, QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::shared::broadcast::{Lane, Width};
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, check_unary_int16, UnaryStep};

/// An int8 → int8 or int16 → int16 `QUANTIZE`'s parameters, as TFLite
/// Micro's `PrepareQuantizeReference` derives them ([`requantize_params`],
/// [`requantize_params_int16`]).
///
/// ```
/// use shapecheck_tflite::{requantize_params, QuantizedMultiplier, RequantizeParams};
///
/// const P: RequantizeParams = RequantizeParams {
///     input_zero_point: 0,
///     output_zero_point: 5,
///     multiplier: QuantizedMultiplier::from_parts(1 << 30, 0), // 0.5
/// };
/// assert_eq!(requantize_params(1.0 / 128.0, 0, 1.0 / 64.0, 5)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequantizeParams {
    /// the input's zero point, in [−128, 127] (int16: [−32768, 32767])
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127] (int16: [−32768, 32767])
    pub output_zero_point: i32,
    /// `input_scale / output_scale`
    pub multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for RequantizeParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "RequantizeParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("multiplier", &self.multiplier),
            ],
        )
    }
}

/// TFLite Micro's `PrepareQuantizeReference` for an int8 input: the
/// multiplier `input_scale / output_scale`, each widened to `f64`,
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::requantize_params;
///
/// assert!(requantize_params(0.1, 0, 0.0, 0).is_err());
/// ```
pub fn requantize_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<RequantizeParams, TfliteError> {
    derive_params::<i8>(
        input_scale,
        input_zero_point,
        output_scale,
        output_zero_point,
    )
}

/// TFLite Micro's `PrepareQuantizeReference` for an int16 input and output:
/// [`requantize_params`], each zero point in [−32768, 32767] (TFLite's
/// int16 activations have zero point 0; its requantization takes any).
///
/// ```
/// use shapecheck_tflite::requantize_params_int16;
///
/// let p = requantize_params_int16(3.0517578e-5, 0, 0.00014446236, 0)?;
/// assert_eq!(p.multiplier.shift(), -2); // 0.211 = 0.845 · 2^-2
/// assert!(requantize_params_int16(0.1, 40000, 0.1, 0).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn requantize_params_int16(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<RequantizeParams, TfliteError> {
    derive_params::<i16>(
        input_scale,
        input_zero_point,
        output_scale,
        output_zero_point,
    )
}

/// `PrepareQuantizeReference` for elements `T`.
fn derive_params<T: Lane>(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<RequantizeParams, TfliteError> {
    check_scale("QUANTIZE's input scale", input_scale)?;
    check_scale("QUANTIZE's output scale", output_scale)?;
    let params = RequantizeParams {
        input_zero_point,
        output_zero_point,
        multiplier: quantize_multiplier(f64::from(input_scale) / f64::from(output_scale))?,
    };
    check(&params, T::WIDTH)?;
    Ok(params)
}

/// Each zero point within `width`'s type.
fn check(p: &RequantizeParams, width: Width) -> Result<(), TfliteError> {
    let check_zero_point = match width {
        Width::Int8 => check_int8,
        Width::Int16 => check_int16,
    };
    check_zero_point("QUANTIZE's input zero point", p.input_zero_point)?;
    check_zero_point("QUANTIZE's output zero point", p.output_zero_point)
}

/// TFLite's `QUANTIZE` from int8 to int8 (TFLite Micro's
/// `reference_ops::Requantize`): for each input,
/// `y = multiply(x − zp_in, M) + zp_out` (double rounding), clamped to
/// int8.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or `params` break [`requantize_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{requantize_int8, requantize_params};
///
/// let params = requantize_params(1.0 / 128.0, 0, 1.0 / 64.0, 5)?;
/// let mut out = [0i8; 4];
/// requantize_int8(&[-128, -3, 3, 127], &params, &mut out)?;
/// assert_eq!(out, [-59, 4, 7, 69]); // x / 2 (halves up) + 5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn requantize_int8(
    input: &[i8],
    params: &RequantizeParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    requantize_with(input, params, output)
}

/// TFLite's `QUANTIZE` from int16 to int16 (TFLite Micro's
/// `reference_ops::Requantize` for int16): [`requantize_int8`]'s
/// arithmetic on int16 values, clamped to int16.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or `params` break [`requantize_params_int16`]'s rules.
///
/// ```
/// use shapecheck_tflite::{requantize_int16, requantize_params_int16};
///
/// let params = requantize_params_int16(1.0 / 128.0, 0, 1.0 / 64.0, 0)?;
/// let mut out = [0i16; 4];
/// requantize_int16(&[-32768, -3, 3, 32767], &params, &mut out)?;
/// assert_eq!(out, [-16384, -1, 2, 16384]); // x / 2, halves up
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn requantize_int16(
    input: &[i16],
    params: &RequantizeParams,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    requantize_with(input, params, output)
}

/// [`requantize_int8`] and [`requantize_int16`]: for each input,
/// `y = multiply(x − zp_in, M) + zp_out` (double rounding), clamped to
/// `T`. With the zero points in `T`'s range, `x − zp_in` is within ±2^16:
/// no step overflows.
fn requantize_with<T: Lane>(
    input: &[T],
    params: &RequantizeParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check(params, T::WIDTH)?;
    let m = Scale::new(params.multiplier);
    for (y, &x) in output.iter_mut().zip(input) {
        let raw = m
            .apply(x.into() - params.input_zero_point, Rounding::Double)
            .saturating_add(params.output_zero_point);
        *y = T::saturate(raw);
    }
    Ok(())
}

/// `QUANTIZE` from int8 to int8 or int16 to int16 (called by `QUANTIZE`'s
/// row's `prepare` for an int8 or int16 input): checks the operator and
/// prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<UnaryStep<i8, RequantizeParams>> + From<UnaryStep<i16, RequantizeParams>>,
>(
    c: &Checker<'m>,
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Int16 {
        let operands = check_unary_int16(c)?;
        let [(si, zi), (so, zo)] = operands.quant;
        let params = requantize_params_int16(si, zi, so, zo)?;
        return Ok(S::from(operands.step(params)));
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(requantize_params(si, zi, so, zo)?)))
}

impl crate::shared::elementwise::UnaryApply<i8> for RequantizeParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        requantize_int8(x, self, y)
    }
}

impl crate::shared::elementwise::UnaryApply<i16> for RequantizeParams {
    fn apply(&self, x: &[i16], y: &mut [i16]) -> Result<(), TfliteError> {
        requantize_int16(x, self, y)
    }
}
