//! TFLite's int8 `LOG_SOFTMAX` over the last axis, as TFLite Micro
//! computes it in fixed point (`reference_ops::LogSoftmaxQuantized`):
//! the output is quantized as 16/256 from 127 (TFLite Micro refuses any
//! other), `y = x − max − ln Σ exp(x − max)`; and its f32 kernel
//! ([`log_softmax_f32`]), TFLite Micro's float one.

use crate::arith::quant::{
    exp_on_negative_values_q5, log_x_for_x_at_least_1, multiply_by_quantized_multiplier,
    quantize_multiplier, rounding_divide_by_pot, QuantizedMultiplier, Rounding,
};
use crate::arith::window::length;
use crate::format::error::{OperandProblem, TfliteError};
use crate::format::types::TensorType;
use crate::kernel::checker::{dim, split, Checker};
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::ops::softmax::softmax_params;
use crate::shared::float_ops::{check_rows_f32, prepare_rows_f32};
use core::ops::Range;

/// The output scale TFLite Micro requires of an int8 `LOG_SOFTMAX`.
pub const LOG_SOFTMAX_OUTPUT_SCALE: f32 = 16.0 / 256.0;
/// The output zero point TFLite Micro requires of an int8 `LOG_SOFTMAX`.
pub const LOG_SOFTMAX_OUTPUT_ZERO_POINT: i32 = 127;

/// An int8 log-softmax's parameters ([`log_softmax_params`]).
///
/// ```
/// use shapecheck_tflite::{log_softmax_params, LogSoftmaxParams};
///
/// let p: LogSoftmaxParams = log_softmax_params(0.5, 0.0625, 127)?;
/// assert_eq!(p.diff_min, -31);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogSoftmaxParams {
    /// `input_scale · 2^26` as a multiplier and left shift: a difference
    /// `x − max` times it is the Q5.26 argument of `exp`
    pub input_multiplier: QuantizedMultiplier,
    /// the most negative difference `x − max` whose exponential is summed
    pub diff_min: i32,
    /// the input multiplier's inverse (`2^(31 − shift) / multiplier`, below
    /// 1): it takes a Q5.26 log back to input steps
    pub reverse_multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for LogSoftmaxParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LogSoftmaxParams",
            &[
                ("input_multiplier", &self.input_multiplier),
                ("diff_min", &self.diff_min),
                ("reverse_multiplier", &self.reverse_multiplier),
            ],
        )
    }
}

/// TFLite Micro's `PreprocessLogSoftmaxScalingExp` (beta 1, 5 integer
/// bits) and `CalculateInputRadius`: the input multiplier and
/// `diff_min` as [`softmax_params`](crate::softmax_params) gives them
/// for beta 1, and the reverse multiplier `2^(31 − shift) / multiplier`
/// (in `f64`) by [`quantize_multiplier`].
///
/// Fails with [`TfliteError::KernelScale`] unless the output is
/// quantized as 16/256 from 127, and as
/// [`softmax_params`](crate::softmax_params) does for the input scale
/// (or when the reverse multiplier is not below 1: an input scale under
/// 2^−25).
///
/// ```
/// use shapecheck_tflite::{log_softmax_params, TfliteError};
///
/// let p = log_softmax_params(0.058249156922101974, 0.0625, 127)?;
/// assert!(p.reverse_multiplier.shift() <= 0);
/// assert!(matches!(log_softmax_params(0.05, 0.0625, 0), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn log_softmax_params(
    input_scale: f32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<LogSoftmaxParams, TfliteError> {
    if output_scale != LOG_SOFTMAX_OUTPUT_SCALE
        || output_zero_point != LOG_SOFTMAX_OUTPUT_ZERO_POINT
    {
        return Err(TfliteError::KernelScale {
            what: "log softmax's output scale and zero point",
            value: f64::from(output_scale),
            rule: "TFLite Micro requires 16/256 and 127",
        });
    }
    let softmax = softmax_params(1.0, input_scale)?;
    let input_multiplier = softmax.input_multiplier;
    // the shift is 1 to 30 (softmax_params): 2^(31 − shift) fits
    let shift = input_multiplier.shift().clamp(1, 30);
    let reverse = f64::from(1u32 << (31 - shift)) / f64::from(input_multiplier.multiplier());
    if !(reverse > 0.0 && reverse < 1.0) {
        return Err(TfliteError::KernelScale {
            what: "log softmax's reverse multiplier",
            value: reverse,
            rule: "it must be in (0, 1) (an input scale of at least 2^-25)",
        });
    }
    Ok(LogSoftmaxParams {
        input_multiplier,
        diff_min: softmax.diff_min,
        reverse_multiplier: quantize_multiplier(reverse)?,
    })
}

/// TFLite's int8 `LOG_SOFTMAX` over rows of `depth` (the last axis), as
/// TFLite Micro computes it. For each row, with `d = x − max(row)`:
///
/// - each `d ≥ diff_min` is scaled by the input multiplier to Q5.26 and
///   its `exp` (Q0.31) rounded to Q12.19 and summed;
/// - `ln` of the sum is taken in Q5.26 (TFLite's
///   `log_x_for_x_greater_than_or_equal_to_1`);
/// - an element whose `d` is above both `diff_min − 1` and that log taken
///   back to input steps (plus −2^31, the reverse multiplier) outputs
///   `(d_q5 − ln_sum) / 2^22` rounded, plus 127, clamped to int8; any
///   other outputs −128.
///
/// Fails, with `output` untouched, when the input is not whole rows of
/// `depth` or `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::{log_softmax_int8, log_softmax_params};
///
/// let params = log_softmax_params(0.1, 0.0625, 127)?;
/// let mut out = [0i8; 2];
/// // two equal logits: ln ½ = −0.693, −11.1 steps of 1/16 → 127 − 11
/// log_softmax_int8(&[5, 5], 2, &params, &mut out)?;
/// assert_eq!(out, [116, 116]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn log_softmax_int8(
    input: &[i8],
    depth: usize,
    params: &LogSoftmaxParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    length("output", input.len(), output.len())?;
    if depth == 0 {
        return if input.is_empty() {
            Ok(())
        } else {
            Err(TfliteError::KernelParam {
                what: "log softmax's depth",
                value: 0,
                rule: "it must be at least 1 for a non-empty input",
            })
        };
    }
    if !input.len().is_multiple_of(depth) {
        return Err(TfliteError::Length {
            what: "input",
            expected: (input.len() / depth + 1) * depth,
            actual: input.len(),
        });
    }
    let scaled =
        |d: i32| multiply_by_quantized_multiplier(d, params.input_multiplier, Rounding::Double);
    for (row, outs) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let max = i32::from(row.iter().copied().max().unwrap_or(i8::MIN));
        // Q12.19, wrapping as gemmlowp's sum does (at most 2^12 rows'
        // worth of 1: it does not, for a row under 4096)
        let mut sum_of_exps = 0i32;
        for &x in row {
            let d = i32::from(x) - max;
            if d >= params.diff_min {
                let e = exp_on_negative_values_q5(scaled(d));
                sum_of_exps = sum_of_exps.wrapping_add(rounding_divide_by_pot(e, 12));
            }
        }
        let log_sum = log_x_for_x_at_least_1(sum_of_exps, 12, 5);
        let shifted_log_sum = log_sum.wrapping_add(i32::MIN);
        let adjusted_diff_min = (params.diff_min - 1).max(multiply_by_quantized_multiplier(
            shifted_log_sum,
            params.reverse_multiplier,
            Rounding::Double,
        ));
        for (&x, out) in row.iter().zip(outs.iter_mut()) {
            let d = i32::from(x) - max;
            *out = if d > adjusted_diff_min {
                let y = rounding_divide_by_pot(scaled(d).wrapping_sub(log_sum), 31 - 5 - 4) + 127;
                // in int8 after the clamp
                y.clamp(-128, 127) as i8
            } else {
                -128
            };
        }
    }
    Ok(())
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `LOG_SOFTMAX`'s interpreter step: its operands' places in the int8
/// arena, its rows' length and its parameters, checked once by
/// [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct LogSoftmaxStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
    pub params: LogSoftmaxParams,
}

impl crate::base::write_rust::WriteRust for LogSoftmaxStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LogSoftmaxStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("depth", &self.depth),
                ("params", &self.params),
            ],
        )
    }
}

impl LogSoftmaxStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let (x, y) = split(b.int8, &self.input, &self.output).ok_or(overlap)?;
        log_softmax_int8(x, self.depth, &self.params, y)
    }
}

// The f32 LOG_SOFTMAX: TFLite Micro's float kernel
// (`reference_ops::LogSoftmax` over f32), with the C library's `expf` and
// `logf` as `float_math`'s.

/// TFLite's f32 `LOG_SOFTMAX` over the last axis (`depth` values a row),
/// as TFLite Micro's `reference_ops::LogSoftmax` computes it in f32: for
/// each row, `max` its largest value (`std::max` from `f32::MIN`), `sum`
/// the `expf(x_c − max)` added from `+0` in order, and each output
/// `(x_c − max) − logf(sum)`. `expf` is glibc's; `logf` is correctly
/// rounded, and glibc's (0.82 ulp) differs from it by one ulp on about
/// one `sum` in 10^4: such a row's outputs may then be one ulp from
/// TFLite Micro's.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or the input is not whole rows of `depth`.
///
/// ```
/// use shapecheck_tflite::log_softmax_f32;
///
/// let mut out = [0f32; 2];
/// log_softmax_f32(&[1.0, 1.0], 2, &mut out)?;
/// assert_eq!(out, [-core::f32::consts::LN_2; 2]); // ln(1/2)
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn log_softmax_f32(input: &[f32], depth: usize, output: &mut [f32]) -> Result<(), TfliteError> {
    check_rows_f32("log-softmax's depth", input.len(), depth, output.len())?;
    if input.is_empty() {
        return Ok(());
    }
    for (x, y) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let mut max = f32::MIN;
        for &v in x {
            // std::max(max, v)
            if max < v {
                max = v;
            }
        }
        let mut sum = 0.0f32;
        for &v in x {
            sum += crate::arith::float_math::exp(v - max);
        }
        let log_sum = crate::arith::float_math::logf(sum);
        for (o, &v) in y.iter_mut().zip(x) {
            *o = v - max - log_sum;
        }
    }
    Ok(())
}

/// `LOG_SOFTMAX`'s f32 step: its operands' places and its rows' length.
#[derive(Clone)]
#[doc(hidden)]
pub struct LogSoftmaxF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
}

impl crate::base::write_rust::WriteRust for LogSoftmaxF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LogSoftmaxF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("depth", &self.depth),
            ],
        )
    }
}

impl LogSoftmaxF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        log_softmax_f32(x, self.depth, y)
    }
}

/// `LOG_SOFTMAX`'s row's `prepare`, f32 or int8 over the last axis: the output
/// quantized as 16/256 from 127 (TFLite Micro's requirement), the rest
/// through [`log_softmax_params`].
pub(crate) fn prepare<'m, S: From<LogSoftmaxStep> + From<LogSoftmaxF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Float32 {
        let rows = prepare_rows_f32(c)?;
        return Ok(S::from(LogSoftmaxF32Step {
            input: rows.input,
            output: rows.output,
            depth: rows.depth,
        }));
    }
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    let (input_scale, _) = c.per_tensor("input", &input)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    if output_scale != LOG_SOFTMAX_OUTPUT_SCALE
        || output_zero_point != LOG_SOFTMAX_OUTPUT_ZERO_POINT
    {
        return Err(c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not scale 16/256 and zero point 127 (TFLite Micro's int8 LOG_SOFTMAX)",
            ),
        ));
    }
    let params = log_softmax_params(input_scale, output_scale, output_zero_point)?;
    let rank = input.shape().len();
    let depth = if rank == 0 { 1 } else { dim(&input, rank - 1) };
    Ok(S::from(LogSoftmaxStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        depth,
        params,
    }))
}
