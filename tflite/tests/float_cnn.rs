//! The interpreter on a float32 CNN as Keras exports it without
//! quantization (tests/models/float_cnn.tflite: convolutions, depthwise
//! convolutions, a max pool, a mean, a dense layer and a softmax, every
//! tensor float32), against TFLite Micro's recording (float_cnn.json):
//! the output of all 16 cases and every activation of the first two, to
//! the bit, every way the interpreter runs (`common::check_recording`:
//! as it runs, prepared, planned on the heap and without it, each
//! tensor in its own place and packed).

mod common;

use shapecheck_tflite::{Interpreter, Layout, Model, TensorType};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

#[test]
fn float_cnn_is_tflite_micro_s_to_the_bit() {
    let bytes = std::fs::read(dir().join("float_cnn.tflite")).unwrap();
    let recording = common::read_json(&dir().join("float_cnn.json"));
    assert_eq!(recording["cases"].as_array().map(Vec::len), Some(16));
    let compared = common::check_recording(&bytes, &recording, "float_cnn");
    // 16 outputs in each of the 6 ways; the 2 cases with tensors add
    // their activations in the 4 ways that keep every tensor
    assert!(compared > 6 * 16 + 4 * 2 * 8, "{compared} tensors compared");
}

#[test]
fn float_cnn_plans_its_float_activations() {
    let bytes = std::fs::read(dir().join("float_cnn.tflite")).unwrap();
    let model = Model::parse(&bytes).unwrap();
    let (input, output) = (model.input(0).unwrap(), model.output(0).unwrap());
    assert_eq!(input.dtype(), TensorType::Float32);
    assert_eq!(output.dtype(), TensorType::Float32);
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let packed = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch).unwrap();
    let debug = Interpreter::planned_sizes(&model, Layout::Debug, &mut scratch).unwrap();
    // every activation is float32 (only MEAN's axes are int32, a
    // constant): no integer buffer, and the packed plan reuses places
    // (the layers' outputs die one after another)
    assert_eq!(
        (packed.arena.int8, packed.arena.int16, packed.arena.int32),
        (0, 0, 0)
    );
    assert!(packed.arena.float32 > 0);
    assert!(
        packed.arena.float32 < debug.arena.float32,
        "packed {} floats, each tensor its own place {}",
        packed.arena.float32,
        debug.arena.float32
    );
}
