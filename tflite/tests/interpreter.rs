//! The three models of tests/models/ run by the `Interpreter` from their
//! files alone, against what TFLite recorded (tests/outputs/, copies of
//! /work/shared/models' JSON, whose README gives how): every output and
//! every intermediate tensor, on every public input.
//!
//! - sine_float.tflite: within 1e-5 relative of TensorFlow 2.21's reference
//!   interpreter (float sums may differ in order);
//! - sine.tflite and speech.tflite: with `Arithmetic::Micro`, bit for bit
//!   TFLite Micro's output (`out_tflm`, or `out` where it did not differ);
//!   with `Arithmetic::Reference`, bit for bit every tensor of TensorFlow
//!   2.21's reference interpreter.

use serde_json::Value;
use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Layout, Model, OperandProblem, PlannedBuffers, PreparedStep,
    QuantizedMultiplier, TensorData, TensorType, TfliteError,
};

const SINE_FLOAT: &[u8] = include_bytes!("models/sine_float.tflite");
const SINE: &[u8] = include_bytes!("models/sine.tflite");
const SPEECH: &[u8] = include_bytes!("models/speech.tflite");
const PERSON: &[u8] = include_bytes!("models/person_detect.tflite");

fn outputs(file: &str) -> Value {
    let path = format!("{}/tests/outputs/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the outputs")).expect("JSON")
}

fn ints(v: &Value) -> Vec<i8> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| i8::try_from(x.as_i64().expect("an integer")).expect("int8"))
        .collect()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_f64().expect("a number") as f32)
        .collect()
}

/// The buffers a model needs, owned by the test.
struct Buffers {
    int8: Vec<i8>,
    float32: Vec<f32>,
    multipliers: Vec<QuantizedMultiplier>,
}

impl Buffers {
    fn for_model(model: &Model<'_>) -> Buffers {
        let sizes = Interpreter::arena_sizes(model).unwrap();
        Buffers {
            int8: vec![0; sizes.int8],
            float32: vec![0.0; sizes.float32],
            multipliers: vec![QuantizedMultiplier::ZERO; sizes.multipliers],
        }
    }

    fn arena(&mut self) -> Arena<'_> {
        Arena {
            int8: &mut self.int8,
            float32: &mut self.float32,
            multipliers: &mut self.multipliers,
            ..Arena::default()
        }
    }
}

/// The buffers `Interpreter::prepared` prepares a model into, owned by the
/// test.
struct Prepared {
    steps: Vec<PreparedStep<'static>>,
    multipliers: Vec<QuantizedMultiplier>,
}

impl Prepared {
    fn for_model(model: &Model<'_>) -> Prepared {
        let sizes = Interpreter::prepared_sizes(model).unwrap();
        Prepared {
            steps: vec![PreparedStep::EMPTY; sizes.steps],
            multipliers: vec![QuantizedMultiplier::ZERO; sizes.multipliers],
        }
    }
}

/// The interpreter of `model` in `buffers` the way `prepared` says:
/// `Interpreter::prepared` into `steps`, or `Interpreter::new`.
// the constructors' own result, error and all
#[allow(clippy::result_large_err)]
fn interpreter<'m, 'a>(
    model: Model<'m>,
    buffers: &'a mut Buffers,
    steps: &'a mut [PreparedStep<'m>],
    multipliers: &'a mut [QuantizedMultiplier],
    arithmetic: Arithmetic,
    prepared: bool,
) -> Result<Interpreter<'m, 'a>, TfliteError> {
    if prepared {
        Interpreter::prepared(model, buffers.arena(), steps, multipliers, arithmetic)
    } else {
        Interpreter::new(model, buffers.arena(), arithmetic)
    }
}

/// The error both constructors give for `model` (`new`'s and
/// `prepared`'s, asserted equal).
fn construct_error(model: Model<'_>) -> TfliteError {
    let mut buffers = Buffers::for_model(&model);
    let each_run = Interpreter::new(model, buffers.arena(), Arithmetic::Micro).unwrap_err();
    let sizes = Interpreter::prepared_sizes(&model).unwrap();
    let mut steps = vec![PreparedStep::EMPTY; sizes.steps];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let prepared = interpreter(
        model,
        &mut buffers,
        &mut steps,
        &mut multipliers,
        Arithmetic::Micro,
        true,
    )
    .unwrap_err();
    assert_eq!(prepared, each_run);
    each_run
}

/// Runs `bytes` on `input` (the case's `input` tensor); returns the
/// interpreter's data for each index the case's `tensors` list, and the output.
/// Both constructors run it (`new` and `prepared`), and must agree.
fn run(bytes: &[u8], case: &Value, arithmetic: Arithmetic) -> (Vec<(usize, Value)>, Value) {
    let each_run = run_with(bytes, case, arithmetic, false);
    let prepared = run_with(bytes, case, arithmetic, true);
    assert_eq!(prepared, each_run, "Interpreter::prepared against new");
    each_run
}

/// `run` through `Interpreter::prepared` or `Interpreter::new`.
fn run_with(
    bytes: &[u8],
    case: &Value,
    arithmetic: Arithmetic,
    prepared: bool,
) -> (Vec<(usize, Value)>, Value) {
    let model = Model::parse(bytes).unwrap();
    let mut buffers = Buffers::for_model(&model);
    let sizes = Interpreter::prepared_sizes(&model).unwrap();
    let mut steps = vec![PreparedStep::EMPTY; sizes.steps];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let mut interpreter = interpreter(
        model,
        &mut buffers,
        &mut steps,
        &mut multipliers,
        arithmetic,
        prepared,
    )
    .unwrap();
    let input = &case["input"];
    match input["dtype"].as_str().unwrap() {
        "int8" => interpreter
            .set_input(0, TensorData::Int8(&ints(&input["data"])))
            .unwrap(),
        "float32" => interpreter
            .set_input(0, TensorData::Float32(&floats(&input["data"])))
            .unwrap(),
        other => panic!("dtype {other}"),
    }
    interpreter.invoke().unwrap();
    let json = |d: TensorData<'_>| match d {
        TensorData::Int8(v) => serde_json::json!(v),
        TensorData::Int16(v) => serde_json::json!(v),
        TensorData::Int32(v) => serde_json::json!(v),
        TensorData::Float32(v) => serde_json::json!(v),
    };
    let tensors = case["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let index = t["index"].as_u64().unwrap() as usize;
            let data = interpreter
                .tensor(index)
                .unwrap_or_else(|| panic!("no tensor {index}"));
            (index, json(data))
        })
        .collect();
    (tensors, json(interpreter.output(0).unwrap()))
}

#[test]
fn sine_float_matches_the_interpreter_on_every_tensor_within_1e_5() {
    let file = outputs("sine_outputs.json");
    let model = &file["models"]["sine_float"];
    assert_eq!(model["file"], "sine_float.tflite");
    let cases = model["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 64);
    let (mut compared, mut exact) = (0, 0);
    for case in cases {
        let (tensors, out) = run(SINE_FLOAT, case, Arithmetic::Micro);
        let recorded = case["tensors"].as_array().unwrap();
        assert_eq!(tensors.len(), 4);
        for ((index, got), want) in tensors.iter().zip(recorded) {
            let (got, want) = (floats(got), floats(&want["data"]));
            assert_eq!(got.len(), want.len(), "tensor {index}");
            for (g, w) in got.iter().zip(&want) {
                let tolerance = 1e-5 * w.abs().max(1e-3);
                assert!(
                    (g - w).abs() <= tolerance,
                    "x = {}, tensor {index}: {g} vs {w}",
                    case["x"]
                );
                compared += 1;
                exact += usize::from(g == w);
            }
        }
        assert_eq!(floats(&out), floats(&case["out"]["data"]));
    }
    assert_eq!(compared, 64 * (1 + 16 + 16 + 1));
    // the reference kernel's order of summation: every value the same bits
    assert_eq!(exact, compared);
}

/// The int8 models: each case's output with TFLite Micro's arithmetic, and
/// every tensor with the reference interpreter's. Returns how many outputs
/// TFLite Micro gave differently from the reference interpreter.
fn int8_model(name: &str, file: &str, bytes: &[u8], count: usize) -> usize {
    let file = outputs(file);
    let model = &file["models"][name];
    let cases = model["cases"].as_array().unwrap();
    assert_eq!(cases.len(), count);
    let mut tflm_differs = 0;
    for (n, case) in cases.iter().enumerate() {
        let out = ints(&case["out"]["data"]);
        let tflm = case
            .get("out_tflm")
            .map_or(out.clone(), |t| ints(&t["data"]));
        tflm_differs += usize::from(tflm != out);

        let (_, micro) = run(bytes, case, Arithmetic::Micro);
        assert_eq!(ints(&micro), tflm, "{name} case {n}: TFLite Micro's output");

        let (tensors, reference) = run(bytes, case, Arithmetic::Reference);
        assert_eq!(
            ints(&reference),
            out,
            "{name} case {n}: the interpreter's output"
        );
        let recorded = case["tensors"].as_array().unwrap();
        assert_eq!(tensors.len(), recorded.len());
        for ((index, got), want) in tensors.iter().zip(recorded) {
            assert_eq!(
                ints(got),
                ints(&want["data"]),
                "{name} case {n}: tensor {index} {}",
                want["name"]
            );
        }
    }
    tflm_differs
}

#[test]
fn sine_int8_matches_tflite_micro_and_every_tensor_of_the_interpreter() {
    // the two inputs whose ties the roundings break apart
    assert_eq!(int8_model("sine_int8", "sine_outputs.json", SINE, 64), 2);
}

#[test]
fn speech_matches_tflite_micro_and_every_tensor_of_the_interpreter() {
    // 20 inputs; TFLite Micro never differed; every intermediate
    // (reshape, ReLU'd depthwise convolution, logits, softmax) compared
    assert_eq!(int8_model("speech", "speech_outputs.json", SPEECH, 20), 0);
}

#[test]
fn speech_gives_microflow_s_cross_check() {
    // the models README: every input 0.5 (−123) gives [−88, −58, −58, −52]
    let model = Model::parse(SPEECH).unwrap();
    let mut buffers = Buffers::for_model(&model);
    let mut interpreter = Interpreter::new(model, buffers.arena(), Arithmetic::Micro).unwrap();
    interpreter
        .set_input(0, TensorData::Int8(&[-123; 1960]))
        .unwrap();
    interpreter.invoke().unwrap();
    assert_eq!(
        interpreter.output(0),
        Some(TensorData::Int8(&[-88, -58, -58, -52]))
    );
}

#[test]
fn the_wrong_fully_connected_rounding_misses_tflite_micro() {
    // the sine cases where TFLite Micro differs: the reference arithmetic
    // gives the interpreter's output, not TFLite Micro's, so the test above
    // tells the two apart
    let file = outputs("sine_outputs.json");
    let cases = file["models"]["sine_int8"]["cases"].as_array().unwrap();
    let differing: Vec<&Value> = cases
        .iter()
        .filter(|c| c.get("out_tflm").is_some())
        .collect();
    assert_eq!(differing.len(), 2);
    for case in differing {
        let (_, reference) = run(SINE, case, Arithmetic::Reference);
        assert_ne!(ints(&reference), ints(&case["out_tflm"]["data"]));
    }
}

/// speech.tflite with the first run of bytes `from` that, turned into
/// `to`, gives a model `changed` accepts (the field the test means to
/// change, and it alone as far as `changed` looks).
fn patched_speech(from: &[u8], to: &[u8], changed: impl Fn(&Model<'_>) -> bool) -> Vec<u8> {
    let mut bytes = SPEECH.to_vec();
    for at in 0..bytes.len() - from.len() {
        if &bytes[at..at + from.len()] != from {
            continue;
        }
        bytes[at..at + from.len()].copy_from_slice(to);
        if Model::parse(&bytes).is_ok_and(|m| changed(&m)) {
            return bytes;
        }
        bytes[at..at + from.len()].copy_from_slice(from);
    }
    panic!("no bytes {from:?} to patch");
}

/// speech.tflite with its RESHAPE's operator code (deprecated_builtin_code
/// 22) turned into 15 (LSH_PROJECTION), an op the interpreter does not run.
fn speech_with_an_unsupported_op() -> Vec<u8> {
    let code = Model::parse(SPEECH)
        .unwrap()
        .operator(0)
        .unwrap()
        .opcode_index();
    patched_speech(&[22], &[15], |m| {
        let op0 = m.operator(0).unwrap();
        op0.op().code() == 15 && op0.opcode_index() == code
    })
}

#[test]
fn operands_that_do_not_fit_their_op_are_errors_naming_operator_and_tensor() {
    // the softmax's output zero point −128 (an i64) made −127
    let softmax_output = |m: &Model<'_>| m.tensor(9).unwrap().quantization().unwrap().zero_point(0);
    let bytes = patched_speech(&(-128i64).to_le_bytes(), &(-127i64).to_le_bytes(), |m| {
        softmax_output(m) == Some(-127)
    });
    let model = Model::parse(&bytes).unwrap();
    let err = construct_error(model);
    assert_eq!(
        err.to_string(),
        "operator 3 (SOFTMAX): its output, tensor 9 \"labels_softmax\": its quantization is not scale 1/256 and zero point −128 (TFLite's int8 softmax)"
    );

    // the depthwise convolution's stride 2 (an i32) made 3: the output's
    // rows are then 17, not the 25 the file says
    let stride_h = |m: &Model<'_>| match m.operator(1).unwrap().options() {
        shapecheck_tflite::Options::DepthwiseConv2d(o) => o.stride_h,
        _ => 0,
    };
    let bytes = patched_speech(&2i32.to_le_bytes(), &3i32.to_le_bytes(), |m| {
        stride_h(m) == 3
    });
    let model = Model::parse(&bytes).unwrap();
    let err = construct_error(model);
    assert_eq!(
        err.to_string(),
        "operator 1 (DEPTHWISE_CONV_2D): its output, tensor 2 \"Relu\": dim 1 of its shape is 25, not 17"
    );
}

/// `bytes` with the first byte `from` that, made `to`, gives a model
/// `changed` accepts.
fn patched(bytes: &[u8], from: u8, to: u8, changed: impl Fn(&Model<'_>) -> bool) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for at in 0..bytes.len() {
        if bytes[at] != from {
            continue;
        }
        bytes[at] = to;
        if Model::parse(&bytes).is_ok_and(|m| changed(&m)) {
            return bytes;
        }
        bytes[at] = from;
    }
    panic!("no byte {from} to patch");
}

/// A first input of a type no form of its op takes is refused naming
/// every type the op takes there: person detection's first layer
/// (`DEPTHWISE_CONV_2D`), its input made UINT8, runs on INT8, INT16 or
/// FLOAT32. Made FLOAT32, the input is one the op takes, but its int8
/// filter (a hybrid export's weights) is refused by the float kernel.
#[test]
fn an_input_type_the_op_does_not_take_names_those_it_takes() {
    let person = include_bytes!("models/person_detect.tflite");
    let input_is = |dtype: TensorType| {
        move |m: &Model<'_>| {
            let input = m.operator(0).unwrap().input(0).unwrap();
            m.tensor(input).unwrap().dtype() == dtype
        }
    };
    // TensorType's schema values: INT8 9, UINT8 3, FLOAT32 0
    let unsigned = patched(person, 9, 3, input_is(TensorType::Uint8));
    let err = construct_error(Model::parse(&unsigned).unwrap());
    assert_eq!(
        err.to_string(),
        "operator 0 (DEPTHWISE_CONV_2D): its input, tensor 88 \"input\": its type is UINT8, not INT8, INT16 or FLOAT32"
    );
    assert!(matches!(
        err,
        TfliteError::Operand {
            problem: OperandProblem::DtypeOneOf {
                expected: [TensorType::Int8, TensorType::Int16, TensorType::Float32],
                found: TensorType::Uint8
            },
            ..
        }
    ));
    let float = patched(person, 9, 0, input_is(TensorType::Float32));
    let err = construct_error(Model::parse(&float).unwrap());
    assert_eq!(
        err.to_string(),
        "operator 0 (DEPTHWISE_CONV_2D): its filter, tensor 0 \"MobilenetV1/Conv2d_0/weights/read\": its type is INT8, not FLOAT32"
    );
}

#[test]
fn an_op_it_does_not_run_is_an_error_naming_the_op_and_its_output() {
    let bytes = speech_with_an_unsupported_op();
    let model = Model::parse(&bytes).unwrap();
    let err = construct_error(model);
    assert!(matches!(
        err,
        TfliteError::UnsupportedOp {
            operator: 0,
            output: 4,
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "operator 0 (LSH_PROJECTION), writing tensor 4 \"Reshape_2\": `model!` and the `Interpreter` do not run LSH_PROJECTION (the ops they run are the rows of `shapecheck::tflite::OPS`)"
    );
}

#[test]
fn inputs_of_the_wrong_type_or_length_are_refused() {
    let model = Model::parse(SINE).unwrap();
    let mut buffers = Buffers::for_model(&model);
    let mut interpreter = Interpreter::new(model, buffers.arena(), Arithmetic::Micro).unwrap();
    let err = interpreter
        .set_input(0, TensorData::Int8(&[1, 2]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the model's input, tensor 0 \"serving_default_dense_2_input:0\": it has 1 elements, and the data given has 2"
    );
    let err = interpreter
        .set_input(0, TensorData::Float32(&[1.0]))
        .unwrap_err();
    assert!(
        err.to_string().ends_with("its type is FLOAT32, not INT8"),
        "{err}"
    );
    let err = interpreter
        .set_input(1, TensorData::Int8(&[1]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "subgraph 0: input index 1 is out of range (there are 1)"
    );
}

#[test]
fn a_short_arena_is_refused_before_anything_runs() {
    let model = Model::parse(SPEECH).unwrap();
    let mut buffers = Buffers::for_model(&model);
    buffers.multipliers.pop();
    let err = Interpreter::new(model, buffers.arena(), Arithmetic::Micro).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "multipliers",
            needed: 8,
            given: 7,
        }
    );
}

#[test]
fn short_prepared_buffers_are_refused_before_anything_is_prepared() {
    let model = Model::parse(SPEECH).unwrap();
    let mut buffers = Buffers::for_model(&model);
    let mut prepared = Prepared::for_model(&model);
    assert_eq!(
        (prepared.steps.len(), prepared.multipliers.len()),
        (4, 8 + 4)
    );
    prepared.steps.pop();
    let err = Interpreter::prepared(
        model,
        buffers.arena(),
        &mut prepared.steps,
        &mut prepared.multipliers,
        Arithmetic::Micro,
    )
    .unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "prepared steps",
            needed: 4,
            given: 3,
        }
    );
    assert!(prepared.steps.iter().all(|s| !s.is_prepared()));

    let mut prepared = Prepared::for_model(&model);
    prepared.multipliers.pop();
    let err = Interpreter::prepared(
        model,
        buffers.arena(),
        &mut prepared.steps,
        &mut prepared.multipliers,
        Arithmetic::Micro,
    )
    .unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "prepared multipliers",
            needed: 12,
            given: 11,
        }
    );
    assert!(prepared.steps.iter().all(|s| !s.is_prepared()));
}

#[test]
fn prepared_needs_no_multiplier_scratch_in_the_arena() {
    // every layer's multipliers are in the prepared buffer: the arena's
    // scratch may be empty, and the outputs are `new`'s
    let model = Model::parse(SPEECH).unwrap();
    let mut buffers = Buffers::for_model(&model);
    buffers.multipliers.clear();
    let mut prepared = Prepared::for_model(&model);
    let mut interpreter = Interpreter::prepared(
        model,
        buffers.arena(),
        &mut prepared.steps,
        &mut prepared.multipliers,
        Arithmetic::Micro,
    )
    .unwrap();
    interpreter
        .set_input(0, TensorData::Int8(&[-123; 1960]))
        .unwrap();
    interpreter.invoke().unwrap();
    assert_eq!(
        interpreter.output(0),
        Some(TensorData::Int8(&[-88, -58, -58, -52]))
    );
}

/// The buffers of `Interpreter::planned` for `model` laid out as `layout`
/// says, each as long as `planned_sizes` gives, the places filled with a
/// mark to see whether they were written.
struct Planned {
    int8: Vec<i8>,
    places: Vec<usize>,
    steps: Vec<PreparedStep<'static>>,
    multipliers: Vec<QuantizedMultiplier>,
    scratch: Vec<usize>,
}

const MARK: usize = 0x5a5a;

impl Planned {
    fn for_model(model: &Model<'_>, layout: Layout) -> Planned {
        let mut scratch = vec![0usize; Interpreter::plan_scratch_len(model)];
        let sizes = Interpreter::planned_sizes(model, layout, &mut scratch).unwrap();
        assert_eq!(
            (sizes.arena.int16, sizes.arena.int32, sizes.arena.float32),
            (0, 0, 0)
        );
        Planned {
            int8: vec![0; sizes.arena.int8],
            places: vec![MARK; sizes.places],
            steps: vec![PreparedStep::EMPTY; sizes.steps],
            multipliers: vec![QuantizedMultiplier::ZERO; sizes.multipliers],
            scratch,
        }
    }

    // the constructor's own result, error and all
    #[allow(clippy::result_large_err)]
    fn interpreter(
        &mut self,
        model: Model<'static>,
        layout: Layout,
    ) -> Result<Interpreter<'static, '_>, TfliteError> {
        let buffers = PlannedBuffers {
            places: &mut self.places,
            steps: &mut self.steps,
            multipliers: &mut self.multipliers,
        };
        let arena = Arena {
            int8: &mut self.int8,
            ..Arena::default()
        };
        Interpreter::planned(
            model,
            arena,
            buffers,
            &mut self.scratch,
            layout,
            Arithmetic::Micro,
        )
    }
}

#[test]
fn person_detection_plans_its_floor_without_a_heap() {
    let model = Model::parse(PERSON).unwrap();
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let packed = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch).unwrap();
    let debug = Interpreter::planned_sizes(&model, Layout::Debug, &mut scratch).unwrap();
    // the 96x96 input beside the liveness floor; each tensor at its own
    // place (the input too): 241,030, 4.4x the floor
    assert_eq!(packed.arena.int8, 9_216 + 55_296);
    assert_eq!(packed.activation_bytes, 55_296);
    assert_eq!(debug.arena.int8, 241_030);
    assert_eq!(
        debug.arena.int8,
        Interpreter::arena_sizes(&model).unwrap().int8
    );
    // the prepared steps' RAM is `prepared`'s
    let prepared = Interpreter::prepared_sizes(&model).unwrap();
    assert_eq!(
        (packed.steps, packed.multipliers),
        (prepared.steps, prepared.multipliers)
    );
    assert_eq!(packed.places, model.tensor_count());
    assert_eq!(
        (packed.places, Interpreter::plan_scratch_len(&model)),
        (89, 7 * 89)
    );

    // both layouts give the output of the interpreter that prepares as it runs
    let image: Vec<i8> = (0..96 * 96).map(|i| ((i * 7) % 256) as u8 as i8).collect();
    let mut outputs = Vec::new();
    for layout in [Layout::Packed, Layout::Debug] {
        let mut buffers = Planned::for_model(&model, layout);
        let mut interpreter = buffers.interpreter(model, layout).unwrap();
        interpreter.set_input(0, TensorData::Int8(&image)).unwrap();
        interpreter.invoke().unwrap();
        let Some(TensorData::Int8(out)) = interpreter.output(0) else {
            panic!("no int8 output")
        };
        outputs.push(out.to_vec());
    }
    let sizes = Interpreter::arena_sizes(&model).unwrap();
    let mut int8 = vec![0i8; sizes.int8];
    let mut m = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        multipliers: &mut m,
        ..Arena::default()
    };
    let mut interpreter = Interpreter::new(model, arena, Arithmetic::Micro).unwrap();
    interpreter.set_input(0, TensorData::Int8(&image)).unwrap();
    interpreter.invoke().unwrap();
    let Some(TensorData::Int8(want)) = interpreter.output(0) else {
        panic!("no int8 output")
    };
    assert_eq!(outputs, [want.to_vec(), want.to_vec()]);
}

#[test]
fn the_packed_layout_reuses_memory_and_the_debug_one_keeps_every_tensor() {
    let model = Model::parse(SPEECH).unwrap();
    let input = [-123i8; 1960];
    let mut packed = Planned::for_model(&model, Layout::Packed);
    let mut debug = Planned::for_model(&model, Layout::Debug);
    assert_eq!((packed.int8.len(), debug.int8.len()), (1960 + 4004, 7928));
    let mut p = packed.interpreter(model, Layout::Packed).unwrap();
    let mut d = debug.interpreter(model, Layout::Debug).unwrap();
    for i in [&mut p, &mut d] {
        i.set_input(0, TensorData::Int8(&input)).unwrap();
        i.invoke().unwrap();
        assert_eq!(i.output(0), Some(TensorData::Int8(&[-88, -58, -58, -52])));
    }
    // every activation has a place in both, by tensor index: the
    // convolution's output, the input and its reshape, the logits, the
    // scores (7,928 elements); the packed arena holds them in 5,964, the
    // debug one side by side
    let count = model.tensor_count();
    let placed = |i: &Interpreter<'_, '_>| {
        (0..count)
            .filter_map(|t| i.tensor(t))
            .map(|t| t.len())
            .collect::<Vec<_>>()
    };
    assert_eq!(placed(&p), [4000, 1960, 1960, 4, 4]);
    assert_eq!(placed(&p), placed(&d));
    // the debug layout keeps the convolution's output after the run
    let Some(TensorData::Int8(conv)) = d.tensor(2) else {
        panic!("no convolution output")
    };
    assert!(conv.iter().any(|&x| x != conv[0]));
}

#[test]
fn short_planned_buffers_are_refused_before_anything_is_written() {
    let model = Model::parse(SPEECH).unwrap();
    let count = model.tensor_count();
    // the scratch: 7 usizes a tensor
    let mut buffers = Planned::for_model(&model, Layout::Packed);
    buffers.scratch.pop();
    let err = buffers.interpreter(model, Layout::Packed).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "plan scratch",
            needed: 7 * count,
            given: 7 * count - 1
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "the plan scratch need {} elements, and their buffer has {}",
            7 * count,
            7 * count - 1
        )
    );
    assert!(buffers.places.iter().all(|&p| p == MARK));
    assert!(buffers.steps.iter().all(|s| !s.is_prepared()));

    // the places: one a tensor
    let mut buffers = Planned::for_model(&model, Layout::Packed);
    buffers.places.pop();
    let err = buffers.interpreter(model, Layout::Packed).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "tensor places",
            needed: count,
            given: count - 1
        }
    );
    assert!(buffers.places.iter().all(|&p| p == MARK));
    assert!(buffers.steps.iter().all(|s| !s.is_prepared()));

    // the steps, the multipliers, the activations
    let mut buffers = Planned::for_model(&model, Layout::Packed);
    buffers.steps.pop();
    let err = buffers.interpreter(model, Layout::Packed).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "prepared steps",
            needed: 4,
            given: 3
        }
    );
    assert!(buffers.places.iter().all(|&p| p == MARK));
    let mut buffers = Planned::for_model(&model, Layout::Packed);
    buffers.multipliers.pop();
    let err = buffers.interpreter(model, Layout::Packed).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "prepared multipliers",
            needed: 12,
            given: 11
        }
    );
    assert!(buffers.places.iter().all(|&p| p == MARK));
    let mut buffers = Planned::for_model(&model, Layout::Packed);
    buffers.int8.pop();
    let err = buffers.interpreter(model, Layout::Packed).unwrap_err();
    assert_eq!(
        err,
        TfliteError::Arena {
            what: "int8 activations",
            needed: 5964,
            given: 5963
        }
    );
    assert!(buffers.places.iter().all(|&p| p == MARK));
    assert!(buffers.steps.iter().all(|s| !s.is_prepared()));
    // the debug layout needs no scratch
    let mut buffers = Planned::for_model(&model, Layout::Debug);
    buffers.scratch.clear();
    assert!(buffers.interpreter(model, Layout::Debug).is_ok());
}
