//! TFLite's int8 `PRELU` on slices: a leaky ReLU whose slope is a tensor
//! (an int8 constant with its own scale and zero point, per channel in a
//! Keras export), broadcast against the input as `ADD` broadcasts, as
//! TFLite Micro's `prelu.cc` and `reference_ops::BroadcastPrelu4DSlow`
//! compute it. And its f32 kernel ([`prelu_f32`]), TFLite Micro's
//! `BroadcastPrelu4DSlowFloat`: plain arithmetic.

use crate::arith::quant::{
    check_int8, check_scale, quantize_multiplier, QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::broadcast::broadcast_binary;
use crate::shared::elementwise::{check_binary, BinaryStep};
use crate::shared::float_ops::{prepare_binary_f32, BinaryF32Step};

/// An int8 `PRELU`'s parameters, as TFLite Micro's `CalculatePreluParams`
/// derives them ([`prelu_params`]).
///
/// ```
/// use shapecheck_tflite::{prelu_params, PreluParams, QuantizedMultiplier};
///
/// const P: PreluParams = PreluParams {
///     input_zero_point: 2,
///     alpha_zero_point: -1,
///     output_zero_point: 0,
///     identity_multiplier: QuantizedMultiplier::from_parts(1 << 30, 1), // 1
///     alpha_multiplier: QuantizedMultiplier::from_parts(1 << 30, -2), // 0.125
/// };
/// assert_eq!(prelu_params(0.5, 2, 0.125, -1, 0.5, 0)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreluParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the slope's zero point, in [−128, 127]
    pub alpha_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / output_scale`: for inputs at or above the zero point
    pub identity_multiplier: QuantizedMultiplier,
    /// `input_scale · alpha_scale / output_scale`: for the product of an
    /// input below its zero point and its slope
    pub alpha_multiplier: QuantizedMultiplier,
}

impl crate::base::write_rust::WriteRust for PreluParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PreluParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("alpha_zero_point", &self.alpha_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("identity_multiplier", &self.identity_multiplier),
                ("alpha_multiplier", &self.alpha_multiplier),
            ],
        )
    }
}

/// TFLite Micro's `CalculatePreluParams` for int8: the identity multiplier
/// `input_scale / output_scale` and the alpha multiplier
/// `input_scale · alpha_scale / output_scale`, each in `f64`, quantized by
/// [`quantize_multiplier`](crate::quantize_multiplier).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::prelu_params;
///
/// assert!(prelu_params(0.5, 2, 0.125, 300, 0.5, 0).is_err());
/// ```
pub fn prelu_params(
    input_scale: f32,
    input_zero_point: i32,
    alpha_scale: f32,
    alpha_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<PreluParams, TfliteError> {
    check_scale("PRELU's input scale", input_scale)?;
    check_scale("PRELU's alpha scale", alpha_scale)?;
    check_scale("PRELU's output scale", output_scale)?;
    let (input, alpha, output) = (
        f64::from(input_scale),
        f64::from(alpha_scale),
        f64::from(output_scale),
    );
    let params = PreluParams {
        input_zero_point,
        alpha_zero_point,
        output_zero_point,
        identity_multiplier: quantize_multiplier(input / output)?,
        alpha_multiplier: quantize_multiplier(input * alpha / output)?,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &PreluParams) -> Result<(), TfliteError> {
    check_int8("PRELU's input zero point", p.input_zero_point)?;
    check_int8("PRELU's alpha zero point", p.alpha_zero_point)?;
    check_int8("PRELU's output zero point", p.output_zero_point)
}

/// TFLite's int8 `PRELU` (TFLite Micro's `BroadcastPrelu4DSlow`): for each
/// output element, its input `x` and slope `a` (broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says), with `v = x − zp_in`,
/// `y = multiply(v, M_identity)` where `v ≥ 0`, else
/// `multiply(v · (a − zp_alpha), M_alpha)`, plus `zp_out`, clamped to
/// int8, each multiply TFLite Micro's double rounding. The slope may be a
/// slice or a constant read in place from a model ([`Values`]).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, a length is not its shape's count, or `params`
/// break [`prelu_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{prelu_int8, prelu_params};
///
/// // slopes 0.25 and 0.5 (steps of 0.125) on two channels
/// let params = prelu_params(1.0, 0, 0.125, 0, 1.0, 0)?;
/// let mut out = [0i8; 4];
/// prelu_int8(&[-8, -8, 3, 5], &[2, 2], &[2, 4], &[2], &params, &mut out)?;
/// assert_eq!(out, [-2, -4, 3, 5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn prelu_int8<A, B>(
    input: &A,
    input_shape: &[usize],
    alpha: &B,
    alpha_shape: &[usize],
    params: &PreluParams,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    check(params)?;
    let p = *params;
    let identity = Scale::new(p.identity_multiplier);
    let slope = Scale::new(p.alpha_multiplier);
    broadcast_binary(
        input,
        input_shape,
        alpha,
        alpha_shape,
        output,
        |x: i8, a: i8| {
            let v = i32::from(x) - p.input_zero_point;
            let scaled = if v >= 0 {
                identity.apply(v, Rounding::Double)
            } else {
                // zero points in int8: at most 255² in magnitude
                slope.apply(v * (i32::from(a) - p.alpha_zero_point), Rounding::Double)
            };
            scaled.saturating_add(p.output_zero_point).clamp(-128, 127) as i8
        },
    )
}

/// `PRELU`'s row in `OPS`: checks the operator (an int8 input and an int8
/// slope, an activation or a constant, broadcast; or both f32) and
/// prepares its step. The f32 step is the shared binary f32 step with the
/// clamp to `[−∞, +∞]`, which changes no value (NaN included).
pub(crate) fn prepare<
    'm,
    S: From<BinaryStep<'m, i8, PreluParams>> + From<BinaryF32Step<'m, PreluF32>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        let mut step = prepare_binary_f32(c, shape, PreluF32, Activation::None)?;
        // no clamp: TFLite Micro's PRELU has no activation range
        step.range = (f32::NEG_INFINITY, f32::INFINITY);
        return Ok(S::from(step));
    }
    let operands = check_binary(c, shape)?;
    let [(si, zi), (sa, za), (so, zo)] = operands.quant;
    let params = prelu_params(si, zi, sa, za, so, zo)?;
    Ok(S::from(operands.step(params)))
}

impl crate::shared::elementwise::BinaryApply<i8> for PreluParams {
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
        prelu_int8(a, a_dims, b, b_dims, self, y)
    }
}

/// One value of TFLite's f32 `PRELU`, as TFLite Micro's
/// `BroadcastPrelu4DSlowFloat` computes it: `x >= 0 ? x : x · alpha`
/// (`−0` is not below 0 and stays `−0`; a NaN `x` gives `x · alpha`, NaN).
///
/// ```
/// use shapecheck_tflite::prelu_value;
///
/// assert_eq!(prelu_value(2.0, 0.25), 2.0);
/// assert_eq!(prelu_value(-2.0, 0.25), -0.5);
/// assert!(prelu_value(-0.0, 0.25).is_sign_negative());
/// ```
pub fn prelu_value(x: f32, alpha: f32) -> f32 {
    if x >= 0.0 {
        x
    } else {
        x * alpha
    }
}

/// TFLite's f32 `PRELU`: for each output element, its input `x` and slope
/// `a` (broadcast as [`broadcast_shape`](crate::broadcast_shape) says),
/// [`prelu_value`]`(x, a)`; no clamp. The slope may be a slice or a
/// constant read in place from a model ([`Values`]).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, or a length is not its shape's count.
///
/// ```
/// use shapecheck_tflite::prelu_f32;
///
/// // slopes 0.25 and 0.5 on two channels
/// let mut out = [0f32; 4];
/// prelu_f32(&[-8.0, -8.0, 3.0, 5.0], &[2, 2], &[0.25, 0.5], &[2], &mut out)?;
/// assert_eq!(out, [-2.0, -4.0, 3.0, 5.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn prelu_f32<A, B>(
    input: &A,
    input_shape: &[usize],
    alpha: &B,
    alpha_shape: &[usize],
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    A: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    broadcast_binary(input, input_shape, alpha, alpha_shape, output, prelu_value)
}

/// `PRELU`'s f32 function: [`prelu_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct PreluF32;

impl crate::shared::float_ops::BinaryF32Apply for PreluF32 {
    #[inline(always)]
    fn apply(&self, x: f32, alpha: f32) -> f32 {
        prelu_value(x, alpha)
    }
}

impl crate::base::write_rust::WriteRust for PreluF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "PreluF32")
    }
}
