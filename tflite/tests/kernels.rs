//! The depthwise convolution, softmax and reshape kernels beyond the
//! models' layers (tests/interpreter.rs checks those against TFLite bit for
//! bit): padding, strides, dilation, depth multipliers and channels the
//! models do not use, against the crate's one reference
//! convolution (`shapecheck_tflite::reference`); the int8
//! softmax against the float softmax it approximates; and every check that
//! refuses an input before anything is written.

use shapecheck_tflite::{
    conv_axis, depthwise_conv_int8, quantize_multiplier, reference, reshape, reshape_dims,
    softmax_int8, softmax_params, ConvAxis, DepthwiseConvDims, DepthwiseConvParams, Padding,
    QuantizedMultiplier, Rounding, TfliteError,
};

/// TFLite's padding arithmetic as its C++ writes it, in signed integers:
/// `ComputeOutSize` and `ComputePaddingWithOffset`.
fn tflite_axis(
    padding: Padding,
    input: i64,
    filter: i64,
    stride: i64,
    dilation: i64,
) -> (i64, i64) {
    let effective = (filter - 1) * dilation + 1;
    let out = match padding {
        Padding::Same => (input + stride - 1) / stride,
        _ => (input + stride - effective) / stride,
    };
    let total = ((out - 1) * stride + effective - input).max(0);
    (out, total / 2)
}

#[test]
fn conv_axis_is_tflite_s_padding_arithmetic() {
    let mut compared = 0;
    for padding in [Padding::Same, Padding::Valid] {
        for input in 1..20i64 {
            for filter in 1..6i64 {
                for stride in 1..4i64 {
                    for dilation in 1..4i64 {
                        let (out, pad) = tflite_axis(padding, input, filter, stride, dilation);
                        let got = conv_axis(
                            padding,
                            input as usize,
                            filter as usize,
                            stride as usize,
                            dilation as usize,
                        );
                        if padding == Padding::Valid && (filter - 1) * dilation + 1 > input {
                            assert!(got.is_err(), "{input} {filter} {stride} {dilation}");
                            continue;
                        }
                        assert_eq!(
                            got.unwrap(),
                            ConvAxis {
                                output: out as usize,
                                pad_before: pad as usize
                            },
                            "{padding:?} {input} {filter} {stride} {dilation}"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 1000);
    assert!(matches!(
        conv_axis(Padding::Same, 5, 3, 0, 1),
        Err(TfliteError::KernelParam { .. })
    ));
}

/// A small deterministic generator (no dependency on a seed's crate).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn int8(&mut self) -> i8 {
        self.next() as u8 as i8
    }
}

#[test]
fn depthwise_conv_matches_the_naive_convolution_in_every_configuration() {
    let mut rng = Lcg(58);
    let mut configurations = 0;
    for padding in [Padding::Same, Padding::Valid] {
        for (stride, dilation) in [(1, 1), (2, 1), (1, 2), (3, 2)] {
            // the kernel accumulates 8 output channels of an input channel
            // together: blocks of 8 (speech's 1×8), with a rest, and rests alone
            for (input_depth, depth_multiplier) in [
                (1, 1),
                (1, 3),
                (3, 1),
                (2, 2),
                (1, 8),
                (2, 8),
                (2, 11),
                (1, 17),
            ] {
                for per_channel in [false, true] {
                    let (h, w, fh, fw, batches) = (7, 6, 3, 2, 2);
                    let rows = conv_axis(padding, h, fh, stride, dilation).unwrap();
                    let cols = conv_axis(padding, w, fw, stride, dilation).unwrap();
                    let dims = DepthwiseConvDims {
                        batches,
                        input_height: h,
                        input_width: w,
                        input_depth,
                        filter_height: fh,
                        filter_width: fw,
                        depth_multiplier,
                        output_height: rows.output,
                        output_width: cols.output,
                    };
                    let oc = input_depth * depth_multiplier;
                    let input: Vec<i8> = (0..batches * h * w * input_depth)
                        .map(|_| rng.int8())
                        .collect();
                    let filter: Vec<i8> = (0..fh * fw * oc).map(|_| rng.int8()).collect();
                    let bias: Vec<i32> = (0..oc).map(|_| rng.next() as i32 % 5000).collect();
                    let multipliers: Vec<QuantizedMultiplier> =
                        (0..if per_channel { oc } else { 1 })
                            .map(|c| quantize_multiplier(0.001 + 0.0007 * c as f64).unwrap())
                            .collect();
                    let params = DepthwiseConvParams {
                        stride_height: stride,
                        stride_width: stride,
                        dilation_height: dilation,
                        dilation_width: dilation,
                        pad_top: rows.pad_before,
                        pad_left: cols.pad_before,
                        input_zero_point: -7,
                        output_zero_point: 3,
                        multipliers: &multipliers,
                        output_min: -100,
                        output_max: 90,
                        rounding: Rounding::Double,
                    };
                    // the one reference (shapecheck_tflite::reference)
                    let mut want = vec![
                        0i8;
                        dims.batches
                            * rows.output
                            * cols.output
                            * input_depth
                            * depth_multiplier
                    ];
                    reference::depthwise_conv(
                        &input,
                        &filter,
                        Some(&bias),
                        dims,
                        &params,
                        &mut want,
                    );
                    let mut got = vec![0i8; want.len()];
                    depthwise_conv_int8(
                        &input,
                        filter.as_slice(),
                        Some(bias.as_slice()),
                        dims,
                        &params,
                        &mut got,
                    )
                    .unwrap();
                    assert_eq!(
                        got, want,
                        "{padding:?} stride {stride} dilation {dilation} depth {input_depth}×{depth_multiplier} per-channel {per_channel}"
                    );
                    // the clamp is reached both ways: the case is not all one value
                    assert!(got.contains(&-100) || got.iter().any(|&v| v < 0));
                    configurations += 1;
                }
            }
        }
    }
    assert_eq!(configurations, 2 * 4 * 8 * 2);
}

#[test]
fn depthwise_conv_checks_before_writing() {
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: 2,
        input_width: 2,
        input_depth: 2,
        filter_height: 1,
        filter_width: 1,
        depth_multiplier: 1,
        output_height: 2,
        output_width: 2,
    };
    let m = [quantize_multiplier(0.5).unwrap()];
    let params = DepthwiseConvParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: &m,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let (input, filter, bias) = ([1i8; 8], [1i8; 2], [0i32; 2]);
    let mut out = [9i8; 8];
    let err = depthwise_conv_int8(&input[..7], &filter, Some(&bias), dims, &params, &mut out)
        .unwrap_err();
    assert_eq!(err.to_string(), "the input has 7 elements, not 8");
    let err = depthwise_conv_int8(&input, &filter[..1], Some(&bias), dims, &params, &mut out)
        .unwrap_err();
    assert_eq!(err.to_string(), "the filter has 1 elements, not 2");
    let err = depthwise_conv_int8(&input, &filter, Some(&bias[..1]), dims, &params, &mut out)
        .unwrap_err();
    assert_eq!(err.to_string(), "the bias has 1 elements, not 2");
    let err = depthwise_conv_int8(&input, &filter, Some(&bias), dims, &params, &mut out[..7])
        .unwrap_err();
    assert_eq!(err.to_string(), "the output has 7 elements, not 8");
    let three = [m[0]; 3];
    let err = depthwise_conv_int8(
        &input,
        &filter,
        Some(&bias),
        dims,
        &DepthwiseConvParams {
            multipliers: &three,
            ..params
        },
        &mut out,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "the multipliers has 3 elements, not 2");
    let err = depthwise_conv_int8(
        &input,
        &filter,
        Some(&bias),
        dims,
        &DepthwiseConvParams {
            stride_width: 0,
            ..params
        },
        &mut out,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the stride (width) is 0: it must be at least 1"
    );
    let err = depthwise_conv_int8(
        &input,
        &filter,
        Some(&bias),
        dims,
        &DepthwiseConvParams {
            output_min: 5,
            output_max: 4,
            ..params
        },
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(err, TfliteError::KernelParam { .. }));
    assert_eq!(out, [9; 8], "written on error");
    // and then it runs: a 1×1 filter of ones, multiplier 0.5
    depthwise_conv_int8(
        &[2, 4, 6, 8, 10, 12, 14, 16],
        &filter,
        Some(&bias),
        dims,
        &params,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8]);
}

/// The float softmax of `row` with `scale`, as int8 at 1/256: the
/// models README's formula round_half_up(p · 256) − 128, clamped.
fn float_softmax(row: &[i8], scale: f64) -> Vec<i32> {
    let max = *row.iter().max().unwrap();
    let exps: Vec<f64> = row
        .iter()
        .map(|&x| ((f64::from(x) - f64::from(max)) * scale).exp())
        .collect();
    let sum: f64 = exps.iter().sum();
    exps.iter()
        .map(|e| (((e / sum) * 256.0 + 0.5).floor() as i32 - 128).clamp(-128, 127))
        .collect()
}

#[test]
fn softmax_is_within_one_step_of_the_float_softmax() {
    let mut rng = Lcg(7);
    let (mut compared, mut exact) = (0, 0);
    for (beta, scale) in [
        (1.0f32, 0.09173192f32),
        (1.0, 0.02),
        (0.5, 0.3),
        (2.0, 0.05),
    ] {
        let params = softmax_params(beta, scale).unwrap();
        for depth in [1usize, 2, 4, 10, 100] {
            let input: Vec<i8> = (0..depth * 8).map(|_| rng.int8()).collect();
            let mut out = vec![0i8; input.len()];
            softmax_int8(&input, depth, &params, &mut out).unwrap();
            for (row, got) in input.chunks(depth).zip(out.chunks(depth)) {
                let want = float_softmax(row, f64::from(beta) * f64::from(scale));
                for (&g, &w) in got.iter().zip(&want) {
                    assert!(
                        (i32::from(g) - w).abs() <= 1,
                        "{row:?}: {got:?} vs {want:?}"
                    );
                    compared += 1;
                    exact += usize::from(i32::from(g) == w);
                }
            }
        }
    }
    // the fixed point is that close: most values exact
    assert!(exact * 100 > compared * 95, "{exact} of {compared}");
}

#[test]
fn softmax_of_a_single_class_is_one_and_far_values_are_zero() {
    let params = softmax_params(1.0, 0.5).unwrap();
    let mut out = [0i8; 3];
    softmax_int8(&[5, -20, 100], 1, &params, &mut out).unwrap();
    assert_eq!(out, [127, 127, 127]); // 1.0 saturates at 255/256
                                      // −120 is 220 steps (110) below the max: beyond diff_min (−31), exactly 0
    softmax_int8(&[100, -120, 100], 3, &params, &mut out).unwrap();
    assert_eq!(out, [0, -128, 0]); // 0.5, 0, 0.5
}

#[test]
fn softmax_checks_before_writing() {
    let params = softmax_params(1.0, 0.1).unwrap();
    let mut out = [9i8; 600];
    let err = softmax_int8(&[0; 600], 600, &params, &mut out).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the softmax's sum of exponentials of a row (Q12.19) is 314572800:"),
        "{err}"
    );
    let err = softmax_int8(&[0; 6], 4, &params, &mut out[..6]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the softmax's depth is 4: the input must be whole rows of it"
    );
    let err = softmax_int8(&[0; 6], 3, &params, &mut out[..5]).unwrap_err();
    assert_eq!(err.to_string(), "the output has 5 elements, not 6");
    assert!(out.iter().all(|&v| v == 9), "written on error");
    // 511 equal classes are the most TFLite's fixed point holds
    softmax_int8(&[0; 511], 511, &params, &mut out[..511]).unwrap();
    assert!(out[..511].iter().all(|&v| v == -127), "{:?}", &out[..4]); // 0.5/256 rounds up
    assert!(matches!(
        softmax_params(1.0, 0.0),
        Err(TfliteError::SoftmaxScale { .. })
    ));
    assert!(matches!(
        softmax_params(16.0, 1.0),
        Err(TfliteError::SoftmaxScale { .. })
    ));
    assert!(matches!(
        softmax_params(f32::NAN, 1.0),
        Err(TfliteError::SoftmaxScale { .. })
    ));
}

#[test]
fn reshape_checks_its_new_shape() {
    assert_eq!(reshape_dims(24, [2, -1, 4]).unwrap(), (24, Some(3)));
    assert_eq!(reshape_dims(0, [0, 5]).unwrap(), (0, None));
    for (elements, shape, message) in [
        (6, vec![4, -1], "the reshape's product of the known new dims is 4: it must be above 0 and divide the input's element count"),
        (6, vec![-1, -1], "the reshape's second −1 dim is -1: at most one dim may be inferred"),
        (6, vec![2, -3], "the reshape's new dim is -3: a dim must be −1 (inferred) or at least 0"),
        (6, vec![2, 4], "the reshape's new element count is 8: it must equal the input's element count"),
        (0, vec![0, -1], "the reshape's product of the known new dims is 0: it must be above 0 and divide the input's element count"),
    ] {
        assert_eq!(reshape_dims(elements, shape).unwrap_err().to_string(), message);
    }
    let mut out = [0.0f32; 2];
    assert!(reshape(&[1.0f32], &mut out).is_err());
    assert_eq!(out, [0.0, 0.0]);
}
