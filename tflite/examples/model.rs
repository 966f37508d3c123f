//! Runs a `.tflite` model on inputs from a JSON file and prints its outputs
//! as JSON, with shapecheck-tflite's `Interpreter`:
//!
//! ```text
//! cargo run --release -p shapecheck-tflite --example model -- MODEL.tflite INPUTS.json
//! ```
//!
//! INPUTS.json is a list with one tensor per model input, in order, each
//! `{"shape": [...], "dtype": "int8" | "int16" | "int32" | "float32",
//! "data": [...]}`, of the model's input type (an int8 model is fed int8,
//! a 16x8 model int16). The outputs are printed on stdout as a list of
//! tensors in the same form. A file that cannot be read, a file that is
//! not a model, bad JSON, inputs of the wrong count, shape or type, or an
//! op the interpreter does not run: a one-line message on stderr and exit
//! code 1.

use std::process::ExitCode;

use serde_json::{json, Value};
use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Model, QuantizedMultiplier, TensorData, TensorType,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(outputs) => {
            println!("[{}]", outputs.join(","));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("model: {message}");
            ExitCode::FAILURE
        }
    }
}

/// One input tensor read from the JSON file.
enum Input {
    Int8(Vec<i8>),
    Int16(Vec<i16>),
    Int32(Vec<i32>),
    Float32(Vec<f32>),
}

impl Input {
    fn data(&self) -> TensorData<'_> {
        match self {
            Input::Int8(d) => TensorData::Int8(d),
            Input::Int16(d) => TensorData::Int16(d),
            Input::Int32(d) => TensorData::Int32(d),
            Input::Float32(d) => TensorData::Float32(d),
        }
    }
}

/// The outputs, each a compact JSON object `{"shape", "dtype", "data"}` in
/// that order (serde_json's `Value` would sort the keys).
fn run(args: &[String]) -> Result<Vec<String>, String> {
    let [model_path, inputs_path] = args else {
        return Err("usage: model MODEL.tflite INPUTS.json".into());
    };
    let bytes = std::fs::read(model_path).map_err(|e| format!("cannot read {model_path}: {e}"))?;
    let model = Model::parse(&bytes).map_err(|e| format!("{model_path}: {e}"))?;
    let text = std::fs::read_to_string(inputs_path)
        .map_err(|e| format!("cannot read {inputs_path}: {e}"))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{inputs_path}: not JSON: {e}"))?;
    let tensors = json
        .as_array()
        .ok_or(format!("{inputs_path}: not a list of tensors"))?;
    let count = model.inputs().len();
    if tensors.len() != count {
        return Err(format!(
            "{inputs_path}: {} input tensors, and the model takes {count}",
            tensors.len()
        ));
    }
    let inputs = tensors
        .iter()
        .enumerate()
        .map(|(k, t)| {
            read_input(&model, k, t).map_err(|e| format!("{inputs_path}: input {k}: {e}"))
        })
        .collect::<Result<Vec<Input>, String>>()?;

    let sizes = Interpreter::arena_sizes(&model).map_err(|e| format!("{model_path}: {e}"))?;
    let mut int8 = vec![0i8; sizes.int8];
    let mut int16 = vec![0i16; sizes.int16];
    let mut int32 = vec![0i32; sizes.int32];
    let mut float32 = vec![0f32; sizes.float32];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        int16: &mut int16,
        int32: &mut int32,
        float32: &mut float32,
        multipliers: &mut multipliers,
    };
    let mut interpreter = Interpreter::new(model, arena, Arithmetic::Micro)
        .map_err(|e| format!("{model_path}: {e}"))?;
    for (k, input) in inputs.iter().enumerate() {
        interpreter
            .set_input(k, input.data())
            .map_err(|e| format!("{inputs_path}: input {k}: {e}"))?;
    }
    interpreter
        .invoke()
        .map_err(|e| format!("{model_path}: {e}"))?;

    let mut outputs = Vec::new();
    for k in 0..model.outputs().len() {
        let tensor = model
            .output(k)
            .ok_or(format!("{model_path}: no output {k}"))?;
        let shape: Vec<i32> = tensor.shape().iter().collect();
        let (dtype, data) = match interpreter.output(k) {
            Some(TensorData::Int8(d)) => ("int8", json!(d)),
            Some(TensorData::Int16(d)) => ("int16", json!(d)),
            Some(TensorData::Int32(d)) => ("int32", json!(d)),
            Some(TensorData::Float32(d)) => ("float32", json!(d)),
            None => {
                return Err(format!(
                    "{model_path}: output {k} (tensor {}) is not an activation",
                    tensor.index()
                ))
            }
        };
        outputs.push(format!(
            "{{\"shape\":{},\"dtype\":\"{dtype}\",\"data\":{data}}}",
            json!(shape)
        ));
    }
    Ok(outputs)
}

/// Input `k` from its JSON tensor, checked against the model's input `k`:
/// its dtype, its shape, its data's length and range.
fn read_input(model: &Model<'_>, k: usize, t: &Value) -> Result<Input, String> {
    let tensor = model.input(k).ok_or("the model has no such input")?;
    let dtype = t["dtype"].as_str().ok_or("no \"dtype\" string")?;
    let expected = match tensor.dtype() {
        TensorType::Int8 => "int8",
        TensorType::Int16 => "int16",
        TensorType::Int32 => "int32",
        TensorType::Float32 => "float32",
        other => {
            return Err(format!(
                "the model's input is {other}, which this runner does not feed"
            ))
        }
    };
    if dtype != expected {
        return Err(format!(
            "dtype \"{dtype}\", and the model takes \"{expected}\""
        ));
    }
    let shape: Vec<i64> = t["shape"]
        .as_array()
        .and_then(|s| s.iter().map(Value::as_i64).collect())
        .ok_or("no \"shape\" list of integers")?;
    let model_shape: Vec<i64> = tensor.shape().iter().map(i64::from).collect();
    if shape != model_shape {
        return Err(format!(
            "shape {shape:?}, and the model takes {model_shape:?}"
        ));
    }
    let data = t["data"].as_array().ok_or("no \"data\" list")?;
    if data.len() != tensor.elements() {
        return Err(format!(
            "{} data values, and its shape holds {}",
            data.len(),
            tensor.elements()
        ));
    }
    let integers = |min: i64, max: i64| -> Result<Vec<i64>, String> {
        data.iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_i64()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or(format!("data[{i}] = {v} is not an {expected}"))
            })
            .collect()
    };
    Ok(match expected {
        "int8" => Input::Int8(integers(-128, 127)?.into_iter().map(|v| v as i8).collect()),
        "int16" => Input::Int16(
            integers(-32768, 32767)?
                .into_iter()
                .map(|v| v as i16)
                .collect(),
        ),
        "int32" => Input::Int32(
            integers(i64::from(i32::MIN), i64::from(i32::MAX))?
                .into_iter()
                .map(|v| v as i32)
                .collect(),
        ),
        _ => Input::Float32(
            data.iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_f64()
                        .map(|v| v as f32)
                        .ok_or(format!("data[{i}] = {v} is not a number"))
                })
                .collect::<Result<_, _>>()?,
        ),
    })
}
