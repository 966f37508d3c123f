//! TFLite's `SLICE` and `STRIDED_SLICE` on slices: a box of a tensor of
//! up to 5 dims, each axis read from a start with a step, as TFLite
//! Micro's `slice.cc`, `strided_slice.cc` and their reference kernels copy
//! it. One rule: a `SLICE` is a strided slice of step 1 and no masks. Any
//! element type; the values are copied unchanged.

use crate::arith::dims::check_length;
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape};
use crate::kernel::step::Buffers;
use crate::shared::moves::{
    constant_i32, op_shape, options_mismatch, small_i32, strided_copy, strided_walk, wide,
};
use crate::shared::moves::{prepare_one, run_one, MoveOne, Places};

/// The most dims a slice takes (TFLite Micro's `SLICE`: 5; its
/// `STRIDED_SLICE`: 4; the reference kernels: 5).
pub const MAX_SLICE_RANK: usize = 5;

/// The `BuiltinOptions` type of `StridedSliceOptions`.
const STRIDED_SLICE_OPTIONS: u8 = 32;

/// `StridedSliceOptions`: bit `i` of a mask is about axis `i`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/strided_slice_step2.tflite")))?;
/// let Options::StridedSlice(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.begin_mask, o.end_mask, o.shrink_axis_mask), (3, 15, 0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StridedSliceOptions {
    /// `begin_mask`: the axis starts at its first element (its last for a
    /// negative step), whatever `begin` says
    pub begin_mask: i32,
    /// `end_mask`: the axis runs to its end, whatever `end` says
    pub end_mask: i32,
    /// `ellipsis_mask` (not run: TFLite Micro ignores it)
    pub ellipsis_mask: i32,
    /// `new_axis_mask` (not run: TFLite Micro ignores it)
    pub new_axis_mask: i32,
    /// `shrink_axis_mask`: the axis takes the one element at `begin`, and
    /// the output drops it
    pub shrink_axis_mask: i32,
    /// `offset`: `end` counts from `begin` (not run: TFLite Micro ignores it)
    pub offset: bool,
}

impl StridedSliceOptions {
    /// Options with these masks and no ellipsis, new axis or offset.
    ///
    /// ```
    /// use shapecheck_tflite::StridedSliceOptions;
    ///
    /// let o = StridedSliceOptions::new(9, 9, 0);
    /// assert_eq!((o.begin_mask, o.ellipsis_mask, o.offset), (9, 0, false));
    /// ```
    pub const fn new(begin_mask: i32, end_mask: i32, shrink_axis_mask: i32) -> Self {
        StridedSliceOptions {
            begin_mask,
            end_mask,
            ellipsis_mask: 0,
            new_axis_mask: 0,
            shrink_axis_mask,
            offset: false,
        }
    }
}

/// Reads `STRIDED_SLICE`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_strided_slice_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<StridedSliceOptions, TfliteError> {
    let Some(t) = r.table(STRIDED_SLICE_OPTIONS, "StridedSliceOptions")? else {
        return Ok(StridedSliceOptions::new(0, 0, 0));
    };
    Ok(StridedSliceOptions {
        begin_mask: t.i32(0, 0).map_err(r.fault("begin_mask"))?,
        end_mask: t.i32(1, 0).map_err(r.fault("end_mask"))?,
        ellipsis_mask: t.i32(2, 0).map_err(r.fault("ellipsis_mask"))?,
        new_axis_mask: t.i32(3, 0).map_err(r.fault("new_axis_mask"))?,
        shrink_axis_mask: t.i32(4, 0).map_err(r.fault("shrink_axis_mask"))?,
        offset: t.bool(5).map_err(r.fault("offset"))?,
    })
}

/// A `SLICE`'s parameters: each axis's first element and count
/// ([`slice_params`]).
///
/// ```
/// use shapecheck_tflite::SliceParams;
///
/// const ROWS_1_TO_3: SliceParams = SliceParams { rank: 2, begin: [1, 0, 0, 0, 0], size: [3, 4, 0, 0, 0] };
/// assert_eq!(ROWS_1_TO_3.size[..2], [3, 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceParams {
    /// the dims, at most [`MAX_SLICE_RANK`]
    pub rank: usize,
    /// the first `rank`: each axis's first element
    pub begin: [usize; MAX_SLICE_RANK],
    /// the first `rank`: each axis's count, the output's dims
    pub size: [usize; MAX_SLICE_RANK],
}

impl crate::base::write_rust::WriteRust for SliceParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SliceParams",
            &[
                ("rank", &self.rank),
                ("begin", &self.begin),
                ("size", &self.size),
            ],
        )
    }
}

/// The rank as at most [`MAX_SLICE_RANK`], and `values` of one per dim.
fn check_rank(what: &'static str, rank: usize, values: &[i32]) -> Result<(), TfliteError> {
    if rank > MAX_SLICE_RANK {
        return Err(TfliteError::KernelParam {
            what,
            value: wide(rank),
            rule: "a slice takes at most 5 dims",
        });
    }
    if values.len() != rank {
        return Err(TfliteError::Length {
            what,
            expected: rank,
            actual: values.len(),
        });
    }
    Ok(())
}

/// A `SLICE`'s parameters from its constant `begin` and `size` for an
/// input of `input_shape`, as TFLite's `slice.cc` reads them: a size of
/// −1 takes the rest of the axis.
///
/// Fails with [`TfliteError::KernelParam`] for more than 5 dims, a begin
/// below 0, a size below −1, or a box past the end of an axis, and with
/// [`TfliteError::Length`] when `begin` or `size` is not one per dim.
///
/// ```
/// use shapecheck_tflite::slice_params;
///
/// // slice.tflite: begin [0, 1, 2, 1], size [1, 3, 4, 2] of [1, 5, 6, 4]
/// let p = slice_params(&[1, 5, 6, 4], &[0, 1, 2, 1], &[1, 3, 4, 2])?;
/// assert_eq!(p.size[..4], [1, 3, 4, 2]);
/// assert_eq!(slice_params(&[1, 5, 6, 4], &[0, 1, 2, 1], &[-1, -1, 4, 2])?.size[..2], [1, 4]);
/// assert!(slice_params(&[1, 5, 6, 4], &[0, 1, 2, 1], &[1, 5, 4, 2]).is_err()); // 1 + 5 > 5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn slice_params(
    input_shape: &[usize],
    begin: &[i32],
    size: &[i32],
) -> Result<SliceParams, TfliteError> {
    let rank = input_shape.len();
    check_rank("SLICE's begin", rank, begin)?;
    check_rank("SLICE's size", rank, size)?;
    let mut params = SliceParams {
        rank,
        begin: [0; MAX_SLICE_RANK],
        size: [0; MAX_SLICE_RANK],
    };
    let axes = params.begin.iter_mut().zip(params.size.iter_mut());
    for ((((b, s), &dim), &first), &count) in axes.zip(input_shape).zip(begin).zip(size) {
        *b = usize::try_from(first)
            .ok()
            .filter(|&b| b <= dim)
            .ok_or(TfliteError::KernelParam {
                what: "SLICE's begin",
                value: i64::from(first),
                rule: "a begin is in [0, dim]",
            })?;
        let rest = dim - *b;
        *s =
            match count {
                -1 => rest,
                c => usize::try_from(c).ok().filter(|&c| c <= rest).ok_or(
                    TfliteError::KernelParam {
                        what: "SLICE's size",
                        value: i64::from(c),
                        rule: "a size is −1 (the rest) or in [0, dim − begin]",
                    },
                )?,
            };
    }
    Ok(params)
}

/// `SLICE`'s rule for one axis, the one [`slice_output_shape`] applies
/// and `shapecheck`'s typed layer checks at compile time: a box of `size`
/// from `begin` lies within an axis of `dim`, `begin + size ≤ dim`.
///
/// ```
/// use shapecheck_tflite::slice_ends_within;
///
/// assert!(slice_ends_within(5, 1, 4));
/// assert!(!slice_ends_within(5, 2, 4));
/// assert!(!slice_ends_within(5, usize::MAX, 1));
/// ```
pub const fn slice_ends_within(dim: usize, begin: usize, size: usize) -> bool {
    match begin.checked_add(size) {
        Some(end) => end <= dim,
        None => false,
    }
}

/// The output shape of a `SLICE` of `params` on an input of
/// `input_shape`: the sizes.
///
/// Fails with [`TfliteError::Length`] when the input's rank is not the
/// params', and [`TfliteError::KernelParam`] for a box past an axis.
///
/// ```
/// use shapecheck_tflite::{slice_output_shape, slice_params};
///
/// let p = slice_params(&[1, 5, 6, 4], &[0, 1, 2, 1], &[1, 3, 4, 2])?;
/// assert_eq!(slice_output_shape(&[1, 5, 6, 4], &p)?.dims(), &[1, 3, 4, 2]);
/// assert!(slice_output_shape(&[1, 2, 6, 4], &p).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn slice_output_shape(
    input_shape: &[usize],
    params: &SliceParams,
) -> Result<OpShape, TfliteError> {
    if input_shape.len() != params.rank || params.rank > MAX_SLICE_RANK {
        return Err(TfliteError::Length {
            what: "SLICE's input shape",
            expected: params.rank,
            actual: input_shape.len(),
        });
    }
    for ((&dim, &b), &s) in input_shape.iter().zip(&params.begin).zip(&params.size) {
        if !slice_ends_within(dim, b, s) {
            return Err(TfliteError::KernelParam {
                what: "SLICE's begin + size",
                value: wide(b.saturating_add(s)),
                rule: "a slice ends within its axis",
            });
        }
    }
    op_shape(
        "SLICE's output rank",
        params.size.get(..params.rank).unwrap_or(&[]),
    )
}

/// The row-major strides of `shape` (at most 5 dims).
fn strides_of(shape: &[usize]) -> [usize; MAX_SLICE_RANK] {
    let mut strides = [0usize; MAX_SLICE_RANK];
    let mut stride = 1usize;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = stride;
        stride = stride.saturating_mul(d);
    }
    strides
}

/// TFLite's `SLICE`: the box of `params` of `input` (of `input_shape`,
/// row-major) into `output` (row-major, of [`slice_output_shape`]).
///
/// Fails, with `output` untouched, as [`slice_output_shape`] does, or
/// when `input` or `output` is not as long as its shape's element count.
///
/// ```
/// use shapecheck_tflite::{slice, slice_params};
///
/// let mut out = [0i8; 2];
/// // row 1, columns 1 and 2 of a [2, 3]
/// slice(&[1, 2, 3, 4, 5, 6], &[2, 3], &slice_params(&[2, 3], &[1, 1], &[1, 2])?, &mut out)?;
/// assert_eq!(out, [5, 6]);
/// assert!(slice(&[1, 2, 3], &[2, 3], &slice_params(&[2, 3], &[1, 1], &[1, 2])?, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn slice<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &SliceParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    let out_shape = slice_output_shape(input_shape, params)?;
    check_length("SLICE's input", input_shape, input.len())?;
    check_length("output", out_shape.dims(), output.len())?;
    let (base, steps) = slice_walk(input_shape, params);
    strided_copy(
        "SLICE's output",
        input,
        base,
        out_shape.dims(),
        steps.get(..params.rank).unwrap_or(&[]),
        output,
    )
}

/// Where a `SLICE` of `params` starts reading an input of `input_shape`,
/// and its step along each axis (the input's row-major strides).
fn slice_walk(input_shape: &[usize], params: &SliceParams) -> (usize, [isize; MAX_SLICE_RANK]) {
    let strides = strides_of(input_shape);
    let mut steps = [0isize; MAX_SLICE_RANK];
    let mut base = 0usize;
    for ((step, &stride), &b) in steps.iter_mut().zip(&strides).zip(&params.begin) {
        *step = isize::try_from(stride).unwrap_or(isize::MAX);
        base = base.saturating_add(b.saturating_mul(stride));
    }
    (base, steps)
}

/// [`slice()`] without its checks, for a caller that has made them hold
/// already (the typed layer of `shapecheck`, whose shapes are types and
/// whose box was checked against [`slice_ends_within`] when it was
/// built): the box lies within `input_shape`, at most
/// [`MAX_SLICE_RANK`] dims, and the lengths are the shapes'. On operands
/// that break this, what it writes is unspecified, but it never panics
/// and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{slice_prechecked, SliceParams};
///
/// let mut out = [0i8; 2];
/// // row 1, columns 1 and 2 of a [2, 3]
/// let params = SliceParams { rank: 2, begin: [1, 1, 0, 0, 0], size: [1, 2, 0, 0, 0] };
/// slice_prechecked(&[1, 2, 3, 4, 5, 6], &[2, 3], &params, &mut out);
/// assert_eq!(out, [5, 6]);
/// ```
pub fn slice_prechecked<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &SliceParams,
    output: &mut [T],
) {
    let (base, steps) = slice_walk(input_shape, params);
    let rank = params.rank.min(MAX_SLICE_RANK);
    strided_walk(
        input,
        isize::try_from(base).unwrap_or(isize::MAX),
        params.size.get(..rank).unwrap_or(&[]),
        steps.get(..rank).unwrap_or(&[]),
        output,
    );
}

/// A `STRIDED_SLICE`'s parameters: each axis's first element, step and
/// count, and the axes the output drops ([`strided_slice_params`]).
///
/// ```
/// use shapecheck_tflite::StridedSliceParams;
///
/// // every other element of a [5], backwards from the last
/// const BACKWARDS: StridedSliceParams = StridedSliceParams {
///     rank: 1,
///     start: [4, 0, 0, 0, 0],
///     stride: [-2, 1, 1, 1, 1],
///     count: [3, 0, 0, 0, 0],
///     shrink_axis_mask: 0,
/// };
/// assert_eq!(BACKWARDS.count[0], 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StridedSliceParams {
    /// the input's dims, at most [`MAX_SLICE_RANK`]
    pub rank: usize,
    /// the first `rank`: each axis's first element read (0 for an axis
    /// that reads none)
    pub start: [usize; MAX_SLICE_RANK],
    /// the first `rank`: each axis's step, not 0
    pub stride: [i32; MAX_SLICE_RANK],
    /// the first `rank`: the elements each axis reads
    pub count: [usize; MAX_SLICE_RANK],
    /// bit `i`: axis `i` reads one element and the output drops it
    pub shrink_axis_mask: u32,
}

impl crate::base::write_rust::WriteRust for StridedSliceParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "StridedSliceParams",
            &[
                ("rank", &self.rank),
                ("start", &self.start),
                ("stride", &self.stride),
                ("count", &self.count),
                ("shrink_axis_mask", &self.shrink_axis_mask),
            ],
        )
    }
}

/// One axis of a strided slice as TFLite's `StridedSliceStartForAxis` and
/// `StridedSliceEndForAxis` place it: the first index and the end (one
/// past the last, in the step's direction).
fn start_and_end(
    dim: usize,
    begin: i32,
    end: i32,
    stride: i32,
    masks: (bool, bool, bool),
) -> (i64, i64) {
    let (begin_mask, end_mask, shrink) = masks;
    let dim = wide(dim);
    let place = |v: i32| {
        let v = i64::from(v);
        let v = if v < 0 { v + dim } else { v };
        if stride > 0 {
            v.clamp(0, dim)
        } else {
            v.clamp(-1, dim - 1)
        }
    };
    let start = match (begin_mask, stride > 0) {
        (true, true) => 0,
        (true, false) => dim - 1,
        (false, _) => place(begin),
    };
    if shrink {
        return (start, start + 1);
    }
    let stop = match (end_mask, stride > 0) {
        (true, true) => dim,
        (true, false) => -1,
        (false, _) => place(end),
    };
    (start, stop)
}

/// A `STRIDED_SLICE`'s parameters from its constant `begin`, `end` and
/// `strides` (one per dim of `input_shape`) and its options, as TFLite
/// Micro's `strided_slice.cc` and `strided_slice_logic.h` place each axis:
/// a negative index counts from the end, then it is clamped to the axis;
/// a `begin_mask` or `end_mask` bit takes the axis from its start or to
/// its end; a `shrink_axis_mask` bit reads the one element at `begin`.
/// The count is `⌈(end − start) / stride⌉`, at least 0.
///
/// Fails with [`TfliteError::KernelParam`] for more than 5 dims, a step
/// of 0, an `ellipsis_mask` or `new_axis_mask` bit or `offset` (TFLite
/// Micro ignores them, so they are refused rather than run otherwise than
/// TensorFlow), or a shrunk axis whose `begin` is outside it; with
/// [`TfliteError::Length`] when `begin`, `end` or `strides` is not one
/// per dim.
///
/// ```
/// use shapecheck_tflite::{strided_slice_params, StridedSliceOptions};
///
/// // strided_slice_step2.tflite: x[:, ::2, 1::2, 1:] of [1, 7, 6, 5]
/// let o = StridedSliceOptions::new(3, 15, 0);
/// let p = strided_slice_params(&[1, 7, 6, 5], &[0, 0, 1, 1], &[0, 0, 0, 0], &[1, 2, 2, 1], &o)?;
/// assert_eq!((&p.start[..4], &p.count[..4]), (&[0, 0, 1, 1][..], &[1, 4, 3, 4][..]));
/// // x[-1] of [4]: the last element, the axis dropped
/// let p = strided_slice_params(&[4], &[-1], &[0], &[1], &StridedSliceOptions::new(0, 0, 1))?;
/// assert_eq!((p.start[0], p.count[0]), (3, 1));
/// assert!(strided_slice_params(&[4], &[0], &[4], &[0], &StridedSliceOptions::new(0, 0, 0)).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn strided_slice_params(
    input_shape: &[usize],
    begin: &[i32],
    end: &[i32],
    strides: &[i32],
    options: &StridedSliceOptions,
) -> Result<StridedSliceParams, TfliteError> {
    let rank = input_shape.len();
    check_rank("STRIDED_SLICE's begin", rank, begin)?;
    check_rank("STRIDED_SLICE's end", rank, end)?;
    check_rank("STRIDED_SLICE's strides", rank, strides)?;
    for (what, mask) in [
        ("STRIDED_SLICE's ellipsis_mask", options.ellipsis_mask),
        ("STRIDED_SLICE's new_axis_mask", options.new_axis_mask),
        ("STRIDED_SLICE's offset", i32::from(options.offset)),
    ] {
        if mask != 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(mask),
                rule: "TFLite Micro ignores it, so shapecheck runs only 0",
            });
        }
    }
    let bit =
        |mask: i32, axis: usize| u32::try_from(axis).is_ok_and(|a| a < 32 && (mask >> a) & 1 == 1);
    let mut params = StridedSliceParams {
        rank,
        start: [0; MAX_SLICE_RANK],
        stride: [1; MAX_SLICE_RANK],
        count: [0; MAX_SLICE_RANK],
        shrink_axis_mask: 0,
    };
    for (axis, &dim) in input_shape.iter().enumerate() {
        let (b, e, s) = (
            begin.get(axis).copied().unwrap_or(0),
            end.get(axis).copied().unwrap_or(0),
            strides.get(axis).copied().unwrap_or(0),
        );
        if s == 0 {
            return Err(TfliteError::KernelParam {
                what: "STRIDED_SLICE's stride",
                value: 0,
                rule: "a stride is not 0",
            });
        }
        let shrink = bit(options.shrink_axis_mask, axis);
        let masks = (
            bit(options.begin_mask, axis),
            bit(options.end_mask, axis),
            shrink,
        );
        let (start, stop) = start_and_end(dim, b, e, s, masks);
        let step = i64::from(s);
        // ⌈(stop − start) / step⌉ for either sign of the step, at least 0
        let span = stop - start;
        let count = if span == 0 || (span > 0) != (step > 0) {
            0
        } else {
            (span.abs() + step.abs() - 1) / step.abs()
        };
        if shrink && (s < 0 || !(0..wide(dim)).contains(&start)) {
            return Err(TfliteError::KernelParam {
                what: "STRIDED_SLICE's begin on a shrunk axis",
                value: i64::from(b),
                rule: "a shrunk axis reads the one element at begin, inside the axis, with a positive stride (TFLite Micro reads none otherwise)",
            });
        }
        let count = usize::try_from(count).unwrap_or(0);
        let start = if count == 0 {
            0
        } else {
            usize::try_from(start).unwrap_or(0)
        };
        if let (Some(st), Some(sd), Some(c)) = (
            params.start.get_mut(axis),
            params.stride.get_mut(axis),
            params.count.get_mut(axis),
        ) {
            (*st, *sd, *c) = (start, s, count);
        }
        if shrink {
            params.shrink_axis_mask |= 1 << axis;
        }
    }
    Ok(params)
}

/// The output shape of a `STRIDED_SLICE` of `params`: each axis's count,
/// the shrunk axes dropped.
///
/// ```
/// use shapecheck_tflite::{strided_slice_output_shape, strided_slice_params, StridedSliceOptions};
///
/// // strided_slice_crop.tflite: x[:, 1:4, 2:6, :] of [1, 6, 7, 3]
/// let o = StridedSliceOptions::new(9, 9, 0);
/// let p = strided_slice_params(&[1, 6, 7, 3], &[0, 1, 2, 0], &[0, 4, 6, 0], &[1; 4], &o)?;
/// assert_eq!(strided_slice_output_shape(&p)?.dims(), &[1, 3, 4, 3]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn strided_slice_output_shape(params: &StridedSliceParams) -> Result<OpShape, TfliteError> {
    let mut dims = [0usize; MAX_SLICE_RANK];
    let mut rank = 0usize;
    for (axis, &c) in params.count.iter().enumerate().take(params.rank) {
        if params.shrink_axis_mask >> axis & 1 == 0 {
            if let Some(d) = dims.get_mut(rank) {
                *d = c;
            }
            rank += 1;
        }
    }
    op_shape(
        "STRIDED_SLICE's output rank",
        dims.get(..rank).unwrap_or(&[]),
    )
}

/// TFLite's `STRIDED_SLICE`: the elements `params` places of `input` (of
/// `input_shape`, row-major), in order, into `output` (of
/// [`strided_slice_output_shape`]).
///
/// Fails, with `output` untouched, when the input's rank is not the
/// params' or a read falls outside an axis ([`TfliteError::KernelParam`]),
/// or when `input` or `output` is not as long as its shape's element
/// count ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::{strided_slice, strided_slice_params, StridedSliceOptions};
///
/// let mut out = [0i8; 3];
/// // x[::-2] of [1, 2, 3, 4, 5]
/// let p = strided_slice_params(&[5], &[0], &[0], &[-2], &StridedSliceOptions::new(1, 1, 0))?;
/// strided_slice(&[1, 2, 3, 4, 5], &[5], &p, &mut out)?;
/// assert_eq!(out, [5, 3, 1]);
/// assert!(strided_slice(&[1, 2, 3, 4], &[5], &p, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn strided_slice<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &StridedSliceParams,
    output: &mut [T],
) -> Result<(), TfliteError> {
    if input_shape.len() != params.rank || params.rank > MAX_SLICE_RANK {
        return Err(TfliteError::Length {
            what: "STRIDED_SLICE's input shape",
            expected: params.rank,
            actual: input_shape.len(),
        });
    }
    let out_shape = strided_slice_output_shape(params)?;
    check_length("STRIDED_SLICE's input", input_shape, input.len())?;
    check_length("output", out_shape.dims(), output.len())?;
    let axes = input_shape
        .iter()
        .zip(&params.start)
        .zip(&params.count)
        .zip(&params.stride);
    for (((&dim, &start), &count), &stride) in axes {
        // the last index an axis reads: start + (count − 1)·stride
        let last = i64::try_from(count)
            .ok()
            .and_then(|c| (c - 1).checked_mul(i64::from(stride)))
            .and_then(|span| span.checked_add(wide(start)));
        let inside = |i: i64| (0..wide(dim)).contains(&i);
        if count > 0 && (stride == 0 || !(inside(wide(start)) && last.is_some_and(inside))) {
            return Err(TfliteError::KernelParam {
                what: "STRIDED_SLICE's start",
                value: wide(start),
                rule: "an axis steps by a stride other than 0, every index it reads inside it",
            });
        }
    }
    let strides = strides_of(input_shape);
    let mut steps = [0isize; MAX_SLICE_RANK];
    let mut base = 0usize;
    let axes = steps
        .iter_mut()
        .zip(&strides)
        .zip(&params.stride)
        .zip(&params.start);
    for (((step, &stride), &s), &start) in axes {
        *step = isize::try_from(stride)
            .ok()
            .and_then(|st| st.checked_mul(isize::try_from(s).ok()?))
            .unwrap_or(isize::MAX);
        base = base.saturating_add(start.saturating_mul(stride));
    }
    // the walk runs over every axis; a shrunk one has a count of 1
    strided_copy(
        "STRIDED_SLICE's output",
        input,
        base,
        params.count.get(..params.rank).unwrap_or(&[]),
        steps.get(..params.rank).unwrap_or(&[]),
        output,
    )
}

/// A constant int32 operand of one value per dim, at most 6.
fn per_dim<'m>(
    model: &Model<'m>,
    op: &Operator<'_>,
    k: usize,
    name: &'static str,
) -> Result<([i32; 6], usize), TfliteError> {
    let values = constant_i32(model, op, k, name)?;
    small_i32(name, &values)
}

/// `SLICE`'s parameters and input shape from its operands: the input,
/// and the constant begin and size (inputs 1, 2).
pub(crate) fn slice_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(SliceParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let (begin, nb) = per_dim(model, op, 1, "begin")?;
    let (size, ns) = per_dim(model, op, 2, "size")?;
    let params = slice_params(
        shape.dims(),
        begin.get(..nb).unwrap_or(&[]),
        size.get(..ns).unwrap_or(&[]),
    )?;
    Ok((params, shape))
}

/// `STRIDED_SLICE`'s parameters and input shape from its operands: the
/// input, the constant begin, end and strides (inputs 1 to 3), the
/// options.
pub(crate) fn strided_slice_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(StridedSliceParams, OpShape), TfliteError> {
    let Ok(o) = read_strided_slice_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "StridedSliceOptions"));
    };
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let (begin, nb) = per_dim(model, op, 1, "begin")?;
    let (end, ne) = per_dim(model, op, 2, "end")?;
    let (strides, ns) = per_dim(model, op, 3, "strides")?;
    let params = strided_slice_params(
        shape.dims(),
        begin.get(..nb).unwrap_or(&[]),
        end.get(..ne).unwrap_or(&[]),
        strides.get(..ns).unwrap_or(&[]),
        &o,
    )?;
    Ok((params, shape))
}

/// `SLICE`'s row in [`OPS`](crate::OPS).
pub(crate) fn slice_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape) = slice_operands(model, op)?;
    slice_output_shape(shape.dims(), &params)
}

/// `STRIDED_SLICE`'s row in [`OPS`](crate::OPS).
pub(crate) fn strided_slice_row(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<OpShape, TfliteError> {
    let (params, _) = strided_slice_operands(model, op)?;
    strided_slice_output_shape(&params)
}

// The interpreter's step of each op: `prepare` (their rows', in `OPS`)
// checks the operator's operands and derives the parameters once; the
// step's `run` runs the kernel on int8 or f32 activations.

/// `SLICE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_slice<'m, S: From<SliceStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = slice_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(SliceStep {
        places,
        shape,
        params,
    }))
}

/// `SLICE`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct SliceStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub params: SliceParams,
}

impl crate::base::write_rust::WriteRust for SliceStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SliceStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for SliceStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        slice(input, self.shape.dims(), &self.params, output)
    }
}

impl SliceStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}

/// `STRIDED_SLICE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_strided_slice<'m, S: From<StridedSliceStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = strided_slice_operands(&c.model, &c.op)?;
    let (places, _) = prepare_one(c, 0)?;
    Ok(S::from(StridedSliceStep {
        places,
        shape,
        params,
    }))
}

/// `STRIDED_SLICE`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct StridedSliceStep {
    pub places: Places<1>,
    pub shape: OpShape,
    pub params: StridedSliceParams,
}

impl crate::base::write_rust::WriteRust for StridedSliceStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "StridedSliceStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveOne for StridedSliceStep {
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError> {
        strided_slice(input, self.shape.dims(), &self.params, output)
    }
}

impl StridedSliceStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_one(b, &self.places, self)
    }
}
