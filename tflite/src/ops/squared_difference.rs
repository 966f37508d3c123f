//! TFLite's int8 `SQUARED_DIFFERENCE` on slices: `(x1 − x2)²` of two int8
//! tensors with their own scales and zero points, broadcast as `ADD`
//! broadcasts, as TFLite Micro's `squared_difference.cc` computes it.

use crate::arith::quant::{
    check_int8, check_scale, quantize_multiplier, quantize_multiplier_smaller_than_one,
    QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::broadcast::broadcast_binary;
use crate::shared::elementwise::{check_binary, BinaryStep};
use crate::shared::float_ops::{binary_f32, prepare_binary_f32, BinaryF32Step};

/// The bits each input is shifted left by before its rescaling (TFLite
/// Micro's `left_shift` for int8 in this op).
const LEFT_SHIFT: u32 = 7;

/// An int8 `SQUARED_DIFFERENCE`'s parameters, as TFLite Micro's
/// `PrepareQuantized` derives them ([`squared_difference_params`]): each
/// input less its zero point, shifted left by 7 bits, scaled onto a common
/// scale; the difference squared, scaled by the output multiplier and moved
/// to the output's zero point, clamped to int8.
///
/// ```
/// use shapecheck_tflite::{squared_difference_params, QuantizedMultiplier, SquaredDifferenceParams};
///
/// const P: SquaredDifferenceParams = SquaredDifferenceParams {
///     input1_zero_point: 0,
///     input1_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0), // 0.5
///     input2_zero_point: 0,
///     input2_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
///     output_zero_point: -128,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -11), // 2² / 2^14
/// };
/// assert_eq!(squared_difference_params(1.0, 0, 1.0, 0, 1.0, -128)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquaredDifferenceParams {
    /// the first input's zero point, in [−128, 127]
    pub input1_zero_point: i32,
    /// `input1_scale / (2 · max(input1_scale, input2_scale))`, shift ≤ 0
    pub input1_multiplier: QuantizedMultiplier,
    /// the second input's zero point, in [−128, 127]
    pub input2_zero_point: i32,
    /// `input2_scale / (2 · max(input1_scale, input2_scale))`, shift ≤ 0
    pub input2_multiplier: QuantizedMultiplier,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `(2 · max input scale)² / (2^14 · output_scale)`
    pub output_multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for SquaredDifferenceParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SquaredDifferenceParams",
            &[
                ("input1_zero_point", &self.input1_zero_point),
                ("input1_multiplier", &self.input1_multiplier),
                ("input2_zero_point", &self.input2_zero_point),
                ("input2_multiplier", &self.input2_multiplier),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
            ],
        )
    }
}

/// TFLite Micro's `PrepareQuantized` for an int8 `SQUARED_DIFFERENCE`:
/// `twice_max = 2 · max(input1_scale, input2_scale)` in `f64`, the input
/// multipliers `input_scale / twice_max` (quantized as
/// `QuantizeMultiplierSmallerThanOneExp`), and the output multiplier
/// `twice_max² / (2^14 · output_scale)` (the denominator in `f32`),
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier). The
/// clamp is int8's whole range (the op has no fused activation).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::{squared_difference_params, TfliteError};
///
/// let p = squared_difference_params(0.5, 1, 0.25, -2, 0.01, -128)?;
/// assert_eq!(p.input2_multiplier.shift(), -1); // 0.25
/// assert!(squared_difference_params(0.5, 1, 0.25, -2, 0.01, 128).is_err());
/// # Ok::<(), TfliteError>(())
/// ```
pub fn squared_difference_params(
    input1_scale: f32,
    input1_zero_point: i32,
    input2_scale: f32,
    input2_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<SquaredDifferenceParams, TfliteError> {
    check_scale("SQUARED_DIFFERENCE's first input scale", input1_scale)?;
    check_scale("SQUARED_DIFFERENCE's second input scale", input2_scale)?;
    check_scale("SQUARED_DIFFERENCE's output scale", output_scale)?;
    let twice_max = 2.0 * f64::from(input1_scale.max(input2_scale));
    let denominator = f64::from((1u32 << (2 * LEFT_SHIFT)) as f32 * output_scale);
    let params = SquaredDifferenceParams {
        input1_zero_point,
        input1_multiplier: quantize_multiplier_smaller_than_one(
            "SQUARED_DIFFERENCE's first input multiplier",
            f64::from(input1_scale) / twice_max,
        )?,
        input2_zero_point,
        input2_multiplier: quantize_multiplier_smaller_than_one(
            "SQUARED_DIFFERENCE's second input multiplier",
            f64::from(input2_scale) / twice_max,
        )?,
        output_zero_point,
        output_multiplier: quantize_multiplier(twice_max * twice_max / denominator)?,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &SquaredDifferenceParams) -> Result<(), TfliteError> {
    check_int8(
        "SQUARED_DIFFERENCE's first input zero point",
        p.input1_zero_point,
    )?;
    check_int8(
        "SQUARED_DIFFERENCE's second input zero point",
        p.input2_zero_point,
    )?;
    check_int8(
        "SQUARED_DIFFERENCE's output zero point",
        p.output_zero_point,
    )?;
    for (what, m) in [
        (
            "SQUARED_DIFFERENCE's first input multiplier's shift",
            p.input1_multiplier,
        ),
        (
            "SQUARED_DIFFERENCE's second input multiplier's shift",
            p.input2_multiplier,
        ),
    ] {
        if m.shift() > 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(m.shift()),
                rule: "the input multipliers are below 1: their shifts are at most 0",
            });
        }
    }
    Ok(())
}

/// TFLite's int8 `SQUARED_DIFFERENCE` (TFLite Micro's `SquaredDifference`
/// for int8): for each output element and its inputs `x1`, `x2`
/// (broadcast as [`broadcast_shape`](crate::broadcast_shape) says),
/// `s_i = multiply((x_i − zp_i) · 2^7, M_i)`, then
/// `y = multiply((s_1 − s_2)², M_out) + zp_out` clamped to int8, every
/// multiply TFLite Micro's double rounding.
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, a length is not its shape's count, or `params`
/// break [`squared_difference_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{squared_difference_int8, squared_difference_params};
///
/// let params = squared_difference_params(1.0, 0, 1.0, 0, 1.0, -128)?;
/// let mut out = [0i8; 3];
/// squared_difference_int8(&[1, 5, -3], &[3], &[2], &[1], &params, &mut out)?;
/// assert_eq!(out, [-127, -119, -103]); // 1, 9, 25 above −128
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn squared_difference_int8<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &SquaredDifferenceParams,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    check(params)?;
    let p = *params;
    let (m1, m2, mo) = (
        Scale::new(p.input1_multiplier),
        Scale::new(p.input2_multiplier),
        Scale::new(p.output_multiplier),
    );
    broadcast_binary(a, a_shape, b, b_shape, output, |x1: i8, x2: i8| {
        // zero points in int8: each shifted input is at most 255 · 2^7,
        // each scaled one at most half of that, the difference at most
        // 2^15 and its square below 2^31
        let shifted1 = (i32::from(x1) - p.input1_zero_point) << LEFT_SHIFT;
        let shifted2 = (i32::from(x2) - p.input2_zero_point) << LEFT_SHIFT;
        let difference =
            m1.apply(shifted1, Rounding::Double) - m2.apply(shifted2, Rounding::Double);
        let raw = mo
            .apply(difference.wrapping_mul(difference), Rounding::Double)
            .saturating_add(p.output_zero_point);
        raw.clamp(-128, 127) as i8
    })
}

/// `SQUARED_DIFFERENCE`'s row in `OPS`: checks the operator (two int8
/// operands, each an activation or a constant, broadcast) and prepares its
/// step.
pub(crate) fn prepare<
    'm,
    S: From<BinaryStep<'m, i8, SquaredDifferenceParams>>
        + From<BinaryF32Step<'m, SquaredDifferenceF32>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let a = c.input(0, "input1")?;
    if a.dtype() == TensorType::Float32 {
        return prepare_binary_f32(c, shape, SquaredDifferenceF32, Activation::None).map(S::from);
    }
    let operands = check_binary(c, shape)?;
    let [(s1, z1), (s2, z2), (so, zo)] = operands.quant;
    let params = squared_difference_params(s1, z1, s2, z2, so, zo)?;
    Ok(S::from(operands.step(params)))
}

/// TFLite's f32 `SQUARED_DIFFERENCE` (TFLite Micro's
/// `squared_difference.cc`): `d · d` with `d = x1 − x2`, each in f32,
/// broadcast as [`sub_f32`](crate::sub_f32); the op has no fused
/// activation. Fails, with `output` untouched, as `sub_f32` does.
///
/// ```
/// use shapecheck_tflite::squared_difference_f32;
///
/// let mut out = [0f32; 2];
/// squared_difference_f32(&[1.0, -2.0], &[2], &[3.0], &[], &mut out)?;
/// assert_eq!(out, [4.0, 25.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn squared_difference_f32<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    A: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    binary_f32(
        &SquaredDifferenceF32,
        (a, a_shape),
        (b, b_shape),
        (f32::NEG_INFINITY, f32::INFINITY),
        output,
    )
}

/// `SQUARED_DIFFERENCE`'s f32 function: `(x1 − x2)²`, the difference rounded, then its square.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct SquaredDifferenceF32;

impl crate::shared::float_ops::BinaryF32Apply for SquaredDifferenceF32 {
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        let d = x1 - x2;
        d * d
    }
}

impl crate::base::write_rust::WriteRust for SquaredDifferenceF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "SquaredDifferenceF32")
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for SquaredDifferenceParams {
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
        squared_difference_int8(a, a_dims, b, b_dims, self, y)
    }
}
