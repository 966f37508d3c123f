//! TFLite's int8 and int16 `MUL` on slices: two tensors with their own
//! scales and zero points, broadcast as `ADD` broadcasts, as TFLite
//! Micro's `mul.cc` and `reference_integer_ops::Mul` / `BroadcastMul6DSlow`
//! compute it, one kernel generic over the element type.

use crate::arith::quant::{
    check_int16, check_int8, check_int8_clamp, check_scale, quantize_multiplier,
    QuantizedMultiplier, Rounding, Scale,
};
use crate::format::error::TfliteError;
use crate::format::model::OptionsReader;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::broadcast::{broadcast_binary, broadcast_binary_prechecked, Lane, Width};
use crate::shared::elementwise::{check_binary, check_binary_int16, BinaryStep};
use crate::shared::float_ops::{binary_f32, prepare_binary_f32, BinaryF32Step};

/// `MulOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/mul_broadcast_const.tflite")))?;
/// let Options::Mul(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MulOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

/// An int8 or int16 `MUL`'s parameters, as TFLite Micro's
/// `CalculateOpDataMul` derives them ([`mul_params`],
/// [`mul_params_int16`]): the product of the two inputs less their
/// zero points, scaled by `input1_scale · input2_scale / output_scale`,
/// moved to the output's zero point and clamped.
///
/// ```
/// use shapecheck_tflite::{mul_params, MulParams, QuantizedMultiplier};
///
/// const P: MulParams = MulParams {
///     input1_zero_point: 0,
///     input2_zero_point: 0,
///     output_zero_point: 0,
///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0), // 0.5
///     output_min: -128,
///     output_max: 127,
/// };
/// assert_eq!(mul_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127)?, P);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MulParams {
    /// the first input's zero point, in [−128, 127] (int16: 0)
    pub input1_zero_point: i32,
    /// the second input's zero point, in [−128, 127] (int16: 0)
    pub input2_zero_point: i32,
    /// the output's zero point, in [−128, 127] (int16: 0)
    pub output_zero_point: i32,
    /// `input1_scale · input2_scale / output_scale`
    pub output_multiplier: QuantizedMultiplier,
    /// the clamp's lower end, from the fused activation
    /// ([`activation_range_int8`](crate::activation_range_int8))
    pub output_min: i32,
    /// the clamp's upper end, at least `output_min`, at most 127 (int16:
    /// 32767)
    pub output_max: i32,
}

impl crate::base::write_rust::WriteRust for MulParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "MulParams",
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

impl MulParams {
    /// The rules of an int8 `MUL`'s parameters, which [`mul_int8`] checks
    /// and [`mul_int8_prechecked`] assumes: each zero point and clamp end
    /// in [−128, 127], the clamp not empty. A `const fn`, so that a layer
    /// built in a `const` (`shapecheck`'s `MulInt8::new`) is checked when
    /// the program is built.
    ///
    /// ```
    /// use shapecheck_tflite::{mul_params, MulParams};
    ///
    /// let p = mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?;
    /// assert!(p.check().is_ok());
    /// assert!(MulParams { output_zero_point: 128, ..p }.check().is_err());
    /// assert!(MulParams { output_min: 5, output_max: 4, ..p }.check().is_err());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub const fn check(&self) -> Result<(), TfliteError> {
        let zero_points = [
            ("MUL's first input zero point", self.input1_zero_point),
            ("MUL's second input zero point", self.input2_zero_point),
            ("MUL's output zero point", self.output_zero_point),
        ];
        // a `for` loop is not `const`: the slice taken apart, head by head
        let mut rest: &[(&'static str, i32)] = &zero_points;
        while let [(what, zero_point), tail @ ..] = rest {
            if let Err(e) = check_int8(what, *zero_point) {
                return Err(e);
            }
            rest = tail;
        }
        check_int8_clamp("MUL's output_min", self.output_min, self.output_max)
    }
}

/// TFLite Micro's `CalculateOpDataMul` for int8: the output multiplier
/// `input1_scale · input2_scale / output_scale`, each widened to `f64`,
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier).
/// `output_min` and `output_max` are the fused activation's clamp.
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a zero
/// point outside [−128, 127] or a clamp that is empty or not within
/// [−128, 127].
///
/// ```
/// use shapecheck_tflite::{mul_params, TfliteError};
///
/// let p = mul_params(0.5, 3, 0.25, 68, 0.0625, -5, -128, 127)?;
/// assert_eq!((p.output_multiplier.multiplier(), p.output_multiplier.shift()), (1 << 30, 2)); // 2 = 0.5 · 2^2
/// assert!(matches!(mul_params(0.0, 0, 1.0, 0, 1.0, 0, -128, 127), Err(TfliteError::KernelScale { .. })));
/// assert!(matches!(mul_params(1.0, 0, 1.0, 0, 1.0, 0, 5, 4), Err(TfliteError::KernelParam { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn mul_params(
    input1_scale: f32,
    input1_zero_point: i32,
    input2_scale: f32,
    input2_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    output_min: i32,
    output_max: i32,
) -> Result<MulParams, TfliteError> {
    derive_params(
        Width::Int8,
        (input1_scale, input1_zero_point),
        (input2_scale, input2_zero_point),
        (output_scale, output_zero_point),
        (output_min, output_max),
    )
}

/// TFLite Micro's `CalculateOpDataMul` for int16 (TFLite's 16x8 mode):
/// [`mul_params`] with every zero point 0 (TFLite Micro's check), the
/// clamp inside [−32768, 32767].
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0, and with [`TfliteError::KernelParam`] for a
/// clamp that is empty or not within [−32768, 32767].
///
/// ```
/// use shapecheck_tflite::mul_params_int16;
///
/// let p = mul_params_int16(0.5, 0.25, 0.0625, -32768, 32767)?;
/// assert_eq!((p.output_multiplier.multiplier(), p.output_multiplier.shift()), (1 << 30, 2)); // 2 = 0.5 · 2^2
/// assert!(mul_params_int16(0.5, 0.25, 0.0625, -40000, 32767).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mul_params_int16(
    input1_scale: f32,
    input2_scale: f32,
    output_scale: f32,
    output_min: i32,
    output_max: i32,
) -> Result<MulParams, TfliteError> {
    derive_params(
        Width::Int16,
        (input1_scale, 0),
        (input2_scale, 0),
        (output_scale, 0),
        (output_min, output_max),
    )
}

/// `CalculateOpDataMul` for `width`: each operand's scale and zero point,
/// and the clamp.
fn derive_params(
    width: Width,
    (input1_scale, input1_zero_point): (f32, i32),
    (input2_scale, input2_zero_point): (f32, i32),
    (output_scale, output_zero_point): (f32, i32),
    (output_min, output_max): (i32, i32),
) -> Result<MulParams, TfliteError> {
    check_scale("MUL's first input scale", input1_scale)?;
    check_scale("MUL's second input scale", input2_scale)?;
    check_scale("MUL's output scale", output_scale)?;
    let params = MulParams {
        input1_zero_point,
        input2_zero_point,
        output_zero_point,
        output_multiplier: quantize_multiplier(
            f64::from(input1_scale) * f64::from(input2_scale) / f64::from(output_scale),
        )?,
        output_min,
        output_max,
    };
    check(&params, width)?;
    Ok(params)
}

/// The zero points and clamp of a `MUL` of `width`: for int8 each in
/// [−128, 127]; for int16 each zero point 0 (so a product of two inputs
/// fits `i32`) and each clamp end in [−32768, 32767]; the clamp not empty.
fn check(p: &MulParams, width: Width) -> Result<(), TfliteError> {
    match width {
        Width::Int8 => p.check(),
        Width::Int16 => {
            for (what, zero_point) in [
                ("MUL's first input zero point", p.input1_zero_point),
                ("MUL's second input zero point", p.input2_zero_point),
                ("MUL's output zero point", p.output_zero_point),
            ] {
                if zero_point != 0 {
                    return Err(TfliteError::KernelParam {
                        what,
                        value: i64::from(zero_point),
                        rule: "an int16 zero point is 0",
                    });
                }
            }
            check_int16("MUL's output_min", p.output_min)?;
            check_int16("MUL's output_max", p.output_max)?;
            if p.output_min > p.output_max {
                return Err(TfliteError::KernelParam {
                    what: "MUL's output_min",
                    value: i64::from(p.output_min),
                    rule: "the clamp must not be empty: output_min ≤ output_max",
                });
            }
            Ok(())
        }
    }
}

/// TFLite's int8 `MUL` (TFLite Micro's `MulElementwise` and
/// `BroadcastMul6DSlow`): for each output element and its two inputs
/// `x1`, `x2` (broadcast as [`broadcast_shape`](crate::broadcast_shape)
/// says, all row-major), `y = multiply((x1 − zp1) · (x2 − zp2), M) + zp_out`
/// clamped to `[output_min, output_max]`, the multiply TFLite Micro's
/// double rounding. Either input may be a slice or a constant read in
/// place from a model ([`Values`]).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, a length is not its shape's count, or `params`
/// break [`mul_params`]'s rules.
///
/// ```
/// use shapecheck_tflite::{mul_int8, mul_params};
///
/// let params = mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?;
/// let mut out = [0i8; 4];
/// // [2, 2] times a [2] row: x · y exactly (0.5 · 0.5 / 0.25 = 1)
/// mul_int8(&[1, 2, 3, -4], &[2, 2], &[5, -6], &[2], &params, &mut out)?;
/// assert_eq!(out, [5, -12, 15, 24]);
/// assert!(mul_int8(&[1, 2], &[2], &[1, 2, 3], &[3], &params, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mul_int8<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &MulParams,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    mul_with(a, a_shape, b, b_shape, params, output)
}

/// TFLite's int16 `MUL` (TFLite Micro's `reference_integer_ops::Mul` and
/// `BroadcastMul6DSlow` on int16, TFLite's 16x8 mode): [`mul_int8`]'s
/// arithmetic on int16 values, every zero point 0, the clamp inside int16
/// ([`mul_params_int16`]).
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, a length is not its shape's count, or `params`
/// break [`mul_params_int16`]'s rules.
///
/// ```
/// use shapecheck_tflite::{mul_int16, mul_params_int16};
///
/// // 2^-8 · 2^-8 / 2^-12 = 2^-4: the product over 16
/// let params = mul_params_int16(1.0 / 256.0, 1.0 / 256.0, 1.0 / 4096.0, -32768, 32767)?;
/// let mut out = [0i16; 4];
/// // [2, 2] times a [2] row
/// mul_int16(&[100, 200, 300, -400], &[2, 2], &[50, -6], &[2], &params, &mut out)?;
/// assert_eq!(out, [313, -75, 938, 150]);
/// assert!(mul_int16(&[1, 2], &[2], &[1, 2, 3], &[3], &params, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mul_int16<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &MulParams,
    output: &mut [i16],
) -> Result<(), TfliteError>
where
    A: Values<i16> + ?Sized,
    B: Values<i16> + ?Sized,
{
    mul_with(a, a_shape, b, b_shape, params, output)
}

/// [`mul_int8`] and [`mul_int16`]: the operands of type `T` through the
/// one broadcasting loop, `T::WIDTH`'s checks. With the zero points
/// checked, each factor is within ±255 (int8) or ±2^15 (int16): the
/// product fits `i32`.
fn mul_with<T, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &MulParams,
    output: &mut [T],
) -> Result<(), TfliteError>
where
    T: Lane,
    A: Values<T> + ?Sized,
    B: Values<T> + ?Sized,
{
    check(params, T::WIDTH)?;
    broadcast_binary(a, a_shape, b, b_shape, output, multiply(params))
}

/// The product of two operands of a `MUL` of `params`. With the zero
/// points checked, each factor is within ±255 (int8) or ±2^15 (int16):
/// the product fits `i32`; on unchecked ones it wraps, never panics.
fn multiply<T: Lane>(params: &MulParams) -> impl Fn(T, T) -> T {
    let p = *params;
    let m = Scale::new(p.output_multiplier);
    move |x1: T, x2: T| {
        let product = x1
            .into()
            .wrapping_sub(p.input1_zero_point)
            .wrapping_mul(x2.into().wrapping_sub(p.input2_zero_point));
        let raw = m
            .apply(product, Rounding::Double)
            .saturating_add(p.output_zero_point);
        // the clamp inside T (checked); max before min, so an empty
        // clamp cannot panic
        T::narrow(raw.max(p.output_min).min(p.output_max))
    }
}

/// [`mul_int8`] without its checks, for a caller that has made them hold
/// already (the typed layer of `shapecheck`, whose shapes are types and
/// whose parameters passed [`MulParams::check`] when the layer was
/// built): the shapes broadcast, in at most 6 dims, and the lengths are
/// theirs. On operands that break this, what it writes is unspecified,
/// but it never panics and never writes outside `output` (shapes that do
/// not broadcast: nothing).
///
/// ```
/// use shapecheck_tflite::{mul_int8_prechecked, mul_params};
///
/// let params = mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?;
/// let mut out = [0i8; 4];
/// mul_int8_prechecked(&[1, 2, 3, -4], &[2, 2], &[5, -6], &[2], &params, &mut out);
/// assert_eq!(out, [5, -12, 15, 24]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mul_int8_prechecked<A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    params: &MulParams,
    output: &mut [i8],
) where
    A: Values<i8> + ?Sized,
    B: Values<i8> + ?Sized,
{
    broadcast_binary_prechecked(a, a_shape, b, b_shape, output, multiply(params));
}

/// `MUL`'s options table in the schema's `BuiltinOptions` union.
const MUL_OPTIONS: u8 = 21;

/// Reads `MUL`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<MulOptions, TfliteError> {
    let act = match r.table(MUL_OPTIONS, "MulOptions")? {
        Some(t) => t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
        None => 0,
    };
    Ok(MulOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

/// `MUL`'s row in `OPS`: checks the operator (two int8 or two int16
/// operands, each an activation or a constant, broadcast; f32 in
/// `float_ops`) and prepares its step.
pub(crate) fn prepare<
    'm,
    S: From<BinaryStep<'m, i8, MulParams>>
        + From<BinaryStep<'m, i16, MulParams>>
        + From<BinaryF32Step<'m, MulF32>>,
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
        return prepare_binary_f32(c, shape, MulF32, options.fused_activation).map(S::from);
    }
    if a.dtype() == TensorType::Int16 {
        let operands = check_binary_int16(c, shape)?;
        let [(s1, z1), (s2, z2), (so, zo)] = operands.quant;
        let (lo, hi) = c.clamp(options.fused_activation, so, zo)?;
        let params = derive_params(Width::Int16, (s1, z1), (s2, z2), (so, zo), (lo, hi))?;
        return Ok(S::from(operands.step(params)));
    }
    let operands = check_binary(c, shape)?;
    let [(s1, z1), (s2, z2), (so, zo)] = operands.quant;
    let (lo, hi) = c.clamp(options.fused_activation, so, zo)?;
    let params = mul_params(s1, z1, s2, z2, so, zo, lo, hi)?;
    Ok(S::from(operands.step(params)))
}

/// TFLite's f32 `MUL` (TFLite Micro's `reference_ops::Mul` with its
/// broadcast): `x1 · x2` in f32, broadcast and clamped as
/// [`sub_f32`](crate::sub_f32). Fails, with `output` untouched, as it does.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, mul_f32, Activation};
///
/// let (lo, hi) = activation_range_f32(Activation::Relu6)?;
/// let mut out = [0f32; 4];
/// // [2, 2] · [2, 1]: each row by its own factor, then clamped to [0, 6]
/// mul_f32(&[1.0, 2.0, 3.0, 4.0], &[2, 2], &[4.0, -1.0], &[2, 1], lo, hi, &mut out)?;
/// assert_eq!(out, [4.0, 6.0, 0.0, 0.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mul_f32<A, B>(
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
        &MulF32,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
}

/// `MUL`'s f32 function: `x1 · x2`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct MulF32;

impl crate::shared::float_ops::BinaryF32Apply for MulF32 {
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        x1 * x2
    }
}

impl crate::base::write_rust::WriteRust for MulF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "MulF32")
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for MulParams {
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
        mul_int8(a, a_dims, b, b_dims, self, y)
    }
}

impl crate::shared::elementwise::BinaryApply<i16> for MulParams {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i16],
    ) -> Result<(), TfliteError>
    where
        A: crate::format::values::Values<i16> + ?Sized,
        B: crate::format::values::Values<i16> + ?Sized,
    {
        mul_int16(a, a_dims, b, b_dims, self, y)
    }
}
