//! The `.tflite` reader (`shapecheck_tflite::Model::parse`) on arbitrary
//! bytes, and on the three test models with bytes overwritten and cut off
//! where the input says; every accessor is then walked.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a rejection is
//! an error whose message is not empty; an accepted model keeps every
//! promise `parse` makes: each tensor's element count is its shape's
//! product, each constant buffer holds exactly those elements, scales and
//! zero points pair up and run along an axis of their count, every operator
//! and subgraph tensor index is a tensor (or -1 for an absent optional
//! input), every op code is one the schema names, and every accessor past
//! the end is `None`.
//!
//! An accepted model is then run by the `Interpreter` on zero inputs (when
//! its activations fit in a few MB): `new`, `set_input` and `invoke` return
//! an error or succeed, never panic, and an error's message is not empty.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    Arena, Arithmetic, BuiltinOp, Interpreter, Model, Options, QuantizedMultiplier, TensorData,
    TensorType,
};

/// The most activation elements (and multipliers) a fuzzed model is run
/// with: larger ones are checked for their sizes only.
const MAX_ELEMENTS: usize = 1 << 20;

/// Runs `model` on zero inputs with each arithmetic.
fn run(model: Model<'_>) {
    let Ok(sizes) = Interpreter::arena_sizes(&model) else {
        return;
    };
    if sizes.int8 > MAX_ELEMENTS || sizes.float32 > MAX_ELEMENTS || sizes.multipliers > MAX_ELEMENTS
    {
        return;
    }
    for arithmetic in [Arithmetic::Micro, Arithmetic::Reference] {
        let mut int8 = vec![0i8; sizes.int8];
        let mut float32 = vec![0f32; sizes.float32];
        let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
        let arena = Arena {
            int8: &mut int8,
            float32: &mut float32,
            multipliers: &mut multipliers,
        };
        let mut interpreter = match Interpreter::new(model, arena, arithmetic) {
            Ok(i) => i,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return;
            }
        };
        for k in 0..model.inputs().len() {
            let input = model.input(k).expect("checked by parse");
            let zeros_i8 = vec![0i8; input.elements().min(MAX_ELEMENTS)];
            let zeros_f32 = vec![0f32; input.elements().min(MAX_ELEMENTS)];
            let data = match input.dtype() {
                TensorType::Float32 => TensorData::Float32(&zeros_f32),
                _ => TensorData::Int8(&zeros_i8),
            };
            if let Err(e) = interpreter.set_input(k, data) {
                assert!(!e.to_string().is_empty());
            }
        }
        match interpreter.invoke() {
            Ok(()) => {
                for k in 0..model.outputs().len() {
                    let _ = interpreter.output(k).map(|d| d.len());
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

const MODELS: [&[u8]; 3] = [
    include_bytes!("../../tflite/tests/models/sine.tflite"),
    include_bytes!("../../tflite/tests/models/sine_float.tflite"),
    include_bytes!("../../tflite/tests/models/speech.tflite"),
];

/// A test model picked by the first byte, then patched by each following
/// 4 bytes: a little-endian position (modulo the length), then either a
/// byte to write there (third byte below 128: the fourth byte) or a 32-bit
/// word the fourth byte picks from values that matter to offsets, counts
/// and indices. One to three bytes left over cut the model at a length.
fn patched(bytes: &[u8]) -> Option<Vec<u8>> {
    let (&pick, rest) = bytes.split_first()?;
    let mut model = MODELS[usize::from(pick) % MODELS.len()].to_vec();
    let len = model.len() as u32;
    let mut patches = rest.chunks_exact(4);
    for p in &mut patches {
        let at = usize::from(u16::from_le_bytes([p[0], p[1]])) % model.len();
        if p[2] < 128 {
            model[at] = p[3];
            continue;
        }
        let word: u32 = match p[3] % 8 {
            0 => 0,
            1 => u32::MAX,     // -1
            2 => u32::MAX - 1, // -2
            3 => i32::MAX as u32,
            4 => i32::MIN as u32,
            5 => len,
            6 => len.wrapping_sub(4),
            _ => u32::from(p[3] / 8), // a small count or index
        };
        for (i, b) in word.to_le_bytes().into_iter().enumerate() {
            if let Some(slot) = model.get_mut(at + i) {
                *slot = b;
            }
        }
    }
    if let [a, ..] = *patches.remainder() {
        model.truncate(usize::from(a) * model.len() / 256);
    }
    Some(model)
}

fn check(bytes: &[u8]) {
    let model = match Model::parse(bytes) {
        Ok(m) => m,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let tensors = model.tensor_count();
    let _ = (model.version(), model.description(), model.subgraph_name());
    assert!(model.subgraph_count() >= 1);
    for t in model.tensors() {
        let mut product: usize = 1;
        for d in t.shape() {
            product = product
                .checked_mul(usize::try_from(d).expect("negative dim"))
                .expect("overflow");
        }
        assert_eq!(t.elements(), product, "tensor {}", t.index());
        let data = t.data();
        if let (false, false, Some(bits)) = (data.is_empty(), t.is_sparse(), t.dtype().size_bits())
        {
            assert_eq!(
                data.len(),
                (product * bits).div_ceil(8),
                "tensor {}",
                t.index()
            );
        }
        assert!(t.buffer_index() < model.buffer_count());
        let _ = (
            t.name(),
            t.shape_signature().iter().count(),
            t.is_variable(),
        );
        let _ = t.data_as::<i8>().map(|a| a.iter().count());
        let _ = t.data_as::<i32>().map(|a| a.iter().count());
        let _ = t.data_as::<f32>().map(|a| a.iter().count());
        if let Some(q) = t.quantization() {
            let n = q.scales().len();
            assert!(n >= 1);
            assert_eq!(q.zero_points().len(), n);
            if q.is_per_channel() {
                let dim = t.shape().get(q.quantized_dimension()).expect("axis");
                assert_eq!(usize::try_from(dim).ok(), Some(n));
                assert!(q.scale(n - 1).is_some() && q.scale(n).is_none());
            } else {
                assert_eq!(q.scale(0).map(f32::to_bits), q.scale(7).map(f32::to_bits));
            }
            assert_eq!(q.zero_points().iter().count(), n);
        }
    }
    for o in model.operators() {
        assert_eq!(BuiltinOp::from_code(o.op().code()), Some(o.op()));
        assert!(o.opcode_index() < model.operator_code_count());
        for i in o.inputs() {
            assert!(i == -1 || usize::try_from(i).is_ok_and(|i| i < tensors));
        }
        for k in 0..o.outputs().len() {
            assert!(o.output(k).is_some_and(|i| i < tensors));
        }
        assert!(o.input(o.inputs().len()).is_none() && o.output(o.outputs().len()).is_none());
        match o.options() {
            Options::DepthwiseConv2d(d) => {
                assert!(
                    d.stride_w >= 1 && d.stride_h >= 1 && d.dilation_w >= 1 && d.dilation_h >= 1
                );
            }
            Options::Reshape(r) => {
                let _ = r.new_shape.map(|s| s.iter().count());
            }
            _ => {}
        }
        let _ = (o.version(), o.custom_code(), format!("{:?}", o.options()));
    }
    for k in 0..model.inputs().len() {
        assert!(model.input(k).is_some());
    }
    for k in 0..model.outputs().len() {
        assert!(model.output(k).is_some());
    }
    assert!(model.tensor(tensors).is_none());
    assert!(model.operator(model.operator_count()).is_none());
    assert!(model.input(model.inputs().len()).is_none());
    run(model);
}

fuzz_target!(|bytes: &[u8]| {
    check(bytes);
    if let Some(model) = patched(bytes) {
        check(&model);
    }
});
