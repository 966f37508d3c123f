//! TFLite's int8 `LOGISTIC` on slices: TFLite Micro's
//! `reference_integer_ops::Logistic`, gemmlowp's fixed-point logistic of
//! the input rescaled to Q4.27, written to an output of scale 1/256 and
//! zero point −128.

use crate::error::OperandProblem;
use crate::error::TfliteError;
use crate::interpreter::split;
use crate::interpreter::Buffers;
use crate::interpreter::Checker;
use crate::interpreter::Step;
use crate::ops::OpShape;
use crate::quant::{
    exp_on_negative_values, one_over_one_plus_x, q4_input_multiplier, rounding_divide_by_pot,
    QuantizedMultiplier, Rounding, Scale,
};
use crate::types::TensorType;
use core::ops::Range;

/// Integer bits of the rescaled input (TFLite's `kInputIntegerBits`):
/// Q4.27.
const INPUT_INTEGER_BITS: u32 = 4;
/// Integer bits of the output before its rescaling to int8
/// (`kOutputIntegerBits`): the Q0.31 logistic over 2^23 is in 1/256 steps.
const OUTPUT_INTEGER_BITS: u32 = 8;
/// The output's zero point TFLite requires.
const OUTPUT_ZERO_POINT: i32 = -128;
/// The output's scale TFLite requires.
const OUTPUT_SCALE: f32 = 1.0 / 256.0;

/// An int8 logistic's parameters, as TFLite Micro's
/// `CalculateArithmeticOpDataLogistic` derives them from the input's
/// quantization ([`logistic_params`]).
///
/// ```
/// use shapecheck_tflite::logistic_params;
///
/// // logistic.tflite: its input has scale 0.0318 and zero point 2
/// let p = logistic_params(0.031833127, 2, 1.0 / 256.0, -128)?;
/// assert_eq!(p.input_multiplier.shift(), 23); // 0.0318 · 2^27 = 0.509 · 2^23
/// assert_eq!(p.input_range_radius, 240); // ⌊15 · 2^27 / 2^23⌋: beyond ±7.6, σ saturates
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogisticParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// inputs (less the zero point) at or beyond ± this give −128 and 127
    /// outside the fixed point (TFLite's `CalculateInputRadius`), at least 0
    pub input_range_radius: i32,
    /// `input_scale · 2^27` as a multiplier and left shift (0 to 30): the
    /// input less its zero point times it is its value in Q4.27
    pub input_multiplier: QuantizedMultiplier,
}

/// TFLite Micro's `CalculateArithmeticOpDataLogistic` for int8: the input
/// multiplier `input_scale · 2^27` as the mantissa of `frexp` times 2^31
/// (rounded half away from zero, exact for an `f32` scale) and its
/// exponent as a left shift, and the input radius
/// `⌊15 · 2^27 / 2^shift⌋` (TFLite's `CalculateInputRadius` with 4 integer
/// bits).
///
/// Fails with [`TfliteError::KernelParam`] for an output zero point other
/// than −128 (TFLite Micro's check) or an input zero point outside
/// [−128, 127], and with [`TfliteError::KernelScale`] for an output scale
/// other than 1/256 (TFLite's check; TFLite Micro checks only the zero
/// point, and writes 1/256 steps whatever the scale), or an input scale
/// that is not a finite number in [2^−28, 8) (below it TFLite Micro's
/// radius overflows an `int32`, above it its shift passes 30).
///
/// ```
/// use shapecheck_tflite::{logistic_params, TfliteError};
///
/// let p = logistic_params(0.5, 0, 1.0 / 256.0, -128)?;
/// assert_eq!((p.input_multiplier.multiplier(), p.input_multiplier.shift()), (1 << 30, 27)); // 0.5 · 2^27
/// assert_eq!(p.input_range_radius, 15); // ⌊15 · 2^27 / 2^27⌋ steps of 0.5: ±7.5
/// assert!(matches!(logistic_params(0.5, 0, 1.0 / 256.0, 0), Err(TfliteError::KernelParam { .. })));
/// assert!(matches!(logistic_params(0.5, 0, 0.01, -128), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn logistic_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<LogisticParams, TfliteError> {
    if output_zero_point != OUTPUT_ZERO_POINT {
        return Err(TfliteError::KernelParam {
            what: "LOGISTIC's output zero point",
            value: i64::from(output_zero_point),
            rule: "TFLite requires −128 for an int8 logistic",
        });
    }
    if output_scale != OUTPUT_SCALE {
        return Err(TfliteError::KernelScale {
            what: "LOGISTIC's output scale",
            value: f64::from(output_scale),
            rule: "TFLite requires 1/256 for an int8 logistic",
        });
    }
    check_zero_point(input_zero_point)?;
    let (input_multiplier, radius) = q4_input_multiplier("LOGISTIC's input scale", input_scale)?;
    Ok(LogisticParams {
        input_zero_point,
        input_range_radius: radius,
        input_multiplier,
    })
}

fn check_zero_point(zero_point: i32) -> Result<(), TfliteError> {
    if !(-128..=127).contains(&zero_point) {
        return Err(TfliteError::KernelParam {
            what: "LOGISTIC's input zero point",
            value: i64::from(zero_point),
            rule: "an int8 zero point is in [−128, 127]",
        });
    }
    Ok(())
}

/// TFLite's int8 `LOGISTIC`, as TFLite Micro's
/// `reference_integer_ops::Logistic` computes it: for each input, with
/// `x = input − zero_point`, −128 where `x ≤ −radius`, 127 where
/// `x ≥ radius`, and otherwise `x` times the input multiplier (double
/// rounding) as a Q4.27 value, its logistic in Q0.31 (gemmlowp's
/// `logistic`: `1 / (1 + exp(−|x|))` by `exp_on_negative_values` and a
/// Newton–Raphson reciprocal, `1 −` that below 0, one half at 0), rounded
/// to 1/256 (a rounding right shift by 23), minus 128, clamped to int8.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`, or `params` break [`logistic_params`]'s rules (an input zero
/// point outside [−128, 127], a negative radius, a multiplier's shift below
/// 0).
///
/// ```
/// use shapecheck_tflite::{logistic_int8, logistic_params};
///
/// let params = logistic_params(0.5, 0, 1.0 / 256.0, -128)?;
/// let mut out = [0i8; 5];
/// logistic_int8(&[-30, -2, 0, 2, 30], &params, &mut out)?;
/// // σ(−15) ≈ 0, σ(−1) = 0.269 (69/256), σ(0) = 0.5, σ(1) = 0.731 (187/256), σ(15) ≈ 1
/// assert_eq!(out, [-128, -59, 0, 59, 127]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn logistic_int8(
    input: &[i8],
    params: &LogisticParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    check_zero_point(params.input_zero_point)?;
    if params.input_range_radius < 0 {
        return Err(TfliteError::KernelParam {
            what: "LOGISTIC's input radius",
            value: i64::from(params.input_range_radius),
            rule: "it is at least 0",
        });
    }
    if params.input_multiplier.shift() < 0 {
        return Err(TfliteError::KernelParam {
            what: "LOGISTIC's input multiplier's shift",
            value: i64::from(params.input_multiplier.shift()),
            rule: "TFLite's int8 logistic shifts its input left: 0 to 30",
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
            let q0 = logistic_q4(q4);
            let steps = rounding_divide_by_pot(q0, 31 - OUTPUT_INTEGER_BITS);
            (steps + OUTPUT_ZERO_POINT).clamp(-128, 127) as i8
        };
    }
    Ok(())
}

/// gemmlowp's `logistic` of a Q4.27 input, in Q0.31: one half at 0;
/// `1 / (1 + exp(−a))` above 0; below, one (the saturated Q0.31 one)
/// minus that of `−a`.
fn logistic_q4(a: i32) -> i32 {
    if a == 0 {
        return 1 << 30;
    }
    let abs = if a > 0 { a } else { a.wrapping_neg() };
    let positive = one_over_one_plus_x(exp_on_negative_values(
        abs.wrapping_neg(),
        INPUT_INTEGER_BITS,
    ));
    if a > 0 {
        positive
    } else {
        i32::MAX.wrapping_sub(positive)
    }
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `LOGISTIC`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    check_logistic(c).map(Step::Logistic)
}

/// `logistic`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
pub(crate) struct LogisticStep {
    input: Range<usize>,
    output: Range<usize>,
    params: LogisticParams,
}

impl LogisticStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let LogisticStep {
            input,
            output,
            params,
        } = self;
        let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
        logistic_int8(x, &params, y)
    }
}

/// `LOGISTIC`, int8; the output at scale 1/256 and zero point −128.
fn check_logistic<'m>(c: &Checker<'m>) -> Result<LogisticStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    let (input_scale, input_zero_point) = c.per_tensor("input", &input)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let params = logistic_params(
        input_scale,
        input_zero_point,
        output_scale,
        output_zero_point,
    )
    .map_err(|_| {
        c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not scale 1/256 and zero point −128 (TFLite's int8 logistic)",
            ),
        )
    })?;
    Ok(LogisticStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        params,
    })
}
