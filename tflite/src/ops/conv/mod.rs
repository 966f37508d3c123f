//! TFLite's int8 `CONV_2D` kernel on slices: TFLite Micro's
//! `reference_integer_ops::ConvPerChannel` (per-channel or per-tensor
//! requantization with the double rounding, the fused activation's clamp);
//! and its f32 kernel, TFLite Micro's `reference_ops::Conv` to the bit
//! ([`conv_2d_f32`]).

use crate::arith::quant::{OutputStage, OutputStage16, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::{at_least_1, check_band, length, product, RingRows, RowAxis, Window};
use crate::format::array::{Array, LeNumber};
use crate::format::error::OperandProblem;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::format::model::ModelTensor;
use crate::format::model::Operator;
use crate::format::model::OptionsReader;
use crate::format::types::Activation;
use crate::format::types::Padding;
use crate::format::types::TensorType;
use crate::format::values::{F32Constant, Values};
use crate::kernel::checker::dim;
use crate::kernel::checker::split;
use crate::kernel::checker::Checker;
use crate::kernel::checker::Quantized;
use crate::kernel::shape::need_rank;
use crate::kernel::shape::operand;
use crate::kernel::shape::operand_problem;
use crate::kernel::shape::size;
use crate::kernel::shape::spatial;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use core::ops::Range;

// The kernel's DSP loops (`cfg(shapecheck_dsp)`, set by build.rs), each
// `asm!` block beside its plain-Rust twin, which the host's unit tests run
// (built as lib.rs's `mod dsp` is).
#[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
#[allow(unsafe_code)]
pub(crate) mod dsp;

/// The sizes of one convolution, NHWC: the input is `[batches,
/// input_height, input_width, input_depth]`, the filter `[output_depth,
/// filter_height, filter_width, input_depth]` (TFLite's `OHWI`), the output
/// `[batches, output_height, output_width, output_depth]`.
///
/// ```
/// use shapecheck_tflite::{conv_axis, Conv2dDims, Padding};
///
/// // a KWS model's first layer: 49×10×1 in, 10×4 filters, stride 2, SAME
/// let rows = conv_axis(Padding::Same, 49, 10, 2, 1)?;
/// let cols = conv_axis(Padding::Same, 10, 4, 2, 1)?;
/// let dims = Conv2dDims {
///     batches: 1, input_height: 49, input_width: 10, input_depth: 1,
///     filter_height: 10, filter_width: 4,
///     output_height: rows.output, output_width: cols.output, output_depth: 8,
/// };
/// assert_eq!((dims.output_height, dims.output_width), (25, 5));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv2dDims {
    /// images
    pub batches: usize,
    /// the input's rows
    pub input_height: usize,
    /// the input's columns
    pub input_width: usize,
    /// the input's channels (and the filter's last dim)
    pub input_depth: usize,
    /// the filter's rows
    pub filter_height: usize,
    /// the filter's columns
    pub filter_width: usize,
    /// the output's rows
    pub output_height: usize,
    /// the output's columns
    pub output_width: usize,
    /// the output's channels (the filter's first dim)
    pub output_depth: usize,
}

impl crate::base::write_rust::WriteRust for Conv2dDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "Conv2dDims",
            &[
                ("batches", &self.batches),
                ("input_height", &self.input_height),
                ("input_width", &self.input_width),
                ("input_depth", &self.input_depth),
                ("filter_height", &self.filter_height),
                ("filter_width", &self.filter_width),
                ("output_height", &self.output_height),
                ("output_width", &self.output_width),
                ("output_depth", &self.output_depth),
            ],
        )
    }
}

/// How a convolution steps and pads, and its quantization, as TFLite
/// derives them from the layer's options and tensors
/// ([`conv_axis`](crate::conv_axis) for the padding,
/// [`fully_connected_multiplier`](crate::fully_connected_multiplier) per
/// output channel for the multipliers,
/// [`activation_range_int8`](crate::activation_range_int8) for the clamp).
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, Conv2dParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = Conv2dParams {
///     stride_height: 2, stride_width: 2, dilation_height: 1, dilation_width: 1,
///     pad_top: 4, pad_left: 1,
///     input_zero_point: 4, output_zero_point: -128,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// assert_eq!(params.multipliers.len(), 1); // per-tensor
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv2dParams<'m> {
    /// rows stepped per output row (at least 1)
    pub stride_height: usize,
    /// columns stepped per output column (at least 1)
    pub stride_width: usize,
    /// rows between filter taps (at least 1)
    pub dilation_height: usize,
    /// columns between filter taps (at least 1)
    pub dilation_width: usize,
    /// padding rows above the input ([`ConvAxis::pad_before`](crate::ConvAxis::pad_before))
    pub pad_top: usize,
    /// padding columns left of the input
    pub pad_left: usize,
    /// the input's zero point (subtracted from every input; padding
    /// contributes nothing)
    pub input_zero_point: i32,
    /// the output's zero point (added after requantization)
    pub output_zero_point: i32,
    /// one multiplier (per-tensor) or one per output channel
    pub multipliers: &'m [QuantizedMultiplier],
    /// the clamp's lower end, from the fused activation
    pub output_min: i32,
    /// the clamp's upper end
    pub output_max: i32,
    /// the rounding of the requantization: TFLite Micro uses
    /// [`Rounding::Double`] for this op
    pub rounding: Rounding,
}

/// TFLite's int8 `CONV_2D` with per-channel quantization (TFLite Micro's
/// `reference_integer_ops::ConvPerChannel`). Output channel `oc` of pixel
/// `(oy, ox)` is
/// `acc = Σ_{ky,kx,ic} (x[iy, ix, ic] − x_zp) · f[oc, ky, kx, ic] + bias[oc]`
/// in `i32`, where `iy = oy · stride_h − pad_top + ky · dilation_h` (and
/// `ix` likewise) and taps outside the input count as zero; then
/// `y = multiply_by_quantized_multiplier(acc, M_oc) + out_zp`, clamped to
/// `[output_min, output_max]` and to int8. The filter's zero point is 0
/// (TFLite's symmetric per-channel filters). The filter and bias are read
/// from slices or in place from a model ([`Values`]).
///
/// The accumulator wraps on overflow (TFLite leaves it undefined). Fails,
/// with `output` untouched, when a length does not match `dims` (the
/// filter's is `output_depth · filter_height · filter_width ·
/// input_depth`, the bias's `output_depth`), there is neither one
/// multiplier nor one per output channel, a stride or a dilation is 0, or
/// the clamp is empty.
///
/// ```
/// use shapecheck_tflite::{conv_2d_int8, quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
///
/// // a 2×2 image of 2 channels, one 1×1 filter per output channel, VALID
/// let dims = Conv2dDims {
///     batches: 1, input_height: 2, input_width: 2, input_depth: 2,
///     filter_height: 1, filter_width: 1,
///     output_height: 2, output_width: 2, output_depth: 2,
/// };
/// let multipliers = [quantize_multiplier(1.0)?, quantize_multiplier(0.5)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let input = [1, 2, 3, 4, 5, 6, 7, 8];
/// // channel 0 adds the two input channels; channel 1 takes their difference, halved
/// let filter = [1, 1, 1, -1];
/// let mut out = [0i8; 8];
/// conv_2d_int8(&input, &filter, Some(&[0, 10]), dims, &params, &mut out)?;
/// assert_eq!(out, [3, 5, 7, 5, 11, 5, 15, 5]); // (1 − 2 + 10) · 0.5 = 4.5 → 5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_2d_int8<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    conv_2d_int8_prepared(input, filter, bias, None, dims, params, output)
}

/// [`conv_2d_int8`] with its channel pairs set up once, if any
/// (`model!`'s written steps: [`conv_prepare`]'s for the same filter, bias
/// and parameters, else unspecified values, never a panic; another length
/// is not read): its one body. Fails as it does.
pub(crate) fn conv_2d_int8_prepared<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check(
        dims,
        params,
        input.len(),
        filter.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    whole_images(input, filter, bias, prepared, dims, params, output);
    Ok(())
}

/// [`conv_2d_int8`] without its checks, for a caller that has made them
/// hold already (the typed layers of `shapecheck`, whose sizes are types
/// and whose parameters were checked when the layer was built): the
/// lengths are the ones `dims` gives, the strides and dilations at least
/// 1, the multipliers one or one per output channel. On operands that
/// break this, what it writes is unspecified, but it never panics and
/// never writes outside `output`; an empty clamp makes every output its
/// upper end.
///
/// ```
/// use shapecheck_tflite::{conv_2d_int8_prechecked, quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
///
/// // one 1×1 filter over a 1×2 image of one channel: the input doubled
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 1,
///     output_height: 1, output_width: 2, output_depth: 1,
/// };
/// let multipliers = [quantize_multiplier(1.0)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let mut out = [0i8; 2];
/// conv_2d_int8_prechecked(&[3, -4], &[2], None::<&[i32]>, dims, &params, &mut out);
/// assert_eq!(out, [6, -8]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_2d_int8_prechecked<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    whole_images(input, filter, bias, None, dims, params, output);
}

/// [`conv_2d_int8_prechecked`] with the layer's channel pairs set up once
/// ([`conv_prepare`]'s for the same filter, bias and parameters, made
/// when the program was built: `model!` writes them in flash), so that a
/// call on the DSP loops costs its pixels alone: bit for bit
/// [`conv_2d_int8_prechecked`]. Its contract, and: pairs made for other
/// operands give unspecified values (never a panic, never a write outside
/// `output`); a `prepared` of another length than one pair per two output
/// channels is not read.
///
/// ```
/// use shapecheck_tflite::{conv_2d_int8_prechecked, conv_2d_int8_prepared_prechecked, conv_prepare, quantize_multiplier, Conv2dDims, Conv2dParams, ConvPairStage, Rounding};
///
/// // 2 output channels of a 3×3 filter over 4 channels, a 4×4 image
/// let dims = Conv2dDims {
///     batches: 1, input_height: 4, input_width: 4, input_depth: 4,
///     filter_height: 3, filter_width: 3,
///     output_height: 4, output_width: 4, output_depth: 2,
/// };
/// let multipliers = [quantize_multiplier(0.01)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 1, pad_left: 1,
///     input_zero_point: -3, output_zero_point: 5,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let filter: Vec<i8> = (0..72).map(|v| (v * 7 % 23 - 11) as i8).collect();
/// let input: Vec<i8> = (0..64).map(|v| (v * 5 % 19 - 9) as i8).collect();
/// let mut pairs = [ConvPairStage { constant: [0; 4], requant: [0; 11] }];
/// conv_prepare(&filter, Some(&[100, -100]), dims, &params, &mut pairs)?;
/// let (mut plain, mut prepared) = ([0i8; 32], [0i8; 32]);
/// conv_2d_int8_prechecked(&input, &filter[..], Some(&[100, -100][..]), dims, &params, &mut plain);
/// conv_2d_int8_prepared_prechecked(&input, &filter[..], Some(&[100, -100][..]), &pairs, dims, &params, &mut prepared);
/// assert_eq!(plain, prepared);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_2d_int8_prepared_prechecked<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    prepared: &[ConvPairStage],
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    whole_images(input, filter, bias, Some(prepared), dims, params, output);
}

/// The one body of [`conv_2d_int8_prechecked`] and the checked kernels
/// (their checks made): each image the band of all its output rows, its
/// ring all its rows ([`conv_rows`]), with the prepared channel pairs, if
/// any.
fn whole_images<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    // checked by the caller: neither overflows (each is 0 or divides a length)
    let image_len = dims
        .input_height
        .saturating_mul(dims.input_width)
        .saturating_mul(dims.input_depth);
    let out_len = dims
        .output_height
        .saturating_mul(dims.output_width)
        .saturating_mul(dims.output_depth);
    if output.is_empty() || out_len == 0 {
        // nothing to write, however many rows or images
        return;
    }
    // each image is the band of all its output rows, its ring all its rows
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
        conv_rows(
            image,
            dims.input_height,
            0..dims.output_height,
            filter,
            bias,
            prepared,
            dims,
            params,
            out,
        );
    }
}

/// Output rows `rows` of one image of TFLite's int8 `CONV_2D`
/// ([`conv_2d_int8`]), its input rows read from a ring: a buffer of
/// `ring_rows` input rows (each `input_width · input_depth` values) in
/// which input row `r` is ring row `r % ring_rows`. The output is those
/// rows alone (`rows.len() · output_width · output_depth` values). The
/// rows of a layer computed band by band, each band's input rows put in
/// the ring before it, are bit for bit the whole layer's
/// ([`conv_2d_int8`] is this kernel over every row, its ring the whole
/// image); padding rows above and below the input count as zero, as
/// there.
///
/// Fails, with `output` untouched, as [`conv_2d_int8`] does (the input
/// is the ring), when `dims.batches` is not 1 or `rows` is not inside
/// `0..output_height`, and with [`TfliteError::RingTooSmall`] when the
/// ring cannot hold every input row the output rows read.
///
/// ```
/// use shapecheck_tflite::{conv_2d_int8_band, quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
///
/// // a 4×1 image of one channel, a 2×1 filter [1, 1], VALID: 3 output rows
/// let dims = Conv2dDims {
///     batches: 1, input_height: 4, input_width: 1, input_depth: 1,
///     filter_height: 2, filter_width: 1,
///     output_height: 3, output_width: 1, output_depth: 1,
/// };
/// let multipliers = [quantize_multiplier(1.0)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// // the image is [1, 2, 3, 4]; a ring of 2 rows holding rows 2 and 3
/// // (row 2 at ring row 0, row 3 at ring row 1) gives output row 2
/// let mut out = [0i8; 1];
/// conv_2d_int8_band(&[3, 4], 2, 2..3, &[1, 1], None::<&[i32]>, dims, &params, &mut out)?;
/// assert_eq!(out, [7]);
/// // rows 1 and 2 need input rows 1..4: more than the ring holds
/// let mut two = [0i8; 2];
/// let r = conv_2d_int8_band(&[3, 4], 2, 1..3, &[1, 1], None::<&[i32]>, dims, &params, &mut two);
/// assert!(r.is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn conv_2d_int8_band<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_layer(dims, params, filter.count(), bias.map(|b| b.count()))?;
    check_band(
        dims.batches,
        row_axis(dims, params),
        &rows,
        dims.output_height,
        (ring.len(), ring_rows, &[dims.input_width, dims.input_depth]),
        (output.len(), &[dims.output_width, dims.output_depth]),
    )?;
    conv_rows(
        ring, ring_rows, rows, filter, bias, None, dims, params, output,
    );
    Ok(())
}

/// One pair of output channels of a convolution, set up once for every
/// band of the layer: what the DSP loops (thumbv7em: the matrix product
/// of a 1×1 filter, im2col of any other) otherwise make at each call,
/// before the pixels. [`conv_prepare`] (or [`conv_1x1_prepare`]) makes
/// them, `model!` writes them as a `static` (flash) for each convolution
/// of a streamed run, and [`conv_2d_int8_band_prepared`] takes them.
///
/// ```
/// use shapecheck_tflite::ConvPairStage;
///
/// let pair = ConvPairStage { constant: [5, 6, 5, 6], requant: [0; 11] };
/// assert_eq!(pair.constant[2], pair.constant[0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct ConvPairStage {
    /// `bias − input_zero_point · Σ w` of channels `c, c + 1, c, c + 1`
    /// (two pixels × the pair's two channels)
    pub constant: [i32; 4],
    /// the output stage of the same four in the DSP loops' form (per
    /// channel `2m` and `−shift − 1`, `1 + 2 · zero point`, the clamp's
    /// ends in each byte)
    pub requant: [i32; 11],
}

impl crate::base::write_rust::WriteRust for ConvPairStage {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ConvPairStage",
            &[("constant", &self.constant), ("requant", &self.requant)],
        )
    }
}

/// The channel pairs of a 1×1 convolution, set up once
/// ([`ConvPairStage`]): `stages[j]` is channels `2j, 2j + 1`'s. The same
/// set-up the DSP matrix product makes at each call of
/// [`conv_2d_int8_band`], so that [`conv_2d_int8_band_prepared`] with
/// them is bit for bit that kernel.
///
/// Fails, with `stages` untouched, as [`conv_2d_int8_band`] does on these
/// operands, and with [`TfliteError::KernelParam`] unless the filter is
/// 1×1, the output channels even and each channel's output stage one the
/// DSP loops take (a multiplier in `[2^30, 2^31)` with a right shift, or
/// 0, the double rounding: every int8 layer's), and with [`TfliteError::Length`]
/// unless `stages` holds one stage per two output channels.
///
/// ```
/// use shapecheck_tflite::{conv_1x1_prepare, quantize_multiplier, Conv2dDims, Conv2dParams, ConvPairStage, Rounding};
///
/// // 2 output channels of depth 2, weights [1, 2] and [3, 4], input zero point −1
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 1, input_depth: 2,
///     filter_height: 1, filter_width: 1,
///     output_height: 1, output_width: 1, output_depth: 2,
/// };
/// let multipliers = [quantize_multiplier(0.25)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: -1, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let mut stages = [ConvPairStage { constant: [0; 4], requant: [0; 11] }];
/// conv_1x1_prepare(&[1, 2, 3, 4], Some(&[10, 20]), dims, &params, &mut stages)?;
/// // the bias plus Σ w (the zero point's −1 times −Σ w), for both pixels
/// assert_eq!(stages[0].constant, [13, 27, 13, 27]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_1x1_prepare(
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    stages: &mut [ConvPairStage],
) -> Result<(), TfliteError> {
    check_layer(dims, params, filter.len(), bias.map(|b| b.len()))?;
    let not_taken = TfliteError::KernelParam {
        what: "1×1 convolution's prepared stages",
        value: i64::try_from(dims.output_depth).unwrap_or(i64::MAX),
        rule: "they need a 1×1 filter, output channels by twos and the DSP loops' output stage",
    };
    if (dims.filter_height, dims.filter_width) != (1, 1) {
        return Err(not_taken);
    }
    prepare_pairs(filter, bias, dims, params, stages, not_taken)
}

/// The channel pairs of a convolution of any filter, set up once
/// ([`ConvPairStage`]): `stages[j]` is channels `2j, 2j + 1`'s, `bias −
/// input_zero_point · Σ w` over the whole filter (`filter_height ×
/// filter_width × input_depth` weights; a tap outside the input reads
/// the zero point, so the same constant holds at the border) and the
/// output stage. The set-up the DSP loops make at each call of
/// [`conv_2d_int8_band`] (im2col's per group of channels, the matrix
/// product's for a 1×1 filter: [`conv_1x1_prepare`]'s rule, which this
/// is without its 1×1 check), so that [`conv_2d_int8_band_prepared`]
/// with them is bit for bit that kernel.
///
/// Fails, with `stages` untouched, as [`conv_2d_int8_band`] does on these
/// operands, and with [`TfliteError::KernelParam`] unless the output
/// channels are even and each channel's output stage one the DSP loops
/// take (a multiplier in `[2^30, 2^31)` with a right shift, or 0, the
/// double rounding: every int8 layer's), and with [`TfliteError::Length`]
/// unless `stages` holds one stage per two output channels.
///
/// ```
/// use shapecheck_tflite::{conv_prepare, quantize_multiplier, Conv2dDims, Conv2dParams, ConvPairStage, Rounding};
///
/// // 2 output channels of a 1×2 filter over 1 channel, weights [1, 2]
/// // and [3, 4], input zero point −1
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 2,
///     output_height: 1, output_width: 1, output_depth: 2,
/// };
/// let multipliers = [quantize_multiplier(0.25)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: -1, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let mut stages = [ConvPairStage { constant: [0; 4], requant: [0; 11] }];
/// conv_prepare(&[1, 2, 3, 4], Some(&[10, 20]), dims, &params, &mut stages)?;
/// // the bias plus Σ w over the filter's two taps, for both pixels
/// assert_eq!(stages[0].constant, [13, 27, 13, 27]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_prepare(
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    stages: &mut [ConvPairStage],
) -> Result<(), TfliteError> {
    check_layer(dims, params, filter.len(), bias.map(|b| b.len()))?;
    let not_taken = TfliteError::KernelParam {
        what: "convolution's prepared stages",
        value: i64::try_from(dims.output_depth).unwrap_or(i64::MAX),
        rule: "they need output channels by twos and the DSP loops' output stage",
    };
    prepare_pairs(filter, bias, dims, params, stages, not_taken)
}

/// The one rule of [`conv_prepare`] and [`conv_1x1_prepare`] (their
/// checks passed): `not_taken` unless the output channels are even and
/// every pair's stage is one the DSP loops take, a length error unless
/// `stages` holds a stage per pair; every pair made before any is
/// written.
fn prepare_pairs(
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    stages: &mut [ConvPairStage],
    not_taken: TfliteError,
) -> Result<(), TfliteError> {
    if !dims.output_depth.is_multiple_of(2) {
        return Err(not_taken);
    }
    if stages.len() != dims.output_depth / 2 {
        return Err(TfliteError::Length {
            what: "prepared stages",
            expected: dims.output_depth / 2,
            actual: stages.len(),
        });
    }
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    // every pair first, so that a failure leaves `stages` untouched
    for j in 0..stages.len() {
        prepared_pair(filter, bias, dims, params, &stage, j).ok_or(not_taken)?;
    }
    for (j, s) in stages.iter_mut().enumerate() {
        *s = prepared_pair(filter, bias, dims, params, &stage, j).ok_or(not_taken)?;
    }
    Ok(())
}

/// Channel pair `j`'s prepared stage ([`dsp::prepared_pair`], the one
/// rule), `None` where the DSP loops do not take it.
pub(crate) fn prepared_pair(
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    stage: &OutputStage,
    j: usize,
) -> Option<ConvPairStage> {
    // the values of one output channel's filter (`filter_height ×
    // filter_width × input_depth`: `check_layer` matched the length)
    let k = filter.len() / dims.output_depth.max(1);
    dsp::prepared_pair(
        filter,
        k,
        j,
        bias,
        params.input_zero_point,
        params.multipliers,
        stage,
    )
}

/// [`conv_2d_int8_band`] with a convolution's channel pairs set up once
/// ([`conv_prepare`]'s or [`conv_1x1_prepare`]'s `prepared`): on the DSP
/// loops a band call then costs its pixels alone. Bit for bit
/// [`conv_2d_int8_band`] when `prepared` is [`conv_prepare`]'s for the
/// same filter, bias and parameters (a `prepared` of another length
/// is not read; one made for other operands gives unspecified values,
/// never a panic). Fails as it does.
///
/// ```
/// use shapecheck_tflite::{conv_1x1_prepare, conv_2d_int8_band, conv_2d_int8_band_prepared, quantize_multiplier, Conv2dDims, Conv2dParams, ConvPairStage, Rounding};
///
/// // a 3×2 image of 8 channels, 4 output channels
/// let dims = Conv2dDims {
///     batches: 1, input_height: 3, input_width: 2, input_depth: 8,
///     filter_height: 1, filter_width: 1,
///     output_height: 3, output_width: 2, output_depth: 4,
/// };
/// let multipliers = [quantize_multiplier(0.125)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 3, output_zero_point: -2,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let filter: Vec<i8> = (0..32).map(|v| (v * 7 % 23 - 11) as i8).collect();
/// let bias = [5, -6, 7, -8];
/// let mut stages = [ConvPairStage { constant: [0; 4], requant: [0; 11] }; 2];
/// conv_1x1_prepare(&filter, Some(&bias), dims, &params, &mut stages)?;
/// // output rows 1 and 2 from a ring holding the image's three rows
/// let ring: Vec<i8> = (0..48).map(|v| (v * 5 % 19 - 9) as i8).collect();
/// let (mut plain, mut prepared) = ([0i8; 16], [0i8; 16]);
/// conv_2d_int8_band(&ring, 3, 1..3, &filter[..], Some(&bias[..]), dims, &params, &mut plain)?;
/// conv_2d_int8_band_prepared(&ring, 3, 1..3, &filter[..], Some(&bias[..]), &stages, dims, &params, &mut prepared)?;
/// assert_eq!(plain, prepared);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn conv_2d_int8_band_prepared<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    prepared: &[ConvPairStage],
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    check_layer(dims, params, filter.count(), bias.map(|b| b.count()))?;
    check_band(
        dims.batches,
        row_axis(dims, params),
        &rows,
        dims.output_height,
        (ring.len(), ring_rows, &[dims.input_width, dims.input_depth]),
        (output.len(), &[dims.output_width, dims.output_depth]),
    )?;
    let prepared = Some(prepared);
    conv_rows(
        ring, ring_rows, rows, filter, bias, prepared, dims, params, output,
    );
    Ok(())
}

/// A convolution's vertical window.
fn row_axis(dims: Conv2dDims, params: &Conv2dParams<'_>) -> RowAxis {
    RowAxis {
        stride: params.stride_height,
        pad: params.pad_top,
        dilation: params.dilation_height,
        filter: dims.filter_height,
        size: dims.input_height,
    }
}

/// The one body of [`conv_2d_int8_band`] and [`conv_2d_int8_prechecked`]
/// (checked by the caller): the DSP loops where the target has them, else
/// the portable loop.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn conv_rows<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    #[cfg(shapecheck_dsp)]
    if let Some(w) = filter.contiguous() {
        conv_rows_dsp(
            w, ring, ring_rows, rows, bias, prepared, dims, params, output,
        );
        return;
    }
    // the portable loop sets up nothing per call
    let _ = prepared;
    conv_rows_portable(ring, ring_rows, rows, filter, bias, dims, params, output);
}

/// [`conv_rows`] on the DSP loops: the band split into runs of output rows
/// whose input rows lie contiguous in the ring, each run the whole layer
/// over those input rows (its padding above moved to where the run
/// starts), on [`dsp`]'s matrix product or im2col where they take
/// it; a run they decline, or one row whose window wraps past the ring's
/// end, on the portable loop.
#[cfg(any(shapecheck_dsp, test))]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn conv_rows_dsp<B: Values<i32> + ?Sized>(
    w: &[i8],
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    // checked by the caller: neither overflows
    let row_len = dims.input_width.saturating_mul(dims.input_depth);
    let out_row = dims.output_width.saturating_mul(dims.output_depth);
    // the whole-tensor kernel (every row, the ring the image): the image
    // as it is, no run to find
    if ring_rows == dims.input_height && rows.start == 0 && rows.end == dims.output_height {
        let whole = Conv2dDims { batches: 1, ..dims };
        let done = conv_dsp(ring, w, bias, prepared, whole, params, &stage, output);
        if done.is_none() {
            conv_rows_portable(ring, ring_rows, rows, w, bias, dims, params, output);
        }
        return;
    }
    let axis = row_axis(dims, params);
    let mut next = rows.start;
    while next < rows.end {
        let (run, needed) = crate::arith::window::contiguous_run(axis, ring_rows, next..rows.end);
        let at = (run.start - rows.start).saturating_mul(out_row);
        let end = at.saturating_add(run.len().saturating_mul(out_row));
        let Some(out) = output.get_mut(at..end) else {
            return;
        };
        let done = needed.filter(|n| !n.is_empty()).and_then(|n| {
            let first = n.start.checked_rem(ring_rows)?.checked_mul(row_len)?;
            let image = ring.get(first..first.checked_add(n.len().checked_mul(row_len)?)?)?;
            let dims = Conv2dDims {
                batches: 1,
                input_height: n.len(),
                output_height: run.len(),
                ..dims
            };
            let params = Conv2dParams {
                pad_top: (params.pad_top + n.start)
                    .checked_sub(run.start.checked_mul(params.stride_height)?)?,
                ..*params
            };
            conv_dsp(image, w, bias, prepared, dims, &params, &stage, out)
        });
        if done.is_none() {
            let out = output.get_mut(at..end).unwrap_or(&mut []);
            conv_rows_portable(ring, ring_rows, run.clone(), w, bias, dims, params, out);
        }
        next = run.end;
    }
}

/// One image on the DSP loops: a 1×1 convolution of stride 1 without
/// padding as the matrix product it is (pixels × channels), else im2col
/// with the same blocks. `None`, `output` untouched, where neither takes
/// it.
#[cfg(any(shapecheck_dsp, test))]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn conv_dsp<B: Values<i32> + ?Sized>(
    image: &[i8],
    w: &[i8],
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    stage: &OutputStage,
    output: &mut [i8],
) -> Option<()> {
    if dims.filter_height == 1
        && dims.filter_width == 1
        && params.stride_height == 1
        && params.stride_width == 1
        && params.pad_top == 0
        && params.pad_left == 0
        && (dims.output_height, dims.output_width) == (dims.input_height, dims.input_width)
    {
        let done = dsp::matmul(
            image,
            w,
            bias,
            dims.input_depth,
            params.input_zero_point,
            params.multipliers,
            stage,
            prepared,
            output,
        );
        if done.is_some() {
            return done;
        }
    }
    // any other filter: im2col and the same SMLAD block (the prepared
    // stages, where they are the layer's, in place of a group's made per
    // call)
    dsp::conv_im2col(image, w, bias, prepared, &dims, params, stage, output)
}

/// The portable loop of [`conv_rows`]: output rows `rows`, the input
/// rows from a ring of `ring_rows` ([`RingRows`]: one division per output
/// row).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn conv_rows_portable<F: Values<i8> + ?Sized, B: Values<i32> + ?Sized>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    let Conv2dDims {
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_width,
        output_depth,
        ..
    } = dims;
    // checked by the caller: it does not overflow
    let kernel_len = filter_height
        .saturating_mul(filter_width)
        .saturating_mul(input_depth);
    // a filter with no taps, or an input with no channels: each output is
    // its bias alone (and a huge dim beside a 0 must not be looped over)
    let (filter_height, filter_width) = if kernel_len == 0 {
        (0, 0)
    } else {
        (filter_height, filter_width)
    };
    let per_tensor = match params.multipliers {
        [m] => Some(Scale::new(*m)),
        _ => None,
    };
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let zero_point = params.input_zero_point;
    // the filter as a slice where it is one (an array, or an int8 constant
    // read in place), so that each run of taps is a slice's
    let weights = filter.contiguous();
    let mut pixels = output.chunks_exact_mut(output_depth.max(1));
    let axis = RowAxis {
        filter: filter_height,
        size: input_height,
        ..row_axis(dims, params)
    };
    // checked: with a filter tap, every index below is inside a length
    for oy in rows {
        // the filter rows inside the input, and their rows in the ring,
        // found once per output row
        let rows = RingRows::new(axis.window(oy), ring_rows);
        for ox in 0..output_width {
            let cols = Window::new(
                ox,
                params.stride_width,
                params.pad_left,
                params.dilation_width,
                filter_width,
                input_width,
            );
            let Some(pixel) = pixels.next() else {
                return;
            };
            // the taps of a filter row inside the input as runs of
            // adjacent columns, each one run of channels in both the
            // input and the filter: the whole row without dilation, one
            // column a run with it
            let (step, run) = if params.dilation_width == 1 && cols.len() > 0 {
                (cols.len(), cols.len() * input_depth)
            } else {
                (1, input_depth)
            };
            for (oc, out) in pixel.iter_mut().enumerate() {
                let mut acc = 0i32;
                // the ring's two runs of rows, each a plain loop
                for (ky, iy) in rows.runs().into_iter().flat_map(|run| run.taps()) {
                    let row = iy * input_width;
                    let filter_row = oc * filter_height + ky;
                    for (kx, ix) in cols.taps().step_by(step) {
                        let x = (row + ix) * input_depth;
                        let f = (filter_row * filter_width + kx) * input_depth;
                        let xs = ring.get(x..x + run).unwrap_or(&[]);
                        acc = match weights {
                            Some(w) => {
                                let fs = w.get(f..f + run).unwrap_or(&[]);
                                dot(acc, xs, fs.iter().copied(), zero_point)
                            }
                            None => dot(acc, xs, filter.run(f, f + run), zero_point),
                        };
                    }
                }
                if let Some(b) = bias.and_then(|b| b.at(oc)) {
                    acc = acc.wrapping_add(b);
                }
                let scale = per_tensor.unwrap_or_else(|| {
                    Scale::new(
                        params
                            .multipliers
                            .get(oc)
                            .copied()
                            .unwrap_or(QuantizedMultiplier::ZERO),
                    )
                });
                *out = stage.apply(acc, scale);
            }
        }
    }
}

/// TFLite's `CONV_2D` in 16x8 mode (TFLite Micro's
/// `reference_integer_ops::ConvPerChannel` for int16 input, int8 filter
/// and int64 bias): as [`conv_2d_int8`], with the accumulator
/// `acc = Σ x · f + bias[oc]` in `i64` (the zero points are 0) and
/// `y = multiply_by_quantized_multiplier_int64(acc, M_oc) + out_zp`
/// ([`multiply_by_quantized_multiplier_int64`](crate::multiply_by_quantized_multiplier_int64):
/// one rounding, so `params.rounding` is not read), clamped to
/// `[output_min, output_max]` and to int16.
///
/// Fails, with `output` untouched, as [`conv_2d_int8`] does, and when the
/// input's or the output's zero point is not 0 (TFLite's int16
/// activations are symmetric; its kernel ignores them).
///
/// ```
/// use shapecheck_tflite::{conv_2d_int16, quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
///
/// // a 1×2 image of 2 channels, one 1×1 filter per output channel, VALID
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 2,
///     filter_height: 1, filter_width: 1,
///     output_height: 1, output_width: 2, output_depth: 2,
/// };
/// let multipliers = [quantize_multiplier(1.0)?, quantize_multiplier(0.5)?];
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -32768, output_max: 32767,
///     rounding: Rounding::Double,
/// };
/// let input = [1000, 2000, 30000, -7];
/// let filter = [1, 1, 1, -1];
/// let mut out = [0i16; 4];
/// conv_2d_int16(&input, &filter, Some(&[0i64, 10]), dims, &params, &mut out)?;
/// // 1000 + 2000; (1000 − 2000 + 10) · 0.5 = −495; 30000 − 7; (30007 + 10) · 0.5 → 15009 (ties up)
/// assert_eq!(out, [3000, -495, 29993, 15009]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_2d_int16<F: Values<i8> + ?Sized, B: Values<i64> + ?Sized>(
    input: &[i16],
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    check(
        dims,
        params,
        input.len(),
        filter.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    zero_points_16x8(params.input_zero_point, params.output_zero_point)?;
    if output.is_empty() {
        return Ok(());
    }
    let Conv2dDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    let kernel_len = product("filter", &[filter_height, filter_width, input_depth])?;
    let image_len = product("input", &[input_height, input_width, input_depth])?;
    // no taps: each output is its bias alone
    let (filter_height, filter_width) = if kernel_len == 0 {
        (0, 0)
    } else {
        (filter_height, filter_width)
    };
    let stage = OutputStage16::new(
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let multiplier = |oc: usize| match params.multipliers {
        [m] => *m,
        ms => ms.get(oc).copied().unwrap_or(QuantizedMultiplier::ZERO),
    };
    // the filter as a slice where it is one, as in `conv_2d_int8`
    let weights = filter.contiguous();
    let mut pixels = output.chunks_exact_mut(output_depth);
    for batch in 0..batches {
        let image = input
            .get(batch * image_len..(batch + 1) * image_len)
            .unwrap_or(&[]);
        for oy in 0..output_height {
            let rows = Window::new(
                oy,
                params.stride_height,
                params.pad_top,
                params.dilation_height,
                filter_height,
                input_height,
            );
            for ox in 0..output_width {
                let cols = Window::new(
                    ox,
                    params.stride_width,
                    params.pad_left,
                    params.dilation_width,
                    filter_width,
                    input_width,
                );
                let Some(pixel) = pixels.next() else {
                    return Ok(());
                };
                for (oc, out) in pixel.iter_mut().enumerate() {
                    let mut acc = 0i64;
                    for (ky, iy) in rows.taps() {
                        for (kx, ix) in cols.taps() {
                            let x = (iy * input_width + ix) * input_depth;
                            let f = ((oc * filter_height + ky) * filter_width + kx) * input_depth;
                            let xs = image.get(x..x + input_depth).unwrap_or(&[]);
                            acc = match weights {
                                Some(w) => {
                                    let fs = w.get(f..f + input_depth).unwrap_or(&[]);
                                    dot_int16(acc, xs, fs.iter().copied())
                                }
                                None => dot_int16(acc, xs, filter.run(f, f + input_depth)),
                            };
                        }
                    }
                    if let Some(b) = bias.and_then(|b| b.at(oc)) {
                        acc = acc.wrapping_add(b);
                    }
                    *out = stage.apply(acc, multiplier(oc));
                }
            }
        }
    }
    Ok(())
}

/// `acc` plus the products of int16 inputs `xs` and int8 taps `fs`, in
/// `i64` (16x8's accumulator).
#[inline(always)]
fn dot_int16(acc: i64, xs: &[i16], fs: impl Iterator<Item = i8>) -> i64 {
    let mut acc = acc;
    for (&x, f) in xs.iter().zip(fs) {
        acc += i64::from(x) * i64::from(f);
    }
    acc
}

/// Checks a 16x8 kernel's zero points: TFLite's int16 activations have
/// zero point 0.
pub(crate) fn zero_points_16x8(input: i32, output: i32) -> Result<(), TfliteError> {
    for (what, v) in [
        ("int16 input's zero point", input),
        ("int16 output's zero point", output),
    ] {
        if v != 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: i64::from(v),
                rule: "TFLite's int16 activations have zero point 0",
            });
        }
    }
    Ok(())
}

/// `acc + Σ (x − zero_point) · f` over a run, wrapping.
#[inline(always)]
fn dot(acc: i32, xs: &[i8], fs: impl Iterator<Item = i8>, zero_point: i32) -> i32 {
    xs.iter().zip(fs).fold(acc, |acc, (&x, f)| {
        acc.wrapping_add(i32::from(f).wrapping_mul(i32::from(x).wrapping_sub(zero_point)))
    })
}

/// Checks a convolution's lengths and parameters.
fn check(
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    input: usize,
    filter: usize,
    bias: Option<usize>,
    output: usize,
) -> Result<(), TfliteError> {
    check_layer(dims, params, filter, bias)?;
    let in_len = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.input_depth,
        ],
    )?;
    let out_len = product(
        "output",
        &[
            dims.batches,
            dims.output_height,
            dims.output_width,
            dims.output_depth,
        ],
    )?;
    length("input", in_len, input)?;
    length("output", out_len, output)
}

/// Checks a convolution's parameters, filter, bias and multipliers: all
/// but the input's and output's lengths (the whole layer's or a band's).
fn check_layer(
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    filter: usize,
    bias: Option<usize>,
) -> Result<(), TfliteError> {
    at_least_1("convolution's stride (height)", params.stride_height)?;
    at_least_1("convolution's stride (width)", params.stride_width)?;
    at_least_1("convolution's dilation (height)", params.dilation_height)?;
    at_least_1("convolution's dilation (width)", params.dilation_width)?;
    if params.output_min > params.output_max {
        return Err(TfliteError::KernelParam {
            what: "clamp's lower end",
            value: i64::from(params.output_min),
            rule: "it is above the upper end",
        });
    }
    let filter_len = product(
        "filter",
        &[
            dims.output_depth,
            dims.filter_height,
            dims.filter_width,
            dims.input_depth,
        ],
    )?;
    length("filter", filter_len, filter)?;
    if let Some(bias) = bias {
        length("bias", dims.output_depth, bias)?;
    }
    if params.multipliers.len() != 1 {
        length("multipliers", dims.output_depth, params.multipliers.len())?;
    }
    Ok(())
}

/// `CONV_2D`'s options table in the schema's `BuiltinOptions` union.
const CONV_2D_OPTIONS: u8 = 1;

/// Reads `CONV_2D`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(r: &OptionsReader<'a>) -> Result<Conv2dOptions, TfliteError> {
    let t = r.table(CONV_2D_OPTIONS, "Conv2DOptions")?;
    let (pad, sw, sh, act, dw, dh) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("padding"))?,
            t.i32(1, 0).map_err(r.fault("stride_w"))?,
            t.i32(2, 0).map_err(r.fault("stride_h"))?,
            t.i8(3, 0).map_err(r.fault("fused_activation_function"))?,
            t.i32(4, 1).map_err(r.fault("dilation_w_factor"))?,
            t.i32(5, 1).map_err(r.fault("dilation_h_factor"))?,
        ),
        None => (0, 0, 0, 0, 1, 1),
    };
    Ok(Conv2dOptions {
        padding: Padding::from_schema(pad).ok_or(r.enum_value(pad, "padding"))?,
        stride_w: r.at_least_1(sw, "stride_w")?,
        stride_h: r.at_least_1(sh, "stride_h")?,
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        dilation_w: r.at_least_1(dw, "dilation_w_factor")?,
        dilation_h: r.at_least_1(dh, "dilation_h_factor")?,
    })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `CONV_2D`: an NHWC input `[B, H, W, C]` and a filter `[O, KH, KW, C]`
/// give `[B, OH, OW, O]`, `OH` and `OW` as the padding, strides and
/// dilations give ([`conv_axis`]).
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Ok(o) = read_options(&op.raw_options()) else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::format::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "Conv2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let filter = operand(model, op, 1, "filter")?;
    let x = need_rank(op, "input", &input, 4)?;
    let f = need_rank(op, "filter", &filter, 4)?;
    if f.dims[3] != x.dims[3] {
        return Err(operand_problem(
            op,
            "filter",
            &filter,
            OperandProblem::DimSize {
                axis: 3,
                expected: x.dims[3],
                found: f.dims[3],
            },
        ));
    }
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (f.dims[1], f.dims[2]),
        (size(o.stride_h), size(o.stride_w)),
        (size(o.dilation_h), size(o.dilation_w)),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, f.dims[0], 0, 0],
        rank: 4,
    })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// Its row's `multipliers`: one per output channel, the filter's dim 0.
pub(crate) fn multipliers(model: &Model<'_>, op: &Operator<'_>) -> usize {
    crate::kernel::shape::weight_channels(model, op, 0)
}

/// `CONV_2D`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<Conv2dStep<'m>> + From<Conv2dF32Step<'m>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return check_conv_f32(c, |_, filter| Ok(conv_2d_geometry(options, filter))).map(S::from);
    }
    check_conv(
        c,
        |_, filter| Ok(conv_2d_geometry(options, filter)),
        scratch,
    )
    .map(S::from)
}

/// The step of a convolution of the family, `CONV_2D` or
/// `DEPTHWISE_CONV_2D` by its dims type `D` (what differs between them is
/// the kernel, [`ConvKernel`]): its operands' places in the arena and its
/// constants, checked once by its op's `prepare`; int8, or int16
/// activations with int64 bias (16x8).
#[derive(Clone)]
#[doc(hidden)]
pub enum ConvStep<'m, D> {
    Int8(ConvLayer<'m, i32, D>),
    Int16(ConvLayer<'m, i64, D>),
}

/// `CONV_2D`'s interpreter step.
#[doc(hidden)]
pub type Conv2dStep<'m> = ConvStep<'m, Conv2dDims>;

impl<D: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust for ConvStep<'_, D> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            ConvStep::Int8(s) => crate::base::write_rust::write_tuple(w, k, "ConvStep::Int8", &[s]),
            ConvStep::Int16(s) => {
                crate::base::write_rust::write_tuple(w, k, "ConvStep::Int16", &[s])
            }
        }
    }
}

/// One convolution's places and constants, its bias of type `B`, its
/// sizes `D` (its op's dims type).
#[derive(Clone)]
#[doc(hidden)]
pub struct ConvLayer<'m, B: LeNumber, D> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub filter: Array<'m, i8>,
    pub bias: Option<Array<'m, B>>,
    pub dims: D,
    pub strides: (usize, usize),
    pub dilations: (usize, usize),
    pub pads: (usize, usize),
    pub quantization: Quantized,
    /// a `CONV_2D`'s channel pairs set up once, as `model!` writes them
    /// ([`ConvStep::with_pairs`]); empty where each call sets them up (the
    /// interpreter's, another op's)
    pub pairs: &'m [ConvPairStage],
}

impl<B: LeNumber, D: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust
    for ConvLayer<'_, B, D>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ConvLayer",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("filter", &self.filter),
                ("bias", &self.bias),
                ("dims", &self.dims),
                ("strides", &self.strides),
                ("dilations", &self.dilations),
                ("pads", &self.pads),
                ("quantization", &self.quantization),
                ("pairs", &self.pairs),
            ],
        )
    }
}

/// What differs between the family's steps: the kernel a layer runs, by
/// its dims type, over its input and output in the arena and the
/// multipliers its `prepare` wrote.
#[doc(hidden)]
pub trait ConvKernel: Sized {
    /// The int8 kernel.
    fn run_int8(
        layer: &ConvLayer<'_, i32, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i8],
        y: &mut [i8],
    ) -> Result<(), TfliteError>;

    /// The 16x8 kernel.
    fn run_int16(
        layer: &ConvLayer<'_, i64, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i16],
        y: &mut [i16],
    ) -> Result<(), TfliteError>;
}

impl<D: ConvKernel> ConvStep<'_, D> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        match self {
            ConvStep::Int8(l) => {
                let (x, y) = split(b.int8, &l.input, &l.output).ok_or(overlap)?;
                D::run_int8(l, b.multipliers, x, y)
            }
            ConvStep::Int16(l) => {
                let (x, y) = split(b.int16, &l.input, &l.output).ok_or(overlap)?;
                D::run_int16(l, b.multipliers, x, y)
            }
        }
    }
}

impl ConvKernel for Conv2dDims {
    fn run_int8(
        l: &ConvLayer<'_, i32, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i8],
        y: &mut [i8],
    ) -> Result<(), TfliteError> {
        let params = conv_params(l, multipliers);
        let pairs = (!l.pairs.is_empty()).then_some(l.pairs);
        conv_2d_int8_prepared(x, &l.filter, l.bias.as_ref(), pairs, l.dims, &params, y)
    }

    fn run_int16(
        l: &ConvLayer<'_, i64, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i16],
        y: &mut [i16],
    ) -> Result<(), TfliteError> {
        let params = conv_params(l, multipliers);
        conv_2d_int16(x, &l.filter, l.bias.as_ref(), l.dims, &params, y)
    }
}

#[cfg(feature = "alloc")]
impl<'m> ConvStep<'m, Conv2dDims> {
    /// This step with its channel pairs set up once into `pairs`
    /// ([`conv_prepare`]'s, from its filter, bias and `multipliers`, the
    /// ones its `prepare` wrote), as `model!` writes a convolution's step:
    /// each call then costs its pixels alone. `None` where the DSP loops
    /// take no pairs (a 16x8 layer, an odd channel count, an output stage
    /// they do not take): the step as it is then runs the same.
    pub(crate) fn with_pairs<'a>(
        &'a self,
        multipliers: &[QuantizedMultiplier],
        pairs: &'a mut alloc::vec::Vec<ConvPairStage>,
    ) -> Option<ConvStep<'a, Conv2dDims>> {
        let ConvStep::Int8(l) = self else {
            return None;
        };
        let filter: alloc::vec::Vec<i8> = l.filter.iter().collect();
        let bias: Option<alloc::vec::Vec<i32>> = l.bias.as_ref().map(|b| b.iter().collect());
        let params = conv_params(l, multipliers);
        let empty = ConvPairStage {
            constant: [0; 4],
            requant: [0; 11],
        };
        let mut made = alloc::vec![empty; l.dims.output_depth / 2];
        conv_prepare(&filter, bias.as_deref(), l.dims, &params, &mut made).ok()?;
        *pairs = made;
        Some(ConvStep::Int8(ConvLayer {
            pairs: pairs.as_slice(),
            ..l.clone()
        }))
    }
}

/// A `CONV_2D` layer's kernel parameters, its multipliers those `prepare`
/// wrote.
pub(crate) fn conv_params<'b, B: LeNumber>(
    l: &ConvLayer<'_, B, Conv2dDims>,
    multipliers: &'b [QuantizedMultiplier],
) -> Conv2dParams<'b> {
    let q = &l.quantization;
    Conv2dParams {
        stride_height: l.strides.0,
        stride_width: l.strides.1,
        dilation_height: l.dilations.0,
        dilation_width: l.dilations.1,
        pad_top: l.pads.0,
        pad_left: l.pads.1,
        input_zero_point: q.input_zero_point,
        output_zero_point: q.output_zero_point,
        multipliers: multipliers.get(..q.channels).unwrap_or(&[]),
        output_min: q.output_min,
        output_max: q.output_max,
        rounding: Rounding::Double,
    }
}

// depthwise_conv is of conv's family
pub(crate) mod depthwise_conv;

// fully_connected is of conv's family
pub(crate) mod fully_connected;

/// `Conv2DOptions`, NHWC; strides and dilations checked to be at least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/conv_3x3_s2_same.tflite")))?;
/// let Options::Conv2d(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.stride_w), (Padding::Same, 2, 2));
/// assert_eq!((o.dilation_h, o.dilation_w, o.fused_activation), (1, 1, Activation::Relu));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Conv2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `dilation_w_factor`
    pub dilation_w: i32,
    /// `dilation_h_factor`
    pub dilation_h: i32,
}
/// What a convolution of the family takes from its options and operands
/// beyond the checks every one makes: its window, strides, dilations and
/// padding, its fused activation, the filter's axis of output channels and
/// their count, and its dims once its output's rows and columns are known.
pub(crate) struct ConvGeometry<D> {
    pub(crate) padding: Padding,
    pub(crate) window: (usize, usize),
    pub(crate) strides: (usize, usize),
    pub(crate) dilations: (usize, usize),
    pub(crate) activation: Activation,
    pub(crate) channel_axis: usize,
    pub(crate) output_depth: usize,
    /// the dims of an output of `(rows, columns)`
    pub(crate) dims: fn(&ModelTensor<'_>, &ModelTensor<'_>, usize, usize) -> D,
}

/// The family's check of a convolution, int8 or 16x8 (int16 input and
/// output, int64 bias, as the input's type says), its output's shape
/// checked by its op's rule before: the element types, an int8 constant
/// filter, then `geometry`'s checks of the op's own (its options and the
/// operands' ranks), then the input's rank, the padding and the
/// requantization (the checker checks the bias's type against the
/// input's).
pub(crate) fn check_conv<'m, D>(
    c: &Checker<'m>,
    geometry: impl Fn(&ModelTensor<'m>, &ModelTensor<'m>) -> Result<ConvGeometry<D>, TfliteError>,
    scratch: &mut [QuantizedMultiplier],
) -> Result<ConvStep<'m, D>, TfliteError> {
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Int16 {
        c.dtype("output", &c.output, TensorType::Int16)?;
        return conv_layer(c, geometry, scratch).map(ConvStep::Int16);
    }
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", &c.output, TensorType::Int8)?;
    conv_layer(c, geometry, scratch).map(ConvStep::Int8)
}

/// The places and constants of a convolution whose input and output types
/// are checked, its bias of type `B` ([`check_conv`]).
fn conv_layer<'m, B: LeNumber, D>(
    c: &Checker<'m>,
    geometry: impl Fn(&ModelTensor<'m>, &ModelTensor<'m>) -> Result<ConvGeometry<D>, TfliteError>,
    scratch: &mut [QuantizedMultiplier],
) -> Result<ConvLayer<'m, B, D>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let filter = c.input(1, "filter")?;
    let bias = c.optional(2);
    c.dtype("filter", &filter, TensorType::Int8)?;
    c.constant("filter", &filter)?;
    let g = geometry(&input, &filter)?;
    let x = crate::kernel::shape::need_rank(&c.op, "input", &input, 4)?;
    let ((rows, pad_top), (columns, pad_left)) =
        spatial(g.padding, &x, g.window, g.strides, g.dilations)?;
    let quantization = c.filter_quantization(
        (&input, &filter, bias.as_ref()),
        g.channel_axis,
        g.output_depth,
        g.activation,
        scratch,
    )?;
    Ok(ConvLayer {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        filter: filter.data_as().unwrap_or_else(Array::empty),
        bias: bias.and_then(|b| b.data_as()),
        dims: (g.dims)(&input, &filter, rows, columns),
        strides: g.strides,
        dilations: g.dilations,
        pads: (pad_top, pad_left),
        quantization,
        pairs: &[],
    })
}

/// `CONV_2D`'s geometry: NHWC input, int8 filter `[O, KH, KW, C]` with
/// zero point 0, per-tensor or per-channel (axis 0).
fn conv_2d_geometry(options: Conv2dOptions, filter: &ModelTensor<'_>) -> ConvGeometry<Conv2dDims> {
    // checked at least 1 by Model::parse
    let size = |v: i32| usize::try_from(v).unwrap_or(0);
    ConvGeometry {
        padding: options.padding,
        window: (dim(filter, 1), dim(filter, 2)),
        strides: (size(options.stride_h), size(options.stride_w)),
        dilations: (size(options.dilation_h), size(options.dilation_w)),
        activation: options.fused_activation,
        channel_axis: 0,
        output_depth: dim(filter, 0),
        dims: |input, filter, rows, columns| Conv2dDims {
            batches: dim(input, 0),
            input_height: dim(input, 1),
            input_width: dim(input, 2),
            input_depth: dim(input, 3),
            filter_height: dim(filter, 1),
            filter_width: dim(filter, 2),
            output_height: rows,
            output_width: columns,
            output_depth: dim(filter, 0),
        },
    }
}

// The f32 convolutions of the family: TFLite Micro's float `CONV_2D` and
// `DEPTHWISE_CONV_2D` (`reference_ops::Conv`, `reference_ops::DepthwiseConv`).

/// How an f32 convolution (`CONV_2D` or `DEPTHWISE_CONV_2D`) steps, pads
/// and clamps, as TFLite derives it from the layer's options: the padding
/// from [`conv_axis`](crate::conv_axis), the clamp from
/// [`activation_range_f32`](crate::activation_range_f32). There is no
/// quantization.
///
/// ```
/// use shapecheck_tflite::{activation_range_f32, Activation, ConvF32Params};
///
/// let (output_min, output_max) = activation_range_f32(Activation::Relu6)?;
/// let params = ConvF32Params {
///     stride_height: 2, stride_width: 2, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 1, output_min, output_max,
/// };
/// assert_eq!((params.output_min, params.output_max), (0.0, 6.0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvF32Params {
    /// rows stepped per output row (at least 1)
    pub stride_height: usize,
    /// columns stepped per output column (at least 1)
    pub stride_width: usize,
    /// rows between filter taps (at least 1)
    pub dilation_height: usize,
    /// columns between filter taps (at least 1)
    pub dilation_width: usize,
    /// padding rows above the input ([`ConvAxis::pad_before`](crate::ConvAxis::pad_before))
    pub pad_top: usize,
    /// padding columns left of the input
    pub pad_left: usize,
    /// the clamp's lower end, from the fused activation
    pub output_min: f32,
    /// the clamp's upper end (not below `output_min`)
    pub output_max: f32,
}

impl crate::base::write_rust::WriteRust for ConvF32Params {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ConvF32Params",
            &[
                ("stride_height", &self.stride_height),
                ("stride_width", &self.stride_width),
                ("dilation_height", &self.dilation_height),
                ("dilation_width", &self.dilation_width),
                ("pad_top", &self.pad_top),
                ("pad_left", &self.pad_left),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
            ],
        )
    }
}

/// Checks an f32 convolution's strides, dilations and clamp (the family's
/// rule for [`ConvF32Params`]).
pub(crate) fn check_f32_params(params: &ConvF32Params) -> Result<(), TfliteError> {
    at_least_1("convolution's stride (height)", params.stride_height)?;
    at_least_1("convolution's stride (width)", params.stride_width)?;
    at_least_1("convolution's dilation (height)", params.dilation_height)?;
    at_least_1("convolution's dilation (width)", params.dilation_width)?;
    crate::shared::float_ops::check_clamp_f32(params.output_min, params.output_max)
}

/// Where input row or column `out · stride − pad + tap · dilation` falls:
/// `Some(index)` inside `0..size`, `None` in the padding (or on an
/// overflow, which no input of that size reaches).
#[inline(always)]
pub(crate) fn tap_index(
    out: usize,
    stride: usize,
    pad: usize,
    tap: usize,
    dilation: usize,
    size: usize,
) -> Option<usize> {
    let at = out
        .checked_mul(stride)?
        .checked_add(tap.checked_mul(dilation)?)?
        .checked_sub(pad)?;
    (at < size).then_some(at)
}

/// TFLite's f32 `CONV_2D` (TFLite Micro's `reference_ops::Conv`). Output
/// channel `oc` of pixel `(oy, ox)` is, in `f32` with one rounding per
/// operation and in this order,
/// `((0 + Σ_{ky} Σ_{kx} Σ_{ic} x[iy, ix, ic] · f[oc, ky, kx, ic]) + bias[oc])`
/// (the sum from `+0.0`, taps by filter row, then column, then input
/// channel; `iy = oy · stride_h − pad_top + ky · dilation_h`, `ix`
/// likewise; taps outside the input skipped; `+ 0.0` without a bias),
/// then clamped as TFLite's `ActivationFunctionWithMinMax` clamps
/// (`min(max(y, output_min), output_max)` with C++'s `std::max` and
/// `std::min`: a NaN stays NaN, and `−0.0` stays `−0.0` against a bound of
/// `+0.0`). The result is TFLite Micro's to the bit (the sign of zero
/// included) on a machine without fused multiply-add, as Rust never fuses.
/// Blocks of output channels are computed together, each sum still in
/// its own order.
///
/// Fails, with `output` untouched, when a length does not match `dims`
/// (the filter's is `output_depth · filter_height · filter_width ·
/// input_depth`, the bias's `output_depth`), a stride or dilation is 0, or
/// the clamp is empty or NaN.
///
/// ```
/// use shapecheck_tflite::{conv_2d_f32, Conv2dDims, ConvF32Params};
///
/// // a 1×3 image of 2 channels, a 1×2 filter per output channel, VALID
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 3, input_depth: 2,
///     filter_height: 1, filter_width: 2,
///     output_height: 1, output_width: 2, output_depth: 1,
/// };
/// let params = ConvF32Params {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0, output_min: f32::MIN, output_max: f32::MAX,
/// };
/// let input = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let filter = [1.0, 0.5, -1.0, 0.25];
/// let mut out = [0.0f32; 2];
/// conv_2d_f32(&input, &filter, Some(&[0.5]), dims, &params, &mut out)?;
/// // 1 + 1 − 3 + 1 + 0.5; 3 + 2 − 5 + 1.5 + 0.5
/// assert_eq!(out, [0.5, 2.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn conv_2d_f32<F: Values<f32> + ?Sized, B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    params: &ConvF32Params,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    check_f32_params(params)?;
    let filter_len = product(
        "filter",
        &[
            dims.output_depth,
            dims.filter_height,
            dims.filter_width,
            dims.input_depth,
        ],
    )?;
    length("filter", filter_len, filter.count())?;
    if let Some(bias) = bias {
        length("bias", dims.output_depth, bias.count())?;
    }
    let in_len = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.input_depth,
        ],
    )?;
    let out_len = product(
        "output",
        &[
            dims.batches,
            dims.output_height,
            dims.output_width,
            dims.output_depth,
        ],
    )?;
    length("input", in_len, input.len())?;
    length("output", out_len, output.len())?;
    match filter.contiguous() {
        Some(f) => conv_f32_slices(input, f, bias, dims, params, output),
        None => conv_f32_loop(input, filter, bias, dims, params, output),
    }
    Ok(())
}

/// The taps of output pixel `(oy, ox)` that lie inside the input, in
/// TFLite's order (`ky`, then `kx`): each one's input pixel
/// (`iy · input_width + ix`) and its tap (`ky · filter_width + kx`). The
/// f32 convolution's and depthwise's loops over a filter in the model's
/// bytes scale them by their own depths.
pub(crate) fn f32_taps(
    p: &ConvF32Params,
    (oy, ox): (usize, usize),
    (input_height, input_width): (usize, usize),
    (filter_height, filter_width): (usize, usize),
) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
    (0..filter_height)
        .filter_map(move |ky| {
            let iy = tap_index(
                oy,
                p.stride_height,
                p.pad_top,
                ky,
                p.dilation_height,
                input_height,
            )?;
            Some((ky, iy))
        })
        .flat_map(move |(ky, iy)| {
            (0..filter_width).filter_map(move |kx| {
                let ix = tap_index(
                    ox,
                    p.stride_width,
                    p.pad_left,
                    kx,
                    p.dilation_width,
                    input_width,
                )?;
                Some((iy * input_width + ix, ky * filter_width + kx))
            })
        })
}

/// The taps of one output coordinate whose input coordinate is inside
/// (`tap_index` is `Some`): `lo..hi`, one run, as the input coordinate
/// grows with the tap.
pub(crate) fn tap_range(
    out: usize,
    stride: usize,
    pad: usize,
    dilation: usize,
    taps: usize,
    size: usize,
) -> Range<usize> {
    let inside = |tap| tap_index(out, stride, pad, tap, dilation, size).is_some();
    let mut lo = 0;
    while lo < taps && !inside(lo) {
        lo += 1;
    }
    let mut hi = lo;
    while hi < taps && inside(hi) {
        hi += 1;
    }
    lo..hi
}

/// One stretch of a convolution's sum: `len` products whose inputs start
/// at `input` (for the first pixel of a pair) and whose weights start at
/// `filter` inside an output channel's filter row, in TFLite's order.
#[derive(Clone, Copy)]
struct F32Run {
    input: usize,
    filter: usize,
    len: usize,
}

/// The runs of one output pixel's sum, in TFLite's order, for the valid
/// taps `ky` × `kx`: one run per filter row when the taps of a row are
/// next to each other in the input (`dilation_width` 1), else one per tap.
fn conv_runs(
    dims: &Conv2dDims,
    p: &ConvF32Params,
    image: usize,
    oy: usize,
    ox: usize,
    ky: Range<usize>,
    kx: Range<usize>,
) -> impl Iterator<Item = F32Run> + Clone {
    let depth = dims.input_depth;
    let (width, filter_width) = (dims.input_width, dims.filter_width);
    let merged = p.dilation_width == 1;
    let (stride_h, dilation_h, pad_top) = (p.stride_height, p.dilation_height, p.pad_top);
    let (stride_w, dilation_w, pad_left) = (p.stride_width, p.dilation_width, p.pad_left);
    // the valid taps are inside, so these never go below 0
    let iy = move |ky: usize| (oy * stride_h + ky * dilation_h).saturating_sub(pad_top);
    let ix = move |kx: usize| (ox * stride_w + kx * dilation_w).saturating_sub(pad_left);
    let kx_runs = if merged { 1 } else { kx.len() };
    let run_len = if merged { kx.len() * depth } else { depth };
    ky.flat_map(move |ky| {
        (0..kx_runs).map(move |r| {
            let kx = kx.start + r;
            F32Run {
                input: image + (iy(ky) * width + ix(kx)) * depth,
                filter: (ky * filter_width + kx) * depth,
                len: run_len,
            }
        })
    })
}

/// The slice path of [`conv_2d_f32`] (checked by the caller): blocks of
/// 4 output channels × 4 (or 2) output pixels, each weight loaded once for
/// all the pixels and each input value once for the 4 channels; every sum still
/// from `+0.0` over (ky, kx, ic) in TFLite's order, bias last, then the
/// clamp. Pixels whose valid taps differ from their neighbour's, and the
/// channels past the last block of 4, go one by one.
fn conv_f32_slices<B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &[f32],
    bias: Option<&B>,
    dims: Conv2dDims,
    p: &ConvF32Params,
    output: &mut [f32],
) {
    let Conv2dDims {
        batches,
        input_height,
        input_width,
        input_depth: depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    let filter_row = filter_height * filter_width * depth;
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    let bias_at = |oc: usize| bias.and_then(|b| b.at(oc)).unwrap_or(0.0);
    let pixel_step = p.stride_width * depth;
    let mut out_at = 0;
    for b in 0..batches {
        let image = b * input_height * input_width * depth;
        for oy in 0..output_height {
            let ky = tap_range(
                oy,
                p.stride_height,
                p.pad_top,
                p.dilation_height,
                filter_height,
                input_height,
            );
            let kx_of = |ox| {
                tap_range(
                    ox,
                    p.stride_width,
                    p.pad_left,
                    p.dilation_width,
                    filter_width,
                    input_width,
                )
            };
            let mut ox = 0;
            while ox < output_width {
                let kx = kx_of(ox);
                // 4, 2 or 1 pixels from `ox` on that share its valid taps
                let mut pixels = 1;
                while pixels < 4 && ox + pixels < output_width && kx_of(ox + pixels) == kx {
                    pixels += 1;
                }
                if pixels == 3 {
                    pixels = 2;
                }
                let Some(out) = output.get_mut(out_at..out_at + pixels * output_depth) else {
                    return;
                };
                let runs = conv_runs(&dims, p, image, oy, ox, ky.clone(), kx);
                let mut oc = 0;
                while oc + 4 <= output_depth {
                    let f0 = oc * filter_row;
                    let mut acc = [[0.0f32; 4]; 4];
                    for run in runs.clone() {
                        let x0 = input.get(run.input..run.input + run.len).unwrap_or(&[]);
                        let w_at = |c: usize| {
                            let at = f0 + c * filter_row + run.filter;
                            filter.get(at..at + run.len).unwrap_or(&[])
                        };
                        let (w0, w1, w2, w3) = (w_at(0), w_at(1), w_at(2), w_at(3));
                        let x_at = |i: usize| {
                            let at = run.input + i * pixel_step;
                            input.get(at..at + run.len).unwrap_or(&[])
                        };
                        if pixels == 4 {
                            let (x1, x2, x3) = (x_at(1), x_at(2), x_at(3));
                            let [a0, a1, a2, a3] = &mut acc;
                            for (((((((&x, &y), &z), &v), &f0), &f1), &f2), &f3) in x0
                                .iter()
                                .zip(x1)
                                .zip(x2)
                                .zip(x3)
                                .zip(w0)
                                .zip(w1)
                                .zip(w2)
                                .zip(w3)
                            {
                                a0[0] += x * f0;
                                a0[1] += x * f1;
                                a0[2] += x * f2;
                                a0[3] += x * f3;
                                a1[0] += y * f0;
                                a1[1] += y * f1;
                                a1[2] += y * f2;
                                a1[3] += y * f3;
                                a2[0] += z * f0;
                                a2[1] += z * f1;
                                a2[2] += z * f2;
                                a2[3] += z * f3;
                                a3[0] += v * f0;
                                a3[1] += v * f1;
                                a3[2] += v * f2;
                                a3[3] += v * f3;
                            }
                        } else if pixels == 2 {
                            let x1 = x_at(1);
                            let [a0, a1, _, _] = &mut acc;
                            for (((((&x, &y), &f0), &f1), &f2), &f3) in
                                x0.iter().zip(x1).zip(w0).zip(w1).zip(w2).zip(w3)
                            {
                                a0[0] += x * f0;
                                a0[1] += x * f1;
                                a0[2] += x * f2;
                                a0[3] += x * f3;
                                a1[0] += y * f0;
                                a1[1] += y * f1;
                                a1[2] += y * f2;
                                a1[3] += y * f3;
                            }
                        } else {
                            let [a0, _, _, _] = &mut acc;
                            for ((((&x, &f0), &f1), &f2), &f3) in
                                x0.iter().zip(w0).zip(w1).zip(w2).zip(w3)
                            {
                                a0[0] += x * f0;
                                a0[1] += x * f1;
                                a0[2] += x * f2;
                                a0[3] += x * f3;
                            }
                        }
                    }
                    // the block's biases, read once (`+ 0.0` without one)
                    let biases = bias.and_then(|b| b.chunk::<4>(oc)).unwrap_or([0.0; 4]);
                    for (ys, totals) in out.chunks_mut(output_depth.max(1)).zip(acc) {
                        let ys = ys.get_mut(oc..oc + 4).unwrap_or(&mut []);
                        for ((y, total), b) in ys.iter_mut().zip(totals).zip(biases) {
                            *y = clamp(total + b);
                        }
                    }
                    oc += 4;
                }
                while oc < output_depth {
                    let f0 = oc * filter_row;
                    for (i, ys) in out.chunks_mut(output_depth.max(1)).enumerate() {
                        let mut total = 0.0f32;
                        for run in runs.clone() {
                            let at = run.input + i * pixel_step;
                            let xs = input.get(at..at + run.len).unwrap_or(&[]);
                            let ws = filter.get(f0 + run.filter..f0 + run.filter + run.len);
                            for (&x, &w) in xs.iter().zip(ws.unwrap_or(&[])) {
                                total += x * w;
                            }
                        }
                        if let Some(y) = ys.get_mut(oc) {
                            *y = clamp(total + bias_at(oc));
                        }
                    }
                    oc += 1;
                }
                out_at += pixels * output_depth;
                ox += pixels;
            }
        }
    }
}

/// Output channels computed together by the f32 convolution: each input
/// value loaded once for them all.
const F32_BLOCK: usize = 4;

/// The loop of [`conv_2d_f32`] (checked by the caller): for each output
/// pixel, its channels in blocks of [`F32_BLOCK`] and then one by one,
/// each channel's sum in TFLite's order.
fn conv_f32_loop<F: Values<f32> + ?Sized, B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: Conv2dDims,
    p: &ConvF32Params,
    output: &mut [f32],
) {
    let Conv2dDims {
        batches,
        input_height,
        input_width,
        input_depth: depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    } = dims;
    let filter_row = filter_height * filter_width * depth;
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    let bias_at = |oc: usize| bias.and_then(|b| b.at(oc)).unwrap_or(0.0);
    let mut pixels = output.chunks_exact_mut(output_depth.max(1));
    for b in 0..batches {
        let image = b * input_height * input_width * depth;
        for oy in 0..output_height {
            for ox in 0..output_width {
                let Some(out) = pixels.next() else {
                    return;
                };
                // the input run (its start) and the filter offset of each
                // tap inside the input, in TFLite's order
                let taps = f32_taps(
                    p,
                    (oy, ox),
                    (input_height, input_width),
                    (filter_height, filter_width),
                )
                .map(|(pixel, tap)| (image + pixel * depth, tap * depth));
                let mut oc = 0;
                let mut blocks = out.chunks_exact_mut(F32_BLOCK);
                for ys in &mut blocks {
                    let mut acc = [0.0f32; F32_BLOCK];
                    for (start, f_at) in taps.clone() {
                        let xs = input.get(start..start + depth).unwrap_or(&[]);
                        let f0 = oc * filter_row + f_at;
                        let rows = [
                            filter.run(f0, f0 + depth),
                            filter.run(f0 + filter_row, f0 + filter_row + depth),
                            filter.run(f0 + 2 * filter_row, f0 + 2 * filter_row + depth),
                            filter.run(f0 + 3 * filter_row, f0 + 3 * filter_row + depth),
                        ];
                        let [r0, r1, r2, r3] = rows;
                        for ((((&x, w0), w1), w2), w3) in xs.iter().zip(r0).zip(r1).zip(r2).zip(r3)
                        {
                            acc[0] += x * w0;
                            acc[1] += x * w1;
                            acc[2] += x * w2;
                            acc[3] += x * w3;
                        }
                    }
                    for (j, (y, total)) in ys.iter_mut().zip(acc).enumerate() {
                        *y = clamp(total + bias_at(oc + j));
                    }
                    oc += F32_BLOCK;
                }
                for y in blocks.into_remainder() {
                    let mut total = 0.0f32;
                    for (start, f_at) in taps.clone() {
                        let xs = input.get(start..start + depth).unwrap_or(&[]);
                        let f0 = oc * filter_row + f_at;
                        for (&x, w) in xs.iter().zip(filter.run(f0, f0 + depth)) {
                            total += x * w;
                        }
                    }
                    *y = clamp(total + bias_at(oc));
                    oc += 1;
                }
            }
        }
    }
}

/// The f32 step of a convolution of the family, `CONV_2D` or
/// `DEPTHWISE_CONV_2D` by its dims type `D` ([`ConvKernelF32`]): its
/// operands' places in the arena, its filter and bias read in place, its
/// geometry and clamp, checked once by its op's `prepare`.
#[derive(Clone)]
#[doc(hidden)]
pub struct ConvF32Step<'m, D> {
    pub input: Range<usize>,
    pub output: Range<usize>,
    pub filter: F32Constant<'m>,
    pub bias: Option<F32Constant<'m>>,
    pub dims: D,
    pub params: ConvF32Params,
}

/// `CONV_2D`'s f32 interpreter step.
#[doc(hidden)]
pub type Conv2dF32Step<'m> = ConvF32Step<'m, Conv2dDims>;

impl<D: crate::base::write_rust::WriteRust> crate::base::write_rust::WriteRust
    for ConvF32Step<'_, D>
{
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "ConvF32Step",
            &[
                ("input", &self.input),
                ("output", &self.output),
                ("filter", &self.filter),
                ("bias", &self.bias),
                ("dims", &self.dims),
                ("params", &self.params),
            ],
        )
    }
}

/// The f32 kernel a convolution of the family runs, by its dims type.
#[doc(hidden)]
pub trait ConvKernelF32: Sized {
    /// The f32 kernel over the step's input and output.
    fn run_f32(layer: &ConvF32Step<'_, Self>, x: &[f32], y: &mut [f32]) -> Result<(), TfliteError>;
}

impl ConvKernelF32 for Conv2dDims {
    fn run_f32(l: &ConvF32Step<'_, Self>, x: &[f32], y: &mut [f32]) -> Result<(), TfliteError> {
        conv_2d_f32(x, &l.filter, l.bias.as_ref(), l.dims, &l.params, y)
    }
}

impl<D: ConvKernelF32> ConvF32Step<'_, D> {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let (x, y) = split(b.float32, &self.input, &self.output).ok_or(b.overlap)?;
        D::run_f32(self, x, y)
    }
}

/// The family's check of an f32 convolution (its input f32): the output,
/// filter and bias f32 (a filter of another type, as a hybrid model's
/// int8 weights, is refused), the filter constant, then `geometry`'s
/// checks of the op's own, the input's rank, the padding and the clamp
/// ([`activation_range_f32`](crate::activation_range_f32)).
pub(crate) fn check_conv_f32<'m, D>(
    c: &Checker<'m>,
    geometry: impl Fn(&ModelTensor<'m>, &ModelTensor<'m>) -> Result<ConvGeometry<D>, TfliteError>,
) -> Result<ConvF32Step<'m, D>, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    let filter = c.input(1, "filter")?;
    let bias = c.optional(2);
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("filter", &filter, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Float32)?;
    c.constant("filter", &filter)?;
    if let Some(bias) = &bias {
        c.dtype("bias", bias, TensorType::Float32)?;
        c.constant("bias", bias)?;
    }
    let g = geometry(&input, &filter)?;
    if let Some(bias) = &bias {
        c.elements("bias", bias, g.output_depth)?;
    }
    let x = crate::kernel::shape::need_rank(&c.op, "input", &input, 4)?;
    let ((rows, pad_top), (columns, pad_left)) =
        spatial(g.padding, &x, g.window, g.strides, g.dilations)?;
    let (output_min, output_max) = crate::arith::activation::activation_range_f32(g.activation)
        .map_err(|_| c.unsupported_option("fused activation", g.activation.name()))?;
    let params = ConvF32Params {
        stride_height: g.strides.0,
        stride_width: g.strides.1,
        dilation_height: g.dilations.0,
        dilation_width: g.dilations.1,
        pad_top,
        pad_left,
        output_min,
        output_max,
    };
    check_f32_params(&params)?;
    Ok(ConvF32Step {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        filter: F32Constant::InModel(filter.data_as().unwrap_or_else(Array::empty)),
        bias: bias.and_then(|b| b.data_as()).map(F32Constant::InModel),
        dims: (g.dims)(&input, &filter, rows, columns),
        params,
    })
}
