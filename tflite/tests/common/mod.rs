//! Runs a model with the `Interpreter` on the cases of a recording of
//! TFLite Micro (`{"cases": [{"name", "input", "out", "tensors"?}]}`) and
//! compares, bit for bit, the output and every recorded activation.

use serde_json::Value;
use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Layout, Model, Plan, PlannedBuffers, PreparedStep,
    QuantizedMultiplier, TensorData, TensorType,
};

/// A recorded tensor's data, each value rounded to the nearest f32 (int8
/// values are exact; the recording prints some f32 outputs with an f64's
/// digits, and the golden value is the f32 TFLite Micro writes).
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("a list of numbers")
        .iter()
        .map(|x| f64::from(x.as_f64().expect("a number") as f32))
        .collect()
}

/// Whether our value is TFLite Micro's, to the bit: integers exactly, f32
/// values as f32 bit patterns (so −0 is not 0). The f32 functions TFLite
/// Micro's float kernels call from the C library (`expf`, `expm1f`) are
/// computed as that library computes them (`float_math.rs`).
fn agree(ours: f64, theirs: f64, float: bool) -> bool {
    if float {
        (ours as f32).to_bits() == (theirs as f32).to_bits()
    } else {
        ours == theirs
    }
}

fn is_float(d: &TensorData<'_>) -> bool {
    matches!(d, TensorData::Float32(_))
}

fn data_as_f64(d: TensorData<'_>) -> Vec<f64> {
    match d {
        TensorData::Int8(d) => d.iter().map(|&x| f64::from(x)).collect(),
        TensorData::Int16(d) => d.iter().map(|&x| f64::from(x)).collect(),
        TensorData::Int32(d) => d.iter().map(|&x| f64::from(x)).collect(),
        TensorData::Float32(d) => d.iter().map(|&x| f64::from(x)).collect(),
    }
}

/// Runs every case of `recording` through `bytes`' model six ways: the
/// interpreter preparing each operator as it runs, the interpreter with
/// every operator prepared once into the test's buffers
/// (`Interpreter::prepared`), on a `Plan` prepared once with each layout,
/// and laid out and prepared with no heap with each layout
/// (`Interpreter::planned`; the debug layout's every tensor, the packed
/// one's outputs, whose intermediate tensors share memory). Checks that
/// the packed `Plan` and the packed `planned` put every tensor at the
/// same offset. Returns how
/// many tensors were compared. Panics naming the way, the case, the tensor
/// and the first element that differs.
pub fn check_recording(bytes: &[u8], recording: &Value, label: &str) -> usize {
    let model = Model::parse(bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
    let mut compared = check_with(
        model,
        Way::EachRun,
        recording,
        &format!("{label} (as it runs)"),
    );
    compared += check_with(
        model,
        Way::Prepared,
        recording,
        &format!("{label} (prepared)"),
    );
    for layout in [Layout::Debug, Layout::Packed] {
        let plan = Plan::new(model, Arithmetic::Micro, layout)
            .unwrap_or_else(|e| panic!("{label} ({layout:?} plan): {e}"));
        let plan_label = format!("{label} ({layout:?} plan)");
        compared += check_with(model, Way::Plan(&plan), recording, &plan_label);
        let planned_label = format!("{label} (planned {layout:?})");
        compared += check_with(model, Way::Planned(layout), recording, &planned_label);
    }
    assert_same_places(model, label);
    compared
}

/// Each tensor's offset in its type's buffer, read from where
/// `interpreter.tensor` points, `None` for a tensor without a place.
fn offsets(
    interpreter: &Interpreter<'_, '_>,
    bases: [usize; 4],
) -> Vec<Option<(TensorType, usize, usize)>> {
    (0..interpreter.model().tensor_count())
        .map(|i| {
            let d = interpreter.tensor(i)?;
            let (ptr, size, base) = match d {
                TensorData::Int8(s) => (s.as_ptr() as usize, 1, bases[0]),
                TensorData::Int16(s) => (s.as_ptr() as usize, 2, bases[1]),
                TensorData::Int32(s) => (s.as_ptr() as usize, 4, bases[2]),
                TensorData::Float32(s) => (s.as_ptr() as usize, 4, bases[3]),
            };
            Some((d.dtype(), (ptr - base) / size, d.len()))
        })
        .collect()
}

/// The packed `Plan` (on the heap) and the packed `Interpreter::planned`
/// (no heap) put every tensor of `model` at the same offset, in buffers
/// of the same lengths.
fn assert_same_places(model: Model<'_>, label: &str) {
    let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).unwrap();
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let planned = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch).unwrap();
    assert_eq!(
        planned.arena,
        plan.arena_sizes(),
        "{label}: the planned sizes"
    );
    assert_eq!(
        planned.activation_bytes,
        plan.activation_bytes(),
        "{label}: the activation bytes"
    );
    let sizes = plan.arena_sizes();
    let mut places = Vec::new();
    for heapless in [false, true] {
        let mut int8 = vec![0i8; sizes.int8];
        let mut int16 = vec![0i16; sizes.int16];
        let mut int32 = vec![0i32; sizes.int32];
        let mut float32 = vec![0f32; sizes.float32];
        let bases = [
            int8.as_ptr() as usize,
            int16.as_ptr() as usize,
            int32.as_ptr() as usize,
            float32.as_ptr() as usize,
        ];
        let arena = Arena {
            int8: &mut int8,
            int16: &mut int16,
            int32: &mut int32,
            float32: &mut float32,
            multipliers: &mut [],
        };
        let mut tensor_places = vec![0usize; planned.places];
        let mut steps = vec![PreparedStep::EMPTY; planned.steps];
        let mut multipliers = vec![QuantizedMultiplier::ZERO; planned.multipliers];
        let interpreter = if heapless {
            let buffers = PlannedBuffers {
                places: &mut tensor_places,
                steps: &mut steps,
                multipliers: &mut multipliers,
            };
            Interpreter::planned(
                model,
                arena,
                buffers,
                &mut scratch,
                Layout::Packed,
                Arithmetic::Micro,
            )
        } else {
            Interpreter::with_plan(&plan, arena)
        }
        .unwrap_or_else(|e| panic!("{label}: {e}"));
        places.push(offsets(&interpreter, bases));
    }
    assert!(
        places[0].iter().any(Option::is_some),
        "{label}: no tensor placed"
    );
    assert_eq!(
        places[0], places[1],
        "{label}: the packed places of Plan and planned"
    );
}

/// How `check_with` makes its interpreter.
#[derive(Clone, Copy)]
enum Way<'p, 'm> {
    /// `Interpreter::new`: each operator prepared as it runs
    EachRun,
    /// `Interpreter::prepared`: every operator prepared once, in buffers
    /// the test owns
    Prepared,
    /// `Interpreter::with_plan`
    Plan(&'p Plan<'m>),
    /// `Interpreter::planned`: laid out and prepared with no heap, in
    /// buffers the test owns
    Planned(Layout),
}

/// One way of `check_recording`.
fn check_with(model: Model<'_>, way: Way<'_, '_>, recording: &Value, label: &str) -> usize {
    let plan = match way {
        Way::Plan(plan) => Some(plan),
        Way::EachRun | Way::Prepared | Way::Planned(_) => None,
    };
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let sizes = match (plan, way) {
        (Some(plan), _) => plan.arena_sizes(),
        (None, Way::Planned(layout)) => {
            Interpreter::planned_sizes(&model, layout, &mut scratch)
                .unwrap()
                .arena
        }
        (None, _) => Interpreter::arena_sizes(&model).unwrap(),
    };
    let mut places = vec![0usize; model.tensor_count()];
    let prepared_sizes = Interpreter::prepared_sizes(&model).unwrap();
    let mut steps = vec![PreparedStep::EMPTY; prepared_sizes.steps];
    let mut all_multipliers = vec![QuantizedMultiplier::ZERO; prepared_sizes.multipliers];
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
    let mut interpreter = match way {
        Way::Plan(plan) => Interpreter::with_plan(plan, arena),
        Way::EachRun => Interpreter::new(model, arena, Arithmetic::Micro),
        Way::Prepared => Interpreter::prepared(
            model,
            arena,
            &mut steps,
            &mut all_multipliers,
            Arithmetic::Micro,
        ),
        Way::Planned(layout) => Interpreter::planned(
            model,
            arena,
            PlannedBuffers {
                places: &mut places,
                steps: &mut steps,
                multipliers: &mut all_multipliers,
            },
            &mut scratch,
            layout,
            Arithmetic::Micro,
        ),
    }
    .unwrap_or_else(|e| panic!("{label}: {e}"));
    // the packed layout keeps the inputs and outputs only
    let every_tensor = match way {
        Way::Plan(p) => p.layout() == Layout::Debug,
        Way::Planned(layout) => layout == Layout::Debug,
        Way::EachRun | Way::Prepared => true,
    };
    let input = model.input(0).unwrap();
    let cases = recording["cases"].as_array().expect("cases");
    assert!(!cases.is_empty(), "{label}: no cases");
    let mut compared = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let values = numbers(&case["input"]);
        match input.dtype() {
            TensorType::Int8 => {
                let x: Vec<i8> = values.iter().map(|&v| v as i8).collect();
                interpreter.set_input(0, TensorData::Int8(&x)).unwrap();
            }
            TensorType::Int16 => {
                let x: Vec<i16> = values.iter().map(|&v| v as i16).collect();
                interpreter.set_input(0, TensorData::Int16(&x)).unwrap();
            }
            TensorType::Int32 => {
                let x: Vec<i32> = values.iter().map(|&v| v as i32).collect();
                interpreter.set_input(0, TensorData::Int32(&x)).unwrap();
            }
            _ => {
                let x: Vec<f32> = values.iter().map(|&v| v as f32).collect();
                interpreter.set_input(0, TensorData::Float32(&x)).unwrap();
            }
        }
        interpreter
            .invoke()
            .unwrap_or_else(|e| panic!("{label} {name}: {e}"));
        let output = interpreter.output(0).unwrap();
        let float = is_float(&output);
        let out = data_as_f64(output);
        let want = numbers(&case["out"]);
        assert_eq!(out.len(), want.len(), "{label} {name}: the output's length");
        if let Some(k) = (0..want.len()).find(|&k| !agree(out[k], want[k], float)) {
            panic!(
                "{label} {name}: the output differs first at element {k} of {}: ours {}, TFLite Micro's {}",
                want.len(),
                out[k],
                want[k]
            );
        }
        compared += 1;
        if let Some(tensors) = case["tensors"].as_object().filter(|_| every_tensor) {
            for (index, t) in tensors {
                let i: usize = index.parse().unwrap();
                let Some(ours) = interpreter.tensor(i) else {
                    continue; // the input, a constant, or a tensor folded away
                };
                let theirs = numbers(&t["data"]);
                let float = is_float(&ours);
                let ours = data_as_f64(ours);
                if let Some(k) = (0..theirs.len())
                    .find(|&k| !ours.get(k).is_some_and(|&o| agree(o, theirs[k], float)))
                {
                    panic!(
                        "{label} {name}: tensor {i} \"{}\" differs first at element {k} of {}: ours {:?}, TFLite Micro's {}",
                        t["name"], theirs.len(), ours.get(k), theirs[k]
                    );
                }
                assert_eq!(ours.len(), theirs.len(), "{label} {name}: tensor {i}");
                compared += 1;
            }
        }
    }
    compared
}

/// A JSON file.
pub fn read_json(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}
