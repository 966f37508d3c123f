//! TFLite Micro's f32 kernels, shared by the ops that run in float: the
//! element-wise map of a unary op (`ELU`, `NEG`, `EXP`, `RSQRT`), the
//! broadcast binary ops (`ADD`, `SUB`, `MUL`, `SQUARED_DIFFERENCE`) with
//! TFLite's f32 activation clamp, and the f32 `MEAN` over a run of
//! contiguous axes; each with its interpreter step. A float op between
//! int8 ones (`DEQUANTIZE` → float op → `QUANTIZE`, a "float island") and
//! a float32 model run through these.
//!
//! The f32 paths of `ADD`, `SUB`, `MUL`, `SQUARED_DIFFERENCE` and `RSQRT`
//! are here as functions their op's module calls from its `prepare` for
//! an f32 input ([`prepare_binary_f32`], [`prepare_rsqrt_f32`]);
//! `MEAN`'s, [`prepare_mean_f32`], waits for `MEAN`'s rewrite for any
//! axes to call it.

use crate::add::broadcast_binary;
use crate::error::{OperandProblem, TfliteError};
use crate::fully_connected::activation_range_f32;
use crate::interpreter::{split, split2, Buffers, Checker, Source, Step};
use crate::ops::{shape_of, OpShape};
use crate::quant::QuantizedMultiplier;
use crate::types::{Activation, TensorType};
use crate::values::Values;
use core::ops::Range;

/// TFLite's `ActivationFunctionWithMinMax` for f32, as its C++ computes
/// it: `std::min(std::max(x, lo), hi)`, where `std::max(x, lo)` is
/// `x < lo ? lo : x`, so a NaN `x` stays NaN and `−0` stays `−0` against a
/// bound of `+0`.
#[inline(always)]
pub(crate) fn clamp_f32(x: f32, lo: f32, hi: f32) -> f32 {
    let y = if x < lo { lo } else { x };
    if hi < y {
        hi
    } else {
        y
    }
}

/// The f32 binary ops, each as TFLite's reference kernel computes one
/// element (in f32, one rounding each; `SQUARED_DIFFERENCE` rounds the
/// difference, then its square).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum BinaryF32 {
    /// `x1 + x2`
    Add,
    /// `x1 − x2`
    Sub,
    /// `x1 · x2`
    Mul,
    /// `(x1 − x2)²`
    SquaredDifference,
}

impl crate::compiled::WriteRust for BinaryF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            BinaryF32::Add => crate::compiled::write_path(w, k, "BinaryF32::Add"),
            BinaryF32::Sub => crate::compiled::write_path(w, k, "BinaryF32::Sub"),
            BinaryF32::Mul => crate::compiled::write_path(w, k, "BinaryF32::Mul"),
            BinaryF32::SquaredDifference => {
                crate::compiled::write_path(w, k, "BinaryF32::SquaredDifference")
            }
        }
    }
}

impl BinaryF32 {
    #[inline(always)]
    fn apply(self, x1: f32, x2: f32) -> f32 {
        match self {
            BinaryF32::Add => x1 + x2,
            BinaryF32::Sub => x1 - x2,
            BinaryF32::Mul => x1 * x2,
            BinaryF32::SquaredDifference => {
                let d = x1 - x2;
                d * d
            }
        }
    }
}

/// The f32 binary kernel: `op` of each output element's two inputs,
/// broadcast as numpy broadcasts, then clamped to `[lo, hi]`
/// ([`clamp_f32`]). Fails, with `output` untouched, as
/// [`add_f32`](crate::add_f32) does.
pub(crate) fn binary_f32<A, B>(
    op: BinaryF32,
    (a, a_shape): (&A, &[usize]),
    (b, b_shape): (&B, &[usize]),
    (lo, hi): (f32, f32),
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    A: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    broadcast_binary(a, a_shape, b, b_shape, output, |x1, x2| {
        clamp_f32(op.apply(x1, x2), lo, hi)
    })
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
        BinaryF32::Sub,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
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
        BinaryF32::Mul,
        (a, a_shape),
        (b, b_shape),
        (output_min, output_max),
        output,
    )
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
        BinaryF32::SquaredDifference,
        (a, a_shape),
        (b, b_shape),
        (f32::NEG_INFINITY, f32::INFINITY),
        output,
    )
}

/// `f` of each element of `input`, into `output`: the loop of every
/// unary f32 kernel. Fails, with `output` untouched, when `output` is not
/// as long as `input`.
pub(crate) fn map_f32(
    input: &[f32],
    output: &mut [f32],
    f: impl Fn(f32) -> f32,
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    for (y, &x) in output.iter_mut().zip(input) {
        *y = f(x);
    }
    Ok(())
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
    1.0 / crate::float_math::sqrt(x)
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
    map_f32(input, output, rsqrt_value)
}

/// TFLite's f32 `MEAN` over one run of contiguous axes: the input seen as
/// `[outer, reduced, inner]` (the axes before, the reduced ones merged,
/// the axes after), the output as `[outer, inner]`. Each output is the
/// f32 sum of its `reduced` inputs in order (TFLite's `ReduceSumImpl`,
/// which walks the input in row-major order, starting from 0), divided
/// in f32 by `reduced` as an f32 (`temp_sum / static_cast<float>(count)`
/// of TFLite's reference `Mean`); with `reduced` 0, every output is 0.
///
/// Fails, with `output` untouched, when `input` is not
/// `outer · reduced · inner` long, or `output` not `outer · inner`.
///
/// ```
/// use shapecheck_tflite::mean_f32;
///
/// // [1, 2, 2, 3] over axes 1 and 2: outer 1, reduced 4, inner 3
/// let x: Vec<f32> = (0..12).map(|v| v as f32).collect();
/// let mut out = [0f32; 3];
/// mean_f32(&x, (1, 4, 3), &mut out)?;
/// assert_eq!(out, [4.5, 5.5, 6.5]); // (0 + 3 + 6 + 9) / 4, ...
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mean_f32(
    input: &[f32],
    (outer, reduced, inner): (usize, usize, usize),
    output: &mut [f32],
) -> Result<(), TfliteError> {
    let expected_output = outer.checked_mul(inner);
    let expected_input = expected_output.and_then(|n| n.checked_mul(reduced));
    if expected_input != Some(input.len()) {
        return Err(TfliteError::Length {
            what: "input",
            expected: expected_input.unwrap_or(usize::MAX),
            actual: input.len(),
        });
    }
    if expected_output != Some(output.len()) {
        return Err(TfliteError::Length {
            what: "output",
            expected: expected_output.unwrap_or(usize::MAX),
            actual: output.len(),
        });
    }
    if output.is_empty() {
        return Ok(());
    }
    if reduced == 0 {
        output.fill(0.0);
        return Ok(());
    }
    let count = reduced as f32;
    // inner ≥ 1 and reduced ≥ 1: the output is not empty
    for (block, outs) in input
        .chunks_exact(reduced * inner)
        .zip(output.chunks_exact_mut(inner))
    {
        for (i, out) in outs.iter_mut().enumerate() {
            let sum = block
                .iter()
                .skip(i)
                .step_by(inner)
                .fold(0.0f32, |sum, &x| sum + x);
            *out = sum / count;
        }
    }
    Ok(())
}

// The interpreter's steps of the f32 ops: each `prepare_*` checks the
// operator's operands once and gives the step; the step's `run` runs the
// kernel over the interpreter's f32 buffer.

/// The function of a unary f32 op's step, by name (so that `model!` can
/// write it out as a constant).
#[derive(Clone, Copy)]
#[doc(hidden)]
pub enum MapF32 {
    /// `ELU`: [`elu_value`](crate::elu_value)
    Elu,
    /// `NEG`: `−x`
    Neg,
    /// `EXP`: [`exp_value`](crate::exp_value)
    Exp,
    /// `RSQRT`: [`rsqrt_value`]
    Rsqrt,
}

impl crate::compiled::WriteRust for MapF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            MapF32::Elu => crate::compiled::write_path(w, k, "MapF32::Elu"),
            MapF32::Neg => crate::compiled::write_path(w, k, "MapF32::Neg"),
            MapF32::Exp => crate::compiled::write_path(w, k, "MapF32::Exp"),
            MapF32::Rsqrt => crate::compiled::write_path(w, k, "MapF32::Rsqrt"),
        }
    }
}

impl MapF32 {
    /// The function's value at `x`.
    fn value(self, x: f32) -> f32 {
        match self {
            MapF32::Elu => crate::elu::elu_value(x),
            MapF32::Neg => crate::neg::negate(x),
            MapF32::Exp => crate::exp::exp_value(x),
            MapF32::Rsqrt => rsqrt_value(x),
        }
    }
}

/// A unary f32 op's step: `f` of each element (`ELU`, `NEG`, `EXP`,
/// `RSQRT`).
#[derive(Clone)]
#[doc(hidden)]
pub struct MapF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub f: MapF32,
}

impl crate::compiled::WriteRust for MapF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "MapF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("f", &self.f),
            ],
        )
    }
}

impl MapF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        let f = self.f;
        map_f32(x, y, |v| f.value(v))
    }
}

/// A unary f32 op's `prepare`: input and output f32 activations of the
/// same element count (the op's rule gave the output the input's shape),
/// and `f` the op's value function.
pub(crate) fn prepare_map_f32<'m>(c: &Checker<'m>, f: MapF32) -> Result<Step<'m>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, input.elements())?;
    Ok(Step::MapF32(MapF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        f,
    }))
}

/// `RSQRT`'s f32 `prepare` (its row's signature): what `rsqrt.rs`'s
/// `prepare` calls for an f32 input.
pub(crate) fn prepare_rsqrt_f32<'m>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    prepare_map_f32(c, MapF32::Rsqrt)
}

/// A binary f32 op's step.
#[derive(Clone)]
#[doc(hidden)]
pub struct BinaryF32Step<'m> {
    pub op: BinaryF32,
    pub a: Source<'m, f32>,
    pub b: Source<'m, f32>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub range: (f32, f32),
}

impl crate::compiled::WriteRust for BinaryF32Step<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "BinaryF32Step",
            &[
                ("op", &self.op),
                ("a", &self.a),
                ("b", &self.b),
                ("output", &self.output),
                ("a_shape", &self.a_shape),
                ("b_shape", &self.b_shape),
                ("range", &self.range),
            ],
        )
    }
}

impl BinaryF32Step<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let float32 = &mut *b.float32;
        let BinaryF32Step {
            op,
            a,
            b,
            output,
            a_shape,
            b_shape,
            range,
        } = self;
        let (a_dims, b_dims) = (a_shape.dims(), b_shape.dims());
        match (a, b) {
            (Source::Activation(ra), Source::Activation(rb)) => {
                let (x1, x2, y) = split2(float32, ra, rb, output).ok_or(overlap)?;
                binary_f32(*op, (x1, a_dims), (x2, b_dims), *range, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(float32, ra, output).ok_or(overlap)?;
                binary_f32(*op, (x1, a_dims), (c, b_dims), *range, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(float32, rb, output).ok_or(overlap)?;
                binary_f32(*op, (c, a_dims), (x2, b_dims), *range, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = float32.get_mut(output.clone()).ok_or(overlap)?;
                binary_f32(*op, (c1, a_dims), (c2, b_dims), *range, y)
            }
        }
    }
}

/// A binary f32 op's `prepare` (`ADD`, `SUB`, `MUL` with their fused
/// `activation`; `SQUARED_DIFFERENCE` with `Activation::None`): two f32
/// inputs, each an activation or a constant, broadcast to `shape` (the
/// op's rule's), and an f32 output; the activation's clamp
/// ([`activation_range_f32`]).
pub(crate) fn prepare_binary_f32<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
    op: BinaryF32,
    activation: Activation,
) -> Result<Step<'m>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    c.dtype("input1", &a, TensorType::Float32)?;
    c.dtype("input2", &b, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    let range = activation_range_f32(activation)
        .map_err(|_| c.unsupported_option("fused activation", activation.name()))?;
    Ok(Step::BinaryF32(BinaryF32Step {
        op,
        a: c.source("input1", &a)?,
        b: c.source("input2", &b)?,
        output: c.activation("output", output)?.range,
        a_shape: shape_of(&c.op, "input1", &a)?,
        b_shape: shape_of(&c.op, "input2", &b)?,
        range,
    }))
}

/// The f32 `MEAN`'s step.
#[derive(Clone)]
#[doc(hidden)]
pub struct MeanF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub runs: (usize, usize, usize),
}

impl crate::compiled::WriteRust for MeanF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::compiled::write_struct(
            w,
            k,
            "MeanF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("runs", &self.runs),
            ],
        )
    }
}

impl MeanF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        mean_f32(x, self.runs, y)
    }
}

/// `MEAN`'s f32 `prepare` (its row's signature): an f32 input whose
/// reduced axes (the constant int32 input 1, each in `[−rank, rank)`,
/// repeats allowed) are one run of adjacent axes, and an f32 output of
/// the rule's element count; what `reduce.rs`'s `prepare` calls for an f32
/// input.
pub(crate) fn prepare_mean_f32<'m>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let axes = c.input(1, "axes")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    let dims = shape_of(&c.op, "input", &input)?;
    let rank = dims.dims().len();
    let not_a_run = || {
        c.fail(
            "axes",
            &axes,
            OperandProblem::Quantization(
                "is not a constant int32 list of adjacent axes of the input (the f32 MEAN reduces one run of axes)",
            ),
        )
    };
    let values = axes.data_as::<i32>().ok_or_else(not_a_run)?;
    // which axes are reduced
    let mut reduced = [false; crate::ops::MAX_DIMS];
    for v in values.iter() {
        let axis = if v < 0 {
            i64::from(v) + rank as i64
        } else {
            i64::from(v)
        };
        let slot = usize::try_from(axis)
            .ok()
            .filter(|&a| a < rank)
            .and_then(|a| reduced.get_mut(a))
            .ok_or_else(not_a_run)?;
        *slot = true;
    }
    let first = reduced.iter().position(|&r| r);
    let last = reduced.iter().rposition(|&r| r);
    let (outer, count, inner) = match (first, last) {
        (Some(first), Some(last)) => {
            let between = reduced.get(first..=last).unwrap_or(&[]);
            if between.iter().any(|&r| !r) {
                return Err(not_a_run());
            }
            let product = |r: Range<usize>| {
                dims.dims()
                    .get(r)
                    .unwrap_or(&[])
                    .iter()
                    .try_fold(1usize, |n, &d| n.checked_mul(d))
            };
            let sizes = (
                product(0..first),
                product(first..last + 1),
                product(last + 1..rank),
            );
            match sizes {
                (Some(o), Some(r), Some(i)) => (o, r, i),
                _ => return Err(not_a_run()),
            }
        }
        // no axis: each output is its one input
        _ => (1, 1, input.elements()),
    };
    Ok(Step::MeanF32(MeanF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        runs: (outer, count, inner),
    }))
}

#[cfg(test)]
mod tests {
    //! The f32 steps, each prepared from its operator in a recorded float
    //! model (by its row's `prepare`: `ADD`, `SUB`, `MUL`,
    //! `SQUARED_DIFFERENCE`, `RSQRT`; `MEAN`, which has no f32 row yet,
    //! by `prepare_mean_f32`) and run over an f32 buffer laid out as the
    //! interpreter lays it out, on every case.
    extern crate std;
    use super::*;
    use crate::interpreter::Interpreter;
    use crate::model::Model;
    use crate::quant::Rounding;
    use serde_json::Value;
    use std::string::ToString;
    use std::vec::Vec;
    use std::{format, vec};

    type Prepare = for<'m> fn(&Checker<'m>, &OpShape) -> Result<Step<'m>, TfliteError>;

    /// Prepares operator `k` of `name`'s model with `prepare` and runs it
    /// on each recorded case; returns the values compared (each to the bit).
    fn run_operator(name: &str, k: usize, op_name: &str, prepare: Prepare) -> usize {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
        let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
        let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let recording: Value = serde_json::from_str(&json).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let op = model.operator(k).unwrap();
        assert_eq!(op.op().name(), op_name);
        let c = Checker::new(model, op).unwrap();
        let shape = shape_of(&op, "output", &c.output).unwrap();
        let sizes = Interpreter::arena_sizes(&model).unwrap();
        let mut float32 = vec![f32::NAN; sizes.float32];
        let output = c.activation("output", &c.output).unwrap().range;
        let mut compared = 0;
        for case in recording["cases"].as_array().unwrap() {
            let recorded = |t: usize| -> Vec<f32> {
                case["tensors"][t.to_string()]["data"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap() as f32)
                    .collect()
            };
            for i in 0..op.inputs().len() {
                let Some(t) = c.optional(i) else { continue };
                if let Ok(slot) = c.activation("input", &t) {
                    float32[slot.range].copy_from_slice(&recorded(t.index()));
                }
            }
            let step = prepare(&c, &shape).unwrap();
            let mut buffers = Buffers {
                int8: &mut [],
                int16: &mut [],
                int32: &mut [],
                float32: &mut float32,
                multipliers: &[],
                fc_rounding: Rounding::Double,
                overlap: TfliteError::NoSubgraph,
            };
            step.run(&mut buffers).unwrap();
            let want = recorded(c.output.index());
            let got = &float32[output.clone()];
            assert_eq!(got.len(), want.len());
            for (e, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g.to_bits(), w.to_bits(), "{name}, element {e}: {g:e} {w:e}");
                compared += 1;
            }
        }
        compared
    }

    // each op's row's `prepare`, which takes the f32 path for an f32 input
    fn mul<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        crate::mul::prepare(c, s, &mut [])
    }
    fn sub<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        crate::sub::prepare(c, s, &mut [])
    }
    fn squared_difference<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        crate::squared_difference::prepare(c, s, &mut [])
    }
    fn add<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        crate::add::prepare(c, s, &mut [])
    }
    fn rsqrt<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        crate::rsqrt::prepare(c, s, &mut [])
    }
    fn mean<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
        prepare_mean_f32(c, s, &mut [])
    }

    #[test]
    fn the_f32_steps_run_the_recorded_float_models_to_the_bit() {
        let operators: [(&str, usize, &str, Prepare, usize); 8] = [
            ("f32_rsqrt", 0, "MUL", mul, 720),
            // x · x + 0.5: a constant operand, read in place
            ("f32_rsqrt", 1, "ADD", add, 720),
            ("f32_rsqrt", 2, "RSQRT", rsqrt, 720),
            ("f32_add_sub_mul", 2, "ADD", add, 224),
            ("f32_add_sub_mul", 3, "SUB", sub, 224),
            ("f32_add_sub_mul", 4, "MUL", mul, 224),
            (
                "f32_squared_difference",
                2,
                "SQUARED_DIFFERENCE",
                squared_difference,
                224,
            ),
            ("f32_mean", 0, "MEAN", mean, 24),
        ];
        for (name, k, op, prepare, values) in operators {
            assert_eq!(run_operator(name, k, op, prepare), values, "{name} {op}");
        }
    }

    #[test]
    fn the_f32_mean_of_axes_1_and_2_is_one_run() {
        // f32_mean: [1, 5, 6, 3] over axes [1, 2]: outer 1, reduced 5 · 6,
        // inner 3
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
        let bytes = std::fs::read(dir.join("f32_mean.tflite")).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let op = model.operator(0).unwrap();
        let c = Checker::new(model, op).unwrap();
        let shape = shape_of(&op, "output", &c.output).unwrap();
        let Ok(Step::MeanF32(step)) = prepare_mean_f32(&c, &shape, &mut []) else {
            panic!("not a mean step");
        };
        assert_eq!(step.runs, (1, 30, 3));
    }
}
