//! `invoke` after [`Interpreter::prepared`] or [`Interpreter::with_plan`]
//! only runs: a count of the operators prepared (this test build's
//! `prepare_op` adds one to it, per thread) proves it, on person
//! detection, against `Interpreter::new`, whose `invoke` prepares each
//! operator again.

extern crate std;

use std::cell::Cell;
use std::vec;
use std::vec::Vec;

use super::{Arena, Arithmetic, Interpreter, PreparedStep, TensorData};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::model::Model;

std::thread_local! {
    static PREPARES: Cell<usize> = const { Cell::new(0) };
}

/// Counts one operator prepared (called by `prepare_op`).
pub(super) fn count_prepare() {
    PREPARES.with(|c| c.set(c.get().saturating_add(1)));
}

/// The operators prepared on this thread so far.
fn prepares() -> usize {
    PREPARES.with(Cell::get)
}

const PERSON: &[u8] = include_bytes!("../../../tests/models/person_detect.tflite");

/// A person-detection input: a gradient, so that the outputs are not
/// those of a constant image.
fn image(len: usize) -> Vec<i8> {
    (0..len).map(|i| ((i * 7) % 256) as u8 as i8).collect()
}

/// Runs `interpreter` on `input` and returns its output.
fn run_once(interpreter: &mut Interpreter<'_, '_>, input: &[i8]) -> Vec<i8> {
    interpreter.set_input(0, TensorData::Int8(input)).unwrap();
    interpreter.invoke().unwrap();
    match interpreter.output(0) {
        Some(TensorData::Int8(out)) => out.to_vec(),
        other => panic!("output {other:?}"),
    }
}

#[test]
fn prepared_invoke_prepares_nothing() {
    let model = Model::parse(PERSON).unwrap();
    let operators = model.operator_count();
    let sizes = Interpreter::arena_sizes(&model).unwrap();
    let prepared_sizes = Interpreter::prepared_sizes(&model).unwrap();
    assert_eq!(prepared_sizes.steps, operators);
    let input = image(96 * 96);

    // `new`: checks every operator, then prepares each one on every run
    let mut int8 = vec![0i8; sizes.int8];
    let mut scratch = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        multipliers: &mut scratch,
        ..Arena::default()
    };
    let before = prepares();
    let mut each_run = Interpreter::new(model, arena, Arithmetic::Micro).unwrap();
    assert_eq!(prepares() - before, operators);
    let expected = run_once(&mut each_run, &input);
    assert_eq!(prepares() - before, 2 * operators);
    assert_eq!(run_once(&mut each_run, &input), expected);
    assert_eq!(prepares() - before, 3 * operators);

    // `prepared`: every operator once, then runs that prepare nothing
    let mut int8 = vec![0i8; sizes.int8];
    let mut steps = vec![PreparedStep::EMPTY; prepared_sizes.steps];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; prepared_sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        ..Arena::default()
    };
    let before = prepares();
    let mut once = Interpreter::prepared(
        model,
        arena,
        &mut steps,
        &mut multipliers,
        Arithmetic::Micro,
    )
    .unwrap();
    assert_eq!(prepares() - before, operators);
    assert_eq!(run_once(&mut once, &input), expected);
    assert_eq!(run_once(&mut once, &input), expected);
    assert_eq!(prepares() - before, operators);
}

#[cfg(feature = "alloc")]
#[test]
fn plan_invoke_prepares_nothing() {
    use super::{Layout, Plan};

    let model = Model::parse(PERSON).unwrap();
    let before = prepares();
    let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).unwrap();
    assert_eq!(prepares() - before, model.operator_count());
    let mut int8 = vec![0i8; plan.arena_sizes().int8];
    let arena = Arena {
        int8: &mut int8,
        ..Arena::default()
    };
    let mut interpreter = Interpreter::with_plan(&plan, arena).unwrap();
    let input = image(96 * 96);
    let first = run_once(&mut interpreter, &input);
    assert_eq!(run_once(&mut interpreter, &input), first);
    assert_eq!(prepares() - before, model.operator_count());
}

#[test]
fn person_detection_prepares_31_steps_and_2738_multipliers() {
    // docs/measurements.md's count: every layer's multipliers, where
    // `new` keeps the widest layer's 256
    let model = Model::parse(PERSON).unwrap();
    let sizes = Interpreter::prepared_sizes(&model).unwrap();
    assert_eq!((sizes.steps, sizes.multipliers), (31, 2738));
    assert_eq!(Interpreter::arena_sizes(&model).unwrap().multipliers, 256);
    assert_eq!(core::mem::size_of::<QuantizedMultiplier>(), 8);
}

#[test]
fn planned_invoke_prepares_nothing() {
    use super::{Layout, PlannedBuffers};

    let model = Model::parse(PERSON).unwrap();
    let mut scratch = vec![0usize; Interpreter::plan_scratch_len(&model)];
    let sizes = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch).unwrap();
    let mut int8 = vec![0i8; sizes.arena.int8];
    let mut places = vec![0usize; sizes.places];
    let mut steps = vec![PreparedStep::EMPTY; sizes.steps];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let before = prepares();
    let buffers = PlannedBuffers {
        places: &mut places,
        steps: &mut steps,
        multipliers: &mut multipliers,
    };
    let arena = Arena {
        int8: &mut int8,
        ..Arena::default()
    };
    let mut interpreter = Interpreter::planned(
        model,
        arena,
        buffers,
        &mut scratch,
        Layout::Packed,
        Arithmetic::Micro,
    )
    .unwrap();
    assert_eq!(prepares() - before, model.operator_count());
    let input = image(96 * 96);
    let first = run_once(&mut interpreter, &input);
    assert_eq!(run_once(&mut interpreter, &input), first);
    assert_eq!(prepares() - before, model.operator_count());
}

/// A prepared step whose output overlaps its input (places no planner
/// gives: every activation at offset 0) fails naming its operator and
/// tensor, as it did when `invoke` built that error before each step.
#[test]
fn an_overlapping_step_names_its_operator_when_it_fails() {
    use super::{overlap_error, prepare_all};
    use crate::kernel::checker::slot;

    let model = Model::parse(include_bytes!("../../../tests/models/sine.tflite")).unwrap();
    let at_zero = |i: usize| {
        slot(&model, i).map(|s| crate::kernel::checker::Slot {
            dtype: s.dtype,
            range: 0..s.range.len(),
        })
    };
    let sizes = Interpreter::prepared_sizes(&model).unwrap();
    let mut steps = vec![PreparedStep::EMPTY; sizes.steps];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    prepare_all(model, at_zero, &mut steps, &mut multipliers).unwrap();
    let mut int8 = vec![0i8; 64];
    let mut interpreter = Interpreter {
        model,
        arena: Arena {
            int8: &mut int8,
            ..Arena::default()
        },
        arithmetic: Arithmetic::Micro,
        steps: Some((&steps, &multipliers)),
        places: None,
        #[cfg(feature = "alloc")]
        plan: None,
    };
    let err = interpreter.invoke().unwrap_err();
    let first = model.operator(0).unwrap();
    assert_eq!(err, overlap_error(&model, &first));
    assert!(
        std::string::ToString::to_string(&err).contains("operator 0"),
        "{err}"
    );
}
