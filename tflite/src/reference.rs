//! The int8 kernels written once, plainly, as TFLite Micro's reference
//! kernels write them (`reference_integer_ops::ConvPerChannel`,
//! `DepthwiseConvPerChannel`, `FullyConnected`, `AveragePool`, `MaxPool`,
//! `AddElementwise`, and the output stage they share): the one reference every test of a
//! kernel checks against (issue 69). The host's property tests
//! (`tests/band.rs`, `tests/kernels.rs`, `tests/prechecked.rs`,
//! `tests/fully_connected.rs`, the DSP twins' unit tests) and the firmware
//! tests on QEMU (`embedded/tests/dsp_kernels.rs`, `band_kernels.rs`) call
//! these functions, so a wrong portable loop, plain twin or `asm!` block
//! fails against the same arithmetic everywhere.
//!
//! Not an API, and built only with feature `reference` (off by default;
//! the crate's own tests and the firmware tests turn it on): no checks,
//! no speed. Each function indexes its slices
//! directly and panics when a length does not match its dims (a test's
//! mistake). No allocation, no std: the firmware tests are `no_std`
//! binaries.
//!
//! ```
//! use shapecheck_tflite::reference;
//! use shapecheck_tflite::{FullyConnectedDims, FullyConnectedParams, QuantizedMultiplier, Rounding};
//!
//! let multipliers = [QuantizedMultiplier::from_parts(1 << 30, 0)]; // × 0.5
//! let params = FullyConnectedParams {
//!     input_zero_point: 1, weights_zero_point: 0, output_zero_point: 3,
//!     multipliers: &multipliers, output_min: -128, output_max: 127,
//!     rounding: Rounding::Double,
//! };
//! let dims = FullyConnectedDims { batches: 1, input_dim: 2, units: 1 };
//! let mut out = [0i8; 1];
//! // ((5 − 1) · 2 + (3 − 1) · 1 + 10) · 0.5 + 3 = 13
//! reference::fully_connected(&[5, 3], &[2, 1], Some(&[10]), dims, &params, &mut out);
//! assert_eq!(out, [13]);
//! ```

// A test reference: plain indexing reads as the formula; a wrong length is
// the calling test's bug, and a panic there fails that test.
#![allow(clippy::indexing_slicing)]

use crate::arith::quant::{
    multiply_by_quantized_multiplier, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding,
};
use crate::ops::add::AddParams;
use crate::ops::conv::depthwise_conv::{DepthwiseConvDims, DepthwiseConvParams};
use crate::ops::conv::fully_connected::{FullyConnectedDims, FullyConnectedParams};
use crate::ops::conv::{Conv2dDims, Conv2dParams};
use crate::ops::pool::{PoolDims, PoolParams};

/// TFLite's output stage: the accumulator times the channel's multiplier
/// (`MultiplyByQuantizedMultiplier`, its rounding), plus the output's zero
/// point, clamped to `[min, max]`, as int8.
///
/// ```
/// use shapecheck_tflite::{reference, QuantizedMultiplier, Rounding};
///
/// let half = QuantizedMultiplier::from_parts(1 << 30, 0);
/// assert_eq!(reference::requantize(100, half, Rounding::Double, -10, -128, 127), 40);
/// assert_eq!(reference::requantize(1000, half, Rounding::Double, 0, -128, 127), 127);
/// ```
pub fn requantize(
    acc: i32,
    multiplier: QuantizedMultiplier,
    rounding: Rounding,
    zero_point: i32,
    min: i32,
    max: i32,
) -> i8 {
    let scaled = multiply_by_quantized_multiplier(acc, multiplier, rounding);
    let y = scaled.saturating_add(zero_point);
    // TFLite: max with the activation's min, then min with its max
    y.max(min).min(max).clamp(-128, 127) as i8
}

/// Channel `c`'s multiplier: the one (per-tensor) or the `c`-th (per-channel).
fn multiplier(multipliers: &[QuantizedMultiplier], c: usize) -> QuantizedMultiplier {
    if multipliers.len() == 1 {
        multipliers[0]
    } else {
        multipliers[c]
    }
}

/// The input row or column a filter tap reads, `None` in the padding.
fn tap(
    out: usize,
    stride: usize,
    k: usize,
    dilation: usize,
    pad: usize,
    size: usize,
) -> Option<usize> {
    let at = (out * stride + k * dilation).checked_sub(pad)?;
    (at < size).then_some(at)
}

/// `CONV_2D` (any filter, 1×1 or k×k): input `[batches, h, w, in]`,
/// filter `[out, kh, kw, in]`, output `[batches, oh, ow, out]`;
/// `Σ (x − input_zero_point) · w + bias` over the taps inside the input,
/// in wrapping i32, then [`requantize`].
///
/// ```
/// use shapecheck_tflite::{reference, Conv2dDims, Conv2dParams, QuantizedMultiplier, Rounding};
///
/// let one = [QuantizedMultiplier::from_parts(1 << 30, 1)];
/// let dims = Conv2dDims {
///     batches: 1, input_height: 1, input_width: 2, input_depth: 1,
///     filter_height: 1, filter_width: 2, output_height: 1, output_width: 1, output_depth: 1,
/// };
/// let params = Conv2dParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0, input_zero_point: 0, output_zero_point: 0,
///     multipliers: &one, output_min: -128, output_max: 127, rounding: Rounding::Double,
/// };
/// let mut out = [0i8; 1];
/// reference::conv_2d(&[3, 4], &[1, 2], None, dims, &params, &mut out);
/// assert_eq!(out, [11]);
/// ```
pub fn conv_2d(
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
    output: &mut [i8],
) {
    let (h, w, depth) = (dims.input_height, dims.input_width, dims.input_depth);
    let (kh, kw, channels) = (dims.filter_height, dims.filter_width, dims.output_depth);
    let (oh, ow) = (dims.output_height, dims.output_width);
    let p = params;
    for b in 0..dims.batches {
        for oy in 0..oh {
            for ox in 0..ow {
                for oc in 0..channels {
                    let mut acc = bias.map_or(0, |bias| bias[oc]);
                    for ky in 0..kh {
                        let Some(iy) =
                            tap(oy, p.stride_height, ky, p.dilation_height, p.pad_top, h)
                        else {
                            continue;
                        };
                        for kx in 0..kw {
                            let Some(ix) =
                                tap(ox, p.stride_width, kx, p.dilation_width, p.pad_left, w)
                            else {
                                continue;
                            };
                            for ic in 0..depth {
                                let x = i32::from(input[((b * h + iy) * w + ix) * depth + ic]);
                                let f = i32::from(filter[((oc * kh + ky) * kw + kx) * depth + ic]);
                                acc = acc.wrapping_add((x - p.input_zero_point) * f);
                            }
                        }
                    }
                    let m = multiplier(p.multipliers, oc);
                    output[((b * oh + oy) * ow + ox) * channels + oc] = requantize(
                        acc,
                        m,
                        p.rounding,
                        p.output_zero_point,
                        p.output_min,
                        p.output_max,
                    );
                }
            }
        }
    }
}

/// `DEPTHWISE_CONV_2D`: input `[batches, h, w, in]`, filter `[1, kh, kw,
/// in · depth_multiplier]`, output channel `ic · depth_multiplier + m`
/// reading input channel `ic`; the same sum and output stage as
/// [`conv_2d`].
///
/// ```
/// use shapecheck_tflite::{reference, DepthwiseConvDims, DepthwiseConvParams, QuantizedMultiplier, Rounding};
///
/// let one = [QuantizedMultiplier::from_parts(1 << 30, 1)];
/// let dims = DepthwiseConvDims {
///     batches: 1, input_height: 1, input_width: 1, input_depth: 2,
///     filter_height: 1, filter_width: 1, depth_multiplier: 1, output_height: 1, output_width: 1,
/// };
/// let params = DepthwiseConvParams {
///     stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
///     pad_top: 0, pad_left: 0, input_zero_point: 1, output_zero_point: 0,
///     multipliers: &one, output_min: -128, output_max: 127, rounding: Rounding::Double,
/// };
/// let mut out = [0i8; 2];
/// reference::depthwise_conv(&[3, 4], &[5, -2], None, dims, &params, &mut out);
/// assert_eq!(out, [10, -6]);
/// ```
pub fn depthwise_conv(
    input: &[i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    dims: DepthwiseConvDims,
    params: &DepthwiseConvParams<'_>,
    output: &mut [i8],
) {
    let (h, w, depth) = (dims.input_height, dims.input_width, dims.input_depth);
    let (kh, kw, mult) = (dims.filter_height, dims.filter_width, dims.depth_multiplier);
    let (oh, ow) = (dims.output_height, dims.output_width);
    let channels = depth * mult;
    let p = params;
    for b in 0..dims.batches {
        for oy in 0..oh {
            for ox in 0..ow {
                for ic in 0..depth {
                    for m in 0..mult {
                        let oc = ic * mult + m;
                        let mut acc = bias.map_or(0, |bias| bias[oc]);
                        for ky in 0..kh {
                            let Some(iy) =
                                tap(oy, p.stride_height, ky, p.dilation_height, p.pad_top, h)
                            else {
                                continue;
                            };
                            for kx in 0..kw {
                                let Some(ix) =
                                    tap(ox, p.stride_width, kx, p.dilation_width, p.pad_left, w)
                                else {
                                    continue;
                                };
                                let x = i32::from(input[((b * h + iy) * w + ix) * depth + ic]);
                                let f = i32::from(filter[(ky * kw + kx) * channels + oc]);
                                acc = acc.wrapping_add((x - p.input_zero_point) * f);
                            }
                        }
                        output[((b * oh + oy) * ow + ox) * channels + oc] = requantize(
                            acc,
                            multiplier(p.multipliers, oc),
                            p.rounding,
                            p.output_zero_point,
                            p.output_min,
                            p.output_max,
                        );
                    }
                }
            }
        }
    }
}

/// `FULLY_CONNECTED`: input `[batches, input_dim]`, weights `[units,
/// input_dim]`, output `[batches, units]`; `Σ (x − input_zero_point) · (w
/// − weights_zero_point) + bias` in wrapping i32, then [`requantize`].
/// (The example is the module's.)
pub fn fully_connected(
    input: &[i8],
    weights: &[i8],
    bias: Option<&[i32]>,
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
    output: &mut [i8],
) {
    let (depth, units) = (dims.input_dim, dims.units);
    let p = params;
    for b in 0..dims.batches {
        for u in 0..units {
            let mut acc = bias.map_or(0, |bias| bias[u]);
            for k in 0..depth {
                let x = i32::from(input[b * depth + k]) - p.input_zero_point;
                let w = i32::from(weights[u * depth + k]) - p.weights_zero_point;
                acc = acc.wrapping_add(x * w);
            }
            output[b * units + u] = requantize(
                acc,
                multiplier(p.multipliers, u),
                p.rounding,
                p.output_zero_point,
                p.output_min,
                p.output_max,
            );
        }
    }
}

/// Every output of a pool: `reduce` of the window's inputs inside the
/// input (the padding left out), clamped.
fn pool(
    input: &[i8],
    dims: PoolDims,
    params: &PoolParams,
    output: &mut [i8],
    reduce: fn(&mut dyn Iterator<Item = i32>) -> i32,
) {
    let (h, w, depth) = (dims.input_height, dims.input_width, dims.depth);
    let (oh, ow) = (dims.output_height, dims.output_width);
    let p = params;
    for b in 0..dims.batches {
        for oy in 0..oh {
            for ox in 0..ow {
                for c in 0..depth {
                    let mut taps = (0..dims.filter_height).flat_map(|ky| {
                        (0..dims.filter_width).filter_map(move |kx| {
                            let iy = tap(oy, p.stride_height, ky, 1, p.pad_top, h)?;
                            let ix = tap(ox, p.stride_width, kx, 1, p.pad_left, w)?;
                            Some(i32::from(input[((b * h + iy) * w + ix) * depth + c]))
                        })
                    });
                    let y = reduce(&mut taps);
                    output[((b * oh + oy) * ow + ox) * depth + c] =
                        y.max(p.output_min).min(p.output_max) as i8;
                }
            }
        }
    }
}

/// `AVERAGE_POOL_2D`: the sum of the window's inputs inside the input
/// over their count, rounded half away from zero (`(sum ± count / 2) /
/// count`, TFLite's), clamped.
///
/// ```
/// use shapecheck_tflite::{reference, PoolDims, PoolParams};
///
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 1,
///     filter_height: 2, filter_width: 2, output_height: 2, output_width: 2,
/// };
/// let params = PoolParams {
///     stride_height: 1, stride_width: 1, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 127,
/// };
/// let mut out = [0i8; 4];
/// reference::average_pool(&[1, 2, 4, -7], dims, &params, &mut out);
/// assert_eq!(out, [0, -3, -2, -7]);
/// ```
pub fn average_pool(input: &[i8], dims: PoolDims, params: &PoolParams, output: &mut [i8]) {
    pool(input, dims, params, output, |taps| {
        let (mut sum, mut count) = (0i32, 0i32);
        for x in taps {
            sum += x;
            count += 1;
        }
        if sum > 0 {
            (sum + count / 2) / count
        } else {
            (sum - count / 2) / count
        }
    });
}

/// `MAX_POOL_2D`: the largest of the window's inputs inside the input,
/// clamped.
///
/// ```
/// use shapecheck_tflite::{reference, PoolDims, PoolParams};
///
/// let dims = PoolDims {
///     batches: 1, input_height: 2, input_width: 2, depth: 1,
///     filter_height: 2, filter_width: 2, output_height: 1, output_width: 1,
/// };
/// let params = PoolParams {
///     stride_height: 2, stride_width: 2, pad_top: 0, pad_left: 0,
///     output_min: -128, output_max: 5,
/// };
/// let mut out = [0i8; 1];
/// reference::max_pool(&[1, 9, 4, -7], dims, &params, &mut out);
/// assert_eq!(out, [5]);
/// ```
pub fn max_pool(input: &[i8], dims: PoolDims, params: &PoolParams, output: &mut [i8]) {
    pool(input, dims, params, output, |taps| {
        taps.fold(-128, i32::max)
    });
}

/// `ADD` of two int8 tensors of one shape, element by element (TFLite
/// Micro's `reference_integer_ops::AddElementwise`): each input less its
/// zero point, shifted left by 20 bits, scaled by its multiplier
/// (`MultiplyByQuantizedMultiplierSmallerThanOneExp`: the doubling high
/// product, then the rounding division by `2^−shift`); the sum scaled by
/// the output multiplier the same way, plus the output's zero point,
/// clamped to `[output_min, output_max]` (max, then min).
///
/// ```
/// use shapecheck_tflite::{add_params, reference};
///
/// let params = add_params(0.5, 1, 0.25, -2, 0.5, 3, -128, 127)?;
/// let mut out = [0i8; 2];
/// reference::add_int8(&[11, -9], &[2, 6], &params, &mut out);
/// // (11 − 1) · 0.5 + (2 + 2) · 0.25 = 6 → 6 / 0.5 + 3 = 15;
/// // (−9 − 1) · 0.5 + (6 + 2) · 0.25 = −3 → −6 + 3 = −3
/// assert_eq!(out, [15, -3]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn add_int8(x1: &[i8], x2: &[i8], params: &AddParams, output: &mut [i8]) {
    let smaller_than_one = |x: i32, m: QuantizedMultiplier| {
        let exponent = u32::try_from(-m.shift()).unwrap_or(0);
        rounding_divide_by_pot(
            saturating_rounding_doubling_high_mul(x, m.multiplier()),
            exponent,
        )
    };
    for i in 0..output.len() {
        let shifted1 = (i32::from(x1[i]) - params.input1_zero_point) * (1 << 20);
        let shifted2 = (i32::from(x2[i]) - params.input2_zero_point) * (1 << 20);
        let sum = smaller_than_one(shifted1, params.input1_multiplier)
            + smaller_than_one(shifted2, params.input2_multiplier);
        let raw = smaller_than_one(sum, params.output_multiplier) + params.output_zero_point;
        output[i] = raw.max(params.output_min).min(params.output_max) as i8;
    }
}
