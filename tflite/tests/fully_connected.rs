//! The int8 fully connected kernel against every case of
//! `tests/vectors/core/fully_connected_int8.json` (TensorFlow 2.21's
//! reference interpreter, single rounding, bit for bit; TFLite Micro's
//! results with the double rounding), and the int8 sine model run layer by
//! layer from its file against every tensor the interpreter recorded
//! (`tests/outputs/sine_outputs.json`).

use serde_json::Value;
use shapecheck_tflite::{
    activation_range_int8, fully_connected_int8, fully_connected_multiplier, Activation, Array,
    FullyConnectedDims, FullyConnectedParams, Model, Options, QuantizedMultiplier, Rounding,
    TfliteError,
};

fn vectors() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/core/fully_connected_int8.json"
    );
    let text = std::fs::read_to_string(path).expect("the vectors");
    serde_json::from_str(&text).expect("JSON")
}

fn ints<T: TryFrom<i64>>(v: &Value) -> Vec<T> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| {
            T::try_from(x.as_i64().expect("an integer"))
                .ok()
                .expect("in range")
        })
        .collect()
}

/// A scale as the file stores it: an f32 printed as f64.
fn scale(v: &Value) -> f32 {
    v.as_f64().expect("a number") as f32
}

fn activation(name: &str) -> Activation {
    match name {
        "NONE" => Activation::None,
        "RELU" => Activation::Relu,
        "RELU6" => Activation::Relu6,
        other => panic!("activation {other}"),
    }
}

/// Runs one case with `rounding`; returns the output.
fn run(case: &Value, rounding: Rounding) -> Vec<i8> {
    let input = &case["input"];
    let weights = &case["weights"];
    let x: Vec<i8> = ints(&input["data"]);
    let w: Vec<i8> = ints(&weights["data"]);
    let shape: Vec<usize> = ints(&input["shape"]);
    let w_shape: Vec<usize> = ints(&weights["shape"]);
    let dims = FullyConnectedDims {
        batches: shape[0],
        input_dim: shape[1],
        units: w_shape[0],
    };
    let bias: Option<Vec<i32>> = match &case["bias"] {
        Value::Null => None,
        b => Some(ints(&b["data"])),
    };
    let x_scale = scale(&input["scale"]);
    let out_scale = scale(&case["output"]["scale"]);
    let out_zp = case["output"]["zero_point"].as_i64().unwrap() as i32;
    let multipliers: Vec<QuantizedMultiplier> = weights["scales"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| fully_connected_multiplier(x_scale, scale(s), out_scale).unwrap())
        .collect();
    assert!(ints::<i64>(&weights["zero_points"]).iter().all(|&z| z == 0));
    let (output_min, output_max) = activation_range_int8(
        activation(case["attrs"]["fused_activation"].as_str().unwrap()),
        out_scale,
        out_zp,
    )
    .unwrap();
    let params = FullyConnectedParams {
        input_zero_point: input["zero_point"].as_i64().unwrap() as i32,
        weights_zero_point: 0,
        output_zero_point: out_zp,
        multipliers: &multipliers,
        output_min,
        output_max,
        rounding,
    };
    let mut out = vec![0i8; dims.batches * dims.units];
    fully_connected_int8(&x, w.as_slice(), bias.as_deref(), dims, &params, &mut out).unwrap();
    out
}

#[test]
fn every_vector_case_matches_tflite_bit_for_bit() {
    let file = vectors();
    assert_eq!(file["op"], "fully_connected_int8");
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 60);
    let (mut per_channel, mut no_bias, mut tflm_differs) = (0, 0, 0);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let want: Vec<i8> = ints(&case["out"]["data"]);
        assert_eq!(
            run(case, Rounding::Single),
            want,
            "{name}: the interpreter's out"
        );
        if case["tflm_checked"] == true {
            let tflm: Vec<i8> = match case.get("out_tflm") {
                Some(t) => ints(&t["data"]),
                None => want.clone(),
            };
            tflm_differs += usize::from(tflm != want);
            assert_eq!(
                run(case, Rounding::Double),
                tflm,
                "{name}: TFLite Micro's out"
            );
        }
        per_channel += usize::from(case["weights"]["scales"].as_array().unwrap().len() > 1);
        no_bias += usize::from(case["bias"].is_null());
    }
    // what the cases cover: per-channel layers, bias-less ones, and the one
    // case where the two roundings differ
    assert!(per_channel > 40, "{per_channel}");
    assert!(no_bias > 0);
    assert_eq!(tflm_differs, 1);
}

#[test]
fn the_wrong_rounding_fails_the_tie_case() {
    // the case where TFLite Micro differs is a real tie: each rounding
    // gives only its own interpreter's result
    let file = vectors();
    let case = file["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c.get("out_tflm").is_some())
        .unwrap();
    let out: Vec<i8> = ints(&case["out"]["data"]);
    let tflm: Vec<i8> = ints(&case["out_tflm"]["data"]);
    assert_eq!(run(case, Rounding::Single), out);
    assert_ne!(run(case, Rounding::Double), out);
    assert_eq!(run(case, Rounding::Double), tflm);
}

/// Runs sine.tflite's three layers on one int8 input, from the file alone;
/// returns each operator's output tensor index and values.
fn sine_layers(x: i8, rounding: Rounding) -> Vec<(usize, Vec<i8>)> {
    let bytes = include_bytes!("models/sine.tflite");
    let model = Model::parse(bytes).unwrap();
    let mut activations = vec![x];
    let mut layers = Vec::new();
    for op in model.operators() {
        let tensor = |k: usize| model.tensor(op.input(k).unwrap()).unwrap();
        let (input, weights, bias) = (tensor(0), tensor(1), tensor(2));
        let output = model.tensor(op.output(0).unwrap()).unwrap();
        let q = |t: &shapecheck_tflite::ModelTensor<'_>| {
            let q = t.quantization().unwrap();
            (q.scale(0).unwrap(), q.zero_point(0).unwrap() as i32)
        };
        let ((x_scale, x_zp), (w_scale, _), (out_scale, out_zp)) =
            (q(&input), q(&weights), q(&output));
        let Options::FullyConnected(o) = op.options() else {
            panic!()
        };
        let (output_min, output_max) =
            activation_range_int8(o.fused_activation, out_scale, out_zp).unwrap();
        let multipliers = [fully_connected_multiplier(x_scale, w_scale, out_scale).unwrap()];
        let w = weights.data_as::<i8>().unwrap().iter().collect::<Vec<_>>();
        let b = bias.data_as::<i32>().unwrap().iter().collect::<Vec<_>>();
        let dims = FullyConnectedDims {
            batches: 1,
            input_dim: weights.shape().get(1).unwrap() as usize,
            units: weights.shape().get(0).unwrap() as usize,
        };
        let params = FullyConnectedParams {
            input_zero_point: x_zp,
            weights_zero_point: 0,
            output_zero_point: out_zp,
            multipliers: &multipliers,
            output_min,
            output_max,
            rounding,
        };
        let mut out = vec![0i8; dims.units];
        fully_connected_int8(
            &activations,
            w.as_slice(),
            Some(b.as_slice()),
            dims,
            &params,
            &mut out,
        )
        .unwrap();
        activations = out.clone();
        layers.push((output.index(), out));
    }
    layers
}

fn sine(x: i8, rounding: Rounding) -> i8 {
    sine_layers(x, rounding).last().unwrap().1[0]
}

#[test]
fn the_sine_model_gives_microflow_s_cross_check() {
    // x = 0.5, quantized to −108, gives 57 (0.41348344): the models README
    assert_eq!(sine(-108, Rounding::Single), 57);
    assert_eq!(sine(-108, Rounding::Double), 57);
}

#[test]
fn the_sine_model_matches_the_interpreter_on_every_tensor() {
    // tests/outputs/sine_outputs.json: 64 inputs, every intermediate tensor,
    // from TensorFlow 2.21's reference interpreter; out_tflm where TFLite
    // Micro differs
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/outputs/sine_outputs.json"
    );
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let model = &file["models"]["sine_int8"];
    assert_eq!(model["file"], "sine.tflite");
    let cases = model["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 64);
    let mut tflm_differs = 0;
    for case in cases {
        let x: Vec<i8> = ints(&case["input"]["data"]);
        let layers = sine_layers(x[0], Rounding::Single);
        let tensors = case["tensors"].as_array().unwrap();
        for (index, got) in &layers {
            let want = tensors
                .iter()
                .find(|t| t["index"] == *index)
                .unwrap_or_else(|| panic!("no tensor {index}"));
            assert_eq!(
                *got,
                ints::<i8>(&want["data"]),
                "x = {}, tensor {index}",
                case["x"]
            );
        }
        let out: Vec<i8> = ints(&case["out"]["data"]);
        assert_eq!(vec![sine(x[0], Rounding::Single)], out, "x = {}", case["x"]);
        let tflm: Vec<i8> = match case.get("out_tflm") {
            Some(t) => ints(&t["data"]),
            None => out.clone(),
        };
        tflm_differs += usize::from(tflm != out);
        assert_eq!(
            vec![sine(x[0], Rounding::Double)],
            tflm,
            "TFLite Micro, x = {}",
            case["x"]
        );
    }
    // the two inputs whose ties the two roundings break apart
    assert_eq!(tflm_differs, 2);
}

#[test]
fn the_kernel_checks_its_lengths() {
    let m = [fully_connected_multiplier(0.5, 0.5, 0.5).unwrap()];
    let params = FullyConnectedParams {
        input_zero_point: 0,
        weights_zero_point: 0,
        output_zero_point: 0,
        multipliers: &m,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Single,
    };
    let dims = FullyConnectedDims {
        batches: 2,
        input_dim: 3,
        units: 2,
    };
    let (x, w, b) = ([1i8; 6], [1i8; 6], [0i32; 2]);
    let mut out = [9i8; 4];
    // (input, weights, bias, output length, the slice named, its expected and actual length)
    type Case<'a> = (
        &'a [i8],
        &'a [i8],
        Option<&'a [i32]>,
        usize,
        &'static str,
        usize,
        usize,
    );
    let cases: [Case<'_>; 4] = [
        (&x[..5], &w, Some(&b), 4, "input", 6, 5),
        (&x, &w[..4], Some(&b), 4, "weights", 6, 4),
        (&x, &w, Some(&b[..1]), 4, "bias", 2, 1),
        (&x, &w, Some(&b), 3, "output", 4, 3),
    ];
    for (x, w, b, out_len, what, expected, actual) in cases {
        let err = fully_connected_int8(x, w, b, dims, &params, &mut out[..out_len]).unwrap_err();
        assert_eq!(
            err,
            TfliteError::Length {
                what,
                expected,
                actual
            }
        );
        assert_eq!(out, [9; 4], "written on error");
    }
    let three = [m[0]; 3];
    let err = fully_connected_int8(
        &x,
        &w,
        None::<&[i32]>,
        dims,
        &FullyConnectedParams {
            multipliers: &three,
            ..params
        },
        &mut out,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "the multipliers has 3 elements, not 2");
    let huge = FullyConnectedDims {
        batches: usize::MAX,
        input_dim: 2,
        units: 1,
    };
    assert!(matches!(
        fully_connected_int8(&x, &w, None::<&[i32]>, huge, &params, &mut out),
        Err(TfliteError::Length {
            expected: usize::MAX,
            ..
        })
    ));
    // 3 inputs of 1, weight 1, multiplier 0.5: 1.5 rounds to 2 (ties up)
    fully_connected_int8(&x, &w, None::<&[i32]>, dims, &params, &mut out).unwrap();
    assert_eq!(out, [2; 4]);
}

#[test]
fn a_layer_without_units_returns_at_once() {
    // lengths all 0 whatever the rows: nothing to compute, not 2^64 empty rows
    let m = [fully_connected_multiplier(1.0, 1.0, 1.0).unwrap()];
    let params = FullyConnectedParams {
        input_zero_point: 0,
        weights_zero_point: 0,
        output_zero_point: 0,
        multipliers: &m,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Single,
    };
    let dims = FullyConnectedDims {
        batches: usize::MAX,
        input_dim: 0,
        units: 0,
    };
    fully_connected_int8(&[], &[0i8; 0], None::<&[i32]>, dims, &params, &mut []).unwrap();
}

#[test]
fn a_layer_without_inputs_is_its_bias() {
    let m = [fully_connected_multiplier(1.0, 1.0, 1.0).unwrap()];
    let params = FullyConnectedParams {
        input_zero_point: 0,
        weights_zero_point: 0,
        output_zero_point: 1,
        multipliers: &m,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let dims = FullyConnectedDims {
        batches: 2,
        input_dim: 0,
        units: 2,
    };
    let mut out = [0i8; 4];
    fully_connected_int8(&[], &[], Some(&[5, -300]), dims, &params, &mut out).unwrap();
    assert_eq!(out, [6, -128, 6, -128]);
}

#[test]
fn activation_ranges_follow_tflite() {
    // RELU6 with scale 0.0235294 (6/255) at zero point −128: 6 is 255 steps up, clamped to 127
    assert_eq!(
        activation_range_int8(Activation::Relu6, 6.0 / 255.0, -128).unwrap(),
        (-128, 127)
    );
    // 6 / 0.05 = 120 steps from −100: 20
    assert_eq!(
        activation_range_int8(Activation::Relu6, 0.05, -100).unwrap(),
        (-100, 20)
    );
    // a zero point below −128 still clamps at −128; RELU_N1_TO_1 at scale 0.5: ±2
    assert_eq!(
        activation_range_int8(Activation::ReluN1To1, 0.5, 0).unwrap(),
        (-2, 2)
    );
    // round half away: 6 / 0.8 = 7.5 → 8
    assert_eq!(
        activation_range_int8(Activation::Relu6, 0.8, 0).unwrap(),
        (0, 8)
    );
    assert_eq!(
        activation_range_int8(Activation::Tanh, 0.1, 0).unwrap_err(),
        TfliteError::UnsupportedActivation {
            activation: Activation::Tanh
        }
    );
}

/// The kernel's definition: the crate's one reference
/// (`shapecheck_tflite::reference`, TFLite Micro's loop written plainly).
fn naive_fully_connected(
    x: &[i8],
    w: &[i8],
    bias: &[i32],
    dims: FullyConnectedDims,
    params: &FullyConnectedParams<'_>,
) -> Vec<i8> {
    let mut out = vec![0i8; dims.batches * dims.units];
    shapecheck_tflite::reference::fully_connected(x, w, Some(bias), dims, params, &mut out);
    out
}

#[test]
fn the_kernel_is_its_naive_definition_for_any_zero_points_and_clamps() {
    // weights' zero points other than 0 (the kernel takes them out once per
    // row), clamps past int8 and empty ones (TFLite's max-then-min gives
    // the upper end), per-tensor and per-channel, both roundings
    let mut seed = 58u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u32
    };
    let mut cases = 0;
    for (input_dim, units) in [(1, 16), (16, 16), (16, 1), (7, 5), (40, 4)] {
        for w_zp in [0, 3, -5] {
            for (lo, hi) in [(-128, 127), (-20, 40), (-300, 300), (10, -10), (130, 140)] {
                for per_channel in [false, true] {
                    for rounding in [Rounding::Single, Rounding::Double] {
                        let dims = FullyConnectedDims {
                            batches: 2,
                            input_dim,
                            units,
                        };
                        let x: Vec<i8> = (0..2 * input_dim).map(|_| next() as i8).collect();
                        let w: Vec<i8> = (0..units * input_dim).map(|_| next() as i8).collect();
                        let bias: Vec<i32> = (0..units).map(|_| next() as i32 % 9000).collect();
                        let m: Vec<QuantizedMultiplier> = (0..if per_channel { units } else { 1 })
                            .map(|c| {
                                fully_connected_multiplier(0.01, 0.02 + 0.003 * c as f32, 0.05)
                                    .unwrap()
                            })
                            .collect();
                        let params = FullyConnectedParams {
                            input_zero_point: -7,
                            weights_zero_point: w_zp,
                            output_zero_point: 5,
                            multipliers: &m,
                            output_min: lo,
                            output_max: hi,
                            rounding,
                        };
                        let mut out = vec![0i8; 2 * units];
                        fully_connected_int8(
                            &x,
                            w.as_slice(),
                            Some(bias.as_slice()),
                            dims,
                            &params,
                            &mut out,
                        )
                        .unwrap();
                        // the weights in place in a model's bytes: the kernel's
                        // other path (one unit at a time), the same outputs
                        let bytes: Vec<u8> = w.iter().map(|&v| v as u8).collect();
                        let in_place = Array::<i8>::new(&bytes).unwrap();
                        let mut out_in_place = vec![0i8; 2 * units];
                        fully_connected_int8(
                            &x,
                            &in_place,
                            Some(bias.as_slice()),
                            dims,
                            &params,
                            &mut out_in_place,
                        )
                        .unwrap();
                        assert_eq!(out_in_place, out);
                        assert_eq!(
                            out,
                            naive_fully_connected(&x, &w, &bias, dims, &params),
                            "{input_dim}×{units} w_zp {w_zp} clamp [{lo}, {hi}] per-channel {per_channel} {rounding:?}"
                        );
                        cases += 1;
                    }
                }
            }
        }
    }
    assert_eq!(cases, 5 * 3 * 5 * 2 * 2);
}
