//! `model!` on the three models of `tflite/tests/models/`: each expands,
//! and its `predict` reproduces every public output TFLite recorded
//! (`tflite/tests/outputs/`): int8 bit for bit TFLite Micro's (`out_tflm`
//! where the recording has it, `out` elsewhere), float32 within 1e-5
//! relative. `RAM_BYTES` is what the layer shapes give for `predict`'s
//! buffers: the two activation buffers its layers write into in turn and
//! the output it returns (the input is the caller's).

use serde_json::Value;

shapecheck::model!(pub Sine = "tflite/tests/models/sine.tflite");
shapecheck::model!(pub SineFloat = "tflite/tests/models/sine_float.tflite");
shapecheck::model!(pub Speech = "tflite/tests/models/speech.tflite");

fn outputs(file: &str) -> Value {
    let path = format!("{}/tflite/tests/outputs/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn cases<'a>(outputs: &'a Value, model: &str) -> &'a Vec<Value> {
    outputs["models"][model]["cases"].as_array().unwrap()
}

fn ints(v: &Value) -> Vec<i8> {
    let values = v.as_array().unwrap().iter();
    values
        .map(|x| i8::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

/// TFLite Micro's output where it was recorded, else TFLite's.
fn expected(case: &Value) -> &Value {
    case.get("out_tflm").unwrap_or(&case["out"])
}

#[test]
fn sine_int8_is_bit_exact() {
    let outputs = outputs("sine_outputs.json");
    let cases = cases(&outputs, "sine_int8");
    assert_eq!(cases.len(), 64);
    for case in cases {
        let x = sine::Input::from_slice(&ints(&case["input"]["data"])).unwrap();
        let y: sine::Output = Sine::predict(&x);
        assert_eq!(y.as_slice(), ints(&expected(case)["data"]), "{case:?}");
    }
}

#[test]
fn sine_float_is_within_1e_5() {
    let outputs = outputs("sine_outputs.json");
    let cases = cases(&outputs, "sine_float");
    assert_eq!(cases.len(), 64);
    for case in cases {
        let x = case["input"]["data"][0].as_f64().unwrap() as f32;
        let y = SineFloat::predict(&sine_float::Input::from_array([[x]]));
        let want = expected(case)["data"][0].as_f64().unwrap() as f32;
        let got = y.as_slice()[0];
        assert!(
            (got - want).abs() <= 1e-5 * want.abs().max(f32::MIN_POSITIVE),
            "x = {x}: {got} vs {want}"
        );
    }
}

#[test]
fn speech_is_bit_exact() {
    let outputs = outputs("speech_outputs.json");
    let cases = cases(&outputs, "speech");
    assert_eq!(cases.len(), 20);
    for case in cases {
        let x = speech::Input::from_slice(&ints(&case["input"]["data"])).unwrap();
        let y: speech::Output = Speech::predict(&x);
        assert_eq!(y.as_slice(), ints(&expected(case)["data"]));
    }
}

#[test]
fn ram_bytes_is_the_arena_at_the_liveness_floor() {
    // sine: the two 16-wide hidden layers, live together at operator 1;
    // the input [1, 1] and the output [1, 1] are the caller's
    assert_eq!(Sine::RAM_BYTES, 16 + 16);
    assert_eq!(sine::Arena::BYTES, 32);
    // the same in f32
    assert_eq!(SineFloat::RAM_BYTES, 4 * (16 + 16));
    // speech: the convolution's [1, 25, 20, 8] (its input is a view of the
    // caller's [1, 1960]) and the logits [1, 4] at operator 2; the scores
    // [1, 4] then take the convolution's place
    assert_eq!(Speech::RAM_BYTES, 25 * 20 * 8 + 4);
    assert_eq!(Speech::RAM_BYTES, core::mem::size_of::<speech::Arena>());
    // a firmware's budget, the input included
    const _: () = speech::assert_ram_fits(6 * 1024, core::mem::size_of::<speech::Input>());
}
