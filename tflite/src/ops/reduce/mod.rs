//! TFLite's reductions over any axes of a tensor of any rank (up to
//! [`MAX_DIMS`]): int8 `MEAN` and `SUM`, as TFLite Micro's reduce kernel
//! computes them (`reference_ops::QuantizedMeanOrSum`: the sum, less the
//! input's zero point per element, requantized once), and `REDUCE_MAX` /
//! `REDUCE_MIN`, which move data (one scale and zero point in and out) and
//! so run on any element type.
//!
//! The axes are resolved once ([`reduce_axes`]): negative ones count from
//! the end, a repeated one counts once. The output keeps the input's other
//! dims in order ([`reduce_output_shape`]; `keep_dims` leaves each reduced
//! dim as a 1).

use crate::arith::quant::{quantize_multiplier, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::length;
use crate::format::error::{OperandProblem, TfliteError};
use crate::format::model::{Model, Operator, OptionsReader};
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::{split, Checker};
use crate::kernel::shape::{operand, operand_problem, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
use crate::ops::reduce::mean::{mean_int8, mean_params, MeanParams};

use crate::shared::broadcast::Lane;
use core::ops::Range;

/// The input's dims and which of them a reduction folds, resolved from
/// its axes by [`reduce_axes`].
///
/// ```
/// use shapecheck_tflite::reduce_axes;
///
/// let r = reduce_axes(&[1, 5, 6, 3], &[-2, 1, 2])?;
/// assert_eq!(&r.reduced[..4], &[false, true, true, false]);
/// assert_eq!((r.count(), r.outputs()), (Some(30), Some(3)));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceAxes {
    /// the input's dims (the first `rank` of them)
    pub dims: [usize; MAX_DIMS],
    /// the input's rank
    pub rank: usize,
    /// whether each axis is reduced
    pub reduced: [bool; MAX_DIMS],
}

impl crate::base::write_rust::WriteRust for ReduceAxes {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ReduceAxes",
            &[
                ("dims", &self.dims),
                ("rank", &self.rank),
                ("reduced", &self.reduced),
            ],
        )
    }
}

impl ReduceAxes {
    /// The elements folded into each output (1 when no axis is reduced),
    /// `None` on overflow.
    ///
    /// ```
    /// use shapecheck_tflite::reduce_axes;
    /// assert_eq!(reduce_axes(&[2, 3, 4], &[0, 2])?.count(), Some(8));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn count(&self) -> Option<usize> {
        self.product(true)
    }

    /// The number of outputs: the product of the dims not reduced, `None`
    /// on overflow.
    ///
    /// ```
    /// use shapecheck_tflite::reduce_axes;
    /// assert_eq!(reduce_axes(&[2, 3, 4], &[0, 2])?.outputs(), Some(3));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn outputs(&self) -> Option<usize> {
        self.product(false)
    }

    /// The product of the dims whose `reduced` flag is `which`.
    fn product(&self, which: bool) -> Option<usize> {
        self.dims
            .iter()
            .zip(self.reduced.iter())
            .take(self.rank)
            .filter(|(_, &r)| r == which)
            .try_fold(1usize, |n, (&d, _)| n.checked_mul(d))
    }

    /// The input's offset of element `inner` (in row-major order over the
    /// reduced axes) of output `outer` (in row-major order over the kept
    /// axes). Both are below their counts, whose product is the input's
    /// length: every offset is below it.
    fn offset(&self, mut outer: usize, mut inner: usize) -> usize {
        let mut offset = 0;
        let mut stride = 1;
        for (&d, &reduced) in self
            .dims
            .iter()
            .zip(self.reduced.iter())
            .take(self.rank)
            .rev()
        {
            let index = if reduced { &mut inner } else { &mut outer };
            let coordinate = index.checked_rem(d).unwrap_or(0);
            *index = index.checked_div(d).unwrap_or(0);
            offset += coordinate * stride;
            stride *= d;
        }
        offset
    }

    /// The input's length, checked against the dims' product.
    fn check_input(&self, what: &'static str, len: usize) -> Result<(), TfliteError> {
        let expected = self
            .dims
            .iter()
            .take(self.rank)
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .unwrap_or(usize::MAX);
        length(what, expected, len)
    }
}

/// The reduction of an input of `input_dims` over `axes` (as TFLite's
/// axes tensor holds them: each in `[−rank, rank)`, negative ones counted
/// from the end, repeats allowed).
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range or an
/// input of more than [`MAX_DIMS`] dims.
///
/// ```
/// use shapecheck_tflite::{reduce_axes, TfliteError};
///
/// let r = reduce_axes(&[1, 9, 5], &[1])?;
/// assert_eq!(&r.reduced[..3], &[false, true, false]);
/// assert!(matches!(reduce_axes(&[1, 9, 5], &[3]), Err(TfliteError::KernelParam { .. })));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn reduce_axes(input_dims: &[usize], axes: &[i32]) -> Result<ReduceAxes, TfliteError> {
    let rank = input_dims.len();
    let mut r = ReduceAxes {
        dims: [0; MAX_DIMS],
        rank,
        reduced: [false; MAX_DIMS],
    };
    r.dims
        .get_mut(..rank)
        .ok_or(TfliteError::KernelParam {
            what: "reduction's input rank",
            value: i64::try_from(rank).unwrap_or(i64::MAX),
            rule: "it must be at most 6",
        })?
        .copy_from_slice(input_dims);
    for &axis in axes {
        let signed_rank = i32::try_from(rank).unwrap_or(i32::MAX);
        let resolved = if axis < 0 { axis + signed_rank } else { axis };
        let slot = usize::try_from(resolved)
            .ok()
            .filter(|&a| a < rank)
            .and_then(|a| r.reduced.get_mut(a))
            .ok_or(TfliteError::KernelParam {
                what: "reduction's axis",
                value: i64::from(axis),
                rule: "it must be in [−rank, rank) of the input",
            })?;
        *slot = true;
    }
    Ok(r)
}

/// The output shape of a reduction of `input_dims` over `axes`: the dims
/// not reduced, in order, or with `keep_dims` every dim with the reduced
/// ones 1 (TFLite's `MEAN`, `SUM`, `REDUCE_MAX`, `REDUCE_MIN`).
///
/// ```
/// use shapecheck_tflite::reduce_output_shape;
///
/// assert_eq!(reduce_output_shape(&[1, 5, 6, 3], &[1, 2], false)?.dims(), &[1, 3]);
/// assert_eq!(reduce_output_shape(&[1, 5, 4, 6], &[2], true)?.dims(), &[1, 5, 1, 6]);
/// assert_eq!(reduce_output_shape(&[1, 9, 5], &[-2], false)?.dims(), &[1, 5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reduce_output_shape(
    input_dims: &[usize],
    axes: &[i32],
    keep_dims: bool,
) -> Result<OpShape, TfliteError> {
    let r = reduce_axes(input_dims, axes)?;
    let mut dims = [0usize; MAX_DIMS];
    let mut rank = 0;
    for (&d, &reduced) in r.dims.iter().zip(r.reduced.iter()).take(r.rank) {
        if reduced && !keep_dims {
            continue;
        }
        if let Some(slot) = dims.get_mut(rank) {
            *slot = if reduced { 1 } else { d };
        }
        rank += 1;
    }
    // rank ≤ the input's, which reduce_axes checked
    OpShape::new(dims.get(..rank).unwrap_or(&[])).ok_or(TfliteError::KernelParam {
        what: "reduction's output rank",
        value: i64::try_from(rank).unwrap_or(i64::MAX),
        rule: "it must be at most 6",
    })
}

/// `ReducerOptions`' type value in the schema's `BuiltinOptions` union.
const REDUCER_OPTIONS: u8 = 27;

/// Reads the options of `MEAN`, `SUM`, `REDUCE_MAX` and `REDUCE_MIN`
/// (their rows' `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<ReducerOptions, TfliteError> {
    let t = r.table(REDUCER_OPTIONS, "ReducerOptions")?;
    let keep_dims = match t {
        Some(t) => t.bool(0).map_err(r.fault("keep_dims"))?,
        None => false,
    };
    Ok(ReducerOptions { keep_dims })
}

/// The shape rule of `MEAN`, `SUM`, `REDUCE_MAX` and `REDUCE_MIN` (their
/// rows' `output_shape`): the input, the constant int32 axes (input 1)
/// and the options' `keep_dims`, through [`reduce_output_shape`].
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let x = shape_of(op, "input", &input)?;
    let mut axes = [0i32; MAX_DIMS];
    let n = constant_axes(model, op, &mut axes)?;
    let keep = matches!(read_options(&op.raw_options()), Ok(o) if o.keep_dims);
    reduce_output_shape(x.dims(), axes.get(..n).unwrap_or(&[]), keep)
}

/// A reduction's axes, its constant int32 input 1, copied into `axes`;
/// their count.
pub(crate) fn constant_axes(
    model: &Model<'_>,
    op: &Operator<'_>,
    axes: &mut [i32; MAX_DIMS],
) -> Result<usize, TfliteError> {
    let t = operand(model, op, 1, "axes")?;
    let values = t
        .data_as::<i32>()
        .filter(|v| !v.is_empty() || t.elements() == 0)
        .filter(|v| v.len() <= MAX_DIMS)
        .ok_or(operand_problem(
            op,
            "axes",
            &t,
            crate::format::error::OperandProblem::Constant { expected: true },
        ))?;
    for (slot, v) in axes.iter_mut().zip(values.iter()) {
        *slot = v;
    }
    Ok(values.len())
}

/// The parameters of an int8 `SUM` of `count` elements per output, as
/// TFLite Micro computes them: the real multiplier `input_scale /
/// output_scale` (each widened to `f64`) by [`quantize_multiplier`], not
/// divided by `count` (a [`MeanParams`], whose kernel
/// [`mean_or_sum_int8`] is the same).
///
/// Fails with [`TfliteError::BadMultiplier`] when the ratio is negative,
/// NaN or infinite.
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, sum_params};
///
/// let p = sum_params(0.5, 1, 0.25, -1, 6)?;
/// assert_eq!(p.multiplier, quantize_multiplier(2.0)?);
/// assert_eq!((p.input_zero_point, p.output_zero_point, p.count), (1, -1, 6));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn sum_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    count: usize,
) -> Result<MeanParams, TfliteError> {
    Ok(MeanParams {
        multiplier: quantize_multiplier(f64::from(input_scale) / f64::from(output_scale))?,
        input_zero_point,
        output_zero_point,
        count,
    })
}

/// TFLite's int8 `MEAN` (with [`mean_params`](crate::mean_params)) or
/// `SUM` (with [`sum_params`]) over the axes of `axes`, as TFLite Micro
/// computes both: for each output, `sum = Σ x` over its `count` elements
/// in `i32`, then
/// `y = multiply_by_quantized_multiplier(sum − x_zp · count, M) + out_zp`
/// with TFLite Micro's double rounding, clamped to int8. With no element
/// to fold (`count` 0) every output is 0, as TFLite Micro writes. Over
/// axes 1 and 2 of a rank-4 input it is [`mean_int8`](crate::mean_int8).
///
/// The sums wrap on overflow (TFLite's are defined to). Fails, with
/// `output` untouched, when a length does not match the dims or
/// `params.count` is not the elements folded per output.
///
/// ```
/// use shapecheck_tflite::{mean_or_sum_int8, mean_params, reduce_axes, sum_params};
///
/// // [1, 3, 2] over axis 1: the columns' means and sums
/// let axes = reduce_axes(&[1, 3, 2], &[1])?;
/// let input = [1, 10, 2, 20, 4, 31];
/// let mut out = [0i8; 2];
/// mean_or_sum_int8(&input, &axes, &mean_params(0.1, 0, 0.1, 0, 3)?, &mut out)?;
/// assert_eq!(out, [2, 20]); // 7/3 → 2, 61/3 → 20
/// mean_or_sum_int8(&input, &axes, &sum_params(0.1, 0, 0.5, 0, 3)?, &mut out)?;
/// // 61/5 → 12; 7/5 = 1.4 → 2 by TFLite Micro's two roundings: the high
/// // multiply by 0.8 gives 5.6 → 6, the shift by 2 then 1.5 → 2
/// assert_eq!(out, [2, 12]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mean_or_sum_int8(
    input: &[i8],
    axes: &ReduceAxes,
    params: &MeanParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    mean_or_sum_with(input, axes, params, output)
}

/// TFLite's int16 `MEAN` (with [`mean_params`](crate::mean_params)) or
/// `SUM` (with [`sum_params`]) over the axes of `axes` (TFLite Micro's
/// `QuantizedMeanOrSum` on int16, TFLite's 16x8 mode): [`mean_or_sum_int8`]'s
/// arithmetic on int16 values (the sums in `i32`), clamped to int16.
///
/// The sums wrap on overflow (TFLite's are defined to). Fails, with
/// `output` untouched, when a length does not match the dims or
/// `params.count` is not the elements folded per output.
///
/// ```
/// use shapecheck_tflite::{mean_or_sum_int16, mean_params, reduce_axes, sum_params};
///
/// // [1, 3, 2] over axis 1: the columns' means and sums
/// let axes = reduce_axes(&[1, 3, 2], &[1])?;
/// let input = [1000, 10000, 2000, 20000, 4000, 31000];
/// let mut out = [0i16; 2];
/// mean_or_sum_int16(&input, &axes, &mean_params(0.1, 0, 0.1, 0, 3)?, &mut out)?;
/// assert_eq!(out, [2333, 20333]);
/// mean_or_sum_int16(&input, &axes, &sum_params(0.1, 0, 0.5, 0, 3)?, &mut out)?;
/// assert_eq!(out, [1400, 12200]); // the sums over 5
/// mean_or_sum_int16(&input, &axes, &sum_params(0.1, 0, 0.1, 0, 3)?, &mut out)?;
/// assert_eq!(out, [7000, 32767]); // 61000 clamped to int16
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn mean_or_sum_int16(
    input: &[i16],
    axes: &ReduceAxes,
    params: &MeanParams,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    mean_or_sum_with(input, axes, params, output)
}

/// [`mean_or_sum_int8`] and [`mean_or_sum_int16`]: the elements of type
/// `T`, the output clamped to `T`.
fn mean_or_sum_with<T: Lane>(
    input: &[T],
    axes: &ReduceAxes,
    params: &MeanParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let (count, outputs) = counts(axes)?;
    axes.check_input("input", input.len())?;
    length("output", outputs, output.len())?;
    if params.count != count {
        return Err(TfliteError::KernelParam {
            what: "reduction's count of elements",
            value: i64::try_from(params.count).unwrap_or(i64::MAX),
            rule: "it must be the product of the input's reduced dims",
        });
    }
    if count == 0 {
        for y in output.iter_mut() {
            *y = T::narrow(0);
        }
        return Ok(());
    }
    let scale = Scale::new(params.multiplier);
    // the zero point's part of the sum, truncated to 32 bits as TFLite's is
    let offset = params.input_zero_point.wrapping_mul(count as i32);
    for (outer, out) in output.iter_mut().enumerate() {
        let mut sum = 0i32;
        for inner in 0..count {
            if let Some(&x) = input.get(axes.offset(outer, inner)) {
                sum = sum.wrapping_add(x.into());
            }
        }
        let y = scale
            .apply(sum.wrapping_sub(offset), Rounding::Double)
            .saturating_add(params.output_zero_point);
        *out = T::saturate(y);
    }
    Ok(())
}

/// TFLite's `REDUCE_MAX` over the axes of `axes`: each output the largest
/// of its elements. The op moves data, so it runs on any element type
/// (TFLite Micro requires one scale and zero point in and out for int8).
///
/// Fails, with `output` untouched, when a length does not match the dims
/// or an output would have no element (a reduced dim of 0).
///
/// ```
/// use shapecheck_tflite::{reduce_axes, reduce_max};
///
/// let axes = reduce_axes(&[2, 3], &[1])?;
/// let mut out = [0i8; 2];
/// reduce_max(&[1, -5, 3, -2, -7, -1], &axes, &mut out)?;
/// assert_eq!(out, [3, -1]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reduce_max<T: Copy + PartialOrd>(
    input: &[T],
    axes: &ReduceAxes,
    output: &mut [T],
) -> Result<(), TfliteError> {
    reduce_by(input, axes, output, |best, x| x > best)
}

/// TFLite's `REDUCE_MIN` over the axes of `axes`: each output the
/// smallest of its elements; as [`reduce_max`] otherwise.
///
/// ```
/// use shapecheck_tflite::{reduce_axes, reduce_min};
///
/// let axes = reduce_axes(&[2, 3], &[0])?;
/// let mut out = [0i8; 3];
/// reduce_min(&[1, -5, 3, -2, -7, 4], &axes, &mut out)?;
/// assert_eq!(out, [-2, -7, 3]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reduce_min<T: Copy + PartialOrd>(
    input: &[T],
    axes: &ReduceAxes,
    output: &mut [T],
) -> Result<(), TfliteError> {
    reduce_by(input, axes, output, |best, x| x < best)
}

/// TFLite's f32 `REDUCE_MAX` over the axes of `axes`, as TFLite Micro's
/// `reduce_common.cc` computes it (`ReduceGeneric` with the reducer
/// `in > current ? in : current`): each output starts at the lowest
/// float, `−f32::MAX`, and takes each of its elements in the input's
/// row-major order that is greater. So a NaN is never taken, an output
/// whose elements are all NaN or `−∞` (or that has none) is `−f32::MAX`,
/// and of `−0` and `+0` the first seen stays.
///
/// Fails, with `output` untouched, when a length does not match the dims.
///
/// ```
/// use shapecheck_tflite::{reduce_axes, reduce_max_f32};
///
/// let axes = reduce_axes(&[2, 3], &[1])?;
/// let mut out = [0f32; 2];
/// reduce_max_f32(&[1.5, -5.0, f32::NAN, f32::NEG_INFINITY, -0.0, 0.0], &axes, &mut out)?;
/// assert_eq!(out, [1.5, -0.0]);
/// assert!(out[1].is_sign_negative()); // −0 came first
/// reduce_max_f32(&[f32::NAN; 6], &axes, &mut out)?;
/// assert_eq!(out, [f32::MIN; 2]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn reduce_max_f32(
    input: &[f32],
    axes: &ReduceAxes,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    let (count, outputs) = counts(axes)?;
    axes.check_input("input", input.len())?;
    length("output", outputs, output.len())?;
    for (outer, out) in output.iter_mut().enumerate() {
        let mut current = f32::MIN;
        for inner in 0..count {
            if let Some(&x) = input.get(axes.offset(outer, inner)) {
                current = if x > current { x } else { current };
            }
        }
        *out = current;
    }
    Ok(())
}

/// The elements folded per output and the outputs, checked not to
/// overflow.
fn counts(axes: &ReduceAxes) -> Result<(usize, usize), TfliteError> {
    match (axes.count(), axes.outputs()) {
        (Some(count), Some(outputs)) => Ok((count, outputs)),
        _ => Err(TfliteError::Length {
            what: "input",
            expected: usize::MAX,
            actual: 0,
        }),
    }
}

/// Each output the element of its reduction that `better` prefers to all
/// the others before it.
fn reduce_by<T: Copy>(
    input: &[T],
    axes: &ReduceAxes,
    output: &mut [T],
    better: impl Fn(T, T) -> bool,
) -> Result<(), TfliteError> {
    let (count, outputs) = counts(axes)?;
    axes.check_input("input", input.len())?;
    length("output", outputs, output.len())?;
    if count == 0 && outputs > 0 {
        return Err(TfliteError::KernelParam {
            what: "reduction's count of elements",
            value: 0,
            rule: "a maximum or minimum needs at least one element per output",
        });
    }
    for (outer, out) in output.iter_mut().enumerate() {
        let mut best = None;
        for inner in 0..count {
            if let Some(&x) = input.get(axes.offset(outer, inner)) {
                best = match best {
                    Some(b) if !better(b, x) => Some(b),
                    _ => Some(x),
                };
            }
        }
        if let Some(b) = best {
            *out = b;
        }
    }
    Ok(())
}

// The interpreter's step of the ops: `prepare` (their rows', in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// What a reduction step computes.
#[derive(Clone)]
#[doc(hidden)]
pub enum Reduction {
    /// `MEAN` or `SUM`: the parameters tell them apart
    MeanOrSum(MeanParams),
    /// `MEAN` or `SUM` on int16 (16x8)
    MeanOrSumInt16(MeanParams),
    /// `REDUCE_MAX`
    Max,
    /// `REDUCE_MIN`
    Min,
    /// `REDUCE_MAX` on f32 (the operands in the f32 arena)
    MaxF32,
}

impl crate::base::write_rust::WriteRust for Reduction {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            Reduction::MeanOrSum(s) => {
                crate::base::write_rust::write_tuple(w, k, "Reduction::MeanOrSum", &[s])
            }
            Reduction::MeanOrSumInt16(s) => {
                crate::base::write_rust::write_tuple(w, k, "Reduction::MeanOrSumInt16", &[s])
            }
            Reduction::Max => crate::base::write_rust::write_path(w, k, "Reduction::Max"),
            Reduction::Min => crate::base::write_rust::write_path(w, k, "Reduction::Min"),
            Reduction::MaxF32 => crate::base::write_rust::write_path(w, k, "Reduction::MaxF32"),
        }
    }
}

/// A reduction's interpreter step: its operands' places in the int8
/// arena (the int16 one for an int16 `MEAN` or `SUM`), its axes and what
/// it computes, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct ReduceStep {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub axes: ReduceAxes,
    pub reduction: Reduction,
}

impl crate::base::write_rust::WriteRust for ReduceStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ReduceStep",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("axes", &self.axes),
                ("reduction", &self.reduction),
            ],
        )
    }
}

impl ReduceStep {
    /// Runs the step over the interpreter's buffers: a mean over axes 1
    /// and 2 of a rank-4 input by [`mean_int8`] (the same values, its
    /// faster loop), any other by [`mean_or_sum_int8`]; int16 by
    /// [`mean_or_sum_int16`].
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (from, to) = (&self.input, &self.output);
        let overlap = b.overlap;
        let axes = &self.axes;
        match &self.reduction {
            Reduction::MeanOrSum(params) => {
                let (x, y) = split(b.int8, from, to).ok_or(overlap)?;
                if let ([n, h, w, c, ..], 4, [false, true, true, false, ..]) =
                    (axes.dims, axes.rank, axes.reduced)
                {
                    mean_int8(x, n, h, w, c, params, y)
                } else {
                    mean_or_sum_int8(x, axes, params, y)
                }
            }
            Reduction::MeanOrSumInt16(params) => {
                let (x, y) = split(b.int16, from, to).ok_or(overlap)?;
                mean_or_sum_int16(x, axes, params, y)
            }
            Reduction::Max => {
                let (x, y) = split(b.int8, from, to).ok_or(overlap)?;
                reduce_max(x, axes, y)
            }
            Reduction::Min => {
                let (x, y) = split(b.int8, from, to).ok_or(overlap)?;
                reduce_min(x, axes, y)
            }
            Reduction::MaxF32 => {
                let (x, y) = split(b.float32, from, to).ok_or(overlap)?;
                reduce_max_f32(x, axes, y)
            }
        }
    }
}

/// The row's `prepare` of `MEAN`, `SUM`, `REDUCE_MAX` and `REDUCE_MIN`,
/// int8 (`MEAN` and `SUM` also int16, as TFLite Micro runs them; an f32
/// `MEAN` in `float_ops`): the axes a constant int32 tensor; `MEAN` and
/// `SUM` requantize ([`mean_params`], [`sum_params`]), `REDUCE_MAX` and
/// `REDUCE_MIN` need one scale and zero point in and out (TFLite Micro
/// checks it).
pub(crate) fn prepare<'m, S: From<ReduceStep> + From<MeanF32Step>>(
    c: &Checker<'m>,
    shape: &OpShape,
    scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    if c.op.op() == BuiltinOp::MEAN && input.dtype() == TensorType::Float32 {
        // a float MEAN (a float island's, or a float model's)
        return prepare_mean_f32::<S>(c, shape, scratch);
    }
    if c.op.op() == BuiltinOp::REDUCE_MAX && input.dtype() == TensorType::Float32 {
        return prepare_reduce_max_f32(c).map(S::from);
    }
    let mean_or_sum = matches!(c.op.op(), BuiltinOp::MEAN | BuiltinOp::SUM);
    let int16 = mean_or_sum && input.dtype() == TensorType::Int16;
    let dtype = if int16 {
        TensorType::Int16
    } else {
        TensorType::Int8
    };
    c.dtype("input", &input, dtype)?;
    c.dtype("output", output, dtype)?;
    let x = shape_of(&c.op, "input", &input)?;
    let mut values = [0i32; MAX_DIMS];
    let n = constant_axes(&c.model, &c.op, &mut values)?;
    let axes = reduce_axes(x.dims(), values.get(..n).unwrap_or(&[]))?;
    let count = axes.count().unwrap_or(usize::MAX);
    let (input_scale, input_zero_point) = c.per_tensor("input", &input)?;
    let (output_scale, output_zero_point) = c.per_tensor("output", output)?;
    let quantization = (
        input_scale,
        input_zero_point,
        output_scale,
        output_zero_point,
    );
    let mean_or_sum = |params| {
        if int16 {
            Reduction::MeanOrSumInt16(params)
        } else {
            Reduction::MeanOrSum(params)
        }
    };
    let reduction = match c.op.op() {
        BuiltinOp::MEAN => mean_or_sum(mean_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
            count,
        )?),
        BuiltinOp::SUM => mean_or_sum(sum_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
            count,
        )?),
        op => {
            if quantization.0 != quantization.2 || quantization.1 != quantization.3 {
                return Err(c.fail(
                    "output",
                    output,
                    OperandProblem::Quantization(
                        "is not the input's (TFLite Micro's int8 REDUCE_MAX and REDUCE_MIN move data)",
                    ),
                ));
            }
            if op == BuiltinOp::REDUCE_MAX {
                Reduction::Max
            } else {
                Reduction::Min
            }
        }
    };
    Ok(S::from(ReduceStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        axes,
        reduction,
    }))
}

/// An f32 `REDUCE_MAX`'s step: f32 in and out, the axes a constant int32
/// tensor.
fn prepare_reduce_max_f32(c: &Checker<'_>) -> Result<ReduceStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    let x = shape_of(&c.op, "input", &input)?;
    let mut values = [0i32; MAX_DIMS];
    let n = constant_axes(&c.model, &c.op, &mut values)?;
    let axes = reduce_axes(x.dims(), values.get(..n).unwrap_or(&[]))?;
    c.elements("output", output, axes.outputs().unwrap_or(usize::MAX))?;
    Ok(ReduceStep {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        axes,
        reduction: Reduction::MaxF32,
    })
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

/// The f32 `MEAN`'s step.
#[derive(Clone)]
#[doc(hidden)]
pub struct MeanF32Step {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub runs: (usize, usize, usize),
}

impl crate::base::write_rust::WriteRust for MeanF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
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
pub(crate) fn prepare_mean_f32<'m, S: From<MeanF32Step>>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
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
    let mut reduced = [false; crate::kernel::shape::MAX_DIMS];
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
    Ok(S::from(MeanF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        runs: (outer, count, inner),
    }))
}

// mean is of reduce's family
pub(crate) mod mean;

/// `ReducerOptions` (`MEAN`): the axes are the op's second input.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/mean_hw_keepdims.tflite")))?;
/// let Options::Reducer(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert!(o.keep_dims);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReducerOptions {
    /// `keep_dims`: the reduced axes stay, of size 1
    pub keep_dims: bool,
}
