//! TFLite's int8 and int16 `TANH` on slices: TFLite Micro's
//! `reference_integer_ops::Tanh`. For int8, gemmlowp's fixed-point tanh of
//! the input rescaled to Q4.27, written to an output of scale 1/128 and
//! zero point 0; for int16 (TFLite's 16x8 mode), `LOGISTIC`'s sigmoid
//! table (`tanh(x) = 2σ(2x) − 1`), written to an output of scale 2^−15.
//! And its f32 kernel ([`tanh_f32`]): `std::tanh`, glibc's `tanhf`.

use crate::arith::quant::{
    check_int8, q4_input_multiplier, rounding_divide_by_pot, tanh_q4, QuantizedMultiplier,
    Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::ops::logistic::{
    lut_input_multiplier, near_power_of_two, sigmoid_table_lookup, LutInput,
};
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, check_unary_int16, UnaryStep};
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

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

impl crate::base::write_rust::WriteRust for TanhParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
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

/// An int16 `TANH`'s parameters (TFLite's 16x8 mode), as TFLite Micro's
/// `tanh.cc` derives them from the input's scale ([`tanh_params_int16`]):
/// each input `q` becomes `(q · input_multiplier + round) >>
/// input_left_shift`, the input in steps of 1/(3 · 4096) (so ±2^17 is
/// ±10.7), which indexes `LOGISTIC`'s sigmoid table. A multiplier of 0 is
/// TFLite's power-of-two case: the multiplier `3 · 2^input_left_shift`,
/// no shift.
///
/// ```
/// use shapecheck_tflite::tanh_params_int16;
///
/// // a power-of-two input scale 2^-11: the multiplier 3 · 2, no shift
/// let p = tanh_params_int16(1.0 / 2048.0, 0, 1.0 / 32768.0, 0)?;
/// assert_eq!((p.input_multiplier, p.input_left_shift), (6, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TanhInt16Params {
    /// `input_scale · 3 · 4096 · 2^input_left_shift`, truncated, in
    /// [0, 32767]
    pub input_multiplier: i32,
    /// in [0, 31]
    pub input_left_shift: u32,
}

impl crate::base::write_rust::WriteRust for TanhInt16Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "TanhInt16Params",
            &[
                ("input_multiplier", &self.input_multiplier),
                ("input_left_shift", &self.input_left_shift),
            ],
        )
    }
}

/// TFLite Micro's `tanh.cc` prepare for int16: for an input scale of
/// 2^−12 or 2^−11 (TFLite's `CheckedLog2`: its log2 within 10^−3 of the
/// power) the multiplier 3 or 6 and no shift; otherwise `LOGISTIC`'s:
/// `m = input_scale · 3 · 4096` in `f64`, doubled (the shift counting)
/// while `m ≤ 32767 / 2` and the shift is at most 30, then truncated.
///
/// Fails with [`TfliteError::KernelParam`] for a zero point other than 0
/// (TFLite Micro's check), and with [`TfliteError::KernelScale`] for an
/// output scale other than 2^−15 (its log2 within 10^−3 of −15), or an
/// input scale that is not a finite number above 0, is above 8/3 (the
/// multiplier passes 32767) or below 2^−44.6 (the multiplier truncates to
/// 0, which TFLite would read as its power-of-two case).
///
/// ```
/// use shapecheck_tflite::{tanh_params_int16, TfliteError};
///
/// // int16_tanh.tflite's input scale: 0.000259 · 12288 = 3.18, doubled 13 times
/// let p = tanh_params_int16(0.0002588343, 0, 1.0 / 32768.0, 0)?;
/// assert_eq!((p.input_multiplier, p.input_left_shift), (26055, 13));
/// assert!(matches!(tanh_params_int16(0.001, 0, 1.0 / 256.0, 0), Err(TfliteError::KernelScale { .. })));
/// assert!(matches!(tanh_params_int16(0.001, 3, 1.0 / 32768.0, 0), Err(TfliteError::KernelParam { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn tanh_params_int16(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<TanhInt16Params, TfliteError> {
    for (what, zero_point) in [
        ("TANH's int16 input zero point", input_zero_point),
        ("TANH's int16 output zero point", output_zero_point),
    ] {
        if zero_point != 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(zero_point),
                rule: "TFLite requires 0 for an int16 tanh",
            });
        }
    }
    if !near_power_of_two(output_scale, -15) {
        return Err(TfliteError::KernelScale {
            what: "TANH's int16 output scale",
            value: f64::from(output_scale),
            rule: "TFLite requires 2^-15 for an int16 tanh",
        });
    }
    // TFLite's power-of-two case: its left shift 12 + log2(scale), 0 or 1
    for (exponent, input_multiplier) in [(-12, 3), (-11, 6)] {
        if near_power_of_two(input_scale, exponent) {
            return Ok(TanhInt16Params {
                input_multiplier,
                input_left_shift: 0,
            });
        }
    }
    let (input_multiplier, input_left_shift) =
        lut_input_multiplier("TANH's int16 input scale", input_scale)?;
    Ok(TanhInt16Params {
        input_multiplier,
        input_left_shift,
    })
}

/// TFLite's int16 `TANH` (TFLite Micro's `reference_integer_ops::Tanh`
/// for int16, TFLite's 16x8 mode), by `tanh(x) = 2σ(2x) − 1`: each input
/// rescaled by [`TanhInt16Params`] to `v` (in 1/(3 · 4096) steps), `|v|`
/// split into a table index `|v| >> 8` and an 8-bit fraction (the index
/// counting steps of 2x) interpolating between `LOGISTIC`'s 256-entry
/// sigmoid table (from index 255 on, σ is `0xffff`), giving `r`; then
/// `(r − 2^23 + 2^7) >> 8` for `v ≥ 0` and `(2^23 − r + 2^7 − 1) >> 8`
/// (tanh is odd) for `v < 0`: the output in 2^−15 steps, zero point 0.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`, or the parameters are outside [`tanh_params_int16`]'s (a
/// multiplier outside [0, 32767], a shift above 31).
///
/// ```
/// use shapecheck_tflite::{tanh_int16, tanh_params_int16};
///
/// let p = tanh_params_int16(1.0 / 4096.0, 0, 1.0 / 32768.0, 0)?; // inputs in 2^-12 steps
/// let mut out = [0i16; 5];
/// tanh_int16(&[0, 2048, -2048, 4096, 32767], &p, &mut out)?;
/// // tanh(0) = 0, tanh(±0.5) = ±0.462, tanh(1) = 0.762, tanh(8) ≈ 1, in 2^-15 steps
/// assert_eq!(out, [0, 15143, -15143, 24956, 32767]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn tanh_int16(
    input: &[i16],
    params: &TanhInt16Params,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    let rescale = LutInput::new(
        "TANH's int16 input multiplier",
        params.input_multiplier,
        params.input_left_shift,
    )?;
    for (y, &x) in output.iter_mut().zip(input) {
        let v = rescale.apply(x);
        // 8 fraction bits (2x); σ saturates past the table
        let r = sigmoid_table_lookup(v.unsigned_abs(), 8).unwrap_or(0xffff << 8);
        // r < 2^24: no overflow in i64
        let r = r as i64;
        let r = if v >= 0 {
            r - (1 << 23) + (1 << 7)
        } else {
            (1 << 23) - r + (1 << 7) - 1
        };
        // r in [−2^23 + 2^7 − 2^8 + 1, 2^23 − 2^7]: the shifted value is
        // in [−32768, 32767]
        *y = i16::try_from(r >> 8).unwrap_or(if r < 0 { i16::MIN } else { i16::MAX });
    }
    Ok(())
}

/// `TANH`'s row in `OPS`: checks the operator (an int8 or an int16
/// activation in and out) and prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<UnaryStep<i8, TanhParams>>
        + From<UnaryStep<i16, TanhInt16Params>>
        + From<MapF32Step<TanhF32>>,
>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, TanhF32).map(S::from);
    }
    if c.input(0, "input")?.dtype() == TensorType::Int16 {
        let operands = check_unary_int16(c)?;
        let [(si, zi), (so, zo)] = operands.quant;
        return Ok(S::from(operands.step(tanh_params_int16(si, zi, so, zo)?)));
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(tanh_params(si, zi, so, zo)?)))
}

impl crate::shared::elementwise::UnaryApply<i8> for TanhParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        tanh_int8(x, self, y)
    }
}

impl crate::shared::elementwise::UnaryApply<i16> for TanhInt16Params {
    fn apply(&self, x: &[i16], y: &mut [i16]) -> Result<(), TfliteError> {
        tanh_int16(x, self, y)
    }
}

/// One value of TFLite's f32 `TANH` (`reference_ops::Tanh`: `std::tanh`,
/// the C library's `tanhf`), computed as glibc's `tanhf` computes it
/// (fdlibm's algorithm over `expm1f`): TFLite Micro's values to the bit.
/// `±0` stays itself, ±1 from |x| = 22 on, NaN for NaN.
///
/// ```
/// use shapecheck_tflite::tanh_value;
///
/// assert_eq!(tanh_value(0.5), 0.46211717);
/// assert_eq!(tanh_value(-1.0), -0.7615942);
/// assert_eq!(tanh_value(30.0), 1.0);
/// ```
pub fn tanh_value(x: f32) -> f32 {
    crate::arith::float_math::tanhf(x)
}

/// TFLite's f32 `TANH`, element by element ([`tanh_value`]). Fails, with
/// `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::tanh_f32;
///
/// let mut out = [0f32; 2];
/// tanh_f32(&[0.0, 2.0], &mut out)?;
/// assert_eq!(out, [0.0, 0.9640276]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn tanh_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, tanh_value)
}

/// `TANH`'s f32 function: [`tanh_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct TanhF32;

impl crate::shared::float_ops::MapF32Apply for TanhF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        tanh_value(x)
    }
}

impl crate::base::write_rust::WriteRust for TanhF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "TanhF32")
    }
}
