//! The `*_prechecked` kernels (the slice kernels without their checks,
//! which `shapecheck`'s typed layers call once their types and checked
//! parameters make the checks hold): on operands the checks would refuse
//! (lengths that are not the sizes', an empty clamp, a stride, dilation or
//! depth of 0, zero points outside int8) they write what they write but
//! never panic; and on operands the checks accept, each writes exactly
//! what its checked kernel writes.

use proptest::prelude::*;
use shapecheck_tflite::*;

/// A small size, 0 included.
fn size() -> impl Strategy<Value = usize> {
    0usize..4
}

/// `n` int8 values.
fn int8s(n: usize) -> impl Strategy<Value = Vec<i8>> {
    proptest::collection::vec(any::<i8>(), n)
}

/// A length near `n`: `n` itself or one off either way (0 stays 0 or 1).
fn near(n: usize) -> impl Strategy<Value = usize> {
    prop_oneof![Just(n), Just(n + 1), Just(n.saturating_sub(1))]
}

fn multiplier() -> impl Strategy<Value = QuantizedMultiplier> {
    (1i32 << 30..i32::MAX, -31i32..8).prop_map(|(m, s)| QuantizedMultiplier::from_parts(m, s))
}

/// Convolution sizes and parameters, valid or not, and operand lengths
/// near the sizes'.
#[derive(Debug, Clone)]
struct Conv {
    dims: Conv2dDims,
    strides: (usize, usize),
    dilations: (usize, usize),
    pads: (usize, usize),
    zero_points: (i32, i32),
    multipliers: Vec<QuantizedMultiplier>,
    clamp: (i32, i32),
    input: Vec<i8>,
    filter: Vec<i8>,
    bias: Option<Vec<i32>>,
    output_len: usize,
}

fn conv() -> impl Strategy<Value = Conv> {
    (
        (
            size(),
            size(),
            size(),
            size(),
            size(),
            size(),
            size(),
            size(),
            size(),
        ),
        (size(), size(), size(), size(), size(), size()),
        (-300i32..300, -300i32..300, -200i32..200, -200i32..200),
        proptest::collection::vec(multiplier(), 0..4),
        any::<bool>(),
    )
        .prop_flat_map(|(d, s, (zi, zo, lo, hi), multipliers, with_bias)| {
            let dims = Conv2dDims {
                batches: d.0,
                input_height: d.1,
                input_width: d.2,
                input_depth: d.3,
                filter_height: d.4,
                filter_width: d.5,
                output_height: d.6,
                output_width: d.7,
                output_depth: d.8,
            };
            let input = dims.batches * dims.input_height * dims.input_width * dims.input_depth;
            let filter =
                dims.output_depth * dims.filter_height * dims.filter_width * dims.input_depth;
            let output = dims.batches * dims.output_height * dims.output_width * dims.output_depth;
            (
                near(input).prop_flat_map(int8s),
                near(filter).prop_flat_map(int8s),
                near(dims.output_depth)
                    .prop_flat_map(|n| proptest::collection::vec(-5000i32..5000, n)),
                near(output),
            )
                .prop_map(move |(input, filter, bias, output_len)| Conv {
                    dims,
                    strides: (s.0, s.1),
                    dilations: (s.2, s.3),
                    pads: (s.4, s.5),
                    zero_points: (zi, zo),
                    multipliers: multipliers.clone(),
                    clamp: (lo, hi),
                    input,
                    filter,
                    bias: with_bias.then_some(bias),
                    output_len,
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn conv_2d_prechecked_never_panics_and_agrees_where_checked(c in conv()) {
        let params = Conv2dParams {
            stride_height: c.strides.0,
            stride_width: c.strides.1,
            dilation_height: c.dilations.0,
            dilation_width: c.dilations.1,
            pad_top: c.pads.0,
            pad_left: c.pads.1,
            input_zero_point: c.zero_points.0,
            output_zero_point: c.zero_points.1,
            multipliers: &c.multipliers,
            output_min: c.clamp.0,
            output_max: c.clamp.1,
            rounding: Rounding::Double,
        };
        let bias = c.bias.as_deref();
        let mut unchecked = vec![0i8; c.output_len];
        conv_2d_int8_prechecked(&c.input, &c.filter[..], bias, c.dims, &params, &mut unchecked);
        let mut checked = vec![0i8; c.output_len];
        if conv_2d_int8(&c.input, &c.filter[..], bias, c.dims, &params, &mut checked).is_ok() {
            prop_assert_eq!(unchecked, checked);
        }
    }

    #[test]
    fn depthwise_prechecked_never_panics_and_agrees_where_checked(c in conv()) {
        // the conv's sizes read as a depthwise's: output_depth the multiplier
        let dims = DepthwiseConvDims {
            batches: c.dims.batches,
            input_height: c.dims.input_height,
            input_width: c.dims.input_width,
            input_depth: c.dims.input_depth,
            filter_height: c.dims.filter_height,
            filter_width: c.dims.filter_width,
            depth_multiplier: c.dims.output_depth,
            output_height: c.dims.output_height,
            output_width: c.dims.output_width,
        };
        let params = DepthwiseConvParams {
            stride_height: c.strides.0,
            stride_width: c.strides.1,
            dilation_height: c.dilations.0,
            dilation_width: c.dilations.1,
            pad_top: c.pads.0,
            pad_left: c.pads.1,
            input_zero_point: c.zero_points.0,
            output_zero_point: c.zero_points.1,
            multipliers: &c.multipliers,
            output_min: c.clamp.0,
            output_max: c.clamp.1,
            rounding: Rounding::Double,
        };
        let bias = c.bias.as_deref();
        let mut unchecked = vec![0i8; c.output_len];
        depthwise_conv_int8_prechecked(&c.input, &c.filter[..], bias, dims, &params, &mut unchecked);
        let mut checked = vec![0i8; c.output_len];
        if depthwise_conv_int8(&c.input, &c.filter[..], bias, dims, &params, &mut checked).is_ok() {
            prop_assert_eq!(unchecked, checked);
        }
    }

    #[test]
    fn pools_prechecked_never_panic_and_agree_where_checked(c in conv()) {
        let dims = PoolDims {
            batches: c.dims.batches,
            input_height: c.dims.input_height,
            input_width: c.dims.input_width,
            depth: c.dims.input_depth,
            filter_height: c.dims.filter_height,
            filter_width: c.dims.filter_width,
            output_height: c.dims.output_height,
            output_width: c.dims.output_width,
        };
        let params = PoolParams {
            stride_height: c.strides.0,
            stride_width: c.strides.1,
            pad_top: c.pads.0,
            pad_left: c.pads.1,
            output_min: c.clamp.0,
            output_max: c.clamp.1,
        };
        let mut unchecked = vec![0i8; c.output_len];
        let mut checked = vec![0i8; c.output_len];
        average_pool_int8_prechecked(&c.input, dims, &params, &mut unchecked);
        if average_pool_int8(&c.input, dims, &params, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
        max_pool_int8_prechecked(&c.input, dims, &params, &mut unchecked);
        if max_pool_int8(&c.input, dims, &params, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
    }

    #[test]
    fn fully_connected_prechecked_never_panics_and_agrees_where_checked(c in conv()) {
        let dims = FullyConnectedDims {
            batches: c.dims.batches,
            input_dim: c.dims.input_depth,
            units: c.dims.output_depth,
        };
        let params = FullyConnectedParams {
            input_zero_point: c.zero_points.0,
            weights_zero_point: c.pads.0 as i32,
            output_zero_point: c.zero_points.1,
            multipliers: &c.multipliers,
            output_min: c.clamp.0,
            output_max: c.clamp.1,
            rounding: Rounding::Double,
        };
        let bias = c.bias.as_deref();
        let mut unchecked = vec![0i8; c.output_len];
        fully_connected_int8_prechecked(&c.input, &c.filter[..], bias, dims, &params, &mut unchecked);
        let mut checked = vec![0i8; c.output_len];
        if fully_connected_int8(&c.input, &c.filter[..], bias, dims, &params, &mut checked).is_ok() {
            prop_assert_eq!(unchecked, checked);
        }
        let floats = |v: &[i8]| v.iter().map(|&x| f32::from(x) / 8.0).collect::<Vec<f32>>();
        let (input, weights) = (floats(&c.input), floats(&c.filter));
        let bias: Option<Vec<f32>> = c.bias.as_ref().map(|b| b.iter().map(|&x| x as f32).collect());
        let mut unchecked = vec![0f32; c.output_len];
        fully_connected_f32_prechecked(&input, &weights[..], bias.as_deref(), dims, -4.0, 4.0, &mut unchecked);
        let mut checked = vec![0f32; c.output_len];
        if fully_connected_f32(&input, &weights[..], bias.as_deref(), dims, -4.0, 4.0, &mut checked).is_ok() {
            prop_assert_eq!(unchecked, checked);
        }
    }

    #[test]
    fn the_elementwise_prechecked_kernels_never_panic_and_agree_where_checked(
        c in conv(),
        count in 0usize..20,
        depth in 0usize..5,
    ) {
        let (h, w, d) = (c.dims.input_height, c.dims.input_width, c.dims.input_depth);
        // mean: any count, any depth
        let mean = MeanParams {
            multiplier: c.multipliers.first().copied().unwrap_or(QuantizedMultiplier::ZERO),
            input_zero_point: c.zero_points.0,
            output_zero_point: c.zero_points.1,
            count,
        };
        let mut unchecked = vec![0i8; c.output_len];
        mean_int8_prechecked(&c.input, d, &mean, &mut unchecked);
        let mut checked = vec![0i8; c.output_len];
        if mean_int8(&c.input, c.dims.batches, h, w, d, &mean, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
        // add: shapes from the sizes, parameters however they come
        let add = AddParams {
            input1_zero_point: c.zero_points.0,
            input1_multiplier: c.multipliers.first().copied().unwrap_or(QuantizedMultiplier::ZERO),
            input2_zero_point: c.zero_points.1,
            input2_multiplier: c.multipliers.last().copied().unwrap_or(QuantizedMultiplier::ZERO),
            output_zero_point: c.clamp.0,
            output_multiplier: c.multipliers.get(1).copied().unwrap_or(QuantizedMultiplier::ZERO),
            output_min: c.clamp.0,
            output_max: c.clamp.1,
        };
        let (a_shape, b_shape) = ([h, w, d], [w, 1]);
        add_int8_prechecked(&c.input[..], &a_shape, &c.filter[..], &b_shape, &add, &mut unchecked);
        if add_int8(&c.input[..], &a_shape, &c.filter[..], &b_shape, &add, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
        // pad: one padding per dim, or one too few
        let paddings = [(c.pads.0, c.pads.1), (c.strides.0, 0), (0, c.strides.1)];
        let shape = [h, w, d];
        let ranks = [3usize, 2];
        for rank in ranks {
            let paddings = &paddings[..rank];
            pad_prechecked(&c.input, &shape, paddings, -1, &mut unchecked);
            if pad(&c.input, &shape, paddings, -1, &mut checked).is_ok() {
                prop_assert_eq!(&unchecked, &checked);
            }
        }
        // logistic: its parameters however they come
        let logistic = LogisticParams {
            input_zero_point: c.zero_points.0,
            input_range_radius: c.clamp.1,
            input_multiplier: c.multipliers.first().copied().unwrap_or(QuantizedMultiplier::ZERO),
        };
        logistic_int8_prechecked(&c.input, &logistic, &mut unchecked);
        if logistic_int8(&c.input, &logistic, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
        // softmax: any depth
        let softmax = softmax_params(1.0, 0.1).unwrap();
        softmax_int8_prechecked(&c.input, depth, &softmax, &mut unchecked);
        if softmax_int8(&c.input, depth, &softmax, &mut checked).is_ok() {
            prop_assert_eq!(&unchecked, &checked);
        }
    }
}

#[test]
fn resizes_to_no_rows_or_columns_write_nothing_and_do_not_panic() {
    // found by fuzz/fuzz_targets/tflite_prechecked.rs: an output of no
    // columns (its buffer not empty) divided by zero in the bilinear scale
    for (output_height, output_width) in [(0, 3), (3, 0), (0, 0)] {
        let dims = ResizeDims {
            batches: 1,
            input_height: 2,
            input_width: 2,
            depth: 1,
            output_height,
            output_width,
        };
        for align_corners in [false, true] {
            let params = ResizeParams {
                align_corners,
                half_pixel_centers: false,
            };
            let mut out = [0x55i8; 4];
            resize_bilinear_int8_prechecked(&[1, 2, 3, 4], dims, params, &mut out);
            assert_eq!(out, [0x55; 4]);
            resize_nearest_neighbor_prechecked(&[1, 2, 3, 4], dims, params, &mut out);
            assert_eq!(out, [0x55; 4]);
            // the checked forms refuse the buffer's length
            assert!(resize_bilinear_int8(&[1, 2, 3, 4], dims, params, &mut out).is_err());
        }
    }
}
