//! Streamed runs (issue 70): a chain of convolutions, depthwise
//! convolutions and pools computed a band of output rows at a time, so
//! that the tensors between them are never whole.
//!
//! Each tensor between two stages of a run is a *ring* of the rows its
//! consumer's window still needs: input row `r` at ring row
//! `r % ring_rows`, as the band kernels ([`crate::conv_2d_int8_band`],
//! ...) read it. The run is computed in *pull order*: for each band of
//! the last stage's output rows, each earlier stage first computes the
//! rows the next one reads and has not got yet ([`walk`]). The planner
//! (`crate::runtime::schedule`, feature `alloc`) sizes the rings with the same
//! walk ([`ring_rows`]); [`StreamRun`] runs it.
//!
//! A run's last stage may be an average pool whose window spans every
//! input row (a global pool): it *accumulates*, keeping an `i32` sum per
//! output value as its input rows stream and dividing once the last row
//! is in ([`RowGeometry::accumulated`]), so the ring before it holds a
//! band, not the whole image.
//!
//! A run's last stage may be an `ADD` ([`Stage::Add`]) of the stage
//! before's rows (the *chain*) and a whole tensor of the output's shape
//! (the *skip*, a residual block's shortcut), its output written over the
//! skip a band of rows at a time: the skip is the output buffer's
//! contents ([`StreamRun::run`]), or the run's input itself
//! ([`StreamRun::run_over_input`]), overwritten only where the first
//! stage reads no more ([`writes_behind_reads`]).

use core::ops::Range;

use crate::arith::window::{length, RowAxis};
use crate::base::bytes::copy_forward;
use crate::format::error::TfliteError;
use crate::ops::add::{add_int8_in_place_prechecked, AddOver, AddParams};
use crate::ops::conv::depthwise_conv::{
    depthwise_conv_int8_band, depthwise_rows, DepthwiseConvDims, DepthwiseConvParams,
    DepthwiseGroup,
};
use crate::ops::conv::{conv_2d_int8_band, conv_rows, Conv2dDims, Conv2dParams, ConvPairStage};
use crate::ops::pool::{
    average_pool_accumulate, average_pool_finish, average_pool_int8_band, average_rows,
    every_window_has_a_tap, max_int8, max_pool_int8_band, pool_rows, PoolDims, PoolParams,
};

mod in_place;
pub use in_place::{InPlaceKind, InPlaceLayer, InPlaceShape};

/// The most stages one streamed run has (the walk keeps one counter per
/// stage, on the stack).
///
/// ```
/// assert!(shapecheck_tflite::stream::MAX_STAGES >= 32);
/// ```
pub const MAX_STAGES: usize = 64;

/// The vertical geometry of one stage: how its output rows step over its
/// input rows (as the kernel's `RowAxis`: stride, padding above,
/// dilation, filter rows).
///
/// ```
/// use shapecheck_tflite::stream::RowGeometry;
///
/// // a 3-row filter of stride 2, one row of padding above, 96 rows in, 48 out
/// let g = RowGeometry { input_rows: 96, output_rows: 48, stride: 2, pad_top: 0, dilation: 1, filter: 3 };
/// assert_eq!(g.needed(0..1), 0..3);
/// assert_eq!(g.needed(1..3), 2..7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowGeometry {
    /// the input's rows
    pub input_rows: usize,
    /// the output's rows
    pub output_rows: usize,
    /// the window's stride down the rows
    pub stride: usize,
    /// the padding rows above the input
    pub pad_top: usize,
    /// the filter's dilation down the rows
    pub dilation: usize,
    /// the filter's rows
    pub filter: usize,
}

impl RowGeometry {
    /// The input rows that output rows `rows` read: from the first tap
    /// inside the input of any of them to one past the last (`0..0` when
    /// every tap is padding).
    ///
    /// ```
    /// use shapecheck_tflite::stream::RowGeometry;
    ///
    /// // SAME, 3 rows, stride 1: output row 0 reads rows 0 and 1 (and a padding row)
    /// let g = RowGeometry { input_rows: 8, output_rows: 8, stride: 1, pad_top: 1, dilation: 1, filter: 3 };
    /// assert_eq!(g.needed(0..1), 0..2);
    /// assert_eq!(g.needed(7..8), 6..8);
    /// ```
    pub fn needed(self, rows: Range<usize>) -> Range<usize> {
        self.axis().needed(rows)
    }

    /// The geometry a run walks for an average pool whose one output
    /// row's window reads every input row (`None` for any other window):
    /// such a pool *accumulates*, its sums over the input rows kept as
    /// they stream, one input row per walked row, its output written once
    /// the last row is summed. So the ring before it holds a band of
    /// rows, not the whole image.
    ///
    /// ```
    /// use shapecheck_tflite::stream::RowGeometry;
    ///
    /// // a 25-row window over 25 rows: walked a row at a time
    /// let g = RowGeometry { input_rows: 25, output_rows: 1, stride: 1, pad_top: 0, dilation: 1, filter: 25 };
    /// let walked = g.accumulated().unwrap();
    /// assert_eq!((walked.output_rows, walked.filter), (25, 1));
    /// // a 2-row window over 4 rows does not span them
    /// assert_eq!(RowGeometry { input_rows: 4, filter: 2, stride: 2, output_rows: 2, ..g }.accumulated(), None);
    /// ```
    pub fn accumulated(self) -> Option<RowGeometry> {
        let spans = self.output_rows == 1
            && self.input_rows >= 1
            && self.needed(0..1) == (0..self.input_rows);
        spans.then_some(RowGeometry {
            input_rows: self.input_rows,
            output_rows: self.input_rows,
            stride: 1,
            pad_top: 0,
            dilation: 1,
            filter: 1,
        })
    }

    fn axis(self) -> RowAxis {
        RowAxis {
            stride: self.stride,
            pad: self.pad_top,
            dilation: self.dilation,
            filter: self.filter,
            size: self.input_rows,
        }
    }
}

/// Walks a run of `stages` (each one's input the previous one's output)
/// in pull order, `band` output rows at a time: calls `compute(stage,
/// rows)` for each band of rows a stage computes, at most `band` rows,
/// every stage's rows in ascending order and each row once, a stage's
/// rows after the rows of the stage before that they read, and only
/// those. Stops, returning `false`, when `compute` does; returns `false`
/// too for no stage, more than [`MAX_STAGES`], or a `band` of 0.
///
/// ```
/// use shapecheck_tflite::stream::{walk, RowGeometry};
///
/// // two 1×1 stages of 3 rows, 2 rows at a time
/// let one = RowGeometry { input_rows: 3, output_rows: 3, stride: 1, pad_top: 0, dilation: 1, filter: 1 };
/// let mut calls = Vec::new();
/// assert!(walk(&[one, one], 2, |stage, rows| { calls.push((stage, rows)); true }));
/// assert_eq!(calls, [(0, 0..2), (1, 0..2), (0, 2..3), (1, 2..3)]);
/// ```
pub fn walk(
    stages: &[RowGeometry],
    band: usize,
    mut compute: impl FnMut(usize, Range<usize>) -> bool,
) -> bool {
    walk_by(
        stages.len(),
        &|k| stages.get(k).copied(),
        band,
        &mut compute,
    )
}

/// [`walk`] over `count` stages whose geometries `geometry` gives, so
/// that a run need not hold them in an array ([`StreamRun::run_prechecked`]:
/// its stack). `geometry` and `compute` are called through `dyn`, so that
/// [`pull`], which recurses once per stage, keeps a frame of a few words
/// rather than a copy of `compute`'s locals per stage.
fn walk_by(
    count: usize,
    geometry: &dyn Fn(usize) -> Option<RowGeometry>,
    band: usize,
    compute: &mut dyn FnMut(usize, Range<usize>) -> bool,
) -> bool {
    let Some(last) = count.checked_sub(1) else {
        return false;
    };
    if count > MAX_STAGES || band == 0 {
        return false;
    }
    let mut done = [0usize; MAX_STAGES];
    let rows = geometry(last).map_or(0, |s| s.output_rows);
    pull(geometry, band, &mut done, last, rows, compute)
}

/// Computes stage `k`'s rows up to `upto` (those it has not got), `band`
/// at a time, each band after the rows of the stage before that it
/// reads.
fn pull(
    geometry: &dyn Fn(usize) -> Option<RowGeometry>,
    band: usize,
    done: &mut [usize; MAX_STAGES],
    k: usize,
    upto: usize,
    compute: &mut dyn FnMut(usize, Range<usize>) -> bool,
) -> bool {
    let Some(stage) = geometry(k) else {
        return false;
    };
    loop {
        let Some(have) = done.get(k).copied() else {
            return false;
        };
        if have >= upto {
            return true;
        }
        let end = have.saturating_add(band).min(upto);
        if let Some(before) = k.checked_sub(1) {
            let needed = stage.needed(have..end);
            if !pull(geometry, band, done, before, needed.end, compute) {
                return false;
            }
        }
        if !compute(k, have..end) {
            return false;
        }
        if let Some(slot) = done.get_mut(k) {
            *slot = end;
        }
    }
}

/// The rows of each ring of a run walked `band` rows at a time:
/// `rings[k]`, for each stage `k` but the last, the most input rows stage
/// `k + 1` reads at one call, and at least the most rows stage `k`
/// writes at one (the ring of stage `k`'s output never needs more: stage
/// `k` computes only the rows that call reads, after the rows it no
/// longer reads). `false`, `rings` untouched beyond the first
/// `stages.len() - 1`, when the walk fails ([`walk`]) or `rings` is
/// shorter.
///
/// ```
/// use shapecheck_tflite::stream::{ring_rows, RowGeometry};
///
/// // a 3×3 SAME stage after a 1×1 one, one output row at a time: 3 rows
/// let one = RowGeometry { input_rows: 8, output_rows: 8, stride: 1, pad_top: 0, dilation: 1, filter: 1 };
/// let three = RowGeometry { pad_top: 1, filter: 3, ..one };
/// let mut rings = [0];
/// assert!(ring_rows(&[one, three], 1, &mut rings));
/// assert_eq!(rings, [3]);
/// ```
pub fn ring_rows(stages: &[RowGeometry], band: usize, rings: &mut [usize]) -> bool {
    if rings.len() < stages.len().saturating_sub(1) {
        return false;
    }
    for r in rings.iter_mut().take(stages.len().saturating_sub(1)) {
        *r = 0;
    }
    let last = stages.len().saturating_sub(1);
    walk(stages, band, |k, rows| {
        // a band written into the ring
        if k < last {
            if let Some(r) = rings.get_mut(k) {
                *r = (*r).max(rows.end - rows.start);
            }
        }
        if let (Some(before), Some(stage)) = (k.checked_sub(1), stages.get(k)) {
            let n = stage.needed(rows);
            if let Some(r) = rings.get_mut(before) {
                *r = (*r).max(n.end - n.start);
            }
        }
        true
    })
}

/// Where a band of `rows` goes in a ring of `size` rows that holds rows
/// `first..rows.start` in order from its first slot: the ring's first row
/// after it is written, and the rows moved to the ring's front first
/// (empty where the band fits after them). A ring keeps its rows in
/// order, so that every band a stage writes and every window its
/// consumer reads is one contiguous image, which the DSP loops take
/// whole; where the band does not fit, the rows before `rows.end - size`
/// are dropped (the ring holds the most rows read at one call and the
/// most written, [`ring_rows`], so those are read no more) and the rest
/// move to the front.
///
/// ```
/// use shapecheck_tflite::stream::ring_slide;
///
/// // a ring of 3 rows holding rows 4 and 5: row 6 fits after them
/// assert_eq!(ring_slide(4, 3, 6..7), (4, 6..6));
/// // then rows 7 and 8: rows 4 to 6 are dropped but row 6, which moves
/// assert_eq!(ring_slide(4, 3, 7..9), (6, 6..7));
/// ```
pub fn ring_slide(first: usize, size: usize, rows: Range<usize>) -> (usize, Range<usize>) {
    if rows.end.saturating_sub(first) <= size {
        return (first, rows.start..rows.start);
    }
    let keep = rows.end.saturating_sub(size).max(first).min(rows.start);
    (keep, keep..rows.start)
}

/// `buf[moved]` copied to the front of `buf` (the ring's kept rows slid
/// down, [`ring_slide`]); nothing if `moved` is empty or not inside `buf`.
/// The copy runs forward in pieces no longer than the distance, so that
/// no piece's source overlaps its destination, each piece 16 bytes a step
/// ([`copy_forward`]): `copy_within` calls `memmove`, whose word loop
/// costs about 11 cycles per 4 bytes on the Cortex-M4.
fn slide_to_front(buf: &mut [i8], moved: Range<usize>) {
    let (from, to) = (moved.start, moved.end);
    if from == 0 || from >= to || to > buf.len() {
        return;
    }
    let mut done = 0;
    while done < to - from {
        let piece = (to - from - done).min(from);
        let (head, tail) = buf.split_at_mut(from + done);
        if let (Some(d), Some(s)) = (head.get_mut(done..done + piece), tail.get(..piece)) {
            copy_forward(d, s);
        }
        done += piece;
    }
}

/// Whether a run of at least two stages walked `band` rows at a time can
/// write its last stage's output over its first stage's input: each band
/// of output rows the last stage writes lies before every input row the
/// first stage reads after it (row `r` of the output over row `r` of the
/// input, as an [`Stage::Add`] over the run's input writes it). `false`
/// for one stage, a walk that fails ([`walk`]) or a run whose output has
/// more rows than its input.
///
/// ```
/// use shapecheck_tflite::stream::{writes_behind_reads, RowGeometry};
///
/// // two 3×3 SAME convolutions, then a 1-row stage (an ADD): row r is
/// // written once the first convolution has read row r + 1, its last read of row r
/// let same = RowGeometry { input_rows: 8, output_rows: 8, stride: 1, pad_top: 1, dilation: 1, filter: 3 };
/// let add = RowGeometry { pad_top: 0, filter: 1, ..same };
/// assert!(writes_behind_reads(&[same, same, add], 2));
/// // output row r reading rows r - 2..=r: row r is still read after it is written
/// let above = RowGeometry { pad_top: 2, ..same };
/// assert!(!writes_behind_reads(&[above, add], 1));
/// ```
pub fn writes_behind_reads(stages: &[RowGeometry], band: usize) -> bool {
    let (Some(first), Some(last)) = (stages.first().copied(), stages.last().copied()) else {
        return false;
    };
    if stages.len() < 2 || last.output_rows > first.input_rows {
        return false;
    }
    let end = stages.len() - 1;
    // the first input row the first stage reads at its next call
    let mut next_read = 0usize;
    let mut behind = true;
    let walked = walk(stages, band, |k, rows| {
        if k == 0 {
            next_read = if rows.end < first.output_rows {
                first.needed(rows.end..rows.end + 1).start
            } else {
                usize::MAX
            };
        }
        if k == end {
            behind &= rows.end <= next_read;
        }
        true
    });
    walked && behind
}

/// Checks a convolution stage's prepared channel pairs: one per two
/// output channels, each the one [`crate::conv_prepare`] makes of these
/// operands (so that its band calls are bit for bit those without them).
fn check_conv_prepared(
    filter: &[i8],
    bias: Option<&[i32]>,
    stages: &[ConvPairStage],
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
) -> Result<(), TfliteError> {
    let mismatch = TfliteError::KernelParam {
        what: "convolution stage's prepared channel pairs",
        value: i64::try_from(stages.len()).unwrap_or(i64::MAX),
        rule: "they must be conv_prepare's of its filter, bias and parameters",
    };
    if !dims.output_depth.is_multiple_of(2) || stages.len() != dims.output_depth / 2 {
        return Err(mismatch);
    }
    let stage = crate::arith::quant::OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    for (j, s) in stages.iter().enumerate() {
        if crate::ops::conv::prepared_pair(filter, bias, dims, params, &stage, j) != Some(*s) {
            return Err(mismatch);
        }
    }
    Ok(())
}

/// Checks a depthwise stage's prepared groups: one per four channels,
/// each the one [`crate::depthwise_prepare`] makes of these operands (so
/// that its band calls are bit for bit those without them).
fn check_prepared(
    filter: &[i8],
    bias: Option<&[i32]>,
    groups: &[DepthwiseGroup],
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
) -> Result<(), TfliteError> {
    let mismatch = TfliteError::KernelParam {
        what: "depthwise stage's prepared groups",
        value: i64::try_from(groups.len()).unwrap_or(i64::MAX),
        rule: "they must be depthwise_prepare's of its filter, bias and parameters",
    };
    if dims.depth_multiplier != 1
        || !dims.input_depth.is_multiple_of(4)
        || groups.len() != dims.input_depth / 4
    {
        return Err(mismatch);
    }
    let stage = crate::arith::quant::OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    for (g, group) in groups.iter().enumerate() {
        if crate::ops::conv::depthwise_conv::dsp::depthwise_group(
            filter,
            bias,
            &dims,
            params,
            &stage,
            g * 4,
        ) != Some(*group)
        {
            return Err(mismatch);
        }
    }
    Ok(())
}

/// One stage of a streamed run: a layer's kernel and parameters, as the
/// whole-tensor kernels take them (one image: `batches` 1).
///
/// ```
/// use shapecheck_tflite::stream::Stage;
/// use shapecheck_tflite::{PoolDims, PoolParams};
///
/// let dims = PoolDims { batches: 1, input_height: 4, input_width: 1, depth: 1,
///     filter_height: 2, filter_width: 1, output_height: 2, output_width: 1 };
/// let params = PoolParams { stride_height: 2, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127 };
/// let stage = Stage::MaxPool { dims, params };
/// assert_eq!(stage.geometry().filter, 2);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Stage<'a> {
    /// [`crate::conv_2d_int8`]'s operands
    Conv {
        /// `[output_depth, filter_height, filter_width, input_depth]`
        filter: &'a [i8],
        /// one per output channel
        bias: Option<&'a [i32]>,
        /// the channel pairs set up once ([`crate::conv_prepare`]'s,
        /// checked by [`StreamRun::new`] against the filter, bias and
        /// parameters): the DSP loops' band calls (the matrix product's
        /// for a 1×1 filter, im2col's for any other) then cost their
        /// pixels alone; `None` sets them up at each call
        prepared: Option<&'a [ConvPairStage]>,
        /// its sizes
        dims: Conv2dDims,
        /// its parameters
        params: Conv2dParams<'a>,
    },
    /// [`crate::depthwise_conv_int8`]'s operands
    Depthwise {
        /// `[filter_height, filter_width, input_depth · depth_multiplier]`
        filter: &'a [i8],
        /// one per output channel
        bias: Option<&'a [i32]>,
        /// its groups of four channels set up once
        /// ([`crate::depthwise_prepare`]'s, checked by [`StreamRun::new`]
        /// against the filter, bias and parameters): the DSP loops' band
        /// calls then cost their pixels alone; `None` sets them up at each
        /// call
        prepared: Option<&'a [DepthwiseGroup]>,
        /// its sizes
        dims: DepthwiseConvDims,
        /// its parameters
        params: DepthwiseConvParams<'a>,
    },
    /// [`crate::average_pool_int8`]'s operands
    AveragePool {
        /// its sizes
        dims: PoolDims,
        /// its parameters
        params: PoolParams,
    },
    /// [`crate::max_pool_int8`]'s operands
    MaxPool {
        /// its sizes
        dims: PoolDims,
        /// its parameters
        params: PoolParams,
    },
    /// An `ADD` of two tensors of one shape ([`crate::add_int8_in_place`]),
    /// a run's last stage only: the stage before's rows (the chain) and
    /// the skip, over which it writes (see the module's docs)
    Add {
        /// its parameters
        params: AddParams,
        /// which input of the `ADD` the skip is (the chain is the other)
        over: AddOver,
        /// the rows of each operand
        rows: usize,
        /// the values of one row
        row_len: usize,
    },
}

impl Stage<'_> {
    /// Its vertical window.
    ///
    /// ```
    /// use shapecheck_tflite::stream::Stage;
    /// use shapecheck_tflite::{PoolDims, PoolParams};
    ///
    /// let dims = PoolDims { batches: 1, input_height: 6, input_width: 1, depth: 1,
    ///     filter_height: 3, filter_width: 1, output_height: 3, output_width: 1 };
    /// let params = PoolParams { stride_height: 2, stride_width: 1, pad_top: 1, pad_left: 0,
    ///     output_min: -128, output_max: 127 };
    /// let g = Stage::AveragePool { dims, params }.geometry();
    /// assert_eq!((g.input_rows, g.output_rows, g.stride, g.pad_top), (6, 3, 2, 1));
    /// ```
    pub fn geometry(&self) -> RowGeometry {
        match *self {
            Stage::Conv { dims, params, .. } => RowGeometry {
                input_rows: dims.input_height,
                output_rows: dims.output_height,
                stride: params.stride_height,
                pad_top: params.pad_top,
                dilation: params.dilation_height,
                filter: dims.filter_height,
            },
            Stage::Depthwise { dims, params, .. } => RowGeometry {
                input_rows: dims.input_height,
                output_rows: dims.output_height,
                stride: params.stride_height,
                pad_top: params.pad_top,
                dilation: params.dilation_height,
                filter: dims.filter_height,
            },
            Stage::AveragePool { dims, params } | Stage::MaxPool { dims, params } => RowGeometry {
                input_rows: dims.input_height,
                output_rows: dims.output_height,
                stride: params.stride_height,
                pad_top: params.pad_top,
                dilation: 1,
                filter: dims.filter_height,
            },
            Stage::Add { rows, .. } => RowGeometry {
                input_rows: rows,
                output_rows: rows,
                stride: 1,
                pad_top: 0,
                dilation: 1,
                filter: 1,
            },
        }
    }

    /// The geometry a run walks for its last stage:
    /// [`RowGeometry::accumulated`]'s for an average pool whose window
    /// spans the rows, its own otherwise (and for every other stage).
    fn walked(&self) -> RowGeometry {
        let own = self.geometry();
        match self {
            Stage::AveragePool { .. } => own.accumulated().unwrap_or(own),
            _ => own,
        }
    }

    /// The dims and parameters of an average pool that accumulates as a
    /// run's last stage (see [`RowGeometry::accumulated`]), `None` for
    /// any other stage.
    fn accumulating(&self) -> Option<(PoolDims, PoolParams)> {
        match *self {
            Stage::AveragePool { dims, params } if self.geometry().accumulated().is_some() => {
                Some((dims, params))
            }
            _ => None,
        }
    }

    /// The scratch of an accumulating average pool's sums: 4 bytes per
    /// output value (0 for any other stage).
    fn sums_len(&self) -> usize {
        match self.accumulating() {
            Some(_) => self.row_lens().1.saturating_mul(4),
            None => 0,
        }
    }

    /// The values of one input row and of one output row (saturating:
    /// [`StreamRun::new`] checks the products).
    fn row_lens(&self) -> (usize, usize) {
        match *self {
            Stage::Conv { dims, .. } => (
                dims.input_width.saturating_mul(dims.input_depth),
                dims.output_width.saturating_mul(dims.output_depth),
            ),
            Stage::Depthwise { dims, .. } => (
                dims.input_width.saturating_mul(dims.input_depth),
                dims.output_width
                    .saturating_mul(dims.input_depth)
                    .saturating_mul(dims.depth_multiplier),
            ),
            Stage::AveragePool { dims, .. } | Stage::MaxPool { dims, .. } => (
                dims.input_width.saturating_mul(dims.depth),
                dims.output_width.saturating_mul(dims.depth),
            ),
            Stage::Add { row_len, .. } => (row_len, row_len),
        }
    }

    fn batches(&self) -> usize {
        match *self {
            Stage::Conv { dims, .. } => dims.batches,
            Stage::Depthwise { dims, .. } => dims.batches,
            Stage::AveragePool { dims, .. } | Stage::MaxPool { dims, .. } => dims.batches,
            Stage::Add { .. } => 1,
        }
    }

    /// Checks the layer (as its band kernel does, on no rows).
    fn check(&self) -> Result<(), TfliteError> {
        match *self {
            Stage::Conv {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                conv_2d_int8_band(&[], 0, 0..0, filter, bias, dims, &params, &mut [])?;
                match prepared {
                    Some(stages) => check_conv_prepared(filter, bias, stages, dims, &params),
                    None => Ok(()),
                }
            }
            Stage::Depthwise {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                depthwise_conv_int8_band(&[], 0, 0..0, filter, bias, dims, &params, &mut [])?;
                match prepared {
                    Some(groups) => check_prepared(filter, bias, groups, dims, &params),
                    None => Ok(()),
                }
            }
            Stage::AveragePool { dims, params } => {
                average_pool_int8_band(&[], 0, 0..0, dims, &params, &mut [])?;
                // each window holds a tap (checked on an output of rows)
                every_window_has_a_tap(dims, &params, 1)
            }
            Stage::MaxPool { dims, params } => {
                max_pool_int8_band(&[], 0, 0..0, dims, &params, &mut [])
            }
            Stage::Add { params, .. } => params.check(),
        }
    }

    /// Output rows `rows` from `image`, input rows `needed` one after
    /// another (those the rows read: [`RowGeometry::needed`]): the layer
    /// over that image alone, its output those rows alone, its padding
    /// above moved to where the image starts. Bit for bit the rows of the
    /// whole layer, as a tap outside `needed` is outside the input for
    /// these rows too; and the whole-tensor kernel's call, so the DSP
    /// loops take every band.
    fn band(&self, image: &[i8], needed: Range<usize>, rows: Range<usize>, output: &mut [i8]) {
        let (input_rows, output_rows) = (needed.len(), rows.len());
        // the padding rows above the image: at least 0, as `needed`
        // starts at the first row the first output row reads
        let stride = self.geometry().stride;
        let shift = |pad_top: usize| {
            pad_top
                .saturating_add(needed.start)
                .saturating_sub(rows.start.saturating_mul(stride))
        };
        let (ring, ring_rows, out_rows) = (image, input_rows, 0..output_rows);
        match *self {
            Stage::Conv {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                let dims = Conv2dDims {
                    input_height: input_rows,
                    output_height: output_rows,
                    ..dims
                };
                let params = Conv2dParams {
                    pad_top: shift(params.pad_top),
                    ..params
                };
                conv_rows(
                    ring, ring_rows, out_rows, filter, bias, prepared, dims, &params, output,
                )
            }
            Stage::Depthwise {
                filter,
                bias,
                prepared,
                dims,
                params,
            } => {
                let dims = DepthwiseConvDims {
                    input_height: input_rows,
                    output_height: output_rows,
                    ..dims
                };
                let params = DepthwiseConvParams {
                    pad_top: shift(params.pad_top),
                    ..params
                };
                depthwise_rows(
                    ring, ring_rows, out_rows, filter, bias, prepared, dims, &params, output,
                )
            }
            Stage::AveragePool { dims, params } => {
                let dims = PoolDims {
                    input_height: input_rows,
                    output_height: output_rows,
                    ..dims
                };
                let params = PoolParams {
                    pad_top: shift(params.pad_top),
                    ..params
                };
                average_rows(ring, ring_rows, out_rows, dims, &params, output)
            }
            Stage::MaxPool { dims, params } => {
                let dims = PoolDims {
                    input_height: input_rows,
                    output_height: output_rows,
                    ..dims
                };
                let params = PoolParams {
                    pad_top: shift(params.pad_top),
                    ..params
                };
                pool_rows(ring, ring_rows, out_rows, dims, &params, output, &max_int8)
            }
            // the driver computes an ADD over its skip (`add_rows`)
            Stage::Add { .. } => {}
        }
    }
}

/// A streamed run, checked: its stages, each one's input the output of
/// the one before, the rows of the ring after each stage but the last,
/// and its band. [`StreamRun::run`] computes the last stage's output from
/// the first one's input through the rings, bit for bit the stages run
/// whole one after another.
///
/// ```
/// use shapecheck_tflite::stream::{Stage, StreamRun};
/// use shapecheck_tflite::{PoolDims, PoolParams};
///
/// // two max pools of 2 rows, stride 1, down a column of 4: a ring of 2 rows between them
/// let dims = |h| PoolDims { batches: 1, input_height: h, input_width: 1, depth: 1,
///     filter_height: 2, filter_width: 1, output_height: h - 1, output_width: 1 };
/// let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127 };
/// let stages = [Stage::MaxPool { dims: dims(4), params }, Stage::MaxPool { dims: dims(3), params }];
/// let run = StreamRun::new(&stages, &[2], 1)?;
/// assert_eq!(run.scratch_len(), 2);
/// let (mut scratch, mut out) = ([0i8; 2], [0i8; 2]);
/// run.run(&[1, 5, 2, 3], &mut scratch, &mut out)?;
/// assert_eq!(out, [5, 5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StreamRun<'a> {
    stages: &'a [Stage<'a>],
    rings: &'a [usize],
    band: usize,
}

impl<'a> StreamRun<'a> {
    /// Checks a run: 1 to [`MAX_STAGES`] stages, each layer as its kernel
    /// checks it, of one image, each one's input the one before's output
    /// (its rows and each row's values), a `band` of at least 1 row, and
    /// `rings` (one per stage but the last) at least the rows
    /// [`ring_rows`] gives. A [`TfliteError::KernelParam`] or the
    /// kernel's error otherwise.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{Stage, StreamRun};
    /// use shapecheck_tflite::{PoolDims, PoolParams, TfliteError};
    ///
    /// let dims = PoolDims { batches: 1, input_height: 4, input_width: 1, depth: 1,
    ///     filter_height: 2, filter_width: 1, output_height: 3, output_width: 1 };
    /// let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    ///     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims, params }, Stage::MaxPool { dims, params }];
    /// // the second reads 4 rows, the first writes 3
    /// assert!(StreamRun::new(&stages, &[2], 1).is_err());
    /// ```
    pub fn new(
        stages: &'a [Stage<'a>],
        rings: &'a [usize],
        band: usize,
    ) -> Result<StreamRun<'a>, TfliteError> {
        let param = |what, value: usize, rule| TfliteError::KernelParam {
            what,
            value: i64::try_from(value).unwrap_or(i64::MAX),
            rule,
        };
        if stages.is_empty() || stages.len() > MAX_STAGES {
            return Err(param(
                "streamed run's stages",
                stages.len(),
                "a run has 1 to MAX_STAGES stages",
            ));
        }
        if rings.len() != stages.len() - 1 {
            return Err(param(
                "streamed run's rings",
                rings.len(),
                "a run has one ring after each stage but the last",
            ));
        }
        if band == 0 {
            return Err(param("streamed run's band", 0, "a band has rows"));
        }
        let last = stages.len() - 1;
        for (k, stage) in stages.iter().enumerate() {
            if matches!(stage, Stage::Add { .. }) && (k != last || k == 0) {
                return Err(param(
                    "streamed run's ADD stage",
                    k,
                    "an ADD is the last stage of a run of two or more",
                ));
            }
            stage.check()?;
            if stage.batches() != 1 {
                return Err(param(
                    "streamed run's batches",
                    stage.batches(),
                    "a streamed run computes one image",
                ));
            }
        }
        for pair in stages.windows(2) {
            if let [a, b] = pair {
                let (ga, gb) = (a.geometry(), b.geometry());
                if ga.output_rows != gb.input_rows || a.row_lens().1 != b.row_lens().0 {
                    return Err(param(
                        "streamed stage's input rows",
                        gb.input_rows,
                        "each stage reads the rows the stage before writes",
                    ));
                }
            }
        }
        if let Some((dims, _)) = stages.last().and_then(Stage::accumulating) {
            // its sums fit an i32: at most 2^23 taps of at most 128
            let taps = dims
                .input_height
                .saturating_mul(dims.filter_width.min(dims.input_width));
            if taps > 1 << 23 {
                return Err(param(
                    "accumulating pool's taps",
                    taps,
                    "a window spanning the rows has at most 2^23 taps",
                ));
            }
        }
        let geometry = geometries(stages);
        let mut needed = [0usize; MAX_STAGES];
        let walked = ring_rows(
            geometry.get(..stages.len()).unwrap_or(&[]),
            band,
            &mut needed,
        );
        if !walked {
            return Err(param(
                "streamed run's band",
                band,
                "the run cannot be walked",
            ));
        }
        for (stage, (&have, &need)) in stages.iter().zip(rings.iter().zip(&needed)) {
            if have < need.max(1) {
                return Err(TfliteError::RingTooSmall {
                    first_row: 0,
                    rows: need,
                    ring_rows: have,
                });
            }
            // the ring's values fit a usize
            stage.row_lens().1.checked_mul(have).ok_or(param(
                "ring's values",
                usize::MAX,
                "the sizes overflow",
            ))?;
        }
        let run = StreamRun {
            stages,
            rings,
            band,
        };
        for len in [run.input_len(), run.output_len(), run.scratch_len()] {
            if len == usize::MAX {
                return Err(param("streamed run's tensor", len, "the sizes overflow"));
            }
        }
        Ok(run)
    }

    /// A run its caller has checked with [`StreamRun::new`] (a `const
    /// fn`, for a `static`): `model!` checks each run when it expands and
    /// writes this constructor with the same constants. An unchecked run
    /// never reads or writes outside a slice; it computes wrong values.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{Stage, StreamRun};
    /// use shapecheck_tflite::{PoolDims, PoolParams};
    ///
    /// static STAGES: [Stage<'static>; 1] = [Stage::MaxPool {
    ///     dims: PoolDims { batches: 1, input_height: 2, input_width: 1, depth: 1,
    ///         filter_height: 2, filter_width: 1, output_height: 1, output_width: 1 },
    ///     params: PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    ///         output_min: -128, output_max: 127 },
    /// }];
    /// static RUN: StreamRun<'static> = StreamRun::prechecked(&STAGES, &[], 1);
    /// assert!(StreamRun::new(&STAGES, &[], 1).is_ok());
    /// let mut out = [0i8];
    /// RUN.run_prechecked(&[3, 9], &mut [], &mut out);
    /// assert_eq!(out, [9]);
    /// ```
    pub const fn prechecked(
        stages: &'a [Stage<'a>],
        rings: &'a [usize],
        band: usize,
    ) -> StreamRun<'a> {
        StreamRun {
            stages,
            rings,
            band,
        }
    }

    /// The values of the first stage's input (one image).
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 4, input_width: 1, depth: 1,
    /// #     filter_height: 1, filter_width: 1, output_height: 4, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims, params }];
    /// assert_eq!(StreamRun::new(&stages, &[], 1)?.input_len(), 4);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn input_len(&self) -> usize {
        self.stages.first().map_or(0, |s| {
            s.geometry().input_rows.saturating_mul(s.row_lens().0)
        })
    }

    /// The values of the last stage's output.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 4, input_width: 1, depth: 1,
    /// #     filter_height: 2, filter_width: 1, output_height: 3, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims, params }];
    /// assert_eq!(StreamRun::new(&stages, &[], 1)?.output_len(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn output_len(&self) -> usize {
        self.stages.last().map_or(0, |s| {
            s.geometry().output_rows.saturating_mul(s.row_lens().1)
        })
    }

    /// The values of the rings, one after another, then, when the last
    /// stage is an average pool whose window spans the rows
    /// ([`RowGeometry::accumulated`]), its sums (4 bytes per output
    /// value): the scratch [`StreamRun::run`] takes.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{PoolDims, PoolParams};
    /// # let dims = |h| PoolDims { batches: 1, input_height: h, input_width: 1, depth: 3,
    /// #     filter_height: 2, filter_width: 1, output_height: h - 1, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims: dims(4), params }, Stage::MaxPool { dims: dims(3), params }];
    /// assert_eq!(StreamRun::new(&stages, &[2], 1)?.scratch_len(), 6); // 2 rows of 3 channels
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn scratch_len(&self) -> usize {
        self.stages
            .iter()
            .zip(self.rings)
            .try_fold(0usize, |sum, (s, &rows)| {
                sum.checked_add(s.row_lens().1.checked_mul(rows)?)
            })
            .and_then(|rings| rings.checked_add(self.stages.last().map_or(0, Stage::sums_len)))
            .unwrap_or(usize::MAX)
    }

    /// Runs the run: `output` (the last stage's, [`StreamRun::output_len`]
    /// values) from `input` (the first stage's, [`StreamRun::input_len`]),
    /// through the rings in `scratch` ([`StreamRun::scratch_len`] values).
    /// Fails, `output` untouched, when a length differs.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 2, input_width: 1, depth: 1,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims, params }];
    /// let run = StreamRun::new(&stages, &[], 1)?;
    /// assert!(run.run(&[1, 2, 3], &mut [], &mut [0; 2]).is_err());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run(
        &self,
        input: &[i8],
        scratch: &mut [i8],
        output: &mut [i8],
    ) -> Result<(), TfliteError> {
        length("streamed run's input", self.input_len(), input.len())?;
        length("streamed run's rings", self.scratch_len(), scratch.len())?;
        length("streamed run's output", self.output_len(), output.len())?;
        self.run_prechecked(input, scratch, output);
        Ok(())
    }

    /// [`StreamRun::run`] with its lengths checked by the caller (a
    /// length that differs computes fewer values, never reads or writes
    /// outside a slice): what `model!`'s `predict` calls, its lengths
    /// the arena's typed views'.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 2, input_width: 1, depth: 1,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let stages = [Stage::MaxPool { dims, params }];
    /// let mut out = [0i8; 2];
    /// StreamRun::new(&stages, &[], 2)?.run_prechecked(&[7, 8], &mut [], &mut out);
    /// assert_eq!(out, [7, 8]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run_prechecked(&self, input: &[i8], scratch: &mut [i8], output: &mut [i8]) {
        self.drive(Io::Apart { input, output }, scratch);
    }

    /// Checks that the run's output may be written over its input: its
    /// last stage is an [`Stage::Add`] whose skip is the run's input, of
    /// the output's length, and [`writes_behind_reads`] holds for its
    /// walk. A [`TfliteError::KernelParam`] otherwise.
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{add_params, AddOver, PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 3, input_width: 1, depth: 1,
    /// #     filter_height: 1, filter_width: 1, output_height: 3, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let add = Stage::Add { params: add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127)?, over: AddOver::Input1, rows: 3, row_len: 1 };
    /// let stages = [Stage::MaxPool { dims, params }, add];
    /// assert!(StreamRun::new(&stages, &[1], 1)?.check_over_input().is_ok());
    /// let pool = [Stage::MaxPool { dims, params }];
    /// assert!(StreamRun::new(&pool, &[], 1)?.check_over_input().is_err());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn check_over_input(&self) -> Result<(), TfliteError> {
        let refuse = |rule| TfliteError::KernelParam {
            what: "streamed run over its input",
            value: i64::try_from(self.band).unwrap_or(i64::MAX),
            rule,
        };
        if !matches!(self.stages.last(), Some(Stage::Add { .. })) {
            return Err(refuse("a run written over its input ends in an ADD"));
        }
        if self.input_len() != self.output_len() {
            return Err(refuse(
                "an ADD over the run's input is of its input's shape",
            ));
        }
        let geometry = geometries(self.stages);
        if !writes_behind_reads(geometry.get(..self.stages.len()).unwrap_or(&[]), self.band) {
            return Err(refuse(
                "each band is written over input rows the first stage reads no more",
            ));
        }
        Ok(())
    }

    /// Runs a run whose last stage is an [`Stage::Add`] whose skip is the
    /// run's input, its output written over that input: `io` holds the
    /// input ([`StreamRun::input_len`] values) and then the output.
    /// Fails, `io` untouched, when [`StreamRun::check_over_input`] does or
    /// a length differs.
    ///
    /// ```
    /// use shapecheck_tflite::stream::{Stage, StreamRun};
    /// use shapecheck_tflite::{add_params, AddOver, PoolDims, PoolParams};
    ///
    /// // y = x + maxpool(x) over 2 rows (SAME: the last row alone), a column of 4
    /// let dims = PoolDims { batches: 1, input_height: 4, input_width: 1, depth: 1,
    ///     filter_height: 2, filter_width: 1, output_height: 4, output_width: 1 };
    /// let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    ///     output_min: -128, output_max: 127 };
    /// let add = add_params(1.0, 0, 1.0, 0, 1.0, 0, -128, 127)?;
    /// let stages = [Stage::MaxPool { dims, params },
    ///     Stage::Add { params: add, over: AddOver::Input1, rows: 4, row_len: 1 }];
    /// let run = StreamRun::new(&stages, &[1], 1)?;
    /// let mut io = [1i8, 5, 2, 3];
    /// run.run_over_input(&mut io, &mut [0])?;
    /// assert_eq!(io, [1 + 5, 5 + 5, 2 + 3, 3 + 3]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run_over_input(&self, io: &mut [i8], scratch: &mut [i8]) -> Result<(), TfliteError> {
        self.check_over_input()?;
        length("streamed run's input", self.input_len(), io.len())?;
        length("streamed run's rings", self.scratch_len(), scratch.len())?;
        self.run_over_input_prechecked(io, scratch);
        Ok(())
    }

    /// [`StreamRun::run_over_input`] with [`StreamRun::check_over_input`]
    /// and the lengths checked by the caller (`model!` checks the run
    /// when it expands; a run that fails the check computes wrong
    /// values, never reads or writes outside a slice).
    ///
    /// ```
    /// # use shapecheck_tflite::stream::{Stage, StreamRun};
    /// # use shapecheck_tflite::{add_params, AddOver, PoolDims, PoolParams};
    /// # let dims = PoolDims { batches: 1, input_height: 2, input_width: 1, depth: 1,
    /// #     filter_height: 1, filter_width: 1, output_height: 2, output_width: 1 };
    /// # let params = PoolParams { stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
    /// #     output_min: -128, output_max: 127 };
    /// let add = add_params(1.0, 0, 1.0, 0, 1.0, 0, -128, 127)?;
    /// let stages = [Stage::MaxPool { dims, params },
    ///     Stage::Add { params: add, over: AddOver::Input2, rows: 2, row_len: 1 }];
    /// let mut io = [3i8, 4];
    /// StreamRun::new(&stages, &[1], 1)?.run_over_input_prechecked(&mut io, &mut [0]);
    /// assert_eq!(io, [6, 8]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn run_over_input_prechecked(&self, io: &mut [i8], scratch: &mut [i8]) {
        self.drive(Io::Over(io), scratch);
    }

    /// The walk: each stage's rows computed from the ring before (or the
    /// run's input) into the ring after (or the output).
    fn drive(&self, mut io: Io<'_>, scratch: &mut [i8]) {
        let count = self.stages.len();
        let last = count.saturating_sub(1);
        // where the ring after each stage starts in the scratch (after
        // the last stage: the scratch's end)
        let mut starts = [0usize; MAX_STAGES];
        let mut at = 0usize;
        for (k, stage) in self.stages.iter().enumerate() {
            if let Some(s) = starts.get_mut(k) {
                *s = at;
            }
            let rows = self.rings.get(k).copied().unwrap_or(0);
            at = at.saturating_add(stage.row_lens().1.saturating_mul(rows));
        }
        // each stage's geometry as the run walks it, found when asked (an
        // array of them would be MAX_STAGES geometries on the stack)
        let geometry = |k: usize| {
            let stage = self.stages.get(k)?;
            Some(if k == last {
                stage.walked()
            } else {
                stage.geometry()
            })
        };
        // each ring's first row: it holds stage k's output rows from
        // `first[k]` to the last computed, in order from its first slot
        // ([`ring_slide`])
        let mut first = [0usize; MAX_STAGES];
        walk_by(count, &geometry, self.band, &mut |k, rows| {
            let (Some(stage), Some(g)) = (self.stages.get(k), geometry(k)) else {
                return false;
            };
            let out_row = stage.row_lens().1;
            let (input, output) = io.parts(k == 0);
            // the input rows the band reads, contiguous: the run's
            // input (whole), or the ring before, which lies before
            // stage k's ring in the scratch
            let needed = g.needed(rows.clone());
            let (before, after) = scratch.split_at_mut(starts.get(k).copied().unwrap_or(0).min(at));
            let in_row = stage.row_lens().0;
            let (image, held) = match k.checked_sub(1) {
                None => (input, 0),
                Some(b) => {
                    let from = starts.get(b).copied().unwrap_or(0);
                    (
                        before.get(from..).unwrap_or(&[]),
                        first.get(b).copied().unwrap_or(0),
                    )
                }
            };
            let Some(image) = needed
                .start
                .checked_sub(held)
                .zip(needed.end.checked_sub(held))
                .and_then(|(a, b)| image.get(a.checked_mul(in_row)?..b.checked_mul(in_row)?))
            else {
                return false;
            };
            if let (true, Some((dims, params))) = (k == last, stage.accumulating()) {
                let sums = after.get_mut(..stage.sums_len()).unwrap_or(&mut []);
                if rows.start == 0 {
                    sums.fill(0);
                }
                // the walked rows are the input rows, one each
                let n = needed.len();
                average_pool_accumulate(image, n, 0..n, dims, &params, sums);
                if rows.end == dims.input_height {
                    average_pool_finish(sums, dims, &params, output);
                }
                return true;
            }
            if let (true, Stage::Add { params, over, .. }) = (k == last, stage) {
                add_rows(image, rows, out_row, *over, params, output);
                return true;
            }
            let out = if k == last {
                let from = rows.start.saturating_mul(out_row);
                let to = rows.end.saturating_mul(out_row);
                output.get_mut(from..to)
            } else {
                let size = self.rings.get(k).copied().unwrap_or(0);
                let Some(held) = first.get_mut(k) else {
                    return false;
                };
                let ring = after
                    .get_mut(..size.saturating_mul(out_row))
                    .unwrap_or(&mut []);
                let (keep, moved) = ring_slide(*held, size, rows.clone());
                let from = (moved.start - *held).saturating_mul(out_row);
                let to = (moved.end - *held).saturating_mul(out_row);
                slide_to_front(ring, from..to);
                *held = keep;
                let from = (rows.start - keep).saturating_mul(out_row);
                let to = (rows.end - keep).saturating_mul(out_row);
                ring.get_mut(from..to)
            };
            let Some(out) = out else {
                return false;
            };
            stage.band(image, needed, rows, out);
            true
        });
    }
}

/// Where a run reads its input and writes its output: apart, or one
/// buffer (an ADD over the run's input).
enum Io<'x> {
    Apart {
        input: &'x [i8],
        output: &'x mut [i8],
    },
    Over(&'x mut [i8]),
}

impl Io<'_> {
    /// The run's input and output as stage `k` sees them: over the input,
    /// the first stage reads the buffer and every other stage may write
    /// it (only the last does).
    fn parts(&mut self, first: bool) -> (&[i8], &mut [i8]) {
        match self {
            Io::Apart { input, output } => (input, output),
            Io::Over(io) => {
                if first {
                    (io, &mut [])
                } else {
                    (&[], io)
                }
            }
        }
    }
}

/// An ADD stage's output rows `rows`: each row of the chain (`chain`,
/// rows `rows` in order, the stage before's output) added to the skip's
/// row `r` in `output`, written over it.
fn add_rows(
    chain: &[i8],
    rows: Range<usize>,
    row_len: usize,
    over: AddOver,
    params: &AddParams,
    output: &mut [i8],
) {
    for (i, r) in rows.enumerate() {
        let from = i.saturating_mul(row_len);
        let chain = chain.get(from..from.saturating_add(row_len)).unwrap_or(&[]);
        let from = r.saturating_mul(row_len);
        if let Some(skip) = output.get_mut(from..from.saturating_add(row_len)) {
            add_int8_in_place_prechecked(skip, chain, over, params);
        }
    }
}

/// The stages' geometries as the run walks them (the last one's
/// [`Stage::walked`]), in
/// an array of [`MAX_STAGES`] (the rest zeros).
fn geometries(stages: &[Stage<'_>]) -> [RowGeometry; MAX_STAGES] {
    let mut all = [RowGeometry {
        input_rows: 0,
        output_rows: 0,
        stride: 1,
        pad_top: 0,
        dilation: 1,
        filter: 1,
    }; MAX_STAGES];
    for (g, s) in all.iter_mut().zip(stages) {
        *g = s.geometry();
    }
    // the last stage accumulates where it can
    if let (Some(g), Some(s)) = (
        stages.len().checked_sub(1).and_then(|k| all.get_mut(k)),
        stages.last(),
    ) {
        *g = s.walked();
    }
    all
}

#[cfg(test)]
mod tests {
    use super::slide_to_front;
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    proptest! {
        /// The slide is `copy_within(moved, 0)` wherever `moved` is a
        /// range inside the buffer, and leaves the buffer as it is
        /// otherwise (pieces of every length around the 16-byte steps).
        #[test]
        fn slide_to_front_is_copy_within(
            buf in proptest::collection::vec(any::<i8>(), 0..160),
            from in 0usize..170,
            len in 0usize..170,
        ) {
            let to = from.saturating_add(len);
            let mut want: Vec<i8> = buf.clone();
            if from < to && to <= buf.len() {
                want.copy_within(from..to, 0);
            }
            let mut got = buf.clone();
            slide_to_front(&mut got, from..to);
            prop_assert_eq!(got, want);
        }
    }
}
