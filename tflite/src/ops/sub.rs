//! TFLite's int8 `SUB` on slices: two int8 tensors with their own scales
//! and zero points, broadcast as `ADD` broadcasts, as TFLite Micro's
//! `sub.cc` (`CalculateOpDataSub`) and `reference_ops::Sub` /
//! `BroadcastQuantSubSlow` compute it.

use crate::arith::quant::{
    check_int8, check_int8_clamp, check_scale, quantize_multiplier_smaller_than_one,
    QuantizedMultiplier, Rounding, Scale,
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

/// The bits each input is shifted left by before its rescaling (TFLite's
/// `left_shift` for int8).
const LEFT_SHIFT: u32 = 20;

/// `SubOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/sub_two.tflite")))?;
/// let Options::Sub(o) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `pot_scale_int16` (int16 models only; the schema's default is true)
    pub pot_scale_int16: bool,
}

/// An int8 `SUB`'s parameters, as TFLite Micro's `CalculateOpDataSub`
/// derives them ([`sub_params`]): each input less its zero point, shifted
/// left by 20 bits, scaled by its multiplier onto a common scale; the
/// difference scaled by the output multiplier, moved to the output's zero
/// point and clamped.
///
/// ```
/// use shapecheck_tflite::{sub_params, QuantizedMultiplier, SubParams};
///
/// const P: SubParams = SubParams {
///     input1_zero_point: 0,
///     input1_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0), // 0.5
///     input2_zero_point: 0,
///     input2_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
///     output_zero_point: 0,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -19), // 2^-20
///     output_min: -128,
///     output_max: 127,
/// };
/// assert_eq!(sub_params(1.0, 0, 1.0, 0, 2.0, 0, -128, 127)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubParams {
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
    /// `2 · max(input1_scale, input2_scale) / (2^20 · output_scale)`,
    /// shift ≤ 0
    pub output_multiplier: QuantizedMultiplier,
    /// the clamp's lower end, from the fused activation
    pub output_min: i32,
    /// the clamp's upper end, at least `output_min`, at most 127
    pub output_max: i32,
}

impl crate::base::write_rust::WriteRust for SubParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SubParams",
            &[
                ("input1_zero_point", &self.input1_zero_point),
                ("input1_multiplier", &self.input1_multiplier),
                ("input2_zero_point", &self.input2_zero_point),
                ("input2_multiplier", &self.input2_multiplier),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// TFLite Micro's `CalculateOpDataSub` for int8. Unlike `ADD`'s, its
/// arithmetic is in `f32`: `twice_max = 2 · max(input1_scale,
/// input2_scale)`, the input multipliers `input_scale / twice_max` and the
/// output multiplier `twice_max / (2^20 · output_scale)` are each divided
/// in `f32`, then widened to `f64` and quantized as
/// `QuantizeMultiplierSmallerThanOneExp` does.
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, or a multiplier not below 1 (an output scale
/// under `2 · max input scale / 2^20`), and with
/// [`TfliteError::KernelParam`] for a zero point outside [−128, 127] or a
/// clamp that is empty or not within [−128, 127].
///
/// ```
/// use shapecheck_tflite::{sub_params, TfliteError};
///
/// let p = sub_params(0.5, 0, 0.25, 0, 1.0, 0, -128, 127)?;
/// assert_eq!(p.input2_multiplier.shift(), -1); // 0.25
/// assert!(matches!(sub_params(0.5, 0, 0.5, 0, 1e-9, 0, -128, 127), Err(TfliteError::KernelScale { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn sub_params(
    input1_scale: f32,
    input1_zero_point: i32,
    input2_scale: f32,
    input2_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<SubParams, TfliteError> {
    check_scale("SUB's first input scale", input1_scale)?;
    check_scale("SUB's second input scale", input2_scale)?;
    check_scale("SUB's output scale", output_scale)?;
    let twice_max = 2.0 * input1_scale.max(input2_scale);
    let params = SubParams {
        input1_zero_point,
        input1_multiplier: quantize_multiplier_smaller_than_one(
            "SUB's first input multiplier",
            f64::from(input1_scale / twice_max),
        )?,
        input2_zero_point,
        input2_multiplier: quantize_multiplier_smaller_than_one(
            "SUB's second input multiplier",
            f64::from(input2_scale / twice_max),
        )?,
        output_zero_point,
        output_multiplier: quantize_multiplier_smaller_than_one(
            "SUB's output multiplier 2 · max input scale / (2^20 · output scale)",
            f64::from(twice_max / ((1u32 << LEFT_SHIFT) as f32 * output_scale)),
        )?,
        output_min,
        output_max,
    };
    check(&params)?;
    Ok(params)
}

fn check(p: &SubParams) -> Result<(), TfliteError> {
    check_int8("SUB's first input zero point", p.input1_zero_point)?;
    check_int8("SUB's second input zero point", p.input2_zero_point)?;
    check_int8("SUB's output zero point", p.output_zero_point)?;
    check_int8_clamp("SUB's output_min", p.output_min, p.output_max)?;
    for (what, m) in [
        ("SUB's first input multiplier's shift", p.input1_multiplier),
        ("SUB's second input multiplier's shift", p.input2_multiplier),
        ("SUB's output multiplier's shift", p.output_multiplier),
    ] {
        if m.shift() > 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(m.shift()),
                rule: "SUB's multipliers are below 1: their shifts are at most 0",
            });
        }
    }
    Ok(())
}

/// TFLite's int8 `SUB` (TFLite Micro's `SubElementwise` and
/// `BroadcastQuantSubSlow`): for each output element and its inputs `x1`,
/// `x2` (broadcast as [`broadcast_shape`](crate::broadcast_shape) says),
/// `s_i = multiply((x_i − zp_i) · 2^20, M_i)`, then
/// `y = multiply(s_1 − s_2, M_out) + zp_out` clamped to
/// `[output_min, output_max]`, every multiply TFLite Micro's double
/// rounding.
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, a length is not its shape's count, or `params`
/// break [`sub_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{sub_int8, sub_params};
///
/// let params = sub_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?;
/// let mut out = [0i8; 3];
/// sub_int8(&[10, 4, -6], &[3], &[2], &[1], &params, &mut out)?;
/// assert_eq!(out, [4, 1, -4]); // (x − 2) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn sub_int8<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &SubParams,
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
        // zero points in int8: each shifted input is below 2^28 in
        // magnitude, each scaled one at most half of that
        let shifted1 = (i32::from(x1) - p.input1_zero_point) << LEFT_SHIFT;
        let shifted2 = (i32::from(x2) - p.input2_zero_point) << LEFT_SHIFT;
        let scaled1 = m1.apply(shifted1, Rounding::Double);
        let scaled2 = m2.apply(shifted2, Rounding::Double);
        let raw = mo
            .apply(scaled1 - scaled2, Rounding::Double)
            .saturating_add(p.output_zero_point);
        raw.clamp(p.output_min, p.output_max) as i8
    })
}

/// `SUB`'s options table in the schema's `BuiltinOptions` union.
const SUB_OPTIONS: u8 = 28;

/// Reads `SUB`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<SubOptions, TfliteError> {
    let (act, pot) = match r.table(SUB_OPTIONS, "SubOptions")? {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
            // the schema's default is true
            t.u8(1, 1).map_err(r.fault("pot_scale_int16"))? != 0,
        ),
        None => (0, true),
    };
    Ok(SubOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        pot_scale_int16: pot,
    })
}

/// `SUB`'s row in `OPS`: checks the operator (two int8 operands, each an
/// activation or a constant, broadcast) and prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<BinaryStep<'m, i8, SubParams>> + From<BinaryF32Step<'m, SubF32>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    let a = c.input(0, "input1")?;
    if a.dtype() == TensorType::Float32 {
        return prepare_binary_f32(c, shape, SubF32, options.fused_activation).map(S::from);
    }
    let operands = check_binary(c, shape)?;
    let [(s1, z1), (s2, z2), (so, zo)] = operands.quant;
    let (lo, hi) = c.clamp(options.fused_activation, so, zo)?;
    let params = sub_params(s1, z1, s2, z2, so, zo, lo, hi)?;
    Ok(S::from(operands.step(params)))
}

/// TFLite's f32 `SUB` (TFLite Micro's `reference_ops::Sub` with its
/// broadcast): `x1 − x2` in f32 for each output element and its two
/// inputs, broadcast as [`broadcast_shape`](crate::broadcast_shape) says,
/// then clamped to `[output_min, output_max]` as
/// [`add_f32`](crate::add_f32) clamps. Fails, with `output` untouched, as
/// `add_f32` does.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, sub_f32, Activation};
///
/// let (lo, hi) = activation_range_f32(Activation::None)?;
/// let mut out = [0f32; 3];
/// sub_f32(&[1.0, 2.0, 3.0], &[3], &[0.5], &[1], lo, hi, &mut out)?;
/// assert_eq!(out, [0.5, 1.5, 2.5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn sub_f32<A, B>(
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
        &SubF32,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
}

/// `SUB`'s f32 function: `x1 − x2`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct SubF32;

impl crate::shared::float_ops::BinaryF32Apply for SubF32 {
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        x1 - x2
    }
}

impl crate::base::write_rust::WriteRust for SubF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "SubF32")
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for SubParams {
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
        sub_int8(a, a_dims, b, b_dims, self, y)
    }
}
