//! TFLite's int8 `SOFTMAX` kernel on slices: the fixed-point softmax of
//! TFLite's `reference_ops::Softmax` (TFLite Micro's int8 kernel), with
//! gemmlowp's `exp_on_negative_values` and reciprocal (in `quant.rs`).

use crate::error::OperandProblem;
use crate::error::TfliteError;
use crate::interpreter::dim;
use crate::interpreter::split;
use crate::interpreter::Buffers;
use crate::interpreter::Checker;
use crate::interpreter::Step;
use crate::model::OptionsReader;
use crate::ops::OpShape;
use crate::options::Options;
use crate::options::SoftmaxOptions;
use crate::quant::{
    exp_on_negative_values_q5, multiply_by_quantized_multiplier, quantize_multiplier, reciprocal,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding,
};
use crate::types::TensorType;
use core::ops::Range;

/// Integer bits of the scaled input differences fed to the exponential
/// (TFLite's `kScaledDiffIntegerBits`): Q5.26.
const SCALED_DIFF_INTEGER_BITS: u32 = 5;
/// Integer bits of the sum of exponentials (`kAccumulationIntegerBits`):
/// Q12.19.
const ACCUMULATION_INTEGER_BITS: u32 = 12;

/// An int8 softmax's parameters, as TFLite derives them from `beta` and the
/// input's scale ([`softmax_params`]).
///
/// ```
/// use shapecheck_tflite::softmax_params;
///
/// // speech.tflite's softmax: beta 1, input scale 0.0917319208
/// let p = softmax_params(1.0, 0.0917319208)?;
/// assert_eq!(p.input_multiplier.shift(), 23);
/// assert_eq!(p.diff_min, -248);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftmaxParams {
    /// `beta · input_scale · 2^26` as a multiplier and left shift (the
    /// input difference `x − max` times it is the Q5.26 argument of `exp`)
    pub input_multiplier: QuantizedMultiplier,
    /// the most negative difference `x − max` whose exponential counts;
    /// below it the output is −128 (`-floor(31 · 2^26 / 2^shift)`, so that
    /// the scaled difference stays above −32)
    pub diff_min: i32,
}

/// TFLite's `PreprocessSoftmaxScaling` with 5 integer bits, and its
/// `CalculateInputRadius`: the multiplier of `beta · input_scale · 2^26`
/// (each widened to `f64`; TFLite Micro caps it at 2^31 − 1, then requires
/// it above 1) and `diff_min`.
///
/// Fails with [`TfliteError::SoftmaxScale`] when that product is not a
/// finite number above 1 (TFLite asserts), or is 2^30 or more (a
/// `beta · input_scale` of 16 or more: TFLite Micro's left shift of 31,
/// which this crate's multipliers do not hold).
///
/// ```
/// use shapecheck_tflite::{softmax_params, TfliteError};
///
/// let p = softmax_params(1.0, 0.5)?;
/// assert_eq!((p.input_multiplier.multiplier(), p.input_multiplier.shift()), (1 << 30, 26));
/// assert_eq!(p.diff_min, -31); // 31 steps of 0.5: −15.5, the last above −16
/// assert!(matches!(softmax_params(0.0, 0.5), Err(TfliteError::SoftmaxScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn softmax_params(beta: f32, input_scale: f32) -> Result<SoftmaxParams, TfliteError> {
    let real = f64::from(beta)
        * f64::from(input_scale)
        * f64::from(1u32 << (31 - SCALED_DIFF_INTEGER_BITS));
    if !real.is_finite() || real <= 1.0 || real >= f64::from(1u32 << 30) {
        return Err(TfliteError::SoftmaxScale { value: real });
    }
    let input_multiplier = quantize_multiplier(real)?;
    // real in (1, 2^30): the shift is 1 to 30
    let shift = input_multiplier.shift().clamp(0, 31) as u32;
    let radius =
        (((1i64 << SCALED_DIFF_INTEGER_BITS) - 1) << (31 - SCALED_DIFF_INTEGER_BITS)) >> shift;
    Ok(SoftmaxParams {
        input_multiplier,
        diff_min: i32::try_from(-radius).unwrap_or(i32::MIN),
    })
}

/// TFLite's int8 `SOFTMAX` over the last axis (`depth` values a row),
/// output scale 1/256 and zero point −128, as TFLite Micro and TFLite's
/// `reference_ops::Softmax` compute it in fixed point. For each row, with
/// `d = x − max(row)`:
///
/// - each `d ≥ diff_min` is scaled by the input multiplier to Q5.26 and
///   its `exp` taken in Q0.31 (gemmlowp's `exp_on_negative_values`); their
///   sum is kept in Q12.19;
/// - `1 / sum` is TFLite's `GetReciprocal` (gemmlowp's Newton–Raphson
///   `one_over_one_plus_x`), a Q0.31 value and a power of two;
/// - each output is `exp(d) · (1 / sum)` rounded to 1/256 (gemmlowp's
///   doubling high multiply, then a rounding right shift), minus 128,
///   clamped to [−128, 127]; an element with `d < diff_min` gives −128.
///
/// Fails, with `output` untouched, when the input is not whole rows of
/// `depth`, `output` is not as long as `input`, or a row's sum of
/// exponentials reaches 2^28 in Q12.19 (512 or more rows' worth of their
/// maximum: TFLite's own check on the output shift fails there).
///
/// ```
/// use shapecheck_tflite::{softmax_int8, softmax_params};
///
/// let params = softmax_params(1.0, 0.0917319208)?;
/// let mut out = [0i8; 4];
/// // speech.tflite's logits and scores for its second recorded input
/// softmax_int8(&[-128, 79, 121, 93], 4, &params, &mut out)?;
/// assert_eq!(out, [-128, -123, 105, -110]); // 0, 0.02, 0.91, 0.07
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn softmax_int8(
    input: &[i8],
    depth: usize,
    params: &SoftmaxParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    if input.is_empty() {
        return Ok(());
    }
    if depth == 0 || !input.len().is_multiple_of(depth) {
        return Err(TfliteError::KernelParam {
            what: "softmax's depth",
            value: i64::try_from(depth).unwrap_or(i64::MAX),
            rule: "the input must be whole rows of it",
        });
    }
    // every row checked before anything is written
    for row in input.chunks_exact(depth) {
        row_sum_of_exps(row, params)?;
    }
    for (row, out) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let (max, sum) = row_sum_of_exps(row, params)?;
        let (scale, bits_over_unit) = reciprocal(sum, ACCUMULATION_INTEGER_BITS as i32);
        // checked by row_sum_of_exps: 23 to 31
        let exponent = (bits_over_unit + 31 - 8).clamp(0, 31) as u32;
        for (&x, y) in row.iter().zip(out) {
            *y = match scaled_exp(x, max, params) {
                Some(e) => {
                    let unsaturated = rounding_divide_by_pot(
                        saturating_rounding_doubling_high_mul(scale, e),
                        exponent,
                    );
                    unsaturated.saturating_sub(128).clamp(-128, 127) as i8
                }
                None => -128,
            };
        }
    }
    Ok(())
}

/// `exp(x − max)` in Q0.31, or `None` when `x − max` is below `diff_min`.
fn scaled_exp(x: i8, max: i8, params: &SoftmaxParams) -> Option<i32> {
    let diff = i32::from(x) - i32::from(max);
    if diff < params.diff_min {
        return None;
    }
    // diff_min keeps |diff| · 2^shift below 31 · 2^26: no overflow, and the
    // two roundings agree
    let scaled = multiply_by_quantized_multiplier(diff, params.input_multiplier, Rounding::Double);
    Some(exp_on_negative_values_q5(scaled))
}

/// A row's maximum and its sum of exponentials in Q12.19; fails when the
/// sum reaches 2^28 (the output shift would pass 31).
fn row_sum_of_exps(row: &[i8], params: &SoftmaxParams) -> Result<(i8, i32), TfliteError> {
    let max = row.iter().copied().max().unwrap_or(i8::MIN);
    let mut sum: i64 = 0;
    for &x in row {
        if let Some(e) = scaled_exp(x, max, params) {
            sum += i64::from(rounding_divide_by_pot(e, ACCUMULATION_INTEGER_BITS));
        }
    }
    if sum >= 1 << 28 {
        return Err(TfliteError::KernelParam {
            what: "softmax's sum of exponentials of a row (Q12.19)",
            value: sum,
            rule: "TFLite's fixed point needs it below 2^28 (512 times the largest)",
        });
    }
    Ok((max, i32::try_from(sum).unwrap_or(i32::MAX)))
}

/// `SOFTMAX`'s options table in the schema's `BuiltinOptions` union.
const SOFTMAX_OPTIONS: u8 = 9;

/// Reads `SOFTMAX`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<Options<'a>, TfliteError> {
    let t = r.table(SOFTMAX_OPTIONS, "SoftmaxOptions")?;
    let beta = match t {
        Some(t) => t.f32(0, 0.0).map_err(r.fault("beta"))?,
        None => 0.0,
    };
    Ok(Options::Softmax(SoftmaxOptions { beta }))
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `SOFTMAX`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    let Options::Softmax(options) = c.op.options() else {
        return Err(c.unsupported());
    };
    check_softmax(c, options).map(Step::Softmax)
}

/// `softmax`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
pub(crate) struct SoftmaxStep {
    input: Range<usize>,
    output: Range<usize>,
    depth: usize,
    params: SoftmaxParams,
}

impl SoftmaxStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let SoftmaxStep {
            input,
            output,
            depth,
            params,
        } = self;
        let (x, y) = split(int8, &input, &output).ok_or(overlap)?;
        softmax_int8(x, depth, &params, y)
    }
}

/// `SOFTMAX`, int8, over the last axis; the output at scale 1/256 and
/// zero point −128, as TFLite requires.
fn check_softmax<'m>(c: &Checker<'m>, options: SoftmaxOptions) -> Result<SoftmaxStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    c.elements("output", output, input.elements())?;
    let input_slot = c.activation("input", &input)?;
    let output_slot = c.activation("output", output)?;
    let (input_scale, _) = c.per_tensor("input", &input)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    if output_scale != 1.0 / 256.0 || output_zero_point != -128 {
        return Err(c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not scale 1/256 and zero point −128 (TFLite's int8 softmax)",
            ),
        ));
    }
    let depth = match input.shape().len() {
        0 => 1,
        rank => dim(&input, rank - 1),
    };
    Ok(SoftmaxStep {
        input: input_slot.range,
        output: output_slot.range,
        depth,
        params: softmax_params(options.beta, input_scale)?,
    })
}
