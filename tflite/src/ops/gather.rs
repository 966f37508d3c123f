//! TFLite's `GATHER` on slices: slices of a tensor along an axis, picked
//! by int32 indices, as TFLite Micro's `gather.cc` copies them. Any
//! element type; the values are copied unchanged. The indices are read
//! from a slice or in place from a model ([`Values`]).

use crate::arith::dims::check_length;
use crate::arith::quant::QuantizedMultiplier;
use crate::format::array::Array;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use crate::shared::moves::{count, op_shape, options_mismatch, positive_axis, wide};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// The `BuiltinOptions` type of `GatherOptions`.
const GATHER_OPTIONS: u8 = 23;

/// `GatherOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/gather.tflite")))?;
/// let Options::Gather(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.axis, o.batch_dims), (1, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GatherOptions {
    /// `axis`: the input's axis the indices pick along (negative from the end)
    pub axis: i32,
    /// `batch_dims`: the leading dims the input and the indices share
    /// (negative from the end of the indices' dims)
    pub batch_dims: i32,
}

/// Reads `GATHER`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<GatherOptions, TfliteError> {
    let (axis, batch_dims) = match r.table(GATHER_OPTIONS, "GatherOptions")? {
        Some(t) => (
            t.i32(0, 0).map_err(r.fault("axis"))?,
            t.i32(1, 0).map_err(r.fault("batch_dims"))?,
        ),
        None => (0, 0),
    };
    Ok(GatherOptions { axis, batch_dims })
}

/// A `GATHER`'s parameters ([`gather_params`]).
///
/// ```
/// use shapecheck_tflite::GatherParams;
///
/// const ROWS: GatherParams = GatherParams { axis: 1, batch_dims: 0 };
/// assert_eq!(ROWS.axis, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherParams {
    /// the input's axis picked along
    pub axis: usize,
    /// the leading dims the input and the indices share, at most `axis`
    pub batch_dims: usize,
}

impl crate::base::write_rust::WriteRust for GatherParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "GatherParams",
            &[("axis", &self.axis), ("batch_dims", &self.batch_dims)],
        )
    }
}

/// A `GATHER`'s parameters for an input of `input_shape` and indices of
/// `indices_shape`, as TFLite Micro's `GatherPrepare` checks them: `axis`
/// in `[−rank, rank)` of the input, `batch_dims` in `[−rank, rank]` of
/// the indices (negative from the end), below the input's rank, at most
/// the axis, and the first `batch_dims` dims of both equal.
///
/// Fails with [`TfliteError::KernelParam`] naming the rule broken.
///
/// ```
/// use shapecheck_tflite::gather_params;
///
/// // gather.tflite: rows [3, 0, 4, 4, 1] of a [1, 5, 6] on axis 1
/// assert_eq!(gather_params(&[1, 5, 6], &[5], 1, 0)?.axis, 1);
/// assert_eq!(gather_params(&[1, 5, 6], &[5], -1, 0)?.axis, 2);
/// assert!(gather_params(&[1, 5, 6], &[5], 3, 0).is_err());
/// assert!(gather_params(&[2, 5, 6], &[3, 2], 1, 1).is_err()); // 2 ≠ 3
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn gather_params(
    input_shape: &[usize],
    indices_shape: &[usize],
    axis: i32,
    batch_dims: i32,
) -> Result<GatherParams, TfliteError> {
    let axis = positive_axis("GATHER's axis", axis, input_shape.len())?;
    let signed = i64::from(batch_dims);
    let batch = if signed < 0 {
        signed.saturating_add(wide(indices_shape.len()))
    } else {
        signed
    };
    let batch_dims = usize::try_from(batch)
        .ok()
        .filter(|&b| b <= axis && b <= indices_shape.len())
        .ok_or(TfliteError::KernelParam {
            what: "GATHER's batch_dims",
            value: signed,
            rule: "batch_dims is in [0, axis] and at most the indices' rank",
        })?;
    if input_shape.get(..batch_dims) != indices_shape.get(..batch_dims) {
        return Err(TfliteError::KernelParam {
            what: "GATHER's batch_dims",
            value: wide(batch_dims),
            rule: "the input's and the indices' first batch_dims dims must be equal",
        });
    }
    Ok(GatherParams { axis, batch_dims })
}

/// The output shape of a `GATHER` of `params`: the input's dims before
/// the axis, the indices' dims after the batch dims, then the input's
/// dims after the axis.
///
/// Fails with [`TfliteError::KernelParam`] for an axis past the input's
/// rank or batch dims past the indices', or more than 6 dims.
///
/// ```
/// use shapecheck_tflite::{gather_output_shape, gather_params};
///
/// let p = gather_params(&[1, 5, 6], &[5], 1, 0)?;
/// assert_eq!(gather_output_shape(&[1, 5, 6], &[5], &p)?.dims(), &[1, 5, 6]);
/// let p = gather_params(&[4, 6], &[2, 3], 0, 0)?;
/// assert_eq!(gather_output_shape(&[4, 6], &[2, 3], &p)?.dims(), &[2, 3, 6]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn gather_output_shape(
    input_shape: &[usize],
    indices_shape: &[usize],
    params: &GatherParams,
) -> Result<OpShape, TfliteError> {
    let before = input_shape.get(..params.axis);
    let picked = indices_shape.get(params.batch_dims..);
    let after = input_shape.get(params.axis.saturating_add(1)..);
    let (Some(before), Some(picked), Some(after)) = (before, picked, after) else {
        return Err(TfliteError::KernelParam {
            what: "GATHER's axis",
            value: wide(params.axis),
            rule: "the axis is below the input's rank, the batch dims at most the indices'",
        });
    };
    let mut dims = [0usize; 3 * MAX_DIMS];
    let rank = before.len() + picked.len() + after.len();
    for (d, &v) in dims
        .iter_mut()
        .zip(before.iter().chain(picked).chain(after))
    {
        *d = v;
    }
    op_shape("GATHER's output rank", dims.get(..rank).unwrap_or(&[]))
}

/// TFLite's `GATHER`: for each batch and each index before the axis, the
/// input's slices at the axis that the indices (of `indices_shape`, that
/// batch's) name, in the indices' order, into `output` (of
/// [`gather_output_shape`]). `input` is row-major of `input_shape`.
///
/// Fails, with `output` untouched, as [`gather_output_shape`] does, for
/// an index outside `[0, dim at the axis)` ([`TfliteError::KernelParam`];
/// TFLite Micro only debug-asserts it), or when a slice is not as long as
/// its shape's element count ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::{gather, gather_params};
///
/// let mut out = [0i8; 6];
/// // rows 2, 0, 2 of a [3, 2]
/// let p = gather_params(&[3, 2], &[3], 0, 0)?;
/// gather(&[1, 2, 3, 4, 5, 6], &[3, 2], &[2, 0, 2], &[3], &p, &mut out)?;
/// assert_eq!(out, [5, 6, 1, 2, 5, 6]);
/// assert!(gather(&[1, 2, 3, 4, 5, 6], &[3, 2], &[2, 0, 3], &[3], &p, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn gather<T: Copy, I: Values<i32> + ?Sized>(
    input: &[T],
    input_shape: &[usize],
    indices: &I,
    indices_shape: &[usize],
    params: &GatherParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let out_shape = gather_output_shape(input_shape, indices_shape, params)?;
    if params.batch_dims > params.axis
        || input_shape.get(..params.batch_dims) != indices_shape.get(..params.batch_dims)
    {
        return Err(TfliteError::KernelParam {
            what: "GATHER's batch_dims",
            value: wide(params.batch_dims),
            rule: "batch_dims is at most the axis, and the input's and the indices' first batch_dims dims are equal",
        });
    }
    check_length("GATHER's input", input_shape, input.len())?;
    check_length("GATHER's indices", indices_shape, indices.count())?;
    check_length("output", out_shape.dims(), output.len())?;
    let axis_size = input_shape.get(params.axis).copied().unwrap_or(0);
    for k in 0..indices.count() {
        let i = indices.at(k).unwrap_or(-1);
        if usize::try_from(i).map_or(true, |i| i >= axis_size) {
            return Err(TfliteError::KernelParam {
                what: "GATHER's index",
                value: i64::from(i),
                rule: "an index is in [0, dim at the axis)",
            });
        }
    }
    let part = |range: Option<&[usize]>| count("GATHER's input", range.unwrap_or(&[]));
    let batches = part(input_shape.get(..params.batch_dims))?;
    let outer = part(input_shape.get(params.batch_dims..params.axis))?;
    let inner = part(input_shape.get(params.axis.saturating_add(1)..))?;
    let picks = part(indices_shape.get(params.batch_dims..))?;
    let mut at = 0usize;
    for batch in 0..batches {
        for o in 0..outer {
            let block = batch.saturating_mul(outer).saturating_add(o);
            for k in 0..picks {
                let pick = indices
                    .at(batch.saturating_mul(picks).saturating_add(k))
                    .and_then(|i| usize::try_from(i).ok())
                    .unwrap_or(0);
                let start = block
                    .saturating_mul(axis_size)
                    .saturating_add(pick)
                    .saturating_mul(inner);
                let end = at.saturating_add(inner);
                if let (Some(src), Some(dst)) = (
                    input.get(start..start.saturating_add(inner)),
                    output.get_mut(at..end),
                ) {
                    dst.copy_from_slice(src);
                }
                at = end;
            }
        }
    }
    Ok(())
}

/// `GATHER`'s parameters and shapes from its operands: the input, the
/// constant int32 indices (input 1) and the options.
pub(crate) fn gather_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(GatherParams, OpShape, OpShape), TfliteError> {
    let Ok(o) = read_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "GatherOptions"));
    };
    let input = operand(model, op, 0, "input")?;
    let indices = operand(model, op, 1, "indices")?;
    let shape = shape_of(op, "input", &input)?;
    let indices_shape = shape_of(op, "indices", &indices)?;
    let params = gather_params(shape.dims(), indices_shape.dims(), o.axis, o.batch_dims)?;
    Ok((params, shape, indices_shape))
}

/// `GATHER`'s row in [`OPS`](crate::OPS).
pub(crate) fn gather_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape, indices_shape) = gather_operands(model, op)?;
    gather_output_shape(shape.dims(), indices_shape.dims(), &params)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `GATHER`'s row in `OPS`: checks the operator (its indices a constant
/// int32 tensor, read in place) and prepares its step.
pub(crate) fn prepare<'m, S: From<GatherStep<'m>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape, indices_shape) = gather_operands(&c.model, &c.op)?;
    let indices = crate::shared::moves::constant_i32(&c.model, &c.op, 1, "indices")?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(GatherStep {
        places,
        shape,
        indices,
        indices_shape,
        params,
    }))
}

/// `GATHER`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct GatherStep<'m> {
    pub places: Places<1>,
    pub shape: OpShape,
    pub indices: Array<'m, i32>,
    pub indices_shape: OpShape,
    pub params: GatherParams,
}

impl crate::base::write_rust::WriteRust for GatherStep<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "GatherStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("indices", &self.indices),
                ("indices_shape", &self.indices_shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for GatherStep<'_> {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        gather(
            input,
            self.shape.dims(),
            &self.indices,
            self.indices_shape.dims(),
            &self.params,
            output,
        )
    }
}

impl GatherStep<'_> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
