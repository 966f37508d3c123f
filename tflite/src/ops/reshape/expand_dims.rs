//! TFLite's `EXPAND_DIMS`: a dim of 1 inserted into a shape, the data
//! unchanged, as TFLite Micro's `expand_dims.cc` copies it. Any element
//! type.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use crate::shared::moves::{constant_i32, op_shape, wide};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// An `EXPAND_DIMS`'s parameters ([`expand_dims_params`]).
///
/// ```
/// use shapecheck_tflite::ExpandDimsParams;
///
/// const AT_2: ExpandDimsParams = ExpandDimsParams { axis: 2 };
/// assert_eq!(AT_2.axis, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpandDimsParams {
    /// where the new dim goes, in `[0, rank]` of the input
    pub axis: usize,
}

/// An `EXPAND_DIMS`'s parameters for an input of `input_rank` dims and
/// the constant `axis` (TFLite's rule: in `[−rank − 1, rank]`, a negative
/// axis counted from the end of the output's dims).
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range.
///
/// ```
/// use shapecheck_tflite::expand_dims_params;
///
/// // expand_dims.tflite: axis 2 of [1, 5, 6]
/// assert_eq!(expand_dims_params(3, 2)?.axis, 2);
/// assert_eq!(expand_dims_params(3, -1)?.axis, 3);
/// assert!(expand_dims_params(3, 4).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn expand_dims_params(input_rank: usize, axis: i32) -> Result<ExpandDimsParams, TfliteError> {
    let signed = i64::from(axis);
    let index = if signed < 0 {
        signed.saturating_add(wide(input_rank)).saturating_add(1)
    } else {
        signed
    };
    usize::try_from(index)
        .ok()
        .filter(|&a| a <= input_rank)
        .map(|axis| ExpandDimsParams { axis })
        .ok_or(TfliteError::KernelParam {
            what: "EXPAND_DIMS's axis",
            value: signed,
            rule: "the axis is in [−rank − 1, rank], a negative one counted from the end",
        })
}

/// The output shape of an `EXPAND_DIMS` of `params` on an input of
/// `input_shape`: a 1 inserted at the axis.
///
/// Fails with [`TfliteError::KernelParam`] for an axis past the rank or
/// an output of more than 6 dims.
///
/// ```
/// use shapecheck_tflite::{expand_dims_output_shape, expand_dims_params};
///
/// let p = expand_dims_params(3, 2)?;
/// assert_eq!(expand_dims_output_shape(&[1, 5, 6], &p)?.dims(), &[1, 5, 1, 6]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn expand_dims_output_shape(
    input_shape: &[usize],
    params: &ExpandDimsParams,
) -> Result<OpShape, TfliteError> {
    let (Some(before), Some(after)) = (
        input_shape.get(..params.axis),
        input_shape.get(params.axis..),
    ) else {
        return Err(TfliteError::KernelParam {
            what: "EXPAND_DIMS's axis",
            value: wide(params.axis),
            rule: "the axis is at most the input's rank",
        });
    };
    let mut dims = [0usize; MAX_DIMS + 1];
    let rank = input_shape.len().saturating_add(1);
    for (d, &v) in dims.iter_mut().zip(before.iter().chain(&[1]).chain(after)) {
        *d = v;
    }
    op_shape(
        "EXPAND_DIMS's output rank",
        dims.get(..rank).unwrap_or(&dims),
    )
}

/// TFLite's `EXPAND_DIMS`'s data: the input's elements, unchanged, into
/// `output`. Fails, with `output` untouched, when the lengths differ
/// ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::expand_dims;
///
/// let mut out = [0i8; 3];
/// expand_dims(&[1, 2, 3], &mut out)?;
/// assert_eq!(out, [1, 2, 3]);
/// assert!(expand_dims(&[1, 2], &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn expand_dims<T: Copy>(input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
    crate::ops::reshape::reshape(input, output)
}

/// `EXPAND_DIMS`'s parameters and input shape from its operands: the
/// input and the constant int32 axis (input 1, one value).
pub(crate) fn expand_dims_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(ExpandDimsParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let axis = constant_i32(model, op, 1, "axis")?;
    let value = match (axis.len(), axis.get(0)) {
        (1, Some(a)) => a,
        _ => {
            return Err(TfliteError::KernelParam {
                what: "EXPAND_DIMS's axis count",
                value: wide(axis.len()),
                rule: "the axis is one int32 value",
            })
        }
    };
    Ok((expand_dims_params(shape.dims().len(), value)?, shape))
}

/// `EXPAND_DIMS`'s row in [`OPS`](crate::OPS).
pub(crate) fn expand_dims_row(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<OpShape, TfliteError> {
    let (params, shape) = expand_dims_operands(model, op)?;
    expand_dims_output_shape(shape.dims(), &params)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `EXPAND_DIMS`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<ExpandDimsStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    expand_dims_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(ExpandDimsStep { places }))
}

/// `EXPAND_DIMS`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct ExpandDimsStep {
    pub places: Places<1>,
}

impl crate::base::write_rust::WriteRust for ExpandDimsStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(w, k, "ExpandDimsStep", &[("places", &self.places)])
    }
}

impl MoveOne for ExpandDimsStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        expand_dims(input, output)
    }
}

impl ExpandDimsStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
