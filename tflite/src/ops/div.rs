//! TFLite's int8 `DIV` on slices: two int8 tensors with their own scales
//! and zero points, broadcast as `ADD` broadcasts, as TFLite Micro's
//! `div.cc` and `reference_ops::DivElementwise` / `BroadcastDivSlow`
//! compute it: the divisor's fixed-point reciprocal times the dividend.
//! And TFLite's f32 `DIV` ([`div_f32`]): IEEE division, then the fused
//! activation's clamp.

use crate::arith::quant::{
    check_int8, check_int8_clamp, check_scale, quantize_multiplier, reciprocal,
    rounding_divide_by_pot, saturating_rounding_doubling_high_mul, QuantizedMultiplier,
};
use crate::format::error::TfliteError;
use crate::format::model::OptionsReader;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::broadcast::broadcast_binary;
use crate::shared::elementwise::{check_binary, BinaryStep};
use crate::shared::float_ops::{binary_f32, prepare_binary_f32, BinaryF32Step};

/// The largest output multiplier shift [`div_int8`] takes: with an int8
/// dividend's at least 22 bits of headroom, the kernel's total shift is
/// then never above 0.
const MAX_SHIFT: i32 = 22;

/// `DivOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/div.tflite")))?;
/// let div = model.operators().find(|op| op.op().name() == "DIV").unwrap();
/// let Options::Div(o) = div.options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DivOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

/// An int8 `DIV`'s parameters, as TFLite Micro's `CalculateOpDataDiv`
/// derives them ([`div_params`]).
///
/// ```
/// use shapecheck_tflite::{div_params, DivParams, QuantizedMultiplier};
///
/// const P: DivParams = DivParams {
///     input1_zero_point: 1,
///     input2_zero_point: -3,
///     output_zero_point: 0,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 1), // 1
///     output_min: -128,
///     output_max: 127,
/// };
/// assert_eq!(div_params(0.5, 1, 0.5, -3, 1.0, 0, -128, 127)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivParams {
    /// the dividend's zero point, in [−128, 127]
    pub input1_zero_point: i32,
    /// the divisor's zero point, in [−128, 127]
    pub input2_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input1_scale / (input2_scale · output_scale)`, shift at most 22
    pub output_multiplier: QuantizedMultiplier,
    /// the clamp's lower end, from the fused activation
    pub output_min: i32,
    /// the clamp's upper end, at least `output_min`, at most 127
    pub output_max: i32,
}

impl crate::base::write_rust::WriteRust for DivParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "DivParams",
            &[
                ("input1_zero_point", &self.input1_zero_point),
                ("input2_zero_point", &self.input2_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// TFLite Micro's `CalculateOpDataDiv` for int8: the output multiplier
/// `input1_scale / (input2_scale · output_scale)`, computed in `f32`, then
/// widened to `f64` and quantized by
/// [`quantize_multiplier`](crate::quantize_multiplier).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0 or a multiplier of 2^22 or more (its shift above
/// 22, which TFLite Micro's kernel would shift by a negative amount), and
/// with [`TfliteError::KernelParam`] for a zero point outside [−128, 127]
/// or a clamp that is empty or not within [−128, 127].
///
/// ```
/// use shapecheck_tflite::{div_params, TfliteError};
///
/// let p = div_params(0.5, 0, 0.25, 0, 0.5, 0, -128, 127)?;
/// assert_eq!(p.output_multiplier.shift(), 3); // 4 = 0.5 · 2^3
/// assert!(matches!(div_params(1e6, 0, 1e-3, 0, 1e-3, 0, -128, 127), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn div_params(
    input1_scale: f32,
    input1_zero_point: i32,
    input2_scale: f32,
    input2_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<DivParams, TfliteError> {
    check_scale("DIV's first input scale", input1_scale)?;
    check_scale("DIV's second input scale", input2_scale)?;
    check_scale("DIV's output scale", output_scale)?;
    let real = f64::from(input1_scale / (input2_scale * output_scale));
    let params = DivParams {
        input1_zero_point,
        input2_zero_point,
        output_zero_point,
        output_multiplier: quantize_multiplier(real)?,
        output_min,
        output_max,
    };
    if params.output_multiplier.shift() > MAX_SHIFT {
        return Err(TfliteError::KernelScale {
            what: "DIV's output multiplier input1_scale / (input2_scale · output_scale)",
            value: real,
            rule: "this kernel takes a multiplier below 2^22",
        });
    }
    check(&params)?;
    Ok(params)
}

fn check(p: &DivParams) -> Result<(), TfliteError> {
    check_int8("DIV's first input zero point", p.input1_zero_point)?;
    check_int8("DIV's second input zero point", p.input2_zero_point)?;
    check_int8("DIV's output zero point", p.output_zero_point)?;
    check_int8_clamp("DIV's output_min", p.output_min, p.output_max)?;
    if p.output_multiplier.shift() > MAX_SHIFT {
        return Err(TfliteError::KernelParam {
            what: "DIV's output multiplier's shift",
            value: i64::from(p.output_multiplier.shift()),
            rule: "this kernel takes a shift of at most 22",
        });
    }
    Ok(())
}

/// TFLite's `CountLeadingSignBits` of an `i32`: the bits below the sign bit
/// equal to it (31 for 0 and −1).
fn leading_sign_bits(x: i32) -> u32 {
    (x ^ (x >> 31)).leading_zeros() - 1
}

/// TFLite's int8 `DIV` (TFLite Micro's `DivElementwise` and
/// `BroadcastDivSlow`): for each output element and its inputs `x1`, `x2`
/// (broadcast as [`broadcast_shape`](crate::broadcast_shape) says), with
/// `n = x1 − zp1` and `d = x2 − zp2` (both negated when `d < 0`): `d`'s
/// fixed-point reciprocal `r · 2^−k` (TFLite's `GetReciprocal` with 31
/// integer bits), `n` shifted left by its `h` redundant sign bits,
/// `q = high_mul(n · 2^h, r)`, then
/// `y = round(high_mul(q, M) / 2^(k + h − shift)) + zp_out` clamped to
/// `[output_min, output_max]` (gemmlowp's roundings throughout).
///
/// TFLite Micro does not check the divisor (a `DCHECK` only); this kernel
/// does: fails, with `output` untouched, when any divisor value equals its
/// zero point (a division by 0), when the shapes do not broadcast or have
/// more than 6 dims, a length is not its shape's count, or `params` break
/// [`div_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{div_int8, div_params};
///
/// let params = div_params(1.0, 0, 1.0, 0, 0.125, 0, -128, 127)?;
/// let mut out = [0i8; 3];
/// div_int8(&[3, -5, 7], &[3], &[2], &[1], &params, &mut out)?;
/// assert_eq!(out, [12, -20, 28]); // x / 2 in steps of 1/8
/// assert!(div_int8(&[3, -5, 7], &[3], &[0], &[1], &params, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn div_int8<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &DivParams,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    check(params)?;
    let p = *params;
    if let Some(zero) = b
        .run(0, b.count())
        .find(|&x| i32::from(x) == p.input2_zero_point)
    {
        return Err(TfliteError::KernelParam {
            what: "DIV's divisor",
            value: i64::from(zero),
            rule: "a divisor equal to its zero point is a division by 0",
        });
    }
    let (multiplier, shift) = (
        p.output_multiplier.multiplier(),
        p.output_multiplier.shift(),
    );
    broadcast_binary(a, a_shape, b, b_shape, output, |x1: i8, x2: i8| {
        let mut n = i32::from(x1) - p.input1_zero_point;
        let mut d = i32::from(x2) - p.input2_zero_point;
        if d < 0 {
            n = -n;
            d = -d;
        }
        // d in [1, 255]: 1/d = r · 2^−k, k in [0, 8]
        let (r, k) = reciprocal(d, 31);
        let headroom = leading_sign_bits(n);
        // n · 2^headroom fits by the definition of headroom
        let q = saturating_rounding_doubling_high_mul(n.wrapping_shl(headroom), r);
        // headroom ≥ 22 for n in [−255, 255] and shift ≤ 22: at most 0
        let total_shift = shift - k - headroom as i32;
        let raw = rounding_divide_by_pot(
            saturating_rounding_doubling_high_mul(q, multiplier),
            total_shift.min(0).unsigned_abs(),
        )
        .saturating_add(p.output_zero_point);
        raw.clamp(p.output_min, p.output_max) as i8
    })
}

/// `DIV`'s options table in the schema's `BuiltinOptions` union.
const DIV_OPTIONS: u8 = 29;

/// Reads `DIV`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<DivOptions, TfliteError> {
    let act = match r.table(DIV_OPTIONS, "DivOptions")? {
        Some(t) => t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
        None => 0,
    };
    Ok(DivOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

/// `DIV`'s row in `OPS`: checks the operator (two int8 operands, each an
/// activation or a constant, broadcast; f32 in `float_ops`) and prepares
/// its step.
pub(crate) fn prepare<
    'm,
    S: From<BinaryStep<'m, i8, DivParams>> + From<BinaryF32Step<'m, DivF32>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input1")?.dtype() == TensorType::Float32 {
        return prepare_binary_f32(c, shape, DivF32, options.fused_activation).map(S::from);
    }
    let operands = check_binary(c, shape)?;
    let [(s1, z1), (s2, z2), (so, zo)] = operands.quant;
    let (lo, hi) = c.clamp(options.fused_activation, so, zo)?;
    let params = div_params(s1, z1, s2, z2, so, zo, lo, hi)?;
    Ok(S::from(operands.step(params)))
}

/// TFLite's f32 `DIV` (TFLite Micro's `reference_ops::Div` and
/// `BroadcastDivSlow` on floats): `x1 / x2` in f32 (IEEE: a divisor of
/// ±0 gives ±∞ or NaN, no error), broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says, then clamped to
/// `[output_min, output_max]` as TFLite's `ActivationFunctionWithMinMax`
/// clamps ([`activation_range_f32`](crate::activation_range_f32) gives
/// the range of a fused activation: `NONE`'s is ±`f32::MAX`).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, or a length is not its shape's count.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, div_f32, Activation};
///
/// let (lo, hi) = activation_range_f32(Activation::None)?;
/// let mut out = [0f32; 4];
/// // [2, 2] / [2]: each column by its own divisor
/// div_f32(&[1.0, 3.0, -2.0, 5.0], &[2, 2], &[2.0, 0.0], &[2], lo, hi, &mut out)?;
/// assert_eq!(out, [0.5, f32::MAX, -1.0, f32::MAX]); // 3 / 0 = +∞, clamped
/// assert!(div_f32(&[1.0; 3], &[3], &[1.0; 2], &[2], lo, hi, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn div_f32<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output_min: f32,
    output_max: f32,
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    A: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    binary_f32(
        &DivF32,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
}

/// `DIV`'s f32 function: `x1 / x2`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct DivF32;

impl crate::shared::float_ops::BinaryF32Apply for DivF32 {
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        x1 / x2
    }
}

impl crate::base::write_rust::WriteRust for DivF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "DivF32")
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for DivParams {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i8],
    ) -> Result<(), TfliteError>
    where
        A: crate::format::values::Values<i8> + ?Sized,
        B: crate::format::values::Values<i8> + ?Sized,
    {
        div_int8(a, a_dims, b, b_dims, self, y)
    }
}
