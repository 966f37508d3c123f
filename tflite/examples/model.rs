//! Runs a `.tflite` model with shapecheck-tflite's `Interpreter` (planned
//! without a heap, `Interpreter::planned` with `Layout::Packed`: the
//! planner's arena, every operator prepared once), on inputs from a JSON
//! file or on the cases of a recording:
//!
//! ```text
//! cargo run --release -p shapecheck-tflite --example model -- MODEL.tflite INPUTS.json
//! cargo run --release -p shapecheck-tflite --example model -- MODEL.tflite RECORDING.json
//! cargo run --release -p shapecheck-tflite --example model -- MODEL.tflite --plan PLAN.svg
//! ```
//!
//! INPUTS.json is a list with one tensor per model input, in order, each
//! `{"shape": [...], "dtype": "int8" | "int16" | "int32" | "float32",
//! "data": [...]}`, of the model's input type (an int8 model is fed int8, a
//! 16x8 model int16). The outputs are printed on stdout as a list of
//! tensors in the same form.
//!
//! RECORDING.json is a file of outputs TFLite Micro recorded, as the
//! project's model sets hold them (`tiny/<model>.json`,
//! `tests/ops/<model>.json`): `{"input": {"shape", "dtype", ...}, "cases":
//! [{"name", "input", "out", "tensors"}, ...]}`, each case's `input` the
//! model's one input and `out` its output 0 (a model's other outputs, when
//! recorded, are under `tensors` by their tensor index). The runner runs
//! every case and prints one line per case, saying whether the outputs
//! agree with the recorded ones (integers exactly, f32 within 1 ulp), then
//! a line with the count; it exits with code 2 when a case disagrees.
//!
//! `--plan PLAN.svg` draws where the streamed plan (the schedule search's least RAM within its estimated 1.10x, `Goal::Default`; `model!`'s with `ram = N` at its size) puts the model's
//! int8 activations (each whole one a box from the operator that writes
//! it to the last that reads it, at its offset, labelled with its tensor,
//! name, bytes and offset where they fit; each streamed run's rings a grey
//! box over its operators; a layer written over its input in its input's
//! box, its scratch a yellow one; the arena, the liveness floor and the
//! bytes live at each operator as lines; a legend under the plot) into
//! PLAN.svg, and prints the streamed plan's arena, the layer-by-layer
//! one's and the floor's bytes.
//!
//! A file that cannot be read, a file that is not a model, bad JSON,
//! inputs of the wrong count, shape or type, or an op the interpreter does
//! not run: a one-line message on stderr and exit code 1.

use std::process::ExitCode;

#[path = "support/plan_svg.rs"]
mod plan_svg;

use serde_json::{json, Value};
use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Layout, Model, PlannedBuffers, PreparedStep,
    QuantizedMultiplier, TensorData, TensorType,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(Report::Outputs(outputs)) => {
            println!("[{}]", outputs.join(","));
            ExitCode::SUCCESS
        }
        Ok(Report::Cases(cases)) => {
            for case in &cases {
                println!("{}", case.line);
            }
            let agree = cases.iter().filter(|case| case.agrees).count();
            println!(
                "{agree} of {} cases agree with the recorded outputs",
                cases.len()
            );
            if agree == cases.len() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(message) => {
            eprintln!("model: {message}");
            ExitCode::FAILURE
        }
    }
}

/// What a run prints: the outputs of the inputs of a list of tensors, or
/// one line per case of a recording.
enum Report {
    /// each output a compact JSON object `{"shape", "dtype", "data"}` in
    /// that order (serde_json's `Value` would sort the keys)
    Outputs(Vec<String>),
    /// each case of the recording, in order
    Cases(Vec<Case>),
}

/// One case of a recording, run.
struct Case {
    /// `case 3 "smooth 3": agrees with the recorded output (120 values)`
    line: String,
    /// every output compared agrees with the recorded one
    agrees: bool,
}

/// The interpreter's buffers, of the sizes the model needs.
struct Buffers<'m> {
    int8: Vec<i8>,
    int16: Vec<i16>,
    int32: Vec<i32>,
    float32: Vec<f32>,
    places: Vec<usize>,
    steps: Vec<PreparedStep<'m>>,
    multipliers: Vec<QuantizedMultiplier>,
    scratch: Vec<usize>,
}

impl<'m> Buffers<'m> {
    /// The buffers of the planned interpreter (`Layout::Packed`: the
    /// planner's arena, every operator prepared once), or its error as
    /// text.
    fn for_model(model: &Model<'m>) -> Result<Buffers<'m>, String> {
        let mut scratch = vec![0usize; Interpreter::plan_scratch_len(model)];
        let sizes = Interpreter::planned_sizes(model, Layout::Packed, &mut scratch)
            .map_err(|e| e.to_string())?;
        Ok(Buffers {
            int8: vec![0i8; sizes.arena.int8],
            int16: vec![0i16; sizes.arena.int16],
            int32: vec![0i32; sizes.arena.int32],
            float32: vec![0f32; sizes.arena.float32],
            places: vec![0usize; sizes.places],
            steps: vec![PreparedStep::EMPTY; sizes.steps],
            multipliers: vec![QuantizedMultiplier::ZERO; sizes.multipliers],
            scratch,
        })
    }

    /// The interpreter of `model` in these buffers, or its error as text.
    fn interpreter(&mut self, model: Model<'m>) -> Result<Interpreter<'m, '_>, String> {
        let arena = Arena {
            int8: &mut self.int8,
            int16: &mut self.int16,
            int32: &mut self.int32,
            float32: &mut self.float32,
            multipliers: &mut [],
        };
        let buffers = PlannedBuffers {
            places: &mut self.places,
            steps: &mut self.steps,
            multipliers: &mut self.multipliers,
        };
        Interpreter::planned(
            model,
            arena,
            buffers,
            &mut self.scratch,
            Layout::Packed,
            Arithmetic::Micro,
        )
        .map_err(|e| e.to_string())
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

/// Reads the model and the JSON file, and runs the model on the file's
/// inputs (a list of tensors) or on each of its cases (a recording).
fn run(args: &[String]) -> Result<Report, String> {
    if let [model_path, flag, svg_path] = args {
        if flag == "--plan" {
            return draw_plan(model_path, svg_path).map(|line| Report::Outputs(vec![line]));
        }
    }
    let [model_path, inputs_path] = args else {
        return Err(
            "usage: model MODEL.tflite INPUTS.json|RECORDING.json, or model MODEL.tflite --plan PLAN.svg"
                .into(),
        );
    };
    let bytes = std::fs::read(model_path).map_err(|e| format!("cannot read {model_path}: {e}"))?;
    let model = Model::parse(&bytes).map_err(|e| format!("{model_path}: {e}"))?;
    let text = std::fs::read_to_string(inputs_path)
        .map_err(|e| format!("cannot read {inputs_path}: {e}"))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{inputs_path}: not JSON: {e}"))?;
    if json.get("cases").is_some() {
        run_recording(model, model_path, &json, inputs_path).map(Report::Cases)
    } else {
        run_inputs(model, model_path, &json, inputs_path).map(Report::Outputs)
    }
}

/// Runs the model on a list of input tensors; returns its outputs.
fn run_inputs(
    model: Model<'_>,
    model_path: &str,
    json: &Value,
    inputs_path: &str,
) -> Result<Vec<String>, String> {
    let tensors = json.as_array().ok_or(format!(
        "{inputs_path}: not a list of tensors, nor a recording (an object with \"cases\")"
    ))?;
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

    let mut buffers = Buffers::for_model(&model).map_err(|e| format!("{model_path}: {e}"))?;
    let mut interpreter = buffers
        .interpreter(model)
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

/// Runs the model on every case of a recording (`{"input": {"shape",
/// "dtype", ...}, "cases": [{"name", "input", "out", "tensors"}]}`) and
/// compares its outputs with the recorded ones: output 0 with `out`, any
/// other output with `tensors`' entry of its tensor index, when there is
/// one.
fn run_recording(
    model: Model<'_>,
    model_path: &str,
    json: &Value,
    recording_path: &str,
) -> Result<Vec<Case>, String> {
    let count = model.inputs().len();
    if count != 1 {
        return Err(format!(
            "{recording_path}: a recording feeds one input, and the model takes {count}"
        ));
    }
    let cases = json["cases"]
        .as_array()
        .ok_or(format!("{recording_path}: \"cases\" is not a list"))?;
    let header = &json["input"];
    let inputs = cases
        .iter()
        .enumerate()
        .map(|(n, case)| {
            let tensor = json!({
                "shape": header["shape"],
                "dtype": header["dtype"],
                "data": case["input"],
            });
            read_input(&model, 0, &tensor).map_err(|e| format!("{recording_path}: case {n}: {e}"))
        })
        .collect::<Result<Vec<Input>, String>>()?;

    let mut buffers = Buffers::for_model(&model).map_err(|e| format!("{model_path}: {e}"))?;
    let mut interpreter = buffers
        .interpreter(model)
        .map_err(|e| format!("{model_path}: {e}"))?;
    let mut report = Vec::new();
    for (n, (case, input)) in cases.iter().zip(&inputs).enumerate() {
        interpreter
            .set_input(0, input.data())
            .map_err(|e| format!("{recording_path}: case {n}: {e}"))?;
        interpreter
            .invoke()
            .map_err(|e| format!("{model_path}: case {n}: {e}"))?;
        let name = case["name"].as_str().unwrap_or("");
        let mut disagreements = Vec::new();
        let mut values = 0;
        for k in 0..model.outputs().len() {
            let tensor = model
                .output(k)
                .ok_or(format!("{model_path}: no output {k}"))?;
            let recorded = if k == 0 {
                &case["out"]
            } else {
                &case["tensors"][tensor.index().to_string()]["data"]
            };
            let Some(recorded) = recorded.as_array() else {
                if k == 0 {
                    return Err(format!("{recording_path}: case {n}: no \"out\" list"));
                }
                continue; // this output is not recorded
            };
            let output = interpreter.output(k).ok_or(format!(
                "{model_path}: output {k} (tensor {}) is not an activation",
                tensor.index()
            ))?;
            values += recorded.len();
            if let Some(difference) = compare(output, recorded) {
                disagreements.push(format!("output {k} {difference}"));
            }
        }
        let line = if disagreements.is_empty() {
            format!("case {n} \"{name}\": agrees with the recorded output ({values} values)")
        } else {
            format!(
                "case {n} \"{name}\": disagrees with the recorded output: {}",
                disagreements.join("; ")
            )
        };
        report.push(Case {
            line,
            agrees: disagreements.is_empty(),
        });
    }
    Ok(report)
}

/// `None` when `output` agrees with `recorded` (integers exactly, f32
/// within 1 ulp); else what differs: the count, and the first.
fn compare(output: TensorData<'_>, recorded: &[Value]) -> Option<String> {
    if output.len() != recorded.len() {
        return Some(format!(
            "has {} values, and {} are recorded",
            output.len(),
            recorded.len()
        ));
    }
    // each value as text, with whether it agrees
    let integers = |d: Vec<i64>| -> Vec<(String, String, bool)> {
        d.iter()
            .zip(recorded)
            .map(|(&x, r)| (x.to_string(), r.to_string(), r.as_i64() == Some(x)))
            .collect()
    };
    let pairs: Vec<(String, String, bool)> = match output {
        TensorData::Int8(d) => integers(d.iter().map(|&x| i64::from(x)).collect()),
        TensorData::Int16(d) => integers(d.iter().map(|&x| i64::from(x)).collect()),
        TensorData::Int32(d) => integers(d.iter().map(|&x| i64::from(x)).collect()),
        TensorData::Float32(d) => d
            .iter()
            .zip(recorded)
            .map(|(&x, r)| {
                let agrees = r.as_f64().is_some_and(|r| within_one_ulp(x, r as f32));
                (x.to_string(), r.to_string(), agrees)
            })
            .collect(),
    };
    let wrong: Vec<usize> = (0..pairs.len()).filter(|&i| !pairs[i].2).collect();
    let &first = wrong.first()?;
    let (ours, theirs, _) = &pairs[first];
    Some(format!(
        "differs at {} of {} values, the first at index {first}: {ours}, recorded {theirs}",
        wrong.len(),
        pairs.len()
    ))
}

/// `a` and `b` are the same f32 or neighbours (both NaN counts as the
/// same).
fn within_one_ulp(a: f32, b: f32) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    // the f32s in order as integers: -0.0 and 0.0 both 0
    let ordered = |x: f32| {
        let bits = i64::from(x.to_bits() as i32);
        if bits < 0 {
            i64::from(i32::MIN) - bits
        } else {
            bits
        }
    };
    (ordered(a) - ordered(b)).abs() <= 1
}

/// `--plan`: the plan's picture into `svg_path`; the line printed says
/// where it went and the arena's and the floor's bytes, as JSON.
fn draw_plan(model_path: &str, svg_path: &str) -> Result<String, String> {
    let bytes = std::fs::read(model_path).map_err(|e| format!("cannot read {model_path}: {e}"))?;
    let model = Model::parse(&bytes).map_err(|e| format!("{model_path}: {e}"))?;
    let title = std::path::Path::new(model_path)
        .file_stem()
        .map_or(model_path.into(), |s| s.to_string_lossy());
    // the streamed plan's arena (model!'s RAM_BYTES), the layer-by-layer
    // one's (the interpreter's, schedule = layers) and the floor
    let plan = |goal| {
        shapecheck_tflite::schedule::Schedule::search(&model, goal)
            .map_err(|e| format!("{model_path}: {e}"))
    };
    let default = plan(shapecheck_tflite::schedule::Goal::Default)?;
    let layers = plan(shapecheck_tflite::schedule::Goal::Layers)?;
    let svg =
        plan_svg::plan_svg(&model, &default, &title).map_err(|e| format!("{model_path}: {e}"))?;
    std::fs::write(svg_path, &svg).map_err(|e| format!("cannot write {svg_path}: {e}"))?;
    Ok(format!(
        "{{\"plan\":{},\"arena_bytes\":{},\"layers_bytes\":{},\"floor_bytes\":{}}}",
        json!(svg_path),
        default.arena,
        layers.arena,
        default.floor
    ))
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
