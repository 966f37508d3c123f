//! The interpreter against `model!` on person detection (MobileNet v1
//! 0.25, 96×96×1 int8, 7.2 M multiply-accumulates), on the host, the same
//! kernels: `model!`'s `predict` (its layers and constants written as Rust
//! when it expands; by default every layer whole, 55,296 B of
//! activations) is the floor, beside
//!
//! - `model!`'s `predict` streamed (`ram = 14_208`: two streamed runs,
//!   14,208 B);
//! - `Interpreter::with_plan`'s `invoke` on a `Plan` prepared once
//!   (`Layout::Packed`, the liveness floor's arena): the ratio issue 69
//!   asks to be at most 1.2;
//! - `Interpreter::planned`'s `invoke` (`Layout::Packed`): the planner's
//!   arena and every operator prepared once, in the caller's buffers, no
//!   heap (the form the README's interpreter section shows);
//! - `Interpreter::prepared`'s `invoke`: every operator prepared once
//!   into the caller's buffers (no heap), each activation at its own
//!   place;
//! - `Interpreter::new`'s `invoke`, which checks and prepares every
//!   operator again on each run (no heap).
//!
//! Each row feeds the same input and reads the scores. Timed interleaved
//! (`shapecheck_benches::Group`): each round runs a batch of each row, the
//! order rotating; the figure is each row's median time and its median
//! ratio to `predict`.
//!
//! Run: `cargo bench -p shapecheck-benches --bench interpreter [-- ROUNDS]`
//! (15 rounds by default, about a minute; numbers in docs/measurements.md).

use shapecheck_benches::{Args, Group};
use shapecheck_tflite::{
    Arena, Arithmetic, Interpreter, Layout, Model, Plan, PlannedBuffers, PreparedStep,
    QuantizedMultiplier, TensorData,
};
use std::hint::black_box;

shapecheck::model!(PersonDetect = "../../tflite/tests/models/person_detect.tflite");
shapecheck::model!(
    PersonDetectStreamed = "../../tflite/tests/models/person_detect.tflite",
    ram = 14_208
);

/// Runs per row per round (about 10 ms each).
const BATCH: usize = 4;

const MODEL: &[u8] = include_bytes!("../../tflite/tests/models/person_detect.tflite");

fn main() {
    let args = Args::parse(15);
    // a deterministic input that is not constant (a constant hides little
    // here, but the rows should see the same data a camera gives)
    let pixels: Vec<i8> = (0..96 * 96)
        .map(|i| ((i * 37 + i / 96 * 11) % 256) as u8 as i8)
        .collect();
    let input = person_detect::Input::from_fn(|i| pixels[i[1] * 96 + i[2]]);

    let model = Model::parse(MODEL).expect("person_detect.tflite parses");
    let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).expect("the plan");
    let mut packed = vec![0i8; plan.arena_sizes().int8];
    let mut planned = Interpreter::with_plan(
        &plan,
        Arena {
            int8: &mut packed,
            ..Arena::default()
        },
    )
    .expect("the planned interpreter");

    let sizes = Interpreter::arena_sizes(&model).expect("the sizes");
    let mut every = vec![0i8; sizes.int8];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let mut unplanned = Interpreter::new(
        model,
        Arena {
            int8: &mut every,
            multipliers: &mut multipliers,
            ..Arena::default()
        },
        Arithmetic::Micro,
    )
    .expect("the interpreter");

    let prepared_sizes = Interpreter::prepared_sizes(&model).expect("the prepared sizes");
    let mut own = vec![0i8; sizes.int8];
    let mut steps = vec![PreparedStep::EMPTY; prepared_sizes.steps];
    let mut all_multipliers = vec![QuantizedMultiplier::ZERO; prepared_sizes.multipliers];
    let mut prepared = Interpreter::prepared(
        model,
        Arena {
            int8: &mut own,
            ..Arena::default()
        },
        &mut steps,
        &mut all_multipliers,
        Arithmetic::Micro,
    )
    .expect("the prepared interpreter");

    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let heapless = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch)
        .expect("the planned sizes");
    let mut heapless_int8 = vec![0i8; heapless.arena.int8];
    let mut places = vec![0usize; heapless.places];
    let mut heapless_steps = vec![PreparedStep::EMPTY; heapless.steps];
    let mut heapless_multipliers = vec![QuantizedMultiplier::ZERO; heapless.multipliers];
    let mut planned_no_heap = Interpreter::planned(
        model,
        Arena {
            int8: &mut heapless_int8,
            ..Arena::default()
        },
        PlannedBuffers {
            places: &mut places,
            steps: &mut heapless_steps,
            multipliers: &mut heapless_multipliers,
        },
        &mut scratch,
        Layout::Packed,
        Arithmetic::Micro,
    )
    .expect("the heap-less planned interpreter");

    // the rows agree before anything is timed
    let scores = |interpreter: &mut Interpreter<'_, '_>| {
        interpreter
            .set_input(0, TensorData::Int8(&pixels))
            .expect("the input");
        interpreter.invoke().expect("a run");
        match interpreter.output(0) {
            Some(TensorData::Int8(y)) => [y[0], y[1]],
            other => panic!("the scores: {other:?}"),
        }
    };
    let expected = PersonDetect::predict(&input);
    let expected = [expected.as_slice()[0], expected.as_slice()[1]];
    assert_eq!(PersonDetectStreamed::predict(&input).as_slice(), &expected);
    assert_eq!(scores(&mut planned), expected);
    assert_eq!(scores(&mut planned_no_heap), expected);
    assert_eq!(scores(&mut prepared), expected);
    assert_eq!(scores(&mut unplanned), expected);

    let mut g = Group::new("person detection, one inference", BATCH);
    g.row("model!'s predict", || {
        PersonDetect::predict(black_box(&input))
    });
    g.row("model!'s predict, streamed (ram = 14_208)", || {
        PersonDetectStreamed::predict(black_box(&input))
    });
    g.row("Interpreter::with_plan, invoke", || {
        scores(black_box(&mut planned))
    });
    g.row(
        "Interpreter::planned, invoke (Layout::Packed, no heap)",
        || scores(black_box(&mut planned_no_heap)),
    );
    g.row(
        "Interpreter::prepared, invoke (prepared once, no heap)",
        || scores(black_box(&mut prepared)),
    );
    g.row("Interpreter::new, invoke (prepares each run)", || {
        scores(black_box(&mut unplanned))
    });
    g.run(&args);
}
