//! TFLite's int8 requantization: a real multiplier as a 32-bit fixed-point
//! multiplier and a power-of-two shift ([`quantize_multiplier`]), and the
//! product of an `i32` accumulator with it
//! ([`multiply_by_quantized_multiplier`]) in both roundings TFLite uses.
//!
//! Written once, here, for every kernel and for the build-time model reader
//! alike: the reader computes `(multiplier, shift)` from a file's scales, and
//! the kernels apply them; neither needs `std`.

use crate::format::error::TfliteError;

/// A real multiplier `M` as TFLite stores it: `M ≈ multiplier · 2^(shift − 31)`,
/// with `multiplier` in `[2^30, 2^31)` (or 0 for `M = 0`) and `shift` in
/// `[−31, 30]`.
///
/// ```
/// use shapecheck_tflite::quantize_multiplier;
///
/// let m = quantize_multiplier(0.5)?;
/// assert_eq!((m.multiplier(), m.shift()), (1 << 30, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QuantizedMultiplier {
    multiplier: i32,
    shift: i32,
}

impl QuantizedMultiplier {
    /// The multiplier 0 (`(0, 0)`), for instance to fill a buffer of them.
    ///
    /// ```
    /// use shapecheck_tflite::QuantizedMultiplier;
    ///
    /// assert_eq!(QuantizedMultiplier::ZERO.multiplier(), 0);
    /// ```
    pub const ZERO: QuantizedMultiplier = QuantizedMultiplier {
        multiplier: 0,
        shift: 0,
    };

    /// A multiplier and shift as TFLite stores them (for instance from a
    /// kernel's precomputed parameters), or `None` if `multiplier` is
    /// negative or `shift` is outside `[−31, 30]` (the range
    /// [`multiply_by_quantized_multiplier`] is defined on).
    ///
    /// ```
    /// use shapecheck_tflite::QuantizedMultiplier;
    ///
    /// assert!(QuantizedMultiplier::new(1 << 30, -3).is_some());
    /// assert!(QuantizedMultiplier::new(-1, 0).is_none());
    /// assert!(QuantizedMultiplier::new(1 << 30, 31).is_none());
    /// ```
    pub fn new(multiplier: i32, shift: i32) -> Option<Self> {
        (multiplier >= 0 && (-31..=30).contains(&shift))
            .then_some(QuantizedMultiplier { multiplier, shift })
    }

    /// A multiplier and shift as TFLite stores them, in a constant: `new`'s
    /// check as a clamp (a negative `multiplier` becomes 0, `shift` is
    /// clamped to `[−31, 30]`), so that generated code (shapecheck's
    /// `model!`) can write a model's multipliers as `static` data. Values
    /// from [`quantize_multiplier`] are in range and kept as they are.
    ///
    /// ```
    /// use shapecheck_tflite::{quantize_multiplier, QuantizedMultiplier};
    ///
    /// const HALF: QuantizedMultiplier = QuantizedMultiplier::from_parts(1 << 30, 0);
    /// assert_eq!(HALF, quantize_multiplier(0.5)?);
    /// assert_eq!(QuantizedMultiplier::from_parts(-1, 40).shift(), 30);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn from_parts(multiplier: i32, shift: i32) -> Self {
        let multiplier = if multiplier < 0 { 0 } else { multiplier };
        let shift = if shift < -31 {
            -31
        } else if shift > 30 {
            30
        } else {
            shift
        };
        QuantizedMultiplier { multiplier, shift }
    }

    /// The fixed-point multiplier, with 31 fractional bits.
    ///
    /// ```
    /// use shapecheck_tflite::quantize_multiplier;
    ///
    /// assert_eq!(quantize_multiplier(0.75)?.multiplier(), 1_610_612_736); // 0.75 · 2^31
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn multiplier(&self) -> i32 {
        self.multiplier
    }

    /// The power-of-two exponent (positive: a left shift).
    ///
    /// ```
    /// use shapecheck_tflite::quantize_multiplier;
    ///
    /// assert_eq!(quantize_multiplier(0.1)?.shift(), -3); // 0.1 = 0.8 · 2^-3
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn shift(&self) -> i32 {
        self.shift
    }
}

/// TFLite's `QuantizeMultiplier`: `real = q · 2^(shift − 31)` where `q` is
/// the mantissa of `frexp(real)` (in `[0.5, 1)`) times 2^31 rounded half
/// away from zero. A mantissa that rounds up to 2^31 becomes 2^30 with the
/// shift one higher; a shift below −31 (`real` < about 2^-32) gives
/// `(0, 0)`; a shift above 30 saturates to `(2^31 − 1, 30)`, as TFLite
/// does; `real = 0` gives `(0, 0)`.
///
/// Fails with [`TfliteError::BadMultiplier`] for a negative, NaN or
/// infinite `real` (TFLite asserts on those).
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, TfliteError};
///
/// // sine.tflite's first layer: input scale · weight scale / output scale
/// let real = 0.0245739762_f32 as f64 * 0.00410788413_f32 as f64 / 0.0110060545_f32 as f64;
/// let m = quantize_multiplier(real)?;
/// assert_eq!(m.shift(), -6);
/// assert!(quantize_multiplier(f64::NAN).is_err());
/// assert_eq!(quantize_multiplier(0.0)?.multiplier(), 0);
/// # Ok::<(), TfliteError>(())
/// ```
pub fn quantize_multiplier(real: f64) -> Result<QuantizedMultiplier, TfliteError> {
    if !real.is_finite() || real < 0.0 {
        return Err(TfliteError::BadMultiplier { value: real });
    }
    if real == 0.0 {
        return Ok(QuantizedMultiplier {
            multiplier: 0,
            shift: 0,
        });
    }
    let (mantissa, mut shift) = frexp(real);
    // mantissa in [0.5, 1): the product is in [2^30, 2^31], exact in f64
    // up to its fraction, which round_half_away reads exactly
    let mut q = round_half_away(mantissa * TWO_POW_31);
    if q == 1 << 31 {
        q /= 2;
        shift += 1;
    }
    if shift < -31 {
        return Ok(QuantizedMultiplier {
            multiplier: 0,
            shift: 0,
        });
    }
    if shift > 30 {
        return Ok(QuantizedMultiplier {
            multiplier: i32::MAX,
            shift: 30,
        });
    }
    Ok(QuantizedMultiplier {
        // q in [2^30, 2^31): fits
        multiplier: i32::try_from(q).unwrap_or(i32::MAX),
        shift,
    })
}

const TWO_POW_31: f64 = 2_147_483_648.0;
const TWO_POW_54: f64 = 18_014_398_509_481_984.0;

/// `x = m · 2^e` with `m` in `[0.5, 1)`, for a finite positive `x` (C's
/// `frexp`), from the bits (`core` has no `frexp`).
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // subnormal: scale into the normal range first
        let (m, e) = frexp(x * TWO_POW_54);
        return (m, e - 54);
    }
    // the same mantissa bits with the exponent of [0.5, 1)
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, biased - 1022)
}

/// `v` rounded to the nearest integer, ties away from zero, for `v` in
/// `[0, 2^62)`.
fn round_half_away(v: f64) -> i64 {
    let whole = v as i64;
    let fraction = v - whole as f64;
    if fraction >= 0.5 {
        whole + 1
    } else {
        whole
    }
}

/// Which rounding [`multiply_by_quantized_multiplier`] applies: TFLite
/// builds differ, and not only by interpreter.
///
/// ```
/// use shapecheck_tflite::{multiply_by_quantized_multiplier, QuantizedMultiplier, Rounding};
///
/// // 0.25 is 2^30 · 2^(−1 − 31); 6 · 0.25 = 1.5 and −6 · 0.25 = −1.5 tie
/// let quarter = QuantizedMultiplier::new(1 << 30, -1).unwrap();
/// assert_eq!(multiply_by_quantized_multiplier(6, quarter, Rounding::Single), 2);
/// assert_eq!(multiply_by_quantized_multiplier(6, quarter, Rounding::Double), 2);
/// assert_eq!(multiply_by_quantized_multiplier(-6, quarter, Rounding::Single), -1);
/// assert_eq!(multiply_by_quantized_multiplier(-6, quarter, Rounding::Double), -2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// One rounding of the exact product, ties toward +∞:
    /// `(x · q + 2^(30 − shift)) >> (31 − shift)`. The TFLite interpreter's
    /// reference kernels (`TFLITE_SINGLE_ROUNDING`, as TensorFlow 2.21's
    /// `FULLY_CONNECTED` computes).
    Single,
    /// gemmlowp's two roundings: [`saturating_rounding_doubling_high_mul`]
    /// of `x · 2^max(shift, 0)` and `q`, then [`rounding_divide_by_pot`] by
    /// `max(−shift, 0)`. TFLite Micro for every op, and TensorFlow 2.21's
    /// `DEPTHWISE_CONV_2D`.
    Double,
}

/// TFLite's `MultiplyByQuantizedMultiplier`: `x · M` for the real
/// multiplier `M` that `m` stores, rounded to an integer as `rounding` says.
///
/// Where TFLite leaves a result undefined, this defines it: with
/// [`Rounding::Single`] a product beyond the `i32` range (possible only for
/// `shift > 0`) saturates; with [`Rounding::Double`] the left shift
/// `x · 2^shift` wraps, as TFLite Micro's C++ does on a Cortex-M.
///
/// ```
/// use shapecheck_tflite::{multiply_by_quantized_multiplier, quantize_multiplier, Rounding};
///
/// let m = quantize_multiplier(0.25)?;
/// assert_eq!(multiply_by_quantized_multiplier(100, m, Rounding::Single), 25);
/// assert_eq!(multiply_by_quantized_multiplier(-6, m, Rounding::Single), -1); // −1.5 → −1
/// assert_eq!(multiply_by_quantized_multiplier(-6, m, Rounding::Double), -2); // −1.5 → −2
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn multiply_by_quantized_multiplier(x: i32, m: QuantizedMultiplier, rounding: Rounding) -> i32 {
    Scale::new(m).apply(x, rounding)
}

/// TFLite's `MultiplyByQuantizedMultiplier` of an `i64` accumulator (the
/// 16x8 kernels': int16 activations, int8 weights, int64 bias): the
/// multiplier reduced to 16 bits, `r = (q + 2^15) >> 16` (`0x7FFF` for
/// `q ≥ 0x7FFF0000`), then one rounding,
/// `(x · r + 2^(14 − shift)) >> (15 − shift)`, ties toward +∞. The same in
/// TFLite Micro with or without `TFLITE_SINGLE_ROUNDING`.
///
/// TFLite assumes `|x| < 2^47` and a result in `i32`; beyond that the
/// product wraps and the result saturates to `i32`, where TFLite leaves
/// it undefined.
///
/// ```
/// use shapecheck_tflite::{multiply_by_quantized_multiplier_int64, quantize_multiplier};
///
/// let m = quantize_multiplier(0.25)?; // 2^30, shift −1: r = 2^14
/// assert_eq!(multiply_by_quantized_multiplier_int64(100, m), 25);
/// assert_eq!(multiply_by_quantized_multiplier_int64(-6, m), -1); // −1.5 → −1
/// // an accumulator past i32, as int64 ones are
/// let tiny = quantize_multiplier(1.0 / f64::from(1 << 20))?;
/// assert_eq!(multiply_by_quantized_multiplier_int64(1 << 40, tiny), 1 << 20);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn multiply_by_quantized_multiplier_int64(x: i64, m: QuantizedMultiplier) -> i32 {
    let q = m.multiplier;
    let reduced = if q < 0x7FFF_0000 {
        (q + (1 << 15)) >> 16
    } else {
        0x7FFF
    };
    // shift in [−31, 30]: total in [−15, 46]; TFLite's shift is at most 7
    let total = 15 - m.shift;
    let product = x.wrapping_mul(i64::from(reduced));
    let shifted = if total > 0 {
        product.wrapping_add(1i64 << (total - 1)) >> total
    } else {
        product.wrapping_shl(total.unsigned_abs())
    };
    saturate(shifted)
}

/// The output step of TFLite's 16x8 kernels (convolution, depthwise, fully
/// connected), from their `i64` accumulator (bias added): scaled by
/// [`multiply_by_quantized_multiplier_int64`], moved to the output's zero
/// point (0 in 16x8 models), clamped to the fused activation's range, whose
/// ends are clamped to int16 (so the result always is an int16).
#[derive(Clone, Copy)]
pub(crate) struct OutputStage16 {
    zero_point: i32,
    lo: i32,
    hi: i32,
}

impl OutputStage16 {
    /// The step for the clamp `[output_min, output_max]` (the kernels
    /// refuse an empty one before).
    pub(crate) fn new(zero_point: i32, output_min: i32, output_max: i32) -> Self {
        let hi = output_max.clamp(-32768, 32767);
        OutputStage16 {
            zero_point,
            lo: output_min.clamp(-32768, 32767).min(hi),
            hi,
        }
    }

    /// The output for accumulator `acc` and multiplier `m`.
    #[inline(always)]
    pub(crate) fn apply(&self, acc: i64, m: QuantizedMultiplier) -> i16 {
        let y = multiply_by_quantized_multiplier_int64(acc, m)
            .saturating_add(self.zero_point)
            .max(self.lo)
            .min(self.hi);
        // lo ≤ y ≤ hi, both in int16
        y as i16
    }
}

/// A [`QuantizedMultiplier`] with its shift split as the roundings use it,
/// for a kernel to split once per layer rather than once per output.
#[derive(Clone, Copy)]
pub(crate) struct Scale {
    multiplier: i32,
    /// [−31, 30]
    shift: i32,
    /// `max(shift, 0)`, in [0, 30]
    left: u32,
    /// `max(−shift, 0)`, in [0, 31]
    right: u32,
}

impl Scale {
    #[inline(always)]
    pub(crate) fn new(m: QuantizedMultiplier) -> Self {
        Scale {
            multiplier: m.multiplier,
            shift: m.shift,
            left: m.shift.max(0) as u32,
            right: (-m.shift).max(0) as u32,
        }
    }

    /// [`multiply_by_quantized_multiplier`] of `x`.
    #[inline(always)]
    pub(crate) fn apply(self, x: i32, rounding: Rounding) -> i32 {
        match rounding {
            Rounding::Single => {
                // shift in [−31, 30]: total in [1, 62]
                let total = (31 - self.shift) as u32;
                let round = 1i64 << (total - 1);
                let product = i64::from(x) * i64::from(self.multiplier) + round;
                saturate(product >> total)
            }
            Rounding::Double => {
                // x · 2^left, wrapping
                let shifted = x.wrapping_shl(self.left);
                // the multiplier is never negative: no i32::MIN · i32::MIN
                divide_by_pot_up_to_31(high_mul(shifted, self.multiplier), self.right)
            }
        }
    }

    /// [`Scale::apply`] with [`Rounding::Double`] for a multiplier below
    /// 1 (its shift at most 0, so there is no left shift: ADD's, whose
    /// parameters are checked so): one shift fewer per value in ADD's
    /// inner loop. For a multiplier of shift above 0 it is not the product.
    #[inline(always)]
    pub(crate) fn apply_below_one(self, x: i32) -> i32 {
        divide_by_pot_up_to_31(high_mul(x, self.multiplier), self.right)
    }
}

fn saturate(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

/// An int8 kernel's output step, from its int32 accumulator (bias added):
/// the accumulator scaled by a multiplier, moved to the output's zero point
/// and clamped to the fused activation's range and to int8. Written once
/// for the fully connected and depthwise kernels, as TFLite's reference
/// kernels share it.
#[derive(Clone, Copy)]
pub(crate) struct OutputStage {
    rounding: Rounding,
    zero_point: i32,
    lo: i32,
    hi: i32,
}

impl OutputStage {
    /// The step for the clamp `[output_min, output_max]`. TFLite clamps
    /// max-then-min and then to int8: for a range that is not empty both
    /// clamps are one, to the range's ends each clamped to int8 (a range
    /// past int8 ends at the nearer int8 end, as both clamps do); for an
    /// empty one (`output_min > output_max`) every output is `output_max`
    /// clamped to int8.
    pub(crate) fn new(
        rounding: Rounding,
        zero_point: i32,
        output_min: i32,
        output_max: i32,
    ) -> Self {
        let hi = output_max.clamp(-128, 127);
        OutputStage {
            rounding,
            zero_point,
            lo: if output_min <= output_max {
                output_min.clamp(-128, 127)
            } else {
                hi
            },
            hi,
        }
    }

    /// `(zero point, lo, hi)` where the rounding is [`Rounding::Double`]
    /// and the zero point an int8: what the DSP extension's output stage
    /// (src/dsp.rs) takes.
    #[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
    pub(crate) fn double_int8(&self) -> Option<(i32, i32, i32)> {
        (self.rounding == Rounding::Double && (-128..=127).contains(&self.zero_point)).then_some((
            self.zero_point,
            self.lo,
            self.hi,
        ))
    }

    /// The output for accumulator `acc` and multiplier `m`.
    #[inline(always)]
    pub(crate) fn apply(&self, acc: i32, m: Scale) -> i8 {
        let y = m
            .apply(acc, self.rounding)
            .saturating_add(self.zero_point)
            .max(self.lo)
            .min(self.hi);
        // in range: lo and hi are
        y as i8
    }
}

/// gemmlowp's `SaturatingRoundingDoublingHighMul`: the high 32 bits of
/// `2 · a · b`, that is `a · b / 2^31` rounded to nearest with ties toward
/// +∞, and `i32::MAX` for the one product that overflows
/// (`i32::MIN · i32::MIN`).
///
/// ```
/// use shapecheck_tflite::saturating_rounding_doubling_high_mul;
///
/// assert_eq!(saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
/// assert_eq!(saturating_rounding_doubling_high_mul(3, 1 << 30), 2); // 1.5 → 2
/// assert_eq!(saturating_rounding_doubling_high_mul(-3, 1 << 30), -1); // −1.5 → −1
/// assert_eq!(saturating_rounding_doubling_high_mul(i32::MIN, i32::MIN), i32::MAX);
/// ```
pub fn saturating_rounding_doubling_high_mul(a: i32, b: i32) -> i32 {
    if a == i32::MIN && b == i32::MIN {
        return i32::MAX;
    }
    high_mul(a, b)
}

/// [`saturating_rounding_doubling_high_mul`] for any `a` and `b` but the
/// pair `(i32::MIN, i32::MIN)`, without its test: `(a · b + 2^30) >> 31`.
///
/// gemmlowp adds 2^30 to the product, or `1 − 2^30` below zero, and divides
/// by 2^31 truncating toward zero. Below zero the sum `s = ab + 1 − 2^30` is
/// negative, and truncating it is `floor((s + 2^31 − 1) / 2^31)`, that is
/// `floor((ab + 2^30) / 2^31)`: the same floor as above zero, one shift.
/// Every other pair's quotient is within the `i32` range.
#[inline(always)]
fn high_mul(a: i32, b: i32) -> i32 {
    let ab = i64::from(a) * i64::from(b);
    ((ab + (1 << 30)) >> 31) as i32
}

/// [`rounding_divide_by_pot`] for an exponent of at most 31, in `i32`, as
/// gemmlowp writes it: the quotient rounded down, plus one where the
/// remainder is above half (at least half below zero).
#[inline(always)]
fn divide_by_pot_up_to_31(x: i32, exponent: u32) -> i32 {
    // exponent 31: the mask 2^31 − 1; 0: no mask, no rounding
    let mask = (1u32 << (exponent & 31)).wrapping_sub(1) as i32;
    let remainder = x & mask;
    let threshold = (mask >> 1) + i32::from(x < 0);
    // at most (2^31 − 1) >> 1 plus one: no overflow
    (x >> (exponent & 31)) + i32::from(remainder > threshold)
}

/// gemmlowp's `RoundingDivideByPOT`: `x / 2^exponent` rounded to nearest,
/// ties away from zero. Defined for every exponent (gemmlowp's range is 0
/// to 31; above, the quotient rounds to 0).
///
/// ```
/// use shapecheck_tflite::rounding_divide_by_pot;
///
/// assert_eq!(rounding_divide_by_pot(5, 1), 3); // 2.5 → 3
/// assert_eq!(rounding_divide_by_pot(-5, 1), -3); // −2.5 → −3
/// assert_eq!(rounding_divide_by_pot(-5, 2), -1); // −1.25 → −1
/// assert_eq!(rounding_divide_by_pot(7, 0), 7);
/// ```
pub fn rounding_divide_by_pot(x: i32, exponent: u32) -> i32 {
    // in i64 so that 2^31 and its mask are representable; an i32 over
    // 2^62 rounds to 0 like any larger power
    let e = exponent.min(62);
    let x = i64::from(x);
    let mask = (1i64 << e) - 1;
    let remainder = x & mask;
    let threshold = (mask >> 1) + i64::from(x < 0);
    saturate((x >> e) + i64::from(remainder > threshold))
}

/// gemmlowp's `SaturatingRoundingMultiplyByPOT` for a positive exponent:
/// `x · 2^exponent`, saturating to the `i32` range (gemmlowp compares with
/// ±(2^(31 − exponent) − 1) first; the product itself, saturated, is the
/// same).
fn saturating_shift_left(x: i32, exponent: u32) -> i32 {
    // |x| · 2^32 still fits an i64; any larger power saturates all the same
    saturate(i64::from(x) << exponent.min(32))
}

/// gemmlowp's `RoundingHalfSum`: `(a + b) / 2` rounded to nearest, ties away
/// from zero.
fn rounding_half_sum(a: i32, b: i32) -> i32 {
    let sum = i64::from(a) + i64::from(b);
    let sign = if sum >= 0 { 1 } else { -1 };
    saturate((sum + sign) / 2)
}

/// A fixed-point number of gemmlowp (`FixedPoint<int32_t, I>`) is the raw
/// `i32` over 2^(31 − I); a product of two ([`saturating_rounding_doubling_high_mul`])
/// has the sum of their integer bits. `ONE_Q0` is the Q0.31 one (saturated).
const ONE_Q0: i32 = i32::MAX;

/// gemmlowp's `exp_on_interval_between_negative_one_quarter_and_0_excl`:
/// `exp(a)` for `a` in [−1/4, 0), both Q0.31, by the Taylor expansion of
/// degree 4 around −1/8.
fn exp_on_quarter_interval(a: i32) -> i32 {
    const EXP_MINUS_ONE_EIGHTH: i32 = 1_895_147_668; // exp(−1/8) in Q0.31
    const ONE_THIRD: i32 = 715_827_883; // 1/3 in Q0.31
    let mul = saturating_rounding_doubling_high_mul;
    let x = a.wrapping_add(1 << 28); // a + 1/8
    let x2 = mul(x, x);
    let x3 = mul(x2, x);
    let x4 = mul(x2, x2);
    let x4_over_4 = rounding_divide_by_pot(x4, 2);
    // x⁴/24 + x³/6 + x²/2
    let higher = rounding_divide_by_pot(
        mul(x4_over_4.wrapping_add(x3), ONE_THIRD).wrapping_add(x2),
        1,
    );
    EXP_MINUS_ONE_EIGHTH.wrapping_add(mul(EXP_MINUS_ONE_EIGHTH, x.wrapping_add(higher)))
}

/// gemmlowp's `exp_on_negative_values` for an input of 5 integer bits (the
/// Q5.26 TFLite's int8 softmax feeds it): `exp(a)` in Q0.31 for `a ≤ 0`.
pub(crate) fn exp_on_negative_values_q5(a: i32) -> i32 {
    exp_on_negative_values(a, 5)
}

/// gemmlowp's `exp_on_negative_values` for an input of `integer_bits`
/// integer bits (0 to 5: TFLite's int8 softmax feeds it Q5.26, its int8
/// logistic Q4.27): `exp(a)` in Q0.31 for `a ≤ 0`. The fraction of `a`
/// modulo 1/4 goes through the Taylor expansion; each bit of the rest
/// below 2^integer_bits (1/4, 1/2, 1, 2, 4, 8, 16) multiplies by its
/// constant `exp(−2^k)`; `exp(0)` is the saturated one. (gemmlowp clamps
/// inputs below −32 to 0 for more than 5 integer bits, which no caller
/// here has: `integer_bits` is taken as at most 5.)
pub(crate) fn exp_on_negative_values(a: i32, integer_bits: u32) -> i32 {
    // exp(−2^k) in Q0.31 for k = −2 ..= 4 (gemmlowp's barrel shifter)
    const EXP_OF_MINUS_POWERS: [(i32, i32); 7] = [
        (-2, 1_672_461_947),
        (-1, 1_302_514_674),
        (0, 790_015_084),
        (1, 290_630_308),
        (2, 39_332_535),
        (3, 720_401),
        (4, 242),
    ];
    let integer_bits = integer_bits.min(5);
    let fractional_bits = 31 - integer_bits;
    if a == 0 {
        return ONE_Q0;
    }
    let one_quarter: i32 = 1 << (fractional_bits - 2);
    let a_mod_quarter_minus_quarter = (a & (one_quarter - 1)).wrapping_sub(one_quarter);
    // Q(integer_bits) to Q0.31: integer_bits bits left
    let mut result = exp_on_quarter_interval(saturating_shift_left(
        a_mod_quarter_minus_quarter,
        integer_bits,
    ));
    let remainder = a_mod_quarter_minus_quarter.wrapping_sub(a);
    for (k, exp_of_minus_power) in EXP_OF_MINUS_POWERS {
        if k >= integer_bits as i32 {
            break;
        }
        let bit = 1i32 << (fractional_bits as i32 + k);
        if remainder & bit != 0 {
            result = saturating_rounding_doubling_high_mul(result, exp_of_minus_power);
        }
    }
    result
}

/// gemmlowp's `one_over_one_plus_x_for_x_in_0_1`: `1 / (1 + a)` for `a` in
/// [0, 1), both Q0.31, by three Newton–Raphson steps from 48/17 − 32/17 · d
/// on the half denominator `d = (1 + a) / 2` (in Q2.29).
pub(crate) fn one_over_one_plus_x(a: i32) -> i32 {
    // x / 2 (Q1.30, the same raw value) to Q0.31
    saturating_shift_left(two_over_one_plus_x(a), 1)
}

/// The Q2.29 value `x ≈ 1 / d = 2 / (1 + a)` that gemmlowp's
/// `one_over_one_plus_x_for_x_in_0_1` and
/// `one_minus_x_over_one_plus_x_for_x_in_0_1` share: three Newton–Raphson
/// steps from 48/17 − 32/17 · d on the half denominator
/// `d = (1 + a) / 2`, `a` in [0, 1) as Q0.31.
fn two_over_one_plus_x(a: i32) -> i32 {
    const FORTY_EIGHT_OVER_17: i32 = 1_515_870_810; // Q2.29
    const MINUS_32_OVER_17: i32 = -1_010_580_540; // Q2.29
    let mul = saturating_rounding_doubling_high_mul;
    let half_denominator = rounding_half_sum(a, ONE_Q0);
    let mut x = FORTY_EIGHT_OVER_17.wrapping_add(mul(half_denominator, MINUS_32_OVER_17));
    for _ in 0..3 {
        let half_denominator_times_x = mul(half_denominator, x);
        let one_minus = ONE_Q2.wrapping_sub(half_denominator_times_x);
        // a Q4.27 product back to Q2.29
        x = x.wrapping_add(saturating_shift_left(mul(x, one_minus), 2));
    }
    x
}

/// The Q2.29 one.
const ONE_Q2: i32 = 1 << 29;

/// gemmlowp's `one_minus_x_over_one_plus_x_for_x_in_0_1`:
/// `(1 − a) / (1 + a)` for `a` in [0, 1), both Q0.31: `2 / (1 + a) − 1`
/// in Q2.29, rescaled to Q0.31 (saturating).
pub(crate) fn one_minus_x_over_one_plus_x(a: i32) -> i32 {
    saturating_shift_left(two_over_one_plus_x(a).wrapping_sub(ONE_Q2), 2)
}

/// gemmlowp's `tanh` of a Q4.27 value, in Q0.31 (TFLite's int8 `TANH`):
/// 0 at 0; else, with `n = −|a|`, `t = (1 − e) / (1 + e)` for
/// `e = exp(2n)` (the raw `n` read with 5 integer bits is `2n`), and `t`
/// or `−t` by the sign of `a`.
pub(crate) fn tanh_q4(a: i32) -> i32 {
    if a == 0 {
        return 0;
    }
    let n = if a < 0 { a } else { a.wrapping_neg() };
    let t = one_minus_x_over_one_plus_x(exp_on_negative_values(n, 5));
    if a < 0 {
        t.wrapping_neg()
    } else {
        t
    }
}

/// TFLite's `GetReciprocal`: for a positive `x` with `integer_bits` integer
/// bits, `1 / x` as a Q0.31 number `r` and a count `n` of bits over one,
/// with `1/x = r · 2^−n`: `x` is shifted to [1, 2) and
/// [`one_over_one_plus_x`] takes its fraction.
pub(crate) fn reciprocal(x: i32, integer_bits: i32) -> (i32, i32) {
    let headroom_plus_one = (x as u32).leading_zeros();
    let bits_over_unit = integer_bits - headroom_plus_one as i32;
    let shifted_minus_one = (x as u32)
        .checked_shl(headroom_plus_one)
        .unwrap_or(0)
        .wrapping_sub(1 << 31) as i32;
    (one_over_one_plus_x(shifted_minus_one), bits_over_unit)
}

/// TFLite's `QuantizeMultiplierSmallerThanOneExp`: `real` in (0, 1), its
/// quantized shift at most 0; `what` names the multiplier in the error.
pub(crate) fn quantize_multiplier_smaller_than_one(
    what: &'static str,
    real: f64,
) -> Result<QuantizedMultiplier, TfliteError> {
    let err = TfliteError::KernelScale {
        what,
        value: real,
        rule: "TFLite needs it above 0 and below 1 (QuantizeMultiplierSmallerThanOneExp)",
    };
    if !(real > 0.0 && real < 1.0) {
        return Err(err);
    }
    let m = quantize_multiplier(real)?;
    if m.shift() > 0 {
        // a real just below 1 whose mantissa rounds up to 1
        return Err(err);
    }
    Ok(m)
}

/// Checks a tensor's scale `what`: a finite number above 0.
pub(crate) fn check_scale(what: &'static str, scale: f32) -> Result<(), TfliteError> {
    if scale.is_finite() && scale > 0.0 {
        Ok(())
    } else {
        Err(TfliteError::KernelScale {
            what,
            value: f64::from(scale),
            rule: "a scale must be a finite number above 0",
        })
    }
}

/// Checks an int8 zero point (or clamp end) `what`: in [−128, 127]. A
/// `const fn`, so that a layer's parameters built in a `const` are
/// checked when the program is built.
pub(crate) const fn check_int8(what: &'static str, value: i32) -> Result<(), TfliteError> {
    if value >= -128 && value <= 127 {
        Ok(())
    } else {
        Err(TfliteError::KernelParam {
            what,
            value: value as i64,
            rule: "an int8 zero point or clamp end is in [−128, 127]",
        })
    }
}

/// Checks an int16 zero point (or clamp end) `what`: in [−32768, 32767].
pub(crate) fn check_int16(what: &'static str, value: i32) -> Result<(), TfliteError> {
    if (-32768..=32767).contains(&value) {
        Ok(())
    } else {
        Err(TfliteError::KernelParam {
            what,
            value: i64::from(value),
            rule: "an int16 zero point or clamp end is in [−32768, 32767]",
        })
    }
}

/// Checks an int8 clamp `[min, max]` of the op `what` (its `output_min`
/// named in the error): both ends in [−128, 127], not empty.
pub(crate) const fn check_int8_clamp(
    what: &'static str,
    min: i32,
    max: i32,
) -> Result<(), TfliteError> {
    if let Err(e) = check_int8(what, min) {
        return Err(e);
    }
    if let Err(e) = check_int8(what, max) {
        return Err(e);
    }
    if min > max {
        return Err(TfliteError::KernelParam {
            what,
            value: min as i64,
            rule: "the clamp must not be empty: output_min ≤ output_max",
        });
    }
    Ok(())
}

/// The input multiplier and radius of TFLite's int8 `LOGISTIC` and `TANH`
/// (`CalculateArithmeticOpDataLogistic`, `tanh.cc`'s
/// `CalculateArithmeticOpData`): `input_scale · 2^27` (Q4.27) as the
/// mantissa of `frexp` times 2^31, rounded half away from zero, and its
/// exponent as a left shift; the radius `⌊15 · 2^27 / 2^shift⌋`
/// (`CalculateInputRadius` with 4 integer bits). Fails with
/// [`TfliteError::KernelScale`] (naming `what`) for an input scale that is
/// not a finite number in [2^−28, 8): below it the radius overflows an
/// `int32`, above it the shift passes 30.
pub(crate) fn q4_input_multiplier(
    what: &'static str,
    input_scale: f32,
) -> Result<(QuantizedMultiplier, i32), TfliteError> {
    const INPUT_INTEGER_BITS: u32 = 4;
    let real = f64::from(input_scale) * f64::from(1u32 << (31 - INPUT_INTEGER_BITS));
    // real in [0.5, 2^30): frexp's exponent is 0 to 30
    if !(0.5..f64::from(1u32 << 30)).contains(&real) {
        return Err(TfliteError::KernelScale {
            what,
            value: f64::from(input_scale),
            rule: "this kernel needs a finite scale in [2^-28, 8): TFLite Micro's input radius overflows below, its shift passes 30 above",
        });
    }
    // the f32 scale's mantissa times 2^31 is an integer: TFLite's rounding
    // of it and quantize_multiplier's agree, and never reach 2^31
    let multiplier = quantize_multiplier(real)?;
    let shift = multiplier.shift().clamp(0, 30) as u32;
    let radius = ((1i64 << INPUT_INTEGER_BITS) - 1) << (31 - INPUT_INTEGER_BITS) >> shift;
    Ok((multiplier, i32::try_from(radius).unwrap_or(i32::MAX)))
}

/// gemmlowp's `SaturatingRoundingDoublingHighMul` on `int16`:
/// `(a · b + 2^14) / 2^15` (`1 − 2^14` below zero), truncated toward zero;
/// `(−2^15)²` saturates to `i16::MAX`.
pub(crate) fn saturating_rounding_doubling_high_mul_i16(a: i16, b: i16) -> i16 {
    if a == i16::MIN && b == i16::MIN {
        return i16::MAX;
    }
    let ab = i32::from(a) * i32::from(b);
    let nudge = if ab >= 0 { 1 << 14 } else { 1 - (1 << 14) };
    // |ab| < 2^30: the quotient is within the i16 range
    ((ab + nudge) / (1 << 15)) as i16
}

/// TFLite's `DownScaleInt32ToInt16Multiplier`: a Q0.31 multiplier (at
/// least 0) as Q0.15, rounded half up; `i16::MAX` for one within 2^15 of
/// `i32::MAX`.
pub(crate) fn down_scale_to_i16_multiplier(multiplier: i32) -> i16 {
    const ROUNDING: i32 = 1 << 15;
    if multiplier >= i32::MAX - ROUNDING {
        return i16::MAX;
    }
    i16::try_from((multiplier.max(0) + ROUNDING) >> 16).unwrap_or(i16::MAX)
}

/// gemmlowp's `SaturatingSub` and `SaturatingAddNonGemmlowp` of two
/// raw values: `a + b`, saturated to the `i32` range.
fn saturating_add(a: i32, b: i32) -> i32 {
    saturate(i64::from(a) + i64::from(b))
}

/// TFLite's `log_x_for_x_greater_than_or_equal_to_1`: `ln(x)` of the
/// fixed-point `x ≥ 1` (raw `x`, `input_integer_bits` integer bits) with
/// `output_integer_bits` integer bits. `x = 2^e · z` with `z` in
/// [1/√2, √2) (both ways of counting `e`, the larger kept, as TFLite
/// does); then `ln x = e · ln 2 + ln z`, the second by TFLite's minimax
/// rational function of `z − 2^(−1/4)` (its constants in Q0.31), the
/// division by [`one_over_one_plus_x`]; the sum is kept with one more
/// integer bit than the output and rescaled.
pub(crate) fn log_x_for_x_at_least_1(
    x: i32,
    input_integer_bits: i32,
    output_integer_bits: u32,
) -> i32 {
    const LOG_2: i32 = 1_488_522_236; // ln 2
    const SQRT_SQRT_HALF: i32 = 1_805_811_301; // 2^(−1/4)
    const SQRT_HALF: i32 = 1_518_500_250; // 2^(−1/2)
    const ONE_QUARTER: i32 = 1 << 29;
    const ALPHA_N: i32 = 117_049_297; // 11/240 · 2^(1/4)
    const ALPHA_D: i32 = 127_690_142; // 1/20 · 2^(1/4)
    const ALPHA_I: i32 = 1_057_819_769; // 2 / 2^(1/4) − 2^(1/4)
    const ALPHA_F: i32 = 638_450_708; // 1/4 · 2^(1/4)
    let mul = saturating_rounding_doubling_high_mul;
    // the accumulator's integer bits, and the shift that takes a small
    // integer to it
    let accum_bits = output_integer_bits + 1;
    let to_accum = 31 - accum_bits;
    let shifted_quarter = rounding_divide_by_pot(ONE_QUARTER, accum_bits);
    // x read as Q0.31, normalized ourselves
    let z_a = x;
    let z_a_headroom_plus_1 = (z_a as u32).leading_zeros() as i32;
    let r_a_tmp = saturating_shift_left(z_a, (z_a_headroom_plus_1 - 1).max(0) as u32);
    let r_a = saturating_shift_left(mul(r_a_tmp, SQRT_HALF), 1);
    let z_a_pow_2_adj = saturating_add(
        saturating_shift_left(input_integer_bits - z_a_headroom_plus_1, to_accum),
        shifted_quarter,
    );
    // the same, x first multiplied by √½
    let z_b = mul(z_a, SQRT_HALF);
    let z_b_headroom = (z_b as u32).leading_zeros() as i32 - 1;
    let r_b = saturating_shift_left(z_a, z_b_headroom.max(0) as u32);
    let z_b_pow_2_adj = saturating_add(
        saturating_shift_left(input_integer_bits - z_b_headroom, to_accum),
        shifted_quarter.wrapping_neg(),
    );
    let r = r_a.min(r_b);
    let z_pow_2_adj = z_a_pow_2_adj.max(z_b_pow_2_adj);
    let p = rounding_half_sum(r, SQRT_SQRT_HALF);
    let q = r.wrapping_sub(SQRT_SQRT_HALF);
    let q = q.wrapping_add(q);
    let common_sq = mul(q, q);
    let num = mul(q, r).wrapping_add(mul(mul(q, common_sq), ALPHA_N));
    let denominator_minus_one = mul(
        p,
        ALPHA_I
            .wrapping_add(q)
            .wrapping_add(mul(ALPHA_D, common_sq)),
    )
    .wrapping_add(mul(ALPHA_F, q));
    let reciprocal = one_over_one_plus_x(denominator_minus_one);
    let num_scaled = rounding_divide_by_pot(num, accum_bits);
    let sum = mul(z_pow_2_adj, LOG_2).wrapping_add(mul(num_scaled, reciprocal));
    // one integer bit fewer
    saturating_shift_left(sum, 1)
}

/// TFLite's `GetInvSqrtQuantizedMultiplierExp` with `reverse_shift` −1:
/// `1 / √x` for an integer `x ≥ 0` as a Q0.31 multiplier and a left shift
/// (`1/√x ≈ m · 2^(shift − 31)`), by five Newton–Raphson steps in Q3.28
/// from 1 on `x` scaled by a power of 4 into [2^27, 2^29). `x ≤ 1` gives
/// `(i32::MAX, 0)`, as TFLite (0 as if it were 1).
pub(crate) fn inv_sqrt_multiplier(x: i32) -> (i32, i32) {
    if x <= 1 {
        return (i32::MAX, 0);
    }
    let mut input = x;
    let mut shift: i32 = 11;
    while input >= 1 << 29 {
        input /= 4;
        shift += 1;
    }
    // input in (1, 2^29): 3 to 30 leading zeros
    let max_left_shift_bits = (input as u32).leading_zeros() - 1;
    let left_shift_bit_pairs = max_left_shift_bits / 2 - 1;
    shift -= left_shift_bit_pairs as i32;
    input <<= 2 * left_shift_bit_pairs;
    let mul = saturating_rounding_doubling_high_mul;
    // Q3.28
    let fixed_input = input >> 1;
    let half_input = rounding_divide_by_pot(fixed_input, 1);
    const HALF_THREE: i32 = (1 << 28) + (1 << 27);
    let mut y: i32 = 1 << 28;
    for _ in 0..5 {
        // y³: a Q9 product back to Q3, y · 1.5 − x/2 · y³: Q6 back to Q3
        let y3 = saturating_shift_left(mul(mul(y, y), y), 6);
        y = saturating_shift_left(mul(HALF_THREE, y).wrapping_sub(mul(half_input, y3)), 3);
    }
    const HALF_SQRT_2: i32 = 1_518_500_250; // √2 / 2 in Q0.31
    let mut multiplier = mul(y, HALF_SQRT_2);
    if shift < 0 {
        multiplier = multiplier.wrapping_shl(shift.unsigned_abs());
        shift = 0;
    }
    (multiplier, -shift)
}

impl crate::base::write_rust::WriteRust for QuantizedMultiplier {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        write!(
            w,
            "{k}::QuantizedMultiplier::from_parts({}i32, {}i32)",
            self.multiplier(),
            self.shift()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverse_square_root_is_close() {
        for x in [2, 3, 10, 100, 255, 1000, 1 << 20, (1 << 29) + 5, i32::MAX] {
            let (m, shift) = inv_sqrt_multiplier(x);
            let got = f64::from(m) / 2f64.powi(31) * 2f64.powi(shift);
            let want = 1.0 / f64::from(x).sqrt();
            assert!((got - want).abs() < 1e-5 * want, "1/sqrt({x}) = {got}");
        }
    }

    #[test]
    fn the_fixed_point_tanh_is_close_to_tanh() {
        for i in -120..=120 {
            let x = f64::from(i) / 16.0;
            let raw = (x * f64::from(1 << 27)) as i32;
            let got = f64::from(tanh_q4(raw)) / 2f64.powi(31);
            assert!((got - x.tanh()).abs() < 1e-6, "tanh({x}) = {got}");
        }
    }

    #[test]
    fn frexp_matches_the_definition() {
        for (x, m, e) in [
            (1.0, 0.5, 1),
            (0.5, 0.5, 0),
            (0.75, 0.75, 0),
            (3.0, 0.75, 2),
            (0.1, 0.8, -3),
            (f64::MIN_POSITIVE, 0.5, -1021),
            (f64::MIN_POSITIVE / 4.0, 0.5, -1023),
        ] {
            assert_eq!(frexp(x), (m, e), "frexp({x})");
        }
    }

    #[test]
    fn the_fixed_point_exp_is_close_to_exp() {
        for i in 0..=400 {
            let x = -(i as f64) / 16.0; // 0 to −25
            let raw = (x * f64::from(1 << 26)) as i32;
            let got = f64::from(exp_on_negative_values_q5(raw)) / 2f64.powi(31);
            assert!(
                (got - x.exp()).abs() < 2e-8 + 1e-6 * x.exp(),
                "exp({x}) = {got}"
            );
        }
    }

    #[test]
    fn the_fixed_point_exp_of_q4_is_close_to_exp() {
        for i in 0..=250 {
            let x = -(i as f64) / 16.0; // 0 to −15.6
            let raw = (x * f64::from(1 << 27)) as i32;
            let got = f64::from(exp_on_negative_values(raw, 4)) / 2f64.powi(31);
            assert!(
                (got - x.exp()).abs() < 2e-8 + 1e-6 * x.exp(),
                "exp({x}) = {got}"
            );
        }
    }

    #[test]
    fn the_fixed_point_reciprocal_is_close_to_the_reciprocal() {
        // x in Q12.19: 1, 1.25, 3, 100.5
        for x in [1.0f64, 1.25, 3.0, 100.5] {
            let (r, n) = reciprocal((x * f64::from(1 << 19)) as i32, 12);
            let got = f64::from(r) / 2f64.powi(31) / 2f64.powi(n);
            assert!((got - 1.0 / x).abs() < 1e-8, "1/{x} = {got}");
        }
    }

    #[test]
    fn saturating_shift_left_saturates_as_gemmlowp() {
        for e in 0..=40u32 {
            for x in [0, 1, -1, 7, -7, 1 << 20, -(1 << 20), i32::MAX, i32::MIN] {
                // gemmlowp's comparisons, in i64 so that exponent 0 is defined
                let threshold = (1i64 << (31 - e.min(31))) - 1;
                let want = if i64::from(x) > threshold {
                    i32::MAX
                } else if i64::from(x) < -threshold {
                    i32::MIN
                } else {
                    x << e.min(31)
                };
                assert_eq!(saturating_shift_left(x, e), want, "{x} << {e}");
            }
        }
    }

    #[test]
    fn round_half_away_rounds_ties_up_for_positives() {
        assert_eq!(round_half_away(2.5), 3);
        assert_eq!(round_half_away(2.4999), 2);
        assert_eq!(round_half_away(0.0), 0);
    }
}
