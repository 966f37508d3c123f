//! TFLite's int8 `DEPTHWISE_CONV_2D` kernel on slices (the reference
//! `reference_integer_ops::DepthwiseConvPerChannel`), and the output size
//! and padding TFLite computes for `SAME` and `VALID`; and its f32
//! kernel, TFLite Micro's `reference_ops::DepthwiseConv` to the bit
//! ([`depthwise_conv_f32`]).

use crate::arith::quant::{OutputStage, OutputStage16, QuantizedMultiplier, Rounding, Scale};
use crate::arith::window::{at_least_1, check_band, length, product, RingRows, RowAxis, Window};
use crate::format::array::LeNumber;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::format::model::ModelTensor;
use crate::format::model::Operator;
use crate::format::model::OptionsReader;
use crate::format::types::Activation;
use crate::format::types::Padding;
use crate::format::types::TensorType;
use crate::format::values::Values;
use crate::kernel::checker::dim;
use crate::kernel::checker::Checker;
use crate::kernel::shape::need_rank;
use crate::kernel::shape::operand;
use crate::kernel::shape::size;
use crate::kernel::shape::spatial;
use crate::kernel::shape::OpShape;
use crate::ops::conv::{check_conv, f32_taps, ConvGeometry, ConvKernel, ConvLayer, ConvStep};
use crate::ops::conv::{
    check_conv_f32, check_f32_params, tap_range, ConvF32Params, ConvF32Step, ConvKernelF32,
};
use core::ops::Range;

// The kernel's DSP loops (`cfg(shapecheck_dsp)`, set by build.rs), each
// `asm!` block beside its plain-Rust twin, which the host's unit tests run
// (built as lib.rs's `mod dsp` is).
#[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
#[allow(unsafe_code)]
pub(crate) mod dsp;

/// The error for a size `what` of 0 that must be at least 1.
/// The sizes of one depthwise convolution, NHWC: the input is
/// `[batches, input_height, input_width, input_depth]`, the filter
/// `[1, filter_height, filter_width, input_depth · depth_multiplier]`, the
/// output `[batches, output_height, output_width, input_depth ·
/// depth_multiplier]`.
///
/// ```
/// use shapecheck_tflite::DepthwiseConvDims;
///
/// // speech.tflite's layer
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 49, input_width: 40, input_depth: 1,
///     filter_height: 10, filter_width: 8, depth_multiplier: 8,
///     output_height: 25, output_width: 20,
/// };
/// assert_eq!(dims.output_depth(), Some(8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthwiseConvDims {
    /// images
    pub batches: usize,
    /// the input's rows
    pub input_height: usize,
    /// the input's columns
    pub input_width: usize,
    /// the input's channels
    pub input_depth: usize,
    /// the filter's rows
    pub filter_height: usize,
    /// the filter's columns
    pub filter_width: usize,
    /// output channels per input channel
    pub depth_multiplier: usize,
    /// the output's rows
    pub output_height: usize,
    /// the output's columns
    pub output_width: usize,
}

impl crate::base::write_rust::WriteRust for DepthwiseConvDims {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "DepthwiseConvDims",
            &[
                ("batches", &self.batches),
                ("input_height", &self.input_height),
                ("input_width", &self.input_width),
                ("input_depth", &self.input_depth),
                ("filter_height", &self.filter_height),
                ("filter_width", &self.filter_width),
                ("depth_multiplier", &self.depth_multiplier),
                ("output_height", &self.output_height),
                ("output_width", &self.output_width),
            ],
        )
    }
}

impl DepthwiseConvDims {
    /// The output's channels, `input_depth · depth_multiplier` (`None` on
    /// overflow).
    ///
    /// ```
    /// use shapecheck_tflite::DepthwiseConvDims;
    ///
    /// let dims = DepthwiseConvDims {
    ///     batches: 1, input_height: 4, input_width: 4, input_depth: 3,
    ///     filter_height: 3, filter_width: 3, depth_multiplier: 2,
    ///     output_height: 4, output_width: 4,
    /// };
    /// assert_eq!(dims.output_depth(), Some(6));
    /// ```
    pub fn output_depth(&self) -> Option<usize> {
        self.input_depth.checked_mul(self.depth_multiplier)
    }
}

/// How a depthwise convolution steps and pads, and its quantization, as
/// TFLite derives them from the layer's options and tensors ([`conv_axis`](crate::conv_axis)
/// for the padding, [`fully_connected_multiplier`](crate::fully_connected_multiplier)
/// per channel for the multipliers, [`activation_range_int8`](crate::activation_range_int8)
/// for the clamp).
///
/// ```
/// use shapecheck_tflite::{quantize_multiplier, DepthwiseConvParams, Rounding};
///
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// assert_eq!(params.multipliers.len(), 1);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthwiseConvParams<'m> {
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
    /// the rounding of the requantization: TFLite (2.21) and TFLite Micro
    /// both use [`Rounding::Double`] for this op
    pub rounding: Rounding,
}

/// TFLite's int8 `DEPTHWISE_CONV_2D` with per-channel quantization
/// (`reference_integer_ops::DepthwiseConvPerChannel`). Output channel
/// `oc = ic · depth_multiplier + m` of pixel `(oy, ox)` is
/// `acc = Σ_{ky,kx} (x[iy, ix, ic] − x_zp) · f[ky, kx, oc] + bias[oc]` in
/// `i32`, where `iy = oy · stride_h − pad_top + ky · dilation_h` (and `ix`
/// likewise) and taps outside the input count as zero; then
/// `y = multiply_by_quantized_multiplier(acc, M_oc) + out_zp`, clamped to
/// `[output_min, output_max]`. The filter's zero point is 0 (TFLite's
/// symmetric per-channel filters). The filter and bias are read from slices
/// or in place from a model ([`Values`]).
///
/// The accumulator wraps on overflow (TFLite leaves it undefined). Fails,
/// with `output` untouched, when a length does not match `dims`, there is
/// neither one multiplier nor one per output channel, the depth multiplier,
/// a stride or a dilation is 0, or the clamp is empty.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_int8, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, Rounding};
///
/// // a 2×2 single-channel image, a 2×2 filter of ones, VALID: one output, the sum
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 2, input_width: 2, input_depth: 1,
///     filter_height: 2, filter_width: 2, depth_multiplier: 1,
///     output_height: 1, output_width: 1,
/// };
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: -1, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let mut out = [0i8; 1];
/// depthwise_conv_int8(&[1, 2, 3, 4], &[1, 1, 1, 1], Some(&[2]), dims, &params, &mut out)?;
/// assert_eq!(out, [8]); // ((2 + 3 + 4 + 5) + 2) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depthwise_conv_int8<F, B>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    check(
        dims,
        params,
        Some(input.len()),
        filter.count(),
        bias.map(|b| b.count()),
        Some(output.len()),
    )?;
    depthwise_conv_int8_prechecked(input, filter, bias, dims, params, output);
    Ok(())
}

/// [`depthwise_conv_int8`] without its checks, for a caller that has made
/// them hold already (the typed layers of `shapecheck`, whose sizes are
/// types and whose parameters were checked when the layer was built): the
/// lengths are the ones `dims` gives, the depth multiplier, strides and
/// dilations at least 1, the multipliers one or one per output channel.
/// On operands that break this, what it writes is unspecified, but it never
/// panics and never writes outside `output`; an empty clamp makes every output its upper end.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_int8_prechecked, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, Rounding};
///
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 2, input_width: 2, input_depth: 1,
///     filter_height: 2, filter_width: 2, depth_multiplier: 1,
///     output_height: 1, output_width: 1,
/// };
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: -1, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let mut out = [0i8; 1];
/// depthwise_conv_int8_prechecked(&[1, 2, 3, 4], &[1, 1, 1, 1], Some(&[2]), dims, &params, &mut out);
/// assert_eq!(out, [8]); // ((2 + 3 + 4 + 5) + 2) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depthwise_conv_int8_prechecked<F, B>(
    input: &[i8],
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    // checked by the caller: neither overflows (each is 0 or divides a length)
    let image_len = dims
        .input_height
        .saturating_mul(dims.input_width)
        .saturating_mul(dims.input_depth);
    let out_len = dims
        .output_height
        .saturating_mul(dims.output_width)
        .saturating_mul(dims.input_depth)
        .saturating_mul(dims.depth_multiplier);
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
        depthwise_rows(
            image,
            dims.input_height,
            0..dims.output_height,
            filter,
            bias,
            None,
            dims,
            params,
            out,
        );
    }
}

/// Output rows `rows` of one image of TFLite's int8 `DEPTHWISE_CONV_2D`
/// ([`depthwise_conv_int8`]), its input rows read from a ring: a buffer
/// of `ring_rows` input rows (each `input_width · input_depth` values) in
/// which input row `r` is ring row `r % ring_rows`. The output is those
/// rows alone (`rows.len() · output_width · input_depth ·
/// depth_multiplier` values). Bands computed one after another, each
/// band's input rows put in the ring before it, are bit for bit the
/// whole layer ([`depthwise_conv_int8`] is this kernel over every row,
/// its ring the whole image); padding rows count as zero, as there.
///
/// Fails, with `output` untouched, as [`depthwise_conv_int8`] does (the
/// input is the ring), when `dims.batches` is not 1 or `rows` is not
/// inside `0..output_height`, and with [`TfliteError::RingTooSmall`] when
/// the ring cannot hold every input row the output rows read.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_int8_band, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, Rounding};
///
/// // a 3×1 image of one channel, a 3×1 filter [1, 2, 3], SAME: 3 output rows
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 3, input_width: 1, input_depth: 1,
///     filter_height: 3, filter_width: 1, depth_multiplier: 1,
///     output_height: 3, output_width: 1,
/// };
/// let multipliers = [quantize_multiplier(1.0)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 1, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// // the image is [10, 20, 30]; output row 2 reads rows 1 and 2 (and a
/// // padding row): a ring of 2 rows, row 2 at ring row 0, row 1 at ring row 1
/// let mut out = [0i8; 1];
/// depthwise_conv_int8_band(&[30, 20], 2, 2..3, &[1, 2, 3], None::<&[i32]>, dims, &params, &mut out)?;
/// assert_eq!(out, [80]); // 20 · 1 + 30 · 2
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn depthwise_conv_int8_band<F, B>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    band_checked(
        ring, ring_rows, rows, filter, bias, None, dims, params, output,
    )
}

/// One group of four channels of a depthwise convolution (depth
/// multiplier 1), set up once for every band of the layer: what the DSP
/// loops (thumbv7em) otherwise make at each call, before the group's
/// pixels. [`depthwise_prepare`] makes them, `model!` writes them as a
/// `static` (flash) for each depthwise stage of a streamed run, and
/// [`depthwise_conv_int8_band_prepared`] takes them.
///
/// ```
/// use shapecheck_tflite::DepthwiseGroup;
///
/// let group = DepthwiseGroup { bias: [1, 2, 3, 4], table: [0; 18], constants: [[[1, 2, 3, 4]; 3]; 3], requant: None };
/// assert_eq!(group.constants[2][1], group.bias);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthwiseGroup {
    /// the four channels' bias (0 without one)
    pub bias: [i32; 4],
    /// a 3×3 filter's nine taps, each word of four channels widened into
    /// 16-bit halves: bytes 0 and 2, then bytes 1 and 3 (0 for another
    /// filter size)
    pub table: [u32; 18],
    /// `bias − input_zero_point · Σ w` per channel over the taps inside a
    /// window, for each row class and column class of a 3×3 filter's
    /// windows (0 all three taps inside, 1 all but the first, 2 all but
    /// the last); the bias for another filter size
    pub constants: [[[i32; 4]; 3]; 3],
    /// the output stage of the four channels in the DSP loops' form
    /// (per channel `2m` and `−shift − 1`, `1 + 2 · zero point`, the
    /// clamp's ends in each byte), where it takes them
    pub requant: Option<[i32; 11]>,
}

/// The groups of four channels of a depthwise convolution of depth
/// multiplier 1, set up once ([`DepthwiseGroup`]): `groups[g]` is
/// channels `4g … 4g + 3`'s. The same set-up the DSP loops make at each
/// call of [`depthwise_conv_int8_band`], so that
/// [`depthwise_conv_int8_band_prepared`] with them is bit for bit that
/// kernel.
///
/// Fails, with `groups` untouched, as [`depthwise_conv_int8_band`] does on
/// these operands, and with [`TfliteError::KernelParam`] unless the depth
/// multiplier is 1, the channels a multiple of 4 and `groups` holds one
/// group per four of them.
///
/// ```
/// use shapecheck_tflite::{depthwise_prepare, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup, Rounding};
///
/// // 4 channels, a 3×3 filter of ones, input zero point −1
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 3, input_width: 3, input_depth: 4,
///     filter_height: 3, filter_width: 3, depth_multiplier: 1,
///     output_height: 3, output_width: 3,
/// };
/// let multipliers = [quantize_multiplier(0.25)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 1, pad_left: 1,
///     input_zero_point: -1, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let empty = DepthwiseGroup { bias: [0; 4], table: [0; 18], constants: [[[0; 4]; 3]; 3], requant: None };
/// let mut groups = [empty];
/// depthwise_prepare(&[1; 36], Some(&[10, 20, 30, 40]), dims, &params, &mut groups)?;
/// // all nine taps inside: the bias plus 9 (the zero point's −1 times −9)
/// assert_eq!(groups[0].constants[0][0], [19, 29, 39, 49]);
/// // a corner's four taps: plus 4
/// assert_eq!(groups[0].constants[1][1], [14, 24, 34, 44]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depthwise_prepare(
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    groups: &mut [DepthwiseGroup],
) -> Result<(), TfliteError> {
    check(
        dims,
        params,
        None,
        filter.len(),
        bias.map(|b| b.len()),
        None,
    )?;
    if dims.depth_multiplier != 1 || !dims.input_depth.is_multiple_of(4) {
        return Err(TfliteError::KernelParam {
            what: "depthwise convolution's prepared groups",
            value: i64::try_from(dims.input_depth).unwrap_or(i64::MAX),
            rule: "they need depth multiplier 1 and channels by fours",
        });
    }
    if groups.len() != dims.input_depth / 4 {
        return Err(TfliteError::Length {
            what: "prepared groups",
            expected: dims.input_depth / 4,
            actual: groups.len(),
        });
    }
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    for (g, group) in groups.iter_mut().enumerate() {
        *group = dsp::depthwise_group(filter, bias, &dims, params, &stage, g * 4).ok_or(
            TfliteError::Length {
                what: "filter",
                expected: dims.input_depth,
                actual: filter.len(),
            },
        )?;
    }
    Ok(())
}

/// [`depthwise_conv_int8_band`] with its groups of four channels set up
/// once ([`depthwise_prepare`]'s `prepared`): on the DSP loops a band
/// call then costs its pixels alone. Bit for bit
/// [`depthwise_conv_int8_band`] when `prepared` is [`depthwise_prepare`]'s
/// for the same filter, bias and parameters (a `prepared` of another
/// length is not read; one made for other operands gives unspecified
/// values, never a panic). Fails as it does.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_int8_band, depthwise_conv_int8_band_prepared, depthwise_prepare, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup, Rounding};
///
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 3, input_width: 2, input_depth: 4,
///     filter_height: 3, filter_width: 3, depth_multiplier: 1,
///     output_height: 3, output_width: 2,
/// };
/// let multipliers = [quantize_multiplier(0.25)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 1, pad_left: 1,
///     input_zero_point: 3, output_zero_point: -2,
///     multipliers: &multipliers, output_min: -128, output_max: 127,
///     rounding: Rounding::Double,
/// };
/// let filter: Vec<i8> = (0..36).map(|v| (v * 7 % 23 - 11) as i8).collect();
/// let empty = DepthwiseGroup { bias: [0; 4], table: [0; 18], constants: [[[0; 4]; 3]; 3], requant: None };
/// let mut groups = [empty];
/// depthwise_prepare(&filter, None, dims, &params, &mut groups)?;
/// // output row 1 from a ring holding the image's three rows
/// let ring: Vec<i8> = (0..24).map(|v| (v * 5 % 19 - 9) as i8).collect();
/// let (mut plain, mut prepared) = ([0i8; 8], [0i8; 8]);
/// depthwise_conv_int8_band(&ring, 3, 1..2, &filter[..], None::<&[i32]>, dims, &params, &mut plain)?;
/// depthwise_conv_int8_band_prepared(&ring, 3, 1..2, &filter[..], None::<&[i32]>, &groups, dims, &params, &mut prepared)?;
/// assert_eq!(plain, prepared);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn depthwise_conv_int8_band_prepared<F, B>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    prepared: &[DepthwiseGroup],
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    band_checked(
        ring,
        ring_rows,
        rows,
        filter,
        bias,
        Some(prepared),
        dims,
        params,
        output,
    )
}

/// The one body of [`depthwise_conv_int8_band`] and
/// [`depthwise_conv_int8_band_prepared`]: the layer's and the band's
/// checks, then [`depthwise_rows`] (with the prepared groups, if any).
#[allow(clippy::too_many_arguments)]
fn band_checked<F, B>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) -> Result<(), TfliteError>
where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    check(
        dims,
        params,
        None,
        filter.count(),
        bias.map(|b| b.count()),
        None,
    )?;
    check_band(
        dims.batches,
        row_axis(dims, params),
        &rows,
        dims.output_height,
        (ring.len(), ring_rows, &[dims.input_width, dims.input_depth]),
        (
            output.len(),
            &[dims.output_width, dims.input_depth, dims.depth_multiplier],
        ),
    )?;
    depthwise_rows(
        ring, ring_rows, rows, filter, bias, prepared, dims, params, output,
    );
    Ok(())
}

/// A depthwise convolution's vertical window.
fn row_axis(dims: DepthwiseConvDims, params: &DepthwiseConvParams<'_>) -> RowAxis {
    RowAxis {
        stride: params.stride_height,
        pad: params.pad_top,
        dilation: params.dilation_height,
        filter: dims.filter_height,
        size: dims.input_height,
    }
}

/// The one body of [`depthwise_conv_int8_band`] and
/// [`depthwise_conv_int8_prechecked`] (checked by the caller): the DSP
/// loops where the target has them, else the portable loop.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn depthwise_rows<F, B>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    #[cfg(shapecheck_dsp)]
    if let Some(w) = filter.contiguous() {
        depthwise_rows_dsp(
            w, ring, ring_rows, rows, bias, prepared, dims, params, output,
        );
        return;
    }
    // the portable loop sets up nothing per call
    let _ = prepared;
    let step = dims.input_depth.saturating_mul(dims.depth_multiplier);
    depthwise_rows_portable(
        ring, ring_rows, rows, filter, bias, dims, params, output, step,
    );
}

/// The classes of a layer's pixels that [`depthwise_strided`]'s DSP
/// loops run, made once for the layer's calls (a layer in place calls it
/// once per group of four channels, each on the same dims); nothing
/// without the DSP extension.
#[derive(Clone, Copy)]
pub(crate) struct StridedRuns {
    #[cfg(shapecheck_dsp)]
    classes: Option<dsp::RunClasses>,
}

impl StridedRuns {
    /// The classes of a layer of `dims` and `params` whose output's
    /// pixels lie `out_step` values apart.
    pub(crate) fn new(
        dims: DepthwiseConvDims,
        params: &DepthwiseConvParams<'_>,
        out_step: usize,
    ) -> Self {
        #[cfg(not(shapecheck_dsp))]
        let _ = (dims, params, out_step);
        StridedRuns {
            #[cfg(shapecheck_dsp)]
            classes: dsp::RunClasses::new(
                &DepthwiseConvDims { batches: 1, ..dims },
                params,
                out_step,
            ),
        }
    }
}

/// A whole layer of depth multiplier 1 over `image` (all its rows), its
/// output's pixels `out_step` values apart: a group of channels written
/// straight into a wider tensor, which `output` starts at (an in-place
/// layer's group, whose input the caller has copied out), no other value
/// of `output` touched. On the DSP loops where they take it (with
/// `runs`, [`StridedRuns::new`] of the same `dims`, `params` and
/// `out_step`), else the portable loop. The caller has checked the layer
/// as [`depthwise_conv_int8_band`] does and that `output` holds `(pixels −
/// 1) · out_step + depth` values, `out_step` at least the depth.
#[allow(clippy::too_many_arguments)]
pub(crate) fn depthwise_strided<B: Values<i32> + ?Sized>(
    runs: &StridedRuns,
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
    out_step: usize,
) {
    let dims = DepthwiseConvDims { batches: 1, ..dims };
    #[cfg(shapecheck_dsp)]
    {
        let stage = OutputStage::new(
            params.rounding,
            params.output_zero_point,
            params.output_min,
            params.output_max,
        );
        let classes = runs.classes.as_ref();
        if dsp::depthwise_with(
            classes, image, filter, bias, prepared, &dims, params, &stage, output, out_step,
        )
        .is_some()
        {
            return;
        }
    }
    let _ = (runs, prepared);
    let (rows, all) = (dims.input_height, 0..dims.output_height);
    depthwise_rows_portable(
        image, rows, all, filter, bias, dims, params, output, out_step,
    );
}

/// [`depthwise_rows`] on the DSP loops: the band split into runs of
/// output rows whose input rows lie contiguous in the ring, each run the
/// whole layer over those input rows (its padding above moved to where
/// the run starts), on [`dsp`]'s loops where they take it; a run
/// they decline, or one row whose window wraps past the ring's end, on
/// the portable loop.
#[cfg(any(shapecheck_dsp, test))]
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn depthwise_rows_dsp<B: Values<i32> + ?Sized>(
    w: &[i8],
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
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
    let out_row = dims
        .output_width
        .saturating_mul(dims.input_depth)
        .saturating_mul(dims.depth_multiplier);
    // the whole-tensor kernel (every row, the ring the image): the image
    // as it is, no run to find
    if ring_rows == dims.input_height && rows.start == 0 && rows.end == dims.output_height {
        let whole = DepthwiseConvDims { batches: 1, ..dims };
        let done =
            dsp::depthwise_as_conv(ring, w, bias, &whole, params, &stage, output).or_else(|| {
                dsp::depthwise(
                    ring,
                    w,
                    bias,
                    prepared,
                    &whole,
                    params,
                    &stage,
                    output,
                    dims.input_depth,
                )
            });
        if done.is_none() {
            let step = dims.input_depth.saturating_mul(dims.depth_multiplier);
            depthwise_rows_portable(ring, ring_rows, rows, w, bias, dims, params, output, step);
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
            let dims = DepthwiseConvDims {
                batches: 1,
                input_height: n.len(),
                output_height: run.len(),
                ..dims
            };
            let params = DepthwiseConvParams {
                pad_top: (params.pad_top + n.start)
                    .checked_sub(run.start.checked_mul(params.stride_height)?)?,
                ..*params
            };
            // one input channel (a first layer): the convolution it is,
            // im2col; else depth multiplier 1, channels by fours
            dsp::depthwise_as_conv(image, w, bias, &dims, &params, &stage, out).or_else(|| {
                let depth = dims.input_depth;
                dsp::depthwise(image, w, bias, prepared, &dims, &params, &stage, out, depth)
            })
        });
        if done.is_none() {
            let out = output.get_mut(at..end).unwrap_or(&mut []);
            let step = dims.input_depth.saturating_mul(dims.depth_multiplier);
            let run = run.clone();
            depthwise_rows_portable(ring, ring_rows, run, w, bias, dims, params, out, step);
        }
        next = run.end;
    }
}

/// The portable loop of [`depthwise_rows`]: output rows `rows`, the input
/// rows from a ring of `ring_rows` ([`RingRows`]: one division per output
/// row).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn depthwise_rows_portable<F, B>(
    ring: &[i8],
    ring_rows: usize,
    rows: Range<usize>,
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
    out_step: usize,
) where
    F: Values<i8> + ?Sized,
    B: Values<i32> + ?Sized,
{
    let DepthwiseConvDims {
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        depth_multiplier,
        output_width,
        ..
    } = dims;
    // checked by the caller: every product below is at most a checked length
    let output_depth = input_depth.saturating_mul(depth_multiplier);
    // a filter with no taps: each output is its bias alone (and a huge dim
    // beside a 0 must not be looped over)
    let (filter_height, filter_width) = if filter.count() == 0 {
        (0, 0)
    } else {
        (filter_height, filter_width)
    };
    let per_channel = params.multipliers.len() != 1;
    let stage = OutputStage::new(
        params.rounding,
        params.output_zero_point,
        params.output_min,
        params.output_max,
    );
    let zero_point = params.input_zero_point;
    let axis = RowAxis {
        filter: filter_height,
        size: input_height,
        ..row_axis(dims, params)
    };
    // each output pixel's values, `out_step` apart
    let mut pixels = output.chunks_mut(out_step.max(1));
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
            let taps = Taps {
                rows,
                cols,
                image: ring,
                input_width,
                input_depth,
                zero_point,
                filter_width,
                output_depth,
            };
            // the output channels of each input channel, BLOCK at a
            // time: one input value read per tap for all of them
            for ic in 0..input_depth {
                let mut m = 0;
                while m < depth_multiplier {
                    let n = BLOCK.min(depth_multiplier - m);
                    let oc = ic * depth_multiplier + m;
                    let mut acc = [0i32; BLOCK];
                    if n == BLOCK {
                        taps.each(ic, |x, at| {
                            if let Some(f) = filter.chunk::<BLOCK>(at + oc) {
                                mac_block(&mut acc, x, f);
                            }
                        });
                    } else {
                        taps.each(ic, |x, at| {
                            for (j, a) in acc.iter_mut().take(n).enumerate() {
                                let f = filter.at(at + oc + j).unwrap_or(0);
                                *a = a.wrapping_add(x.wrapping_mul(i32::from(f)));
                            }
                        });
                    }
                    let outs = pixel.get_mut(oc..oc + n).unwrap_or(&mut []);
                    for (j, (out, &a)) in outs.iter_mut().zip(&acc).enumerate() {
                        let c = oc + j;
                        let a = match bias.and_then(|b| b.at(c)) {
                            Some(b) => a.wrapping_add(b),
                            None => a,
                        };
                        let multiplier = params
                            .multipliers
                            .get(if per_channel { c } else { 0 })
                            .copied()
                            .unwrap_or(QuantizedMultiplier::ZERO);
                        *out = stage.apply(a, Scale::new(multiplier));
                    }
                    m += n;
                }
            }
        }
    }
}

/// The taps of one output pixel inside the input, and what reading them
/// needs.
struct Taps<'a> {
    rows: RingRows,
    cols: Window,
    /// the image's rows, or a ring of them, `[rows, width, depth]`
    image: &'a [i8],
    input_width: usize,
    input_depth: usize,
    zero_point: i32,
    filter_width: usize,
    output_depth: usize,
}

impl Taps<'_> {
    /// Calls `f(x − x_zp, offset)` for each tap inside the input, in order,
    /// with the input value of channel `ic` and the offset of the tap's
    /// first channel in the filter.
    #[inline(always)]
    fn each(&self, ic: usize, mut f: impl FnMut(i32, usize)) {
        // the ring's two runs of rows, each a plain loop
        for run in self.rows.runs() {
            for (ky, iy) in run.taps() {
                for (kx, ix) in self.cols.taps() {
                    let x = self
                        .image
                        .get((iy * self.input_width + ix) * self.input_depth + ic)
                        .copied()
                        .unwrap_or(0);
                    f(
                        i32::from(x).wrapping_sub(self.zero_point),
                        (ky * self.filter_width + kx) * self.output_depth,
                    );
                }
            }
        }
    }
}

/// `acc[j] += x · f[j]` for the block, written out: at opt-level `s` the
/// optimizer keeps a loop over the block, and the accumulators in memory.
#[inline(always)]
fn mac_block(acc: &mut [i32; BLOCK], x: i32, f: [i8; BLOCK]) {
    let mac = |a: i32, f: i8| a.wrapping_add(x.wrapping_mul(i32::from(f)));
    *acc = [
        mac(acc[0], f[0]),
        mac(acc[1], f[1]),
        mac(acc[2], f[2]),
        mac(acc[3], f[3]),
        mac(acc[4], f[4]),
        mac(acc[5], f[5]),
        mac(acc[6], f[6]),
        mac(acc[7], f[7]),
    ];
}

/// Output channels accumulated together, in registers: a depth multiplier
/// of 8 (speech.tflite's) is one block.
const BLOCK: usize = 8;

/// TFLite's `DEPTHWISE_CONV_2D` in 16x8 mode (TFLite Micro's
/// `reference_integer_ops::DepthwiseConvPerChannel` for int16 input, int8
/// filter and int64 bias): as [`depthwise_conv_int8`], with the
/// accumulator `acc = Σ x · f + bias[oc]` in `i64` (the zero points are 0)
/// and `y = multiply_by_quantized_multiplier_int64(acc, M_oc) + out_zp`
/// ([`multiply_by_quantized_multiplier_int64`](crate::multiply_by_quantized_multiplier_int64):
/// one rounding, so `params.rounding` is not read), clamped to
/// `[output_min, output_max]` and to int16.
///
/// Fails, with `output` untouched, as [`depthwise_conv_int8`] does, and
/// when the input's or the output's zero point is not 0.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_int16, quantize_multiplier, DepthwiseConvDims, DepthwiseConvParams, Rounding};
///
/// // a 2×2 single-channel image, a 2×2 filter of ones, VALID: one output, the sum
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 2, input_width: 2, input_depth: 1,
///     filter_height: 2, filter_width: 2, depth_multiplier: 1,
///     output_height: 1, output_width: 1,
/// };
/// let multipliers = [quantize_multiplier(0.5)?];
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: &multipliers, output_min: -32768, output_max: 32767,
///     rounding: Rounding::Double,
/// };
/// let mut out = [0i16; 1];
/// depthwise_conv_int16(&[1000, 2000, 3000, 4000], &[1, 1, 1, 1], Some(&[2i64]), dims, &params, &mut out)?;
/// assert_eq!(out, [5001]); // (10000 + 2) · 0.5
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depthwise_conv_int16<F, B>(
    input: &[i16],
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i16],
) -> Result<(), TfliteError>
where
    F: Values<i8> + ?Sized,
    B: Values<i64> + ?Sized,
{
    check(
        dims,
        params,
        Some(input.len()),
        filter.count(),
        bias.map(|b| b.count()),
        Some(output.len()),
    )?;
    crate::ops::conv::zero_points_16x8(params.input_zero_point, params.output_zero_point)?;
    let DepthwiseConvDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        depth_multiplier,
        output_height,
        output_width,
    } = dims;
    if output.is_empty() {
        return Ok(());
    }
    // checked above: every product below is at most a checked length
    let output_depth = input_depth * depth_multiplier;
    // a filter with no taps: each output is its bias alone
    let (filter_height, filter_width) = if filter.count() == 0 {
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
    let image_len = input_height * input_width * input_depth;
    let mut pixels = output.chunks_exact_mut(output_depth.max(1));
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
                    let ic = oc / depth_multiplier;
                    let mut acc = 0i64;
                    for (ky, iy) in rows.taps() {
                        for (kx, ix) in cols.taps() {
                            let x = image.get((iy * input_width + ix) * input_depth + ic);
                            let f = filter.at((ky * filter_width + kx) * output_depth + oc);
                            if let (Some(&x), Some(f)) = (x, f) {
                                acc += i64::from(x) * i64::from(f);
                            }
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

/// Checks a depthwise convolution's lengths and parameters.
fn check(
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    input: Option<usize>,
    filter: usize,
    bias: Option<usize>,
    output: Option<usize>,
) -> Result<(), TfliteError> {
    for (what, value) in [
        ("depth multiplier", dims.depth_multiplier),
        ("stride (height)", params.stride_height),
        ("stride (width)", params.stride_width),
        ("dilation (height)", params.dilation_height),
        ("dilation (width)", params.dilation_width),
    ] {
        if value == 0 {
            return Err(TfliteError::KernelParam {
                what,
                value: 0,
                rule: "it must be at least 1",
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
    let product = |what: &'static str, factors: &[usize]| {
        factors
            .iter()
            .try_fold(1usize, |acc, &f| acc.checked_mul(f))
            .ok_or(TfliteError::Length {
                what,
                expected: usize::MAX,
                actual: 0,
            })
    };
    let length = |what: &'static str, expected: usize, actual: usize| {
        if expected == actual {
            Ok(())
        } else {
            Err(TfliteError::Length {
                what,
                expected,
                actual,
            })
        }
    };
    let output_depth = product("output", &[dims.input_depth, dims.depth_multiplier])?;
    let in_len = product(
        "input",
        &[
            dims.batches,
            dims.input_height,
            dims.input_width,
            dims.input_depth,
        ],
    )?;
    let filter_len = product(
        "filter",
        &[dims.filter_height, dims.filter_width, output_depth],
    )?;
    let out_len = product(
        "output",
        &[
            dims.batches,
            dims.output_height,
            dims.output_width,
            output_depth,
        ],
    )?;
    if let Some(input) = input {
        length("input", in_len, input)?;
    }
    length("filter", filter_len, filter)?;
    if let Some(output) = output {
        length("output", out_len, output)?;
    }
    if let Some(bias) = bias {
        length("bias", output_depth, bias)?;
    }
    if params.multipliers.len() != 1 {
        length("multipliers", output_depth, params.multipliers.len())?;
    }
    Ok(())
}

/// `DEPTHWISE_CONV_2D`'s options table in the schema's `BuiltinOptions` union.
const DEPTHWISE_CONV_2D_OPTIONS: u8 = 2;

/// Reads `DEPTHWISE_CONV_2D`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<DepthwiseConv2dOptions, TfliteError> {
    let t = r.table(DEPTHWISE_CONV_2D_OPTIONS, "DepthwiseConv2DOptions")?;
    let (pad, sw, sh, mult, act, dw, dh) = match t {
        Some(t) => (
            t.i8(0, 0).map_err(r.fault("padding"))?,
            t.i32(1, 0).map_err(r.fault("stride_w"))?,
            t.i32(2, 0).map_err(r.fault("stride_h"))?,
            t.i32(3, 0).map_err(r.fault("depth_multiplier"))?,
            t.i8(4, 0).map_err(r.fault("fused_activation_function"))?,
            t.i32(5, 1).map_err(r.fault("dilation_w_factor"))?,
            t.i32(6, 1).map_err(r.fault("dilation_h_factor"))?,
        ),
        None => (0, 0, 0, 0, 0, 1, 1),
    };
    Ok(DepthwiseConv2dOptions {
        padding: Padding::from_schema(pad).ok_or(r.enum_value(pad, "padding"))?,
        stride_w: r.at_least_1(sw, "stride_w")?,
        stride_h: r.at_least_1(sh, "stride_h")?,
        depth_multiplier: mult,
        fused_activation: Activation::from_schema(act)
            .ok_or(r.enum_value(act, "fused_activation_function"))?,
        dilation_w: r.at_least_1(dw, "dilation_w_factor")?,
        dilation_h: r.at_least_1(dh, "dilation_h_factor")?,
    })
}

// The op's shape rule: its output's shape from its operands and
// options (its row's `output_shape`, which the interpreter and `model!`
// call).

/// `DEPTHWISE_CONV_2D`: an NHWC input `[B, H, W, C]` and a filter
/// `[1, KH, KW, C·M]` give `[B, OH, OW, C·M]`.
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Ok(o) = read_options(&op.raw_options()) else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::format::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "DepthwiseConv2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let filter = operand(model, op, 1, "filter")?;
    let x = need_rank(op, "input", &input, 4)?;
    let f = need_rank(op, "filter", &filter, 4)?;
    let (input_depth, output_depth) = (x.dims[3], f.dims[3]);
    if f.dims[0] != 1 || input_depth == 0 || !output_depth.is_multiple_of(input_depth) {
        return Err(TfliteError::KernelParam {
            what: "depthwise convolution's output channels",
            value: i64::try_from(output_depth).unwrap_or(i64::MAX),
            rule: "they must be a multiple of the input channels, the filter [1, kh, kw, c]",
        });
    }
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (f.dims[1], f.dims[2]),
        (size(o.stride_h), size(o.stride_w)),
        (size(o.dilation_h), size(o.dilation_w)),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, output_depth, 0, 0],
        rank: 4,
    })
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// Its row's `multipliers`: one per output channel, the filter's dim 3.
pub(crate) fn multipliers(model: &Model<'_>, op: &Operator<'_>) -> usize {
    crate::kernel::shape::weight_channels(model, op, 3)
}

/// `DEPTHWISE_CONV_2D`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare<'m, S: From<DepthwiseConvStep<'m>> + From<DepthwiseConvF32Step<'m>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let Ok(options) = read_options(&c.op.raw_options()) else {
        return Err(c.unsupported());
    };
    if c.input(0, "input")?.dtype() == TensorType::Float32 {
        return check_conv_f32(c, |input, filter| {
            depthwise_geometry(c, options, input, filter)
        })
        .map(S::from);
    }
    check_conv(
        c,
        |input, filter| depthwise_geometry(c, options, input, filter),
        scratch,
    )
    .map(S::from)
}

/// `DEPTHWISE_CONV_2D`'s interpreter step: the family's step with its
/// dims.
#[doc(hidden)]
pub type DepthwiseConvStep<'m> = ConvStep<'m, DepthwiseConvDims>;

impl ConvKernel for DepthwiseConvDims {
    fn run_int8(
        l: &ConvLayer<'_, i32, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i8],
        y: &mut [i8],
    ) -> Result<(), TfliteError> {
        let params = depthwise_params(l, multipliers);
        depthwise_conv_int8(x, &l.filter, l.bias.as_ref(), l.dims, &params, y)
    }

    fn run_int16(
        l: &ConvLayer<'_, i64, Self>,
        multipliers: &[QuantizedMultiplier],
        x: &[i16],
        y: &mut [i16],
    ) -> Result<(), TfliteError> {
        let params = depthwise_params(l, multipliers);
        depthwise_conv_int16(x, &l.filter, l.bias.as_ref(), l.dims, &params, y)
    }
}

/// A `DEPTHWISE_CONV_2D` layer's kernel parameters, its multipliers those
/// `prepare` wrote.
fn depthwise_params<'b, B: LeNumber>(
    l: &ConvLayer<'_, B, DepthwiseConvDims>,
    multipliers: &'b [QuantizedMultiplier],
) -> DepthwiseConvParams<'b> {
    let q = &l.quantization;
    DepthwiseConvParams {
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

/// `DepthwiseConv2DOptions`, NHWC; strides and dilations checked to be at
/// least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::DepthwiseConv2d(o) = model.operator(1).unwrap().options() else { panic!() };
/// assert_eq!((o.dilation_h, o.dilation_w, o.fused_activation), (1, 1, Activation::Relu));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DepthwiseConv2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `depth_multiplier` (output channels per input channel; newer TFLite
    /// derives it from the shapes)
    pub depth_multiplier: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `dilation_w_factor`
    pub dilation_w: i32,
    /// `dilation_h_factor`
    pub dilation_h: i32,
}
/// `DEPTHWISE_CONV_2D`'s geometry and its own checks: NHWC input, int8
/// filter `[1, KH, KW, C·M]` with zero point 0, per-tensor or per-channel
/// (axis 3), output channels a multiple of the input's, the
/// `depth_multiplier` option (0 in older files: from the shapes alone) the
/// filter's channels over the input's.
fn depthwise_geometry(
    c: &Checker<'_>,
    options: DepthwiseConv2dOptions,
    input: &ModelTensor<'_>,
    filter: &ModelTensor<'_>,
) -> Result<ConvGeometry<DepthwiseConvDims>, TfliteError> {
    for (name, t) in [("input", input), ("filter", filter), ("output", &c.output)] {
        c.rank(name, t, 4)?;
    }
    c.dim("filter", filter, 0, 1)?;
    let input_depth = dim(input, 3);
    let output_depth = dim(filter, 3);
    if input_depth == 0 || !output_depth.is_multiple_of(input_depth) {
        return Err(TfliteError::KernelParam {
            what: "depthwise convolution's output channels",
            value: i64::try_from(output_depth).unwrap_or(i64::MAX),
            rule: "they must be a multiple of the input channels",
        });
    }
    let depth_multiplier = output_depth / input_depth;
    if options.depth_multiplier != 0
        && usize::try_from(options.depth_multiplier).ok() != Some(depth_multiplier)
    {
        return Err(TfliteError::KernelParam {
            what: "depthwise convolution's depth_multiplier option",
            value: i64::from(options.depth_multiplier),
            rule: "it must be the filter's channels over the input's",
        });
    }
    // checked at least 1 by Model::parse; the output's shape was checked
    // against the op's rule before
    let size = |v: i32| usize::try_from(v).unwrap_or(0);
    Ok(ConvGeometry {
        padding: options.padding,
        window: (dim(filter, 1), dim(filter, 2)),
        strides: (size(options.stride_h), size(options.stride_w)),
        dilations: (size(options.dilation_h), size(options.dilation_w)),
        activation: options.fused_activation,
        channel_axis: 3,
        output_depth,
        dims: |input, filter, rows, columns| {
            let input_depth = dim(input, 3);
            DepthwiseConvDims {
                batches: dim(input, 0),
                input_height: dim(input, 1),
                input_width: dim(input, 2),
                input_depth,
                filter_height: dim(filter, 1),
                filter_width: dim(filter, 2),
                depth_multiplier: dim(filter, 3).checked_div(input_depth).unwrap_or(0),
                output_height: rows,
                output_width: columns,
            }
        },
    })
}

// The f32 kernel: TFLite Micro's float `DEPTHWISE_CONV_2D`
// (`reference_ops::DepthwiseConv`).

/// TFLite's f32 `DEPTHWISE_CONV_2D` (TFLite Micro's
/// `reference_ops::DepthwiseConv`). Output channel
/// `oc = ic · depth_multiplier + m` of pixel `(oy, ox)` is, in `f32` with
/// one rounding per operation and in this order,
/// `((0 + Σ_{ky} Σ_{kx} x[iy, ix, ic] · f[ky, kx, oc]) + bias[oc])` (the
/// sum from `+0.0`, taps by filter row, then column;
/// `iy = oy · stride_h − pad_top + ky · dilation_h`, `ix` likewise; taps
/// outside the input skipped; `+ 0.0` without a bias), then clamped as
/// TFLite's `ActivationFunctionWithMinMax` clamps (C++'s `std::max`, then
/// `std::min`: a NaN stays NaN, `−0.0` stays `−0.0` against `+0.0`). The
/// result is TFLite Micro's to the bit, the sign of zero included (Rust
/// never fuses a multiply and an add). Blocks of output channels are
/// computed together, each sum still in its own order.
///
/// Fails, with `output` untouched, when a length does not match `dims`
/// (the filter's is `filter_height · filter_width · input_depth ·
/// depth_multiplier`, the bias's and the output's channels
/// `input_depth · depth_multiplier`), the depth multiplier, a stride or a
/// dilation is 0, or the clamp is empty or NaN.
///
/// ```
/// use shapecheck_tflite::{depthwise_conv_f32, ConvF32Params, DepthwiseConvDims};
///
/// // a 2×2 image of one channel, a 2×2 filter, depth multiplier 2, VALID
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 2, input_width: 2, input_depth: 1,
///     filter_height: 2, filter_width: 2, depth_multiplier: 2,
///     output_height: 1, output_width: 1,
/// };
/// let params = ConvF32Params {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0, output_min: 0.0, output_max: 6.0, // ReLU6
/// };
/// // filter [ky, kx, oc]: channel 0 all ones, channel 1 all −1
/// let filter = [1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0];
/// let mut out = [0.0f32; 2];
/// depthwise_conv_f32(&[1.0, 2.0, 3.0, 4.0], &filter, Some(&[-5.0, 0.5]), dims, &params, &mut out)?;
/// assert_eq!(out, [5.0, 0.0]); // 10 − 5; −10 + 0.5 clamped to 0
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn depthwise_conv_f32<F, B>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    params: &ConvF32Params,
    output: &mut [f32],
) -> Result<(), TfliteError>
where
    F: Values<f32> + ?Sized,
    B: Values<f32> + ?Sized,
{
    at_least_1("depth multiplier", dims.depth_multiplier)?;
    check_f32_params(params)?;
    let output_depth = product("output", &[dims.input_depth, dims.depth_multiplier])?;
    let filter_len = product(
        "filter",
        &[dims.filter_height, dims.filter_width, output_depth],
    )?;
    length("filter", filter_len, filter.count())?;
    if let Some(bias) = bias {
        length("bias", output_depth, bias.count())?;
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
            output_depth,
        ],
    )?;
    length("input", in_len, input.len())?;
    length("output", out_len, output.len())?;
    match filter.contiguous() {
        Some(f) if dims.depth_multiplier == 1 => {
            depthwise_f32_slices(input, f, bias, dims, params, output)
        }
        Some(f) => depthwise_f32_loop(input, f, bias, dims, params, output),
        None => depthwise_f32_loop(input, filter, bias, dims, params, output),
    }
    Ok(())
}

/// The slice path of [`depthwise_conv_f32`] for a depth multiplier of 1
/// (checked by the caller): 2 output pixels of a row whose valid taps
/// are the same at once (else 1), their channels in blocks of
/// [`DW_CHANNELS`] (each weight
/// loaded once for all the pixels, the sums in registers), then the
/// channels past the last block one by one; every sum still from `+0.0`
/// over (ky, kx) in TFLite's order, bias last, then the clamp.
fn depthwise_f32_slices<B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &[f32],
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    p: &ConvF32Params,
    output: &mut [f32],
) {
    let DepthwiseConvDims {
        batches,
        input_height,
        input_width,
        input_depth: depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        ..
    } = dims;
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
                // how many pixels from `ox` on share its valid taps
                let mut pixels = 1;
                while pixels < 2 && ox + pixels < output_width && kx_of(ox + pixels) == kx {
                    pixels += 1;
                }
                let Some(out) = output.get_mut(out_at..out_at + pixels * depth) else {
                    return;
                };
                let at = DwPixels {
                    image,
                    oy,
                    ox,
                    ky: ky.clone(),
                    kx,
                };
                match pixels {
                    2 => depthwise_f32_pixels::<2, B>(input, filter, bias, &dims, p, &at, out),
                    _ => depthwise_f32_pixels::<1, B>(input, filter, bias, &dims, p, &at, out),
                }
                out_at += pixels * depth;
                ox += pixels;
            }
        }
    }
}

/// Where a run of output pixels of one row is: its image's start in the
/// input, the row, the first pixel's column, and the valid taps they share.
struct DwPixels {
    image: usize,
    oy: usize,
    ox: usize,
    ky: Range<usize>,
    kx: Range<usize>,
}

/// Channels of the f32 depthwise slice path computed together: 8 × 2
/// pixels measured best on the Cortex-M4F (4 × 4 and 16 × 1 spill or load
/// more; docs/measurements.md).
const DW_CHANNELS: usize = 8;

/// `P` neighbouring output pixels of a depthwise convolution with a depth
/// multiplier of 1, all with the valid taps of `at`, into `out` (their `P`
/// runs of channels): see [`depthwise_f32_slices`].
fn depthwise_f32_pixels<const P: usize, B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &[f32],
    bias: Option<&B>,
    dims: &DepthwiseConvDims,
    p: &ConvF32Params,
    at: &DwPixels,
    out: &mut [f32],
) {
    let depth = dims.input_depth;
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    let bias_at = |oc: usize| bias.and_then(|b| b.at(oc)).unwrap_or(0.0);
    // the input offset of pixel `i`'s tap (ky, kx), its channel 0; the
    // valid taps are inside, so the subtractions never go below 0
    let pixel_step = p.stride_width * depth;
    let row_at = |ky: usize| {
        let iy = (at.oy * p.stride_height + ky * p.dilation_height).saturating_sub(p.pad_top);
        at.image + iy * dims.input_width * depth
    };
    let column_at = |kx: usize| {
        (at.ox * p.stride_width + kx * p.dilation_width).saturating_sub(p.pad_left) * depth
    };
    let tap_at = |ky: usize, kx: usize| (ky * dims.filter_width + kx) * depth;
    let x_step = p.dilation_width * depth;
    let mut c = 0;
    while c + DW_CHANNELS <= depth {
        let mut acc = [[0.0f32; DW_CHANNELS]; P];
        for ky in at.ky.clone() {
            // tap (ky, kx.start)'s input and weights, then a tap further on
            let mut x_tap = row_at(ky) + column_at(at.kx.start) + c;
            let mut w_tap = tap_at(ky, at.kx.start) + c;
            for _ in at.kx.clone() {
                if let Some(w) = filter.chunk::<DW_CHANNELS>(w_tap) {
                    let mut x_at = x_tap;
                    for sums in acc.iter_mut() {
                        if let Some(x) = input.chunk::<DW_CHANNELS>(x_at) {
                            for ((sum, x), w) in sums.iter_mut().zip(x).zip(w) {
                                *sum += x * w;
                            }
                        }
                        x_at += pixel_step;
                    }
                }
                x_tap += x_step;
                w_tap += depth;
            }
        }
        // the block's biases, read once (`+ 0.0` without one)
        let biases = bias
            .and_then(|b| b.chunk::<DW_CHANNELS>(c))
            .unwrap_or([0.0; DW_CHANNELS]);
        for (i, sums) in acc.into_iter().enumerate() {
            let ys = out
                .get_mut(i * depth + c..i * depth + c + DW_CHANNELS)
                .unwrap_or(&mut []);
            for ((y, total), b) in ys.iter_mut().zip(sums).zip(biases) {
                *y = clamp(total + b);
            }
        }
        c += DW_CHANNELS;
    }
    while c < depth {
        for i in 0..P {
            let mut total = 0.0f32;
            for ky in at.ky.clone() {
                let row = row_at(ky) + c + i * pixel_step;
                for kx in at.kx.clone() {
                    let x = input.get(row + column_at(kx)).copied().unwrap_or(0.0);
                    let w = filter.get(tap_at(ky, kx) + c).copied().unwrap_or(0.0);
                    total += x * w;
                }
            }
            if let Some(y) = out.get_mut(i * depth + c) {
                *y = clamp(total + bias_at(c));
            }
        }
        c += 1;
    }
}

/// Output channels the f32 depthwise convolution computes together.
const F32_BLOCK: usize = 4;

/// The loop of [`depthwise_conv_f32`] (checked by the caller): for each
/// output pixel, its channels in blocks of [`F32_BLOCK`] and then one by
/// one, each channel's sum in TFLite's order.
fn depthwise_f32_loop<F: Values<f32> + ?Sized, B: Values<f32> + ?Sized>(
    input: &[f32],
    filter: &F,
    bias: Option<&B>,
    dims: DepthwiseConvDims,
    p: &ConvF32Params,
    output: &mut [f32],
) {
    let DepthwiseConvDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        depth_multiplier,
        output_height,
        output_width,
    } = dims;
    let output_depth = input_depth * depth_multiplier;
    let clamp = |y: f32| crate::shared::float_ops::clamp_f32(y, p.output_min, p.output_max);
    let bias_at = |oc: usize| bias.and_then(|b| b.at(oc)).unwrap_or(0.0);
    let mut pixels = output.chunks_exact_mut(output_depth.max(1));
    for b in 0..batches {
        let image = b * input_height * input_width * input_depth;
        for oy in 0..output_height {
            for ox in 0..output_width {
                let Some(out) = pixels.next() else {
                    return;
                };
                // the input pixel (its start) and the filter offset of
                // each tap inside the input, in TFLite's order
                let taps = f32_taps(
                    p,
                    (oy, ox),
                    (input_height, input_width),
                    (filter_height, filter_width),
                )
                .map(|(pixel, tap)| (image + pixel * input_depth, tap * output_depth));
                let mut oc = 0;
                let mut blocks = out.chunks_exact_mut(F32_BLOCK);
                for ys in &mut blocks {
                    // each channel's input channel
                    let ics: [usize; F32_BLOCK] =
                        core::array::from_fn(|j| (oc + j) / depth_multiplier);
                    let mut acc = [0.0f32; F32_BLOCK];
                    for (start, f_at) in taps.clone() {
                        let (Some(pixel), Some(fs)) = (
                            input.get(start..start + input_depth),
                            filter.chunk::<F32_BLOCK>(f_at + oc),
                        ) else {
                            continue;
                        };
                        for ((total, &ic), w) in acc.iter_mut().zip(&ics).zip(fs) {
                            let x = pixel.get(ic).copied().unwrap_or(0.0);
                            *total += x * w;
                        }
                    }
                    for (j, (y, total)) in ys.iter_mut().zip(acc).enumerate() {
                        *y = clamp(total + bias_at(oc + j));
                    }
                    oc += F32_BLOCK;
                }
                for y in blocks.into_remainder() {
                    let ic = oc / depth_multiplier;
                    let mut total = 0.0f32;
                    for (start, f_at) in taps.clone() {
                        if let (Some(&x), Some(w)) = (input.get(start + ic), filter.at(f_at + oc)) {
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

/// `DEPTHWISE_CONV_2D`'s f32 interpreter step.
#[doc(hidden)]
pub type DepthwiseConvF32Step<'m> = ConvF32Step<'m, DepthwiseConvDims>;

impl ConvKernelF32 for DepthwiseConvDims {
    fn run_f32(l: &ConvF32Step<'_, Self>, x: &[f32], y: &mut [f32]) -> Result<(), TfliteError> {
        depthwise_conv_f32(x, &l.filter, l.bias.as_ref(), l.dims, &l.params, y)
    }
}
