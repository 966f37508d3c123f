//! TFLite's `CONCATENATION` and `PACK` on slices: inputs joined along an
//! axis, as TFLite Micro's `concatenation.cc` and `pack.cc` copy them.
//! One rule: `PACK` of `n` inputs of one shape is their `CONCATENATION`
//! along a new axis of size 1 each. Any element type; for int8, TFLite
//! Micro copies the values unchanged, and so requires every input's scale
//! and zero point to be the output's ([`concatenation_params`],
//! [`pack_params`] refuse others).

use crate::arith::dims::{check_length, element_count};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::Activation;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::{OpShape, MAX_DIMS};
pub use crate::shared::moves::MAX_JOINED;
use crate::shared::moves::{
    count, input_shapes, op_shape, options_mismatch, positive_axis, prepare_join, run_join,
    same_quantization, wide, MoveJoin, Places,
};

/// The `BuiltinOptions` type of `ConcatenationOptions`.
const CONCATENATION_OPTIONS: u8 = 10;
/// The `BuiltinOptions` type of `PackOptions`.
const PACK_OPTIONS: u8 = 59;

/// `ConcatenationOptions`: the axis (negative counts from the end) and a
/// fused activation (TFLite Micro runs `NONE` only).
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/concat_3_lastaxis.tflite")))?;
/// let Options::Concatenation(o) = model.operator(3).unwrap().options() else { panic!() };
/// assert_eq!((o.axis, o.fused_activation), (-1, Activation::None));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConcatenationOptions {
    /// `axis`
    pub axis: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

/// `PackOptions`: how many inputs, and the new axis (negative counts from
/// the end of the output's dims).
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/pack_axis1.tflite")))?;
/// let Options::Pack(o) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!((o.values_count, o.axis), (2, 1));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PackOptions {
    /// `values_count`: the inputs
    pub values_count: i32,
    /// `axis`
    pub axis: i32,
}

/// Reads `CONCATENATION`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_concatenation_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<ConcatenationOptions, TfliteError> {
    let (axis, act) = match r.table(CONCATENATION_OPTIONS, "ConcatenationOptions")? {
        Some(t) => (
            t.i32(0, 0).map_err(r.fault("axis"))?,
            t.i8(1, 0).map_err(r.fault("fused_activation_function"))?,
        ),
        None => (0, 0),
    };
    Ok(ConcatenationOptions {
        axis,
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

/// Reads `PACK`'s options (its row's `read_options`).
pub(crate) fn read_pack_options<'a>(r: &OptionsReader<'a>) -> Result<PackOptions, TfliteError> {
    let (values_count, axis) = match r.table(PACK_OPTIONS, "PackOptions")? {
        Some(t) => (
            t.i32(0, 0).map_err(r.fault("values_count"))?,
            t.i32(1, 0).map_err(r.fault("axis"))?,
        ),
        None => (0, 0),
    };
    Ok(PackOptions { values_count, axis })
}

/// The output shape of a `CONCATENATION` of inputs of `shapes` along
/// `axis` (in `[−rank, rank)`): the inputs' shape, with the sum of their
/// dims at `axis`.
///
/// Fails with [`TfliteError::KernelParam`] for no input or more than
/// [`MAX_JOINED`], inputs of different ranks or of different dims off the
/// axis, an axis out of range, or a sum that overflows.
///
/// ```
/// use shapecheck_tflite::concatenation_output_shape;
///
/// // concat_3_lastaxis.tflite: 2, 3 and 4 channels on axis −1
/// let s = concatenation_output_shape(&[&[1, 5, 6, 2], &[1, 5, 6, 3], &[1, 5, 6, 4]], -1)?;
/// assert_eq!(s.dims(), &[1, 5, 6, 9]);
/// assert!(concatenation_output_shape(&[&[1, 5], &[2, 5]], 1).is_err()); // 1 ≠ 2 off the axis
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn concatenation_output_shape(shapes: &[&[usize]], axis: i32) -> Result<OpShape, TfliteError> {
    let Some((first, rest)) = shapes.split_first() else {
        return Err(TfliteError::KernelParam {
            what: "CONCATENATION's input count",
            value: 0,
            rule: "a join needs at least one input",
        });
    };
    if shapes.len() > MAX_JOINED {
        return Err(TfliteError::KernelParam {
            what: "CONCATENATION's input count",
            value: wide(shapes.len()),
            rule: "TFLite Micro joins at most 10 inputs",
        });
    }
    let rank = first.len();
    let axis = positive_axis("CONCATENATION's axis", axis, rank)?;
    let mut dims = [0usize; MAX_DIMS];
    dims.get_mut(..rank)
        .ok_or(TfliteError::KernelParam {
            what: "CONCATENATION's input rank",
            value: wide(rank),
            rule: "a shape has at most 6 dims",
        })?
        .copy_from_slice(first);
    for shape in rest {
        if shape.len() != rank {
            return Err(TfliteError::KernelParam {
                what: "CONCATENATION's input rank",
                value: wide(shape.len()),
                rule: "every input must have the first input's rank",
            });
        }
        for (k, (d, &s)) in dims.iter_mut().zip(shape.iter()).enumerate() {
            *d = match (concatenation_dim(k == axis, *d, s), k == axis) {
                (Some(joined), _) => joined,
                (None, true) => {
                    return Err(TfliteError::KernelParam {
                        what: "CONCATENATION's output dim",
                        value: i64::MAX,
                        rule: "the sum of the inputs' dims overflows",
                    })
                }
                (None, false) => {
                    return Err(TfliteError::KernelParam {
                        what: "CONCATENATION's input dim off the axis",
                        value: wide(s),
                        rule: "off the axis every input's dim must be the first input's",
                    })
                }
            };
        }
    }
    op_shape(
        "CONCATENATION's output rank",
        dims.get(..rank).unwrap_or(&[]),
    )
}

/// `CONCATENATION`'s rule for one dim, the one [`concatenation_output_shape`]
/// applies and `shapecheck`'s typed layer checks at compile time: the
/// dims `joined` so far and the next input's `next` give, on the axis,
/// their sum (`None` if it overflows), and off it their common dim
/// (`None` if they differ).
///
/// ```
/// use shapecheck_tflite::concatenation_dim;
///
/// assert_eq!(concatenation_dim(true, 2, 3), Some(5));
/// assert_eq!(concatenation_dim(false, 4, 4), Some(4));
/// assert_eq!(concatenation_dim(false, 4, 5), None);
/// assert_eq!(concatenation_dim(true, usize::MAX, 1), None);
/// ```
pub const fn concatenation_dim(on_axis: bool, joined: usize, next: usize) -> Option<usize> {
    if on_axis {
        joined.checked_add(next)
    } else if joined == next {
        Some(joined)
    } else {
        None
    }
}

/// The output shape of a `PACK` of `values_count` inputs of shape `input`
/// along the new `axis` (in `[−(rank + 1), rank + 1)`): `input` with
/// `values_count` inserted at `axis`.
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range or an
/// output of more than 6 dims.
///
/// ```
/// use shapecheck_tflite::pack_output_shape;
///
/// // pack_axis1.tflite: two [1, 7, 4] stacked on axis 1
/// assert_eq!(pack_output_shape(&[1, 7, 4], 2, 1)?.dims(), &[1, 2, 7, 4]);
/// assert_eq!(pack_output_shape(&[7, 4], 3, -1)?.dims(), &[7, 4, 3]);
/// assert!(pack_output_shape(&[7, 4], 2, 3).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pack_output_shape(
    input: &[usize],
    values_count: usize,
    axis: i32,
) -> Result<OpShape, TfliteError> {
    let rank = input.len().saturating_add(1);
    let axis = positive_axis("PACK's axis", axis, rank)?;
    let mut dims = [0usize; MAX_DIMS + 1];
    for (k, d) in dims.iter_mut().take(rank).enumerate() {
        *d = match k.cmp(&axis) {
            core::cmp::Ordering::Less => input.get(k).copied().unwrap_or(0),
            core::cmp::Ordering::Equal => values_count,
            core::cmp::Ordering::Greater => input.get(k - 1).copied().unwrap_or(0),
        };
    }
    op_shape("PACK's output rank", dims.get(..rank).unwrap_or(&dims))
}

/// A `CONCATENATION`'s parameters ([`concatenation_params`]).
///
/// ```
/// use shapecheck_tflite::ConcatenationParams;
///
/// const LAST_OF_4: ConcatenationParams = ConcatenationParams { axis: 3 };
/// assert_eq!(LAST_OF_4.axis, 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcatenationParams {
    /// the axis joined along, in `[0, rank)`
    pub axis: usize,
}

impl crate::base::write_rust::WriteRust for ConcatenationParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(w, k, "ConcatenationParams", &[("axis", &self.axis)])
    }
}

/// A `CONCATENATION`'s parameters from its inputs' and output's
/// `(scale, zero point)`, its `axis` (negative from the end) and its
/// inputs' `rank`, as TFLite Micro's `Prepare` checks them: the fused
/// activation must be `NONE`, and each input's scale and zero point the
/// output's (the values are copied; for float tensors pass the same pair
/// for all).
///
/// Fails with [`TfliteError::UnsupportedActivation`] for another
/// activation, [`TfliteError::KernelScale`] or
/// [`TfliteError::KernelParam`] for an input quantized otherwise than
/// the output, and [`TfliteError::KernelParam`] for an axis out of range.
///
/// ```
/// use shapecheck_tflite::{concatenation_params, Activation};
///
/// let q = (0.164, 0);
/// let p = concatenation_params(&[q, q, q], q, -1, 4, Activation::None)?;
/// assert_eq!(p.axis, 3);
/// assert!(concatenation_params(&[q, (0.2, 0)], q, -1, 4, Activation::None).is_err());
/// assert!(concatenation_params(&[q], q, -1, 4, Activation::Relu).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn concatenation_params(
    inputs: &[(f32, i32)],
    output: (f32, i32),
    axis: i32,
    rank: usize,
    fused_activation: Activation,
) -> Result<ConcatenationParams, TfliteError> {
    if fused_activation != Activation::None {
        return Err(TfliteError::UnsupportedActivation {
            activation: fused_activation,
        });
    }
    for &q in inputs {
        same_quantization("CONCATENATION's input quantization", q, output)?;
    }
    Ok(ConcatenationParams {
        axis: positive_axis("CONCATENATION's axis", axis, rank)?,
    })
}

/// TFLite's `CONCATENATION`: `inputs` (of `shapes`, row-major) joined
/// along `params.axis` into `output`: for each index before the axis,
/// each input's block of the dims from the axis on, in turn.
///
/// Fails, with `output` untouched, as [`concatenation_output_shape`]
/// does, when `inputs` and `shapes` differ in count
/// ([`TfliteError::Length`]), or when an input or the output is not as
/// long as its shape's element count.
///
/// ```
/// use shapecheck_tflite::{concatenation, ConcatenationParams};
///
/// let mut out = [0i8; 6];
/// // [2, 1] and [2, 2] joined along axis 1
/// concatenation(&[&[1, 2], &[3, 4, 5, 6]], &[&[2, 1], &[2, 2]], &ConcatenationParams { axis: 1 }, &mut out)?;
/// assert_eq!(out, [1, 3, 4, 2, 5, 6]);
/// assert!(concatenation(&[&[1, 2]], &[&[2, 2]], &ConcatenationParams { axis: 1 }, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn concatenation<T: Copy>(
    inputs: &[&[T]],
    shapes: &[&[usize]],
    params: &ConcatenationParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    if inputs.len() != shapes.len() {
        return Err(TfliteError::Length {
            what: "CONCATENATION's input shapes",
            expected: inputs.len(),
            actual: shapes.len(),
        });
    }
    let axis = i32::try_from(params.axis).unwrap_or(i32::MAX);
    let out_shape = concatenation_output_shape(shapes, axis)?;
    for (x, shape) in inputs.iter().zip(shapes) {
        check_length("CONCATENATION's input", shape, x.len())?;
        count(
            "CONCATENATION's input",
            shape.get(params.axis..).unwrap_or(&[]),
        )?;
    }
    check_length("output", out_shape.dims(), output.len())?;
    concatenation_prechecked(inputs, shapes, params, output);
    Ok(())
}

/// [`concatenation`] without its checks, for a caller that has made them
/// hold already (the typed layer of `shapecheck`, whose shapes are types
/// checked against [`concatenation_dim`] when it is built): the shapes
/// join along the axis, at most [`MAX_JOINED`] of them, and the lengths
/// are theirs. On operands that break this, what it writes is
/// unspecified, but it never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{concatenation_prechecked, ConcatenationParams};
///
/// let mut out = [0i8; 6];
/// // [1, 2] and [1, 4] joined along axis 1
/// concatenation_prechecked(&[&[1, 2], &[3, 4, 5, 6]], &[&[1, 2], &[1, 4]], &ConcatenationParams { axis: 1 }, &mut out);
/// assert_eq!(out, [1, 2, 3, 4, 5, 6]);
/// ```
pub fn concatenation_prechecked<T: Copy>(
    inputs: &[&[T]],
    shapes: &[&[usize]],
    params: &ConcatenationParams,
    output: &mut [T],
) {
    let mut blocks = [0usize; MAX_JOINED];
    for (block, shape) in blocks.iter_mut().zip(shapes) {
        *block = element_count(shape.get(params.axis..).unwrap_or(&[])).unwrap_or(0);
    }
    let first = shapes.first().copied().unwrap_or(&[]);
    let outer = element_count(first.get(..params.axis).unwrap_or(&[])).unwrap_or(0);
    join(
        inputs,
        |k| blocks.get(k).copied().unwrap_or(0),
        outer,
        output,
    );
}

/// A `PACK`'s parameters ([`pack_params`]).
///
/// ```
/// use shapecheck_tflite::PackParams;
///
/// const TWO_ON_AXIS_1: PackParams = PackParams { axis: 1, values_count: 2 };
/// assert_eq!(TWO_ON_AXIS_1.values_count, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackParams {
    /// the new axis, in `[0, rank of the output)`
    pub axis: usize,
    /// the inputs
    pub values_count: usize,
}

impl crate::base::write_rust::WriteRust for PackParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PackParams",
            &[("axis", &self.axis), ("values_count", &self.values_count)],
        )
    }
}

/// A `PACK`'s parameters from its inputs' and output's `(scale, zero
/// point)`, its `values_count` and `axis` options (the axis in
/// `[−(rank + 1), rank + 1)` for inputs of `input_rank` dims): as for
/// [`concatenation_params`], each input's scale and zero point must be
/// the output's (TFLite Micro copies the values; for float tensors pass
/// the same pair for all), and there must be `values_count` of them.
///
/// Fails with [`TfliteError::KernelParam`] for a count below 1 or unequal
/// to the inputs given, an axis out of range, or a zero point unequal to
/// the output's, and [`TfliteError::KernelScale`] for a scale unequal to
/// the output's.
///
/// ```
/// use shapecheck_tflite::pack_params;
///
/// let q = (0.0467, 21);
/// assert_eq!(pack_params(&[q, q], q, 2, 1, 2)?.axis, 1);
/// assert_eq!(pack_params(&[q, q], q, 2, -1, 2)?.axis, 2);
/// assert!(pack_params(&[q, (0.0467, 20)], q, 2, 1, 2).is_err());
/// assert!(pack_params(&[q], q, 2, 1, 2).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pack_params(
    inputs: &[(f32, i32)],
    output: (f32, i32),
    values_count: i32,
    axis: i32,
    input_rank: usize,
) -> Result<PackParams, TfliteError> {
    let n = usize::try_from(values_count)
        .ok()
        .filter(|&n| n >= 1 && n == inputs.len())
        .ok_or(TfliteError::KernelParam {
            what: "PACK's values_count",
            value: i64::from(values_count),
            rule: "it must be at least 1 and the number of inputs",
        })?;
    for &q in inputs {
        same_quantization("PACK's input quantization", q, output)?;
    }
    Ok(PackParams {
        axis: positive_axis("PACK's axis", axis, input_rank.saturating_add(1))?,
        values_count: n,
    })
}

/// TFLite's `PACK`: `inputs`, each of `shape` (row-major), stacked along
/// the new `params.axis` into `output`, of
/// [`pack_output_shape`]`(shape, values_count, axis)`.
///
/// Fails, with `output` untouched, when there are not
/// `params.values_count` inputs, the axis is past the output's rank
/// ([`TfliteError::KernelParam`]), or an input or the output is not as
/// long as its shape's element count ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::{pack, PackParams};
///
/// let mut out = [0i8; 6];
/// // two [3] vectors as the columns of a [3, 2]
/// pack(&[&[1, 2, 3], &[4, 5, 6]], &[3], &PackParams { axis: 1, values_count: 2 }, &mut out)?;
/// assert_eq!(out, [1, 4, 2, 5, 3, 6]);
/// assert!(pack(&[&[1, 2, 3]], &[3], &PackParams { axis: 1, values_count: 2 }, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn pack<T: Copy>(
    inputs: &[&[T]],
    shape: &[usize],
    params: &PackParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    if inputs.len() != params.values_count {
        return Err(TfliteError::Length {
            what: "PACK's inputs",
            expected: params.values_count,
            actual: inputs.len(),
        });
    }
    let axis = i32::try_from(params.axis).unwrap_or(i32::MAX);
    let out_shape = pack_output_shape(shape, params.values_count, axis)?;
    for x in inputs {
        check_length("PACK's input", shape, x.len())?;
    }
    check_length("output", out_shape.dims(), output.len())?;
    let block = count("PACK's input", shape.get(params.axis..).unwrap_or(&[]))?;
    let outer = count("PACK's input", shape.get(..params.axis).unwrap_or(&[]))?;
    join(inputs, |_| block, outer, output);
    Ok(())
}

/// Writes, for each of `outer` steps, block `o` of each input in turn
/// (input `k`'s blocks are `block(k)` long). The lengths were checked:
/// each input holds `outer` blocks and the output all of them.
fn join<T: Copy>(inputs: &[&[T]], block: impl Fn(usize) -> usize, outer: usize, output: &mut [T]) {
    let mut at = 0usize;
    for o in 0..outer {
        for (k, x) in inputs.iter().enumerate() {
            let b = block(k);
            let start = o.saturating_mul(b);
            let end = at.saturating_add(b);
            if let (Some(src), Some(dst)) = (
                x.get(start..start.saturating_add(b)),
                output.get_mut(at..end),
            ) {
                dst.copy_from_slice(src);
            }
            at = end;
        }
    }
}

/// `CONCATENATION`'s row in [`OPS`](crate::OPS): the inputs' shapes and
/// the options' axis to [`concatenation_output_shape`].
pub(crate) fn concatenation_row(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<OpShape, TfliteError> {
    let Ok(o) = read_concatenation_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "ConcatenationOptions"));
    };
    let (shapes, n) = input_shapes::<MAX_JOINED>(model, op, 0, "CONCATENATION's input count")?;
    let mut dims: [&[usize]; MAX_JOINED] = [&[]; MAX_JOINED];
    for (d, s) in dims.iter_mut().zip(shapes.iter()) {
        *d = s.dims();
    }
    concatenation_output_shape(dims.get(..n).unwrap_or(&[]), o.axis)
}

/// `PACK`'s row in [`OPS`](crate::OPS): input 0's shape, the number of
/// inputs and the options' axis to [`pack_output_shape`].
pub(crate) fn pack_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Ok(o) = read_pack_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "PackOptions"));
    };
    let input = crate::kernel::shape::operand(model, op, 0, "input")?;
    let shape = crate::kernel::shape::shape_of(op, "input", &input)?;
    pack_output_shape(shape.dims(), op.inputs().len(), o.axis)
}

// The interpreter's steps of the two ops: `prepare` (their rows', in
// `OPS`) checks the operator's operands and derives the parameters once;
// the step's `run` runs the kernel on int8 or f32 activations.

/// Each input's `(scale, zero point)`, and the output's.
type JoinQuantization = ([(f32, i32); MAX_JOINED], (f32, i32));

/// The `(scale, zero point)` of each input and of the output of a join
/// (int8 and int16: TFLite Micro checks int8's are equal, and int16's
/// zero points 0; shapecheck requires int16's to be equal too, as the
/// values are copied unchanged), or the same pair for all (int32, f32).
fn join_quantization(
    c: &Checker<'_>,
    dtype: TensorType,
    inputs: &[Option<crate::format::model::ModelTensor<'_>>],
) -> Result<JoinQuantization, TfliteError> {
    let mut quants = [(1.0f32, 0i32); MAX_JOINED];
    if !matches!(dtype, TensorType::Int8 | TensorType::Int16) {
        return Ok((quants, (1.0, 0)));
    }
    for (q, t) in quants.iter_mut().zip(inputs) {
        if let Some(t) = t {
            *q = c.per_tensor("input", t)?;
        }
    }
    Ok((quants, c.per_tensor("output", &c.output)?))
}

/// The shapes of a join's inputs.
fn join_shapes(
    c: &Checker<'_>,
    inputs: &[Option<crate::format::model::ModelTensor<'_>>],
) -> Result<[OpShape; MAX_JOINED], TfliteError> {
    let mut shapes = [op_shape("a join's input", &[])?; MAX_JOINED];
    for (s, t) in shapes.iter_mut().zip(inputs) {
        if let Some(t) = t {
            *s = crate::kernel::shape::shape_of(&c.op, "input", t)?;
        }
    }
    Ok(shapes)
}

/// `CONCATENATION`'s row in `OPS`: checks the operator (each input's
/// scale and zero point the output's, for int8) and prepares its step.
pub(crate) fn prepare_concatenation<'m, S: From<ConcatenationStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(o) = read_concatenation_options(&c.op.raw_options()) else {
        return Err(options_mismatch(&c.op, "ConcatenationOptions"));
    };
    let (places, inputs) = prepare_join(c)?;
    let n = places.count;
    let (quants, output) = join_quantization(c, places.dtype, &inputs)?;
    let shapes = join_shapes(c, &inputs)?;
    let rank = shapes.first().map_or(0, |s| s.dims().len());
    let params = concatenation_params(
        quants.get(..n).unwrap_or(&[]),
        output,
        o.axis,
        rank,
        o.fused_activation,
    )
    .map_err(|e| match e {
        TfliteError::UnsupportedActivation { activation } => {
            c.unsupported_option("fused activation", activation.name())
        }
        other => other,
    })?;
    // the inputs' shapes are the output's but at the axis: the step keeps
    // the output's shape and each input's dim there
    let [first, ..] = shapes;
    let mut axis_dims = [0usize; MAX_JOINED];
    for (d, s) in axis_dims.iter_mut().zip(shapes.iter()) {
        *d = s.dims().get(params.axis).copied().unwrap_or(0);
    }
    Ok(S::from(ConcatenationStep {
        places,
        first,
        axis_dims,
        params,
    }))
}

/// `CONCATENATION`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct ConcatenationStep {
    pub places: Places<MAX_JOINED>,
    /// input 0's shape
    pub first: OpShape,
    /// each input's dim at the axis (the rest are input 0's)
    pub axis_dims: [usize; MAX_JOINED],
    pub params: ConcatenationParams,
}

impl crate::base::write_rust::WriteRust for ConcatenationStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ConcatenationStep",
            &[
                ("places", &self.places),
                ("first", &self.first),
                ("axis_dims", &self.axis_dims),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveJoin for ConcatenationStep {
    fn apply<T: Copy>(&self, inputs: &[&[T]], output: &mut [T]) -> Result<(), TfliteError> {
        let mut shapes = [self.first; MAX_JOINED];
        for (s, &d) in shapes.iter_mut().zip(self.axis_dims.iter()) {
            if let Some(axis) = s.dims.get_mut(self.params.axis) {
                *axis = d;
            }
        }
        let mut dims: [&[usize]; MAX_JOINED] = [&[]; MAX_JOINED];
        for (d, s) in dims.iter_mut().zip(shapes.iter()) {
            *d = s.dims();
        }
        let dims = dims.get(..inputs.len()).unwrap_or(&[]);
        concatenation(inputs, dims, &self.params, output)
    }
}

impl ConcatenationStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut crate::kernel::step::Buffers<'_>) -> Result<(), TfliteError> {
        run_join(b, &self.places, self)
    }
}

/// `PACK`'s row in `OPS`: checks the operator (each input's scale and
/// zero point the output's, for int8) and prepares its step.
pub(crate) fn prepare_pack<'m, S: From<PackStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(o) = read_pack_options(&c.op.raw_options()) else {
        return Err(options_mismatch(&c.op, "PackOptions"));
    };
    let (places, inputs) = prepare_join(c)?;
    let n = places.count;
    let (quants, output) = join_quantization(c, places.dtype, &inputs)?;
    let shapes = join_shapes(c, &inputs)?;
    // every input has input 0's shape
    let [shape, ..] = shapes;
    for t in inputs.iter().take(n).flatten() {
        c.rank("input", t, shape.dims().len())?;
        for (axis, &d) in shape.dims().iter().enumerate() {
            c.dim("input", t, axis, d)?;
        }
    }
    let params = pack_params(
        quants.get(..n).unwrap_or(&[]),
        output,
        o.values_count,
        o.axis,
        shape.dims().len(),
    )?;
    Ok(S::from(PackStep {
        places,
        shape,
        params,
    }))
}

/// `PACK`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct PackStep {
    pub places: Places<MAX_JOINED>,
    pub shape: OpShape,
    pub params: PackParams,
}

impl crate::base::write_rust::WriteRust for PackStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PackStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveJoin for PackStep {
    fn apply<T: Copy>(&self, inputs: &[&[T]], output: &mut [T]) -> Result<(), TfliteError> {
        pack(inputs, self.shape.dims(), &self.params, output)
    }
}

impl PackStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut crate::kernel::step::Buffers<'_>) -> Result<(), TfliteError> {
        run_join(b, &self.places, self)
    }
}
