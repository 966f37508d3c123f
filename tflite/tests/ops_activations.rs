//! The one-input element-wise kernels against TFLite Micro, bit for bit:
//! `RELU`, `RELU6` (TFLite Micro's clamp without rescaling), `LEAKY_RELU`,
//! `HARD_SWISH`, `TANH`, `RSQRT` and the int8 → int8 `QUANTIZE`
//! (requantization), on every element of every recorded case of their
//! one-op models in `tests/ops/` (`requantize` holds TANH then QUANTIZE:
//! both are checked on its recorded tensors). Each op's parameters come
//! from the model's tensors and options, read with the crate's reader,
//! through the op's `_params` function. Then property tests against naive
//! references written plainly here, and the checks that refuse bad lengths
//! and parameters before anything is written.

// TfliteError, the crate's error, as it is, in the kernels' closures
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    abs_int8, abs_params, hard_swish_int8, hard_swish_params, leaky_relu_int8, leaky_relu_params,
    multiply_by_quantized_multiplier, relu6_int8, relu6_params, relu_int8, relu_params,
    requantize_int8, requantize_params, rsqrt_int8, rsqrt_params, tanh_int8, tanh_params,
    BuiltinOp, HardSwishParams, LeakyReluParams, Model, Options, QuantizedMultiplier,
    RequantizeParams, Rounding, TfliteError,
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

/// A recorded int8 tensor of a case, by its index in the model.
fn recorded(case: &Value, tensor: usize) -> Vec<i8> {
    let t = &case["tensors"][tensor.to_string()];
    assert!(!t.is_null(), "case {} has no tensor {tensor}", case["name"]);
    t["data"]
        .as_array()
        .expect("array")
        .iter()
        .map(|v| i8::try_from(v.as_i64().expect("integer")).expect("int8"))
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

/// The first operator `op` of the model: its input's and output's tensor
/// indices and quantizations, and its options.
struct Unary<'m> {
    tensors: [usize; 2],
    input: (f32, i32),
    output: (f32, i32),
    options: Options<'m>,
}

fn unary<'m>(model: &Model<'m>, op: BuiltinOp) -> Unary<'m> {
    let operator = model.operators().find(|o| o.op() == op).unwrap();
    let tensors = [operator.input(0).unwrap(), operator.output(0).unwrap()];
    Unary {
        tensors,
        input: quant(model, tensors[0]),
        output: quant(model, tensors[1]),
        options: operator.options(),
    }
}

/// Runs `kernel` on operator `op`'s recorded input of every case and
/// compares its output with the recorded one, element by element; returns
/// how many, and the distinct outputs seen.
fn check_cases(
    bytes: &[u8],
    json: &str,
    op: BuiltinOp,
    kernel: impl Fn(&Unary, &[i8], &mut [i8]) -> Result<(), TfliteError>,
) -> (usize, usize) {
    let model = Model::parse(bytes).unwrap();
    let u = unary(&model, op);
    let mut compared = 0;
    let mut distinct = std::collections::BTreeSet::new();
    for case in cases(json) {
        let x = recorded(&case, u.tensors[0]);
        let want = recorded(&case, u.tensors[1]);
        let mut got = vec![0x55i8; want.len()];
        kernel(&u, &x, &mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g, w,
                "{op} case {}: output {i} (input {})",
                case["name"], x[i]
            );
            distinct.insert(*w);
            compared += 1;
        }
    }
    (compared, distinct.len())
}

#[test]
fn relu_is_tflite_micro_s() {
    let (bytes, json) = op_files!("relu");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::RELU, |u, x, out| {
        // the output's quantization differs from the input's: RELU rescales
        assert_ne!(u.input, u.output);
        let params = relu_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        relu_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

#[test]
fn relu6_is_tflite_micro_s_clamp_without_rescaling() {
    // input scale 0.119, zero point 5; output 6/255, −128: TFLite Micro
    // writes clamp(q, 5, 55) whatever the output's quantization says
    let (bytes, json) = op_files!("relu6");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::RELU6, |u, x, out| {
        assert_eq!(u.input.1, 5);
        assert_eq!(u.output.1, -128);
        let params = relu6_params(u.input.0, u.input.1)?;
        assert_eq!((params.lower, params.upper), (5, 55));
        relu6_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

#[test]
fn leaky_relu_is_tflite_micro_s() {
    let (bytes, json) = op_files!("leaky_relu");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::LEAKY_RELU, |u, x, out| {
        let Options::LeakyRelu(o) = u.options else {
            panic!("{:?}", u.options)
        };
        assert_eq!(o.alpha, 0.2);
        assert_ne!(u.input.0, u.output.0);
        let params = leaky_relu_params(u.input.0, u.input.1, u.output.0, u.output.1, o.alpha)?;
        leaky_relu_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

#[test]
fn hard_swish_is_tflite_micro_s() {
    let (bytes, json) = op_files!("hard_swish");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::HARD_SWISH, |u, x, out| {
        let params = hard_swish_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        hard_swish_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 35);
    assert!(distinct > 20);
}

#[test]
fn tanh_is_tflite_micro_s() {
    let (bytes, json) = op_files!("tanh");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::TANH, |u, x, out| {
        assert_eq!(u.output, (1.0 / 128.0, 0));
        let params = tanh_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        tanh_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 35);
    assert!(distinct > 20);
}

#[test]
fn rsqrt_is_tflite_micro_s() {
    // every input at or above the zero point −128; q = −128 (0.0) gives 127
    let (bytes, json) = op_files!("rsqrt");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::RSQRT, |u, x, out| {
        assert_eq!(u.input.1, -128);
        let params = rsqrt_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        rsqrt_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

#[test]
fn abs_is_tflite_micro_s() {
    // its own input and output scales: a requantization of every value
    let (bytes, json) = op_files!("abs");
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::ABS, |u, x, out| {
        assert_ne!(u.input.0, u.output.0);
        let params = abs_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        assert!(params.output_multiplier.is_some());
        abs_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

#[test]
fn tanh_then_requantize_are_tflite_micro_s() {
    // TANH (its fixed 1/128 output), then QUANTIZE int8 → int8 to the
    // input's scale and zero point, before a CONCATENATION
    let (bytes, json) = op_files!("requantize");
    let (compared, _) = check_cases(bytes, json, BuiltinOp::TANH, |u, x, out| {
        let params = tanh_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        tanh_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    let (compared, distinct) = check_cases(bytes, json, BuiltinOp::QUANTIZE, |u, x, out| {
        assert_eq!(u.input, (1.0 / 128.0, 0));
        assert_ne!(u.output, u.input);
        let params = requantize_params(u.input.0, u.input.1, u.output.0, u.output.1)?;
        requantize_int8(x, &params, out)
    });
    assert_eq!(compared, 8 * 90);
    assert!(distinct > 20);
}

// ---- naive references, written plainly ----

/// TFLite Micro's `MultiplyByQuantizedMultiplier` (double rounding).
fn mul_q(x: i32, m: QuantizedMultiplier) -> i32 {
    multiply_by_quantized_multiplier(x, m, Rounding::Double)
}

fn naive_leaky_relu_one(x: i8, p: &LeakyReluParams) -> i8 {
    let v = i32::from(x) - p.input_zero_point;
    let y = if v >= 0 {
        mul_q(v, p.identity_multiplier)
    } else if p.alpha_negative {
        -mul_q(v, p.alpha_multiplier)
    } else {
        mul_q(v, p.alpha_multiplier)
    };
    (y + p.output_zero_point).clamp(-128, 127) as i8
}

fn naive_requantize_one(x: i8, p: &RequantizeParams) -> i8 {
    (mul_q(i32::from(x) - p.input_zero_point, p.multiplier) + p.output_zero_point).clamp(-128, 127)
        as i8
}

/// The real hard swish of an int8 input, in output steps.
fn real_hard_swish(x: i8, input: (f32, i32), output: (f32, i32)) -> f64 {
    let r = f64::from(input.0) * f64::from(i32::from(x) - input.1);
    let y = r * (r + 3.0).clamp(0.0, 6.0) / 6.0;
    y / f64::from(output.0) + f64::from(output.1)
}

fn scale() -> impl Strategy<Value = f32> {
    (-8.0f32..1.0).prop_map(|e| 2f32.powf(e))
}

fn all_int8() -> Vec<i8> {
    (-128..=127).collect()
}

/// ABS written plainly: `|x − zp_in|` in reals, times the scales' ratio in
/// `f64`, rounded half away from zero, plus the output's zero point.
fn naive_abs(x: i8, (si, zi): (f32, i32), (so, zo): (f32, i32)) -> f64 {
    let v = (f64::from(x) - f64::from(zi)).abs();
    if si == so {
        v + f64::from(zo)
    } else {
        v * f64::from(si) / f64::from(so) + f64::from(zo)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn abs_is_the_requantized_absolute_value(
        x in proptest::collection::vec(any::<i8>(), 1..64),
        si in 0.001f32..1.0,
        so in 0.001f32..1.0,
        zi in -128i32..=127,
        zo in -128i32..=127,
        same in any::<bool>(),
    ) {
        let so = if same { si } else { so };
        let p = abs_params(si, zi, so, zo).unwrap();
        let mut got = vec![0i8; x.len()];
        abs_int8(&x, &p, &mut got).unwrap();
        for (g, &v) in got.iter().zip(&x) {
            // the fixed-point multiply is within one step of the real one
            let want = naive_abs(v, (si, zi), (so, zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(*g) - want).abs() <= 1.0, "ABS({v}) = {g}, want about {want}");
            if same {
                prop_assert_eq!(f64::from(*g), want.round());
            }
        }
    }

    #[test]
    fn relu_is_the_rescaled_max_with_zero(
        (si, so) in (scale(), scale()),
        (zi, zo) in (any::<i8>(), any::<i8>()),
    ) {
        let (zi, zo) = (i32::from(zi), i32::from(zo));
        let p = relu_params(si, zi, so, zo).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        relu_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            let want = (mul_q(i32::from(x) - zi, p.output_multiplier) + zo).clamp(zo, 127);
            prop_assert_eq!(i32::from(y), want);
            let real = (f64::from(si) * f64::from(i32::from(x) - zi)).max(0.0);
            let ideal = (real / f64::from(so) + f64::from(zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }

    #[test]
    fn relu6_is_a_clamp_to_zero_and_six_in_the_input_scale(
        si in scale(),
        zi in any::<i8>(),
    ) {
        let zi = i32::from(zi);
        let p = relu6_params(si, zi).unwrap();
        // 6.0 in the input's steps, rounded half away from zero in f32
        let six = (((6.0f32 / si).round() as i32).saturating_add(zi)).clamp(-128, 127);
        prop_assert_eq!((p.lower, p.upper), (zi, six));
        let x = all_int8();
        let mut got = [0i8; 256];
        relu6_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            prop_assert_eq!(i32::from(y), i32::from(x).max(zi).min(six));
        }
    }

    #[test]
    fn leaky_relu_is_its_naive_definition(
        (si, so) in (scale(), scale()),
        (zi, zo) in (any::<i8>(), any::<i8>()),
        alpha in -2.0f32..2.0,
    ) {
        let (zi, zo) = (i32::from(zi), i32::from(zo));
        let p = leaky_relu_params(si, zi, so, zo, alpha).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        leaky_relu_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            prop_assert_eq!(y, naive_leaky_relu_one(x, &p));
            let r = f64::from(si) * f64::from(i32::from(x) - zi);
            let real = if r >= 0.0 { r } else { r * f64::from(alpha) };
            let ideal = (real / f64::from(so) + f64::from(zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }

    #[test]
    fn hard_swish_is_close_to_the_real_hard_swish(
        si in (-7.0f32..-2.0).prop_map(|e| 2f32.powf(e)),
        ratio in (-1.0f32..2.0).prop_map(|e| 2f32.powf(e)),
        (zi, zo) in (any::<i8>(), any::<i8>()),
    ) {
        let (zi, zo) = (i32::from(zi), i32::from(zo));
        let so = si * ratio;
        let p: HardSwishParams = hard_swish_params(si, zi, so, zo).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        hard_swish_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            let ideal = real_hard_swish(x, (si, zi), (so, zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.5, "{}: {} vs {}", x, y, ideal);
        }
    }

    #[test]
    fn tanh_is_close_to_tanh(
        si in (-7.0f32..0.0).prop_map(|e| 2f32.powf(e)),
        zi in any::<i8>(),
    ) {
        let zi = i32::from(zi);
        let p = tanh_params(si, zi, 1.0 / 128.0, 0).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        tanh_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            let real = (f64::from(si) * f64::from(i32::from(x) - zi)).tanh();
            let ideal = (real * 128.0).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{}: {} vs {}", x, y, ideal);
        }
        // odd where the input is symmetric about the zero point
        for v in 1..=(127 - zi.max(0)).min(128 + zi.min(0)) {
            let (up, down) = ((zi + v) as i8, (zi - v) as i8);
            let mut pair = [0i8; 2];
            tanh_int8(&[up, down], &p, &mut pair).unwrap();
            prop_assert!(i32::from(pair[0]) + i32::from(pair[1]) <= 1 && i32::from(pair[0]) + i32::from(pair[1]) >= -1);
        }
    }

    #[test]
    fn rsqrt_is_close_to_the_inverse_square_root(
        si in scale(),
        so in scale(),
        zo in any::<i8>(),
    ) {
        let zo = i32::from(zo);
        let p = rsqrt_params(si, -128, so, zo).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        rsqrt_int8(&x, &p, &mut got).unwrap();
        prop_assert_eq!(got[0], 127); // 0.0
        for (&x, &y) in x.iter().zip(&got).skip(1) {
            let real = 1.0 / (f64::from(si) * f64::from(i32::from(x) + 128)).sqrt();
            let ideal = (real / f64::from(so) + f64::from(zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{}: {} vs {}", x, y, ideal);
        }
    }

    #[test]
    fn requantize_is_its_naive_definition(
        (si, so) in (scale(), scale()),
        (zi, zo) in (any::<i8>(), any::<i8>()),
    ) {
        let (zi, zo) = (i32::from(zi), i32::from(zo));
        let p = requantize_params(si, zi, so, zo).unwrap();
        let x = all_int8();
        let mut got = [0i8; 256];
        requantize_int8(&x, &p, &mut got).unwrap();
        for (&x, &y) in x.iter().zip(&got) {
            prop_assert_eq!(y, naive_requantize_one(x, &p));
            let real = f64::from(si) * f64::from(i32::from(x) - zi);
            let ideal = (real / f64::from(so) + f64::from(zo)).clamp(-128.0, 127.0);
            prop_assert!((f64::from(y) - ideal).abs() <= 1.0, "{} vs {}", y, ideal);
        }
    }
}

// ---- refusals: nothing written ----

#[test]
fn bad_lengths_leave_the_output_untouched() {
    let relu = relu_params(0.5, 0, 0.5, 0).unwrap();
    let relu6 = relu6_params(0.5, 0).unwrap();
    let leaky = leaky_relu_params(0.5, 0, 0.5, 0, 0.2).unwrap();
    let hs = hard_swish_params(0.05, 0, 0.05, 0).unwrap();
    let tanh = tanh_params(0.05, 0, 1.0 / 128.0, 0).unwrap();
    let rsqrt = rsqrt_params(0.05, -128, 0.05, 0).unwrap();
    let requantize = requantize_params(0.05, 0, 0.1, 0).unwrap();
    type Run<'a> = Box<dyn Fn(&[i8], &mut [i8]) -> Result<(), TfliteError> + 'a>;
    let kernels: Vec<(&str, Run)> = vec![
        ("relu", Box::new(|x, o| relu_int8(x, &relu, o))),
        ("relu6", Box::new(|x, o| relu6_int8(x, &relu6, o))),
        ("leaky", Box::new(|x, o| leaky_relu_int8(x, &leaky, o))),
        ("hard_swish", Box::new(|x, o| hard_swish_int8(x, &hs, o))),
        ("tanh", Box::new(|x, o| tanh_int8(x, &tanh, o))),
        ("rsqrt", Box::new(|x, o| rsqrt_int8(x, &rsqrt, o))),
        (
            "requantize",
            Box::new(|x, o| requantize_int8(x, &requantize, o)),
        ),
    ];
    for (name, run) in &kernels {
        let mut out = [0x55i8; 4];
        assert!(
            matches!(run(&[1, 2, 3], &mut out), Err(TfliteError::Length { .. })),
            "{name}"
        );
        assert!(run(&[1, 2, 3, 4, 5], &mut out).is_err(), "{name}");
        assert_eq!(out, [0x55; 4], "{name}");
        run(&[1, 2, 3, 4], &mut out).unwrap();
    }
}

#[test]
fn bad_params_are_refused_before_writing() {
    let x = [1i8, 2, 3];
    let mut out = [0x55i8; 3];
    let mut relu = relu_params(0.5, 0, 0.5, 0).unwrap();
    relu.output_min = 128;
    assert!(relu_int8(&x, &relu, &mut out).is_err());
    let mut relu6 = relu6_params(0.5, 0).unwrap();
    relu6.lower = 20;
    assert!(relu6_int8(&x, &relu6, &mut out).is_err()); // lower above upper 12
    let mut leaky = leaky_relu_params(0.5, 0, 0.5, 0, 0.2).unwrap();
    leaky.input_zero_point = 300;
    assert!(leaky_relu_int8(&x, &leaky, &mut out).is_err());
    let mut hs = hard_swish_params(0.05, 0, 0.05, 0).unwrap();
    hs.output_exponent = 1;
    assert!(hard_swish_int8(&x, &hs, &mut out).is_err());
    let mut tanh = tanh_params(0.05, 0, 1.0 / 128.0, 0).unwrap();
    tanh.input_range_radius = -1;
    assert!(tanh_int8(&x, &tanh, &mut out).is_err());
    // RSQRT: an input below its zero point (a negative real), anywhere
    let rsqrt = rsqrt_params(0.05, 2, 0.05, 0).unwrap();
    assert!(matches!(
        rsqrt_int8(&[5, 9, 1], &rsqrt, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    let mut requantize = requantize_params(0.05, 0, 0.1, 0).unwrap();
    requantize.output_zero_point = -200;
    assert!(requantize_int8(&x, &requantize, &mut out).is_err());
    assert_eq!(out, [0x55; 3]);
    // params
    assert!(matches!(
        relu_params(0.0, 0, 1.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        relu6_params(-1.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        leaky_relu_params(1.0, 0, 1.0, 0, f32::NAN),
        Err(TfliteError::BadMultiplier { .. })
    ));
    assert!(matches!(
        tanh_params(0.05, 0, 1.0 / 256.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        tanh_params(0.05, 0, 1.0 / 128.0, -128),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(matches!(
        tanh_params(100.0, 0, 1.0 / 128.0, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        hard_swish_params(0.05, 0, 0.05, 128),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(matches!(
        rsqrt_params(0.05, 0, f32::INFINITY, 0),
        Err(TfliteError::KernelScale { .. })
    ));
    assert!(matches!(
        requantize_params(0.05, 0, 0.1, 128),
        Err(TfliteError::KernelParam { .. })
    ));
}

/// An input scale so small that `input_scale / 128` underflows f32 gives
/// both of HARD_SWISH's multipliers 0: refused, not run wrong (the fuzz
/// target found it with the subnormal 1e-45).
#[test]
fn hard_swish_refuses_an_input_scale_that_underflows() {
    let e = hard_swish_params(1e-45, 0, 0.05, 0).unwrap_err();
    assert!(e.to_string().contains("underflow"), "{e}");
    assert!(hard_swish_params(1e-30, 0, 1e-30, 0).is_ok());
}
