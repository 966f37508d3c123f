//! TFLite's `MIRROR_PAD` on slices: a tensor of up to 5 dims padded with
//! its own values mirrored at each edge, as TFLite Micro's
//! `mirror_pad.cc` writes them. `REFLECT` mirrors about the edge element
//! (`[1, 2, 3]` padded by 2 before: `[3, 2, 1, 2, 3]`), `SYMMETRIC`
//! repeats it (`[2, 1, 1, 2, 3]`). Any element type; the values are
//! copied unchanged. The output's shape is [`pad_output_shape`]'s, as
//! `PAD`'s.

use crate::arith::dims::check_length;
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use crate::ops::pad::pad_amounts;
use crate::ops::pad::pad_output_shape;
use crate::shared::moves::{op_shape, options_mismatch, wide};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// The `BuiltinOptions` type of `MirrorPadOptions`.
const MIRROR_PAD_OPTIONS: u8 = 77;

/// The schema's `MirrorPadMode`.
///
/// ```
/// use shapecheck_tflite::MirrorPadMode;
///
/// assert_eq!(MirrorPadMode::from_schema(1), Some(MirrorPadMode::Symmetric));
/// assert_eq!(MirrorPadMode::from_schema(2), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MirrorPadMode {
    /// `REFLECT` (0): the edge element is not repeated
    Reflect,
    /// `SYMMETRIC` (1): the edge element is repeated
    Symmetric,
}

impl MirrorPadMode {
    /// The mode of schema value `value`, or `None` for a value the schema
    /// does not name.
    ///
    /// ```
    /// use shapecheck_tflite::MirrorPadMode;
    ///
    /// assert_eq!(MirrorPadMode::from_schema(0), Some(MirrorPadMode::Reflect));
    /// ```
    pub fn from_schema(value: i8) -> Option<Self> {
        match value {
            0 => Some(MirrorPadMode::Reflect),
            1 => Some(MirrorPadMode::Symmetric),
            _ => None,
        }
    }
}

/// `MirrorPadOptions`.
///
/// ```
/// use shapecheck_tflite::{MirrorPadMode, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/mirror_pad_symmetric.tflite")))?;
/// let Options::MirrorPad(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.mode, MirrorPadMode::Symmetric);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MirrorPadOptions {
    /// `mode`
    pub mode: MirrorPadMode,
}

/// Reads `MIRROR_PAD`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<MirrorPadOptions, TfliteError> {
    let mode = match r.table(MIRROR_PAD_OPTIONS, "MirrorPadOptions")? {
        Some(t) => t.i8(0, 0).map_err(r.fault("mode"))?,
        None => 0,
    };
    Ok(MirrorPadOptions {
        mode: MirrorPadMode::from_schema(mode).ok_or(r.enum_value(mode, "mode"))?,
    })
}

/// A `MIRROR_PAD`'s parameters ([`mirror_pad_params`]).
///
/// ```
/// use shapecheck_tflite::MirrorPadParams;
///
/// const REFLECT: MirrorPadParams = MirrorPadParams { offset: 1 };
/// assert_eq!(REFLECT.offset, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MirrorPadParams {
    /// TFLite Micro's offset: 1 for `REFLECT` (the edge is not repeated),
    /// 0 for `SYMMETRIC`
    pub offset: usize,
}

impl crate::base::write_rust::WriteRust for MirrorPadParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(w, k, "MirrorPadParams", &[("offset", &self.offset)])
    }
}

/// A `MIRROR_PAD`'s parameters for `mode`, checking `paddings` (`(before,
/// after)` per dim of `input_shape`) as TensorFlow does: at most the dim
/// less 1 for `REFLECT`, at most the dim for `SYMMETRIC` (TFLite Micro
/// does not check, and reads outside the input past them).
///
/// Fails with [`TfliteError::Length`] when there is not one pair per dim,
/// and [`TfliteError::KernelParam`] for a padding past the limit.
///
/// ```
/// use shapecheck_tflite::{mirror_pad_params, MirrorPadMode};
///
/// // mirror_pad_reflect.tflite: (1, 2) × (2, 1) on [1, 5, 6, 3]
/// let paddings = [(0, 0), (1, 2), (2, 1), (0, 0)];
/// assert_eq!(mirror_pad_params(MirrorPadMode::Reflect, &[1, 5, 6, 3], &paddings)?.offset, 1);
/// assert!(mirror_pad_params(MirrorPadMode::Reflect, &[3], &[(3, 0)]).is_err());
/// assert_eq!(mirror_pad_params(MirrorPadMode::Symmetric, &[3], &[(3, 0)])?.offset, 0);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mirror_pad_params(
    mode: MirrorPadMode,
    input_shape: &[usize],
    paddings: &[(usize, usize)],
) -> Result<MirrorPadParams, TfliteError> {
    let params = MirrorPadParams {
        offset: match mode {
            MirrorPadMode::Reflect => 1,
            MirrorPadMode::Symmetric => 0,
        },
    };
    check_paddings(&params, input_shape, paddings)?;
    Ok(params)
}

/// Checks one pair of paddings per dim, each at most the dim less the
/// offset.
fn check_paddings(
    params: &MirrorPadParams,
    input_shape: &[usize],
    paddings: &[(usize, usize)],
) -> Result<(), TfliteError> {
    if paddings.len() != input_shape.len() {
        return Err(TfliteError::Length {
            what: "MIRROR_PAD's paddings",
            expected: input_shape.len(),
            actual: paddings.len(),
        });
    }
    for (&dim, &(before, after)) in input_shape.iter().zip(paddings) {
        let limit = dim.checked_sub(params.offset);
        if limit.is_none_or(|l| before > l || after > l) {
            return Err(TfliteError::KernelParam {
                what: "MIRROR_PAD's padding",
                value: wide(before.max(after)),
                rule: "a padding is at most the dim less 1 (REFLECT), at most the dim (SYMMETRIC)",
            });
        }
    }
    Ok(())
}

/// The input index a padded index `p` of one dim reads, as TFLite Micro's
/// `GetInputDimension` maps it (`p` is in the output's dim, and the
/// paddings were checked).
fn source(p: usize, before: usize, dim: usize, offset: usize) -> usize {
    if p < before {
        // mirrored before the first element
        let edge = (before + offset).saturating_sub(1);
        edge.saturating_sub(p.min(edge.saturating_sub(offset)))
    } else if p - before >= dim {
        // mirrored after the last element
        let past = p - before - dim;
        let edge = dim.saturating_sub(1 + offset);
        edge.saturating_sub(past.min(edge))
    } else {
        p - before
    }
}

/// TFLite's `MIRROR_PAD`: `input` (row-major of `input_shape`) padded by
/// `paddings` (`(before, after)` per dim) with its own values mirrored
/// as `params` says, into `output` (of [`pad_output_shape`]).
///
/// Fails, with `output` untouched, as [`mirror_pad_params`] and
/// [`pad_output_shape`] do, or when `input` or `output` is not as long as
/// its shape's element count.
///
/// ```
/// use shapecheck_tflite::{mirror_pad, mirror_pad_params, MirrorPadMode};
///
/// let mut out = [0i8; 6];
/// let p = mirror_pad_params(MirrorPadMode::Reflect, &[3], &[(2, 1)])?;
/// mirror_pad(&[1, 2, 3], &[3], &[(2, 1)], &p, &mut out)?;
/// assert_eq!(out, [3, 2, 1, 2, 3, 2]);
/// let p = mirror_pad_params(MirrorPadMode::Symmetric, &[3], &[(2, 1)])?;
/// mirror_pad(&[1, 2, 3], &[3], &[(2, 1)], &p, &mut out)?;
/// assert_eq!(out, [2, 1, 1, 2, 3, 3]);
/// assert!(mirror_pad(&[1, 2], &[3], &[(2, 1)], &p, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mirror_pad<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    paddings: &[(usize, usize)],
    params: &MirrorPadParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    if params.offset > 1 {
        return Err(TfliteError::KernelParam {
            what: "MIRROR_PAD's offset",
            value: wide(params.offset),
            rule: "the offset is 1 (REFLECT) or 0 (SYMMETRIC)",
        });
    }
    check_paddings(params, input_shape, paddings)?;
    let (out_dims, rank) = pad_output_shape(input_shape, paddings)?;
    let out_dims = out_dims.get(..rank).unwrap_or(&[]);
    check_length("MIRROR_PAD's input", input_shape, input.len())?;
    check_length("output", out_dims, output.len())?;
    let mut strides = [0usize; MAX_DIMS];
    let mut stride = 1usize;
    for (s, &d) in strides.iter_mut().zip(input_shape).rev() {
        *s = stride;
        stride = stride.saturating_mul(d);
    }
    let mut index = [0usize; MAX_DIMS];
    for y in output.iter_mut() {
        let mut at = 0usize;
        let axes = index.iter().zip(input_shape).zip(paddings).zip(&strides);
        for (((&p, &dim), &(before, _)), &s) in axes {
            at = at.saturating_add(source(p, before, dim, params.offset).saturating_mul(s));
        }
        if let Some(&x) = input.get(at) {
            *y = x;
        }
        // the next output index: the last axis moves first
        for (i, &d) in index.iter_mut().zip(out_dims).rev() {
            *i += 1;
            if *i < d {
                break;
            }
            *i = 0;
        }
    }
    Ok(())
}

/// `(before, after)` per dim, the first `rank` of them.
pub(crate) type Paddings = [(usize, usize); MAX_DIMS];

/// `MIRROR_PAD`'s parameters, input shape and paddings from its operands:
/// the input, the constant paddings `[rank, 2]` (input 1), the options.
pub(crate) fn mirror_pad_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(MirrorPadParams, OpShape, Paddings), TfliteError> {
    let Ok(o) = read_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "MirrorPadOptions"));
    };
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let rank = shape.dims().len();
    let paddings = pad_amounts(model, op, rank)?;
    let params = mirror_pad_params(o.mode, shape.dims(), paddings.get(..rank).unwrap_or(&[]))?;
    Ok((params, shape, paddings))
}

/// `MIRROR_PAD`'s row in [`OPS`](crate::OPS).
pub(crate) fn mirror_pad_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (_, shape, paddings) = mirror_pad_operands(model, op)?;
    let rank = shape.dims().len();
    let (dims, rank) = pad_output_shape(shape.dims(), paddings.get(..rank).unwrap_or(&[]))?;
    op_shape("MIRROR_PAD's output rank", dims.get(..rank).unwrap_or(&[]))
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `MIRROR_PAD`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<MirrorPadStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape, paddings) = mirror_pad_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(MirrorPadStep {
        places,
        shape,
        paddings,
        params,
    }))
}

/// `MIRROR_PAD`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct MirrorPadStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub paddings: Paddings,
    pub params: MirrorPadParams,
}

impl crate::base::write_rust::WriteRust for MirrorPadStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "MirrorPadStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("paddings", &self.paddings),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for MirrorPadStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        let paddings = self.paddings.get(..self.shape.dims().len()).unwrap_or(&[]);
        mirror_pad(input, self.shape.dims(), paddings, &self.params, output)
    }
}

impl MirrorPadStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
