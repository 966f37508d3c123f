//! TFLite's int8 `HARD_SWISH` on slices, `x · relu6(x + 3) / 6`, as TFLite
//! Micro's `hard_swish.cc` and `reference_ops::HardSwish` compute it: in
//! 16-bit fixed point, the input on a "high resolution" scale 128 times
//! finer, the ReLU-ish factor `relu6(x + 3) / 6` as a Q0.15 number. And
//! its f32 kernel ([`hard_swish_f32`]), TFLite's `reference_ops::HardSwish`
//! over f32: plain arithmetic.

use crate::arith::quant::QuantizedMultiplier;
use crate::arith::quant::{
    check_int8, check_scale, down_scale_to_i16_multiplier, quantize_multiplier,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul_i16,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, UnaryStep};
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// An int8 `HARD_SWISH`'s parameters, as TFLite Micro's `HardSwishPrepare`
/// derives them ([`hard_swish_params`]): two 16-bit multipliers and their
/// exponents.
///
/// ```
/// use shapecheck_tflite::{hard_swish_params, HardSwishParams};
///
/// const P: HardSwishParams = HardSwishParams {
///     input_zero_point: 0,
///     output_zero_point: 0,
///     output_multiplier: 16384, // 0.5 in Q0.15
///     output_exponent: -6,      // 1/128 = 0.5 · 2^-6
///     reluish_multiplier: 21845, // 0.6667
///     reluish_exponent: 7,       // 32768 / (3 · 128) = 85.3 = 0.6667 · 2^7
/// };
/// assert_eq!(hard_swish_params(1.0, 0, 1.0, 0)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HardSwishParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / (128 · output_scale)` as a Q0.15 mantissa
    pub output_multiplier: i16,
    /// its power of two, in [−15, 0]
    pub output_exponent: i32,
    /// `input_scale / 128 / (3 / 32768)` as a Q0.15 mantissa
    pub reluish_multiplier: i16,
    /// its power of two, in [−15, 15]
    pub reluish_exponent: i32,
}

impl crate::base::write_rust::WriteRust for HardSwishParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "HardSwishParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
                ("output_exponent", &self.output_exponent),
                ("reluish_multiplier", &self.reluish_multiplier),
                ("reluish_exponent", &self.reluish_exponent),
            ],
        )
    }
}

/// TFLite Micro's `HardSwishPrepare` for int8: with
/// `hires = input_scale / 128` (in `f32`), the output multiplier
/// `hires / output_scale` and the ReLU-ish multiplier
/// `hires / (3 / 32768)`, each divided in `f32`, widened to `f64`,
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier) and
/// its mantissa rounded to 16 bits (TFLite's
/// `DownScaleInt32ToInt16Multiplier`).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, an output multiplier of 1 or more (TFLite's
/// check: exponent at most 0), or an exponent outside what this kernel's
/// 16-bit shifts take (output: −15 to 0; ReLU-ish: −15 to 15), and with
/// [`TfliteError::KernelParam`] for a zero point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::{hard_swish_params, TfliteError};
///
/// // an output scale below input_scale / 128: TFLite refuses it
/// assert!(matches!(hard_swish_params(1.0, 0, 0.001, 0), Err(TfliteError::KernelScale { .. })));
/// ```
pub fn hard_swish_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<HardSwishParams, TfliteError> {
    check_scale("HARD_SWISH's input scale", input_scale)?;
    check_scale("HARD_SWISH's output scale", output_scale)?;
    let hires = (1.0f32 / 128.0) * input_scale;
    let reluish_scale = 3.0f32 / 32768.0;
    let output_real = f64::from(hires / output_scale);
    let reluish_real = f64::from(hires / reluish_scale);
    let output = quantize_multiplier(output_real)?;
    let reluish = quantize_multiplier(reluish_real)?;
    if hires == 0.0 {
        // input_scale / 128 underflows f32: both multipliers would be 0
        return Err(TfliteError::KernelScale {
            what: "HARD_SWISH's input scale / 128",
            value: f64::from(input_scale) / 128.0,
            rule: "it must not underflow f32 to 0",
        });
    }
    if !(-15..=0).contains(&output.shift()) {
        return Err(TfliteError::KernelScale {
            what: "HARD_SWISH's output multiplier input_scale / (128 · output_scale)",
            value: output_real,
            rule: "TFLite needs it below 1; this kernel, at least 2^-16",
        });
    }
    if !(-15..=15).contains(&reluish.shift()) {
        return Err(TfliteError::KernelScale {
            what: "HARD_SWISH's ReLU-ish multiplier input_scale / 128 / (3 / 32768)",
            value: reluish_real,
            rule: "this kernel takes it in [2^-16, 2^15)",
        });
    }
    let params = HardSwishParams {
        input_zero_point,
        output_zero_point,
        output_multiplier: down_scale_to_i16_multiplier(output.multiplier()),
        output_exponent: output.shift(),
        reluish_multiplier: down_scale_to_i16_multiplier(reluish.multiplier()),
        reluish_exponent: reluish.shift(),
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &HardSwishParams) -> Result<(), TfliteError> {
    check_int8("HARD_SWISH's input zero point", p.input_zero_point)?;
    check_int8("HARD_SWISH's output zero point", p.output_zero_point)?;
    for (what, value, range) in [
        ("HARD_SWISH's output exponent", p.output_exponent, -15..=0),
        (
            "HARD_SWISH's ReLU-ish exponent",
            p.reluish_exponent,
            -15..=15,
        ),
    ] {
        if !range.contains(&value) {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(value),
                rule: "the output exponent is in [−15, 0], the ReLU-ish one in [−15, 15]",
            });
        }
    }
    Ok(())
}

/// TFLite's `SaturatingLeftShift` on `int16`: `value · 2^amount` clamped
/// to the `i16` range (`amount` in [0, 15]).
fn saturating_left_shift_i16(value: i16, amount: i32) -> i16 {
    let shifted = i32::from(value) << amount.clamp(0, 15);
    shifted.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// [`rounding_divide_by_pot`](crate::rounding_divide_by_pot) of an `i16`
/// by 2^0 to 2^15 (gemmlowp's on `int16` gives the same there).
fn divide_by_pot_i16(value: i16, exponent: i32) -> i16 {
    // the quotient of an i16 is an i16
    rounding_divide_by_pot(i32::from(value), exponent.clamp(0, 15) as u32) as i16
}

/// TFLite's hard swish's own `SaturatingDoublingHighMul` on `int16`:
/// `a · b / 2^15` truncated toward zero (no rounding), `(−2^15)²`
/// saturating to `i16::MAX`.
fn doubling_high_mul_i16(a: i16, b: i16) -> i16 {
    if a == i16::MIN && b == i16::MIN {
        return i16::MAX;
    }
    // |a · b| < 2^30: the quotient is an i16
    ((i32::from(a) * i32::from(b)) / (1 << 15)) as i16
}

/// TFLite's int8 `HARD_SWISH` (TFLite Micro's `reference_ops::HardSwish`),
/// in 16-bit fixed point: for each input, `v = (x − zp_in) · 2^7` (the
/// high-resolution input), `p = high_mul(v, output_multiplier)` (gemmlowp's
/// rounding, 16 bits); the ReLU-ish value `r` is `v` times the ReLU-ish
/// multiplier and its exponent (a saturating left shift by
/// `exponent − 1`, the rounding high multiply, a saturating doubling, or a
/// rounding right shift for a negative exponent), mapped from [−1, 1] to
/// [0, 1] as `(r + 2^15) / 2`; then `y = round(high_mul'(r, p) /
/// 2^−output_exponent) + zp_out` (`high_mul'` truncating) clamped to int8.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or `params` break [`hard_swish_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{hard_swish_int8, hard_swish_params};
///
/// // scale 1/16 in and out: x · relu6(x + 3) / 6
/// let params = hard_swish_params(0.0625, 0, 0.0625, 0)?;
/// let mut out = [0i8; 4];
/// hard_swish_int8(&[-64, -16, 16, 64], &params, &mut out)?;
/// assert_eq!(out, [0, -5, 11, 64]); // −4 → 0, −1 → −1/3, 1 → 2/3, 4 → 4
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn hard_swish_int8(
    input: &[i8],
    params: &HardSwishParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check(params)?;
    let p = *params;
    for (y, &x) in output.iter_mut().zip(input) {
        // zero point in int8: |x − zp| ≤ 255, times 2^7 within the i16 range
        let hires = ((i32::from(x) - p.input_zero_point) << 7) as i16;
        let preshift_output = saturating_rounding_doubling_high_mul_i16(hires, p.output_multiplier);
        let mut reluish = hires;
        if p.reluish_exponent > 0 {
            reluish = saturating_left_shift_i16(reluish, p.reluish_exponent - 1);
        }
        reluish = saturating_rounding_doubling_high_mul_i16(reluish, p.reluish_multiplier);
        if p.reluish_exponent > 0 {
            reluish = saturating_left_shift_i16(reluish, 1);
        }
        if p.reluish_exponent < 0 {
            reluish = divide_by_pot_i16(reluish, -p.reluish_exponent);
        }
        // [−2^15, 2^15) to [0, 2^15)
        let reluish = ((i32::from(reluish) + (1 << 15)) >> 1) as i16;
        let preshift = doubling_high_mul_i16(reluish, preshift_output);
        // TFLite adds the zero point in int16, wrapping
        let value = divide_by_pot_i16(preshift, -p.output_exponent)
            .wrapping_add(p.output_zero_point as i16);
        *y = value.clamp(-128, 127) as i8;
    }
    Ok(())
}

/// `HARD_SWISH`'s row in `OPS`: checks the operator (an int8 activation in and
/// out) and prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<UnaryStep<i8, HardSwishParams>> + From<MapF32Step<HardSwishF32>>,
>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, HardSwishF32).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(hard_swish_params(si, zi, so, zo)?)))
}

impl crate::shared::elementwise::UnaryApply<i8> for HardSwishParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        hard_swish_int8(x, self, y)
    }
}

/// One value of TFLite's f32 `HARD_SWISH`, as TFLite's
/// `reference_ops::HardSwish` computes it in f32:
/// `x · std::min(6, std::max(0, x + 3)) / 6`, the product first, then the
/// division. `std::max(0, v)` is `0 < v ? v : 0` and `std::min(6, m)` is
/// `m < 6 ? m : 6`: a NaN `x + 3` gives the factor 0, and the output is
/// `x · 0 / 6` (NaN again, as `x` is NaN).
///
/// ```
/// use shapecheck_tflite::hard_swish_value;
///
/// assert_eq!(hard_swish_value(-4.0), -0.0);
/// assert_eq!(hard_swish_value(1.0), 0.6666667); // 1 · 4 / 6
/// assert_eq!(hard_swish_value(5.0), 5.0);
/// ```
pub fn hard_swish_value(x: f32) -> f32 {
    let v = x + 3.0;
    let lower = if 0.0 < v { v } else { 0.0 };
    let factor = if lower < 6.0 { lower } else { 6.0 };
    x * factor / 6.0
}

/// TFLite's f32 `HARD_SWISH`, element by element ([`hard_swish_value`]).
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`.
///
/// ```
/// use shapecheck_tflite::hard_swish_f32;
///
/// let mut out = [0f32; 3];
/// hard_swish_f32(&[-3.0, 0.0, 3.0], &mut out)?;
/// assert_eq!(out, [-0.0, 0.0, 3.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn hard_swish_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, hard_swish_value)
}

/// `HARD_SWISH`'s f32 function: [`hard_swish_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct HardSwishF32;

impl crate::shared::float_ops::MapF32Apply for HardSwishF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        hard_swish_value(x)
    }
}

impl crate::base::write_rust::WriteRust for HardSwishF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "HardSwishF32")
    }
}
