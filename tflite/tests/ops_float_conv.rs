//! The f32 convolutions and pools (`CONV_2D`, `DEPTHWISE_CONV_2D`,
//! `TRANSPOSE_CONV`, `AVERAGE_POOL_2D`, `MAX_POOL_2D`) against TFLite Micro
//! and against naive references.
//!
//! First each float one-op model of `tests/ops/` is run through its op's
//! public kernel on the inputs TFLite Micro recorded (constants read from
//! the model, the padding from `conv_axis`, the clamp from
//! `activation_range_f32`), every output compared with TFLite Micro's to
//! the bit (the sign of zero included). Then property tests against
//! references written plainly below, in TFLite's loop order (random
//! shapes, strides, dilations, paddings, depth multipliers, activations;
//! values with zeros of both signs, NaN and infinities), compared to the
//! bit; then the checks that refuse bad operands before anything is
//! written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    activation_range_f32, average_pool_f32, conv_2d_f32, conv_axis, depthwise_conv_f32,
    max_pool_f32, transpose_conv_f32, transpose_conv_params, Activation, Array, Conv2dDims,
    ConvF32Params, DepthwiseConvDims, Model, Options, PoolDims, PoolF32Params, TfliteError,
    TransposeConvDims, TransposeConvF32Params,
};

fn read(name: &str) -> (Vec<u8>, Value) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
    let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
    let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
    (bytes, serde_json::from_str(&json).unwrap())
}

/// A recorded tensor's data as f32 values.
fn f32s(data: &Value) -> Vec<f32> {
    data.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_f64().expect("a number") as f32)
        .collect()
}

fn shape(model: &Model, tensor: usize) -> Vec<usize> {
    model
        .tensor(tensor)
        .unwrap()
        .shape()
        .iter()
        .map(|d| usize::try_from(d).unwrap())
        .collect()
}

/// A constant f32 tensor of the model.
fn constant(model: &Model, tensor: usize) -> Vec<f32> {
    model
        .tensor(tensor)
        .unwrap()
        .data_as::<f32>()
        .unwrap()
        .iter()
        .collect()
}

/// Whether two runs are the same bits (any NaN matching any NaN).
fn same_bits(ours: &[f32], theirs: &[f32]) -> bool {
    ours.len() == theirs.len()
        && ours
            .iter()
            .zip(theirs)
            .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
}

/// Runs the one operator of model `name` through its public f32 kernel on
/// every recorded case and compares every output with TFLite Micro's, to
/// the bit; returns the values compared.
fn check_model(name: &str) -> usize {
    let (bytes, recording) = read(name);
    let model = Model::parse(&bytes).unwrap();
    let cases = recording["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 8, "{name}: every oracle records 8 cases");
    let op = model.operator(0).unwrap();
    let out = op.output(0).unwrap();
    let o = shape(&model, out);
    let mut compared = 0;
    for case in cases {
        let want = f32s(&case["out"]);
        let mut got = vec![f32::NAN; want.len()];
        match op.options() {
            Options::Conv2d(opt) => {
                let (x_at, f_at) = (op.input(0).unwrap(), op.input(1).unwrap());
                let (i, f) = (shape(&model, x_at), shape(&model, f_at));
                let rows = conv_axis(
                    opt.padding,
                    i[1],
                    f[1],
                    opt.stride_h as usize,
                    opt.dilation_h as usize,
                )
                .unwrap();
                let cols = conv_axis(
                    opt.padding,
                    i[2],
                    f[2],
                    opt.stride_w as usize,
                    opt.dilation_w as usize,
                )
                .unwrap();
                assert_eq!((rows.output, cols.output), (o[1], o[2]));
                let (output_min, output_max) = activation_range_f32(opt.fused_activation).unwrap();
                let dims = Conv2dDims {
                    batches: i[0],
                    input_height: i[1],
                    input_width: i[2],
                    input_depth: i[3],
                    filter_height: f[1],
                    filter_width: f[2],
                    output_height: o[1],
                    output_width: o[2],
                    output_depth: f[0],
                };
                let params = ConvF32Params {
                    stride_height: opt.stride_h as usize,
                    stride_width: opt.stride_w as usize,
                    dilation_height: opt.dilation_h as usize,
                    dilation_width: opt.dilation_w as usize,
                    pad_top: rows.pad_before,
                    pad_left: cols.pad_before,
                    output_min,
                    output_max,
                };
                let bias = op.input(2).map(|b| constant(&model, b));
                let x = f32s(&case["input"]);
                // the filter read in place from the model, as the interpreter reads it
                let filter = model.tensor(f_at).unwrap().data_as::<f32>().unwrap();
                conv_2d_f32(&x, &filter, bias.as_deref(), dims, &params, &mut got).unwrap();
            }
            Options::DepthwiseConv2d(opt) => {
                let (x_at, f_at) = (op.input(0).unwrap(), op.input(1).unwrap());
                let (i, f) = (shape(&model, x_at), shape(&model, f_at));
                let rows = conv_axis(
                    opt.padding,
                    i[1],
                    f[1],
                    opt.stride_h as usize,
                    opt.dilation_h as usize,
                )
                .unwrap();
                let cols = conv_axis(
                    opt.padding,
                    i[2],
                    f[2],
                    opt.stride_w as usize,
                    opt.dilation_w as usize,
                )
                .unwrap();
                let (output_min, output_max) = activation_range_f32(opt.fused_activation).unwrap();
                let dims = DepthwiseConvDims {
                    batches: i[0],
                    input_height: i[1],
                    input_width: i[2],
                    input_depth: i[3],
                    filter_height: f[1],
                    filter_width: f[2],
                    depth_multiplier: f[3] / i[3],
                    output_height: rows.output,
                    output_width: cols.output,
                };
                let params = ConvF32Params {
                    stride_height: opt.stride_h as usize,
                    stride_width: opt.stride_w as usize,
                    dilation_height: opt.dilation_h as usize,
                    dilation_width: opt.dilation_w as usize,
                    pad_top: rows.pad_before,
                    pad_left: cols.pad_before,
                    output_min,
                    output_max,
                };
                let bias = op.input(2).map(|b| constant(&model, b));
                let filter = constant(&model, f_at);
                let x = f32s(&case["input"]);
                depthwise_conv_f32(&x, &filter[..], bias.as_deref(), dims, &params, &mut got)
                    .unwrap();
            }
            Options::Pool2d(opt) => {
                let i = shape(&model, op.input(0).unwrap());
                let (fh, fw) = (opt.filter_height as usize, opt.filter_width as usize);
                let rows = conv_axis(opt.padding, i[1], fh, opt.stride_h as usize, 1).unwrap();
                let cols = conv_axis(opt.padding, i[2], fw, opt.stride_w as usize, 1).unwrap();
                let (output_min, output_max) = activation_range_f32(opt.fused_activation).unwrap();
                let dims = PoolDims {
                    batches: i[0],
                    input_height: i[1],
                    input_width: i[2],
                    depth: i[3],
                    filter_height: fh,
                    filter_width: fw,
                    output_height: rows.output,
                    output_width: cols.output,
                };
                let params = PoolF32Params {
                    stride_height: opt.stride_h as usize,
                    stride_width: opt.stride_w as usize,
                    pad_top: rows.pad_before,
                    pad_left: cols.pad_before,
                    output_min,
                    output_max,
                };
                let x = f32s(&case["input"]);
                match op.op().name() {
                    "AVERAGE_POOL_2D" => average_pool_f32(&x, dims, &params, &mut got).unwrap(),
                    "MAX_POOL_2D" => max_pool_f32(&x, dims, &params, &mut got).unwrap(),
                    other => panic!("{name}: {other}"),
                }
            }
            Options::TransposeConv(opt) => {
                let (f_at, x_at) = (op.input(1).unwrap(), op.input(2).unwrap());
                let (i, f) = (shape(&model, x_at), shape(&model, f_at));
                let dims = TransposeConvDims {
                    batches: i[0],
                    input_height: i[1],
                    input_width: i[2],
                    input_depth: i[3],
                    filter_height: f[1],
                    filter_width: f[2],
                    output_height: o[1],
                    output_width: o[2],
                    output_depth: f[0],
                };
                let strides = (opt.stride_h as usize, opt.stride_w as usize);
                let pads =
                    transpose_conv_params(opt.padding, strides, &dims, 0, 0, &[], (0, 0)).unwrap();
                let (output_min, output_max) = activation_range_f32(opt.fused_activation).unwrap();
                let params = TransposeConvF32Params {
                    stride_height: strides.0,
                    stride_width: strides.1,
                    pad_top: pads.pad_top,
                    pad_left: pads.pad_left,
                    output_min,
                    output_max,
                };
                let bias = op.input(3).map(|b| constant(&model, b));
                assert!(bias.is_some(), "{name}: the model has a bias");
                let filter = constant(&model, f_at);
                let x = f32s(&case["input"]);
                transpose_conv_f32(&x, &filter[..], bias.as_deref(), dims, &params, &mut got)
                    .unwrap();
            }
            other => panic!("{name}: {other:?}"),
        }
        assert!(
            same_bits(&got, &want),
            "{name} {}: ours {got:?}, TFLite Micro's {want:?}",
            case["name"]
        );
        compared += want.len();
    }
    compared
}

#[test]
fn the_float_convolutions_and_pools_match_tflite_micro_to_the_bit() {
    for name in [
        "f32_conv_3x3_same_relu",
        "f32_conv_5x3_s2_valid",
        "f32_conv_dilated",
        "f32_conv_1x1_relu6",
        "f32_dw_3x3_s2_mult2_relu6",
        "f32_dw_5x5_valid",
        "f32_avgpool_3x3_s2_same",
        "f32_maxpool_2x2",
        "f32_transpose_conv_3x3_s2",
    ] {
        let compared = check_model(name);
        assert!(compared >= 8 * 24, "{name}: {compared} values compared");
    }
}

// The references: TFLite Micro's float kernels written plainly, in their
// loop order, one output at a time.

/// TFLite's `ActivationFunctionWithMinMax`: `std::min(std::max(x, lo), hi)`.
fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    let y = if x < lo { lo } else { x };
    if hi < y {
        hi
    } else {
        y
    }
}

/// Input position `o · stride − pad + k · dilation` if inside `0..size`.
fn inside(
    o: usize,
    stride: usize,
    pad: usize,
    k: usize,
    dilation: usize,
    size: usize,
) -> Option<usize> {
    let at = (o * stride + k * dilation) as i64 - pad as i64;
    (at >= 0 && at < size as i64).then_some(at as usize)
}

fn naive_conv(
    x: &[f32],
    f: &[f32],
    bias: Option<&[f32]>,
    d: Conv2dDims,
    p: &ConvF32Params,
) -> Vec<f32> {
    let mut out = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for oc in 0..d.output_depth {
                    let mut total = 0.0f32;
                    for ky in 0..d.filter_height {
                        let Some(iy) = inside(
                            oy,
                            p.stride_height,
                            p.pad_top,
                            ky,
                            p.dilation_height,
                            d.input_height,
                        ) else {
                            continue;
                        };
                        for kx in 0..d.filter_width {
                            let Some(ix) = inside(
                                ox,
                                p.stride_width,
                                p.pad_left,
                                kx,
                                p.dilation_width,
                                d.input_width,
                            ) else {
                                continue;
                            };
                            for ic in 0..d.input_depth {
                                let xv = x[((b * d.input_height + iy) * d.input_width + ix)
                                    * d.input_depth
                                    + ic];
                                let fv = f[((oc * d.filter_height + ky) * d.filter_width + kx)
                                    * d.input_depth
                                    + ic];
                                total += xv * fv;
                            }
                        }
                    }
                    let bias_value = bias.map_or(0.0, |b| b[oc]);
                    out.push(clamp(total + bias_value, p.output_min, p.output_max));
                }
            }
        }
    }
    out
}

fn naive_depthwise(
    x: &[f32],
    f: &[f32],
    bias: Option<&[f32]>,
    d: DepthwiseConvDims,
    p: &ConvF32Params,
) -> Vec<f32> {
    let od = d.input_depth * d.depth_multiplier;
    let mut out = vec![f32::NAN; d.batches * d.output_height * d.output_width * od];
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for ic in 0..d.input_depth {
                    for m in 0..d.depth_multiplier {
                        let oc = m + ic * d.depth_multiplier;
                        let mut total = 0.0f32;
                        for ky in 0..d.filter_height {
                            for kx in 0..d.filter_width {
                                let iy = inside(
                                    oy,
                                    p.stride_height,
                                    p.pad_top,
                                    ky,
                                    p.dilation_height,
                                    d.input_height,
                                );
                                let ix = inside(
                                    ox,
                                    p.stride_width,
                                    p.pad_left,
                                    kx,
                                    p.dilation_width,
                                    d.input_width,
                                );
                                if let (Some(iy), Some(ix)) = (iy, ix) {
                                    let xv = x[((b * d.input_height + iy) * d.input_width + ix)
                                        * d.input_depth
                                        + ic];
                                    let fv = f[(ky * d.filter_width + kx) * od + oc];
                                    total += xv * fv;
                                }
                            }
                        }
                        let bias_value = bias.map_or(0.0, |b| b[oc]);
                        out[((b * d.output_height + oy) * d.output_width + ox) * od + oc] =
                            clamp(total + bias_value, p.output_min, p.output_max);
                    }
                }
            }
        }
    }
    out
}

/// Both pools; `None` where a window has no tap inside (TFLite's error).
fn naive_pool(x: &[f32], d: PoolDims, p: &PoolF32Params, max: bool) -> Option<Vec<f32>> {
    let mut out = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for c in 0..d.depth {
                    let mut total = 0.0f32;
                    let mut count = 0.0f32;
                    let mut largest = f32::MIN;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let iy = inside(oy, p.stride_height, p.pad_top, ky, 1, d.input_height);
                            let ix = inside(ox, p.stride_width, p.pad_left, kx, 1, d.input_width);
                            if let (Some(iy), Some(ix)) = (iy, ix) {
                                let v = x[((b * d.input_height + iy) * d.input_width + ix)
                                    * d.depth
                                    + c];
                                total += v;
                                count += 1.0;
                                // std::max(largest, v)
                                largest = if largest < v { v } else { largest };
                            }
                        }
                    }
                    let y = if max {
                        largest
                    } else {
                        if count == 0.0 {
                            return None;
                        }
                        total / count
                    };
                    out.push(clamp(y, p.output_min, p.output_max));
                }
            }
        }
    }
    Some(out)
}

fn naive_transpose_conv(
    x: &[f32],
    f: &[f32],
    bias: Option<&[f32]>,
    d: TransposeConvDims,
    p: &TransposeConvF32Params,
) -> Vec<f32> {
    let mut out = vec![0.0f32; d.batches * d.output_height * d.output_width * d.output_depth];
    for b in 0..d.batches {
        for iy in 0..d.input_height {
            for ix in 0..d.input_width {
                for ic in 0..d.input_depth {
                    let oy0 = (iy * p.stride_height) as i64 - p.pad_top as i64;
                    let ox0 = (ix * p.stride_width) as i64 - p.pad_left as i64;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            for oc in 0..d.output_depth {
                                let (oy, ox) = (oy0 + ky as i64, ox0 + kx as i64);
                                if oy >= 0
                                    && oy < d.output_height as i64
                                    && ox >= 0
                                    && ox < d.output_width as i64
                                {
                                    let xv = x[((b * d.input_height + iy) * d.input_width + ix)
                                        * d.input_depth
                                        + ic];
                                    let fv = f[((oc * d.filter_height + ky) * d.filter_width + kx)
                                        * d.input_depth
                                        + ic];
                                    let at = ((b * d.output_height + oy as usize) * d.output_width
                                        + ox as usize)
                                        * d.output_depth
                                        + oc;
                                    out[at] += xv * fv;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for (k, y) in out.iter_mut().enumerate() {
        let mut acc = *y;
        if let Some(bias) = bias {
            acc += bias[k % d.output_depth];
        }
        *y = clamp(acc, p.output_min, p.output_max);
    }
    out
}

/// `values` as a model stores them: little-endian bytes.
fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

// The strategies.

fn values(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(
        prop_oneof![
            8 => -10.0f32..10.0,
            1 => Just(0.0f32),
            1 => Just(-0.0f32),
            1 => -1e-20f32..1e-20,
            1 => prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY), Just(3e38f32)],
        ],
        n,
    )
}

/// Mostly finite values, so that most outputs are not NaN.
fn finite(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(
        prop_oneof![8 => -10.0f32..10.0, 1 => Just(0.0f32), 1 => Just(-0.0f32)],
        n,
    )
}

fn clamp_range() -> impl Strategy<Value = (f32, f32)> {
    prop_oneof![
        Just(Activation::None),
        Just(Activation::Relu),
        Just(Activation::Relu6),
        Just(Activation::ReluN1To1)
    ]
    .prop_map(|a| activation_range_f32(a).unwrap())
}

/// The geometry of one axis: input size, filter size, stride, dilation,
/// padding before, output size (any, the kernels take what they are given).
fn axis() -> impl Strategy<Value = (usize, usize, usize, usize, usize, usize)> {
    (
        1usize..7,
        1usize..4,
        1usize..4,
        1usize..3,
        0usize..3,
        1usize..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn conv_is_the_naive_conv(
        (b, (ih, kh, sh, dh, pt, oh), (iw, kw, sw, dw, pl, ow), ic, oc) in
            (1usize..3, axis(), axis(), 1usize..5, 1usize..10),
        (x, f, bias, has_bias) in (finite(300), values(1000), finite(10), any::<bool>()),
        (output_min, output_max) in clamp_range(),
    ) {
        let dims = Conv2dDims {
            batches: b, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: kh, filter_width: kw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let params = ConvF32Params {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl, output_min, output_max,
        };
        let x = &x[..b * ih * iw * ic];
        let f = &f[..oc * kh * kw * ic];
        let bias = has_bias.then(|| &bias[..oc]);
        let mut got = vec![f32::NAN; b * oh * ow * oc];
        conv_2d_f32(x, f, bias, dims, &params, &mut got).unwrap();
        let want = naive_conv(x, f, bias, dims, &params);
        prop_assert!(same_bits(&got, &want), "{got:?}\n{want:?}");
        // the filter and bias read from a model's bytes (the kernel's other loop)
        let (f_bytes, b_bytes) = (le_bytes(f), le_bytes(bias.unwrap_or(&[])));
        let (f_in_place, b_in_place) = (Array::<f32>::new(&f_bytes).unwrap(), Array::<f32>::new(&b_bytes).unwrap());
        conv_2d_f32(x, &f_in_place, bias.map(|_| &b_in_place), dims, &params, &mut got).unwrap();
        prop_assert!(same_bits(&got, &want), "in place: {got:?}\n{want:?}");
    }

    #[test]
    fn depthwise_is_the_naive_depthwise(
        (b, (ih, kh, sh, dh, pt, oh), (iw, kw, sw, dw, pl, ow), ic, m) in
            (1usize..3, axis(), axis(), 1usize..6, 1usize..4),
        (x, f, bias, has_bias) in (finite(400), values(400), finite(20), any::<bool>()),
        (output_min, output_max) in clamp_range(),
    ) {
        let dims = DepthwiseConvDims {
            batches: b, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: kh, filter_width: kw, depth_multiplier: m,
            output_height: oh, output_width: ow,
        };
        let params = ConvF32Params {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl, output_min, output_max,
        };
        let od = ic * m;
        let x = &x[..b * ih * iw * ic];
        let f = &f[..kh * kw * od];
        let bias = has_bias.then(|| &bias[..od]);
        let mut got = vec![f32::NAN; b * oh * ow * od];
        depthwise_conv_f32(x, f, bias, dims, &params, &mut got).unwrap();
        let want = naive_depthwise(x, f, bias, dims, &params);
        prop_assert!(same_bits(&got, &want), "{got:?}\n{want:?}");
        let f_bytes = le_bytes(f);
        let f_in_place = Array::<f32>::new(&f_bytes).unwrap();
        depthwise_conv_f32(x, &f_in_place, bias, dims, &params, &mut got).unwrap();
        prop_assert!(same_bits(&got, &want), "in place: {got:?}\n{want:?}");
    }

    // depth multiplier 1 with enough channels for the slice path's blocks
    // of 8 (and the ones past the last block), pixels in pairs and alone
    #[test]
    fn depthwise_blocks_are_the_naive_depthwise(
        (b, (ih, kh, sh, dh, pt, oh), (iw, kw, sw, dw, pl, ow), ic) in
            (1usize..3, axis(), axis(), 6usize..21),
        (x, f, bias, has_bias) in (finite(1440), values(180), finite(20), any::<bool>()),
        (output_min, output_max) in clamp_range(),
    ) {
        let dims = DepthwiseConvDims {
            batches: b, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: kh, filter_width: kw, depth_multiplier: 1,
            output_height: oh, output_width: ow,
        };
        let params = ConvF32Params {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl, output_min, output_max,
        };
        let x = &x[..b * ih * iw * ic];
        let f = &f[..kh * kw * ic];
        let bias = has_bias.then(|| &bias[..ic]);
        let mut got = vec![f32::NAN; b * oh * ow * ic];
        depthwise_conv_f32(x, f, bias, dims, &params, &mut got).unwrap();
        let want = naive_depthwise(x, f, bias, dims, &params);
        prop_assert!(same_bits(&got, &want), "{got:?}\n{want:?}");
    }

    #[test]
    fn the_pools_are_the_naive_pools(
        (b, (ih, kh, sh, _, pt, oh), (iw, kw, sw, _, pl, ow), c) in
            (1usize..3, axis(), axis(), 1usize..6),
        x in values(400),
        (output_min, output_max) in clamp_range(),
    ) {
        let dims = PoolDims {
            batches: b, input_height: ih, input_width: iw, depth: c,
            filter_height: kh, filter_width: kw, output_height: oh, output_width: ow,
        };
        let params = PoolF32Params {
            stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl, output_min, output_max,
        };
        let x = &x[..b * ih * iw * c];
        let mut got = vec![f32::NAN; b * oh * ow * c];
        max_pool_f32(x, dims, &params, &mut got).unwrap();
        let want = naive_pool(x, dims, &params, true).unwrap();
        prop_assert!(same_bits(&got, &want), "max: {got:?}\n{want:?}");
        let before = got.clone();
        match naive_pool(x, dims, &params, false) {
            Some(want) => {
                average_pool_f32(x, dims, &params, &mut got).unwrap();
                prop_assert!(same_bits(&got, &want), "average: {got:?}\n{want:?}");
            }
            None => {
                // a window without a tap: refused, nothing written
                prop_assert!(average_pool_f32(x, dims, &params, &mut got).is_err());
                prop_assert!(same_bits(&got, &before));
            }
        }
    }

    #[test]
    fn transpose_conv_is_the_naive_scatter(
        (b, (ih, kh, sh, _, pt, oh), (iw, kw, sw, _, pl, ow), ic, oc) in
            (1usize..3, axis(), axis(), 1usize..5, 1usize..6),
        (x, f, bias, has_bias) in (finite(300), values(500), finite(10), any::<bool>()),
        (output_min, output_max) in clamp_range(),
    ) {
        // an output up to twice the input's reach
        let (oh, ow) = (oh + ih * sh, ow + iw * sw);
        let dims = TransposeConvDims {
            batches: b, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: kh, filter_width: kw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let params = TransposeConvF32Params {
            stride_height: sh, stride_width: sw, pad_top: pt, pad_left: pl, output_min, output_max,
        };
        let x = &x[..b * ih * iw * ic];
        let f = &f[..oc * kh * kw * ic];
        let bias = has_bias.then(|| &bias[..oc]);
        let mut got = vec![f32::NAN; b * oh * ow * oc];
        transpose_conv_f32(x, f, bias, dims, &params, &mut got).unwrap();
        let want = naive_transpose_conv(x, f, bias, dims, &params);
        prop_assert!(same_bits(&got, &want), "{got:?}\n{want:?}");
        let f_bytes = le_bytes(f);
        let f_in_place = Array::<f32>::new(&f_bytes).unwrap();
        transpose_conv_f32(x, &f_in_place, bias, dims, &params, &mut got).unwrap();
        prop_assert!(same_bits(&got, &want), "in place: {got:?}\n{want:?}");
    }
}

// The checks: each bad operand refused before anything is written.

fn conv_case() -> (Conv2dDims, ConvF32Params) {
    let dims = Conv2dDims {
        batches: 1,
        input_height: 3,
        input_width: 3,
        input_depth: 2,
        filter_height: 2,
        filter_width: 2,
        output_height: 2,
        output_width: 2,
        output_depth: 3,
    };
    let params = ConvF32Params {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: f32::MIN,
        output_max: f32::MAX,
    };
    (dims, params)
}

#[test]
fn bad_operands_are_refused_with_the_output_untouched() {
    let (dims, params) = conv_case();
    let (x, f, bias) = ([1.0f32; 18], [0.5f32; 24], [0.25f32; 3]);
    let mut out = [7.0f32; 12];
    let untouched = |out: &[f32]| out.iter().all(|&v| v == 7.0);
    // lengths: the input, the filter, the bias, the output
    for (x, f, bias, n) in [
        (&x[..17], &f[..], &bias[..], 12),
        (&x[..], &f[..23], &bias[..], 12),
        (&x[..], &f[..], &bias[..2], 12),
        (&x[..], &f[..], &bias[..], 11),
    ] {
        let r = conv_2d_f32(x, f, Some(bias), dims, &params, &mut out[..n]);
        assert!(matches!(r, Err(TfliteError::Length { .. })), "{r:?}");
        assert!(untouched(&out));
    }
    // a stride or dilation of 0, an empty or NaN clamp
    for params in [
        ConvF32Params {
            stride_height: 0,
            ..params
        },
        ConvF32Params {
            dilation_width: 0,
            ..params
        },
        ConvF32Params {
            output_min: 1.0,
            output_max: 0.0,
            ..params
        },
        ConvF32Params {
            output_min: f32::NAN,
            ..params
        },
    ] {
        let r = conv_2d_f32(&x, &f, Some(&bias), dims, &params, &mut out);
        assert!(matches!(r, Err(TfliteError::KernelParam { .. })), "{r:?}");
        assert!(untouched(&out));
    }
    conv_2d_f32(&x, &f, Some(&bias), dims, &params, &mut out).unwrap();
    assert!(out.iter().all(|&v| v == 4.25)); // 8 taps of 0.5, plus 0.25

    // depthwise: a depth multiplier of 0, a filter of the wrong length
    let dw = DepthwiseConvDims {
        batches: 1,
        input_height: 3,
        input_width: 3,
        input_depth: 2,
        filter_height: 2,
        filter_width: 2,
        depth_multiplier: 2,
        output_height: 2,
        output_width: 2,
    };
    let mut out = [7.0f32; 16];
    let r = depthwise_conv_f32(&x, &f[..15], None::<&[f32]>, dw, &params, &mut out);
    assert!(matches!(r, Err(TfliteError::Length { .. })), "{r:?}");
    let zero = DepthwiseConvDims {
        depth_multiplier: 0,
        ..dw
    };
    let r = depthwise_conv_f32(&x, &f[..0], None::<&[f32]>, zero, &params, &mut out[..0]);
    assert!(matches!(r, Err(TfliteError::KernelParam { .. })), "{r:?}");
    assert!(untouched(&out));

    // an average pool whose window lies in the padding
    let pool = PoolDims {
        batches: 1,
        input_height: 2,
        input_width: 2,
        depth: 1,
        filter_height: 1,
        filter_width: 1,
        output_height: 2,
        output_width: 2,
    };
    let padded = PoolF32Params {
        stride_height: 1,
        stride_width: 1,
        pad_top: 1,
        pad_left: 0,
        output_min: f32::MIN,
        output_max: f32::MAX,
    };
    let mut out = [7.0f32; 4];
    let r = average_pool_f32(&[1.0; 4], pool, &padded, &mut out);
    assert!(matches!(r, Err(TfliteError::KernelParam { .. })), "{r:?}");
    assert!(untouched(&out));
    // a max pool there is f32::MIN (TFLite's lowest()), then the clamp
    max_pool_f32(&[1.0; 4], pool, &padded, &mut out).unwrap();
    assert_eq!(out, [f32::MIN, f32::MIN, 1.0, 1.0]);

    // a transposed convolution with a stride of 0 or a bias of the wrong length
    let tc = TransposeConvDims {
        batches: 1,
        input_height: 1,
        input_width: 2,
        input_depth: 1,
        filter_height: 1,
        filter_width: 2,
        output_height: 1,
        output_width: 4,
        output_depth: 1,
    };
    let tp = TransposeConvF32Params {
        stride_height: 1,
        stride_width: 2,
        pad_top: 0,
        pad_left: 0,
        output_min: f32::MIN,
        output_max: f32::MAX,
    };
    let mut out = [7.0f32; 4];
    let r = transpose_conv_f32(
        &[1.0, 2.0],
        &[1.0, 1.0],
        Some(&[0.0, 0.0]),
        tc,
        &tp,
        &mut out,
    );
    assert!(matches!(r, Err(TfliteError::Length { .. })), "{r:?}");
    let stride0 = TransposeConvF32Params {
        stride_width: 0,
        ..tp
    };
    let r = transpose_conv_f32(
        &[1.0, 2.0],
        &[1.0, 1.0],
        None::<&[f32]>,
        tc,
        &stride0,
        &mut out,
    );
    assert!(matches!(r, Err(TfliteError::KernelParam { .. })), "{r:?}");
    assert!(untouched(&out));
}

#[test]
fn zeros_keep_tflite_micros_signs() {
    // a sum from +0.0: −0.0 · 1 + … is +0.0; without a bias TFLite adds +0.0
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
    let (lo, hi) = activation_range_f32(Activation::Relu).unwrap();
    let params = ConvF32Params {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: lo,
        output_max: hi,
    };
    let mut out = [7.0f32];
    conv_2d_f32(&[-0.0], &[1.0], None::<&[f32]>, dims, &params, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), 0.0f32.to_bits());
    // a bias of −0.0 on a +0.0 sum is +0.0 too
    conv_2d_f32(&[-0.0], &[1.0], Some(&[-0.0]), dims, &params, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), 0.0f32.to_bits());
    // a NaN passes the ReLU
    conv_2d_f32(&[f32::NAN], &[1.0], Some(&[-0.0]), dims, &params, &mut out).unwrap();
    assert!(out[0].is_nan());
    // a max pool keeps the first of +0.0 and −0.0 (std::max), then the
    // ReLU keeps −0.0 against +0.0
    let pool = PoolDims {
        batches: 1,
        input_height: 1,
        input_width: 2,
        depth: 1,
        filter_height: 1,
        filter_width: 2,
        output_height: 1,
        output_width: 1,
    };
    let pp = PoolF32Params {
        stride_height: 1,
        stride_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: lo,
        output_max: hi,
    };
    max_pool_f32(&[-0.0, 0.0], pool, &pp, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), (-0.0f32).to_bits());
    max_pool_f32(&[0.0, -0.0], pool, &pp, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), 0.0f32.to_bits());
    // a NaN tap is passed over
    max_pool_f32(&[f32::NAN, -3.0], pool, &pp, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), 0.0f32.to_bits());
}
