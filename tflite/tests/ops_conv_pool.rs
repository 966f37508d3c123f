//! The int8 `CONV_2D`, `AVERAGE_POOL_2D`, `MAX_POOL_2D` and `MEAN` kernels:
//!
//! - against TFLite Micro on the one-op models of tests/ops/ (copies of
//!   /work/shared/models/ops/, whose README says how they were made and
//!   recorded): the constants and quantization read from each file with
//!   `Model::parse`, the options as the file states them, every output
//!   element of all 8 recorded cases compared;
//! - against naive kernels written plainly here, on random sizes, strides,
//!   dilations, paddings, zero points, multipliers and clamps (proptest);
//! - every check that refuses an input before anything is written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    activation_range_int8, average_pool_int8, conv_2d_int8, conv_axis, fully_connected_multiplier,
    max_pool_int8, mean_int8, mean_params, multiply_by_quantized_multiplier, quantize_multiplier,
    Activation, Array, BuiltinOp, Conv2dDims, Conv2dParams, MeanParams, Model, ModelTensor,
    Padding, PoolDims, PoolParams, QuantizedMultiplier, Rounding, TfliteError,
};

// ---------------------------------------------------------------------------
// The recorded models
// ---------------------------------------------------------------------------

/// A one-op model of tests/ops/ and its recorded cases.
struct Oracle {
    name: &'static str,
    bytes: Vec<u8>,
    json: Value,
}

impl Oracle {
    fn load(name: &'static str) -> Oracle {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops");
        let bytes = std::fs::read(format!("{dir}/{name}.tflite")).expect("the model");
        let json = std::fs::read_to_string(format!("{dir}/{name}.json")).expect("the cases");
        Oracle {
            name,
            bytes,
            json: serde_json::from_str(&json).expect("JSON"),
        }
    }

    /// Each case's `(input, output)`: tensors `input` and `output` as TFLite
    /// Micro recorded them (which are also the case's `input` and `out`).
    fn cases(&self, input: usize, output: usize) -> Vec<(Vec<i8>, Vec<i8>)> {
        let cases = self.json["cases"].as_array().expect("cases");
        assert_eq!(cases.len(), 8, "{}", self.name);
        cases
            .iter()
            .map(|case| {
                let x = ints(&case["tensors"][input.to_string()]["data"]);
                let y = ints(&case["tensors"][output.to_string()]["data"]);
                assert_eq!(x, ints(&case["input"]), "{}", self.name);
                assert_eq!(y, ints(&case["out"]), "{}", self.name);
                (x, y)
            })
            .collect()
    }
}

fn ints(v: &Value) -> Vec<i8> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| i8::try_from(x.as_i64().expect("an integer")).expect("int8"))
        .collect()
}

fn shape(t: &ModelTensor<'_>) -> Vec<usize> {
    t.shape()
        .iter()
        .map(|d| usize::try_from(d).unwrap())
        .collect()
}

/// A per-tensor quantization's `(scale, zero point)`.
fn per_tensor(t: &ModelTensor<'_>) -> (f32, i32) {
    let q = t.quantization().expect("quantized");
    (
        q.scale(0).unwrap(),
        i32::try_from(q.zero_point(0).unwrap()).unwrap(),
    )
}

/// Every element of every case equal; the first difference named.
fn assert_cases(name: &str, case: usize, got: &[i8], expected: &[i8]) {
    assert_eq!(got.len(), expected.len(), "{name} case {case}: length");
    let wrong = got.iter().zip(expected).filter(|(a, b)| a != b).count();
    if let Some(i) = got.iter().zip(expected).position(|(a, b)| a != b) {
        panic!(
            "{name} case {case}: {wrong} of {} outputs differ; first at {i}: {} vs TFLite Micro's {}",
            got.len(),
            got[i],
            expected[i]
        );
    }
}

/// A `CONV_2D` model run on its 8 cases, filter and bias read in place
/// from the file and, again, from copies in slices.
fn conv_oracle(
    name: &'static str,
    padding: Padding,
    stride: usize,
    dilation: usize,
    activation: Activation,
) {
    let oracle = Oracle::load(name);
    let model = Model::parse(&oracle.bytes).unwrap();
    assert_eq!(model.operator_count(), 1);
    let op = model.operator(0).unwrap();
    assert_eq!(op.op(), BuiltinOp::CONV_2D);
    let input = model.tensor(op.input(0).unwrap()).unwrap();
    let filter = model.tensor(op.input(1).unwrap()).unwrap();
    let bias = model.tensor(op.input(2).unwrap()).unwrap();
    let output = model.tensor(op.output(0).unwrap()).unwrap();
    let [batches, input_height, input_width, input_depth] = shape(&input)[..] else {
        panic!("{name}: input rank")
    };
    let [output_depth, filter_height, filter_width, filter_depth] = shape(&filter)[..] else {
        panic!("{name}: filter rank")
    };
    assert_eq!(filter_depth, input_depth);
    let [_, output_height, output_width, out_channels] = shape(&output)[..] else {
        panic!("{name}: output rank")
    };
    assert_eq!(out_channels, output_depth);
    let rows = conv_axis(padding, input_height, filter_height, stride, dilation).unwrap();
    let cols = conv_axis(padding, input_width, filter_width, stride, dilation).unwrap();
    assert_eq!((rows.output, cols.output), (output_height, output_width));

    let (input_scale, input_zero_point) = per_tensor(&input);
    let (output_scale, output_zero_point) = per_tensor(&output);
    let filter_q = filter.quantization().unwrap();
    assert_eq!(filter_q.scales().len(), output_depth, "{name}: per channel");
    assert!(filter_q.zero_points().iter().all(|z| z == 0));
    let multipliers: Vec<QuantizedMultiplier> = (0..output_depth)
        .map(|c| {
            fully_connected_multiplier(input_scale, filter_q.scale(c).unwrap(), output_scale)
                .unwrap()
        })
        .collect();
    let (output_min, output_max) =
        activation_range_int8(activation, output_scale, output_zero_point).unwrap();
    let dims = Conv2dDims {
        batches,
        input_height,
        input_width,
        input_depth,
        filter_height,
        filter_width,
        output_height,
        output_width,
        output_depth,
    };
    let params = Conv2dParams {
        stride_height: stride,
        stride_width: stride,
        dilation_height: dilation,
        dilation_width: dilation,
        pad_top: rows.pad_before,
        pad_left: cols.pad_before,
        input_zero_point,
        output_zero_point,
        multipliers: &multipliers,
        output_min,
        output_max,
        rounding: Rounding::Double,
    };
    let filter_data = filter.data_as::<i8>().unwrap();
    let bias_data = bias.data_as::<i32>().unwrap();
    let filter_vec: Vec<i8> = filter_data.iter().collect();
    let bias_vec: Vec<i32> = bias_data.iter().collect();
    for (k, (x, expected)) in oracle
        .cases(input.index(), output.index())
        .iter()
        .enumerate()
    {
        let mut out = vec![0i8; expected.len()];
        conv_2d_int8(x, &filter_data, Some(&bias_data), dims, &params, &mut out).unwrap();
        assert_cases(name, k, &out, expected);
        let mut out = vec![0i8; expected.len()];
        conv_2d_int8(
            x,
            &filter_vec[..],
            Some(&bias_vec[..]),
            dims,
            &params,
            &mut out,
        )
        .unwrap();
        assert_cases(name, k, &out, expected);
    }
}

#[test]
fn conv_1x1_is_tflite_micro_s() {
    conv_oracle("conv_1x1", Padding::Valid, 1, 1, Activation::Relu6);
}

#[test]
fn conv_3x3_s2_same_is_tflite_micro_s() {
    conv_oracle("conv_3x3_s2_same", Padding::Same, 2, 1, Activation::Relu);
}

#[test]
fn conv_5x3_dil2_valid_is_tflite_micro_s() {
    conv_oracle(
        "conv_5x3_dil2_valid",
        Padding::Valid,
        1,
        2,
        Activation::None,
    );
}

#[test]
fn conv_10x4_s2_same_is_tflite_micro_s() {
    conv_oracle("conv_10x4_s2_same", Padding::Same, 2, 1, Activation::Relu);
}

/// A pool model run on its 8 cases (no fused activation in these files).
fn pool_oracle(
    name: &'static str,
    op_code: BuiltinOp,
    padding: Padding,
    size: usize,
    stride: usize,
) {
    let oracle = Oracle::load(name);
    let model = Model::parse(&oracle.bytes).unwrap();
    assert_eq!(model.operator_count(), 1);
    let op = model.operator(0).unwrap();
    assert_eq!(op.op(), op_code);
    let input = model.tensor(op.input(0).unwrap()).unwrap();
    let output = model.tensor(op.output(0).unwrap()).unwrap();
    let [batches, input_height, input_width, depth] = shape(&input)[..] else {
        panic!("{name}: input rank")
    };
    let [_, output_height, output_width, out_depth] = shape(&output)[..] else {
        panic!("{name}: output rank")
    };
    assert_eq!(out_depth, depth);
    // TFLite requires a pool's input and output quantization equal
    assert_eq!(per_tensor(&input), per_tensor(&output));
    let rows = conv_axis(padding, input_height, size, stride, 1).unwrap();
    let cols = conv_axis(padding, input_width, size, stride, 1).unwrap();
    assert_eq!((rows.output, cols.output), (output_height, output_width));
    let (scale, zero_point) = per_tensor(&output);
    let (output_min, output_max) =
        activation_range_int8(Activation::None, scale, zero_point).unwrap();
    let dims = PoolDims {
        batches,
        input_height,
        input_width,
        depth,
        filter_height: size,
        filter_width: size,
        output_height,
        output_width,
    };
    let params = PoolParams {
        stride_height: stride,
        stride_width: stride,
        pad_top: rows.pad_before,
        pad_left: cols.pad_before,
        output_min,
        output_max,
    };
    for (k, (x, expected)) in oracle
        .cases(input.index(), output.index())
        .iter()
        .enumerate()
    {
        let mut out = vec![0i8; expected.len()];
        if op_code == BuiltinOp::AVERAGE_POOL_2D {
            average_pool_int8(x, dims, &params, &mut out).unwrap();
        } else {
            max_pool_int8(x, dims, &params, &mut out).unwrap();
        }
        assert_cases(name, k, &out, expected);
    }
}

#[test]
fn avgpool_3x3_s2_valid_is_tflite_micro_s() {
    pool_oracle(
        "avgpool_3x3_s2_valid",
        BuiltinOp::AVERAGE_POOL_2D,
        Padding::Valid,
        3,
        2,
    );
}

#[test]
fn avgpool_2x2_s1_same_is_tflite_micro_s() {
    pool_oracle(
        "avgpool_2x2_s1_same",
        BuiltinOp::AVERAGE_POOL_2D,
        Padding::Same,
        2,
        1,
    );
}

#[test]
fn maxpool_2x2_valid_is_tflite_micro_s() {
    pool_oracle(
        "maxpool_2x2_valid",
        BuiltinOp::MAX_POOL_2D,
        Padding::Valid,
        2,
        2,
    );
}

#[test]
fn maxpool_3x3_s2_same_is_tflite_micro_s() {
    pool_oracle(
        "maxpool_3x3_s2_same",
        BuiltinOp::MAX_POOL_2D,
        Padding::Same,
        3,
        2,
    );
}

/// A `MEAN` over axes 1 and 2 run on its 8 cases.
fn mean_oracle(name: &'static str, keep_dims: bool) {
    let oracle = Oracle::load(name);
    let model = Model::parse(&oracle.bytes).unwrap();
    assert_eq!(model.operator_count(), 1);
    let op = model.operator(0).unwrap();
    assert_eq!(op.op().name(), "MEAN");
    let input = model.tensor(op.input(0).unwrap()).unwrap();
    let axis = model.tensor(op.input(1).unwrap()).unwrap();
    let output = model.tensor(op.output(0).unwrap()).unwrap();
    assert_eq!(
        axis.data_as::<i32>().unwrap().iter().collect::<Vec<_>>(),
        [1, 2]
    );
    let [batches, height, width, depth] = shape(&input)[..] else {
        panic!("{name}: input rank")
    };
    let expected_shape = if keep_dims {
        vec![batches, 1, 1, depth]
    } else {
        vec![batches, depth]
    };
    assert_eq!(shape(&output), expected_shape);
    let (input_scale, input_zero_point) = per_tensor(&input);
    let (output_scale, output_zero_point) = per_tensor(&output);
    // these files requantize: their scales and zero points differ
    assert_ne!(input_scale, output_scale);
    let params = mean_params(
        input_scale,
        input_zero_point,
        output_scale,
        output_zero_point,
        height * width,
    )
    .unwrap();
    assert_eq!(
        params,
        naive_mean_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
            height * width
        )
    );
    for (k, (x, expected)) in oracle
        .cases(input.index(), output.index())
        .iter()
        .enumerate()
    {
        let mut out = vec![0i8; expected.len()];
        mean_int8(x, batches, height, width, depth, &params, &mut out).unwrap();
        assert_cases(name, k, &out, expected);
    }
}

#[test]
fn mean_hw_is_tflite_micro_s() {
    mean_oracle("mean_hw", false);
}

#[test]
fn mean_hw_keepdims_is_tflite_micro_s() {
    mean_oracle("mean_hw_keepdims", true);
}

// ---------------------------------------------------------------------------
// Naive kernels, written as TFLite's C++ loops are, in signed positions
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct ConvCase {
    dims: Conv2dDims,
    stride: (usize, usize),
    dilation: (usize, usize),
    pad: (usize, usize),
    input_zero_point: i32,
    output_zero_point: i32,
    multipliers: Vec<QuantizedMultiplier>,
    clamp: (i32, i32),
    input: Vec<i8>,
    filter: Vec<i8>,
    bias: Option<Vec<i32>>,
}

/// TFLite Micro's `ConvPerChannel`, loop for loop.
fn naive_conv(c: &ConvCase) -> Vec<i8> {
    let d = c.dims;
    let mut out = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for oc in 0..d.output_depth {
                    let mut acc: i64 = 0;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let iy = (oy * c.stride.0) as i64 - c.pad.0 as i64
                                + (ky * c.dilation.0) as i64;
                            let ix = (ox * c.stride.1) as i64 - c.pad.1 as i64
                                + (kx * c.dilation.1) as i64;
                            if iy < 0
                                || ix < 0
                                || iy >= d.input_height as i64
                                || ix >= d.input_width as i64
                            {
                                continue;
                            }
                            let (iy, ix) = (iy as usize, ix as usize);
                            for ic in 0..d.input_depth {
                                let x = c.input[((b * d.input_height + iy) * d.input_width + ix)
                                    * d.input_depth
                                    + ic];
                                let f = c.filter[((oc * d.filter_height + ky) * d.filter_width
                                    + kx)
                                    * d.input_depth
                                    + ic];
                                acc +=
                                    i64::from(f) * (i64::from(x) - i64::from(c.input_zero_point));
                            }
                        }
                    }
                    if let Some(bias) = &c.bias {
                        acc += i64::from(bias[oc]);
                    }
                    let m = if c.multipliers.len() == 1 {
                        c.multipliers[0]
                    } else {
                        c.multipliers[oc]
                    };
                    let acc = i32::try_from(acc).expect("no overflow at these sizes");
                    let y = multiply_by_quantized_multiplier(acc, m, Rounding::Double)
                        + c.output_zero_point;
                    out.push(y.max(c.clamp.0).min(c.clamp.1) as i8);
                }
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
struct PoolCase {
    dims: PoolDims,
    params: PoolParams,
    input: Vec<i8>,
}

/// The inputs of each output's window inside the input, per channel, in
/// TFLite's output order (`None` for an empty window).
fn naive_windows(c: &PoolCase) -> Vec<Vec<i8>> {
    let d = c.dims;
    let p = c.params;
    let mut windows = Vec::new();
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for ch in 0..d.depth {
                    let mut taps = Vec::new();
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let iy = (oy * p.stride_height + ky) as i64 - p.pad_top as i64;
                            let ix = (ox * p.stride_width + kx) as i64 - p.pad_left as i64;
                            if (0..d.input_height as i64).contains(&iy)
                                && (0..d.input_width as i64).contains(&ix)
                            {
                                let i = ((b * d.input_height + iy as usize) * d.input_width
                                    + ix as usize)
                                    * d.depth
                                    + ch;
                                taps.push(c.input[i]);
                            }
                        }
                    }
                    windows.push(taps);
                }
            }
        }
    }
    windows
}

/// The average rounded to nearest, ties away from zero (`f64::round`),
/// clamped; `None` if a window is empty.
fn naive_average_pool(c: &PoolCase) -> Option<Vec<i8>> {
    naive_windows(c)
        .iter()
        .map(|taps| {
            if taps.is_empty() {
                return None;
            }
            let sum: i64 = taps.iter().map(|&x| i64::from(x)).sum();
            let average = (sum as f64 / taps.len() as f64).round() as i32;
            Some(average.clamp(c.params.output_min, c.params.output_max) as i8)
        })
        .collect()
}

fn naive_max_pool(c: &PoolCase) -> Vec<i8> {
    naive_windows(c)
        .iter()
        .map(|taps| {
            let max = taps.iter().copied().max().unwrap_or(i8::MIN);
            i32::from(max).clamp(c.params.output_min, c.params.output_max) as i8
        })
        .collect()
}

/// TFLite Micro's `PrepareMeanOrSumHelper` and `QuantizedMeanOrSum`'s
/// multiplier, as its C++ writes them.
fn naive_mean_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
    count: usize,
) -> MeanParams {
    let m = quantize_multiplier(input_scale as f64 / output_scale as f64).unwrap();
    let (mut multiplier, mut shift) = (m.multiplier(), m.shift());
    let n = count as i64;
    if n > 0 {
        let mut s = 63 - (n as u64).leading_zeros() as i32;
        s = s.min(32);
        s = s.min(31 + shift);
        multiplier = (((multiplier as i64) << s) / n) as i32;
        shift -= s;
    }
    MeanParams {
        multiplier: QuantizedMultiplier::new(multiplier, shift).unwrap(),
        input_zero_point,
        output_zero_point,
        count,
    }
}

fn naive_mean(
    input: &[i8],
    (batches, height, width, depth): (usize, usize, usize, usize),
    p: &MeanParams,
) -> Vec<i8> {
    let n = height * width;
    let mut out = Vec::new();
    for b in 0..batches {
        for c in 0..depth {
            if n == 0 {
                out.push(0);
                continue;
            }
            let mut sum: i64 = 0;
            for y in 0..height {
                for x in 0..width {
                    sum += i64::from(input[((b * height + y) * width + x) * depth + c]);
                }
            }
            let shifted = i32::try_from(sum - i64::from(p.input_zero_point) * n as i64).unwrap();
            let y = multiply_by_quantized_multiplier(shifted, p.multiplier, Rounding::Double)
                + p.output_zero_point;
            out.push(y.clamp(-128, 127) as i8);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Random cases
// ---------------------------------------------------------------------------

/// A small deterministic generator for a case's data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        (0..n).map(|_| self.next() as i8).collect()
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// A random multiplier: a mantissa in [2^30, 2^31) and a shift mostly
/// below zero (as real layers' are), sometimes 0 or above.
fn multiplier(rng: &mut Rng) -> QuantizedMultiplier {
    let m = rng.range(1 << 30, i32::MAX as i64) as i32;
    let shift = rng.range(-14, 2) as i32;
    QuantizedMultiplier::new(m, shift).unwrap()
}

fn clamp(rng: &mut Rng) -> (i32, i32) {
    let a = rng.range(-128, 127) as i32;
    let b = rng.range(-128, 127) as i32;
    match rng.next() % 3 {
        0 => (-128, 127),
        _ => (a.min(b), a.max(b)),
    }
}

/// Sizes of one axis: `(input, filter, stride, dilation, output, pad)`,
/// from `conv_axis` (SAME or VALID) or any padding and output size.
fn axis(rng: &mut Rng, max_dilation: i64) -> (usize, usize, usize, usize, usize, usize) {
    let input = rng.range(1, 9) as usize;
    let filter = rng.range(1, 4) as usize;
    let stride = rng.range(1, 3) as usize;
    let dilation = rng.range(1, max_dilation) as usize;
    let padding = match rng.next() % 3 {
        0 => Some(Padding::Same),
        1 => Some(Padding::Valid),
        _ => None,
    };
    match padding.and_then(|p| conv_axis(p, input, filter, stride, dilation).ok()) {
        Some(a) => (input, filter, stride, dilation, a.output, a.pad_before),
        _ => (
            input,
            filter,
            stride,
            dilation,
            rng.range(1, 6) as usize,
            rng.range(0, 5) as usize,
        ),
    }
}

fn conv_case(seed: u64) -> ConvCase {
    let mut rng = Rng(seed | 1);
    let (ih, fh, sh, dh, oh, pt) = axis(&mut rng, 3);
    let (iw, fw, sw, dw, ow, pl) = axis(&mut rng, 3);
    let batches = rng.range(1, 2) as usize;
    let input_depth = rng.range(1, 6) as usize;
    let output_depth = rng.range(1, 6) as usize;
    let dims = Conv2dDims {
        batches,
        input_height: ih,
        input_width: iw,
        input_depth,
        filter_height: fh,
        filter_width: fw,
        output_height: oh,
        output_width: ow,
        output_depth,
    };
    let multipliers = if rng.next().is_multiple_of(2) {
        vec![multiplier(&mut rng)]
    } else {
        (0..output_depth).map(|_| multiplier(&mut rng)).collect()
    };
    let bias = (!rng.next().is_multiple_of(4)).then(|| {
        (0..output_depth)
            .map(|_| rng.range(-20_000, 20_000) as i32)
            .collect()
    });
    ConvCase {
        dims,
        stride: (sh, sw),
        dilation: (dh, dw),
        pad: (pt, pl),
        input_zero_point: rng.range(-128, 127) as i32,
        output_zero_point: rng.range(-128, 127) as i32,
        multipliers,
        clamp: clamp(&mut rng),
        input: rng.i8s(batches * ih * iw * input_depth),
        filter: rng.i8s(output_depth * fh * fw * input_depth),
        bias,
    }
}

fn conv_params(c: &ConvCase) -> Conv2dParams<'_> {
    Conv2dParams {
        stride_height: c.stride.0,
        stride_width: c.stride.1,
        dilation_height: c.dilation.0,
        dilation_width: c.dilation.1,
        pad_top: c.pad.0,
        pad_left: c.pad.1,
        input_zero_point: c.input_zero_point,
        output_zero_point: c.output_zero_point,
        multipliers: &c.multipliers,
        output_min: c.clamp.0,
        output_max: c.clamp.1,
        rounding: Rounding::Double,
    }
}

fn pool_case(seed: u64) -> PoolCase {
    let mut rng = Rng(seed | 1);
    let (ih, fh, sh, _, oh, pt) = axis(&mut rng, 1);
    let (iw, fw, sw, _, ow, pl) = axis(&mut rng, 1);
    let batches = rng.range(1, 2) as usize;
    // a few channels, or whole chunks of 16 and a tail (the int8 sums by
    // words)
    let depth = match rng.range(0, 1) {
        0 => rng.range(1, 5),
        _ => rng.range(15, 40),
    } as usize;
    let (output_min, output_max) = clamp(&mut rng);
    PoolCase {
        dims: PoolDims {
            batches,
            input_height: ih,
            input_width: iw,
            depth,
            filter_height: fh,
            filter_width: fw,
            output_height: oh,
            output_width: ow,
        },
        params: PoolParams {
            stride_height: sh,
            stride_width: sw,
            pad_top: pt,
            pad_left: pl,
            output_min,
            output_max,
        },
        input: rng.i8s(batches * ih * iw * depth),
    }
}

fn le_bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn conv_is_the_naive_convolution(seed in any::<u64>(), in_place in any::<bool>()) {
        let c = conv_case(seed);
        let expected = naive_conv(&c);
        let params = conv_params(&c);
        let mut out = vec![0x55u8 as i8; expected.len()];
        if in_place {
            // filter and bias as a model holds them: arrays in its bytes
            let filter_bytes: Vec<u8> = c.filter.iter().map(|&f| f as u8).collect();
            let filter = Array::<i8>::new(&filter_bytes).unwrap();
            let bias_bytes = c.bias.as_deref().map(le_bytes_i32);
            let bias = bias_bytes.as_deref().map(|b| Array::<i32>::new(b).unwrap());
            conv_2d_int8(&c.input, &filter, bias.as_ref(), c.dims, &params, &mut out).unwrap();
        } else {
            conv_2d_int8(&c.input, &c.filter[..], c.bias.as_deref(), c.dims, &params, &mut out)
                .unwrap();
        }
        prop_assert_eq!(out, expected, "{:?}", c);
    }

    #[test]
    fn average_pool_is_the_rounded_average(seed in any::<u64>()) {
        let c = pool_case(seed);
        let mut out = vec![0x55u8 as i8; naive_windows(&c).len()];
        let before = out.clone();
        match naive_average_pool(&c) {
            Some(expected) => {
                average_pool_int8(&c.input, c.dims, &c.params, &mut out).unwrap();
                prop_assert_eq!(out, expected, "{:?}", c);
            }
            None => {
                // a window with no tap inside: refused, nothing written
                let r = average_pool_int8(&c.input, c.dims, &c.params, &mut out);
                prop_assert!(matches!(r, Err(TfliteError::KernelParam { .. })), "{:?}", c);
                prop_assert_eq!(out, before);
            }
        }
    }

    #[test]
    fn max_pool_is_the_naive_max(seed in any::<u64>()) {
        let c = pool_case(seed);
        let expected = naive_max_pool(&c);
        let mut out = vec![0x55u8 as i8; expected.len()];
        max_pool_int8(&c.input, c.dims, &c.params, &mut out).unwrap();
        prop_assert_eq!(out, expected, "{:?}", c);
    }

    #[test]
    fn mean_is_tflite_micro_s_arithmetic(
        seed in any::<u64>(),
        batches in 1usize..3,
        height in 0usize..9,
        width in 0usize..9,
        depth in 1usize..6,
        input_zero_point in -128i32..128,
        output_zero_point in -128i32..128,
        input_scale in 1e-4f32..1.0,
        ratio in 0.01f32..100.0,
        same in any::<bool>(),
    ) {
        let (output_scale, output_zero_point) = if same {
            (input_scale, input_zero_point)
        } else {
            (input_scale / ratio, output_zero_point)
        };
        let count = height * width;
        let params =
            mean_params(input_scale, input_zero_point, output_scale, output_zero_point, count)
                .unwrap();
        prop_assert_eq!(
            params,
            naive_mean_params(input_scale, input_zero_point, output_scale, output_zero_point, count)
        );
        let input = Rng(seed | 1).i8s(batches * count * depth);
        let expected = naive_mean(&input, (batches, height, width, depth), &params);
        let mut out = vec![0x55u8 as i8; batches * depth];
        mean_int8(&input, batches, height, width, depth, &params, &mut out).unwrap();
        prop_assert_eq!(&out, &expected);
        // and the mean it approximates: within a step (the two roundings),
        // where it is not clamped
        if count > 0 {
            for (k, &y) in out.iter().enumerate() {
                let (b, c) = (k / depth, k % depth);
                let sum: f64 = (0..count)
                    .map(|p| f64::from(input[(b * count + p) * depth + c]))
                    .sum();
                let real = (sum / count as f64 - f64::from(input_zero_point)) * f64::from(input_scale);
                let q = real / f64::from(output_scale) + f64::from(output_zero_point);
                if (-127.0..126.0).contains(&q) {
                    prop_assert!((f64::from(y) - q).abs() <= 1.0, "{} vs {}", y, q);
                }
            }
        }
    }
}

/// With equal quantization in and out and 2 elements, the multiplier is
/// `(2^30, 0)`: a half step is rounded once, by the doubling high
/// multiply, toward +∞ (−6.5 → −6), not away from zero.
#[test]
fn mean_of_two_rounds_half_steps_up() {
    let p = mean_params(0.1, 5, 0.1, 5, 2).unwrap();
    assert_eq!(
        (p.multiplier.multiplier(), p.multiplier.shift()),
        (1 << 30, 0)
    );
    let mut out = [0i8; 3];
    // (10 − 5 + 11 − 5) / 2 = 5.5 → 6; (−1 − 5 − 2 − 5) / 2 = −6.5 → −6; 2 / 2 = 1
    mean_int8(&[10, -1, 5, 11, -2, 7], 1, 1, 2, 3, &p, &mut out).unwrap();
    assert_eq!(out, [11, -1, 6]);
}

#[test]
fn average_pool_sums_hundreds_of_taps_by_words() {
    // a 23×19 window (437 taps: past the 256 at which the 16-bit lanes
    // move into the sums) of 32 channels at the ends of int8, and of a
    // mix: the average, rounded, of each channel
    for fill in [-128i8, 127, 5] {
        let (h, w, depth) = (23usize, 19usize, 32usize);
        let input: Vec<i8> = (0..h * w * depth)
            .map(|i| match fill {
                5 => ((i * 37 + i / depth * 11) % 256) as i8,
                v => v,
            })
            .collect();
        let dims = PoolDims {
            batches: 1,
            input_height: h,
            input_width: w,
            depth,
            filter_height: h,
            filter_width: w,
            output_height: 1,
            output_width: 1,
        };
        let params = PoolParams {
            stride_height: 1,
            stride_width: 1,
            pad_top: 0,
            pad_left: 0,
            output_min: -128,
            output_max: 127,
        };
        let mut out = vec![0i8; depth];
        average_pool_int8(&input, dims, &params, &mut out).unwrap();
        let want: Vec<i8> = (0..depth)
            .map(|c| {
                let sum: i64 = input
                    .iter()
                    .skip(c)
                    .step_by(depth)
                    .map(|&x| i64::from(x))
                    .sum();
                let n = (h * w) as i64;
                let avg = if sum > 0 {
                    (sum + n / 2) / n
                } else {
                    (sum - n / 2) / n
                };
                avg as i8
            })
            .collect();
        assert_eq!(out, want, "fill {fill}");
    }
}

/// TFLite's rounding of the average: `(sum ± count/2) / count`, truncated:
/// ties away from zero, both signs.
#[test]
fn average_pool_rounds_ties_away_from_zero() {
    let dims = PoolDims {
        batches: 1,
        input_height: 1,
        input_width: 2,
        depth: 4,
        filter_height: 1,
        filter_width: 2,
        output_height: 1,
        output_width: 1,
    };
    let params = PoolParams {
        stride_height: 1,
        stride_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: -128,
        output_max: 127,
    };
    let mut out = [0i8; 4];
    // sums 3, −3, 1, −255
    average_pool_int8(&[1, -1, 0, -128, 2, -2, 1, -127], dims, &params, &mut out).unwrap();
    assert_eq!(out, [2, -2, 1, -128]);
}

// ---------------------------------------------------------------------------
// Refusals: an error, and the output untouched
// ---------------------------------------------------------------------------

fn refused<T: std::fmt::Debug>(r: Result<(), TfliteError>, out: &[i8], what: T) {
    assert!(r.is_err(), "{what:?} accepted");
    assert!(out.iter().all(|&y| y == 0x55), "{what:?}: output written");
}

#[test]
fn conv_refuses_bad_sizes_and_params_before_writing() {
    let c = conv_case(7);
    let n = naive_conv(&c).len();
    let good = conv_params(&c);
    let run = |input: &[i8],
               filter: &[i8],
               bias: Option<&[i32]>,
               dims: Conv2dDims,
               params: &Conv2dParams<'_>,
               len: usize| {
        let mut out = vec![0x55u8 as i8; len];
        let r = conv_2d_int8(input, filter, bias, dims, params, &mut out);
        (r, out)
    };
    let bias = vec![0i32; c.dims.output_depth];
    let (r, _) = run(&c.input, &c.filter, Some(&bias), c.dims, &good, n);
    assert!(r.is_ok());
    let short_in = &c.input[1..];
    let (r, out) = run(short_in, &c.filter, None, c.dims, &good, n);
    refused(r, &out, "short input");
    let (r, out) = run(&c.input, &c.filter[1..], None, c.dims, &good, n);
    refused(r, &out, "short filter");
    let (r, out) = run(&c.input, &c.filter, Some(&bias[1..]), c.dims, &good, n);
    refused(r, &out, "short bias");
    let (r, out) = run(&c.input, &c.filter, None, c.dims, &good, n + 1);
    refused(r, &out, "long output");
    let two = [QuantizedMultiplier::ZERO; 2];
    let three_channels = Conv2dDims {
        output_depth: 3,
        ..c.dims
    };
    for (what, params) in [
        (
            "stride 0",
            Conv2dParams {
                stride_height: 0,
                ..good
            },
        ),
        (
            "stride 0",
            Conv2dParams {
                stride_width: 0,
                ..good
            },
        ),
        (
            "dilation 0",
            Conv2dParams {
                dilation_height: 0,
                ..good
            },
        ),
        (
            "dilation 0",
            Conv2dParams {
                dilation_width: 0,
                ..good
            },
        ),
        (
            "empty clamp",
            Conv2dParams {
                output_min: 1,
                output_max: 0,
                ..good
            },
        ),
        (
            "no multiplier",
            Conv2dParams {
                multipliers: &[],
                ..good
            },
        ),
    ] {
        let (r, out) = run(&c.input, &c.filter, None, c.dims, &params, n);
        refused(r, &out, what);
    }
    // two multipliers for three channels
    let params = Conv2dParams {
        multipliers: &two,
        ..good
    };
    let filter = vec![0i8; 3 * c.dims.filter_height * c.dims.filter_width * c.dims.input_depth];
    let len = c.dims.batches * c.dims.output_height * c.dims.output_width * 3;
    let (r, out) = run(&c.input, &filter, None, three_channels, &params, len);
    refused(r, &out, "two multipliers for three channels");
    // sizes whose product overflows
    let huge = Conv2dDims {
        input_height: usize::MAX,
        input_width: 2,
        ..c.dims
    };
    let (r, out) = run(&c.input, &c.filter, None, huge, &good, n);
    refused(r, &out, "overflowing input size");
}

/// Huge sizes beside a zero are not looped over: an input of no channels
/// (or a filter of no taps) gives each output its bias alone.
#[test]
fn conv_with_no_taps_is_its_bias() {
    let m = [quantize_multiplier(1.0).unwrap()];
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: 3,
        output_zero_point: 1,
        multipliers: &m,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let dims = Conv2dDims {
        batches: 1,
        input_height: usize::MAX,
        input_width: usize::MAX,
        input_depth: 0,
        filter_height: usize::MAX,
        filter_width: usize::MAX,
        output_height: 1,
        output_width: 1,
        output_depth: 2,
    };
    let mut out = [0i8; 2];
    conv_2d_int8(&[], &[0i8; 0], Some(&[5, -300]), dims, &params, &mut out).unwrap();
    assert_eq!(out, [6, -128]);
}

#[test]
fn pools_refuse_bad_sizes_and_params_before_writing() {
    let c = pool_case(11);
    let n = naive_windows(&c).len();
    let good = c.params;
    type Pool = fn(&[i8], PoolDims, &PoolParams, &mut [i8]) -> Result<(), TfliteError>;
    for (name, pool) in [
        ("average", average_pool_int8 as Pool),
        ("max", max_pool_int8 as Pool),
    ] {
        let run = |input: &[i8], dims: PoolDims, params: &PoolParams, len: usize| {
            let mut out = vec![0x55u8 as i8; len];
            let r = pool(input, dims, params, &mut out);
            (r, out)
        };
        let (r, out) = run(&c.input[1..], c.dims, &good, n);
        refused(r, &out, (name, "short input"));
        let (r, out) = run(&c.input, c.dims, &good, n - 1);
        refused(r, &out, (name, "short output"));
        for (what, params) in [
            (
                "stride 0",
                PoolParams {
                    stride_height: 0,
                    ..good
                },
            ),
            (
                "stride 0",
                PoolParams {
                    stride_width: 0,
                    ..good
                },
            ),
            (
                "empty clamp",
                PoolParams {
                    output_min: 3,
                    output_max: 2,
                    ..good
                },
            ),
            (
                "clamp below int8",
                PoolParams {
                    output_min: -129,
                    ..good
                },
            ),
            (
                "clamp above int8",
                PoolParams {
                    output_max: 128,
                    ..good
                },
            ),
        ] {
            let (r, out) = run(&c.input, c.dims, &params, n);
            refused(r, &out, (name, what));
        }
        for (what, dims) in [
            (
                "window 0",
                PoolDims {
                    filter_height: 0,
                    ..c.dims
                },
            ),
            (
                "window 0",
                PoolDims {
                    filter_width: 0,
                    ..c.dims
                },
            ),
            (
                "overflow",
                PoolDims {
                    input_height: usize::MAX,
                    input_width: 3,
                    ..c.dims
                },
            ),
        ] {
            let (r, out) = run(&c.input, dims, &good, n);
            refused(r, &out, (name, what));
        }
    }
    // the average of a window in the padding alone
    let dims = PoolDims {
        batches: 1,
        input_height: 2,
        input_width: 2,
        depth: 1,
        filter_height: 2,
        filter_width: 2,
        output_height: 2,
        output_width: 1,
    };
    let params = PoolParams {
        stride_height: 2,
        stride_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: -128,
        output_max: 127,
    };
    let mut out = [0x55u8 as i8; 2];
    let r = average_pool_int8(&[1, 2, 3, 4], dims, &params, &mut out);
    refused(r, &out, "a window past the input");
    // the max of one is −128, clamped
    max_pool_int8(
        &[1, 2, 3, 4],
        dims,
        &PoolParams {
            output_min: -7,
            ..params
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [4, -7]);
}

#[test]
fn max_pool_of_an_empty_image_is_not_looped_over() {
    let dims = PoolDims {
        batches: 1,
        input_height: usize::MAX,
        input_width: 0,
        depth: 1,
        filter_height: usize::MAX,
        filter_width: usize::MAX,
        output_height: 1,
        output_width: 1,
    };
    let params = PoolParams {
        stride_height: 1,
        stride_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: -128,
        output_max: 127,
    };
    let mut out = [0i8; 1];
    max_pool_int8(&[], dims, &params, &mut out).unwrap();
    assert_eq!(out, [-128]);
    let r = average_pool_int8(&[], dims, &params, &mut out);
    assert!(matches!(r, Err(TfliteError::KernelParam { .. })));
}

#[test]
fn mean_refuses_bad_sizes_before_writing() {
    let p = mean_params(0.1, 0, 0.05, 0, 6).unwrap();
    let input = [1i8; 2 * 6 * 3];
    let run = |input: &[i8], b, h, w, d, p: &MeanParams, len: usize| {
        let mut out = vec![0x55u8 as i8; len];
        let r = mean_int8(input, b, h, w, d, p, &mut out);
        (r, out)
    };
    let (r, _) = run(&input, 2, 2, 3, 3, &p, 6);
    assert!(r.is_ok());
    let (r, out) = run(&input[1..], 2, 2, 3, 3, &p, 6);
    refused(r, &out, "short input");
    let (r, out) = run(&input, 2, 2, 3, 3, &p, 5);
    refused(r, &out, "short output");
    let (r, out) = run(
        &input,
        2,
        3,
        2,
        3,
        &mean_params(0.1, 0, 0.05, 0, 5).unwrap(),
        6,
    );
    refused(r, &out, "count not height · width");
    let (r, out) = run(&input, 2, usize::MAX, 3, 3, &p, 6);
    refused(r, &out, "overflow");
    for (i, o) in [(0.1, 0.0), (f32::NAN, 0.1), (-0.1, 0.1), (0.0, 0.0)] {
        assert!(
            matches!(
                mean_params(i, 0, o, 0, 4),
                Err(TfliteError::BadMultiplier { .. })
            ),
            "{i} / {o}"
        );
    }
    // no pixels: zeros, as TFLite Micro writes
    let p = mean_params(0.1, 4, 0.1, 4, 0).unwrap();
    let mut out = [0x55u8 as i8; 2];
    mean_int8(&[], 1, 0, 7, 2, &p, &mut out).unwrap();
    assert_eq!(out, [0, 0]);
}
