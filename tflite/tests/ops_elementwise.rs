//! The element-wise kernels against TFLite Micro, bit for bit: `ADD`
//! (two activations with their own scales; a constant broadcast along
//! channels or rows), `PAD`, `LOGISTIC`, `QUANTIZE` and `DEQUANTIZE`, on
//! every element of every recorded case of the one-op models in
//! `tests/ops/` (copied from the shared oracles: each case records every
//! tensor TFLite Micro computed). The ops' constants and quantization are
//! read from the models with the crate's reader; `ADD`'s fused activation
//! (not decoded by the reader yet) is the models' README table's. Then
//! property tests against naive references written plainly here, and the
//! checks that refuse bad lengths, shapes and parameters before anything
//! is written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    activation_range_int8, add_int8, add_params, broadcast_shape, dequantize_int8,
    dequantize_value, logistic_int8, logistic_params, pad, pad_output_shape, quantize_int8,
    quantize_multiplier, quantize_value, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul, Activation, AddParams, BuiltinOp, LogisticParams, Model,
    QuantizedMultiplier, TfliteError,
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

fn f32s(data: &Value) -> Vec<f32> {
    data.as_array()
        .expect("array")
        .iter()
        .map(|v| {
            let x = v.as_f64().expect("number");
            // the JSON holds f32 values, which serde_json (without its
            // float_roundtrip feature) reads within an f64 step or so:
            // rounded to f32, each is the value written
            let y = x as f32;
            assert!(
                (f64::from(y) - x).abs() <= x.abs() * 1e-15,
                "{x} is not an f32"
            );
            y
        })
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

/// Runs the model's `ADD` (operator `k`) on every case, from its inputs'
/// recorded (or constant) data, and compares every output element.
fn check_add(bytes: &[u8], json: &str, k: usize, activation: Activation) -> usize {
    let model = Model::parse(bytes).unwrap();
    let op = model.operator(k).unwrap();
    assert_eq!(op.op(), BuiltinOp::ADD);
    let (in1, in2, out) = (
        op.input(0).unwrap(),
        op.input(1).unwrap(),
        op.output(0).unwrap(),
    );
    let (s1, z1) = quant(&model, in1);
    let (s2, z2) = quant(&model, in2);
    let (so, zo) = quant(&model, out);
    let (lo, hi) = activation_range_int8(activation, so, zo).unwrap();
    let params = add_params(s1, z1, s2, z2, so, zo, lo, hi).unwrap();
    let (shape1, shape2, out_shape) = (shape(&model, in1), shape(&model, in2), shape(&model, out));
    let (dims, rank) = broadcast_shape(&shape1, &shape2).unwrap();
    assert_eq!(&dims[..rank], &out_shape[..]);
    // a constant second operand is read in place from the model's bytes
    let constant = model
        .tensor(in2)
        .unwrap()
        .data_as::<i8>()
        .filter(|a| !a.is_empty());
    assert!(model.tensor(in1).unwrap().data().is_empty());
    let mut compared = 0;
    for case in cases(json) {
        let x1 = int8s(recorded(&case, in1));
        let want = int8s(recorded(&case, out));
        let mut got = vec![0i8; want.len()];
        match &constant {
            Some(c) => add_int8(&x1[..], &shape1, c, &shape2, &params, &mut got).unwrap(),
            None => {
                let x2 = int8s(recorded(&case, in2));
                add_int8(&x1[..], &shape1, &x2[..], &shape2, &params, &mut got).unwrap()
            }
        }
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i}", case["name"]);
            compared += 1;
        }
    }
    compared
}

#[test]
fn add_of_two_activations_is_tflite_micro_s() {
    // CONV_2D, CONV_2D, ADD with a fused RELU: the ADD's inputs are the
    // two convolutions' recorded outputs
    let (bytes, json) = op_files!("add_residual_relu");
    assert_eq!(check_add(bytes, json, 2, Activation::Relu), 8 * 144);
}

#[test]
fn add_of_a_constant_broadcast_along_channels_is_tflite_micro_s() {
    // [1, 5, 4, 6] + a constant [1, 1, 1, 6]
    let (bytes, json) = op_files!("add_broadcast_channel");
    assert_eq!(check_add(bytes, json, 0, Activation::None), 8 * 120);
}

#[test]
fn add_of_a_constant_broadcast_along_rows_is_tflite_micro_s() {
    // [1, 5, 4, 6] + a constant [1, 1, 4, 6], fused RELU
    let (bytes, json) = op_files!("add_broadcast_row_relu");
    assert_eq!(check_add(bytes, json, 0, Activation::Relu), 8 * 120);
}

#[test]
fn pad_is_tflite_micro_s() {
    let (bytes, json) = op_files!("pad_1_2");
    let model = Model::parse(bytes).unwrap();
    let op = model.operator(0).unwrap();
    assert_eq!(op.op().to_string(), "PAD");
    let (input, paddings, out) = (
        op.input(0).unwrap(),
        op.input(1).unwrap(),
        op.output(0).unwrap(),
    );
    let paddings: Vec<(usize, usize)> = model
        .tensor(paddings)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|p| {
            (
                usize::try_from(p[0]).unwrap(),
                usize::try_from(p[1]).unwrap(),
            )
        })
        .collect();
    assert_eq!(paddings, [(0, 0), (1, 2), (2, 1), (0, 0)]);
    let input_shape = shape(&model, input);
    let (dims, rank) = pad_output_shape(&input_shape, &paddings).unwrap();
    assert_eq!(&dims[..rank], &shape(&model, out)[..]);
    // TFLite Micro pads int8 with the output's zero point
    let (_, zero_point) = quant(&model, out);
    let mut compared = 0;
    for case in cases(json) {
        let x = int8s(recorded(&case, input));
        let want = int8s(recorded(&case, out));
        let mut got = vec![0x55i8; want.len()];
        pad(
            &x,
            &input_shape,
            &paddings,
            i8::try_from(zero_point).unwrap(),
            &mut got,
        )
        .unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i}", case["name"]);
            compared += 1;
        }
    }
    assert_eq!(compared, 8 * 168);
}

#[test]
fn logistic_is_tflite_micro_s() {
    // FULLY_CONNECTED then LOGISTIC: the logistic's input is the FC's
    // recorded output
    let (bytes, json) = op_files!("logistic");
    let model = Model::parse(bytes).unwrap();
    let op = model.operator(1).unwrap();
    assert_eq!(op.op(), BuiltinOp::LOGISTIC);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let (si, zi) = quant(&model, input);
    let (so, zo) = quant(&model, out);
    let params = logistic_params(si, zi, so, zo).unwrap();
    let mut compared = 0;
    let mut distinct = std::collections::BTreeSet::new();
    for case in cases(json) {
        let x = int8s(recorded(&case, input));
        let want = int8s(recorded(&case, out));
        let mut got = vec![0i8; want.len()];
        logistic_int8(&x, &params, &mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i} (input {})", case["name"], x[i]);
            distinct.insert(*w);
            compared += 1;
        }
    }
    assert_eq!(compared, 8 * 7);
    // the cases reach well inside the curve, not only its ends
    assert!(distinct.len() > 10, "{distinct:?}");
}

#[test]
fn quantize_and_dequantize_are_tflite_micro_s() {
    // QUANTIZE, CONV_2D, DEQUANTIZE with f32 input and output
    let (bytes, json) = op_files!("float_io_conv");
    let model = Model::parse(bytes).unwrap();
    let quantize = model.operator(0).unwrap();
    let dequantize = model.operator(2).unwrap();
    assert_eq!(quantize.op(), BuiltinOp::QUANTIZE);
    assert_eq!(dequantize.op(), BuiltinOp::DEQUANTIZE);
    let (q_in, q_out) = (quantize.input(0).unwrap(), quantize.output(0).unwrap());
    let (d_in, d_out) = (dequantize.input(0).unwrap(), dequantize.output(0).unwrap());
    let (q_scale, q_zero_point) = quant(&model, q_out);
    let (d_scale, d_zero_point) = quant(&model, d_in);
    let (mut quantized, mut dequantized, mut nonzero) = (0, 0, 0);
    for case in cases(json) {
        let x = f32s(recorded(&case, q_in));
        assert_eq!(x, f32s(&case["input"]));
        let want = int8s(recorded(&case, q_out));
        let mut got = vec![0i8; want.len()];
        quantize_int8(&x, q_scale, q_zero_point, &mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g, w,
                "case {}: QUANTIZE output {i} ({})",
                case["name"], x[i]
            );
            quantized += 1;
        }
        let q = int8s(recorded(&case, d_in));
        let want = f32s(recorded(&case, d_out));
        assert_eq!(want, f32s(&case["out"]));
        let mut got = vec![0f32; want.len()];
        dequantize_int8(&q, d_scale, d_zero_point, &mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g == w,
                "case {}: DEQUANTIZE output {i}: {g} ≠ {w}",
                case["name"]
            );
            assert_eq!(g.to_bits(), w.to_bits());
            nonzero += usize::from(*w != 0.0);
            dequantized += 1;
        }
    }
    assert_eq!((quantized, dequantized), (8 * 128, 8 * 256));
    assert!(nonzero > 500);
}

// ---------------------------------------------------------------- ADD ---

/// TFLite Micro's `CalculateOpDataAdd` for int8, written out.
#[allow(clippy::too_many_arguments)]
fn naive_add_params(
    s1: f32,
    z1: i32,
    s2: f32,
    z2: i32,
    so: f32,
    zo: i32,
    lo: i32,
    hi: i32,
) -> AddParams {
    let twice_max = 2.0 * f64::from(s1.max(s2));
    AddParams {
        input1_zero_point: z1,
        input1_multiplier: quantize_multiplier(f64::from(s1) / twice_max).unwrap(),
        input2_zero_point: z2,
        input2_multiplier: quantize_multiplier(f64::from(s2) / twice_max).unwrap(),
        output_zero_point: zo,
        output_multiplier: quantize_multiplier(twice_max / ((1 << 20) as f64 * f64::from(so)))
            .unwrap(),
        output_min: lo,
        output_max: hi,
    }
}

/// gemmlowp's `MultiplyByQuantizedMultiplierSmallerThanOneExp`.
fn smaller_than_one(x: i32, m: QuantizedMultiplier) -> i32 {
    rounding_divide_by_pot(
        saturating_rounding_doubling_high_mul(x, m.multiplier()),
        u32::try_from(-m.shift()).unwrap(),
    )
}

/// TFLite's `AddFunc` for int8.
fn naive_add_one(x1: i8, x2: i8, p: &AddParams) -> i8 {
    let shifted1 = (i32::from(x1) - p.input1_zero_point) * (1 << 20);
    let shifted2 = (i32::from(x2) - p.input2_zero_point) * (1 << 20);
    let sum = smaller_than_one(shifted1, p.input1_multiplier)
        + smaller_than_one(shifted2, p.input2_multiplier);
    let raw = smaller_than_one(sum, p.output_multiplier) + p.output_zero_point;
    raw.max(p.output_min).min(p.output_max) as i8
}

/// The row-major flat index of `index` (right-aligned in `shape`'s rank)
/// in a tensor of `shape`, broadcast where its dim is 1.
fn broadcast_offset(index: &[usize], shape: &[usize]) -> usize {
    let skip = index.len() - shape.len();
    let mut offset = 0;
    for (i, &d) in index[skip..].iter().zip(shape) {
        offset = offset * d + if d == 1 { 0 } else { *i };
    }
    offset
}

/// Every multi-index of `shape`, row-major.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let count: usize = shape.iter().product();
    (0..count)
        .map(|mut flat| {
            let mut index = vec![0; shape.len()];
            for (i, &d) in index.iter_mut().zip(shape).rev() {
                *i = flat % d;
                flat /= d;
            }
            index
        })
        .collect()
}

fn naive_add(
    a: &[i8],
    a_shape: &[usize],
    b: &[i8],
    b_shape: &[usize],
    out_shape: &[usize],
    p: &AddParams,
) -> Vec<i8> {
    indices(out_shape)
        .iter()
        .map(|index| {
            naive_add_one(
                a[broadcast_offset(index, a_shape)],
                b[broadcast_offset(index, b_shape)],
                p,
            )
        })
        .collect()
}

/// Random bytes from a seed (a plain LCG).
fn bytes(seed: u64, n: usize) -> Vec<i8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 56) as i8
        })
        .collect()
}

/// An output shape of rank 0 to 6 and two input shapes that broadcast to
/// it: each a suffix of it (right-aligned) with some dims made 1.
fn broadcast_shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vec<usize>)> {
    prop::collection::vec(1usize..5, 0..=6).prop_flat_map(|out| {
        let r = out.len();
        (
            Just(out),
            0..=r,
            0..=r,
            prop::collection::vec(any::<bool>(), r),
            prop::collection::vec(any::<bool>(), r),
        )
            .prop_map(|(out, ra, rb, ones_a, ones_b)| {
                let r = out.len();
                let pick = |rank: usize, ones: &[bool]| -> Vec<usize> {
                    (r - rank..r)
                        .map(|k| if ones[k] { 1 } else { out[k] })
                        .collect()
                };
                let a = pick(ra, &ones_a);
                let b = pick(rb, &ones_b);
                (out, a, b)
            })
    })
}

fn scale() -> impl Strategy<Value = f32> {
    (-10.0f32..1.0).prop_map(|e| 2f32.powf(e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn add_is_its_naive_definition_for_any_broadcast(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        (c1, c2) in (any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (z1, z2, zo) = (i32::from(z1), i32::from(z2), i32::from(zo));
        let (lo, hi) = (i32::from(c1.min(c2)), i32::from(c1.max(c2)));
        let params = add_params(s1, z1, s2, z2, so, zo, lo, hi).unwrap();
        prop_assert_eq!(params, naive_add_params(s1, z1, s2, z2, so, zo, lo, hi));
        let (dims, rank) = broadcast_shape(&a_shape, &b_shape).unwrap();
        // the broadcast of the suffixes is the output's suffix of the
        // longer rank, with 1 where both are 1
        let r = a_shape.len().max(b_shape.len());
        prop_assert_eq!(rank, r);
        for (k, &d) in dims.iter().enumerate().take(r) {
            let (da, db) = (
                broadcast_dim(&a_shape, r, k),
                broadcast_dim(&b_shape, r, k),
            );
            prop_assert_eq!(d, da.max(db));
        }
        prop_assert!(dims[r..].iter().all(|&d| d == 1));
        let out_shape = &dims[..rank];
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0xabcd, b_shape.iter().product());
        let mut got = vec![0i8; out_shape.iter().product()];
        add_int8(&a[..], &a_shape, &b[..], &b_shape, &params, &mut got).unwrap();
        let want = naive_add(&a, &a_shape, &b, &b_shape, out_shape, &params);
        prop_assert_eq!(&got, &want);
        // and it is the sum of the real values, within one output step
        for (index, &y) in indices(out_shape).iter().zip(&got) {
            let x1 = a[broadcast_offset(index, &a_shape)];
            let x2 = b[broadcast_offset(index, &b_shape)];
            let real = f64::from(s1) * f64::from(i32::from(x1) - z1)
                + f64::from(s2) * f64::from(i32::from(x2) - z2);
            let ideal = ((real / f64::from(so)).round() + f64::from(zo))
                .clamp(f64::from(lo), f64::from(hi));
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }

    #[test]
    fn add_with_equal_shapes_reads_values_in_place(
        n in 0usize..50,
        (s1, s2, so) in (scale(), scale(), scale()),
        seed in any::<u64>(),
    ) {
        // the second operand as a model constant (little-endian bytes)
        let params = add_params(s1, 3, s2, -7, so, 1, -128, 127).unwrap();
        let a = bytes(seed, n);
        let b = bytes(!seed, n);
        let raw: Vec<u8> = b.iter().map(|&x| x as u8).collect();
        let array = shapecheck_tflite::Array::<i8>::new(&raw).unwrap();
        let mut got = vec![0i8; n];
        add_int8(&a[..], &[n], &array, &[1, n], &params, &mut got).unwrap();
        let want: Vec<i8> = a.iter().zip(&b).map(|(&x, &y)| naive_add_one(x, y, &params)).collect();
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Multipliers of one half times a power of two make the products
    /// exact and their ties frequent: the roundings are TFLite Micro's
    /// (ties away from zero after the high multiply), not one rounding.
    #[test]
    fn add_rounds_ties_as_tflite_micro(
        (m1, m2, mo) in (-31i32..=0, -31i32..=0, -31i32..=0),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let half = |shift| QuantizedMultiplier::new(1 << 30, shift).unwrap();
        let params = AddParams {
            input1_zero_point: i32::from(z1),
            input1_multiplier: half(m1),
            input2_zero_point: i32::from(z2),
            input2_multiplier: half(m2),
            output_zero_point: i32::from(zo),
            output_multiplier: half(mo),
            output_min: -128,
            output_max: 127,
        };
        let a = bytes(seed, 64);
        let b = bytes(seed.rotate_left(17), 64);
        let mut got = [0i8; 64];
        add_int8(&a[..], &[64], &b[..], &[64], &params, &mut got).unwrap();
        for ((&x1, &x2), &y) in a.iter().zip(&b).zip(&got) {
            prop_assert_eq!(y, naive_add_one(x1, x2, &params));
        }
    }
}

#[test]
fn add_rounds_a_negative_tie_away_from_zero() {
    // 2^-20 and 2^-20: (x − zp) · 2^20 back to x − zp; the output
    // multiplier a quarter, (1/2) · 2^-1: −6 · 0.25 = −1.5 → −2, the high
    // multiply exact (−3) and the rounding shift's tie away from zero
    // (one rounding gives −1)
    let params = AddParams {
        input1_zero_point: 0,
        input1_multiplier: QuantizedMultiplier::new(1 << 30, -19).unwrap(),
        input2_zero_point: 0,
        input2_multiplier: QuantizedMultiplier::new(1 << 30, -19).unwrap(),
        output_zero_point: 0,
        output_multiplier: QuantizedMultiplier::new(1 << 30, -1).unwrap(),
        output_min: -128,
        output_max: 127,
    };
    let mut out = [0i8; 3];
    add_int8(&[-6i8, 6, -2], &[3], &[0i8, 0, -4], &[3], &params, &mut out).unwrap();
    assert_eq!(out, [-2, 2, -2]);
}

/// Dim `k` of `shape` right-aligned in rank `r` (1 where it has none).
fn broadcast_dim(shape: &[usize], r: usize, k: usize) -> usize {
    let skip = r - shape.len();
    if k < skip {
        1
    } else {
        shape[k - skip]
    }
}

#[test]
fn add_refuses_bad_shapes_lengths_and_params_untouched() {
    let params = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127).unwrap();
    let mut out = [9i8; 6];
    let check = |r: Result<(), TfliteError>, out: &[i8]| {
        assert!(r.is_err());
        assert_eq!(out, [9; 6]);
        r.unwrap_err()
    };
    let a = [1i8; 6];
    // shapes that do not broadcast
    let e = check(
        add_int8(&a[..], &[2, 3], &a[..2], &[2], &params, &mut out),
        &out,
    );
    assert_eq!(
        e,
        TfliteError::Broadcast {
            axis: 1,
            first: 3,
            second: 2
        }
    );
    assert!(e.to_string().contains("axis 1"));
    // an input of the wrong length
    let e = check(
        add_int8(&a[..5], &[2, 3], &a[..3], &[3], &params, &mut out),
        &out,
    );
    assert_eq!(
        e,
        TfliteError::Length {
            what: "first input",
            expected: 6,
            actual: 5
        }
    );
    let e = check(
        add_int8(&a[..], &[2, 3], &a[..2], &[3], &params, &mut out),
        &out,
    );
    assert!(matches!(
        e,
        TfliteError::Length {
            what: "second input",
            ..
        }
    ));
    // an output of the wrong length
    let mut short = [9i8; 5];
    let e = add_int8(&a[..], &[2, 3], &a[..3], &[3], &params, &mut short).unwrap_err();
    assert!(matches!(
        e,
        TfliteError::Length {
            what: "output",
            expected: 6,
            actual: 5
        }
    ));
    assert_eq!(short, [9; 5]);
    // a rank above 6
    let e = check(
        add_int8(&a[..1], &[1; 7], &a[..1], &[1], &params, &mut out),
        &out,
    );
    assert!(matches!(e, TfliteError::KernelParam { .. }));
    // a count that overflows
    let e = check(
        add_int8(&a[..], &[usize::MAX, 2], &a[..1], &[1], &params, &mut out),
        &out,
    );
    assert!(matches!(
        e,
        TfliteError::Length {
            expected: usize::MAX,
            ..
        }
    ));
    // parameters made by hand that add_params would refuse
    for bad in [
        AddParams {
            input1_zero_point: 128,
            ..params
        },
        AddParams {
            output_zero_point: -129,
            ..params
        },
        AddParams {
            output_min: 5,
            output_max: 4,
            ..params
        },
        AddParams {
            output_max: 200,
            ..params
        },
        AddParams {
            output_multiplier: QuantizedMultiplier::new(1 << 30, 1).unwrap(),
            ..params
        },
    ] {
        check(add_int8(&a[..], &[6], &a[..], &[6], &bad, &mut out), &out);
    }
    // and add_params refuses
    for bad in [f32::NAN, 0.0, -1.0, f32::INFINITY] {
        assert!(matches!(
            add_params(bad, 0, 0.5, 0, 1.0, 0, -128, 127),
            Err(TfliteError::KernelScale { .. })
        ));
        assert!(matches!(
            add_params(0.5, 0, 0.5, 0, bad, 0, -128, 127),
            Err(TfliteError::KernelScale { .. })
        ));
    }
    // an output scale too small: the output multiplier reaches 1
    assert!(matches!(
        add_params(1.0, 0, 1.0, 0, 2.0 / (1 << 20) as f32, 0, -128, 127),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(add_params(1.0, 0, 1.0, 0, 2.01 / (1 << 20) as f32, 0, -128, 127).is_ok());
    assert!(add_params(0.5, 0, 0.5, 0, 1.0, 0, 10, 9).is_err());
    // an empty output broadcast (a dim of 0 against 1) writes nothing
    let mut none: [i8; 0] = [];
    add_int8(&a[..0], &[0, 3], &a[..3], &[1, 3], &params, &mut none).unwrap();
}

// ---------------------------------------------------------------- PAD ---

fn naive_pad(x: &[i32], shape: &[usize], paddings: &[(usize, usize)], value: i32) -> Vec<i32> {
    let out_shape: Vec<usize> = shape
        .iter()
        .zip(paddings)
        .map(|(d, (b, a))| d + b + a)
        .collect();
    indices(&out_shape)
        .iter()
        .map(|index| {
            let mut offset = 0;
            for ((&i, &d), &(before, _)) in index.iter().zip(shape).zip(paddings) {
                if i < before || i >= before + d {
                    return value;
                }
                offset = offset * d + (i - before);
            }
            x[offset]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn pad_is_its_naive_definition(
        shape in prop::collection::vec(0usize..4, 0..=5),
        paddings in prop::collection::vec((0usize..3, 0usize..3), 5),
        value in any::<i32>(),
    ) {
        let paddings = &paddings[..shape.len()];
        let count: usize = shape.iter().product();
        let x: Vec<i32> = (0..count as i32).map(|i| i * 7 + 1).collect();
        let want = naive_pad(&x, &shape, paddings, value);
        let (dims, rank) = pad_output_shape(&shape, paddings).unwrap();
        prop_assert_eq!(rank, shape.len());
        prop_assert_eq!(dims[..rank].iter().product::<usize>(), want.len());
        let mut got = vec![0i32; want.len()];
        pad(&x, &shape, paddings, value, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn pad_refuses_bad_shapes_and_lengths_untouched() {
    let x = [1i8; 6];
    let mut out = [9i8; 20];
    // one pair of paddings per dim
    let e = pad(&x, &[2, 3], &[(1, 1)], 0, &mut out).unwrap_err();
    assert!(matches!(
        e,
        TfliteError::Length {
            what: "paddings",
            expected: 2,
            actual: 1
        }
    ));
    // an input of the wrong length
    let e = pad(&x[..5], &[2, 3], &[(1, 1), (1, 1)], 0, &mut out).unwrap_err();
    assert!(matches!(e, TfliteError::Length { what: "input", .. }));
    // an output of the wrong length ([4, 5] is 20)
    let e = pad(&x, &[2, 3], &[(1, 1), (1, 1)], 0, &mut out[..19]).unwrap_err();
    assert!(matches!(
        e,
        TfliteError::Length {
            what: "output",
            expected: 20,
            actual: 19
        }
    ));
    // more than 5 dims
    let e = pad(&x[..1], &[1; 6], &[(0, 0); 6], 0, &mut out[..1]).unwrap_err();
    assert!(matches!(e, TfliteError::KernelParam { .. }));
    // a dim that overflows
    let e = pad(&x, &[6], &[(usize::MAX, 1)], 0, &mut out).unwrap_err();
    assert!(matches!(e, TfliteError::KernelParam { .. }));
    // a count that overflows
    let e = pad(
        &x[..0],
        &[0, usize::MAX, 2],
        &[(1, 0), (0, 0), (0, 0)],
        0,
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(
        e,
        TfliteError::Length {
            expected: usize::MAX,
            ..
        }
    ));
    assert_eq!(out, [9; 20]);
    // and it works with the right output
    pad(&x, &[2, 3], &[(1, 1), (1, 1)], 0, &mut out).unwrap();
    assert_eq!(out.iter().filter(|&&v| v == 1).count(), 6);
    // an empty input padded: all the value
    let mut four = [9i8; 4];
    pad(&x[..0], &[0, 2], &[(1, 1), (0, 0)], 7, &mut four).unwrap();
    assert_eq!(four, [7; 4]);
}

// ----------------------------------------------------------- LOGISTIC ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn logistic_is_the_sigmoid_within_one_step_and_monotonic(
        // up to a scale of about 1.4: coarser, TFLite's radius (a whole
        // number of input steps) saturates inputs whose σ is more than a
        // step from 0 or 1 (the parameters are still checked below)
        e in -12.0f32..0.5,
        zero_point in any::<i8>(),
    ) {
        let scale = 2f32.powf(e);
        let zero_point = i32::from(zero_point);
        let params = logistic_params(scale, zero_point, 1.0 / 256.0, -128).unwrap();
        let x: Vec<i8> = (-128..=127).collect();
        let mut y = vec![0i8; 256];
        logistic_int8(&x, &params, &mut y).unwrap();
        for (&q, &out) in x.iter().zip(&y) {
            let real = f64::from(scale) * f64::from(i32::from(q) - zero_point);
            let sigmoid = 1.0 / (1.0 + (-real).exp());
            let got = f64::from(i32::from(out) + 128) / 256.0;
            prop_assert!((got - sigmoid).abs() <= 1.0 / 256.0, "σ({}) = {} not {}", real, got, sigmoid);
        }
        prop_assert!(y.windows(2).all(|w| w[0] <= w[1]));
        // the params are TFLite Micro's: frexp of scale · 2^27, the radius
        let real = f64::from(scale) * f64::from(1 << 27);
        let exponent = real.log2().floor() as i32 + 1;
        prop_assert_eq!(params.input_multiplier.shift(), exponent);
        prop_assert_eq!(
            f64::from(params.input_multiplier.multiplier()),
            real / 2f64.powi(exponent) * 2f64.powi(31)
        );
        prop_assert_eq!(
            f64::from(params.input_range_radius),
            (15.0 * 2f64.powi(27) / 2f64.powi(exponent)).floor()
        );
    }
}

#[test]
fn logistic_refuses_bad_quantization_and_lengths_untouched() {
    // the output must be 1/256 from −128
    assert!(matches!(
        logistic_params(0.1, 0, 1.0 / 256.0, -127),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(matches!(
        logistic_params(0.1, 0, 1.0 / 128.0, -128),
        Err(TfliteError::KernelScale { .. })
    ));
    for bad in [0.0, -0.1, f32::NAN, f32::INFINITY, 8.0, 1e-9] {
        assert!(
            matches!(
                logistic_params(bad, 0, 1.0 / 256.0, -128),
                Err(TfliteError::KernelScale { .. })
            ),
            "{bad}"
        );
    }
    assert!(logistic_params(7.99, 0, 1.0 / 256.0, -128).is_ok());
    assert!(logistic_params(2f32.powi(-28), 0, 1.0 / 256.0, -128).is_ok());
    assert!(logistic_params(0.1, 128, 1.0 / 256.0, -128).is_err());
    let params = logistic_params(0.1, 0, 1.0 / 256.0, -128).unwrap();
    let mut out = [9i8; 3];
    assert!(matches!(
        logistic_int8(&[1, 2], &params, &mut out),
        Err(TfliteError::Length { .. })
    ));
    for bad in [
        LogisticParams {
            input_zero_point: -129,
            ..params
        },
        LogisticParams {
            input_range_radius: -1,
            ..params
        },
        LogisticParams {
            input_multiplier: QuantizedMultiplier::new(1 << 30, -1).unwrap(),
            ..params
        },
    ] {
        assert!(logistic_int8(&[1, 2, 3], &bad, &mut out).is_err());
    }
    assert_eq!(out, [9; 3]);
}

// ------------------------------------------------ QUANTIZE, DEQUANTIZE ---

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn quantize_is_round_half_away_of_the_f32_quotient(
        x in prop_oneof![
            -300.0f32..300.0,
            any::<f32>(),
            (-1000i32..1000).prop_map(|k| k as f32 * 0.5),
        ],
        scale in prop_oneof![(-12.0f32..4.0).prop_map(|e| 2f32.powf(e)), Just(0.5f32), Just(0.1f32)],
        zero_point in prop_oneof![any::<i8>().prop_map(i32::from), any::<i32>()],
    ) {
        // std's f32::round is C's roundf: half away from zero
        let q = x / scale;
        let want = if q.is_nan() {
            zero_point
        } else {
            (q.round() as i32).saturating_add(zero_point)
        }
        .clamp(-128, 127) as i8;
        prop_assert_eq!(quantize_value(x, scale, zero_point), want);
        let mut out = [0i8; 1];
        quantize_int8(&[x], scale, zero_point, &mut out).unwrap();
        prop_assert_eq!(out[0], want);
    }

    #[test]
    fn dequantize_is_tflite_s_double_product(
        q in any::<i8>(),
        scale in prop_oneof![any::<f32>(), (-30.0f32..30.0).prop_map(|e| 2f32.powf(e) * 1.2345)],
        zero_point in prop_oneof![any::<i8>().prop_map(i32::from), any::<i32>()],
    ) {
        // TFLite Micro: static_cast<float>(double(scale) · (q − zero_point))
        let want = (f64::from(scale) * f64::from(i32::from(q).wrapping_sub(zero_point))) as f32;
        let got = dequantize_value(q, scale, zero_point);
        prop_assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "{} vs {}", got, want);
    }
}

#[test]
fn quantize_rounds_ties_away_from_zero_and_refuses_lengths() {
    assert_eq!(quantize_value(2.5, 1.0, 0), 3);
    assert_eq!(quantize_value(-2.5, 1.0, 0), -3);
    assert_eq!(quantize_value(0.49999997, 1.0, 0), 0);
    assert_eq!(quantize_value(-0.5, 1.0, 0), -1);
    assert_eq!(quantize_value(1e30, 1.0, -128), 127);
    assert_eq!(quantize_value(-1e30, 1.0, 127), -128);
    assert_eq!(quantize_value(f32::INFINITY, 1.0, 0), 127);
    // TFLite Micro divides by the scale: here x / scale is the tie −119.5
    // (−120), and x · (1 / scale) is just above it (−119)
    let (x, scale) = (-3.7036016f32, 0.030992482f32);
    assert_eq!(x / scale, -119.5);
    assert_ne!(x * (1.0 / scale), -119.5);
    assert_eq!(quantize_value(x, scale, -2), -122);
    let mut out = [9i8; 2];
    assert!(matches!(
        quantize_int8(&[1.0], 1.0, 0, &mut out),
        Err(TfliteError::Length {
            what: "output",
            expected: 1,
            actual: 2
        })
    ));
    assert_eq!(out, [9; 2]);
    let mut f = [9f32; 2];
    assert!(matches!(
        dequantize_int8(&[1, 2, 3], 1.0, 0, &mut f),
        Err(TfliteError::Length {
            what: "output",
            expected: 3,
            actual: 2
        })
    ));
    assert_eq!(f, [9.0; 2]);
}
