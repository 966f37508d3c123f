//! The binary element-wise kernels against TFLite Micro, bit for bit:
//! `MUL` (two activations; a constant broadcast per channel), `SUB`,
//! `DIV`, `MAXIMUM`, `MINIMUM`, `SQUARED_DIFFERENCE` and `PRELU` (a
//! per-channel slope constant), on every element of every recorded case of
//! their one-op models in `tests/ops/` (each case records every tensor
//! TFLite Micro computed). Each op's parameters come from the model's
//! tensors and options, read with the crate's reader, through the op's
//! `_params` function. Then property tests against naive references
//! written plainly here, and the checks that refuse bad lengths, shapes
//! and parameters before anything is written.

// TfliteError, the crate's error, as it is, in the kernels' closures
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    activation_range_int8, div_int8, div_params, maximum, minimum, mul_int8, mul_params,
    multiply_by_quantized_multiplier, prelu_int8, prelu_params, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul, squared_difference_int8, squared_difference_params,
    sub_int8, sub_params, Activation, BuiltinOp, DivParams, Model, MulParams, Options, PreluParams,
    QuantizedMultiplier, Rounding, SquaredDifferenceParams, SubParams, TfliteError,
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

fn int8s(data: &Value) -> Vec<i8> {
    data.as_array()
        .expect("array")
        .iter()
        .map(|v| i8::try_from(v.as_i64().expect("integer")).expect("int8"))
        .collect()
}

/// A tensor of operator `op` in a case: its recorded data, or the model's
/// constant.
fn tensor_data(model: &Model, case: &Value, tensor: usize) -> Vec<i8> {
    let recorded = &case["tensors"][tensor.to_string()];
    if recorded.is_null() {
        let constant = model.tensor(tensor).unwrap().data_as::<i8>().unwrap();
        assert!(
            !constant.is_empty(),
            "tensor {tensor} is neither recorded nor constant"
        );
        constant.iter().collect()
    } else {
        int8s(&recorded["data"])
    }
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

/// One binary operator of a model: its two inputs' and output's tensor
/// indices, shapes and quantizations.
struct Binary {
    tensors: [usize; 3],
    shapes: [Vec<usize>; 3],
    quant: [(f32, i32); 3],
}

/// The first operator `op` of the model, its operands, and the fused
/// activation of its options (`None` where it has none).
fn binary<'m>(model: &Model<'m>, op: BuiltinOp) -> (Binary, Options<'m>) {
    let operator = model.operators().find(|o| o.op() == op).unwrap();
    let tensors = [
        operator.input(0).unwrap(),
        operator.input(1).unwrap(),
        operator.output(0).unwrap(),
    ];
    let b = Binary {
        tensors,
        shapes: tensors.map(|t| shape(model, t)),
        quant: tensors.map(|t| quant(model, t)),
    };
    (b, operator.options())
}

/// Runs `kernel` on the two inputs of every case and compares its output
/// with the recorded one, element by element; returns how many.
fn check_cases(
    bytes: &[u8],
    json: &str,
    op: BuiltinOp,
    kernel: impl Fn(&Binary, &Options, &[i8], &[i8], &mut [i8]) -> Result<(), TfliteError>,
) -> usize {
    let model = Model::parse(bytes).unwrap();
    let (b, options) = binary(&model, op);
    let mut compared = 0;
    let mut distinct = std::collections::BTreeSet::new();
    for case in cases(json) {
        let x1 = tensor_data(&model, &case, b.tensors[0]);
        let x2 = tensor_data(&model, &case, b.tensors[1]);
        let want = tensor_data(&model, &case, b.tensors[2]);
        let mut got = vec![0x55i8; want.len()];
        kernel(&b, &options, &x1, &x2, &mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{op} case {}: output {i}", case["name"]);
            distinct.insert(*w);
            compared += 1;
        }
    }
    // the cases reach many output values, not a saturated few
    assert!(
        distinct.len() > 20,
        "{op}: {} distinct outputs",
        distinct.len()
    );
    compared
}

fn activation(options: &Options) -> Activation {
    match options {
        Options::Mul(o) => o.fused_activation,
        Options::Sub(o) => o.fused_activation,
        Options::Div(o) => o.fused_activation,
        other => panic!("no activation in {other:?}"),
    }
}

fn run_mul(
    b: &Binary,
    options: &Options,
    x1: &[i8],
    x2: &[i8],
    out: &mut [i8],
) -> Result<(), TfliteError> {
    let [(s1, z1), (s2, z2), (so, zo)] = b.quant;
    let (lo, hi) = activation_range_int8(activation(options), so, zo)?;
    let params = mul_params(s1, z1, s2, z2, so, zo, lo, hi)?;
    mul_int8(x1, &b.shapes[0], x2, &b.shapes[1], &params, out)
}

#[test]
fn mul_of_two_activations_is_tflite_micro_s() {
    let (bytes, json) = op_files!("mul_two");
    assert_eq!(check_cases(bytes, json, BuiltinOp::MUL, run_mul), 8 * 90);
}

#[test]
fn mul_by_a_constant_per_channel_is_tflite_micro_s() {
    // [1, 7, 4, 5] times an int8 constant [1, 1, 1, 5] (zero point 68)
    let (bytes, json) = op_files!("mul_broadcast_const");
    let model = Model::parse(bytes).unwrap();
    let (b, _) = binary(&model, BuiltinOp::MUL);
    assert_eq!(b.shapes[1], [1, 1, 1, 5]);
    assert_eq!(b.quant[1].1, 68);
    assert_eq!(check_cases(bytes, json, BuiltinOp::MUL, run_mul), 8 * 140);
}

#[test]
fn sub_of_two_activations_is_tflite_micro_s() {
    let (bytes, json) = op_files!("sub_two");
    let compared = check_cases(bytes, json, BuiltinOp::SUB, |b, options, x1, x2, out| {
        let [(s1, z1), (s2, z2), (so, zo)] = b.quant;
        let (lo, hi) = activation_range_int8(activation(options), so, zo)?;
        let params = sub_params(s1, z1, s2, z2, so, zo, lo, hi)?;
        sub_int8(x1, &b.shapes[0], x2, &b.shapes[1], &params, out)
    });
    assert_eq!(compared, 8 * 90);
}

#[test]
fn div_is_tflite_micro_s() {
    // a / (0.5 + sigmoid(b)): the divisor is the ADD's recorded output
    let (bytes, json) = op_files!("div");
    let compared = check_cases(bytes, json, BuiltinOp::DIV, |b, options, x1, x2, out| {
        let [(s1, z1), (s2, z2), (so, zo)] = b.quant;
        let (lo, hi) = activation_range_int8(activation(options), so, zo)?;
        let params = div_params(s1, z1, s2, z2, so, zo, lo, hi)?;
        div_int8(x1, &b.shapes[0], x2, &b.shapes[1], &params, out)
    });
    assert_eq!(compared, 8 * 90);
}

#[test]
fn maximum_and_minimum_are_tflite_micro_s() {
    for (name, op, bytes, json) in [
        {
            let (bytes, json) = op_files!("maximum_two");
            ("maximum_two", BuiltinOp::MAXIMUM, bytes, json)
        },
        {
            let (bytes, json) = op_files!("minimum_two");
            ("minimum_two", BuiltinOp::MINIMUM, bytes, json)
        },
    ] {
        let compared = check_cases(bytes, json, op, |b, _, x1, x2, out| {
            // one scale and zero point for the three: raw values compare
            assert_eq!(b.quant[0], b.quant[2], "{name}");
            assert_eq!(b.quant[1], b.quant[2], "{name}");
            if op == BuiltinOp::MAXIMUM {
                maximum(x1, &b.shapes[0], x2, &b.shapes[1], out)
            } else {
                minimum(x1, &b.shapes[0], x2, &b.shapes[1], out)
            }
        });
        assert_eq!(compared, 8 * 90, "{name}");
    }
}

#[test]
fn squared_difference_is_tflite_micro_s() {
    let (bytes, json) = op_files!("squared_difference");
    let compared = check_cases(
        bytes,
        json,
        BuiltinOp::SQUARED_DIFFERENCE,
        |b, _, x1, x2, out| {
            let [(s1, z1), (s2, z2), (so, zo)] = b.quant;
            assert_eq!(zo, -128);
            let params = squared_difference_params(s1, z1, s2, z2, so, zo)?;
            squared_difference_int8(x1, &b.shapes[0], x2, &b.shapes[1], &params, out)
        },
    );
    assert_eq!(compared, 8 * 90);
}

#[test]
fn prelu_with_a_slope_per_channel_is_tflite_micro_s() {
    // [1, 5, 6, 4] against an int8 slope constant [1, 1, 4]
    let (bytes, json) = op_files!("prelu_per_channel");
    let compared = check_cases(bytes, json, BuiltinOp::PRELU, |b, _, x, alpha, out| {
        assert_eq!(b.shapes[1], [1, 1, 4]);
        let [(si, zi), (sa, za), (so, zo)] = b.quant;
        let params = prelu_params(si, zi, sa, za, so, zo)?;
        prelu_int8(x, &b.shapes[0], alpha, &b.shapes[1], &params, out)
    });
    assert_eq!(compared, 8 * 120);
}

#[test]
fn the_options_are_decoded() {
    let (bytes, _) = op_files!("mul_two");
    let model = Model::parse(bytes).unwrap();
    let (_, options) = binary(&model, BuiltinOp::MUL);
    assert_eq!(activation(&options), Activation::None);
    let (bytes, _) = op_files!("sub_two");
    let model = Model::parse(bytes).unwrap();
    let (_, options) = binary(&model, BuiltinOp::SUB);
    let Options::Sub(o) = options else { panic!() };
    assert_eq!(o.fused_activation, Activation::None);
}

// ---- naive references, written plainly ----

/// TFLite Micro's `MultiplyByQuantizedMultiplier` (double rounding).
fn mul_q(x: i32, m: QuantizedMultiplier) -> i32 {
    multiply_by_quantized_multiplier(x, m, Rounding::Double)
}

fn clamp8(x: i32, lo: i32, hi: i32) -> i8 {
    x.max(lo).min(hi) as i8
}

fn naive_mul_one(x1: i8, x2: i8, p: &MulParams) -> i8 {
    let product = (i32::from(x1) - p.input1_zero_point) * (i32::from(x2) - p.input2_zero_point);
    clamp8(
        mul_q(product, p.output_multiplier) + p.output_zero_point,
        p.output_min,
        p.output_max,
    )
}

fn naive_sub_one(x1: i8, x2: i8, p: &SubParams) -> i8 {
    let s1 = mul_q(
        (i32::from(x1) - p.input1_zero_point) * (1 << 20),
        p.input1_multiplier,
    );
    let s2 = mul_q(
        (i32::from(x2) - p.input2_zero_point) * (1 << 20),
        p.input2_multiplier,
    );
    clamp8(
        mul_q(s1 - s2, p.output_multiplier) + p.output_zero_point,
        p.output_min,
        p.output_max,
    )
}

/// TFLite's `DivElementwise` for one pair, the reciprocal by floating
/// point: `n / d` scaled by the real output multiplier, rounded. TFLite
/// Micro's fixed point is within one step of it.
fn real_div_one(x1: i8, x2: i8, p: &DivParams) -> f64 {
    let n = f64::from(i32::from(x1) - p.input1_zero_point);
    let d = f64::from(i32::from(x2) - p.input2_zero_point);
    let m =
        f64::from(p.output_multiplier.multiplier()) * 2f64.powi(p.output_multiplier.shift() - 31);
    (n / d * m).round() + f64::from(p.output_zero_point)
}

fn naive_squared_difference_one(x1: i8, x2: i8, p: &SquaredDifferenceParams) -> i8 {
    let s1 = mul_q(
        (i32::from(x1) - p.input1_zero_point) * (1 << 7),
        p.input1_multiplier,
    );
    let s2 = mul_q(
        (i32::from(x2) - p.input2_zero_point) * (1 << 7),
        p.input2_multiplier,
    );
    let d = s1 - s2;
    clamp8(
        mul_q(d * d, p.output_multiplier) + p.output_zero_point,
        -128,
        127,
    )
}

fn naive_prelu_one(x: i8, a: i8, p: &PreluParams) -> i8 {
    let v = i32::from(x) - p.input_zero_point;
    let y = if v >= 0 {
        mul_q(v, p.identity_multiplier)
    } else {
        mul_q(v * (i32::from(a) - p.alpha_zero_point), p.alpha_multiplier)
    };
    clamp8(y + p.output_zero_point, -128, 127)
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

/// `f` of each output element's two inputs, broadcast.
fn naive_broadcast<T: Copy>(
    a: &[T],
    a_shape: &[usize],
    b: &[T],
    b_shape: &[usize],
    out_shape: &[usize],
    f: impl Fn(T, T) -> T,
) -> Vec<T> {
    indices(out_shape)
        .iter()
        .map(|index| {
            f(
                a[broadcast_offset(index, a_shape)],
                b[broadcast_offset(index, b_shape)],
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

/// The broadcast shape of two suffixes: the longer rank, each dim the
/// larger.
fn out_shape_of(a: &[usize], b: &[usize]) -> Vec<usize> {
    let r = a.len().max(b.len());
    let dim = |s: &[usize], k: usize| {
        if k < r - s.len() {
            1
        } else {
            s[k - (r - s.len())]
        }
    };
    (0..r).map(|k| dim(a, k).max(dim(b, k))).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mul_is_its_naive_definition(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        (c1, c2) in (any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (z1, z2, zo) = (i32::from(z1), i32::from(z2), i32::from(zo));
        let (lo, hi) = (i32::from(c1.min(c2)), i32::from(c1.max(c2)));
        let p = mul_params(s1, z1, s2, z2, so, zo, lo, hi).unwrap();
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0xabcd, b_shape.iter().product());
        let mut got = vec![0i8; out_shape.iter().product()];
        mul_int8(&a[..], &a_shape, &b[..], &b_shape, &p, &mut got).unwrap();
        let want = naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| naive_mul_one(x, y, &p));
        prop_assert_eq!(&got, &want);
        // and the product of the reals, within one output step
        let real = f64::from(s1) * f64::from(s2) / f64::from(so);
        for (index, &y) in indices(&out_shape).iter().zip(&got) {
            let x1 = i32::from(a[broadcast_offset(index, &a_shape)]) - z1;
            let x2 = i32::from(b[broadcast_offset(index, &b_shape)]) - z2;
            let ideal = (f64::from(x1 * x2) * real + f64::from(zo)).clamp(f64::from(lo), f64::from(hi));
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }

    #[test]
    fn sub_is_its_naive_definition(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (z1, z2, zo) = (i32::from(z1), i32::from(z2), i32::from(zo));
        let p = sub_params(s1, z1, s2, z2, so, zo, -128, 127).unwrap();
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0x1234, b_shape.iter().product());
        let mut got = vec![0i8; out_shape.iter().product()];
        sub_int8(&a[..], &a_shape, &b[..], &b_shape, &p, &mut got).unwrap();
        let want = naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| naive_sub_one(x, y, &p));
        prop_assert_eq!(&got, &want);
        for (index, &y) in indices(&out_shape).iter().zip(&got) {
            let x1 = f64::from(i32::from(a[broadcast_offset(index, &a_shape)]) - z1);
            let x2 = f64::from(i32::from(b[broadcast_offset(index, &b_shape)]) - z2);
            let real = f64::from(s1) * x1 - f64::from(s2) * x2;
            let ideal = (real / f64::from(so) + f64::from(zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }

    #[test]
    fn div_is_the_quotient_within_one_step(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (z1, z2, zo) = (i32::from(z1), i32::from(z2), i32::from(zo));
        let p = div_params(s1, z1, s2, z2, so, zo, -128, 127).unwrap();
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        // no divisor at its zero point
        let b: Vec<i8> = bytes(seed ^ 0x77, b_shape.iter().product())
            .into_iter()
            .map(|x| if i32::from(x) == z2 { x.wrapping_add(1) } else { x })
            .collect();
        let mut got = vec![0i8; out_shape.iter().product()];
        div_int8(&a[..], &a_shape, &b[..], &b_shape, &p, &mut got).unwrap();
        for (index, &y) in indices(&out_shape).iter().zip(&got) {
            let x1 = a[broadcast_offset(index, &a_shape)];
            let x2 = b[broadcast_offset(index, &b_shape)];
            let ideal = real_div_one(x1, x2, &p).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} / {}: {} vs {}", x1, x2, y, ideal);
        }
    }

    #[test]
    fn maximum_and_minimum_are_their_naive_definitions(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        seed in any::<u64>(),
    ) {
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0x99, b_shape.iter().product());
        let n = out_shape.iter().product();
        let (mut max, mut min) = (vec![0i8; n], vec![0i8; n]);
        maximum(&a[..], &a_shape, &b[..], &b_shape, &mut max).unwrap();
        minimum(&a[..], &a_shape, &b[..], &b_shape, &mut min).unwrap();
        prop_assert_eq!(max, naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| if x > y { x } else { y }));
        prop_assert_eq!(min, naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| if x < y { x } else { y }));
        // any element type: f32
        let af: Vec<f32> = a.iter().map(|&x| f32::from(x) * 0.5).collect();
        let bf: Vec<f32> = b.iter().map(|&x| f32::from(x) * 0.5).collect();
        let mut maxf = vec![0f32; n];
        maximum(&af[..], &a_shape, &bf[..], &b_shape, &mut maxf).unwrap();
        prop_assert_eq!(maxf, naive_broadcast(&af, &a_shape, &bf, &b_shape, &out_shape, |x, y| if x > y { x } else { y }));
    }

    #[test]
    fn squared_difference_is_its_naive_definition(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (s1, s2, so) in (scale(), scale(), scale()),
        (z1, z2, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (z1, z2, zo) = (i32::from(z1), i32::from(z2), i32::from(zo));
        let p = squared_difference_params(s1, z1, s2, z2, so, zo).unwrap();
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0x4242, b_shape.iter().product());
        let mut got = vec![0i8; out_shape.iter().product()];
        squared_difference_int8(&a[..], &a_shape, &b[..], &b_shape, &p, &mut got).unwrap();
        let want = naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| naive_squared_difference_one(x, y, &p));
        prop_assert_eq!(&got, &want);
    }

    #[test]
    fn prelu_is_its_naive_definition(
        (_out, a_shape, b_shape) in broadcast_shapes(),
        (si, sa, so) in (scale(), scale(), scale()),
        (zi, za, zo) in (any::<i8>(), any::<i8>(), any::<i8>()),
        seed in any::<u64>(),
    ) {
        let (zi, za, zo) = (i32::from(zi), i32::from(za), i32::from(zo));
        let p = prelu_params(si, zi, sa, za, so, zo).unwrap();
        let out_shape = out_shape_of(&a_shape, &b_shape);
        let a = bytes(seed, a_shape.iter().product());
        let b = bytes(seed ^ 0x5151, b_shape.iter().product());
        let mut got = vec![0i8; out_shape.iter().product()];
        prelu_int8(&a[..], &a_shape, &b[..], &b_shape, &p, &mut got).unwrap();
        let want = naive_broadcast(&a, &a_shape, &b, &b_shape, &out_shape, |x, y| naive_prelu_one(x, y, &p));
        prop_assert_eq!(&got, &want);
    }
}

#[test]
fn the_div_reciprocal_is_gemmlowp_s() {
    // n / 1 with a multiplier of 1/2: the reciprocal of 1 is the
    // saturated Q0.31 one, just below 1, so the quotient's ties round as
    // gemmlowp's steps give (3 / 2 up to 2; −100 / 2 exactly −50)
    let p = div_params(0.5, 0, 1.0, 0, 1.0, 0, -128, 127).unwrap();
    let mut out = [0i8; 3];
    div_int8(&[3i8, 100, -100], &[3], &[1i8], &[1], &p, &mut out).unwrap();
    assert_eq!(out, [2, 50, -50]);
    // by hand, TFLite's steps for 3 / 1: headroom 29, q = high_mul(3 · 2^29, r)
    let r = i32::MAX; // 1/1 in Q0.31, saturated
    let q = saturating_rounding_doubling_high_mul(3 << 29, r);
    let y = rounding_divide_by_pot(saturating_rounding_doubling_high_mul(q, 1 << 30), 29);
    assert_eq!(y, 2);
}

// ---- refusals: nothing written ----

#[test]
fn bad_lengths_and_shapes_leave_the_output_untouched() {
    let mul = mul_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    let sub = sub_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    let div = div_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    let sq = squared_difference_params(0.5, 0, 0.5, 0, 0.5, 0).unwrap();
    let prelu = prelu_params(0.5, 0, 0.5, 0, 0.5, 0).unwrap();
    type Run<'a> =
        Box<dyn Fn(&[i8], &[usize], &[i8], &[usize], &mut [i8]) -> Result<(), TfliteError> + 'a>;
    let kernels: Vec<(&str, Run)> = vec![
        (
            "mul",
            Box::new(|a, sa, b, sb, o| mul_int8(a, sa, b, sb, &mul, o)),
        ),
        (
            "sub",
            Box::new(|a, sa, b, sb, o| sub_int8(a, sa, b, sb, &sub, o)),
        ),
        (
            "div",
            Box::new(|a, sa, b, sb, o| div_int8(a, sa, b, sb, &div, o)),
        ),
        ("max", Box::new(maximum::<i8, [i8], [i8]>)),
        ("min", Box::new(minimum::<i8, [i8], [i8]>)),
        (
            "sqdiff",
            Box::new(|a, sa, b, sb, o| squared_difference_int8(a, sa, b, sb, &sq, o)),
        ),
        (
            "prelu",
            Box::new(|a, sa, b, sb, o| prelu_int8(a, sa, b, sb, &prelu, o)),
        ),
    ];
    let a = [1i8, 2, 3, 4, 5, 6];
    let b = [1i8, 2, 3];
    for (name, run) in &kernels {
        let mut out = [0x55i8; 6];
        // the output too short, an input shorter than its shape, shapes
        // that do not broadcast, a rank above 6
        assert!(
            matches!(
                run(&a, &[2, 3], &b, &[3], &mut out[..5]),
                Err(TfliteError::Length { .. })
            ),
            "{name}"
        );
        assert!(
            matches!(
                run(&a[..5], &[2, 3], &b, &[3], &mut out),
                Err(TfliteError::Length { .. })
            ),
            "{name}"
        );
        assert!(
            matches!(
                run(&a, &[3, 2], &b, &[3], &mut out),
                Err(TfliteError::Broadcast { .. })
            ),
            "{name}"
        );
        assert!(
            run(&a, &[1, 1, 1, 1, 1, 2, 3], &b, &[3], &mut out).is_err(),
            "{name}"
        );
        assert_eq!(out, [0x55; 6], "{name}");
        run(&a, &[2, 3], &b, &[3], &mut out).unwrap();
    }
}

#[test]
fn bad_params_are_refused_before_writing() {
    let mut out = [0x55i8; 3];
    let x = [1i8, 2, 3];
    let mut mul = mul_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    mul.output_min = 10;
    mul.output_max = 5;
    assert!(mul_int8(&x[..], &[3], &x[..], &[3], &mul, &mut out).is_err());
    let mut sub = sub_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    sub.input1_multiplier = QuantizedMultiplier::new(1 << 30, 1).unwrap();
    assert!(sub_int8(&x[..], &[3], &x[..], &[3], &sub, &mut out).is_err());
    let mut sq = squared_difference_params(0.5, 0, 0.5, 0, 0.5, 0).unwrap();
    sq.input2_zero_point = 200;
    assert!(squared_difference_int8(&x[..], &[3], &x[..], &[3], &sq, &mut out).is_err());
    let mut prelu = prelu_params(0.5, 0, 0.5, 0, 0.5, 0).unwrap();
    prelu.output_zero_point = -129;
    assert!(prelu_int8(&x[..], &[3], &x[..], &[3], &prelu, &mut out).is_err());
    // a divisor at its zero point, anywhere in the divisor
    let div = div_params(0.5, 0, 0.5, 3, 0.5, 0, -128, 127).unwrap();
    assert!(matches!(
        div_int8(&x[..], &[3], &[1i8, 2, 3][..], &[3], &div, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    let mut bad = div;
    bad.output_multiplier = QuantizedMultiplier::new(1 << 30, 23).unwrap();
    assert!(div_int8(&x[..], &[3], &x[..], &[3], &bad, &mut out).is_err());
    assert_eq!(out, [0x55; 3]);
    // params: scales and zero points
    assert!(matches!(
        mul_params(f32::INFINITY, 0, 1.0, 0, 1.0, 0, -128, 127),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        sub_params(1.0, 0, 1.0, 128, 1.0, 0, -128, 127),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(matches!(
        div_params(1.0, 0, -1.0, 0, 1.0, 0, -128, 127),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        squared_difference_params(1.0, 0, 1.0, 0, 0.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        prelu_params(1.0, 0, f32::NAN, 0, 1.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
}
