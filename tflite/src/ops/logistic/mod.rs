//! TFLite's int8 `LOGISTIC` on slices: TFLite Micro's
//! `reference_integer_ops::Logistic`, gemmlowp's fixed-point logistic of
//! the input rescaled to Q4.27, written to an output of scale 1/256 and
//! zero point −128. And its f32 kernel ([`logistic_f32`]), TFLite's
//! `reference_ops::Logistic` over f32, with the C library's `expf`.

use crate::arith::quant::{
    exp_on_negative_values, one_over_one_plus_x, q4_input_multiplier, rounding_divide_by_pot,
    QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};
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

impl crate::base::write_rust::WriteRust for LogisticParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LogisticParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("input_range_radius", &self.input_range_radius),
                ("input_multiplier", &self.input_multiplier),
            ],
        )
    }
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

const fn check_zero_point(zero_point: i32) -> Result<(), TfliteError> {
    if zero_point < -128 || zero_point > 127 {
        return Err(TfliteError::KernelParam {
            what: "LOGISTIC's input zero point",
            value: zero_point as i64,
            rule: "an int8 zero point is in [−128, 127]",
        });
    }
    Ok(())
}

impl LogisticParams {
    /// Checks the parameters as [`logistic_int8`] does before it writes:
    /// the input zero point in [−128, 127], the radius at least 0, the
    /// multiplier's shift at least 0. A `const fn`: parameters written in
    /// a `const` or `static` are checked when the program is built.
    ///
    /// ```
    /// use shapecheck_tflite::{logistic_params, LogisticParams};
    ///
    /// let p = logistic_params(0.1, 0, 1.0 / 256.0, -128)?;
    /// assert!(p.check().is_ok());
    /// assert!(LogisticParams { input_zero_point: 300, ..p }.check().is_err());
    /// assert!(LogisticParams { input_range_radius: -1, ..p }.check().is_err());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn check(&self) -> Result<(), TfliteError> {
        if let Err(e) = check_zero_point(self.input_zero_point) {
            return Err(e);
        }
        if self.input_range_radius < 0 {
            return Err(TfliteError::KernelParam {
                what: "LOGISTIC's input radius",
                value: self.input_range_radius as i64,
                rule: "it is at least 0",
            });
        }
        if self.input_multiplier.shift() < 0 {
            return Err(TfliteError::KernelParam {
                what: "LOGISTIC's input multiplier's shift",
                value: self.input_multiplier.shift() as i64,
                rule: "TFLite's int8 logistic shifts its input left: 0 to 30",
            });
        }
        Ok(())
    }
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
    params.check()?;
    logistic_int8_prechecked(input, params, output);
    Ok(())
}

/// [`logistic_int8`] without its checks, for a caller that has made them
/// hold already (the typed layers of `shapecheck`, whose lengths are
/// types and whose parameters passed [`LogisticParams::check`] when the
/// layer was built). On operands that break this, what it writes is
/// unspecified, but it never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{logistic_int8_prechecked, logistic_params};
///
/// let params = logistic_params(0.5, 0, 1.0 / 256.0, -128)?;
/// let mut out = [0i8; 3];
/// logistic_int8_prechecked(&[-2, 0, 2], &params, &mut out);
/// assert_eq!(out, [-59, 0, 59]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn logistic_int8_prechecked(input: &[i8], params: &LogisticParams, output: &mut [i8]) {
    let multiplier = Scale::new(params.input_multiplier);
    let radius = params.input_range_radius;
    for (y, &x) in output.iter_mut().zip(input) {
        // the zero point in int8 (checked): no overflow
        let x = i32::from(x).wrapping_sub(params.input_zero_point);
        *y = if x <= radius.wrapping_neg() {
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

/// An int16 logistic's parameters (TFLite's 16x8 mode), as TFLite Micro's
/// `CalculateArithmeticOpDataLogistic` derives them from the input's scale
/// ([`logistic_params_int16`]): each input `q` becomes
/// `(q · input_multiplier + round) >> input_left_shift`, the input in
/// steps of 1/(3 · 4096) (so ±2^17 is ±10.7), which indexes the sigmoid
/// table.
///
/// ```
/// use shapecheck_tflite::logistic_params_int16;
///
/// // a power-of-two input scale 2^-12: the multiplier 3, no shift
/// let p = logistic_params_int16(1.0 / 4096.0, 1.0 / 32768.0)?;
/// assert_eq!((p.input_multiplier, p.input_left_shift), (3, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogisticInt16Params {
    /// `input_scale · 3 · 4096 · 2^input_left_shift`, truncated, in
    /// [1, 32767]
    pub input_multiplier: i32,
    /// in [0, 31]
    pub input_left_shift: u32,
}

impl crate::base::write_rust::WriteRust for LogisticInt16Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LogisticInt16Params",
            &[
                ("input_multiplier", &self.input_multiplier),
                ("input_left_shift", &self.input_left_shift),
            ],
        )
    }
}

/// TFLite Micro's `CalculateArithmeticOpDataLogistic` for int16: for an
/// input scale of 2^−12 (TFLite's `CheckedLog2`: its log2 within 10^−3 of
/// −12) the multiplier 3 and no shift; otherwise `m = input_scale · 3 ·
/// 4096` in `f64`, doubled (the shift counting) while `m ≤ 32767 / 2` and
/// the shift is at most 30, then truncated. The output's scale must be
/// 2^−15 (its log2 within 10^−3 of −15; the zero points are 0, which the
/// interpreter checks).
///
/// TFLite takes log2 of the `f32` scale; this compares the scale with
/// `2^(e ± 0.001)` instead, which differs only for a scale within `f32`
/// rounding of those bounds.
///
/// Fails with [`TfliteError::KernelScale`] for an input scale that is not
/// a finite number above 0, or one so large that the multiplier passes
/// 32767 (above 8/3), and for an output scale other than 2^−15.
///
/// ```
/// use shapecheck_tflite::{logistic_params_int16, TfliteError};
///
/// // int16_logistic.tflite's input scale: 0.000391 · 12288 = 4.81, doubled 12 times
/// let p = logistic_params_int16(0.00039130868, 1.0 / 32768.0)?;
/// assert_eq!((p.input_multiplier, p.input_left_shift), (19695, 12));
/// assert!(matches!(logistic_params_int16(0.001, 1.0 / 256.0), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn logistic_params_int16(
    input_scale: f32,
    output_scale: f32,
) -> Result<LogisticInt16Params, TfliteError> {
    if !near_power_of_two(output_scale, -15) {
        return Err(TfliteError::KernelScale {
            what: "LOGISTIC's int16 output scale",
            value: f64::from(output_scale),
            rule: "TFLite requires 2^-15 for an int16 logistic",
        });
    }
    if near_power_of_two(input_scale, -12) {
        return Ok(LogisticInt16Params {
            input_multiplier: 3,
            input_left_shift: 0,
        });
    }
    let (input_multiplier, input_left_shift) =
        lut_input_multiplier("LOGISTIC's int16 input scale", input_scale)?;
    Ok(LogisticInt16Params {
        input_multiplier,
        input_left_shift,
    })
}

/// The input multiplier of TFLite's int16 `LOGISTIC` and `TANH` for an
/// input scale that is not their power of two (TFLite Micro's
/// `CalculateArithmeticOpDataLogistic` and `tanh.cc`'s
/// `CalculateArithmeticOpData`): `m = input_scale · 3 · 4096` in `f64`,
/// doubled (the shift counting) while `m ≤ 32767 / 2` and the shift is at
/// most 30, then truncated: the input times `m / 2^shift` is in steps of
/// 1/(3 · 4096), as the sigmoid table is indexed. Fails with
/// [`TfliteError::KernelScale`] (naming `what`) for a scale that is not a
/// finite number above 0, one above 8/3, where the multiplier passes
/// 32767, or one so small (below 2^−44.6) that it truncates to 0, which
/// TFLite's kernels would read as their power-of-two case.
pub(crate) fn lut_input_multiplier(
    what: &'static str,
    input_scale: f32,
) -> Result<(i32, u32), TfliteError> {
    if !input_scale.is_finite() || input_scale <= 0.0 {
        return Err(TfliteError::KernelScale {
            what,
            value: f64::from(input_scale),
            rule: "a scale must be a finite number above 0",
        });
    }
    let mut multiplier = f64::from(input_scale) * 4096.0 * 3.0;
    let mut input_left_shift = 0u32;
    while multiplier <= 32767.0 / 2.0 && input_left_shift <= 30 {
        input_left_shift += 1;
        multiplier *= 2.0;
    }
    if multiplier > 32767.0 {
        return Err(TfliteError::KernelScale {
            what,
            value: f64::from(input_scale),
            rule: "TFLite needs input scale · 3 · 4096 at most 32767",
        });
    }
    if multiplier < 1.0 {
        // truncated to 0, TFLite's kernels would take it for their
        // power-of-two case and scale the input by 3 · 2^31
        return Err(TfliteError::KernelScale {
            what,
            value: f64::from(input_scale),
            rule: "TFLite needs input scale · 3 · 4096 · 2^31 at least 1",
        });
    }
    // in [1, 32767]: truncated as TFLite's cast
    Ok((multiplier as i32, input_left_shift))
}

/// Whether `x`'s log2 is within 10^−3 of `exponent` (TFLite's
/// `CheckedLog2` giving `exponent`): `x / 2^exponent` within
/// `(2^−0.001, 2^0.001)`.
pub(crate) fn near_power_of_two(x: f32, exponent: i32) -> bool {
    /// 2^0.001
    const TOLERANCE: f64 = 1.000_693_387_462_580_7;
    let ratio = f64::from(x) / pow2(exponent);
    ratio > 1.0 / TOLERANCE && ratio < TOLERANCE
}

/// 2^e in `f64` (exact for |e| < 1000).
fn pow2(e: i32) -> f64 {
    let mut p = 1.0f64;
    for _ in 0..e.unsigned_abs() {
        p *= 2.0;
    }
    if e < 0 {
        1.0 / p
    } else {
        p
    }
}

/// TFLite's int16 `LOGISTIC` (TFLite Micro's
/// `reference_integer_ops::Logistic` for int16, TFLite's 16x8 mode): each
/// input rescaled by [`LogisticInt16Params`] to `v` (in 1/(3 · 4096)
/// steps), `|v|` split into a table index `|v| >> 9` and a 9-bit fraction
/// interpolating between TFLite's 256-entry sigmoid table (σ in 2^−16
/// steps at 1/24 apart; from index 255 on, σ is 1), then
/// `(r + 2^9) >> 10` for `v ≥ 0` and `(2^25 − r + 2^9 − 1) >> 10` (σ(−v)
/// = 1 − σ(v)) for `v < 0`: the output in 2^−15 steps, zero point 0.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`, or the parameters are outside [`logistic_params_int16`]'s
/// (a multiplier outside [0, 32767], a shift above 31).
///
/// ```
/// use shapecheck_tflite::{logistic_int16, logistic_params_int16};
///
/// let p = logistic_params_int16(1.0 / 4096.0, 1.0 / 32768.0)?; // inputs in 2^-12 steps
/// let mut out = [0i16; 4];
/// logistic_int16(&[0, 4096, -4096, 32767], &p, &mut out)?;
/// // σ(0) = 0.5, σ(1) = 0.731, σ(−1) = 0.269, σ(8) = 0.9997, in 2^-15 steps
/// assert_eq!(out, [16384, 23956, 8812, 32757]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn logistic_int16(
    input: &[i16],
    params: &LogisticInt16Params,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    let rescale = LutInput::new(
        "LOGISTIC's int16 input multiplier",
        params.input_multiplier,
        params.input_left_shift,
    )?;
    for (y, &x) in output.iter_mut().zip(input) {
        let v = rescale.apply(x);
        // 9 fraction bits; σ saturates to 1 past the table
        let r = sigmoid_table_lookup(v.unsigned_abs(), 9).unwrap_or(0x7fff << 10);
        let r = if v >= 0 {
            r + (1 << 9)
        } else {
            (1 << 25) - r + (1 << 9) - 1
        };
        // at most 2^25 + 2^9: the shifted value is in [0, 32767]
        *y = i16::try_from(r >> 10).unwrap_or(i16::MAX);
    }
    Ok(())
}

/// The input rescaling of TFLite's int16 `LOGISTIC` and `TANH` (its
/// `reference_integer_ops` kernels): `(x · multiplier + round) >> shift`,
/// `round` half of the shift's unit; TFLite's power-of-two case, a
/// multiplier of 0, is the multiplier `3 · 2^shift` and no shift.
pub(crate) struct LutInput {
    multiplier: i64,
    shift: u32,
    round: i64,
}

impl LutInput {
    /// The rescaling by `input_multiplier` and `input_left_shift`. Fails
    /// with [`TfliteError::KernelParam`] (naming `what`) for a multiplier
    /// outside [0, 32767] or a shift above 31.
    pub(crate) fn new(
        what: &'static str,
        input_multiplier: i32,
        input_left_shift: u32,
    ) -> Result<Self, TfliteError> {
        if !(0..=32767).contains(&input_multiplier) || input_left_shift > 31 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(input_multiplier),
                rule: "it is in [0, 32767], its left shift at most 31",
            });
        }
        let (multiplier, shift) = if input_multiplier == 0 {
            (3i64 << input_left_shift, 0)
        } else {
            (i64::from(input_multiplier), input_left_shift)
        };
        Ok(LutInput {
            multiplier,
            shift,
            round: if shift > 0 { 1i64 << (shift - 1) } else { 0 },
        })
    }

    /// `x` rescaled. |x · multiplier| < 2^15 · 2^33: no overflow in `i64`
    /// (TFLite computes in `int32`, which holds every product of the
    /// multipliers its prepare derives).
    pub(crate) fn apply(&self, x: i16) -> i64 {
        (i64::from(x) * self.multiplier + self.round) >> self.shift
    }
}

/// TFLite's interpolation in [`SIGMOID_TABLE`] of its int16 `LOGISTIC` and
/// `TANH`: `magnitude`'s bits above `fraction_bits` index the table
/// (entries `a` and `b` beside it), the bits below interpolate:
/// `(a << fraction_bits) + fraction · (b − a)`. `None` from index 255 on,
/// past the table, where each op saturates its own way.
pub(crate) fn sigmoid_table_lookup(magnitude: u64, fraction_bits: u32) -> Option<u64> {
    let index = magnitude >> fraction_bits;
    if index >= 255 {
        return None;
    }
    let fraction = magnitude & ((1 << fraction_bits) - 1);
    let index = usize::try_from(index).ok()?;
    let a = u64::from(*SIGMOID_TABLE.get(index)?);
    let b = u64::from(*SIGMOID_TABLE.get(index + 1)?);
    // the table rises: b ≥ a
    Some((a << fraction_bits) + fraction * (b - a))
}

/// TFLite's `sigmoid_table_uint16` (tensorflow/lite/kernels/internal/common.h):
/// entry `i` is σ(i/24) in 2^−16 steps, as TFLite rounds it (within 2 of
/// `65536 · σ(i/24)`; the last entry is 65535). It is TFLite's data, which
/// its int16 `LOGISTIC` and `TANH` interpolate, so it is written out here
/// as TFLite has it.
const SIGMOID_TABLE: [u16; 256] = [
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
];

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `LOGISTIC`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<LogisticStep> + From<MapF32Step<LogisticF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, LogisticF32).map(S::from);
    }
    check_logistic(c).map(S::from)
}

/// `logistic`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub enum LogisticStep {
    Int8 {
        input: Range<usize>,
        output: Range<usize>,
        params: LogisticParams,
    },
    /// int16 in and out (16x8)
    Int16 {
        input: Range<usize>,
        output: Range<usize>,
        params: LogisticInt16Params,
    },
}

impl crate::base::write_rust::WriteRust for LogisticStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            LogisticStep::Int8 {
                input,
                output,
                params,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "LogisticStep::Int8",
                &[("input", input), ("output", output), ("params", params)],
            ),
            LogisticStep::Int16 {
                input,
                output,
                params,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "LogisticStep::Int16",
                &[("input", input), ("output", output), ("params", params)],
            ),
        }
    }
}

impl LogisticStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        match self {
            LogisticStep::Int8 {
                input,
                output,
                params,
            } => {
                let (x, y) = split(b.int8, input, output).ok_or(overlap)?;
                logistic_int8(x, params, y)
            }
            LogisticStep::Int16 {
                input,
                output,
                params,
            } => {
                let (x, y) = split(b.int16, input, output).ok_or(overlap)?;
                logistic_int16(x, params, y)
            }
        }
    }
}

/// `LOGISTIC`, int8 (the output at scale 1/256 and zero point −128) or
/// int16 (16x8: the output at scale 2^−15, zero points 0).
fn check_logistic<'m>(c: &Checker<'m>) -> Result<LogisticStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Int16 {
        c.dtype("output", output, TensorType::Int16)?;
        let (input_scale, _) = c.per_tensor("input", &input)?;
        let (output_scale, _) = c.per_tensor("output", output)?;
        let params = logistic_params_int16(input_scale, output_scale).map_err(|_| {
            c.fail(
                "output",
                output,
                OperandProblem::Quantization(
                    "is not scale 2^-15 (TFLite's int16 logistic), or the input's scale is above 8/3",
                ),
            )
        })?;
        return Ok(LogisticStep::Int16 {
            input: c.activation("input", &input)?.range,
            output: c.activation("output", output)?.range,
            params,
        });
    }
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
    Ok(LogisticStep::Int8 {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        params,
    })
}

// tanh is of logistic's family
pub(crate) mod tanh;

/// Above this, TFLite's f32 logistic is 1 (its `cutoff_upper`).
const LOGISTIC_CUTOFF_UPPER: f32 = 16.619_047;
/// Below this, TFLite's f32 logistic is `e^x` (its `cutoff_lower`).
const LOGISTIC_CUTOFF_LOWER: f32 = -9.0;

/// One value of TFLite's f32 `LOGISTIC`, as TFLite's
/// `reference_ops::Logistic` computes it: 1 above 16.619047, `expf(x)`
/// below −9, else `1 / (1 + expf(−x))`, in f32. `expf` is glibc's
/// ([`exp_value`](crate::exp_value)): TFLite Micro's values to the bit. A
/// NaN stays NaN.
///
/// ```
/// use shapecheck_tflite::logistic_value;
///
/// assert_eq!(logistic_value(0.0), 0.5);
/// assert_eq!(logistic_value(17.0), 1.0);
/// assert_eq!(logistic_value(-10.0), 4.539993e-5); // e^−10
/// assert_eq!(logistic_value(2.0), 0.880797); // 1 / (1 + e^−2)
/// ```
pub fn logistic_value(x: f32) -> f32 {
    if x > LOGISTIC_CUTOFF_UPPER {
        1.0
    } else if x < LOGISTIC_CUTOFF_LOWER {
        crate::arith::float_math::exp(x)
    } else {
        1.0 / (1.0 + crate::arith::float_math::exp(-x))
    }
}

/// TFLite's f32 `LOGISTIC`, element by element ([`logistic_value`]).
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`.
///
/// ```
/// use shapecheck_tflite::logistic_f32;
///
/// let mut out = [0f32; 2];
/// logistic_f32(&[0.0, 20.0], &mut out)?;
/// assert_eq!(out, [0.5, 1.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn logistic_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, logistic_value)
}

/// `LOGISTIC`'s f32 function: [`logistic_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct LogisticF32;

impl crate::shared::float_ops::MapF32Apply for LogisticF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        logistic_value(x)
    }
}

impl crate::base::write_rust::WriteRust for LogisticF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "LogisticF32")
    }
}
