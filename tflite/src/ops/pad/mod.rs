//! TFLite's `PAD` on slices: a tensor of up to 5 dims with `before` and
//! `after` elements of a given value added along each dim, as TFLite
//! Micro's `pad.cc` and `reference_ops::Pad` write it.

use crate::arith::dims::{check_length, element_count};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::format::model::Operator;
use crate::format::types::TensorType;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::checker::Slot;
use crate::kernel::shape::need_rank;
use crate::kernel::shape::operand;
use crate::kernel::shape::operand_problem;
use crate::kernel::shape::shape_of;
use crate::kernel::shape::OpShape;
use crate::kernel::shape::MAX_DIMS;
use crate::kernel::step::Buffers;

/// The most dims TFLite Micro pads (`PadKernelMaxDimensionCount`).
const MAX_PAD_RANK: usize = 5;

/// The output shape of a `PAD`: each dim of `input` plus its `(before,
/// after)` paddings, as TFLite Micro's `PadPrepare` requires of the
/// output. Returns the dims and the rank (the input's): the first `rank`
/// entries are the shape, the rest are 1 (the form of
/// [`broadcast_shape`](crate::broadcast_shape)).
///
/// Fails with [`TfliteError::KernelParam`] for more than 5 dims (TFLite
/// Micro pads at most 5) or a dim that overflows, and with
/// [`TfliteError::Length`] when there is not one pair of paddings per dim.
///
/// ```
/// use shapecheck_tflite::pad_output_shape;
///
/// // pad_1_2.tflite: [1, 5, 4, 3] with (1, 2) rows and (2, 1) columns
/// let (dims, rank) = pad_output_shape(&[1, 5, 4, 3], &[(0, 0), (1, 2), (2, 1), (0, 0)])?;
/// assert_eq!(&dims[..rank], &[1, 8, 7, 3]);
/// assert!(pad_output_shape(&[1, 5], &[(1, 1)]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pad_output_shape(
    input: &[usize],
    paddings: &[(usize, usize)],
) -> Result<([usize; 6], usize), TfliteError> {
    let rank = input.len();
    if rank > MAX_PAD_RANK {
        return Err(TfliteError::KernelParam {
            what: "PAD's input rank",
            value: i64::try_from(rank).unwrap_or(i64::MAX),
            rule: "TFLite Micro pads at most 5 dims",
        });
    }
    if paddings.len() != rank {
        return Err(TfliteError::Length {
            what: "paddings",
            expected: rank,
            actual: paddings.len(),
        });
    }
    let mut dims = [1usize; 6];
    for ((d, &i), &(before, after)) in dims.iter_mut().zip(input).zip(paddings) {
        *d = i
            .checked_add(before)
            .and_then(|d| d.checked_add(after))
            .ok_or(TfliteError::KernelParam {
                what: "PAD's output dim",
                value: i64::MAX,
                rule: "a dim plus its paddings overflows",
            })?;
    }
    Ok((dims, rank))
}

/// TFLite's `PAD` (and `PADV2`): the output, of
/// [`pad_output_shape`]`(input_shape, paddings)`, is `value` wherever an
/// index is within a dim's `before` or `after` padding, and the input
/// (row-major, in order) elsewhere. For int8, TFLite Micro's `value` is
/// the output's zero point (`PADV2`: its constant value). Any element type.
///
/// Fails, with `output` untouched, as [`pad_output_shape`] does, or when
/// `input` or `output` is not as long as its shape's element count.
///
/// ```
/// use shapecheck_tflite::pad;
///
/// let mut out = [0i8; 12];
/// // [2, 2] padded by one row before and one column on each side, with −3
/// pad(&[1i8, 2, 3, 4], &[2, 2], &[(1, 0), (1, 1)], -3, &mut out)?;
/// assert_eq!(out, [-3, -3, -3, -3, -3, 1, 2, -3, -3, 3, 4, -3]);
/// assert!(pad(&[1i8, 2, 3], &[2, 2], &[(1, 0), (1, 1)], -3, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pad<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    paddings: &[(usize, usize)],
    value: T,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let (out_dims, rank) = pad_output_shape(input_shape, paddings)?;
    check_length("input", input_shape, input.len())?;
    check_length("output", out_dims.get(..rank).unwrap_or(&[]), output.len())?;
    pad_prechecked(input, input_shape, paddings, value, output);
    Ok(())
}

/// [`pad`] without its checks, for a caller that has made them hold
/// already (the typed layers of `shapecheck`, whose shapes and paddings
/// are types): one padding per dim, at most 8 dims, the lengths the
/// shapes'. On operands that break this, what it writes is unspecified, but it
/// never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::pad_prechecked;
///
/// let mut out = [0i8; 4];
/// pad_prechecked(&[1i8, 2], &[2], &[(1, 1)], 0, &mut out);
/// assert_eq!(out, [0, 1, 2, 0]);
/// ```
pub fn pad_prechecked<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    paddings: &[(usize, usize)],
    value: T,
    output: &mut [T],
) {
    if output.is_empty() {
        return;
    }
    let rank = input_shape.len().min(paddings.len()).min(MAX_PAD_RANK);
    let mut dims = [(0usize, 0usize, 0usize); MAX_PAD_RANK];
    for (d, (&i, &(before, after))) in dims.iter_mut().zip(input_shape.iter().zip(paddings)) {
        *d = (i, before, after);
    }
    fill(dims.get(..rank).unwrap_or(&[]), input, value, output);
}

/// Writes the padded `input` into `output`. `dims` are `(input dim,
/// before, after)`, outermost first; the lengths are the checked counts
/// (every block of inner dims fits a `usize`: [`element_count`]).
fn fill<T: Copy>(dims: &[(usize, usize, usize)], input: &[T], value: T, output: &mut [T]) {
    // the `after` padding is what is left of `output` (its length is the count)
    let Some((&(n, before, _), inner)) = dims.split_first() else {
        // rank 0: one element each
        for (y, &x) in output.iter_mut().zip(input) {
            *y = x;
        }
        return;
    };
    let in_block = element_count_of(inner, |&(i, _, _)| i);
    let out_block = element_count_of(inner, |&(i, b, a)| i + b + a);
    let (head, rest) = output.split_at_mut(before.saturating_mul(out_block).min(output.len()));
    head.fill(value);
    let (middle, tail) = rest.split_at_mut(n.saturating_mul(out_block).min(rest.len()));
    tail.fill(value);
    if inner.is_empty() {
        for (y, &x) in middle.iter_mut().zip(input) {
            *y = x;
        }
        return;
    }
    if out_block == 0 {
        return;
    }
    for (k, out) in middle.chunks_exact_mut(out_block).enumerate() {
        let start = k.saturating_mul(in_block);
        let src = input
            .get(start..start.saturating_add(in_block))
            .unwrap_or(&[]);
        fill(inner, src, value, out);
    }
}

/// The product of `f` over `dims` (checked when the shapes were: it fits).
fn element_count_of(
    dims: &[(usize, usize, usize)],
    f: impl Fn(&(usize, usize, usize)) -> usize,
) -> usize {
    let mut shape = [0usize; MAX_PAD_RANK];
    for (s, d) in shape.iter_mut().zip(dims) {
        *s = f(d);
    }
    element_count(shape.get(..dims.len()).unwrap_or(&[])).unwrap_or(0)
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `PAD`: each dim plus its paddings before and after, from the constant
/// second input `[rank, 2]` ([`pad_output_shape`](crate::pad_output_shape)).
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let x = shape_of(op, "input", &input)?;
    let paddings = pad_amounts(model, op, x.rank)?;
    let (dims, rank) =
        crate::ops::pad::pad_output_shape(x.dims(), paddings.get(..x.rank).unwrap_or(&[]))?;
    Ok(OpShape { dims, rank })
}

/// `PAD`'s paddings, `(before, after)` per dim, from its constant second
/// input `[rank, 2]` of int32.
pub(crate) fn pad_amounts(
    model: &Model<'_>,
    op: &Operator<'_>,
    rank: usize,
) -> Result<[(usize, usize); MAX_DIMS], TfliteError> {
    let t = operand(model, op, 1, "paddings")?;
    let bad = |problem| operand_problem(op, "paddings", &t, problem);
    let shape = need_rank(op, "paddings", &t, 2)?;
    if shape.dims() != [rank, 2] {
        return Err(bad(OperandProblem::Elements {
            expected: rank * 2,
            found: shape.elements().unwrap_or(0),
        }));
    }
    let values = t
        .data_as::<i32>()
        .filter(|v| v.len() == rank * 2)
        .ok_or(bad(OperandProblem::Constant { expected: true }))?;
    let mut out = [(0usize, 0usize); MAX_DIMS];
    for (k, slot) in out.iter_mut().take(rank).enumerate() {
        let before = values.get(2 * k).and_then(|v| usize::try_from(v).ok());
        let after = values.get(2 * k + 1).and_then(|v| usize::try_from(v).ok());
        match (before, after) {
            (Some(b), Some(a)) => *slot = (b, a),
            _ => {
                return Err(bad(OperandProblem::Quantization(
                    "holds a negative padding",
                )))
            }
        }
    }
    Ok(out)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `PAD`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<PadStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    check_pad(c).map(S::from)
}

/// `pad`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct PadStep {
    pub input: Slot,
    pub output: Slot,
    pub shape: OpShape,
    pub paddings: [(usize, usize); MAX_DIMS],
    pub value: i8,
}

impl crate::base::write_rust::WriteRust for PadStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PadStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("shape", &self.shape),
                ("paddings", &self.paddings),
                ("value", &self.value),
            ],
        )
    }
}

impl PadStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let float32 = &mut *b.float32;
        let PadStep {
            input,
            output,
            shape,
            paddings,
            value,
        } = self;
        let paddings = paddings.get(..shape.dims().len()).unwrap_or(&[]);
        match input.dtype {
            TensorType::Int8 => {
                let (x, y) = split(int8, &input.range, &output.range).ok_or(overlap)?;
                pad(x, shape.dims(), paddings, *value, y)
            }
            _ => {
                let (x, y) = split(float32, &input.range, &output.range).ok_or(overlap)?;
                pad(x, shape.dims(), paddings, 0.0, y)
            }
        }
    }
}

/// `PAD`, int8 (with the output's zero point, as TFLite Micro pads)
/// or f32 (with 0).
fn check_pad<'m>(c: &Checker<'m>) -> Result<PadStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("output", output, input.dtype())?;
    let shape = crate::kernel::shape::shape_of(&c.op, "input", &input)?;
    let paddings = pad_amounts(&c.model, &c.op, shape.dims().len())?;
    let value = match input.dtype() {
        TensorType::Int8 => {
            let input_q = c.per_tensor("input", &input)?;
            let output_q = c.per_tensor("output", output)?;
            if input_q != output_q {
                return Err(c.fail(
                    "output",
                    output,
                    OperandProblem::Quantization(
                        "is not the input's scale and zero point (TFLite's PAD keeps them)",
                    ),
                ));
            }
            i8::try_from(output_q.1).unwrap_or(0)
        }
        TensorType::Float32 => 0,
        found => {
            return Err(c.fail(
                "input",
                &input,
                OperandProblem::Dtype {
                    expected: TensorType::Int8,
                    found,
                },
            ))
        }
    };
    Ok(PadStep {
        input: c.activation("input", &input)?,
        output: c.activation("output", output)?,
        shape,
        paddings,
        value,
    })
}

/// A `PADV2`'s parameters, int8 ([`padv2_params`]); its kernel is
/// [`pad`] with this value, and its output shape [`pad_output_shape`]'s.
///
/// ```
/// use shapecheck_tflite::PadV2Params;
///
/// const THIRTY_FIVE: PadV2Params = PadV2Params { value: 35 };
/// assert_eq!(THIRTY_FIVE.value, 35);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadV2Params {
    /// the int8 the padding holds
    pub value: i8,
}

/// An int8 `PADV2`'s parameters from its constant pad `value` (an int8
/// scalar) and the `(scale, zero point)` of the input, the value and the
/// output, as TFLite Micro's `pad.cc` checks them: the value's scale and
/// zero point are the output's, and the input's too (the kernel copies
/// the input's int8 values unchanged).
///
/// Fails with [`TfliteError::KernelScale`] or [`TfliteError::KernelParam`]
/// naming the tensor whose scale or zero point is not the output's.
///
/// ```
/// use shapecheck_tflite::padv2_params;
///
/// // padv2_const.tflite: 0.7 as 35 at scale 0.0307 from 12
/// let q = (0.030744212, 12);
/// assert_eq!(padv2_params(35, q, q, q)?.value, 35);
/// assert!(padv2_params(35, q, (0.030744212, 11), q).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn padv2_params(
    value: i8,
    input: (f32, i32),
    value_quantization: (f32, i32),
    output: (f32, i32),
) -> Result<PadV2Params, TfliteError> {
    let same = |what: &'static str, q: (f32, i32)| {
        if q.0 != output.0 {
            Err(TfliteError::KernelScale {
                what,
                value: f64::from(q.0),
                rule: "PADV2 copies int8 values: it must be the output's scale",
            })
        } else if q.1 != output.1 {
            Err(TfliteError::KernelParam {
                what,
                value: i64::from(q.1),
                rule: "PADV2 copies int8 values: it must be the output's zero point",
            })
        } else {
            Ok(())
        }
    };
    same("PADV2's input quantization", input)?;
    same("PADV2's pad value's quantization", value_quantization)?;
    Ok(PadV2Params { value })
}

/// `PADV2`'s row in `OPS`: checks the operator (int8: its pad value a
/// constant int8 scalar at the output's scale and zero point, as TFLite
/// Micro requires; the input at them too) and prepares `PAD`'s step with
/// that value.
pub(crate) fn prepare_padv2<'m, S: From<PadStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let value = c.input(2, "constant_values")?;
    for (name, t) in [
        ("input", &input),
        ("constant_values", &value),
        ("output", output),
    ] {
        c.dtype(name, t, TensorType::Int8)?;
    }
    let pad_value = value
        .data_as::<i8>()
        .filter(|v| v.len() == 1 && value.elements() == 1)
        .and_then(|v| v.get(0))
        .ok_or(c.fail(
            "constant_values",
            &value,
            OperandProblem::Constant { expected: true },
        ))?;
    let params = padv2_params(
        pad_value,
        c.per_tensor("input", &input)?,
        c.per_tensor("constant_values", &value)?,
        c.per_tensor("output", output)?,
    )?;
    let shape = shape_of(&c.op, "input", &input)?;
    let paddings = pad_amounts(&c.model, &c.op, shape.dims().len())?;
    Ok(S::from(PadStep {
        input: c.activation("input", &input)?,
        output: c.activation("output", output)?,
        shape,
        paddings,
        value: params.value,
    }))
}

// mirror_pad is of pad's family
pub(crate) mod mirror_pad;
