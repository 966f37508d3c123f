//! TFLite's int8 `TANH` on slices: TFLite Micro's
//! `reference_integer_ops::Tanh`, gemmlowp's fixed-point tanh of the input
//! rescaled to Q4.27, written to an output of scale 1/128 and zero point 0.

use crate::elementwise::{check_unary, UnaryKernel};
use crate::error::TfliteError;
use crate::interpreter::{Checker, Step};
use crate::ops::OpShape;
use crate::quant::{
    check_int8, q4_input_multiplier, rounding_divide_by_pot, tanh_q4, QuantizedMultiplier,
    Rounding, Scale,
};
use crate::relu::check_same_length;

/// The output's scale TFLite requires.
const OUTPUT_SCALE: f32 = 1.0 / 128.0;

/// An int8 `TANH`'s parameters, as TFLite Micro's `tanh.cc`
/// (`CalculateArithmeticOpData`) derives them from the input's
/// quantization ([`tanh_params`]): the same as `LOGISTIC`'s.
///
/// ```
/// use shapecheck_tflite::{tanh_params, QuantizedMultiplier, TanhParams};
///
/// const P: TanhParams = TanhParams {
///     input_zero_point: 0,
///     input_range_radius: 15,
///     input_multiplier: QuantizedMultiplier::from_parts(1 << 30, 27), // 0.5 · 2^27
/// };
/// assert_eq!(tanh_params(0.5, 0, 1.0 / 128.0, 0)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TanhParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// inputs (less the zero point) at or beyond ± this give −128 and 127
    /// outside the fixed point, at least 0
    pub input_range_radius: i32,
    /// `input_scale · 2^27` as a multiplier and left shift (0 to 30): the
    /// input less its zero point times it is its value in Q4.27
    pub input_multiplier: QuantizedMultiplier,
}

impl crate::compiled::WriteRust for TanhParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "TanhParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("input_range_radius", &self.input_range_radius),
                ("input_multiplier", &self.input_multiplier),
            ],
        )
    }
}

/// TFLite Micro's int8 `TANH` prepare: the input multiplier
/// `input_scale · 2^27` (Q4.27) as `frexp`'s mantissa times 2^31 and its
/// exponent as a left shift, and the input radius `⌊15 · 2^27 / 2^shift⌋`,
/// as for `LOGISTIC`.
///
/// Fails with [`TfliteError::KernelParam`] for an output zero point other
/// than 0 or an input zero point outside [−128, 127], and with
/// [`TfliteError::KernelScale`] for an output scale other than 1/128
/// (TFLite's checks; TFLite Micro writes 1/128 steps at zero point 0
/// whatever the output says) or an input scale that is not a finite number
/// in [2^−28, 8).
///
/// ```
/// use shapecheck_tflite::{tanh_params, TfliteError};
///
/// assert!(matches!(tanh_params(0.5, 0, 1.0 / 128.0, 3), Err(TfliteError::KernelParam { .. })));
/// assert!(matches!(tanh_params(0.5, 0, 1.0 / 256.0, 0), Err(TfliteError::KernelScale { .. })));
/// ```
pub fn tanh_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<TanhParams, TfliteError> {
    if output_zero_point != 0 {
        return Err(TfliteError::KernelParam {
            what: "TANH's output zero point",
            value: i64::from(output_zero_point),
            rule: "TFLite requires 0 for an int8 tanh",
        });
    }
    if output_scale != OUTPUT_SCALE {
        return Err(TfliteError::KernelScale {
            what: "TANH's output scale",
            value: f64::from(output_scale),
            rule: "TFLite requires 1/128 for an int8 tanh",
        });
    }
    check_int8("TANH's input zero point", input_zero_point)?;
    let (input_multiplier, input_range_radius) =
        q4_input_multiplier("TANH's input scale", input_scale)?;
    Ok(TanhParams {
        input_zero_point,
        input_range_radius,
        input_multiplier,
    })
}

/// TFLite's int8 `TANH` (TFLite Micro's `reference_integer_ops::Tanh`): for
/// each input, with `x = input − zero_point`, −128 where `x ≤ −radius`,
/// 127 where `x ≥ radius`, and otherwise `x` times the input multiplier
/// (double rounding) as a Q4.27 value, its tanh in Q0.31 (gemmlowp's
/// `tanh`: `(1 − e) / (1 + e)` of `e = exp(−2|x|)`, signed), rounded to
/// 1/128 (a rounding right shift by 24), clamped to int8.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`, or `params` break [`tanh_params`]'s rules (an input zero point
/// outside [−128, 127], a negative radius, a multiplier's shift below 0).
///
/// ```
/// use shapecheck_tflite::{tanh_int8, tanh_params};
///
/// let params = tanh_params(0.5, 0, 1.0 / 128.0, 0)?;
/// let mut out = [0i8; 5];
/// tanh_int8(&[-30, -2, 0, 1, 30], &params, &mut out)?;
/// // tanh(−15) ≈ −1, tanh(−1) = −0.762 (−97.5/128), 0, tanh(0.5) = 0.462 (59/128), ≈ 1
/// assert_eq!(out, [-128, -97, 0, 59, 127]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn tanh_int8(input: &[i8], params: &TanhParams, output: &mut [i8]) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check_int8("TANH's input zero point", params.input_zero_point)?;
    if params.input_range_radius < 0 {
        return Err(TfliteError::KernelParam {
            what: "TANH's input radius",
            value: i64::from(params.input_range_radius),
            rule: "it is at least 0",
        });
    }
    if params.input_multiplier.shift() < 0 {
        return Err(TfliteError::KernelParam {
            what: "TANH's input multiplier's shift",
            value: i64::from(params.input_multiplier.shift()),
            rule: "TFLite's int8 tanh shifts its input left: 0 to 30",
        });
    }
    let multiplier = Scale::new(params.input_multiplier);
    let radius = params.input_range_radius;
    for (y, &x) in output.iter_mut().zip(input) {
        // the zero point in int8: no overflow
        let x = i32::from(x) - params.input_zero_point;
        *y = if x <= -radius {
            i8::MIN
        } else if x >= radius {
            i8::MAX
        } else {
            let q4 = multiplier.apply(x, Rounding::Double);
            rounding_divide_by_pot(tanh_q4(q4), 24).clamp(-128, 127) as i8
        };
    }
    Ok(())
}

/// `TANH`'s row in `OPS`: checks the operator (an int8 activation in and
/// out) and prepares its step.
pub(crate) fn prepare<'m>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(operands.step(UnaryKernel::Tanh(tanh_params(si, zi, so, zo)?)))
}
