//! TFLite's int8 `AVERAGE_POOL_2D` and `MAX_POOL_2D` kernels on slices:
//! TFLite Micro's `reference_integer_ops::AveragePool` and `MaxPool`; and
//! their f32 kernels, `reference_ops::AveragePool` and `MaxPool` to the bit
//! ([`average_pool_f32`], [`max_pool_f32`]).

use crate::arith::quant::QuantizedMultiplier;
use crate::arith::window::{at_least_1, check_band, length, product, RingRows, RowAxis, Window};
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::format::model::Operator;
use crate::format::model::OptionsReader;
use crate::format::types::Activation;
use crate::format::types::Padding;
use crate::format::types::TensorType;
use crate::kernel::checker::dim;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::shape::need_rank;
use crate::kernel::shape::operand;
use crate::kernel::shape::size;
use crate::kernel::shape::spatial;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use core::ops::Range;

/// The sizes of one pool, NHWC: the input is `[batches, input_height,
/// input_width, depth]`, the window `filter_height × filter_width`, the
/// output `[batches, output_height, output_width, depth]`.
///
/// ```
/// use shapecheck_tflite::{conv_axis, Padding, PoolDims};
///
/// // 3×3, stride 2, VALID on 7×7
/// let axis = conv_axis(Padding::Valid, 7, 3, 2, 1)?;
/// let dims = PoolDims {
///     batches: 1, input_height: 7, input_width: 7, depth: 5,
///     filter_height: 3, filter_width: 3,
///     output_height: axis.output, output_width: axis.output,
/// };
/// assert_eq!(dims.output_height, 3);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolDims {
    /// images
    pub batches: usize,
    /// the input's rows
    pub input_height: usize,
    /// the input's columns
    pub input_width: usize,
    /// the channels, the input's and the output's
    pub depth: usize,
    /// the window's rows (at least 1)
    pub filter_height: usize,
    /// the window's columns (at least 1)
    pub filter_width: usize,
    /// the output's rows
    pub output_height: usize,
    /// the output's columns
    pub output_width: usize,
}

impl crate::base::write_rust::WriteRust for PoolDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PoolDims",
            &[
                ("batches", &self.batches),
                ("input_height", &self.input_height),
                ("input_width", &self.input_width),
                ("depth", &self.depth),
                ("filter_height", &self.filter_height),
                ("filter_width", &self.filter_width),
                ("output_height", &self.output_height),
                ("output_width", &self.output_width),
            ],
        )
    }
}

/// How a pool steps and pads, and its clamp: the padding from
/// [`conv_axis`](crate::conv_axis) (dilation 1), the clamp from
/// [`activation_range_int8`](crate::activation_range_int8). A pool's input
/// and output share their scale and zero point (TFLite requires it), so
/// there is no requantization.
///
/// ```
/// use shapecheck_tflite::PoolParams;
///
/// let params = PoolParams {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// assert_eq!(params.stride_height, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolParams {
    /// rows stepped per output row (at least 1)
    pub stride_height: usize,
    /// columns stepped per output column (at least 1)
    pub stride_width: usize,
    /// padding rows above the input ([`ConvAxis::pad_before`](crate::ConvAxis::pad_before))
    pub pad_top: usize,
    /// padding columns left of the input
    pub pad_left: usize,
    /// the clamp's lower end, from the fused activation (in `[−128, 127]`)
    pub output_min: i32,
    /// the clamp's upper end (in `[output_min, 127]`)
    pub output_max: i32,
}

impl crate::base::write_rust::WriteRust for PoolParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PoolParams",
            &[
                ("stride_height", &self.stride_height),
                ("stride_width", &self.stride_width),
                ("pad_top", &self.pad_top),
                ("pad_left", &self.pad_left),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// TFLite's int8 `AVERAGE_POOL_2D` (TFLite Micro's
/// `reference_integer_ops::AveragePool`): each output is the average of the
/// window's inputs inside the input (padding is not counted in the
/// divisor), `sum` over `count` taps rounded to nearest with ties away from
/// zero as TFLite writes it (`(sum ± count / 2) / count`, truncating, the
/// sign of `sum`'s), then clamped to `[output_min, output_max]`. The zero
/// point is not subtracted: the average of quantized values is the
/// quantized average.
///
/// Fails, with `output` untouched, when a length does not match `dims`, a
/// stride or window size is 0, the clamp is empty or not inside int8, or an
/// output's window has no tap inside the input (padding at least a window
/// wide; TFLite's kernel then stops with an error, its output partly
/// written).
///
/// ```
/// use shapecheck_tflite::{average_pool_int8, PoolDims, PoolParams};
///
/// // 2×2 windows, stride 1, SAME on a 2×2 image: pads one row and column after
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 1,
///     filter_height: 2, filter_width: 2, output_height: 2, output_width: 2,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 4];
/// average_pool_int8(&[1, 2, 4, -7], dims, &params, &mut out)?;
/// // 0/4 → 0; (2 − 7)/2 = −2.5 → −3; (4 − 7)/2 = −1.5 → −2; −7
/// assert_eq!(out, [0, -3, -2, -7]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn average_pool_int8(
    input: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check(dims, params, Some(input.len()), Some(output.len()), INT8)?;
    every_window_has_a_tap(dims, params, output.len())?;
    average_pool_int8_prechecked(input, dims, params, output);
    Ok(())
}

/// [`average_pool_int8`] without its checks, for a caller that has made
/// them hold already (the typed layers of `shapecheck`, whose sizes and
/// padding are types and whose clamp was checked when the layer was
/// built): the lengths are the ones `dims` gives, the strides and window
/// at least 1, the clamp inside int8 and not empty, every output's window
/// holding a tap. On operands that break this, what it writes is
/// unspecified, but it never panics and never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{average_pool_int8_prechecked, PoolDims, PoolParams};
///
/// let dims = PoolDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     filter_height: 1, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 1];
/// average_pool_int8_prechecked(&[2, 5], dims, &params, &mut out);
/// assert_eq!(out, [4]); // 3.5 → 4
/// ```
pub fn average_pool_int8_prechecked(
    input: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) {
    pool(input, dims, params, output, average_rows);
}

/// TFLite's int16 `AVERAGE_POOL_2D` (TFLite Micro's
/// `reference_integer_ops::AveragePool` for int16, TFLite's 16x8 mode):
/// [`average_pool_int8`]'s rule on int16 values, the clamp inside int16.
///
/// ```
/// use shapecheck_tflite::{average_pool_int16, PoolDims, PoolParams};
///
/// // 2×2 windows, stride 1, SAME on a 2×2 image: pads one row and column after
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 1,
///     filter_height: 2, filter_width: 2, output_height: 2, output_width: 2,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -32768, output_max: 32767,
/// };
/// let mut out = [0i16; 4];
/// average_pool_int16(&[1000, 2000, 4000, -7001], dims, &params, &mut out)?;
/// // −1/4 → 0; (2000 − 7001)/2 = −2500.5 → −2501; (4000 − 7001)/2 → −1501; −7001
/// assert_eq!(out, [0, -2501, -1501, -7001]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn average_pool_int16(
    input: &[i16],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    check(dims, params, Some(input.len()), Some(output.len()), INT16)?;
    every_window_has_a_tap(dims, params, output.len())?;
    pool(input, dims, params, output, average_rows);
    Ok(())
}

/// `sum / count` rounded as TFLite's average pool rounds it: `(sum ±
/// count / 2) / count`, truncating, the sign of `sum`'s; 0 for no taps.
pub(crate) fn rounded_average(sum: i64, count: i64) -> i32 {
    let average = if count == 0 {
        0
    } else if sum > 0 {
        (sum + count / 2) / count
    } else {
        (sum - count / 2) / count
    };
    // |average| ≤ the largest |tap|
    i32::try_from(average).unwrap_or(0)
}

/// Checks that every output's window of an average pool holds a tap inside
/// the input (TFLite's kernel stops with an error where one does not):
/// along each axis the first output's window is the one most in the
/// padding before, the last output's the one most past the input's end.
pub(crate) fn every_window_has_a_tap(
    dims: PoolDims,
    params: &PoolParams,
    outputs: usize,
) -> Result<(), TfliteError> {
    if outputs == 0 {
        return Ok(());
    }
    for (what, stride, pad, filter, size, outputs) in [
        (
            "average pool's padding (top)",
            params.stride_height,
            params.pad_top,
            dims.filter_height,
            dims.input_height,
            dims.output_height,
        ),
        (
            "average pool's padding (left)",
            params.stride_width,
            params.pad_left,
            dims.filter_width,
            dims.input_width,
            dims.output_width,
        ),
    ] {
        // the output is not empty: outputs ≥ 1
        for o in [0, outputs.saturating_sub(1)] {
            if Window::new(o, stride, pad, 1, filter, size).len() == 0 {
                return Err(TfliteError::KernelParam {
                    what,
                    value: i64::try_from(pad).unwrap_or(i64::MAX),
                    rule: "an output's window has no tap inside the input",
                });
            }
        }
    }
    Ok(())
}

/// TFLite's int8 `MAX_POOL_2D` (TFLite Micro's
/// `reference_integer_ops::MaxPool`): each output is the largest of the
/// window's inputs inside the input (−128 if none is), clamped to
/// `[output_min, output_max]`.
///
/// Fails, with `output` untouched, when a length does not match `dims`, a
/// stride or window size is 0, or the clamp is empty or not inside int8.
///
/// ```
/// use shapecheck_tflite::{max_pool_int8, PoolDims, PoolParams};
///
/// // 2×2 windows, stride 2, VALID, two channels; a RELU clamp at zero point −5
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 2,
///     filter_height: 2, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: -5, output_max: 127,
/// };
/// let mut out = [0i8; 2];
/// max_pool_int8(&[1, -9, 7, -8, -3, -7, 2, -6], dims, &params, &mut out)?;
/// assert_eq!(out, [7, -5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn max_pool_int8(
    input: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check(dims, params, Some(input.len()), Some(output.len()), INT8)?;
    max_pool_int8_prechecked(input, dims, params, output);
    Ok(())
}

/// [`max_pool_int8`] without its checks, for a caller that has made them
/// hold already (as [`average_pool_int8_prechecked`]). On operands that
/// break them, what it writes is unspecified, but it never panics and
/// never writes outside `output`.
///
/// ```
/// use shapecheck_tflite::{max_pool_int8_prechecked, PoolDims, PoolParams};
///
/// let dims = PoolDims {
///     batches: 1, input_height: 1, input_width: 2, depth: 1,
///     filter_height: 1, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 1];
/// max_pool_int8_prechecked(&[2, 5], dims, &params, &mut out);
/// assert_eq!(out, [5]);
/// ```
pub fn max_pool_int8_prechecked(
    input: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) {
    pool(input, dims, params, output, |i, n, r, d, p, o| {
        pool_rows(i, n, r, d, p, o, &max_int8)
    });
}

/// TFLite's int16 `MAX_POOL_2D` (TFLite Micro's
/// `reference_integer_ops::MaxPool` for int16, TFLite's 16x8 mode): the
/// largest of the window's inputs inside the input (−32768 if none is),
/// clamped to `[output_min, output_max]`, inside int16.
///
/// ```
/// use shapecheck_tflite::{max_pool_int16, PoolDims, PoolParams};
///
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 2,
///     filter_height: 2, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: 0, output_max: 32767,
/// };
/// let mut out = [0i16; 2];
/// max_pool_int16(&[1000, -9000, 7000, -8000, -3000, -7000, 2000, -6000], dims, &params, &mut out)?;
/// assert_eq!(out, [7000, 0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn max_pool_int16(
    input: &[i16],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    check(dims, params, Some(input.len()), Some(output.len()), INT16)?;
    let max = |taps: &mut dyn Iterator<Item = i32>| taps.fold(i32::from(i16::MIN), i32::max);
    pool(input, dims, params, output, |i, n, r, d, p, o| {
        pool_rows(i, n, r, d, p, o, &max)
    });
    Ok(())
}

/// The int8 range and what a clamp outside it breaks.
const INT8: (i32, i32, &str) = (
    -128,
    127,
    "a pool's clamp must be inside int8's [-128, 127]",
);
/// The int16 range and what a clamp outside it breaks.
const INT16: (i32, i32, &str) = (
    -32768,
    32767,
    "a pool's clamp must be inside int16's [-32768, 32767]",
);

/// Runs a pool whose output rows `rows_of` computes ([`pool_rows`] with
/// its reduction, or [`average_rows`]): each image the band of all its
/// rows. The lengths are checked.
fn pool<T, F>(input: &[T], dims: PoolDims, params: &PoolParams, output: &mut [T], rows_of: F)
where
    T: Copy + Into<i32> + TryFrom<i32> + Default,
    F: Fn(&[T], usize, Range<usize>, PoolDims, &PoolParams, &mut [T]),
{
    // checked: not an overflow (0 or a divisor of a length)
    let (Ok(image_len), Ok(out_len)) = (
        product("input", &[dims.input_height, dims.input_width, dims.depth]),
        product(
            "output",
            &[dims.output_height, dims.output_width, dims.depth],
        ),
    ) else {
        return;
    };
    if output.is_empty() || out_len == 0 {
        return;
    }
    for batch in 0..dims.batches {
        let (Some(from), Some(to)) = (batch.checked_mul(out_len), (batch + 1).checked_mul(out_len))
        else {
            return;
        };
        let Some(out) = output.get_mut(from..to) else {
            return;
        };
        let image = input
            .get(batch * image_len..(batch + 1) * image_len)
            .unwrap_or(&[]);
        rows_of(
            image,
            dims.input_height,
            0..dims.output_height,
            dims,
            params,
            out,
        );
    }
}

/// Output rows `rows` of one image of a pool, the input rows read from a
/// ring of `ring_rows` (input row `r` at ring row `r % ring_rows`, found
/// once per output row): each output value `reduce` of its window's
/// inputs, channel by channel, clamped (the max pools; the average pools
/// take [`average_rows`]), over [`pool_windows`]' walk.
pub(crate) fn pool_rows<T, R>(
    ring: &[T],
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [T],
    reduce: &R,
) where
    T: Copy + Into<i32> + TryFrom<i32> + Default,
    R: Fn(&mut dyn Iterator<Item = i32>) -> i32,
{
    let (input_width, depth) = (dims.input_width, dims.depth);
    pool_windows(
        ring_rows,
        rows,
        dims,
        params,
        output,
        |rows, cols, pixel| {
            // a window that does not wrap past the ring's end (always, in a
            // ring of the whole input) reads its one run of rows: no chain
            // of two runs per tap
            let [head, tail] = rows.runs();
            for (c, out) in pixel.iter_mut().enumerate() {
                let at = |iy: usize| (iy * input_width, cols, depth, c);
                let y = if tail.len() == 0 {
                    reduce(&mut head.taps().flat_map(|(_, iy)| window_row(ring, at(iy))))
                } else {
                    reduce(&mut rows.taps().flat_map(|(_, iy)| window_row(ring, at(iy))))
                };
                *out = clamped(y, params);
            }
        },
    );
}

/// The walk of every pool and its bands: each output pixel of output
/// rows `rows`, in order, with its window, the ring rows (a ring of
/// `ring_rows` input rows, found once per output row) and the columns
/// inside the input, given to `pixel_of` with the pixel's `depth` values
/// to write.
#[inline(always)]
fn pool_windows<T>(
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [T],
    mut pixel_of: impl FnMut(RingRows, Window, &mut [T]),
) {
    let PoolDims {
        input_height,
        input_width,
        depth,
        filter_height,
        filter_width,
        output_width,
        ..
    } = dims;
    // an empty image: no window has a tap inside (and a huge dim beside a
    // 0 must not be looped over)
    let empty = input_height == 0 || input_width == 0 || depth == 0;
    let (filter_height, filter_width) = if empty {
        (0, 0)
    } else {
        (filter_height, filter_width)
    };
    let axis = RowAxis {
        filter: filter_height,
        ..row_axis(dims, params)
    };
    let mut pixels = output.chunks_exact_mut(depth.max(1));
    for oy in rows {
        let rows = RingRows::new(axis.window(oy), ring_rows);
        for ox in 0..output_width {
            let cols = Window::new(
                ox,
                params.stride_width,
                params.pad_left,
                1,
                filter_width,
                input_width,
            );
            let Some(pixel) = pixels.next() else {
                return;
            };
            pixel_of(rows, cols, pixel);
        }
    }
}

/// A pool's output value: `y` clamped to `[output_min, output_max]`, inside
/// `T` (the clamp is, checked).
#[inline(always)]
fn clamped<T: TryFrom<i32> + Default>(y: i32, params: &PoolParams) -> T {
    T::try_from(y.max(params.output_min).min(params.output_max)).unwrap_or_default()
}

/// The taps inside `cols` of one input row of a pool's window, channel
/// `c` (`(row_start, cols, depth, c)`, `row_start` the row's first pixel).
#[inline(always)]
fn window_row<T: Copy + Into<i32>>(
    ring: &[T],
    (row_start, cols, depth, c): (usize, Window, usize, usize),
) -> impl Iterator<Item = i32> + '_ {
    cols.taps()
        .filter_map(move |(_, ix)| ring.get((row_start + ix) * depth + c).map(|&x| x.into()))
}

/// Channels an average pool sums at once ([`average_rows`]).
const AVERAGE_CHUNK: usize = 16;

/// [`pool_rows`] for an average pool, over the same walk
/// ([`pool_windows`]): each output pixel's window summed tap pixel by tap
/// pixel, [`AVERAGE_CHUNK`] channels at once (no call per tap), each sum
/// then rounded ([`rounded_average`] over the taps inside) and clamped:
/// TFLite's average pool, its taps summed in another order, which an
/// integer sum does not see.
pub(crate) fn average_rows<T>(
    ring: &[T],
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [T],
) where
    T: Copy + Into<i32> + TryFrom<i32> + Default + PoolValue,
{
    let (input_width, depth) = (dims.input_width, dims.depth);
    pool_windows(
        ring_rows,
        rows,
        dims,
        params,
        output,
        |rows, cols, pixel| {
            // `i32` sums where they cannot overflow (fewer than 2^16 taps
            // of at most 2^15 each), else `i64` (two words a sum)
            let narrow = rows.len().saturating_mul(cols.len()) < 1 << 16;
            for (k, chunk) in pixel.chunks_mut(AVERAGE_CHUNK).enumerate() {
                let window = (
                    rows,
                    cols,
                    input_width,
                    depth,
                    k * AVERAGE_CHUNK,
                    chunk.len(),
                );
                let (sums, count) = match T::word_sums(ring, window).filter(|_| narrow) {
                    Some(sums) => sums,
                    None if narrow => window_sums::<i32, T>(ring, window),
                    None => window_sums::<i64, T>(ring, window),
                };
                for (out, &sum) in chunk.iter_mut().zip(&sums) {
                    *out = clamped(rounded_average(sum, count), params);
                }
            }
        },
    );
}

/// A value an average pool sums: its sums of a whole chunk of channels
/// four values a word where it has them ([`i8`]), or `None` (the plain
/// loop, [`window_sums`]).
pub(crate) trait PoolValue: Sized {
    /// [`window_sums`] of a chunk of [`AVERAGE_CHUNK`] channels, by words.
    fn word_sums(ring: &[Self], window: PoolWindow) -> Option<([i64; AVERAGE_CHUNK], i64)>;
}

/// A window of [`average_rows`] and the channels summed: `(rows, cols,
/// input_width, depth, c0, n)`.
type PoolWindow = (RingRows, Window, usize, usize, usize, usize);

impl PoolValue for i16 {
    #[inline(always)]
    fn word_sums(_: &[i16], _: PoolWindow) -> Option<([i64; AVERAGE_CHUNK], i64)> {
        None
    }
}

impl PoolValue for i8 {
    /// The window's taps as lines of pixels (a run of rows is one line
    /// where the window spans whole rows, a global pool's one line), each
    /// line word by word: channels `4k … 4k + 3` of every pixel, each
    /// value biased by 128 (`^ 0x80`: 0 … 255), their even and odd bytes
    /// added into the 16-bit lanes of two words (2 registers a loop over
    /// the pixels, 4 instructions a word, where a value a load and an add
    /// took 16 cycles), moved into 32-bit sums every 256 pixels (at most
    /// 256 · 255 a lane); 128 a tap taken off at the end. `None` (the
    /// plain loop then) for a chunk of fewer channels or a line outside
    /// `ring`.
    #[inline(always)]
    fn word_sums(
        ring: &[i8],
        (rows, cols, input_width, depth, c0, n): PoolWindow,
    ) -> Option<([i64; AVERAGE_CHUNK], i64)> {
        if n != AVERAGE_CHUNK || depth < AVERAGE_CHUNK {
            return None;
        }
        let mut wide = [0u32; AVERAGE_CHUNK];
        let mut count = 0usize;
        let (ncols, ix0) = match cols.taps().next() {
            Some((_, ix0)) => (cols.len(), ix0),
            None => (0, 0),
        };
        let whole_rows = ncols == input_width;
        for run in rows.runs() {
            let Some((_, iy0)) = run.taps().next() else {
                continue;
            };
            let (lines, pixels) = match whole_rows {
                true => (1, run.len().checked_mul(ncols)?),
                false => (run.len(), ncols),
            };
            for l in 0..lines {
                if pixels == 0 {
                    break;
                }
                let start = iy0
                    .checked_add(l)?
                    .checked_mul(input_width)?
                    .checked_add(ix0)?
                    .checked_mul(depth)?
                    .checked_add(c0)?;
                let end = (pixels - 1)
                    .checked_mul(depth)?
                    .checked_add(start)?
                    .checked_add(AVERAGE_CHUNK)?;
                let line = ring.get(start..end)?;
                count = count.checked_add(pixels)?;
                for (k, sums) in wide.chunks_exact_mut(4).enumerate() {
                    let mut words = line.get(4 * k..)?.chunks(depth);
                    loop {
                        let (mut even, mut odd, mut taken) = (0u32, 0u32, 0usize);
                        for px in words.by_ref().take(256) {
                            let &[a, b, c, d] = px.first_chunk::<4>()?;
                            let w = u32::from_le_bytes([a as u8, b as u8, c as u8, d as u8])
                                ^ 0x8080_8080;
                            even = even.wrapping_add(w & 0x00ff_00ff);
                            odd = odd.wrapping_add((w >> 8) & 0x00ff_00ff);
                            taken += 1;
                        }
                        let four = [even & 0xffff, odd & 0xffff, even >> 16, odd >> 16];
                        for (sum, lane) in sums.iter_mut().zip(four) {
                            *sum = sum.wrapping_add(lane);
                        }
                        if taken < 256 {
                            break;
                        }
                    }
                }
            }
        }
        let count = i64::try_from(count).ok()?;
        let bias = 128 * count;
        Some((wide.map(|s| i64::from(s) - bias), count))
    }
}

/// [`average_rows`]' sums of channels `c0 … c0 + n − 1` (`n` at most
/// [`AVERAGE_CHUNK`]) over the taps inside a window (`(rows, cols,
/// input_width, depth, c0, n)`), in `S`, and the count of those taps.
#[inline(always)]
fn window_sums<S, T>(
    ring: &[T],
    (rows, cols, input_width, depth, c0, n): (RingRows, Window, usize, usize, usize, usize),
) -> ([i64; AVERAGE_CHUNK], i64)
where
    S: Copy + Default + core::ops::AddAssign + From<i32> + Into<i64>,
    T: Copy + Into<i32>,
{
    let mut sums = [S::default(); AVERAGE_CHUNK];
    let mut count = 0i64;
    for (_, iy) in rows.taps() {
        for (_, ix) in cols.taps() {
            let at = iy
                .saturating_mul(input_width)
                .saturating_add(ix)
                .saturating_mul(depth)
                .saturating_add(c0);
            if let Some(xs) = ring.get(at..at.saturating_add(n)) {
                for (sum, &x) in sums.iter_mut().zip(xs) {
                    *sum += S::from(x.into());
                }
                count += 1;
            }
        }
    }
    (sums.map(Into::into), count)
}

/// The sums of an average pool whose one output row's window spans
/// every input row (a streamed run's accumulating stage, see
/// [`crate::runtime::stream`]): adds input rows `rows`, read from a ring of
/// `ring_rows` rows, to `sums`, one `i32` per output value (an output
/// column's window of each row's pixels, per channel), each stored as
/// its 4 native-endian bytes. Wrapping: the run's check keeps a window
/// under 2^23 taps, whose sum fits.
pub(crate) fn average_pool_accumulate(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    sums: &mut [i8],
) {
    let PoolDims {
        input_width,
        depth,
        filter_width,
        output_width,
        ..
    } = dims;
    let mut cells = sums.chunks_exact_mut(4);
    for ox in 0..output_width {
        let cols = Window::new(
            ox,
            params.stride_width,
            params.pad_left,
            1,
            filter_width,
            input_width,
        );
        for c in 0..depth {
            let Some(cell) = cells.next() else {
                return;
            };
            let mut sum = load_i32(cell);
            for iy in rows.clone() {
                let Some(at) = iy.checked_rem(ring_rows) else {
                    return;
                };
                for (_, ix) in cols.taps() {
                    let x = ring.get((at * input_width + ix) * depth + c).copied();
                    sum = sum.wrapping_add(i32::from(x.unwrap_or(0)));
                }
            }
            store_i32(cell, sum);
        }
    }
}

/// The output of an accumulating average pool from its `sums`
/// ([`average_pool_accumulate`] over every input row): each sum divided
/// by its window's taps inside the input (every input row times the
/// column window's), rounded as [`rounded_average`] rounds, clamped.
pub(crate) fn average_pool_finish(
    sums: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) {
    let PoolDims {
        input_height,
        input_width,
        depth,
        filter_width,
        ..
    } = dims;
    let mut outs = output.iter_mut();
    for (n, cell) in sums.chunks_exact(4).enumerate() {
        let ox = n.checked_div(depth).unwrap_or(0);
        let cols = Window::new(
            ox,
            params.stride_width,
            params.pad_left,
            1,
            filter_width,
            input_width,
        );
        let count = i64::try_from(input_height.saturating_mul(cols.len())).unwrap_or(i64::MAX);
        let y = rounded_average(i64::from(load_i32(cell)), count)
            .max(params.output_min)
            .min(params.output_max);
        let Some(out) = outs.next() else {
            return;
        };
        // inside int8: the clamp is (checked)
        *out = i8::try_from(y).unwrap_or_default();
    }
}

/// The `i32` stored as the first 4 bytes of `cell`.
fn load_i32(cell: &[i8]) -> i32 {
    let mut bytes = [0u8; 4];
    for (b, &x) in bytes.iter_mut().zip(cell) {
        *b = x.to_ne_bytes()[0];
    }
    i32::from_ne_bytes(bytes)
}

/// Stores `value` as the first 4 bytes of `cell`.
fn store_i32(cell: &mut [i8], value: i32) {
    for (x, b) in cell.iter_mut().zip(value.to_ne_bytes()) {
        *x = i8::from_ne_bytes([b]);
    }
}

/// A pool's vertical window.
fn row_axis(dims: PoolDims, params: &PoolParams) -> RowAxis {
    RowAxis {
        stride: params.stride_height,
        pad: params.pad_top,
        dilation: 1,
        filter: dims.filter_height,
        size: dims.input_height,
    }
}

/// The checks of a pool's band kernel: the layer's, without the input's
/// and output's lengths, then the band's ([`check_band`]).
fn check_pool_band(
    ring: usize,
    ring_rows: usize,
    rows: &Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: usize,
) -> Result<(), TfliteError> {
    check(dims, params, None, None, INT8)?;
    check_band(
        dims.batches,
        row_axis(dims, params),
        rows,
        dims.output_height,
        (ring, ring_rows, &[dims.input_width, dims.depth]),
        (output, &[dims.output_width, dims.depth]),
    )
}

/// Output rows `rows` of one image of TFLite's int8 `AVERAGE_POOL_2D`
/// ([`average_pool_int8`]), its input rows read from a ring: a buffer of
/// `ring_rows` input rows (each `input_width · depth` values) in which
/// input row `r` is ring row `r % ring_rows`. The output is those rows
/// alone (`rows.len() · output_width · depth` values). Bands computed
/// one after another, each band's input rows put in the ring before it,
/// are bit for bit the whole layer ([`average_pool_int8`] is this kernel
/// over every row, its ring the whole image).
///
/// Fails, with `output` untouched, as [`average_pool_int8`] does (the
/// input is the ring), when `dims.batches` is not 1 or `rows` is not
/// inside `0..output_height`, and with [`TfliteError::RingTooSmall`] when
/// the ring cannot hold every input row the output rows read.
///
/// ```
/// use shapecheck_tflite::{average_pool_int8_band, PoolDims, PoolParams};
///
/// // 2×1 windows, stride 2 over a 4×1 image [1, 3, 5, 8]: 2 output rows
/// let dims = PoolDims {
///     batches: 1, input_height: 4, input_width: 1, depth: 1,
///     filter_height: 2, filter_width: 1, output_height: 2, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 2, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// // output row 1 reads rows 2 and 3: a ring of 2 rows holds them
/// let mut out = [0i8; 1];
/// average_pool_int8_band(&[5, 8], 2, 1..2, dims, &params, &mut out)?;
/// assert_eq!(out, [7]); // 6.5 → 7
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn average_pool_int8_band(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_pool_band(ring.len(), ring_rows, &rows, dims, params, output.len())?;
    every_window_has_a_tap(dims, params, output.len())?;
    average_rows(ring, ring_rows, rows, dims, params, output);
    Ok(())
}

/// Output rows `rows` of one image of TFLite's int8 `MAX_POOL_2D`
/// ([`max_pool_int8`]), its input rows read from a ring of `ring_rows`
/// rows, as [`average_pool_int8_band`] reads them; bit for bit the whole
/// layer's rows, and failing as it does (the windows without a tap
/// aside: their maximum is the clamp's lower end, as in
/// [`max_pool_int8`]).
///
/// ```
/// use shapecheck_tflite::{max_pool_int8_band, PoolDims, PoolParams};
///
/// // 3×1 windows, stride 1, one padding row above and below [1, 9, 2, 4]
/// let dims = PoolDims {
///     batches: 1, input_height: 4, input_width: 1, depth: 1,
///     filter_height: 3, filter_width: 1, output_height: 4, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 1, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// // output rows 2 and 3 read rows 1 to 3: a ring of 3 rows, row r at r % 3
/// let mut out = [0i8; 2];
/// max_pool_int8_band(&[4, 9, 2], 3, 2..4, dims, &params, &mut out)?;
/// assert_eq!(out, [9, 4]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn max_pool_int8_band(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_pool_band(ring.len(), ring_rows, &rows, dims, params, output.len())?;
    pool_rows(ring, ring_rows, rows, dims, params, output, &max_int8);
    Ok(())
}

/// The largest of a max pool's int8 taps (−128 if there is none).
pub(crate) fn max_int8(taps: &mut dyn Iterator<Item = i32>) -> i32 {
    taps.fold(i32::from(i8::MIN), i32::max)
}

/// Checks a pool's lengths and parameters.
fn check(
    dims: PoolDims,
    params: &PoolParams,
    input: Option<usize>,
    output: Option<usize>,
    (min, max, rule): (i32, i32, &'static str),
) -> Result<(), TfliteError> {
    at_least_1("pool's stride (height)", params.stride_height)?;
    at_least_1("pool's stride (width)", params.stride_width)?;
    at_least_1("pool's window (height)", dims.filter_height)?;
    at_least_1("pool's window (width)", dims.filter_width)?;
    for (what, value) in [
        ("clamp's lower end", params.output_min),
        ("clamp's upper end", params.output_max),
    ] {
        if !(min..=max).contains(&value) {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(value),
                rule,
            });
        }
    }
    if params.output_min > params.output_max {
        return Err(TfliteError::KernelParam {
            what: "clamp's lower end",
            value: i64::from(params.output_min),
            rule: "it is above the upper end",
        });
    }
    let in_len = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.depth,
        ],
    )?;
    let out_len = product(
        "output",
        &[
            dims.batches,
            dims.output_height,
            dims.output_width,
            dims.depth,
        ],
    )?;
    if let Some(input) = input {
        length("input", in_len, input)?;
    }
    match output {
        Some(output) => length("output", out_len, output),
        None => Ok(()),
    }
}

/// `AVERAGE_POOL_2D`'s options table in the schema's `BuiltinOptions` union.
const POOL_2D_OPTIONS: u8 = 5;

/// Reads `AVERAGE_POOL_2D`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<Pool2dOptions, TfliteError> {
    let t = r.table(POOL_2D_OPTIONS, "Pool2DOptions")?;
    let (pad, sw, sh, fw, fh, act) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("padding"))?,
            t.i32(1, 0).map_err(r.fault("stride_w"))?,
            t.i32(2, 0).map_err(r.fault("stride_h"))?,
            t.i32(3, 0).map_err(r.fault("filter_width"))?,
            t.i32(4, 0).map_err(r.fault("filter_height"))?,
            t.i8(5, 0).map_err(r.fault("fused_activation_function"))?,
        ),
        None => (0, 0, 0, 0, 0, 0),
    };
    Ok(Pool2dOptions {
        padding: Padding::from_schema(pad).ok_or(r.enum_value(pad, "padding"))?,
        stride_w: r.at_least_1(sw, "stride_w")?,
        stride_h: r.at_least_1(sh, "stride_h")?,
        filter_width: r.at_least_1(fw, "filter_width")?,
        filter_height: r.at_least_1(fh, "filter_height")?,
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
    })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `AVERAGE_POOL_2D`, `MAX_POOL_2D`: an NHWC input `[B, H, W, C]` gives
/// `[B, OH, OW, C]` for the options' window, padding and strides.
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Ok(o) = read_options(&op.raw_options()) else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::format::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "Pool2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let x = need_rank(op, "input", &input, 4)?;
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (size(o.filter_height), size(o.filter_width)),
        (size(o.stride_h), size(o.stride_w)),
        (1, 1),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, x.dims[3], 0, 0],
        rank: 4,
    })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `AVERAGE_POOL_2D`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_average<'m, S: From<PoolStep> + From<PoolF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return check_pool_f32(c, options, false).map(S::from);
    }
    check_pool(c, options, false).map(S::from)
}

/// `MAX_POOL_2D`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_max<'m, S: From<PoolStep> + From<PoolF32Step>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return check_pool_f32(c, options, true).map(S::from);
    }
    check_pool(c, options, true).map(S::from)
}

/// `pool`'s interpreter step: its operands' places in the arena and its
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub struct PoolStep {
    pub max: bool,
    /// int16 activations (16x8), else int8
    pub wide: bool,
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub dims: PoolDims,
    pub params: PoolParams,
}

impl crate::base::write_rust::WriteRust for PoolStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PoolStep",
            &[
                ("max", &self.max),
                ("wide", &self.wide),
                ("input", &self.input),
                ("output", &self.output),
                ("dims", &self.dims),
                ("params", &self.params),
            ],
        )
    }
}

impl PoolStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let PoolStep {
            max,
            wide,
            input,
            output,
            dims,
            params,
        } = self;
        if *wide {
            let (x, y) = split(b.int16, input, output).ok_or(overlap)?;
            if *max {
                max_pool_int16(x, *dims, params, y)
            } else {
                average_pool_int16(x, *dims, params, y)
            }
        } else {
            let (x, y) = split(b.int8, input, output).ok_or(overlap)?;
            if *max {
                max_pool_int8(x, *dims, params, y)
            } else {
                average_pool_int8(x, *dims, params, y)
            }
        }
    }
}

/// `AVERAGE_POOL_2D` (`max` false) and `MAX_POOL_2D`, int8 or int16
/// (16x8), NHWC; the output's type and quantization the input's, as
/// TFLite requires.
fn check_pool<'m>(
    c: &Checker<'m>,
    options: Pool2dOptions,
    max: bool,
) -> Result<PoolStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let wide = input.dtype() == TensorType::Int16;
    if !wide {
        c.dtype("input", &input, TensorType::Int8)?;
    }
    c.dtype("output", output, input.dtype())?;
    let x = crate::kernel::shape::need_rank(&c.op, "input", &input, 4)?;
    let size = |v: i32| usize::try_from(v).unwrap_or(0);
    let window = (size(options.filter_height), size(options.filter_width));
    let strides = (size(options.stride_h), size(options.stride_w));
    let ((rows, pad_top), (columns, pad_left)) =
        spatial(options.padding, &x, window, strides, (1, 1))?;
    let input_q = c.per_tensor("input", &input)?;
    let output_q = c.per_tensor("output", output)?;
    if input_q != output_q {
        return Err(c.fail(
            "output",
            output,
            OperandProblem::Quantization(
                "is not the input's scale and zero point (TFLite's pools keep them)",
            ),
        ));
    }
    let (output_min, output_max) = c.clamp(options.fused_activation, output_q.0, output_q.1)?;
    Ok(PoolStep {
        max,
        wide,
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        dims: PoolDims {
            batches: dim(&input, 0),
            input_height: dim(&input, 1),
            input_width: dim(&input, 2),
            depth: dim(&input, 3),
            filter_height: window.0,
            filter_width: window.1,
            output_height: rows,
            output_width: columns,
        },
        params: PoolParams {
            stride_height: strides.0,
            stride_width: strides.1,
            pad_top,
            pad_left,
            output_min,
            output_max,
        },
    })
}

/// `Pool2DOptions`, NHWC, of `AVERAGE_POOL_2D` and `MAX_POOL_2D`; strides
/// and the window checked to be at least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/avgpool_3x3_s2_valid.tflite")))?;
/// let Options::Pool2d(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.filter_height, o.filter_width), (Padding::Valid, 2, 3, 3));
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Pool2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `filter_width`: the window's columns
    pub filter_width: i32,
    /// `filter_height`: the window's rows
    pub filter_height: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

// The f32 kernels: TFLite Micro's float `AVERAGE_POOL_2D` and
// `MAX_POOL_2D` (`reference_ops::AveragePool`, `reference_ops::MaxPool`).

/// How an f32 pool steps, pads and clamps: the padding from
/// [`conv_axis`](crate::conv_axis) (dilation 1), the clamp from
/// [`activation_range_f32`](crate::activation_range_f32).
///
/// ```
/// use shapecheck_tflite::PoolF32Params;
///
/// let params = PoolF32Params {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: f32::MIN, output_max: f32::MAX,
/// };
/// assert_eq!(params.stride_width, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolF32Params {
    /// rows stepped per output row (at least 1)
    pub stride_height: usize,
    /// columns stepped per output column (at least 1)
    pub stride_width: usize,
    /// padding rows above the input ([`ConvAxis::pad_before`](crate::ConvAxis::pad_before))
    pub pad_top: usize,
    /// padding columns left of the input
    pub pad_left: usize,
    /// the clamp's lower end, from the fused activation
    pub output_min: f32,
    /// the clamp's upper end (not below `output_min`)
    pub output_max: f32,
}

impl crate::base::write_rust::WriteRust for PoolF32Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PoolF32Params",
            &[
                ("stride_height", &self.stride_height),
                ("stride_width", &self.stride_width),
                ("pad_top", &self.pad_top),
                ("pad_left", &self.pad_left),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// Checks an f32 pool's lengths and parameters (its strides and window at
/// least 1, the clamp not empty nor NaN); for an average pool, that every
/// window holds a tap inside the input.
fn check_f32(
    dims: PoolDims,
    params: &PoolF32Params,
    input: usize,
    output: usize,
    average: bool,
) -> Result<(), TfliteError> {
    // the int8 check of everything but the clamp, on a clamp it accepts
    let steps = PoolParams {
        stride_height: params.stride_height,
        stride_width: params.stride_width,
        pad_top: params.pad_top,
        pad_left: params.pad_left,
        output_min: 0,
        output_max: 0,
    };
    check(dims, &steps, Some(input), Some(output), (0, 0, ""))?;
    crate::shared::float_ops::check_clamp_f32(params.output_min, params.output_max)?;
    if average {
        every_window_has_a_tap(dims, &steps, output)?;
    }
    Ok(())
}

/// TFLite's f32 `AVERAGE_POOL_2D` (TFLite Micro's
/// `reference_ops::AveragePool`): each output is, in `f32`, the sum from
/// `+0.0` of the window's inputs inside the input (by row, then column),
/// divided by their count (padding is not counted), then clamped as
/// TFLite's `ActivationFunctionWithMinMax` clamps (C++'s `std::max`, then
/// `std::min`: a NaN stays NaN, `−0.0` stays `−0.0` against `+0.0`): to
/// the bit TFLite Micro's.
///
/// Fails, with `output` untouched, when a length does not match `dims`, a
/// stride or window size is 0, the clamp is empty or NaN, or an output's
/// window has no tap inside the input (TFLite's kernel then stops with an
/// error).
///
/// ```
/// use shapecheck_tflite::{average_pool_f32, PoolDims, PoolF32Params};
///
/// // 2×2 windows, stride 1, SAME on a 2×2 image: pads one row and column after
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 1,
///     filter_height: 2, filter_width: 2, output_height: 2, output_width: 2,
/// };
/// let params = PoolF32Params {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: f32::MIN, output_max: f32::MAX,
/// };
/// let mut out = [0.0f32; 4];
/// average_pool_f32(&[1.0, 2.0, 4.0, -7.0], dims, &params, &mut out)?;
/// // the last output's window holds one tap, −7, and divides by 1
/// assert_eq!(out, [0.0, -2.5, -1.5, -7.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn average_pool_f32(
    input: &[f32],
    dims: PoolDims,
    params: &PoolF32Params,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check_f32(dims, params, input.len(), output.len(), true)?;
    pool_f32(input, dims, params, output, PoolF32::Average);
    Ok(())
}

/// TFLite's f32 `MAX_POOL_2D` (TFLite Micro's `reference_ops::MaxPool`):
/// each output is the largest of the window's inputs inside the input,
/// taken as TFLite takes it: from `f32::MIN` (C++'s `lowest()`), each tap
/// by `std::max(max, x)`, that is `if max < x { x } else { max }` (a NaN
/// input is passed over; of `+0.0` and `−0.0` the first stays), then
/// clamped as [`average_pool_f32`] clamps: to the bit TFLite Micro's.
///
/// Fails, with `output` untouched, when a length does not match `dims`, a
/// stride or window size is 0, or the clamp is empty or NaN.
///
/// ```
/// use shapecheck_tflite::{max_pool_f32, PoolDims, PoolF32Params};
///
/// // 2×2 windows, stride 2, VALID, two channels, a ReLU clamp
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 2,
///     filter_height: 2, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolF32Params {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: 0.0, output_max: f32::MAX,
/// };
/// let mut out = [0.0f32; 2];
/// max_pool_f32(&[1.0, -9.0, 7.5, -8.0, -3.0, -7.0, 2.0, -6.0], dims, &params, &mut out)?;
/// assert_eq!(out, [7.5, 0.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn max_pool_f32(
    input: &[f32],
    dims: PoolDims,
    params: &PoolF32Params,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check_f32(dims, params, input.len(), output.len(), false)?;
    pool_f32(input, dims, params, output, PoolF32::Max);
    Ok(())
}

/// Which f32 pool [`pool_f32`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PoolF32 {
    Average,
    Max,
}

/// The loop of both f32 pools (checked by the caller): for each output
/// pixel, its window's taps inside the input by row, then column, each
/// tap's channels folded into the output pixel's, which holds each
/// channel's running sum (or largest value) until the last tap.
fn pool_f32(input: &[f32], dims: PoolDims, p: &PoolF32Params, output: &mut [f32], kind: PoolF32) {
    let PoolDims {
        batches,
        input_height,
        input_width,
        depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
    } = dims;
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    let mut pixels = output.chunks_exact_mut(depth.max(1));
    for b in 0..batches {
        let image = b * input_height * input_width * depth;
        for oy in 0..output_height {
            let rows = Window::new(
                oy,
                p.stride_height,
                p.pad_top,
                1,
                filter_height,
                input_height,
            );
            for ox in 0..output_width {
                let Some(out) = pixels.next() else {
                    return;
                };
                let columns =
                    Window::new(ox, p.stride_width, p.pad_left, 1, filter_width, input_width);
                let start = match kind {
                    PoolF32::Average => 0.0,
                    PoolF32::Max => f32::MIN,
                };
                out.fill(start);
                let mut count = 0.0f32;
                for (_, iy) in rows.taps() {
                    for (_, ix) in columns.taps() {
                        let at = image + (iy * input_width + ix) * depth;
                        let Some(pixel) = input.get(at..at + depth) else {
                            continue;
                        };
                        match kind {
                            PoolF32::Average => {
                                for (y, &x) in out.iter_mut().zip(pixel) {
                                    *y += x;
                                }
                            }
                            PoolF32::Max => {
                                for (y, &x) in out.iter_mut().zip(pixel) {
                                    // C++'s std::max(*y, x)
                                    if *y < x {
                                        *y = x;
                                    }
                                }
                            }
                        }
                        count += 1.0;
                    }
                }
                for y in out.iter_mut() {
                    *y = match kind {
                        PoolF32::Average => clamp(*y / count),
                        PoolF32::Max => clamp(*y),
                    };
                }
            }
        }
    }
}

/// The f32 step of `AVERAGE_POOL_2D` (`max` false) and `MAX_POOL_2D`: its
/// operands' places in the arena and its constants, checked once by its
/// op's `prepare`.
#[derive(Clone)]
#[doc(hidden)]
pub struct PoolF32Step {
    pub max: bool,
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub dims: PoolDims,
    pub params: PoolF32Params,
}

impl crate::base::write_rust::WriteRust for PoolF32Step {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "PoolF32Step",
            &[
                ("max", &self.max),
                ("input", &self.input),
                ("output", &self.output),
                ("dims", &self.dims),
                ("params", &self.params),
            ],
        )
    }
}

impl PoolF32Step {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        if self.max {
            max_pool_f32(x, self.dims, &self.params, y)
        } else {
            average_pool_f32(x, self.dims, &self.params, y)
        }
    }
}

/// An f32 pool's check (its input f32): the output f32, NHWC, the padding
/// and the clamp ([`activation_range_f32`](crate::activation_range_f32)).
fn check_pool_f32(
    c: &Checker<'_>,
    options: Pool2dOptions,
    max: bool,
) -> Result<PoolF32Step, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    let x = crate::kernel::shape::need_rank(&c.op, "input", &input, 4)?;
    let size = |v: i32| usize::try_from(v).unwrap_or(0);
    let window = (size(options.filter_height), size(options.filter_width));
    let strides = (size(options.stride_h), size(options.stride_w));
    let ((rows, pad_top), (columns, pad_left)) =
        spatial(options.padding, &x, window, strides, (1, 1))?;
    let (output_min, output_max) =
        crate::arith::activation::activation_range_f32(options.fused_activation).map_err(|_| {
            c.unsupported_option("fused activation", options.fused_activation.name())
        })?;
    let dims = PoolDims {
        batches: dim(&input, 0),
        input_height: dim(&input, 1),
        input_width: dim(&input, 2),
        depth: dim(&input, 3),
        filter_height: window.0,
        filter_width: window.1,
        output_height: rows,
        output_width: columns,
    };
    let params = PoolF32Params {
        stride_height: strides.0,
        stride_width: strides.1,
        pad_top,
        pad_left,
        output_min,
        output_max,
    };
    let outputs = product("output", &[dims.batches, rows, columns, dims.depth])?;
    let inputs = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.depth,
        ],
    )?;
    check_f32(dims, &params, inputs, outputs, !max)?;
    Ok(PoolF32Step {
        max,
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        dims,
        params,
    })
}
