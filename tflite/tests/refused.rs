//! The two exports TFLite Micro refuses (tests/models/refused/, from the
//! project's shared set): each gets its one error, naming what the file
//! is, from every way the `Interpreter` prepares a model (and so from
//! `model!`, which checks a file with it; its compile error is the ui
//! case `ui-tests/model/fail/hybrid_model.rs` and `float16_weights.rs`),
//! before any operator is prepared: the hybrid file's first operator is
//! an all-float convolution, its second the hybrid one, and the error
//! names the second whether or not the first would run.

use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Model, PreparedStep, QuantizedMultiplier, TfliteError,
};

const HYBRID: &[u8] = include_bytes!("models/refused/hybrid_conv.tflite");
const F16: &[u8] = include_bytes!("models/refused/f16_weights_conv.tflite");

/// `Interpreter::new`'s error on `bytes`, with arenas of the sizes the
/// model asks for.
fn refusal(bytes: &[u8]) -> TfliteError {
    let model = Model::parse(bytes).unwrap();
    let sizes = Interpreter::arena_sizes(&model).unwrap();
    let mut int8 = vec![0i8; sizes.int8];
    let mut float32 = vec![0f32; sizes.float32];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        float32: &mut float32,
        multipliers: &mut multipliers,
        ..Arena::default()
    };
    match Interpreter::new(model, arena, Arithmetic::Micro) {
        Ok(_) => panic!("the interpreter took a file TFLite Micro refuses"),
        Err(e) => e,
    }
}

/// `Interpreter::prepared`'s error on `bytes` (the path of prepared
/// steps, which `Plan::new` and `planned` share).
fn refusal_prepared(bytes: &'static [u8]) -> TfliteError {
    let model = Model::parse(bytes).unwrap();
    let sizes = Interpreter::arena_sizes(&model).unwrap();
    let prepared = Interpreter::prepared_sizes(&model).unwrap();
    let int8 = vec![0i8; sizes.int8].leak();
    let float32 = vec![0f32; sizes.float32].leak();
    let steps = vec![PreparedStep::EMPTY; prepared.steps].leak();
    let multipliers = vec![QuantizedMultiplier::ZERO; prepared.multipliers].leak();
    let arena = Arena {
        int8,
        float32,
        ..Arena::default()
    };
    match Interpreter::prepared(model, arena, steps, multipliers, Arithmetic::Micro) {
        Ok(_) => panic!("the interpreter took a file TFLite Micro refuses"),
        Err(e) => e,
    }
}

#[test]
fn a_hybrid_model_is_refused_naming_its_hybrid_layer() {
    let err = refusal(HYBRID);
    // operator 1, CONV_2D: its input tensor 7 (float32, the first
    // convolution's output) and its weights tensor 6 (int8)
    let TfliteError::HybridModel {
        operator,
        op,
        input,
        weights,
        ref weights_name,
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((operator, op.name(), input, weights), (1, "CONV_2D", 7, 6));
    assert_eq!(
        weights_name.to_string(),
        "functional_1/conv2d_1_2/convolution"
    );
    let message = err.to_string();
    assert!(
        message.starts_with(
            "operator 1 (CONV_2D): a dynamic-range (hybrid) quantized model: its input, tensor 7, is FLOAT32 \
             and its weights, tensor 6 \"functional_1/conv2d_1_2/convolution\", INT8, and \
             TFLite Micro runs only full-integer or float32 models; export with a representative dataset"
        ),
        "{message}"
    );
    assert_eq!(refusal_prepared(HYBRID), err);
}

#[test]
fn a_float16_weight_model_is_refused_naming_its_first_float16_tensor() {
    let err = refusal(F16);
    let TfliteError::Float16Weights {
        operator,
        op,
        tensor,
        ref name,
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((operator, op.name(), tensor), (0, "DEQUANTIZE", 6));
    assert_eq!(name.to_string(), "functional_1/conv2d_1_2/convolution");
    let message = err.to_string();
    assert!(
        message.starts_with(
            "operator 0 (DEQUANTIZE): a model of float16 weights: its input, tensor 6 \
             \"functional_1/conv2d_1_2/convolution\", is FLOAT16"
        ),
        "{message}"
    );
    assert!(message.contains("a DEQUANTIZE from FLOAT16 to FLOAT32"));
    assert_eq!(refusal_prepared(F16), err);
}

#[test]
fn the_models_the_interpreter_runs_are_not_refused() {
    // a float32 model and an int8 one, each with constant weights of
    // its own type
    for bytes in [
        &include_bytes!("models/sine_float.tflite")[..],
        &include_bytes!("models/sine.tflite")[..],
        &include_bytes!("ops/elu_float_inside.tflite")[..],
    ] {
        let model = Model::parse(bytes).unwrap();
        let sizes = Interpreter::arena_sizes(&model).unwrap();
        let mut int8 = vec![0i8; sizes.int8];
        let mut float32 = vec![0f32; sizes.float32];
        let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
        let arena = Arena {
            int8: &mut int8,
            float32: &mut float32,
            multipliers: &mut multipliers,
            ..Arena::default()
        };
        Interpreter::new(model, arena, Arithmetic::Micro).unwrap();
    }
}
