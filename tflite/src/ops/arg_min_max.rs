//! TFLite's `ARG_MAX` and `ARG_MIN`: the index along one axis of each
//! line's largest (smallest) element, as TFLite Micro's
//! `reference_ops::ArgMinMax` finds it (the first such index on a tie),
//! written as int32. The ops compare elements only, so they run on any
//! element type.

use crate::arith::quant::QuantizedMultiplier;
use crate::arith::window::{length, product};
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, operand_problem, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use core::ops::Range;

/// `ArgMaxOptions` / `ArgMinOptions`: the output's element type (TFLite
/// Micro runs int32 only).
///
/// ```
/// use shapecheck_tflite::{Model, Options, TensorType};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/arg_max.tflite")))?;
/// let Options::ArgMinMax(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.output_type, TensorType::Int32);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArgMinMaxOptions {
    /// `output_type`
    pub output_type: TensorType,
}

/// `ArgMaxOptions`' and `ArgMinOptions`' type values in the schema's
/// `BuiltinOptions` union.
const ARG_MAX_OPTIONS: u8 = 40;
const ARG_MIN_OPTIONS: u8 = 57;

/// Reads `ARG_MAX`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_arg_max_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<ArgMinMaxOptions, TfliteError> {
    read(r, ARG_MAX_OPTIONS, "ArgMaxOptions")
}

/// Reads `ARG_MIN`'s options, as [`read_arg_max_options`].
pub(crate) fn read_arg_min_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<ArgMinMaxOptions, TfliteError> {
    read(r, ARG_MIN_OPTIONS, "ArgMinOptions")
}

/// The output type of a table of type `ty` (`name`); the schema's
/// default is INT64 (4).
fn read<'a>(
    r: &OptionsReader<'a>,
    ty: u8,
    name: &'static str,
) -> Result<ArgMinMaxOptions, TfliteError> {
    let value = match r.table(ty, name)? {
        Some(t) => t.i8(0, 4).map_err(r.fault("output_type"))?,
        None => 4,
    };
    let output_type = TensorType::from_schema(value).ok_or(r.enum_value(value, "output_type"))?;
    Ok(ArgMinMaxOptions { output_type })
}

/// An input of `input_dims` seen as `[outer, axis, inner]` around the
/// axis `axis` (in `[−rank, rank)`), what [`arg_max`] and [`arg_min`]
/// take.
///
/// ```
/// use shapecheck_tflite::{arg_min_max_dims, ArgMinMaxDims};
///
/// assert_eq!(
///     arg_min_max_dims(&[1, 5, 6, 7], -1)?,
///     ArgMinMaxDims { outer: 30, axis: 7, inner: 1 }
/// );
/// assert_eq!(arg_min_max_dims(&[1, 5, 6, 7], 1)?, ArgMinMaxDims { outer: 1, axis: 5, inner: 42 });
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgMinMaxDims {
    /// the product of the dims before the axis
    pub outer: usize,
    /// the axis's size
    pub axis: usize,
    /// the product of the dims after it
    pub inner: usize,
}

impl crate::base::write_rust::WriteRust for ArgMinMaxDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ArgMinMaxDims",
            &[
                ("outer", &self.outer),
                ("axis", &self.axis),
                ("inner", &self.inner),
            ],
        )
    }
}

/// The axis `axis` of an input of `input_dims` resolved (negative counts
/// from the end), or [`TfliteError::KernelParam`] out of `[−rank, rank)`.
fn resolve(input_dims: &[usize], axis: i32) -> Result<usize, TfliteError> {
    let rank = i32::try_from(input_dims.len()).unwrap_or(i32::MAX);
    let resolved = if axis < 0 { axis + rank } else { axis };
    usize::try_from(resolved)
        .ok()
        .filter(|&a| a < input_dims.len())
        .ok_or(TfliteError::KernelParam {
            what: "arg max / min's axis",
            value: i64::from(axis),
            rule: "it must be in [−rank, rank) of the input",
        })
}

/// The input of `input_dims` around the axis `axis` ([`ArgMinMaxDims`]).
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range, and
/// [`TfliteError::Length`] when the sizes' product overflows.
///
/// ```
/// use shapecheck_tflite::{arg_min_max_dims, TfliteError};
/// assert!(matches!(arg_min_max_dims(&[2, 3], 2), Err(TfliteError::KernelParam { .. })));
/// ```
pub fn arg_min_max_dims(input_dims: &[usize], axis: i32) -> Result<ArgMinMaxDims, TfliteError> {
    let a = resolve(input_dims, axis)?;
    let before = input_dims.get(..a).unwrap_or(&[]);
    let after = input_dims.get(a + 1..).unwrap_or(&[]);
    Ok(ArgMinMaxDims {
        outer: product("input", before)?,
        axis: input_dims.get(a).copied().unwrap_or(0),
        inner: product("input", after)?,
    })
}

/// The output shape of `ARG_MAX` / `ARG_MIN` over `axis` of an input of
/// `input_dims`: the input's dims without the axis.
///
/// ```
/// use shapecheck_tflite::arg_min_max_output_shape;
///
/// assert_eq!(arg_min_max_output_shape(&[1, 5, 6, 7], -1)?.dims(), &[1, 5, 6]);
/// assert_eq!(arg_min_max_output_shape(&[1, 5, 6, 7], 1)?.dims(), &[1, 6, 7]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn arg_min_max_output_shape(input_dims: &[usize], axis: i32) -> Result<OpShape, TfliteError> {
    let a = resolve(input_dims, axis)?;
    let mut dims = [0usize; MAX_DIMS];
    let kept = input_dims
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != a)
        .map(|(_, &d)| d);
    let mut rank = 0;
    for (slot, d) in dims.iter_mut().zip(kept) {
        *slot = d;
        rank += 1;
    }
    OpShape::new(dims.get(..rank).unwrap_or(&[])).ok_or(TfliteError::KernelParam {
        what: "arg max / min's input rank",
        value: i64::try_from(input_dims.len()).unwrap_or(i64::MAX),
        rule: "it must be at most 7",
    })
}

/// The shape rule of `ARG_MAX` and `ARG_MIN` (their rows'
/// `output_shape`): the input and the constant int32 axis (input 1, one
/// value), through [`arg_min_max_output_shape`].
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let x = shape_of(op, "input", &input)?;
    let axis = constant_axis(model, op)?;
    arg_min_max_output_shape(x.dims(), axis)
}

/// `ARG_MAX` / `ARG_MIN`'s axis: its constant int32 input 1 of one value.
pub(crate) fn constant_axis(model: &Model<'_>, op: &Operator<'_>) -> Result<i32, TfliteError> {
    let t = operand(model, op, 1, "axis")?;
    t.data_as::<i32>()
        .filter(|v| v.len() == 1)
        .and_then(|v| v.get(0))
        .ok_or(operand_problem(
            op,
            "axis",
            &t,
            crate::format::error::OperandProblem::Constant { expected: true },
        ))
}

/// TFLite's `ARG_MAX`: for each line along the axis of `dims`, the index
/// of its largest element (the first on a tie), as TFLite Micro writes
/// it. `output` holds `outer · inner` indices, in the input's order
/// without the axis.
///
/// Fails, with `output` untouched, when a length does not match `dims`,
/// the axis is empty (and there are outputs), or its size does not fit
/// an `i32`.
///
/// ```
/// use shapecheck_tflite::{arg_max, arg_min_max_dims};
///
/// let dims = arg_min_max_dims(&[2, 3], -1)?;
/// let mut out = [0i32; 2];
/// arg_max(&[1i8, 7, 7, -3, -5, -4], dims, &mut out)?;
/// assert_eq!(out, [1, 0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn arg_max<T: Copy + PartialOrd>(
    input: &[T],
    dims: ArgMinMaxDims,
    output: &mut [i32],
) -> Result<(), TfliteError> {
    arg_by(input, dims, output, |x, best| x > best)
}

/// TFLite's `ARG_MIN`: as [`arg_max`], the index of each line's smallest
/// element (the first on a tie).
///
/// ```
/// use shapecheck_tflite::{arg_min, arg_min_max_dims};
///
/// // [3, 2] along axis 0: each column's smallest row
/// let dims = arg_min_max_dims(&[3, 2], 0)?;
/// let mut out = [0i32; 2];
/// arg_min(&[4i8, 1, 2, 1, 2, 0], dims, &mut out)?;
/// assert_eq!(out, [1, 2]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn arg_min<T: Copy + PartialOrd>(
    input: &[T],
    dims: ArgMinMaxDims,
    output: &mut [i32],
) -> Result<(), TfliteError> {
    arg_by(input, dims, output, |x, best| x < best)
}

/// Each line's index whose element `better` prefers to every one before.
fn arg_by<T: Copy>(
    input: &[T],
    dims: ArgMinMaxDims,
    output: &mut [i32],
    better: impl Fn(T, T) -> bool,
) -> Result<(), TfliteError> {
    let ArgMinMaxDims { outer, axis, inner } = dims;
    length(
        "input",
        product("input", &[outer, axis, inner])?,
        input.len(),
    )?;
    length("output", product("output", &[outer, inner])?, output.len())?;
    if output.is_empty() {
        return Ok(());
    }
    if axis == 0 || i32::try_from(axis).is_err() {
        return Err(TfliteError::KernelParam {
            what: "arg max / min's axis size",
            value: i64::try_from(axis).unwrap_or(i64::MAX),
            rule: "it must be at least 1 and fit an int32",
        });
    }
    // checked: outer · axis · inner is the input's length, inner ≥ 1
    for (k, out) in output.iter_mut().enumerate() {
        let (o, i) = (k / inner, k % inner);
        let line = o * axis * inner + i;
        let mut best_index = 0usize;
        let mut best = input.get(line).copied();
        for a in 1..axis {
            let x = input.get(line + a * inner).copied();
            if let (Some(x), Some(b)) = (x, best) {
                if better(x, b) {
                    best = Some(x);
                    best_index = a;
                }
            }
        }
        // below axis, which fits an i32
        *out = best_index as i32;
    }
    Ok(())
}

// The interpreter's step of the ops: `prepare` (their rows', in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `ARG_MAX`'s or `ARG_MIN`'s interpreter step: its int8 input's and
/// int32 output's places in their arenas, its sizes, checked once by
/// [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct ArgMinMaxStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub dims: ArgMinMaxDims,
    pub max: bool,
}

impl crate::base::write_rust::WriteRust for ArgMinMaxStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ArgMinMaxStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("dims", &self.dims),
                ("max", &self.max),
            ],
        )
    }
}

impl ArgMinMaxStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let x = b.int8.get(self.input.clone()).ok_or(b.overlap)?;
        let y = b.int32.get_mut(self.output.clone()).ok_or(b.overlap)?;
        if self.max {
            arg_max(x, self.dims, y)
        } else {
            arg_min(x, self.dims, y)
        }
    }
}

/// The row's `prepare` of `ARG_MAX` and `ARG_MIN`: an int8 input, the
/// axis a constant int32 of one value, an int32 output (TFLite Micro runs
/// no other output type).
pub(crate) fn prepare<'m, S: From<ArgMinMaxStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let read = if c.op.op() == BuiltinOp::ARG_MAX {
        read_arg_max_options
    } else {
        read_arg_min_options
    };
    let Ok(options) = read(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if options.output_type != TensorType::Int32 {
        return Err(c.unsupported_option("output_type", options.output_type.name()));
    }
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Int32)?;
    let x = shape_of(&c.op, "input", &input)?;
    let dims = arg_min_max_dims(x.dims(), constant_axis(&c.model, &c.op)?)?;
    Ok(S::from(ArgMinMaxStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        dims,
        max: c.op.op() == BuiltinOp::ARG_MAX,
    }))
}
