//! TFLite's int8 `RSQRT` on slices, `1 / √x`, as TFLite Micro's
//! `elementwise.cc` (`RsqrtEvalQuantized`) computes it: each input's
//! inverse square root as a fixed-point multiplier (TFLite's
//! `GetInvSqrtQuantizedMultiplierExp`), rescaled to the output.

use crate::arith::float_math::sqrt;
use crate::arith::quant::{
    check_int8, check_scale, inv_sqrt_multiplier, multiply_by_quantized_multiplier,
    quantize_multiplier, QuantizedMultiplier, Rounding,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, UnaryStep};
use crate::shared::float_ops::MapF32Step;

/// The shift that keeps TFLite's intermediate value an integer (`kShift`).
const SHIFT: i32 = 20;

/// An int8 `RSQRT`'s parameters, as TFLite Micro's `PrepareAbsRsqrt`
/// derives them ([`rsqrt_params`]).
///
/// ```
/// use shapecheck_tflite::{rsqrt_params, QuantizedMultiplier, RsqrtParams};
///
/// const P: RsqrtParams = RsqrtParams {
///     input_zero_point: -128,
///     output_zero_point: -128,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 4), // 1 / (√0.25 · 0.25) = 8
/// };
/// assert_eq!(rsqrt_params(0.25, -128, 0.25, -128)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RsqrtParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `1 / (√input_scale · output_scale)`, shift in [−11, 30]
    pub output_multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for RsqrtParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "RsqrtParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
            ],
        )
    }
}

/// TFLite Micro's `SetRsqrtOutputMultiplier`: the multiplier
/// `1 / (√input_scale · output_scale)`, the square root and product in
/// `f32`, the quotient in `f64`, quantized by
/// [`quantize_multiplier`](crate::quantize_multiplier).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0 or a multiplier below 2^−12 (its shift less 20
/// would pass −31), and with [`TfliteError::KernelParam`] for a zero point
/// outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::rsqrt_params;
///
/// assert!(rsqrt_params(0.25, -128, 1e9, -128).is_err());
/// ```
pub fn rsqrt_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<RsqrtParams, TfliteError> {
    check_scale("RSQRT's input scale", input_scale)?;
    check_scale("RSQRT's output scale", output_scale)?;
    let real = 1.0 / f64::from(sqrt(input_scale) * output_scale);
    let output_multiplier = quantize_multiplier(real)?;
    if output_multiplier.shift() - SHIFT < -31 {
        return Err(TfliteError::KernelScale {
            what: "RSQRT's output multiplier 1 / (√input_scale · output_scale)",
            value: real,
            rule: "this kernel takes a multiplier of at least 2^-12",
        });
    }
    let params = RsqrtParams {
        input_zero_point,
        output_zero_point,
        output_multiplier,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &RsqrtParams) -> Result<(), TfliteError> {
    check_int8("RSQRT's input zero point", p.input_zero_point)?;
    check_int8("RSQRT's output zero point", p.output_zero_point)?;
    if p.output_multiplier.shift() - SHIFT < -31 {
        return Err(TfliteError::KernelParam {
            what: "RSQRT's output multiplier's shift",
            value: i64::from(p.output_multiplier.shift()),
            rule: "this kernel takes a shift of at least −11",
        });
    }
    Ok(())
}

/// TFLite's int8 `RSQRT` (TFLite Micro's `RsqrtEvalQuantized`): for each
/// input, with `v = x − zp_in`: 127 where `v = 0`; else `1/√v` as a
/// multiplier `m · 2^s` (TFLite's `GetInvSqrtQuantizedMultiplierExp`), `d = multiply(1, m, s + 20)`
/// (`1/√v` in units of 2^−20), and
/// `y = multiply(d, M_out, shift_out − 20) + zp_out` clamped to int8, every
/// multiply TFLite Micro's double rounding.
///
/// TFLite Micro fails on an input below its zero point (a negative real);
/// so does this kernel, before writing anything. Fails, with `output`
/// untouched, too when `output` is not as long as `input` or `params`
/// break [`rsqrt_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{rsqrt_int8, rsqrt_params};
///
/// // input steps of 1/4 from 0; output steps of 1/16
/// let params = rsqrt_params(0.25, -128, 0.0625, -128)?;
/// let mut out = [0i8; 4];
/// rsqrt_int8(&[-127, -124, -112, -128], &params, &mut out)?;
/// assert_eq!(out, [-96, -112, -120, 127]); // 1/√0.25 = 2, 1/√1 = 1, 1/√4 = 0.5, 0 → 127
/// let signed = rsqrt_params(0.25, 0, 0.0625, -128)?;
/// assert!(rsqrt_int8(&[1, -1, 2, 3], &signed, &mut out).is_err()); // −1 is below 0
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn rsqrt_int8(
    input: &[i8],
    params: &RsqrtParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check(params)?;
    if let Some(&negative) = input
        .iter()
        .find(|&&x| i32::from(x) < params.input_zero_point)
    {
        return Err(TfliteError::KernelParam {
            what: "RSQRT's input",
            value: i64::from(negative),
            rule: "RSQRT is defined for inputs at or above the zero point only",
        });
    }
    let out = QuantizedMultiplier::from_parts(
        params.output_multiplier.multiplier(),
        params.output_multiplier.shift() - SHIFT,
    );
    for (y, &x) in output.iter_mut().zip(input) {
        let v = i32::from(x) - params.input_zero_point;
        if v == 0 {
            *y = i8::MAX;
            continue;
        }
        let (m, s) = inv_sqrt_multiplier(v);
        // v in [1, 255]: s in [−1, 0], the shift s + 20 in range
        let d = multiply_by_quantized_multiplier(
            1,
            QuantizedMultiplier::from_parts(m, s + SHIFT),
            Rounding::Double,
        );
        let raw = multiply_by_quantized_multiplier(d, out, Rounding::Double)
            .saturating_add(params.output_zero_point);
        *y = raw.clamp(-128, 127) as i8;
    }
    Ok(())
}

/// `RSQRT`'s row in `OPS`: checks the operator (an int8 activation in and
/// out, or an f32 one: `float_ops`' f32 `RSQRT`) and prepares its step.
pub(crate) fn prepare<'m, S: From<UnaryStep<i8, RsqrtParams>> + From<MapF32Step<RsqrtF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Float32 {
        return prepare_rsqrt_f32(c).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(rsqrt_params(si, zi, so, zo)?)))
}

/// One value of TFLite's f32 `RSQRT`: `1.f / std::sqrt(x)` in f32, as
/// TFLite Micro's `elementwise.cc` computes it (the square root correctly
/// rounded, then the quotient): `+∞` at 0, NaN below 0.
///
/// ```
/// use shapecheck_tflite::rsqrt_value;
///
/// assert_eq!(rsqrt_value(4.0), 0.5);
/// assert_eq!(rsqrt_value(2.0), 1.0 / 1.4142135);
/// assert_eq!(rsqrt_value(0.0), f32::INFINITY);
/// assert!(rsqrt_value(-1.0).is_nan());
/// ```
pub fn rsqrt_value(x: f32) -> f32 {
    1.0 / crate::arith::float_math::sqrt(x)
}

/// TFLite's f32 `RSQRT`, element by element ([`rsqrt_value`]). Fails,
/// with `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::rsqrt_f32;
///
/// let mut out = [0f32; 3];
/// rsqrt_f32(&[1.0, 0.25, 16.0], &mut out)?;
/// assert_eq!(out, [1.0, 2.0, 0.25]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn rsqrt_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    crate::shared::float_ops::map_f32(input, output, rsqrt_value)
}

/// `RSQRT`'s f32 `prepare` (its row's signature): what `rsqrt.rs`'s
/// `prepare` calls for an f32 input.
fn prepare_rsqrt_f32(c: &Checker<'_>) -> Result<MapF32Step<RsqrtF32>, TfliteError> {
    crate::shared::float_ops::prepare_map_f32(c, RsqrtF32)
}

/// `RSQRT`'s f32 function: [`rsqrt_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct RsqrtF32;

impl crate::shared::float_ops::MapF32Apply for RsqrtF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        rsqrt_value(x)
    }
}

impl crate::base::write_rust::WriteRust for RsqrtF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "RsqrtF32")
    }
}

impl crate::shared::elementwise::UnaryApply<i8> for RsqrtParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        rsqrt_int8(x, self, y)
    }
}
