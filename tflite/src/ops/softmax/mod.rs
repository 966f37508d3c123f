//! TFLite's int8 and int16 `SOFTMAX` kernels on slices: the fixed-point softmax of
//! TFLite's `reference_ops::Softmax` (TFLite Micro's int8 kernel), with
//! gemmlowp's `exp_on_negative_values` and reciprocal (in `quant.rs`);
//! and its f32 kernel ([`softmax_f32`]), TFLite Micro's float one.

use crate::arith::quant::{
    exp_on_negative_values_q5, multiply_by_quantized_multiplier, quantize_multiplier, reciprocal,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding,
};
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::OptionsReader;
use crate::format::types::TensorType;
use crate::kernel::checker::dim;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::shared::float_ops::{check_rows_f32, prepare_rows_f32};
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

impl crate::base::write_rust::WriteRust for SoftmaxParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SoftmaxParams",
            &[
                ("input_multiplier", &self.input_multiplier),
                ("diff_min", &self.diff_min),
            ],
        )
    }
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
        let (_, sum) = row_sum_of_exps(row, params);
        if sum >= 1 << 28 {
            return Err(TfliteError::KernelParam {
                what: "softmax's sum of exponentials of a row (Q12.19)",
                value: sum,
                rule: "TFLite's fixed point needs it below 2^28 (512 times the largest)",
            });
        }
    }
    softmax_int8_prechecked(input, depth, params, output);
    Ok(())
}

/// [`softmax_int8`] without its checks, for a caller that has made them
/// hold already (the typed layers of `shapecheck`, whose rows are at most
/// `SOFTMAX_MAX_DEPTH` deep, a type: no row's sum of exponentials then
/// reaches 2^28): the input whole rows of `depth`, the output as long. On
/// operands that break this, what it writes is unspecified, but it never
/// panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{softmax_int8_prechecked, softmax_params};
///
/// let params = softmax_params(1.0, 0.0917319208)?;
/// let mut out = [0i8; 4];
/// softmax_int8_prechecked(&[-128, 79, 121, 93], 4, &params, &mut out);
/// assert_eq!(out, [-128, -123, 105, -110]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn softmax_int8_prechecked(
    input: &[i8],
    depth: usize,
    params: &SoftmaxParams,
    output: &mut [i8],
) {
    let depth = depth.max(1);
    for (row, out) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let (max, sum) = row_sum_of_exps(row, params);
        // below 2^28 where the checks hold
        let sum = i32::try_from(sum).unwrap_or(i32::MAX);
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

/// A row's maximum and its sum of exponentials in Q12.19 (TFLite's fixed
/// point needs the sum below 2^28, or the output shift would pass 31:
/// [`softmax_int8`] checks it).
fn row_sum_of_exps(row: &[i8], params: &SoftmaxParams) -> (i8, i64) {
    let max = row.iter().copied().max().unwrap_or(i8::MIN);
    let mut sum: i64 = 0;
    for &x in row {
        if let Some(e) = scaled_exp(x, max, params) {
            sum = sum.saturating_add(i64::from(rounding_divide_by_pot(
                e,
                ACCUMULATION_INTEGER_BITS,
            )));
        }
    }
    (max, sum)
}

/// An int16 softmax's parameters (TFLite's 16x8 mode), as TFLite Micro's
/// `CalculateSoftmaxParams` derives them from `beta` and the input's scale
/// ([`softmax_params_int16`]). The two tables the kernel interpolates
/// (`exp` on [−10, 0] and `1 / (1 + x)` on [0, 1]) do not depend on the
/// model: they are constants of this crate, computed when it is built.
///
/// ```
/// use shapecheck_tflite::softmax_params_int16;
///
/// // beta 1, input scale 10/65535: the difference of 65535 steps is −10
/// let p = softmax_params_int16(1.0, 10.0 / 65535.0)?;
/// assert_eq!((p.input_multiplier.multiplier(), p.input_multiplier.shift()), (1 << 30, 1));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftmaxInt16Params {
    /// `beta · input_scale / (10 / 65535)`: the input difference `x − max`
    /// times it is in steps of 10/65535, the exp table's input
    pub input_multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for SoftmaxInt16Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SoftmaxInt16Params",
            &[("input_multiplier", &self.input_multiplier)],
        )
    }
}

/// TFLite Micro's `CalculateSoftmaxParams` for int16: the multiplier of
/// `beta · input_scale / (10 / 65535)` (each widened to `f64`), quantized
/// by TFLite's `QuantizeMultiplier` ([`quantize_multiplier`]).
///
/// Fails with [`TfliteError::SoftmaxScale`] when that product is not a
/// finite number above 0, or is 2^30 or more (a shift this crate's
/// multipliers do not hold).
///
/// ```
/// use shapecheck_tflite::{softmax_params_int16, TfliteError};
///
/// assert!(softmax_params_int16(1.0, 0.0005).is_ok());
/// assert!(matches!(softmax_params_int16(0.0, 0.0005), Err(TfliteError::SoftmaxScale { .. })));
/// ```
pub fn softmax_params_int16(
    beta: f32,
    input_scale: f32,
) -> Result<SoftmaxInt16Params, TfliteError> {
    let real = f64::from(input_scale) * f64::from(beta) / (10.0 / 65535.0);
    if !real.is_finite() || real <= 0.0 || real >= f64::from(1u32 << 30) {
        return Err(TfliteError::SoftmaxScale { value: real });
    }
    Ok(SoftmaxInt16Params {
        input_multiplier: quantize_multiplier(real)?,
    })
}

/// TFLite's int16 `SOFTMAX` over the last axis (`depth` values a row), in
/// TFLite's 16x8 mode (TFLite Micro's `reference_ops::SoftmaxInt16`):
/// output scale 2^−15, zero points 0. For each row:
///
/// - each difference `d = x − max(row)` is scaled by the input multiplier
///   (the double rounding) to steps of 10/65535, moved up by 32767 and
///   clamped to int16, and its `exp` looked up in the exp table (513
///   entries over [−10, 0], interpolated on the low 7 bits) in Q0.15; the
///   sum is kept in Q16.15;
/// - the sum, normalized to its leading bit, indexes the `1 / (1 + x)`
///   table (over [0, 1]) for its reciprocal;
/// - each output is `exp · reciprocal`, rounded back by the sum's
///   normalization, clamped to [0, 32767].
///
/// Fails, with `output` untouched, when the input is not whole rows of
/// `depth` or `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::{softmax_int16, softmax_params_int16};
///
/// let params = softmax_params_int16(1.0, 0.001)?;
/// let mut out = [0i16; 3];
/// // 0, 1 and 2: e^0, e^1, e^2 over their sum is 0.090, 0.245, 0.665
/// softmax_int16(&[0, 1000, 2000], 3, &params, &mut out)?;
/// assert_eq!(out, [2950, 8019, 21799]); // in 2^-15 steps
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn softmax_int16(
    input: &[i16],
    depth: usize,
    params: &SoftmaxInt16Params,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    if depth == 0 || !input.len().is_multiple_of(depth) {
        return Err(TfliteError::Length {
            what: "softmax rows",
            expected: depth,
            actual: input.len(),
        });
    }
    for (row, out) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let max = row.iter().copied().fold(i16::MIN, i16::max);
        // the exps, kept in the output meanwhile as TFLite does; each is
        // at most 32767 and a row holds at most 2^(usize bits) of them:
        // their sum in i64, then as TFLite's int32 (it wraps past 2^31)
        let mut sum = 0i64;
        for (y, &x) in out.iter_mut().zip(row) {
            let diff = i32::from(x) - i32::from(max);
            let scaled =
                multiply_by_quantized_multiplier(diff, params.input_multiplier, Rounding::Double);
            *y = lut_lookup(saturate_i16(scaled.saturating_add(32767)), &EXP_LUT);
            sum += i64::from(*y);
        }
        let sum = sum as i32;
        // the sum's leading bit: at least 1 for the row's max, whose exp is
        // about 1.0 (32767)
        let headroom_plus_one = (sum as u32).leading_zeros();
        let normalized = if headroom_plus_one >= 1 {
            (i64::from(sum) << (headroom_plus_one - 1)).wrapping_add(1 << 13) >> 14
        } else {
            0
        };
        // 1/(1 + x) for x = sum − 1, recentred from [0, 65535] to int16
        let x = saturate_i16(saturate_i32(normalized).saturating_sub((1 << 15) + (1 << 16)));
        let reciprocal = i64::from(lut_lookup(x, &ONE_OVER_ONE_PLUS_X_LUT));
        let right_shift = 31u32.saturating_sub(headroom_plus_one);
        let round = if right_shift >= 1 {
            1i64 << (right_shift - 1)
        } else {
            0
        };
        for y in out.iter_mut() {
            let result = (i64::from(*y) * reciprocal + round) >> right_shift;
            *y = i16::try_from(result.clamp(0, 32767)).unwrap_or(0);
        }
    }
    Ok(())
}

fn saturate_i16(v: i32) -> i16 {
    // in range after the clamp
    v.clamp(-32768, 32767) as i16
}

fn saturate_i32(v: i64) -> i32 {
    // in range after the clamp
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// TFLite's `LUTLookup` for int16: the high 9 bits of `value` (offset by
/// 256) index `lut`, the low 7 interpolate to the next entry, rounded.
fn lut_lookup(value: i16, lut: &[i16; LUT_SIZE]) -> i16 {
    // value >> 7 is in [−256, 255]: the index in [0, 511]
    let index = (256 + (i32::from(value) >> 7)) as usize;
    let offset = i32::from(value & 0x7f);
    let (Some(&base), Some(&next)) = (lut.get(index), lut.get(index + 1)) else {
        return 0;
    };
    // TFLite keeps the slope in an int16
    let slope = i32::from(next.wrapping_sub(base));
    let delta = (slope * offset + 64) >> 7;
    (i32::from(base) + delta) as i16
}

/// Entries of an int16 lookup table: 512 steps and the end point.
const LUT_SIZE: usize = 513;

/// `exp` on [−10, 0] in Q0.15 steps (TFLite Micro's `exp_lut`, from
/// `LUTPopulate<int16_t>` with input scale 10/65535 and zero point 32767,
/// output scale 2/65535 and zero point 0), computed when the crate is
/// built.
static EXP_LUT: [i16; LUT_SIZE] = lut_int16(10.0 / 65535.0, 32767, 2.0 / 65535.0, Transform::Exp);

/// `1 / (1 + x)` on [0, 1] (TFLite Micro's `one_over_one_plus_x_lut`:
/// input scale 1/65535 and zero point −32768, output scale 2/65535 and
/// zero point 0), computed when the crate is built.
static ONE_OVER_ONE_PLUS_X_LUT: [i16; LUT_SIZE] = lut_int16(
    1.0 / 65535.0,
    -32768,
    2.0 / 65535.0,
    Transform::OneOverOnePlusX,
);

/// The functions TFLite tabulates for its int16 softmax, in `f32`.
#[derive(Clone, Copy)]
enum Transform {
    /// `expf(x)`
    Exp,
    /// `1 / (1 + x)`
    OneOverOnePlusX,
}

impl Transform {
    const fn apply(self, x: f32) -> f32 {
        match self {
            Transform::Exp => exp_f32(x),
            Transform::OneOverOnePlusX => 1.0 / (1.0 + x),
        }
    }
}

/// TFLite's `LUTPopulateInt16<float>` (with an output zero point of 0):
/// 512 steps over the input's int16 range; each entry the transform at
/// the step's start in output steps, rounded half away from zero, less
/// half the error of the linear interpolation at the step's midpoint, so
/// that interpolating between entries errs evenly; the last entry the
/// transform at the range's end. Every operation in `f32`, in TFLite's
/// order.
// evaluated when the crate is built: an index out of range fails the build
#[allow(clippy::indexing_slicing)]
const fn lut_int16(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    transform: Transform,
) -> [i16; LUT_SIZE] {
    let input_min = input_scale * (-32768 - input_zero_point) as f32;
    let input_max = input_scale * (32767 - input_zero_point) as f32;
    let output_min = output_scale * -32768.0;
    let output_max = output_scale * 32767.0;
    let step = (input_max - input_min) / 512.0;
    let half_step = step / 2.0;
    let scaling_inv = 65536.0 / (output_max - output_min);
    let mut lut = [0i16; LUT_SIZE];
    let mut i = 0;
    while i < 512 {
        let at = input_min + i as f32 * step;
        let val = transform.apply(at);
        let val_midpoint = transform.apply(at + half_step);
        let val_next = transform.apply(input_min + (i + 1) as f32 * step);
        let sample = round_f32(val * scaling_inv);
        let midpoint_interpolated = round_f32((val_next * scaling_inv + sample) / 2.0);
        let midpoint = round_f32(val_midpoint * scaling_inv);
        let bias = round_f32((midpoint_interpolated - midpoint) / 2.0);
        lut[i] = (sample - bias).clamp(-32768.0, 32767.0) as i16;
        i += 1;
    }
    lut[512] = round_f32(transform.apply(input_max) * scaling_inv).clamp(-32768.0, 32767.0) as i16;
    lut
}

/// C's `roundf`: `v` rounded half away from zero, for `|v| < 2^31` (the
/// tables' values are below 2^17).
const fn round_f32(v: f32) -> f32 {
    let whole = v as i64 as f32;
    let fraction = v - whole;
    if fraction >= 0.5 {
        whole + 1.0
    } else if fraction <= -0.5 {
        whole - 1.0
    } else {
        whole
    }
}

/// `e^x` for an `f32` `x` of magnitude below 80, correctly rounded but
/// for values within about 10^−15 (relative) of a halfway point between
/// two `f32`s: computed in `f64` (`x = k · ln 2 + r`, `|r| ≤ ln 2 / 2`, a
/// Taylor polynomial of degree 20 for `e^r`, times 2^k) and rounded once
/// to `f32`. TFLite calls the C library's `expf`, which may differ by an
/// ulp (glibc's is not always correctly rounded); a test checks that the
/// tables built with either are the same.
const fn exp_f32(x: f32) -> f32 {
    // ln 2 in two parts, the high one with trailing zero bits so that
    // k · LN2_HI is exact (fdlibm's split)
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000); // 6.93147180369e-1
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76); // 1.90821492927e-10
    const INV_LN2: f64 = core::f64::consts::LOG2_E;
    let x = x as f64;
    // |x| < 80: k is a small integer
    let k = (x * INV_LN2 + if x < 0.0 { -0.5 } else { 0.5 }) as i32 as f64;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut sum = 1.0f64;
    let mut n = 20;
    while n >= 1 {
        sum = 1.0 + sum * r / n as f64;
        n -= 1;
    }
    let mut k = k as i32;
    while k > 0 {
        sum *= 2.0;
        k -= 1;
    }
    while k < 0 {
        sum *= 0.5;
        k += 1;
    }
    sum as f32
}

/// `SOFTMAX`'s options table in the schema's `BuiltinOptions` union.
const SOFTMAX_OPTIONS: u8 = 9;

/// Reads `SOFTMAX`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<SoftmaxOptions, TfliteError> {
    let t = r.table(SOFTMAX_OPTIONS, "SoftmaxOptions")?;
    let beta = match t {
        Some(t) => t.f32(0, 0.0).map_err(r.fault("beta"))?,
        None => 0.0,
    };
    Ok(SoftmaxOptions { beta })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `SOFTMAX`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<SoftmaxStep> + From<SoftmaxF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        let rows = prepare_rows_f32(c)?;
        return Ok(S::from(SoftmaxF32Step {
            input: rows.input,
            output: rows.output,
            depth: rows.depth,
            beta: options.beta,
        }));
    }
    check_softmax(c, options).map(S::from)
}

/// `softmax`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub enum SoftmaxStep {
    Int8 {
        input: Range<usize>,
        output: Range<usize>,
        depth: usize,
        params: SoftmaxParams,
    },
    /// int16 in and out (16x8)
    Int16 {
        input: Range<usize>,
        output: Range<usize>,
        depth: usize,
        params: SoftmaxInt16Params,
    },
}

impl crate::base::write_rust::WriteRust for SoftmaxStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            SoftmaxStep::Int8 {
                input,
                output,
                depth,
                params,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "SoftmaxStep::Int8",
                &[
                    ("input", input),
                    ("output", output),
                    ("depth", depth),
                    ("params", params),
                ],
            ),
            SoftmaxStep::Int16 {
                input,
                output,
                depth,
                params,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "SoftmaxStep::Int16",
                &[
                    ("input", input),
                    ("output", output),
                    ("depth", depth),
                    ("params", params),
                ],
            ),
        }
    }
}

impl SoftmaxStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        match self {
            SoftmaxStep::Int8 {
                input,
                output,
                depth,
                params,
            } => {
                let (x, y) = split(b.int8, input, output).ok_or(overlap)?;
                softmax_int8(x, *depth, params, y)
            }
            SoftmaxStep::Int16 {
                input,
                output,
                depth,
                params,
            } => {
                let (x, y) = split(b.int16, input, output).ok_or(overlap)?;
                softmax_int16(x, *depth, params, y)
            }
        }
    }
}

/// `SOFTMAX` over the last axis: int8, the output at scale 1/256 and zero
/// point −128, or int16 (16x8), the output at scale 2^−15 (within 0.1 %)
/// and the zero points 0, as TFLite requires.
fn check_softmax<'m>(c: &Checker<'m>, options: SoftmaxOptions) -> Result<SoftmaxStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let wide = input.dtype() == TensorType::Int16;
    if !wide {
        c.dtype("input", &input, TensorType::Int8)?;
    }
    c.dtype("output", output, input.dtype())?;
    c.elements("output", output, input.elements())?;
    let input_slot = c.activation("input", &input)?;
    let output_slot = c.activation("output", output)?;
    let (input_scale, _) = c.per_tensor("input", &input)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let depth = match input.shape().len() {
        0 => 1,
        rank => dim(&input, rank - 1),
    };
    if wide {
        // TF_LITE_ENSURE_NEAR, in f32
        let one = 1.0f32 / 32768.0;
        if (output_scale - one).abs() > 0.001 * one {
            return Err(c.fail(
                "output",
                output,
                OperandProblem::Quantization(
                    "is not scale 2^-15 and zero point 0 (TFLite's int16 softmax)",
                ),
            ));
        }
        return Ok(SoftmaxStep::Int16 {
            input: input_slot.range,
            output: output_slot.range,
            depth,
            params: softmax_params_int16(options.beta, input_scale)?,
        });
    }
    if output_scale != 1.0 / 256.0 || output_zero_point != -128 {
        return Err(c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not scale 1/256 and zero point −128 (TFLite's int8 softmax)",
            ),
        ));
    }
    Ok(SoftmaxStep::Int8 {
        input: input_slot.range,
        output: output_slot.range,
        depth,
        params: softmax_params(options.beta, input_scale)?,
    })
}

// The f32 SOFTMAX: TFLite Micro's float kernel (`reference_ops::Softmax`
// over f32), with the C library's `expf` as `float_math::exp`.

/// TFLite's f32 `SOFTMAX` over the last axis (`depth` values a row), as
/// TFLite Micro's `reference_ops::Softmax` computes it in f32: for each
/// row, `max` is the row's largest value (`std::max` from `f32::MIN`, so
/// a NaN is never the max); each `e_c = expf((x_c − max) · beta)` is
/// written and added to `sum` from `+0` in order; then each output is
/// `e_c / sum` (a division, not a product with `1 / sum`). `expf` is
/// glibc's ([`exp_value`](crate::exp_value)), so the outputs are TFLite
/// Micro's to the bit.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or the input is not whole rows of `depth`.
///
/// ```
/// use shapecheck_tflite::softmax_f32;
///
/// let mut out = [0f32; 4];
/// softmax_f32(&[1.0, 1.0, 0.0, 3.0], 2, 1.0, &mut out)?;
/// assert_eq!(out, [0.5, 0.5, 0.047425874, 0.95257413]);
/// assert!(softmax_f32(&[1.0, 2.0, 3.0], 2, 1.0, &mut [0f32; 3]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn softmax_f32(
    input: &[f32],
    depth: usize,
    beta: f32,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check_rows_f32("softmax's depth", input.len(), depth, output.len())?;
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
        for (o, &v) in y.iter_mut().zip(x) {
            let e = crate::arith::float_math::exp((v - max) * beta);
            *o = e;
            sum += e;
        }
        for o in y.iter_mut() {
            *o /= sum;
        }
    }
    Ok(())
}

/// `SOFTMAX`'s f32 step: its operands' places and its `beta`.
#[derive(Clone)]
#[doc(hidden)]
pub struct SoftmaxF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
    pub beta: f32,
}

impl crate::base::write_rust::WriteRust for SoftmaxF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SoftmaxF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("depth", &self.depth),
                ("beta", &self.beta),
            ],
        )
    }
}

impl SoftmaxF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        softmax_f32(x, self.depth, self.beta, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TFLite's table generation written plainly over `f32`, with the
    /// host C library's `expf` (which TFLite calls).
    fn reference_lut(
        input_scale: f32,
        input_zero_point: i32,
        output_scale: f32,
        f: fn(f32) -> f32,
    ) -> [i16; LUT_SIZE] {
        extern crate std;
        let round = |v: f32| std::primitive::f32::round(v);
        let input_min = input_scale * (-32768 - input_zero_point) as f32;
        let input_max = input_scale * (32767 - input_zero_point) as f32;
        let output_min = output_scale * -32768.0;
        let output_max = output_scale * 32767.0;
        let step = (input_max - input_min) / 512.0;
        let half_step = step / 2.0;
        let inv = 65536.0 / (output_max - output_min);
        let mut lut = [0i16; LUT_SIZE];
        for (i, entry) in lut.iter_mut().enumerate().take(512) {
            let val = f(input_min + i as f32 * step);
            let val_midpoint = f(input_min + i as f32 * step + half_step);
            let val_next = f(input_min + (i + 1) as f32 * step);
            let sample = round(val * inv);
            let interpolated = round((val_next * inv + round(val * inv)) / 2.0);
            let midpoint = round(val_midpoint * inv);
            let bias = round((interpolated - midpoint) / 2.0);
            *entry = (sample - bias).clamp(-32768.0, 32767.0) as i16;
        }
        lut[512] = round(f(input_max) * inv).clamp(-32768.0, 32767.0) as i16;
        lut
    }

    /// The tables built into the crate (with its own `exp`) are the ones
    /// TFLite builds with the C library's `expf`: the two `exp`s differ
    /// by an ulp on a few arguments (glibc's `expf` is not always
    /// correctly rounded), and no entry moves.
    #[test]
    fn the_tables_are_tflites() {
        extern crate std;
        let exp = |x: f32| std::primitive::f32::exp(x);
        assert_eq!(
            EXP_LUT,
            reference_lut(10.0 / 65535.0, 32767, 2.0 / 65535.0, exp)
        );
        let reciprocal = |x: f32| 1.0 / (1.0 + x);
        assert_eq!(
            ONE_OVER_ONE_PLUS_X_LUT,
            reference_lut(1.0 / 65535.0, -32768, 2.0 / 65535.0, reciprocal)
        );
        // and the crate's exp is within an ulp of the C library's
        for x in [-10.0f32, -2.2167969, -1.0, -0.001, 0.0] {
            let (ours, theirs) = (exp_f32(x).to_bits(), exp(x).to_bits());
            assert!(ours.abs_diff(theirs) <= 1, "{x}");
        }
    }

    #[test]
    fn the_tables_run_from_their_start_to_their_end() {
        // exp(−10) · 32768 ≈ 1.5, exp(0) = 1 is 32767 (the top of int16)
        assert!(EXP_LUT[0] <= 2);
        assert_eq!(EXP_LUT[512], 32767);
        assert!(EXP_LUT.windows(2).all(|w| w[0] <= w[1]));
        // 1/(1 + 0) = 1 → 32767; 1/(1 + 1) = 0.5 → 16384
        assert_eq!(ONE_OVER_ONE_PLUS_X_LUT[0], 32767);
        assert_eq!(ONE_OVER_ONE_PLUS_X_LUT[512], 16384);
        assert!(ONE_OVER_ONE_PLUS_X_LUT.windows(2).all(|w| w[0] >= w[1]));
    }
}

// log_softmax is of softmax's family
pub(crate) mod log_softmax;

/// `SoftmaxOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::Softmax(s) = model.operator(3).unwrap().options() else { panic!() };
/// assert_eq!(s.beta, 1.0);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SoftmaxOptions {
    /// `beta`: softmax(beta · x)
    pub beta: f32,
}
