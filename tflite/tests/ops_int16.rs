//! The int16 kernels of TFLite's 16x8 mode (int16 activations, int8
//! weights, int64 bias) against naive kernels written plainly here, on
//! random sizes, strides, paddings, broadcasts, axes, multipliers and
//! clamps (proptest). The
//! recorded one-op models (`int16_*` in tests/ops/, run whole by
//! tests/interpreter_ops.rs) check them bit for bit against TFLite Micro;
//! these check every other size and parameter against TFLite's
//! definitions.
//!
//! The references widen everything to `i64`/`i128` and index plainly; the
//! requantization of an int64 accumulator is written out from TFLite's
//! `MultiplyByQuantizedMultiplier(int64_t, ...)`.

use proptest::prelude::*;
use shapecheck_tflite::{
    add_int16, add_params_int16, average_pool_int16, conv_2d_int16, depthwise_conv_int16,
    dequantize_int16, fully_connected_int16, logistic_int16, logistic_params_int16, max_pool_int16,
    mean_or_sum_int16, mean_params, mul_int16, mul_params_int16, multiply_by_quantized_multiplier,
    multiply_by_quantized_multiplier_int64, quantize_int16, quantize_multiplier, reduce_axes,
    requantize_int16, requantize_params_int16, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul, softmax_int16, softmax_params_int16, sum_params,
    tanh_int16, tanh_params_int16, AddParams, Conv2dDims, Conv2dParams, DepthwiseConvDims,
    DepthwiseConvParams, FullyConnectedDims, FullyConnectedParams, MulParams, PoolDims, PoolParams,
    QuantizedMultiplier, Rounding,
};

// ------------------------------------------------------------ helpers ---

/// TFLite's `MultiplyByQuantizedMultiplier` of an `int64_t`: the multiplier
/// reduced to 16 bits (rounded), one rounding right shift by `15 − shift`.
fn naive_requantize(acc: i64, m: QuantizedMultiplier) -> i32 {
    i32::try_from(naive_requantize_wide(acc, m)).expect("the result fits i32")
}

/// [`naive_requantize`] before the result is taken as an `i32`.
fn naive_requantize_wide(acc: i64, m: QuantizedMultiplier) -> i128 {
    let q = i128::from(m.multiplier());
    let reduced = if q < 0x7FFF_0000 {
        (q + 32768) / 65536
    } else {
        0x7FFF
    };
    let total = 15 - m.shift();
    assert!(total >= 1, "a multiplier TFLite does not make");
    let product = i128::from(acc) * reduced + (1i128 << (total - 1));
    // an arithmetic shift is a floor division
    product.div_euclid(1i128 << total)
}

/// The output of a 16x8 layer: requantized, the zero point added,
/// clamped.
fn naive_output(acc: i64, m: QuantizedMultiplier, zero_point: i32, lo: i32, hi: i32) -> i16 {
    let y = naive_requantize(acc, m) + zero_point;
    i16::try_from(y.max(lo).min(hi)).expect("the clamp is inside int16")
}

/// Random int16 values from a seed (a plain LCG).
fn int16s(seed: u64, n: usize) -> Vec<i16> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 48) as i16
        })
        .collect()
}

/// Random int8 values from a seed, in [−127, 127] (TFLite's symmetric
/// weights).
fn int8s(seed: u64, n: usize) -> Vec<i8> {
    int16s(seed ^ 0x5555, n)
        .into_iter()
        .map(|v| (v >> 8).max(-127) as i8)
        .collect()
}

/// Random int64 biases of magnitude below 2^30 (TFLite's int64 biases
/// hold `bias / (input_scale · weight_scale)`, well inside that).
fn biases(seed: u64, n: usize) -> Vec<i64> {
    int16s(seed ^ 0xAAAA, n)
        .into_iter()
        .zip(int16s(seed ^ 0x1234, n))
        .map(|(a, b)| i64::from(a) * 16384 + i64::from(b))
        .collect()
}

/// A multiplier as TFLite makes one from `input_scale · weight_scale /
/// output_scale`: a real in [2^−20, 2).
fn multiplier() -> impl Strategy<Value = QuantizedMultiplier> {
    (-20.0f64..1.0).prop_map(|e| quantize_multiplier(2f64.powf(e)).unwrap())
}

/// An int16 clamp: the whole range, a RELU from 0, or a narrow one.
fn clamp() -> impl Strategy<Value = (i32, i32)> {
    prop_oneof![
        Just((-32768, 32767)),
        Just((0, 32767)),
        (-32768i32..0, 0i32..32768),
    ]
}

// --------------------------------------------------------- requantize ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_int64_requantization_is_tflites(
        acc in -(1i64 << 40)..(1i64 << 40),
        m in multiplier(),
    ) {
        // TFLite assumes the result fits i32; beyond, it saturates here
        let wide = naive_requantize_wide(acc, m);
        let expected = wide.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
        prop_assert_eq!(multiply_by_quantized_multiplier_int64(acc, m), expected);
    }
}

// --------------------------------------------------------------- CONV ---

#[allow(clippy::too_many_arguments)]
fn naive_conv(x: &[i16], f: &[i8], bias: &[i64], d: Conv2dDims, p: &Conv2dParams<'_>) -> Vec<i16> {
    let mut out = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for oc in 0..d.output_depth {
                    let mut acc = 0i64;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let iy = (oy * p.stride_height + ky * p.dilation_height) as i64
                                - p.pad_top as i64;
                            let ix = (ox * p.stride_width + kx * p.dilation_width) as i64
                                - p.pad_left as i64;
                            if iy < 0
                                || ix < 0
                                || iy >= d.input_height as i64
                                || ix >= d.input_width as i64
                            {
                                continue;
                            }
                            let (iy, ix) = (iy as usize, ix as usize);
                            for ic in 0..d.input_depth {
                                let xv = x[((b * d.input_height + iy) * d.input_width + ix)
                                    * d.input_depth
                                    + ic];
                                let fv = f[((oc * d.filter_height + ky) * d.filter_width + kx)
                                    * d.input_depth
                                    + ic];
                                acc += i64::from(xv) * i64::from(fv);
                            }
                        }
                    }
                    acc += bias[oc];
                    let m = if p.multipliers.len() == 1 {
                        p.multipliers[0]
                    } else {
                        p.multipliers[oc]
                    };
                    out.push(naive_output(acc, m, 0, p.output_min, p.output_max));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn conv_int16_is_its_naive_definition(
        (batches, ih, iw, ic, oc) in (1usize..3, 1usize..7, 1usize..7, 1usize..4, 1usize..5),
        (fh, fw) in (1usize..4, 1usize..4),
        (sh, sw, dh, dw) in (1usize..3, 1usize..3, 1usize..3, 1usize..3),
        (pt, pl) in (0usize..3, 0usize..3),
        multipliers in prop::collection::vec(multiplier(), 1..5),
        per_channel in any::<bool>(),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        // the output's size for these pads: as many windows as start
        // inside the padded input
        let span_h = (fh - 1) * dh + 1;
        let span_w = (fw - 1) * dw + 1;
        prop_assume!(ih + 2 * pt >= span_h && iw + 2 * pl >= span_w);
        let oh = (ih + 2 * pt - span_h) / sh + 1;
        let ow = (iw + 2 * pl - span_w) / sw + 1;
        let dims = Conv2dDims {
            batches, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: fh, filter_width: fw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let ms: Vec<QuantizedMultiplier> = if per_channel {
            (0..oc).map(|k| multipliers[k % multipliers.len()]).collect()
        } else {
            vec![multipliers[0]]
        };
        let params = Conv2dParams {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl,
            input_zero_point: 0, output_zero_point: 0,
            multipliers: &ms, output_min: lo, output_max: hi,
            rounding: Rounding::Double,
        };
        let x = int16s(seed, batches * ih * iw * ic);
        let f = int8s(seed, oc * fh * fw * ic);
        let bias = biases(seed, oc);
        let mut out = vec![0i16; batches * oh * ow * oc];
        conv_2d_int16(&x, &f[..], Some(&bias[..]), dims, &params, &mut out).unwrap();
        prop_assert_eq!(out, naive_conv(&x, &f, &bias, dims, &params));
    }
}

#[test]
fn conv_int16_refuses_a_zero_point_and_bad_lengths_untouched() {
    let dims = Conv2dDims {
        batches: 1,
        input_height: 1,
        input_width: 1,
        input_depth: 1,
        filter_height: 1,
        filter_width: 1,
        output_height: 1,
        output_width: 1,
        output_depth: 1,
    };
    let ms = [quantize_multiplier(0.5).unwrap()];
    let mut params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: &ms,
        output_min: -32768,
        output_max: 32767,
        rounding: Rounding::Double,
    };
    let mut out = [7i16];
    conv_2d_int16(&[100], &[3], None::<&[i64]>, dims, &params, &mut out).unwrap();
    assert_eq!(out, [150]);
    let mut out = [7i16];
    params.input_zero_point = 1;
    assert!(conv_2d_int16(&[100], &[3], None::<&[i64]>, dims, &params, &mut out).is_err());
    params.input_zero_point = 0;
    assert!(conv_2d_int16(&[100, 1], &[3], None::<&[i64]>, dims, &params, &mut out).is_err());
    assert!(conv_2d_int16(&[100], &[3], Some(&[1i64, 2][..]), dims, &params, &mut out).is_err());
    assert_eq!(out, [7]);
}

// ---------------------------------------------------------- DEPTHWISE ---

fn naive_depthwise(
    x: &[i16],
    f: &[i8],
    bias: &[i64],
    d: DepthwiseConvDims,
    p: &DepthwiseConvParams<'_>,
) -> Vec<i16> {
    let od = d.input_depth * d.depth_multiplier;
    let mut out = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for oc in 0..od {
                    let ic = oc / d.depth_multiplier;
                    let mut acc = 0i64;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let iy = (oy * p.stride_height + ky * p.dilation_height) as i64
                                - p.pad_top as i64;
                            let ix = (ox * p.stride_width + kx * p.dilation_width) as i64
                                - p.pad_left as i64;
                            if iy < 0
                                || ix < 0
                                || iy >= d.input_height as i64
                                || ix >= d.input_width as i64
                            {
                                continue;
                            }
                            let (iy, ix) = (iy as usize, ix as usize);
                            let xv = x[((b * d.input_height + iy) * d.input_width + ix)
                                * d.input_depth
                                + ic];
                            let fv = f[(ky * d.filter_width + kx) * od + oc];
                            acc += i64::from(xv) * i64::from(fv);
                        }
                    }
                    acc += bias[oc];
                    let m = if p.multipliers.len() == 1 {
                        p.multipliers[0]
                    } else {
                        p.multipliers[oc]
                    };
                    out.push(naive_output(acc, m, 0, p.output_min, p.output_max));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn depthwise_int16_is_its_naive_definition(
        (batches, ih, iw, ic, dm) in (1usize..3, 1usize..7, 1usize..7, 1usize..4, 1usize..3),
        (fh, fw) in (1usize..4, 1usize..4),
        (sh, sw, dh, dw) in (1usize..3, 1usize..3, 1usize..3, 1usize..3),
        (pt, pl) in (0usize..3, 0usize..3),
        multipliers in prop::collection::vec(multiplier(), 1..5),
        per_channel in any::<bool>(),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        let span_h = (fh - 1) * dh + 1;
        let span_w = (fw - 1) * dw + 1;
        prop_assume!(ih + 2 * pt >= span_h && iw + 2 * pl >= span_w);
        let oh = (ih + 2 * pt - span_h) / sh + 1;
        let ow = (iw + 2 * pl - span_w) / sw + 1;
        let od = ic * dm;
        let dims = DepthwiseConvDims {
            batches, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: fh, filter_width: fw, depth_multiplier: dm,
            output_height: oh, output_width: ow,
        };
        let ms: Vec<QuantizedMultiplier> = if per_channel {
            (0..od).map(|k| multipliers[k % multipliers.len()]).collect()
        } else {
            vec![multipliers[0]]
        };
        let params = DepthwiseConvParams {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl,
            input_zero_point: 0, output_zero_point: 0,
            multipliers: &ms, output_min: lo, output_max: hi,
            rounding: Rounding::Double,
        };
        let x = int16s(seed, batches * ih * iw * ic);
        let f = int8s(seed, fh * fw * od);
        let bias = biases(seed, od);
        let mut out = vec![0i16; batches * oh * ow * od];
        depthwise_conv_int16(&x, &f[..], Some(&bias[..]), dims, &params, &mut out).unwrap();
        prop_assert_eq!(out, naive_depthwise(&x, &f, &bias, dims, &params));
    }
}

// ---------------------------------------------------- FULLY_CONNECTED ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn fully_connected_int16_is_its_naive_definition(
        (batches, input_dim, units) in (1usize..4, 1usize..40, 1usize..10),
        multipliers in prop::collection::vec(multiplier(), 1..10),
        per_channel in any::<bool>(),
        with_bias in any::<bool>(),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        let ms: Vec<QuantizedMultiplier> = if per_channel {
            (0..units).map(|k| multipliers[k % multipliers.len()]).collect()
        } else {
            vec![multipliers[0]]
        };
        let params = FullyConnectedParams {
            input_zero_point: 0, weights_zero_point: 0, output_zero_point: 0,
            multipliers: &ms, output_min: lo, output_max: hi,
            rounding: Rounding::Double,
        };
        let dims = FullyConnectedDims { batches, input_dim, units };
        let x = int16s(seed, batches * input_dim);
        let w = int8s(seed, units * input_dim);
        let bias = biases(seed, units);
        let mut expected = Vec::new();
        for b in 0..batches {
            for u in 0..units {
                let mut acc: i64 = (0..input_dim)
                    .map(|k| i64::from(x[b * input_dim + k]) * i64::from(w[u * input_dim + k]))
                    .sum();
                if with_bias {
                    acc += bias[u];
                }
                let m = if per_channel { ms[u] } else { ms[0] };
                expected.push(naive_output(acc, m, 0, lo, hi));
            }
        }
        let mut out = vec![0i16; batches * units];
        let bias = with_bias.then_some(&bias[..]);
        fully_connected_int16(&x, &w[..], bias, dims, &params, &mut out).unwrap();
        prop_assert_eq!(out, expected);
    }
}

// ---------------------------------------------------------------- ADD ---

/// gemmlowp's `MultiplyByQuantizedMultiplierSmallerThanOneExp`.
fn smaller_than_one(x: i32, m: QuantizedMultiplier) -> i32 {
    rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(x, m.multiplier()),
        u32::try_from(-m.shift()).unwrap(),
    )
}

/// TFLite's `AddElementwise` for int16 (left shift 15, zero points 0).
fn naive_add_one(x1: i16, x2: i16, p: &AddParams) -> i16 {
    let shifted1 = i32::from(x1) * (1 << 15);
    let shifted2 = i32::from(x2) * (1 << 15);
    let sum = smaller_than_one(shifted1, p.input1_multiplier)
        + smaller_than_one(shifted2, p.input2_multiplier);
    let raw = smaller_than_one(sum, p.output_multiplier);
    raw.max(p.output_min).min(p.output_max) as i16
}

fn scale() -> impl Strategy<Value = f32> {
    (-16.0f32..0.0).prop_map(|e| 2f32.powf(e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn add_int16_is_its_naive_definition(
        (rows, depth) in (1usize..6, 1usize..8),
        broadcast in any::<bool>(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        // the output scale at least the inputs' over 2^14: TFLite's output
        // multiplier is below 1 (add_params_int16 refuses smaller ones)
        prop_assume!(f64::from(so) * 16384.0 > 2.0 * f64::from(s1.max(s2)));
        let params = add_params_int16(s1, s2, so, lo, hi).unwrap();
        let a = int16s(seed, rows * depth);
        let b_shape = if broadcast { vec![depth] } else { vec![rows, depth] };
        let b = int16s(seed ^ 77, b_shape.iter().product());
        let mut out = vec![0i16; rows * depth];
        add_int16(&a[..], &[rows, depth], &b[..], &b_shape, &params, &mut out).unwrap();
        let expected: Vec<i16> = (0..rows * depth)
            .map(|i| {
                let j = if broadcast { i % depth } else { i };
                naive_add_one(a[i], b[j], &params)
            })
            .collect();
        prop_assert_eq!(out, expected);
    }
}

#[test]
fn add_int16_params_are_tflites() {
    // TFLite Micro's CalculateOpDataAdd with left_shift 15
    let (s1, s2, so) = (0.0007f32, 0.0003f32, 0.001f32);
    let p = add_params_int16(s1, s2, so, -32768, 32767).unwrap();
    let twice_max = 2.0 * f64::from(s1.max(s2));
    assert_eq!(
        p.input1_multiplier,
        quantize_multiplier(f64::from(s1) / twice_max).unwrap()
    );
    assert_eq!(
        p.input2_multiplier,
        quantize_multiplier(f64::from(s2) / twice_max).unwrap()
    );
    assert_eq!(
        p.output_multiplier,
        quantize_multiplier(twice_max / (32768.0 * f64::from(so))).unwrap()
    );
    assert_eq!(
        (
            p.input1_zero_point,
            p.input2_zero_point,
            p.output_zero_point
        ),
        (0, 0, 0)
    );
}

// -------------------------------------------------------------- POOLS ---

/// Each output's window taps inside the input.
fn window_taps(
    x: &[i16],
    d: PoolDims,
    p: &PoolParams,
    b: usize,
    oy: usize,
    ox: usize,
    c: usize,
) -> Vec<i64> {
    let mut taps = Vec::new();
    for ky in 0..d.filter_height {
        for kx in 0..d.filter_width {
            let iy = (oy * p.stride_height + ky) as i64 - p.pad_top as i64;
            let ix = (ox * p.stride_width + kx) as i64 - p.pad_left as i64;
            if iy >= 0 && ix >= 0 && iy < d.input_height as i64 && ix < d.input_width as i64 {
                let (iy, ix) = (iy as usize, ix as usize);
                taps.push(i64::from(
                    x[((b * d.input_height + iy) * d.input_width + ix) * d.depth + c],
                ));
            }
        }
    }
    taps
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pools_int16_are_their_naive_definitions(
        (batches, ih, iw, depth) in (1usize..3, 1usize..8, 1usize..8, 1usize..4),
        (fh, fw, sh, sw) in (1usize..4, 1usize..4, 1usize..3, 1usize..3),
        (pt, pl) in (0usize..2, 0usize..2),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        // pads smaller than a window: every window holds a tap
        prop_assume!(pt < fh && pl < fw && ih + pt >= fh && iw + pl >= fw);
        let oh = (ih + pt - fh) / sh + 1;
        let ow = (iw + pl - fw) / sw + 1;
        let dims = PoolDims {
            batches, input_height: ih, input_width: iw, depth,
            filter_height: fh, filter_width: fw, output_height: oh, output_width: ow,
        };
        let params = PoolParams {
            stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl,
            output_min: lo, output_max: hi,
        };
        let x = int16s(seed, batches * ih * iw * depth);
        let mut average = Vec::new();
        let mut max = Vec::new();
        for b in 0..batches {
            for oy in 0..oh {
                for ox in 0..ow {
                    for c in 0..depth {
                        let taps = window_taps(&x, dims, &params, b, oy, ox, c);
                        let (sum, n) = (taps.iter().sum::<i64>(), taps.len() as i64);
                        // TFLite's rounding: half away from zero, in C's division
                        let avg = if sum > 0 { (sum + n / 2) / n } else { (sum - n / 2) / n };
                        average.push(avg.clamp(i64::from(lo), i64::from(hi)) as i16);
                        let m = taps.iter().copied().max().unwrap_or(-32768);
                        max.push(m.clamp(i64::from(lo), i64::from(hi)) as i16);
                    }
                }
            }
        }
        let mut out = vec![0i16; batches * oh * ow * depth];
        average_pool_int16(&x, dims, &params, &mut out).unwrap();
        prop_assert_eq!(&out, &average);
        max_pool_int16(&x, dims, &params, &mut out).unwrap();
        prop_assert_eq!(&out, &max);
    }
}

// ------------------------------------------------ QUANTIZE / DEQUANTIZE ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn quantize_and_dequantize_int16_are_their_definitions(
        xs in prop::collection::vec(-100.0f32..100.0, 0..20),
        qs in prop::collection::vec(any::<i16>(), 0..20),
        scale in (-16.0f32..0.0).prop_map(|e| 2f32.powf(e) * 1.37),
    ) {
        let mut q = vec![0i16; xs.len()];
        quantize_int16(&xs, scale, 0, &mut q).unwrap();
        for (&x, &y) in xs.iter().zip(&q) {
            // C's round of the f32 quotient, clamped to int16
            let expected = (x / scale).round().clamp(-32768.0, 32767.0) as i16;
            prop_assert_eq!(y, expected);
        }
        let mut f = vec![0f32; qs.len()];
        dequantize_int16(&qs, scale, 0, &mut f).unwrap();
        for (&q, &y) in qs.iter().zip(&f) {
            // the f64 product rounded once to f32
            prop_assert_eq!(y, (f64::from(scale) * f64::from(q)) as f32);
        }
    }
}

// ---------------------------------------------------------- LOGISTIC ---

/// Every int16 input of a logistic is within 2^−14 (2 steps of 2^−15) of
/// σ of its real value, and σ(−x) = 1 − σ(x) to a step: TFLite's table
/// and its interpolation, whatever the input scale.
#[test]
fn logistic_int16_is_the_sigmoid_within_two_steps() {
    for input_scale in [1.0f32 / 4096.0, 0.00039130868, 0.0001, 1.0 / 1024.0, 0.003] {
        let params = logistic_params_int16(input_scale, 1.0 / 32768.0).unwrap();
        let xs: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut out = vec![0i16; xs.len()];
        logistic_int16(&xs, &params, &mut out).unwrap();
        for (&x, &y) in xs.iter().zip(&out) {
            let real = f64::from(x) * f64::from(input_scale);
            let expected = 32768.0 / (1.0 + (-real).exp());
            assert!(
                (f64::from(y) - expected).abs() <= 2.0,
                "scale {input_scale}: σ({real}) = {expected}, got {y}"
            );
        }
        // xs[k] is k − 32768: −x is at 32768 − x
        for (k, &x) in xs.iter().enumerate().skip(1) {
            let negated = usize::try_from(32768 - i32::from(x)).unwrap();
            let sum = i32::from(out[k]) + i32::from(out[negated]);
            assert!((32767..=32769).contains(&sum), "σ({x}) + σ({}) = {sum}", -x);
        }
    }
}

// ----------------------------------------------------------- SOFTMAX ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every output is within 4 + 2 · depth steps of 2^−15 of the softmax
    /// of the row's real values: TFLite's exp table covers [−10, 0], and
    /// below it every exp counts as e^−10 (1.5 steps), which a row's sum
    /// carries `depth` times; its reciprocal table and the interpolations
    /// add a few steps.
    #[test]
    fn softmax_int16_is_the_softmax_within_its_tables(
        (rows, depth) in (1usize..4, 1usize..12),
        input_scale in (-14.0f32..-8.0).prop_map(|e| 2f32.powf(e) * 1.3),
        beta in prop_oneof![Just(1.0f32), 0.5f32..2.0],
        seed in any::<u64>(),
    ) {
        let params = softmax_params_int16(beta, input_scale).unwrap();
        let x = int16s(seed, rows * depth);
        let mut out = vec![0i16; rows * depth];
        softmax_int16(&x, depth, &params, &mut out).unwrap();
        for (row, ys) in x.chunks(depth).zip(out.chunks(depth)) {
            let max = row.iter().copied().max().unwrap();
            let exps: Vec<f64> = row
                .iter()
                .map(|&v| (f64::from(beta) * f64::from(input_scale) * f64::from(i32::from(v) - i32::from(max))).exp())
                .collect();
            let sum: f64 = exps.iter().sum();
            for (&e, &y) in exps.iter().zip(ys) {
                let expected = 32768.0 * e / sum;
                prop_assert!(
                    (f64::from(y) - expected).abs() <= 4.0 + 2.0 * depth as f64,
                    "{} against {}", y, expected
                );
            }
        }
    }
}

// --------------------------------------------------------------- MUL ---

/// TFLite Micro's `MultiplyByQuantizedMultiplier` of an `int32_t` (its
/// double rounding).
fn mul_q(x: i32, m: QuantizedMultiplier) -> i32 {
    multiply_by_quantized_multiplier(x, m, Rounding::Double)
}

/// TFLite's `MulElementwise` for one int16 pair (zero points 0).
fn naive_mul_one(x1: i16, x2: i16, p: &MulParams) -> i16 {
    let product = i32::from(x1) * i32::from(x2);
    let y = mul_q(product, p.output_multiplier);
    y.max(p.output_min).min(p.output_max) as i16
}

/// The row-major index of `coords` (right-aligned with `shape`'s dims; a
/// dim of 1 is broadcast: its coordinate is 0).
fn broadcast_index(shape: &[usize], coords: &[usize]) -> usize {
    let skip = coords.len() - shape.len();
    shape
        .iter()
        .zip(&coords[skip..])
        .fold(0, |index, (&d, &c)| index * d + if d == 1 { 0 } else { c })
}

/// Every coordinate of `dims`, row-major.
fn coordinates(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in dims {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..d).map(move |c| {
                    let mut next = prefix.clone();
                    next.push(c);
                    next
                })
            })
            .collect();
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any two shapes that broadcast (each dim of each input its own or 1,
    /// the second input of any rank up to the first's), any scales and
    /// clamp: each output is the product of its two inputs, requantized
    /// and clamped.
    #[test]
    fn mul_int16_is_its_naive_definition(
        dims in prop::collection::vec(1usize..5, 4),
        (ones_a, ones_b) in (prop::collection::vec(any::<bool>(), 4), prop::collection::vec(any::<bool>(), 4)),
        b_rank in 1usize..5,
        (s1, s2, so) in (scale(), scale(), scale()),
        (lo, hi) in clamp(),
        seed in any::<u64>(),
    ) {
        let a_shape: Vec<usize> = dims.iter().zip(&ones_a).map(|(&d, &one)| if one { 1 } else { d }).collect();
        let b_full: Vec<usize> = dims.iter().zip(&ones_b).map(|(&d, &one)| if one { 1 } else { d }).collect();
        let b_shape = b_full[4 - b_rank..].to_vec();
        let out_dims: Vec<usize> = (0..4)
            .map(|i| a_shape[i].max(if i >= 4 - b_rank { b_full[i] } else { 1 }))
            .collect();
        let params = mul_params_int16(s1, s2, so, lo, hi).unwrap();
        let a = int16s(seed, a_shape.iter().product());
        let b = int16s(seed ^ 77, b_shape.iter().product());
        let mut out = vec![0i16; out_dims.iter().product()];
        mul_int16(&a[..], &a_shape, &b[..], &b_shape, &params, &mut out).unwrap();
        let expected: Vec<i16> = coordinates(&out_dims)
            .iter()
            .map(|c| naive_mul_one(a[broadcast_index(&a_shape, c)], b[broadcast_index(&b_shape, c)], &params))
            .collect();
        prop_assert_eq!(out, expected);
    }
}

#[test]
fn mul_int16_params_are_tflites_and_refuse_a_zero_point() {
    // TFLite Micro's CalculateOpDataMul: s1 · s2 / s_out, quantized
    let (s1, s2, so) = (0.00023110931f32, 0.00023686611f32, 0.00048807418f32);
    let p = mul_params_int16(s1, s2, so, -32768, 32767).unwrap();
    assert_eq!(
        p.output_multiplier,
        quantize_multiplier(f64::from(s1) * f64::from(s2) / f64::from(so)).unwrap()
    );
    assert_eq!(
        (
            p.input1_zero_point,
            p.input2_zero_point,
            p.output_zero_point
        ),
        (0, 0, 0)
    );
    // a zero point other than 0 is refused before anything is written
    let shifted = MulParams {
        input2_zero_point: 3,
        ..p
    };
    let mut out = [7i16; 2];
    assert!(mul_int16(&[1i16, 2], &[2], &[3i16, 4], &[2], &shifted, &mut out).is_err());
    assert_eq!(out, [7, 7]);
    assert!(mul_params_int16(s1, s2, so, 5, 4).is_err());
}

// -------------------------------------------------------------- TANH ---

/// Every int16 input of a tanh is within 3 steps of 2^−15 of tanh of its
/// real value (TFLite's sigmoid table, in 2^−16 steps, doubled), whatever
/// the input scale: the two power-of-two scales TFLite takes apart
/// (2^−12, 2^−11) and others. tanh(−x) = −tanh(x) exactly where the
/// rescaling is exact (the power-of-two scales), and to 3 steps elsewhere:
/// its rounding (half up) may put −x one unit of 1/12288 below −v, which
/// moves tanh by up to 32768/12288 = 2.7 steps.
#[test]
fn tanh_int16_is_the_tanh_within_three_steps() {
    for input_scale in [
        1.0f32 / 4096.0,
        1.0 / 2048.0,
        0.0002588343,
        0.0001,
        1.0 / 1024.0,
        0.003,
        2.5,
        1e-12,
    ] {
        let params = tanh_params_int16(input_scale, 0, 1.0 / 32768.0, 0).unwrap();
        let xs: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut out = vec![0i16; xs.len()];
        tanh_int16(&xs, &params, &mut out).unwrap();
        for (&x, &y) in xs.iter().zip(&out) {
            let real = f64::from(x) * f64::from(input_scale);
            let expected = 32768.0 * real.tanh();
            assert!(
                (f64::from(y) - expected).abs() <= 3.0,
                "scale {input_scale}: tanh({real}) = {expected}, got {y}"
            );
        }
        let odd_to = if params.input_left_shift == 0 { 0 } else { 3 };
        // xs[k] is k − 32768: −x is at 32768 − x
        for (k, &x) in xs.iter().enumerate().skip(1) {
            let negated = usize::try_from(32768 - i32::from(x)).unwrap();
            let sum = i32::from(out[k]) + i32::from(out[negated]);
            assert!(
                sum.abs() <= odd_to,
                "scale {input_scale}: tanh({x}) + tanh({}) = {sum}",
                -x
            );
        }
    }
}

#[test]
fn tanh_int16_params_are_tflites() {
    // the power-of-two scales: TFLite's multiplier 0 and its left shift 0
    // or 1 become 3 · 2^shift, no shift
    for (scale, multiplier) in [(1.0f32 / 4096.0, 3), (1.0 / 2048.0, 6)] {
        let p = tanh_params_int16(scale, 0, 1.0 / 32768.0, 0).unwrap();
        assert_eq!((p.input_multiplier, p.input_left_shift), (multiplier, 0));
    }
    // otherwise scale · 3 · 4096 doubled into (16383.5, 32767], truncated
    for scale in [0.0002588343f32, 0.0001, 1.0 / 1024.0, 0.003, 1e-7] {
        let p = tanh_params_int16(scale, 0, 1.0 / 32768.0, 0).unwrap();
        let real = f64::from(scale) * 12288.0 * 2f64.powi(p.input_left_shift as i32);
        assert!(real > 32767.0 / 2.0 && real <= 32767.0, "{scale}: {real}");
        assert_eq!(p.input_multiplier, real as i32);
    }
    // a scale whose multiplier passes 32767, an output scale other than
    // 2^-15, a zero point: refused
    assert!(tanh_params_int16(3.0, 0, 1.0 / 32768.0, 0).is_err());
    // a scale whose multiplier truncates to 0 (TFLite would read it as its
    // power-of-two case)
    assert!(tanh_params_int16(1e-14, 0, 1.0 / 32768.0, 0).is_err());
    assert!(tanh_params_int16(0.001, 0, 1.0 / 16384.0, 0).is_err());
    assert!(tanh_params_int16(0.001, 0, 1.0 / 32768.0, 1).is_err());
}

// ------------------------------------------- QUANTIZE, int16 → int16 ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Each output is its input less the input's zero point, requantized
    /// by `input_scale / output_scale`, plus the output's zero point,
    /// clamped to int16.
    #[test]
    fn requantize_int16_is_its_naive_definition(
        (si, so) in (scale(), scale()),
        (zi, zo) in (-1000i32..1000, -1000i32..1000),
        n in 1usize..64,
        seed in any::<u64>(),
    ) {
        let params = requantize_params_int16(si, zi, so, zo).unwrap();
        prop_assert_eq!(
            params.multiplier,
            quantize_multiplier(f64::from(si) / f64::from(so)).unwrap()
        );
        let x = int16s(seed, n);
        let mut out = vec![0i16; n];
        requantize_int16(&x, &params, &mut out).unwrap();
        let expected: Vec<i16> = x
            .iter()
            .map(|&v| {
                let y = mul_q(i32::from(v) - zi, params.multiplier) + zo;
                y.clamp(-32768, 32767) as i16
            })
            .collect();
        prop_assert_eq!(out, expected);
    }
}

// --------------------------------------------------------- MEAN, SUM ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Over any axes of a tensor of rank 1 to 4: each output is the sum of
    /// its elements less the input's zero point per element, requantized
    /// by the mean's (or the sum's) multiplier, plus the output's zero
    /// point, clamped to int16.
    #[test]
    fn mean_and_sum_int16_are_their_naive_definitions(
        dims in prop::collection::vec(1usize..5, 1..5),
        reduced in prop::collection::vec(any::<bool>(), 4),
        (si, so) in (scale(), scale()),
        (zi, zo) in (-100i32..100, -100i32..100),
        sum in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rank = dims.len();
        let axes: Vec<i32> = (0..rank).filter(|&k| reduced[k]).map(|k| k as i32).collect();
        let r = reduce_axes(&dims, &axes).unwrap();
        let count: usize = (0..rank).filter(|&k| reduced[k]).map(|k| dims[k]).product();
        let params = if sum {
            sum_params(si, zi, so, zo, count).unwrap()
        } else {
            mean_params(si, zi, so, zo, count).unwrap()
        };
        let x = int16s(seed, dims.iter().product());
        let kept: Vec<usize> = (0..rank).filter(|&k| !reduced[k]).map(|k| dims[k]).collect();
        let mut out = vec![0i16; kept.iter().product()];
        mean_or_sum_int16(&x, &r, &params, &mut out).unwrap();
        // each input element added to the output at its kept coordinates
        let mut sums = vec![0i64; out.len()];
        for (i, c) in coordinates(&dims).iter().enumerate() {
            let kept_coords: Vec<usize> = (0..rank).filter(|&k| !reduced[k]).map(|k| c[k]).collect();
            sums[broadcast_index(&kept, &kept_coords)] += i64::from(x[i]);
        }
        let expected: Vec<i16> = sums
            .iter()
            .map(|&s| {
                let shifted = i32::try_from(s - i64::from(zi) * count as i64).unwrap();
                let y = mul_q(shifted, params.multiplier) + zo;
                y.clamp(-32768, 32767) as i16
            })
            .collect();
        prop_assert_eq!(out, expected);
    }
}
