//! The resizes, the transposed convolution, the batch matrix product,
//! log softmax and L2 normalization against TFLite Micro, bit for bit:
//! `RESIZE_NEAREST_NEIGHBOR` and `RESIZE_BILINEAR` with each sampling
//! (half-pixel centres, aligned corners, neither) and a ratio that is not
//! whole, `TRANSPOSE_CONV` with and without a bias, `BATCH_MATMUL` of two
//! activations (adj_y), `LOG_SOFTMAX` and `L2_NORMALIZATION`, on every
//! element of every recorded case of their models in `tests/ops/`. The
//! options, constants and quantization are read from the models with the
//! crate's reader, the parameters derived by the crate's `_params`
//! functions. Then property tests against naive references written
//! plainly here, and the checks that refuse bad lengths and parameters
//! before anything is written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    batch_matmul_int8, batch_matmul_output_shape, batch_matmul_params, fully_connected_multiplier,
    l2_normalization_int8, l2_normalization_params, log_softmax_int8, log_softmax_params,
    resize_bilinear_int8, resize_nearest_neighbor, resize_output_shape, resize_params,
    transpose_conv_int8, transpose_conv_output_shape, transpose_conv_params, Activation, BuiltinOp,
    Model, Operator, Options, Padding, QuantizedMultiplier, ResizeDims, TfliteError,
    TransposeConvDims, TransposeConvParams,
};

macro_rules! op_files {
    ($name:literal) => {
        (
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/ops/",
                $name,
                ".tflite"
            ))
            .as_slice(),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/ops/",
                $name,
                ".json"
            )),
        )
    };
}

fn cases(json: &str) -> Vec<Value> {
    let file: Value = serde_json::from_str(json).expect("JSON");
    let cases = file["cases"].as_array().expect("cases").clone();
    assert_eq!(cases.len(), 8, "every oracle records 8 cases");
    cases
}

/// A recorded tensor of a case, by its index in the model.
fn recorded(case: &Value, tensor: usize) -> &Value {
    let t = &case["tensors"][tensor.to_string()];
    assert!(!t.is_null(), "case {} has no tensor {tensor}", case["name"]);
    &t["data"]
}

fn int8s(data: &Value) -> Vec<i8> {
    data.as_array()
        .expect("array")
        .iter()
        .map(|v| i8::try_from(v.as_i64().expect("integer")).expect("int8"))
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

/// A tensor's per-tensor scale and zero point.
fn quant(model: &Model, tensor: usize) -> (f32, i32) {
    let q = model.tensor(tensor).unwrap().quantization().unwrap();
    (
        q.scale(0).unwrap(),
        i32::try_from(q.zero_point(0).unwrap()).unwrap(),
    )
}

/// The model's operator of `op` (its only one).
fn find<'m>(model: &'m Model, op: BuiltinOp) -> Operator<'m> {
    let mut found = model.operators().filter(|o| o.op() == op);
    let o = found.next().expect("the op");
    assert!(found.next().is_none());
    o
}

/// Compares `run`'s output with the recorded output tensor `out` on
/// every case (the op's inputs read from the case by `inputs`); returns
/// the elements compared and the distinct values seen.
fn compare(
    json: &str,
    inputs: &[usize],
    out: usize,
    run: impl Fn(&[Vec<i8>], &mut [i8]),
) -> (usize, usize) {
    let mut compared = 0;
    let mut distinct = std::collections::BTreeSet::new();
    for case in cases(json) {
        let xs: Vec<Vec<i8>> = inputs.iter().map(|&i| int8s(recorded(&case, i))).collect();
        let want = int8s(recorded(&case, out));
        let mut got = vec![0x55i8; want.len()];
        run(&xs, &mut got);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i}", case["name"]);
            distinct.insert(*w);
            compared += 1;
        }
    }
    (compared, distinct.len())
}

/// A resize model's op run on every case; the flags its options hold.
fn check_resize(bytes: &[u8], json: &str, op: BuiltinOp, flags: (bool, bool)) -> usize {
    let model = Model::parse(bytes).unwrap();
    let o = find(&model, op);
    let Options::Resize(options) = o.options() else {
        panic!("no resize options")
    };
    assert_eq!((options.align_corners, options.half_pixel_centers), flags);
    let (input, size, out) = (
        o.input(0).unwrap(),
        o.input(1).unwrap(),
        o.output(0).unwrap(),
    );
    assert_eq!(quant(&model, input), quant(&model, out));
    let size: Vec<i32> = model
        .tensor(size)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect();
    let in_shape = shape(&model, input);
    let out_shape = resize_output_shape(&in_shape, [size[0], size[1]]).unwrap();
    assert_eq!(out_shape.dims(), &shape(&model, out)[..]);
    let dims = ResizeDims {
        batches: in_shape[0],
        input_height: in_shape[1],
        input_width: in_shape[2],
        depth: in_shape[3],
        output_height: out_shape.dims()[1],
        output_width: out_shape.dims()[2],
    };
    let params = resize_params(flags.0, flags.1).unwrap();
    let (n, _) = compare(json, &[input], out, |xs, y| {
        if op == BuiltinOp::RESIZE_BILINEAR {
            resize_bilinear_int8(&xs[0], dims, params, y).unwrap();
        } else {
            resize_nearest_neighbor(&xs[0], dims, params, y).unwrap();
        }
    });
    n
}

#[test]
fn resize_nearest_neighbor_is_tflite_micro_s() {
    let op = BuiltinOp::RESIZE_NEAREST_NEIGHBOR;
    let (bytes, json) = op_files!("resize_nearest_x2");
    assert_eq!(check_resize(bytes, json, op, (false, true)), 8 * 240);
    let (bytes, json) = op_files!("resize_nearest_x2_align_corners");
    assert_eq!(check_resize(bytes, json, op, (true, false)), 8 * 240);
    let (bytes, json) = op_files!("resize_nearest_x2_legacy");
    assert_eq!(check_resize(bytes, json, op, (false, false)), 8 * 240);
}

#[test]
fn resize_bilinear_is_tflite_micro_s() {
    let op = BuiltinOp::RESIZE_BILINEAR;
    let (bytes, json) = op_files!("resize_bilinear_x2");
    assert_eq!(check_resize(bytes, json, op, (false, true)), 8 * 240);
    let (bytes, json) = op_files!("resize_bilinear_x2_align_corners");
    assert_eq!(check_resize(bytes, json, op, (true, false)), 8 * 240);
    let (bytes, json) = op_files!("resize_bilinear_x2_legacy");
    assert_eq!(check_resize(bytes, json, op, (false, false)), 8 * 240);
    let (bytes, json) = op_files!("resize_bilinear_5x4_to_7x9");
    assert_eq!(check_resize(bytes, json, op, (false, true)), 8 * 189);
}

/// A transposed convolution model run on every case.
fn check_transpose_conv(bytes: &[u8], json: &str, with_bias: bool) -> usize {
    let model = Model::parse(bytes).unwrap();
    let o = find(&model, BuiltinOp::TRANSPOSE_CONV);
    let Options::TransposeConv(options) = o.options() else {
        panic!("no TransposeConvOptions")
    };
    assert_eq!(options.fused_activation, Activation::None);
    let (shape_t, filter_t, input, out) = (
        o.input(0).unwrap(),
        o.input(1).unwrap(),
        o.input(2).unwrap(),
        o.output(0).unwrap(),
    );
    let bias: Option<Vec<i32>> = o
        .input(3)
        .and_then(|b| model.tensor(b))
        .map(|b| b.data_as::<i32>().unwrap().iter().collect());
    assert_eq!(bias.is_some(), with_bias);
    let out_values: Vec<i32> = model
        .tensor(shape_t)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect();
    let (in_shape, f_shape) = (shape(&model, input), shape(&model, filter_t));
    let out_shape = transpose_conv_output_shape(&out_values, &in_shape, &f_shape).unwrap();
    assert_eq!(out_shape.dims(), &shape(&model, out)[..]);
    let filter_tensor = model.tensor(filter_t).unwrap();
    let filter: Vec<i8> = filter_tensor.data_as::<i8>().unwrap().iter().collect();
    let fq = filter_tensor.quantization().unwrap();
    assert!(fq.zero_points().iter().all(|z| z == 0));
    let (si, zi) = quant(&model, input);
    let (so, zo) = quant(&model, out);
    let multipliers: Vec<QuantizedMultiplier> = fq
        .scales()
        .iter()
        .map(|s| fully_connected_multiplier(si, s, so).unwrap())
        .collect();
    assert_eq!(multipliers.len(), f_shape[0], "per channel");
    let o_dims = out_shape.dims();
    let dims = TransposeConvDims {
        batches: in_shape[0],
        input_height: in_shape[1],
        input_width: in_shape[2],
        input_depth: in_shape[3],
        filter_height: f_shape[1],
        filter_width: f_shape[2],
        output_height: o_dims[1],
        output_width: o_dims[2],
        output_depth: o_dims[3],
    };
    let strides = (options.stride_h as usize, options.stride_w as usize);
    let params = transpose_conv_params(
        options.padding,
        strides,
        &dims,
        zi,
        zo,
        &multipliers,
        (-128, 127),
    )
    .unwrap();
    let (n, distinct) = compare(json, &[input], out, |xs, y| {
        transpose_conv_int8(&xs[0], &filter[..], bias.as_deref(), dims, &params, y).unwrap();
    });
    assert!(distinct > 50, "{distinct} distinct outputs");
    n
}

#[test]
fn transpose_conv_is_tflite_micro_s() {
    let (bytes, json) = op_files!("transpose_conv_2x2_s2_same");
    assert_eq!(check_transpose_conv(bytes, json, false), 8 * 480);
    let (bytes, json) = op_files!("transpose_conv_3x3_s2_same_bias");
    assert_eq!(check_transpose_conv(bytes, json, true), 8 * 400);
}

#[test]
fn batch_matmul_of_two_activations_is_tflite_micro_s() {
    let (bytes, json) = op_files!("batch_matmul");
    let model = Model::parse(bytes).unwrap();
    let o = find(&model, BuiltinOp::BATCH_MATMUL);
    let Options::BatchMatMul(options) = o.options() else {
        panic!("no BatchMatMulOptions")
    };
    assert_eq!((options.adj_x, options.adj_y), (false, true));
    let (lhs, rhs, out) = (
        o.input(0).unwrap(),
        o.input(1).unwrap(),
        o.output(0).unwrap(),
    );
    let (sl, zl) = quant(&model, lhs);
    let (sr, zr) = quant(&model, rhs);
    let (so, zo) = quant(&model, out);
    assert!(zl != 0 && zr != 0);
    let params = batch_matmul_params(sl, zl, sr, zr, so, zo, options.adj_x, options.adj_y).unwrap();
    let (ls, rs) = (shape(&model, lhs), shape(&model, rhs));
    let out_shape = batch_matmul_output_shape(&ls, &rs, options.adj_x, options.adj_y).unwrap();
    assert_eq!(out_shape.dims(), &shape(&model, out)[..]);
    let (n, distinct) = compare(json, &[lhs, rhs], out, |xs, y| {
        batch_matmul_int8(&xs[0], &ls, &xs[1], &rs, &params, y).unwrap();
    });
    assert_eq!(n, 8 * 25);
    assert!(distinct > 10);
}

#[test]
fn log_softmax_is_tflite_micro_s() {
    let (bytes, json) = op_files!("log_softmax");
    let model = Model::parse(bytes).unwrap();
    let o = find(&model, BuiltinOp::LOG_SOFTMAX);
    let (input, out) = (o.input(0).unwrap(), o.output(0).unwrap());
    let (si, _) = quant(&model, input);
    let (so, zo) = quant(&model, out);
    let params = log_softmax_params(si, so, zo).unwrap();
    let depth = *shape(&model, input).last().unwrap();
    let (n, distinct) = compare(json, &[input], out, |xs, y| {
        log_softmax_int8(&xs[0], depth, &params, y).unwrap();
    });
    assert_eq!(n, 8 * 21);
    assert!(distinct > 10);
}

#[test]
fn l2_normalization_is_tflite_micro_s() {
    let (bytes, json) = op_files!("l2_normalization");
    let model = Model::parse(bytes).unwrap();
    let o = find(&model, BuiltinOp::L2_NORMALIZATION);
    let (input, out) = (o.input(0).unwrap(), o.output(0).unwrap());
    let (_, zi) = quant(&model, input);
    assert_eq!(quant(&model, out), (1.0 / 128.0, 0));
    let params = l2_normalization_params(zi).unwrap();
    let depth = *shape(&model, input).last().unwrap();
    let (n, distinct) = compare(json, &[input], out, |xs, y| {
        l2_normalization_int8(&xs[0], depth, &params, y).unwrap();
    });
    assert_eq!(n, 8 * 210);
    assert!(distinct > 50);
}

// ---- naive references ----

fn bytes(seed: u64, n: usize) -> Vec<i8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as i8
        })
        .collect()
}

/// TFLite's nearest source index, written with std's f32 floor and round.
fn naive_nearest(y: usize, input: usize, output: usize, align: bool, half: bool) -> usize {
    let scale = if align && output > 1 {
        (input - 1) as f32 / (output - 1) as f32
    } else {
        input as f32 / output as f32
    };
    let offset = if half { 0.5f32 } else { 0.0 };
    let v = (y as f32 + offset) * scale;
    let i = if align { v.round() } else { v.floor() } as usize;
    i.min(input - 1)
}

/// The plain bilinear interpolation of TFLite's sampling, in f64, with
/// TFLite's scale rounded to 1/1024 (its only rounding before the last):
/// the source position `s`, the pixels `max(trunc(s), 0)` and
/// `min(ceil(s), in − 1)` around it, weighted by the distance from the
/// first (a half-pixel source just before the first pixel weighs that
/// pixel alone).
fn float_bilinear(x: &[i8], d: &ResizeDims, align: bool, half: bool) -> Vec<f64> {
    let source = |y: usize, input: usize, output: usize| -> (usize, usize, f64) {
        let ratio = if align && output > 1 {
            (input - 1) as f64 / (output - 1) as f64
        } else {
            input as f64 / output as f64
        };
        let scale = (ratio * 1024.0).round() / 1024.0;
        let s = if half {
            (y as f64 + 0.5) * scale - 0.5
        } else {
            y as f64 * scale
        };
        let lo = (s.trunc().max(0.0) as usize).min(input - 1);
        let hi = (s.ceil().max(0.0) as usize).min(input - 1);
        (lo, hi, s - lo as f64)
    };
    let mut out = vec![];
    for b in 0..d.batches {
        for y in 0..d.output_height {
            let (y0, y1, fy) = source(y, d.input_height, d.output_height);
            for xx in 0..d.output_width {
                let (x0, x1, fx) = source(xx, d.input_width, d.output_width);
                for c in 0..d.depth {
                    let at = |r: usize, col: usize| {
                        f64::from(x[((b * d.input_height + r) * d.input_width + col) * d.depth + c])
                    };
                    let top = at(y0, x0) * (1.0 - fx) + at(y0, x1) * fx;
                    let bottom = at(y1, x0) * (1.0 - fx) + at(y1, x1) * fx;
                    out.push(top * (1.0 - fy) + bottom * fy);
                }
            }
        }
    }
    out
}

/// TFLite Micro's requantization, written out: the doubling high multiply
/// rounded half up, then a right shift rounded half away from zero.
fn requantize(acc: i32, m: QuantizedMultiplier) -> i32 {
    let (multiplier, shift) = (m.multiplier(), m.shift());
    let x = i64::from(acc.wrapping_mul(1 << shift.max(0)));
    let high = ((x * i64::from(multiplier) + (1 << 30)) >> 31) as i32;
    let right = (-shift).max(0);
    let mask = (1i64 << right) - 1;
    let rem = i64::from(high) & mask;
    let threshold = (mask >> 1) + i64::from(high < 0);
    ((i64::from(high) >> right) + i64::from(rem > threshold)) as i32
}

/// TFLite's scatter form of the transposed convolution: every input pixel
/// adds its products to the outputs it reaches.
fn naive_transpose_conv(
    x: &[i8],
    f: &[i8],
    bias: Option<&[i32]>,
    d: &TransposeConvDims,
    p: &TransposeConvParams,
) -> Vec<i8> {
    let n = d.batches * d.output_height * d.output_width * d.output_depth;
    let mut acc = vec![0i32; n];
    for b in 0..d.batches {
        for iy in 0..d.input_height {
            for ix in 0..d.input_width {
                for ic in 0..d.input_depth {
                    let xv = i32::from(
                        x[((b * d.input_height + iy) * d.input_width + ix) * d.input_depth + ic],
                    ) - p.input_zero_point;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let oy = (iy * p.stride_height + ky) as i64 - p.pad_top as i64;
                            let ox = (ix * p.stride_width + kx) as i64 - p.pad_left as i64;
                            if oy < 0
                                || ox < 0
                                || oy >= d.output_height as i64
                                || ox >= d.output_width as i64
                            {
                                continue;
                            }
                            for oc in 0..d.output_depth {
                                let fv = i32::from(
                                    f[((oc * d.filter_height + ky) * d.filter_width + kx)
                                        * d.input_depth
                                        + ic],
                                );
                                let o = ((b * d.output_height + oy as usize) * d.output_width
                                    + ox as usize)
                                    * d.output_depth
                                    + oc;
                                acc[o] += xv * fv;
                            }
                        }
                    }
                }
            }
        }
    }
    acc.iter()
        .enumerate()
        .map(|(o, &a)| {
            let oc = o % d.output_depth;
            let a = a + bias.map_or(0, |b| b[oc]);
            let m = p.multipliers[if p.multipliers.len() == 1 { 0 } else { oc }];
            (requantize(a, m) + p.output_zero_point)
                .clamp(p.output_min.max(-128), p.output_max.min(127)) as i8
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn resizes_are_their_naive_definitions(
        (batches, ih, iw, depth) in (1usize..=2, 1usize..=6, 1usize..=6, 1usize..=3),
        (oh, ow) in (1usize..=13, 1usize..=13),
        flags in prop::sample::select(vec![(false, false), (true, false), (false, true)]),
        seed in any::<u64>(),
    ) {
        let (align, half) = flags;
        let d = ResizeDims { batches, input_height: ih, input_width: iw, depth, output_height: oh, output_width: ow };
        let x = bytes(seed, batches * ih * iw * depth);
        let params = resize_params(align, half).unwrap();
        let mut nearest = vec![0i8; batches * oh * ow * depth];
        resize_nearest_neighbor(&x, d, params, &mut nearest).unwrap();
        let mut k = 0;
        for b in 0..batches {
            for y in 0..oh {
                for xx in 0..ow {
                    for c in 0..depth {
                        let sy = naive_nearest(y, ih, oh, align, half);
                        let sx = naive_nearest(xx, iw, ow, align, half);
                        prop_assert_eq!(nearest[k], x[((b * ih + sy) * iw + sx) * depth + c]);
                        k += 1;
                    }
                }
            }
        }
        // i16 the same, element for element
        let wide: Vec<i16> = x.iter().map(|&v| i16::from(v) * 200).collect();
        let mut wide_out = vec![0i16; nearest.len()];
        resize_nearest_neighbor(&wide, d, params, &mut wide_out).unwrap();
        prop_assert_eq!(wide_out, nearest.iter().map(|&v| i16::from(v) * 200).collect::<Vec<_>>());
        // bilinear: within one step of the real interpolation at TFLite's
        // sampling
        let mut bilinear = vec![0i8; nearest.len()];
        resize_bilinear_int8(&x, d, params, &mut bilinear).unwrap();
        let real = float_bilinear(&x, &d, align, half);
        for (k, (&got, &want)) in bilinear.iter().zip(&real).enumerate() {
            prop_assert!((f64::from(got) - want).abs() <= 1.0 + 1e-9, "{}: {} vs {}", k, got, want);
        }
    }

    #[test]
    fn transpose_conv_is_its_scatter_definition(
        (batches, ih, iw, ic) in (1usize..=2, 1usize..=5, 1usize..=5, 1usize..=3),
        (kh, kw, oc) in (1usize..=3, 1usize..=3, 1usize..=3),
        (sh, sw) in (1usize..=3, 1usize..=3),
        same in any::<bool>(),
        per_channel in any::<bool>(),
        with_bias in any::<bool>(),
        (zi, zo) in (any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        // the output a convolution of this filter and stride maps back to
        // the input's size: TFLite's converter's output shape
        let (oh, ow) = if same { (ih * sh, iw * sw) } else { ((ih - 1) * sh + kh, (iw - 1) * sw + kw) };
        let d = TransposeConvDims {
            batches, input_height: ih, input_width: iw, input_depth: ic,
            filter_height: kh, filter_width: kw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let x = bytes(seed, batches * ih * iw * ic);
        let f = bytes(seed ^ 0x5555, oc * kh * kw * ic);
        let bias: Vec<i32> = bytes(seed ^ 0x7777, oc).iter().map(|&b| i32::from(b) * 37).collect();
        let multipliers: Vec<QuantizedMultiplier> = (0..if per_channel { oc } else { 1 })
            .map(|k| fully_connected_multiplier(0.02, 0.01 + k as f32 * 0.003, 0.05).unwrap())
            .collect();
        let padding = if same { Padding::Same } else { Padding::Valid };
        let p = transpose_conv_params(padding, (sh, sw), &d, i32::from(zi), i32::from(zo), &multipliers, (-100, 120)).unwrap();
        let b = with_bias.then_some(&bias[..]);
        let mut got = vec![0i8; batches * oh * ow * oc];
        transpose_conv_int8(&x, &f[..], b, d, &p, &mut got).unwrap();
        prop_assert_eq!(got, naive_transpose_conv(&x, &f, b, &d, &p));
    }

    #[test]
    fn batch_matmul_is_its_naive_definition(
        (lb, rb) in (prop::collection::vec(1usize..=2, 0..=3), prop::collection::vec(1usize..=2, 0..=3)),
        (m, k, n) in (1usize..=4, 1usize..=5, 1usize..=4),
        (adj_x, adj_y) in (any::<bool>(), any::<bool>()),
        (zl, zr, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        // batch dims that broadcast: where both have a dim, one of them
        // is 1 or they are equal
        let mut rb = rb;
        let r = lb.len().min(rb.len());
        for j in 1..=r {
            let (a, b) = (lb[lb.len() - j], rb[rb.len() - j]);
            if a != b && a != 1 && b != 1 {
                let len = rb.len();
                rb[len - j] = 1;
            }
        }
        let mut ls = lb.clone();
        ls.extend(if adj_x { [k, m] } else { [m, k] });
        let mut rs = rb.clone();
        rs.extend(if adj_y { [n, k] } else { [k, n] });
        let a = bytes(seed, ls.iter().product());
        let b = bytes(seed ^ 0x1234, rs.iter().product());
        let params = batch_matmul_params(0.03, i32::from(zl), 0.02, i32::from(zr), 0.2, i32::from(zo), adj_x, adj_y).unwrap();
        let out_shape = batch_matmul_output_shape(&ls, &rs, adj_x, adj_y).unwrap();
        let od = out_shape.dims().to_vec();
        let mut got = vec![0i8; od.iter().product()];
        batch_matmul_int8(&a, &ls, &b, &rs, &params, &mut got).unwrap();
        // naive: each output's batch coordinate, right-aligned into each
        // operand (a dim of 1 repeats)
        let rank = od.len();
        let batch_rank = rank - 2;
        let mut want = vec![];
        let batches: usize = od[..batch_rank].iter().product();
        for p in 0..batches {
            let mut coordinate = vec![0usize; batch_rank];
            let mut rest = p;
            for j in (0..batch_rank).rev() {
                coordinate[j] = rest % od[j];
                rest /= od[j];
            }
            let matrix = |dims: &[usize]| -> usize {
                let nb = dims.len() - 2;
                let mut index = 0;
                for j in 0..nb {
                    let c = coordinate[batch_rank - nb + j];
                    index = index * dims[j] + if dims[j] == 1 { 0 } else { c };
                }
                index
            };
            let (ai, bi) = (matrix(&ls), matrix(&rs));
            for i in 0..m {
                for j in 0..n {
                    let mut acc = 0i32;
                    for t in 0..k {
                        let av = if adj_x { a[ai * m * k + t * m + i] } else { a[ai * m * k + i * k + t] };
                        let bv = if adj_y { b[bi * k * n + j * k + t] } else { b[bi * k * n + t * n + j] };
                        acc += (i32::from(av) - i32::from(zl)) * (i32::from(bv) - i32::from(zr));
                    }
                    want.push((requantize(acc, params.multiplier) + i32::from(zo)).clamp(-128, 127) as i8);
                }
            }
        }
        prop_assert_eq!(got, want);
    }

    #[test]
    fn log_softmax_is_close_to_the_real_log_softmax(
        depth in 1usize..=40,
        rows in 1usize..=3,
        scale in 0.01f32..0.3,
        seed in any::<u64>(),
    ) {
        let x = bytes(seed, rows * depth);
        let params = log_softmax_params(scale, 16.0 / 256.0, 127).unwrap();
        let mut got = vec![0i8; x.len()];
        log_softmax_int8(&x, depth, &params, &mut got).unwrap();
        for (row, outs) in x.chunks(depth).zip(got.chunks(depth)) {
            let real: Vec<f64> = row.iter().map(|&v| f64::from(v) * f64::from(scale)).collect();
            let max = real.iter().cloned().fold(f64::MIN, f64::max);
            let log_sum = real.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
            let max_q = i32::from(*row.iter().max().unwrap());
            for ((&r, &y), &q) in real.iter().zip(outs).zip(row) {
                // TFLite's range: a difference below diff_min (about −16
                // in real terms) is cut to −128
                if i32::from(q) - max_q < params.diff_min {
                    prop_assert_eq!(y, -128);
                    continue;
                }
                let want = ((r - max - log_sum) * 16.0 + 127.0).clamp(-128.0, 127.0);
                prop_assert!((f64::from(y) - want).abs() <= 1.0, "{} vs {}", y, want);
            }
        }
    }

    #[test]
    fn l2_normalization_is_close_to_the_real_one(
        depth in 1usize..=40,
        rows in 1usize..=3,
        zp in any::<i8>(),
        seed in any::<u64>(),
    ) {
        let x = bytes(seed, rows * depth);
        let params = l2_normalization_params(i32::from(zp)).unwrap();
        let mut got = vec![0i8; x.len()];
        l2_normalization_int8(&x, depth, &params, &mut got).unwrap();
        for (row, outs) in x.chunks(depth).zip(got.chunks(depth)) {
            let d: Vec<f64> = row.iter().map(|&v| f64::from(v) - f64::from(zp)).collect();
            let sum: f64 = d.iter().map(|v| v * v).sum();
            // TFLite counts a sum of 0 or 1 as 1
            let norm = sum.max(1.0).sqrt();
            for (&v, &y) in d.iter().zip(outs) {
                let want = (v / norm * 128.0).clamp(-128.0, 127.0);
                prop_assert!((f64::from(y) - want).abs() <= 1.0, "{} vs {}", y, want);
            }
        }
    }
}

#[test]
fn bad_lengths_and_parameters_are_refused_before_writing() {
    let d = ResizeDims {
        batches: 1,
        input_height: 2,
        input_width: 2,
        depth: 1,
        output_height: 3,
        output_width: 3,
    };
    let p = resize_params(false, true).unwrap();
    let mut out = [7i8; 9];
    assert!(matches!(
        resize_nearest_neighbor(&[0i8; 3], d, p, &mut out),
        Err(TfliteError::Length { .. })
    ));
    assert!(resize_bilinear_int8(&[0i8; 4], d, p, &mut [7i8; 8]).is_err());
    // both flags: refused by the params and by the kernel
    assert!(resize_params(true, true).is_err());
    let both = shapecheck_tflite::ResizeParams {
        align_corners: true,
        half_pixel_centers: true,
    };
    assert!(resize_bilinear_int8(&[0i8; 4], d, both, &mut out).is_err());
    // an empty input resized to a non-empty output
    let empty = ResizeDims {
        input_height: 0,
        ..d
    };
    assert!(resize_nearest_neighbor(&[0i8; 0], empty, p, &mut out).is_err());
    assert_eq!(out, [7; 9]);
    assert!(resize_output_shape(&[1, 2, 2, 1], [-1, 2]).is_err());

    let td = TransposeConvDims {
        batches: 1,
        input_height: 2,
        input_width: 2,
        input_depth: 1,
        filter_height: 2,
        filter_width: 2,
        output_height: 4,
        output_width: 4,
        output_depth: 2,
    };
    let m = [fully_connected_multiplier(1.0, 0.1, 1.0).unwrap(); 3];
    let tp = transpose_conv_params(Padding::Same, (2, 2), &td, 0, 0, &m[..1], (-128, 127)).unwrap();
    let mut tout = [7i8; 32];
    // filter too short, bias of the wrong length, 3 multipliers for 2 channels
    assert!(
        transpose_conv_int8(&[0i8; 4], &[0i8; 7][..], None::<&[i32]>, td, &tp, &mut tout).is_err()
    );
    assert!(transpose_conv_int8(
        &[0i8; 4],
        &[0i8; 8][..],
        Some(&[0i32; 3][..]),
        td,
        &tp,
        &mut tout
    )
    .is_err());
    let three = TransposeConvParams {
        multipliers: &m,
        ..tp
    };
    assert!(transpose_conv_int8(
        &[0i8; 4],
        &[0i8; 8][..],
        None::<&[i32]>,
        td,
        &three,
        &mut tout
    )
    .is_err());
    let zero_stride = TransposeConvParams {
        stride_height: 0,
        ..tp
    };
    assert!(transpose_conv_int8(
        &[0i8; 4],
        &[0i8; 8][..],
        None::<&[i32]>,
        td,
        &zero_stride,
        &mut tout
    )
    .is_err());
    assert_eq!(tout, [7; 32]);
    assert!(transpose_conv_params(Padding::Same, (0, 2), &td, 0, 0, &m[..1], (-128, 127)).is_err());
    assert!(transpose_conv_output_shape(&[1, 4, 4], &[1, 2, 2, 1], &[2, 2, 2, 1]).is_err());

    let bp = batch_matmul_params(1.0, 0, 1.0, 0, 1.0, 0, false, false).unwrap();
    let mut bout = [7i8; 4];
    // inner sizes that differ, a short operand, a rank past 5
    assert!(batch_matmul_int8(&[0; 6], &[2, 3], &[0; 4], &[2, 2], &bp, &mut bout).is_err());
    assert!(batch_matmul_int8(&[0; 3], &[2, 2], &[0; 4], &[2, 2], &bp, &mut bout).is_err());
    assert!(batch_matmul_int8(
        &[0; 4],
        &[1, 1, 1, 1, 2, 2],
        &[0; 4],
        &[2, 2],
        &bp,
        &mut bout
    )
    .is_err());
    // batch dims that do not broadcast
    assert!(batch_matmul_output_shape(&[2, 2, 2], &[3, 2, 2], false, false).is_err());
    assert_eq!(bout, [7; 4]);

    let lp = log_softmax_params(0.1, 16.0 / 256.0, 127).unwrap();
    let mut lout = [7i8; 5];
    assert!(log_softmax_int8(&[0; 5], 2, &lp, &mut lout).is_err());
    assert!(log_softmax_int8(&[0; 4], 2, &lp, &mut lout).is_err());
    assert!(log_softmax_params(0.1, 0.1, 127).is_err());
    let np = l2_normalization_params(0).unwrap();
    assert!(l2_normalization_int8(&[0; 5], 2, &np, &mut lout).is_err());
    assert!(l2_normalization_int8(&[0; 5], 0, &np, &mut lout).is_err());
    assert_eq!(lout, [7; 5]);
}
