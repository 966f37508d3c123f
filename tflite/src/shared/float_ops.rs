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

use crate::arith::activation::activation_range_f32;
use crate::format::error::TfliteError;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::{split, split2, Checker, Source};
use crate::kernel::shape::{shape_of, OpShape};
use crate::kernel::step::Buffers;
use crate::shared::broadcast::broadcast_binary;
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

/// A binary f32 op's function of one output element's two inputs, as
/// TFLite's reference kernel computes it (in f32, one rounding each):
/// implemented in the op's module.
#[doc(hidden)]
pub trait BinaryF32Apply {
    /// The op of `x1` and `x2`.
    fn apply(&self, x1: f32, x2: f32) -> f32;
}

/// A unary f32 op's function of one element: implemented in the op's
/// module.
#[doc(hidden)]
pub trait MapF32Apply {
    /// The op at `x`.
    fn value(&self, x: f32) -> f32;
}

/// The f32 binary kernel: `op` of each output element's two inputs,
/// broadcast as numpy broadcasts, then clamped to `[lo, hi]`
/// ([`clamp_f32`]). Fails, with `output` untouched, as
/// [`add_f32`](crate::add_f32) does.
pub(crate) fn binary_f32<K: BinaryF32Apply, A, B>(
    op: &K,
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

// The interpreter's steps of the f32 ops: each `prepare_*` checks the
// operator's operands once and gives the step; the step's `run` runs the
// kernel over the interpreter's f32 buffer.

/// A unary f32 op's step: `f` of each element (`ELU`, `NEG`, `EXP`,
/// `RSQRT`).
#[derive(Clone)]
#[doc(hidden)]
pub struct MapF32Step<K> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub f: K,
}

impl<K: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust for MapF32Step<K> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
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

impl<K: MapF32Apply> MapF32Step<K> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(&mut *b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        let f = &self.f;
        map_f32(x, y, |v| f.value(v))
    }
}

/// A unary f32 op's `prepare`: input and output f32 activations of the
/// same element count (the op's rule gave the output the input's shape),
/// and `f` the op's value function.
pub(crate) fn prepare_map_f32<K>(c: &Checker<'_>, f: K) -> Result<MapF32Step<K>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, input.elements())?;
    Ok(MapF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        f,
    })
}

/// A binary f32 op's step.
#[derive(Clone)]
#[doc(hidden)]
pub struct BinaryF32Step<'m, K> {
    pub op: K,
    pub a: Source<'m, f32>,
    pub b: Source<'m, f32>,
    pub output: Range<usize>,
    pub a_shape: OpShape,
    pub b_shape: OpShape,
    pub range: (f32, f32),
}

impl<K: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust
    for BinaryF32Step<'_, K>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
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

impl<K: BinaryF32Apply> BinaryF32Step<'_, K> {
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
                binary_f32(op, (x1, a_dims), (x2, b_dims), *range, y)
            }
            (Source::Activation(ra), Source::Constant(c)) => {
                let (x1, y) = split(float32, ra, output).ok_or(overlap)?;
                binary_f32(op, (x1, a_dims), (c, b_dims), *range, y)
            }
            (Source::Constant(c), Source::Activation(rb)) => {
                let (x2, y) = split(float32, rb, output).ok_or(overlap)?;
                binary_f32(op, (c, a_dims), (x2, b_dims), *range, y)
            }
            (Source::Constant(c1), Source::Constant(c2)) => {
                let y = float32.get_mut(output.clone()).ok_or(overlap)?;
                binary_f32(op, (c1, a_dims), (c2, b_dims), *range, y)
            }
        }
    }
}

/// A binary f32 op's `prepare` (`ADD`, `SUB`, `MUL` with their fused
/// `activation`; `SQUARED_DIFFERENCE` with `Activation::None`): two f32
/// inputs, each an activation or a constant, broadcast to `shape` (the
/// op's rule's), and an f32 output; the activation's clamp
/// ([`activation_range_f32`]).
pub(crate) fn prepare_binary_f32<'m, K>(
    c: &Checker<'m>,
    shape: &OpShape,
    op: K,
    activation: Activation,
) -> Result<BinaryF32Step<'m, K>, TfliteError> {
    let output = &c.output;
    let a = c.input(0, "input1")?;
    let b = c.input(1, "input2")?;
    c.dtype("input1", &a, TensorType::Float32)?;
    c.dtype("input2", &b, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, shape.elements().unwrap_or(usize::MAX))?;
    let range = activation_range_f32(activation)
        .map_err(|_| c.unsupported_option("fused activation", activation.name()))?;
    Ok(BinaryF32Step {
        op,
        a: c.source("input1", &a)?,
        b: c.source("input2", &b)?,
        output: c.activation("output", output)?.range,
        a_shape: shape_of(&c.op, "input1", &a)?,
        b_shape: shape_of(&c.op, "input2", &b)?,
        range,
    })
}

/// Checks an f32 clamp (a float convolution's or pool's): `output_min` at
/// most `output_max`, neither NaN.
pub(crate) fn check_clamp_f32(output_min: f32, output_max: f32) -> Result<(), TfliteError> {
    match output_min.partial_cmp(&output_max) {
        Some(core::cmp::Ordering::Less | core::cmp::Ordering::Equal) => Ok(()),
        _ => Err(TfliteError::KernelParam {
            what: "clamp's lower end",
            // the value as an integer, saturated (NaN as 0)
            value: output_min as i64,
            rule: "it must be at most the upper end, and neither end NaN",
        }),
    }
}

/// The operands of a row-wise f32 kernel (`SOFTMAX`, `LOG_SOFTMAX`,
/// `L2_NORMALIZATION`, each over the last axis): `output` as long as
/// `input`, and `input` whole rows of `depth` values (`depth` at least 1
/// unless `input` is empty). `what` names the op's depth in the error.
pub(crate) fn check_rows_f32(
    what: &'static str,
    input: usize,
    depth: usize,
    output: usize,
) -> Result<(), TfliteError> {
    if output != input {
        return Err(TfliteError::Length {
            what: "output",
            expected: input,
            actual: output,
        });
    }
    if input != 0 && (depth == 0 || !input.is_multiple_of(depth)) {
        return Err(TfliteError::KernelParam {
            what,
            value: i64::try_from(depth).unwrap_or(i64::MAX),
            rule: "the input must be whole rows of it",
        });
    }
    Ok(())
}

/// A row-wise f32 op's operands, as its `prepare` checks them: an f32
/// input and output of one element count, their places, and the depth of
/// a row (the input's last dim; 1 for a scalar).
pub(crate) struct RowsF32 {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub depth: usize,
}

/// Checks a row-wise f32 op's operands ([`RowsF32`]).
pub(crate) fn prepare_rows_f32(c: &Checker<'_>) -> Result<RowsF32, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.elements("output", output, input.elements())?;
    let rank = input.shape().len();
    let depth = if rank == 0 {
        1
    } else {
        crate::kernel::checker::dim(&input, rank - 1)
    };
    Ok(RowsF32 {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        depth,
    })
}
