//! TFLite's `QUANTIZE` from int8 to int8 on slices: a requantization from
//! the input's scale and zero point to the output's, as TFLite Micro's
//! `quantize_common.cc` and `reference_ops::Requantize` compute it.

use crate::elementwise::{check_unary, UnaryKernel};
use crate::error::TfliteError;
use crate::interpreter::{Checker, Step};
use crate::quant::{
    check_int8, check_scale, quantize_multiplier, QuantizedMultiplier, Rounding, Scale,
};
use crate::relu::check_same_length;

/// An int8 → int8 `QUANTIZE`'s parameters, as TFLite Micro's
/// `PrepareQuantizeReference` derives them ([`requantize_params`]).
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
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / output_scale`
    pub multiplier: QuantizedMultiplier,
}

impl crate::compiled::WriteRust for RequantizeParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
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
    check_scale("QUANTIZE's input scale", input_scale)?;
    check_scale("QUANTIZE's output scale", output_scale)?;
    let params = RequantizeParams {
        input_zero_point,
        output_zero_point,
        multiplier: quantize_multiplier(f64::from(input_scale) / f64::from(output_scale))?,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &RequantizeParams) -> Result<(), TfliteError> {
    check_int8("QUANTIZE's input zero point", p.input_zero_point)?;
    check_int8("QUANTIZE's output zero point", p.output_zero_point)
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
    check_same_length(input.len(), output.len())?;
    check(params)?;
    let m = Scale::new(params.multiplier);
    for (y, &x) in output.iter_mut().zip(input) {
        let raw = m
            .apply(i32::from(x) - params.input_zero_point, Rounding::Double)
            .saturating_add(params.output_zero_point);
        *y = raw.clamp(-128, 127) as i8;
    }
    Ok(())
}

/// `QUANTIZE` from int8 to int8 (called by `QUANTIZE`'s row's `prepare`
/// for an int8 input): checks the operator and prepares its step.
pub(crate) fn prepare<'m>(c: &Checker<'m>) -> Result<Step<'m>, TfliteError> {
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(operands.step(UnaryKernel::Requantize(requantize_params(si, zi, so, zo)?)))
}
