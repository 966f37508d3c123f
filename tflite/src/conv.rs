//! TFLite's int8 `CONV_2D` kernel on slices: TFLite Micro's
//! `reference_integer_ops::ConvPerChannel` (per-channel or per-tensor
//! requantization with the double rounding, the fused activation's clamp).

use crate::error::TfliteError;
use crate::quant::{OutputStage, QuantizedMultiplier, Rounding, Scale};
use crate::values::Values;
use crate::window::{at_least_1, length, product, Window};

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
    check(
        dims,
        params,
        input.len(),
        filter.count(),
        bias.map(|b| b.count()),
        output.len(),
    )?;
    conv_2d_int8_prechecked(input, filter, bias, dims, params, output);
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
    if output.is_empty() {
        // nothing to write, however many rows or images
        return;
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
    // checked by the caller: neither overflows (each is 0 or divides a length)
    let kernel_len = filter_height
        .saturating_mul(filter_width)
        .saturating_mul(input_depth);
    let image_len = input_height
        .saturating_mul(input_width)
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
    // a 1×1 convolution of stride 1 without padding is a matrix product
    // (pixels × channels): the SMLAD loops where the target has them
    #[cfg(shapecheck_dsp)]
    if filter_height == 1
        && filter_width == 1
        && params.stride_height == 1
        && params.stride_width == 1
        && params.pad_top == 0
        && params.pad_left == 0
        && (output_height, output_width) == (input_height, input_width)
    {
        if let Some(w) = filter.contiguous() {
            let done = crate::dsp::matmul(
                input,
                w,
                bias,
                input_depth,
                zero_point,
                params.multipliers,
                &stage,
                output,
            );
            if done.is_some() {
                return;
            }
        }
    }
    // a small filter on few channels (a first layer): im2col and the same
    // SMLAD block
    #[cfg(shapecheck_dsp)]
    if let Some(w) = filter.contiguous() {
        if crate::dsp::conv_im2col(input, w, bias, &dims, params, &stage, output).is_some() {
            return;
        }
    }
    let mut pixels = output.chunks_exact_mut(output_depth.max(1));
    // checked: with a filter tap, every index below is inside a length
    for batch in 0..batches {
        let image = input
            .get(batch * image_len..(batch + 1) * image_len)
            .unwrap_or(&[]);
        for oy in 0..output_height {
            // the filter rows inside the input, found once per output row
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
                    for (ky, iy) in rows.taps() {
                        let row = iy * input_width;
                        let filter_row = oc * filter_height + ky;
                        for (kx, ix) in cols.taps().step_by(step) {
                            let x = (row + ix) * input_depth;
                            let f = (filter_row * filter_width + kx) * input_depth;
                            let xs = image.get(x..x + run).unwrap_or(&[]);
                            acc = dot(acc, xs, filter.run(f, f + run), zero_point);
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
        &[
            dims.output_depth,
            dims.filter_height,
            dims.filter_width,
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
    length("filter", filter_len, filter)?;
    length("output", out_len, output)?;
    if let Some(bias) = bias {
        length("bias", dims.output_depth, bias)?;
    }
    if params.multipliers.len() != 1 {
        length("multipliers", dims.output_depth, params.multipliers.len())?;
    }
    Ok(())
}
