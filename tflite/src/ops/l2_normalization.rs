//! TFLite's int8 `L2_NORMALIZATION` over the last axis
//! (`tf.math.l2_normalize`), as TFLite Micro computes it
//! (`reference_integer_ops::L2Normalization`): each row divided by its
//! L2 norm in fixed point, written in steps of 1/128 from 0 (the output
//! quantization the converter gives, which TFLite Micro assumes without
//! checking); and its f32 kernel ([`l2_normalization_f32`]), TFLite
//! Micro's float one.

use crate::arith::quant::{
    inv_sqrt_multiplier, rounding_divide_by_pot, saturating_rounding_doubling_high_mul,
    QuantizedMultiplier,
};
use crate::arith::window::length;
use crate::format::error::{OperandProblem, TfliteError};
use crate::format::model::OptionsReader;
use crate::format::types::{Activation, TensorType};
use crate::kernel::checker::{dim, split, Checker};
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::shared::float_ops::{check_rows_f32, prepare_rows_f32};
use core::ops::Range;

/// `L2NormOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/l2_normalization.tflite")))?;
/// let Options::L2Norm(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct L2NormOptions {
    /// `fused_activation_function` (TFLite Micro runs `NONE` only)
    pub fused_activation: Activation,
}

/// `L2NormOptions`' type value in the schema's `BuiltinOptions` union.
const L2_NORM_OPTIONS: u8 = 12;

/// Reads `L2_NORMALIZATION`'s options (its row's `read_options`, called
/// by [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<L2NormOptions, TfliteError> {
    let act = match r.table(L2_NORM_OPTIONS, "L2NormOptions")? {
        Some(t) => t.i8(0, 0).map_err(r.fault("fused_activation_function"))?,
        None => 0,
    };
    Ok(L2NormOptions {
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

/// An int8 L2 normalization's parameters ([`l2_normalization_params`]).
///
/// ```
/// use shapecheck_tflite::L2NormalizationParams;
///
/// const P: L2NormalizationParams = L2NormalizationParams { input_zero_point: -2 };
/// assert_eq!(P.input_zero_point, -2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2NormalizationParams {
    /// the input's zero point
    pub input_zero_point: i32,
}

impl crate::base::write_rust::WriteRust for L2NormalizationParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "L2NormalizationParams",
            &[("input_zero_point", &self.input_zero_point)],
        )
    }
}

/// The parameters of an int8 `L2_NORMALIZATION`: the input's zero point
/// alone (the input's scale cancels; the output is in 1/128 from 0).
/// Fails with [`TfliteError::KernelParam`] for a zero point outside int8.
///
/// ```
/// use shapecheck_tflite::l2_normalization_params;
///
/// assert_eq!(l2_normalization_params(-2)?.input_zero_point, -2);
/// assert!(l2_normalization_params(200).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn l2_normalization_params(
    input_zero_point: i32,
) -> Result<L2NormalizationParams, TfliteError> {
    if !(-128..=127).contains(&input_zero_point) {
        return Err(TfliteError::KernelParam {
            what: "L2 normalization's input zero point",
            value: i64::from(input_zero_point),
            rule: "it must be an int8",
        });
    }
    Ok(L2NormalizationParams { input_zero_point })
}

/// TFLite's int8 `L2_NORMALIZATION` over rows of `depth` (the last axis),
/// as TFLite Micro computes it: for each row, `s = Σ (x − zp)²` in `i32`;
/// `1/√s` as a multiplier and shift (TFLite's
/// `GetInvSqrtQuantizedMultiplierExp`: five Newton–Raphson steps in
/// Q3.28; a sum of 0 or 1 counts as 1); each output is `(x − zp)` times
/// it, shifted 7 more bits left (1/128 steps), with gemmlowp's two
/// roundings, clamped to int8.
///
/// Fails, with `output` untouched, when the input is not whole rows of
/// `depth` or `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::{l2_normalization_int8, l2_normalization_params};
///
/// let params = l2_normalization_params(0)?;
/// let mut out = [0i8; 2];
/// // (3, 4) / 5 = (0.6, 0.8): 77 and 102 of 128
/// l2_normalization_int8(&[3, 4], 2, &params, &mut out)?;
/// assert_eq!(out, [77, 102]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn l2_normalization_int8(
    input: &[i8],
    depth: usize,
    params: &L2NormalizationParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    length("output", input.len(), output.len())?;
    if depth == 0 {
        return if input.is_empty() {
            Ok(())
        } else {
            Err(TfliteError::KernelParam {
                what: "L2 normalization's depth",
                value: 0,
                rule: "it must be at least 1 for a non-empty input",
            })
        };
    }
    if !input.len().is_multiple_of(depth) {
        return Err(TfliteError::Length {
            what: "input",
            expected: (input.len() / depth + 1) * depth,
            actual: input.len(),
        });
    }
    let zp = params.input_zero_point;
    for (row, outs) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let sum = row.iter().fold(0i32, |acc, &x| {
            let d = i32::from(x).wrapping_sub(zp);
            acc.wrapping_add(d.wrapping_mul(d))
        });
        let (multiplier, shift) = inv_sqrt_multiplier(sum);
        // TFLite's MultiplyByQuantizedMultiplier with double rounding
        let shift = shift + 7;
        let (left, right) = (shift.max(0) as u32, (-shift).max(0) as u32);
        for (&x, out) in row.iter().zip(outs.iter_mut()) {
            let d = i32::from(x).wrapping_sub(zp);
            let y = rounding_divide_by_pot(
                saturating_rounding_doubling_high_mul(d.wrapping_shl(left), multiplier),
                right,
            );
            *out = y.clamp(-128, 127) as i8;
        }
    }
    Ok(())
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `L2_NORMALIZATION`'s interpreter step: its operands' places in the
/// int8 arena, its rows' length and its parameters, checked once by
/// [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct L2NormalizationStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
    pub params: L2NormalizationParams,
}

impl crate::base::write_rust::WriteRust for L2NormalizationStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "L2NormalizationStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("depth", &self.depth),
                ("params", &self.params),
            ],
        )
    }
}

impl L2NormalizationStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let (x, y) = split(b.int8, &self.input, &self.output).ok_or(overlap)?;
        l2_normalization_int8(x, self.depth, &self.params, y)
    }
}

// The f32 L2_NORMALIZATION: TFLite Micro's float kernel
// (`reference_ops::L2Normalization` over f32).

/// The least L2 norm TFLite's f32 kernel divides by (its `epsilon`,
/// `1e-6` as an f32): a row of smaller norm is divided by this instead.
///
/// ```
/// use shapecheck_tflite::{l2_normalization_f32, L2_NORMALIZATION_EPSILON};
///
/// let mut out = [0f32; 2];
/// l2_normalization_f32(&[1e-7, 0.0], 2, &mut out)?;
/// assert_eq!(out[0], 1e-7 / L2_NORMALIZATION_EPSILON); // not 1
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub const L2_NORMALIZATION_EPSILON: f32 = 1e-6;

/// TFLite's f32 `L2_NORMALIZATION` over the last axis (`depth` values a
/// row), as TFLite Micro's `reference_ops::L2Normalization` computes it in
/// f32: for each row, the squares `x_c · x_c` added from `+0` in order,
/// their square root (`sqrtf`, correctly rounded), raised to
/// [`L2_NORMALIZATION_EPSILON`] if below it (`std::max`: a NaN norm stays
/// NaN), and each output `x_c / norm`. Plain arithmetic: TFLite Micro's
/// outputs to the bit.
///
/// Fails, with `output` untouched, when `output` is not as long as
/// `input` or the input is not whole rows of `depth`.
///
/// ```
/// use shapecheck_tflite::l2_normalization_f32;
///
/// let mut out = [0f32; 4];
/// l2_normalization_f32(&[3.0, -4.0, 0.0, 0.0], 2, &mut out)?;
/// assert_eq!(out, [0.6, -0.8, 0.0, 0.0]); // a zero row stays 0 (0 / 1e-6)
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn l2_normalization_f32(
    input: &[f32],
    depth: usize,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check_rows_f32("L2 normalization's depth", input.len(), depth, output.len())?;
    if input.is_empty() {
        return Ok(());
    }
    for (x, y) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let mut squared = 0.0f32;
        for &v in x {
            squared += v * v;
        }
        let root = crate::arith::float_math::sqrt(squared);
        // std::max(root, epsilon)
        let norm = if root < L2_NORMALIZATION_EPSILON {
            L2_NORMALIZATION_EPSILON
        } else {
            root
        };
        for (o, &v) in y.iter_mut().zip(x) {
            *o = v / norm;
        }
    }
    Ok(())
}

/// `L2_NORMALIZATION`'s f32 step: its operands' places and its rows'
/// length.
#[derive(Clone)]
#[doc(hidden)]
pub struct L2NormalizationF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
}

impl crate::base::write_rust::WriteRust for L2NormalizationF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "L2NormalizationF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("depth", &self.depth),
            ],
        )
    }
}

impl L2NormalizationF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        l2_normalization_f32(x, self.depth, y)
    }
}

/// `L2_NORMALIZATION`'s row's `prepare`, f32 or int8 over the last axis: no
/// fused activation (TFLite Micro runs none), the output quantized as
/// 1/128 from 0 (what the kernel writes: TFLite Micro assumes it, this
/// checks it).
pub(crate) fn prepare<'m, S: From<L2NormalizationStep> + From<L2NormalizationF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if options.fused_activation != Activation::None {
        return Err(c.unsupported_option("fused activation", options.fused_activation.name()));
    }
    let output = &c.output;
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Float32 {
        let rows = prepare_rows_f32(c)?;
        return Ok(S::from(L2NormalizationF32Step {
            input: rows.input,
            output: rows.output,
            depth: rows.depth,
        }));
    }
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int8)?;
    let (_, input_zero_point) = c.per_tensor("input", &input)?;
    if c.per_tensor("output", output)? != (1.0 / 128.0, 0) {
        return Err(c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not scale 1/128 and zero point 0 (what TFLite Micro's int8 L2_NORMALIZATION writes)",
            ),
        ));
    }
    let rank = input.shape().len();
    let depth = if rank == 0 { 1 } else { dim(&input, rank - 1) };
    Ok(S::from(L2NormalizationStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        depth,
        params: l2_normalization_params(input_zero_point)?,
    }))
}
