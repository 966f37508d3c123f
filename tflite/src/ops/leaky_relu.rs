//! TFLite's int8 `LEAKY_RELU` on slices, as TFLite Micro's
//! `leaky_relu.cc` and `reference_ops::QuantizeLeakyRelu` compute it:
//! inputs above the zero point rescaled by one multiplier, those below by
//! `alpha` times it. And its f32 kernel ([`leaky_relu_f32`]), TFLite's
//! `reference_ops::LeakyRelu` over f32: plain arithmetic.

use crate::arith::quant::{
    check_int8, check_scale, quantize_multiplier, QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::model::OptionsReader;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::elementwise::check_same_length;
use crate::shared::elementwise::{check_unary, UnaryStep};
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// `LeakyReluOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/leaky_relu.tflite")))?;
/// let Options::LeakyRelu(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.alpha, 0.2); // Keras LeakyReLU's default
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct LeakyReluOptions {
    /// `alpha`: the slope below 0
    pub alpha: f32,
}

/// An int8 `LEAKY_RELU`'s parameters, as TFLite Micro's
/// `CalculateOpDataLeakyRelu` derives them ([`leaky_relu_params`]).
///
/// ```
/// use shapecheck_tflite::{leaky_relu_params, LeakyReluParams, QuantizedMultiplier};
///
/// const P: LeakyReluParams = LeakyReluParams {
///     input_zero_point: 1,
///     output_zero_point: -3,
///     identity_multiplier: QuantizedMultiplier::from_parts(1 << 30, 1), // 1
///     alpha_multiplier: QuantizedMultiplier::from_parts(1 << 30, -1), // 0.25
///     alpha_negative: false,
/// };
/// assert_eq!(leaky_relu_params(0.5, 1, 0.5, -3, 0.25)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakyReluParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / output_scale`: for inputs at or above the zero point
    pub identity_multiplier: QuantizedMultiplier,
    /// `|input_scale · alpha / output_scale|`: for inputs below it
    pub alpha_multiplier: QuantizedMultiplier,
    /// whether `alpha` is negative (the product below the zero point is
    /// then negated)
    pub alpha_negative: bool,
}

impl crate::base::write_rust::WriteRust for LeakyReluParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "LeakyReluParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("identity_multiplier", &self.identity_multiplier),
                ("alpha_multiplier", &self.alpha_multiplier),
                ("alpha_negative", &self.alpha_negative),
            ],
        )
    }
}

/// TFLite Micro's `CalculateOpDataLeakyRelu` for int8: the alpha multiplier
/// `input_scale · alpha / output_scale` and the identity multiplier
/// `input_scale / output_scale`, each computed in `f32`, widened to `f64`
/// and quantized by [`quantize_multiplier`](crate::quantize_multiplier) (a
/// negative alpha as its magnitude and a sign, as TFLite's kernel applies
/// it).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, with [`TfliteError::BadMultiplier`] for an alpha
/// that is not finite, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::leaky_relu_params;
///
/// let p = leaky_relu_params(0.5, 0, 0.5, 0, -0.5)?;
/// assert!(p.alpha_negative);
/// assert_eq!(p.alpha_multiplier.shift(), 0); // |−0.5|
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn leaky_relu_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    alpha: f32,
) -> Result<LeakyReluParams, TfliteError> {
    check_scale("LEAKY_RELU's input scale", input_scale)?;
    check_scale("LEAKY_RELU's output scale", output_scale)?;
    let alpha_real = f64::from(input_scale * alpha / output_scale);
    let params = LeakyReluParams {
        input_zero_point,
        output_zero_point,
        identity_multiplier: quantize_multiplier(f64::from(input_scale / output_scale))?,
        alpha_multiplier: quantize_multiplier(alpha_real.abs())?,
        alpha_negative: alpha_real < 0.0,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &LeakyReluParams) -> Result<(), TfliteError> {
    check_int8("LEAKY_RELU's input zero point", p.input_zero_point)?;
    check_int8("LEAKY_RELU's output zero point", p.output_zero_point)
}

/// TFLite's int8 `LEAKY_RELU` (TFLite Micro's `QuantizeLeakyRelu`): for
/// each input, with `v = x − zp_in`,
/// `y = zp_out + multiply(v, M_identity)` where `v ≥ 0`, else
/// `zp_out ± multiply(v, M_alpha)` (the sign of alpha), clamped to int8,
/// each multiply TFLite Micro's double rounding.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or `params` break [`leaky_relu_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{leaky_relu_int8, leaky_relu_params};
///
/// let params = leaky_relu_params(0.5, 0, 0.5, 0, 0.25)?;
/// let mut out = [0i8; 4];
/// leaky_relu_int8(&[-8, -2, 0, 9], &params, &mut out)?;
/// assert_eq!(out, [-2, -1, 0, 9]); // −2 · 0.25 = −0.5 rounds away from 0
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn leaky_relu_int8(
    input: &[i8],
    params: &LeakyReluParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check(params)?;
    let identity = Scale::new(params.identity_multiplier);
    let alpha = Scale::new(params.alpha_multiplier);
    for (y, &x) in output.iter_mut().zip(input) {
        let v = i32::from(x) - params.input_zero_point;
        let scaled = if v >= 0 {
            identity.apply(v, Rounding::Double)
        } else {
            let s = alpha.apply(v, Rounding::Double);
            if params.alpha_negative {
                s.wrapping_neg()
            } else {
                s
            }
        };
        *y = scaled
            .saturating_add(params.output_zero_point)
            .clamp(-128, 127) as i8;
    }
    Ok(())
}

/// `LEAKY_RELU`'s options table in the schema's `BuiltinOptions` union.
const LEAKY_RELU_OPTIONS: u8 = 75;

/// Reads `LEAKY_RELU`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<LeakyReluOptions, TfliteError> {
    let alpha = match r.table(LEAKY_RELU_OPTIONS, "LeakyReluOptions")? {
        Some(t) => t.f32(0, 0.0).map_err(r.fault("alpha"))?,
        None => 0.0,
    };
    Ok(LeakyReluOptions { alpha })
}

/// `LEAKY_RELU`'s row in `OPS`: checks the operator (an int8 activation in
/// and out) and prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<UnaryStep<i8, LeakyReluParams>> + From<MapF32Step<LeakyReluF32>>,
>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        let f = LeakyReluF32 {
            alpha: options.alpha,
        };
        return prepare_map_f32(c, f).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    let params = leaky_relu_params(si, zi, so, zo, options.alpha)?;
    Ok(S::from(operands.step(params)))
}

impl crate::shared::elementwise::UnaryApply<i8> for LeakyReluParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        leaky_relu_int8(x, self, y)
    }
}

/// One value of TFLite's f32 `LEAKY_RELU`, as TFLite's
/// `reference_ops::LeakyRelu` computes it: `x > 0 ? x : x · alpha` (not a
/// max: `alpha` may be above 1 or below 0). `−0` gives `−0 · alpha`; a
/// NaN stays NaN.
///
/// ```
/// use shapecheck_tflite::leaky_relu_value;
///
/// assert_eq!(leaky_relu_value(2.0, 0.2), 2.0);
/// assert_eq!(leaky_relu_value(-2.0, 0.2), -0.4);
/// assert_eq!(leaky_relu_value(-2.0, 3.0), -6.0);
/// ```
pub fn leaky_relu_value(x: f32, alpha: f32) -> f32 {
    if x > 0.0 {
        x
    } else {
        x * alpha
    }
}

/// TFLite's f32 `LEAKY_RELU`, element by element ([`leaky_relu_value`]).
/// Fails, with `output` untouched, when `output` is not as long as
/// `input`.
///
/// ```
/// use shapecheck_tflite::leaky_relu_f32;
///
/// let mut out = [0f32; 3];
/// leaky_relu_f32(&[-1.0, 0.0, 3.0], 0.5, &mut out)?;
/// assert_eq!(out, [-0.5, 0.0, 3.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn leaky_relu_f32(input: &[f32], alpha: f32, output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, |x| leaky_relu_value(x, alpha))
}

/// `LEAKY_RELU`'s f32 function: [`leaky_relu_value`] with its `alpha`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct LeakyReluF32 {
    pub alpha: f32,
}

impl crate::shared::float_ops::MapF32Apply for LeakyReluF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        leaky_relu_value(x, self.alpha)
    }
}

impl crate::base::write_rust::WriteRust for LeakyReluF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(w, k, "LeakyReluF32", &[("alpha", &self.alpha)])
    }
}
