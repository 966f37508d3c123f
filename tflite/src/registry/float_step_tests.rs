//! The f32 steps of `shared::float_ops`, each prepared from its operator in a recorded float
//! model (by its row's `prepare`: `ADD`, `SUB`, `MUL`,
//! `SQUARED_DIFFERENCE`, `RSQRT`; `MEAN`, which has no f32 row yet,
//! by `prepare_mean_f32`) and run over an f32 buffer laid out as the
//! interpreter lays it out, on every case.
extern crate std;
use crate::arith::quant::Rounding;
use crate::format::error::TfliteError;
use crate::format::model::Model;
use crate::kernel::checker::Checker;
use crate::kernel::shape::{shape_of, OpShape};
use crate::kernel::step::Buffers;
use crate::registry::Step;
use crate::runtime::interpreter::Interpreter;
use serde_json::Value;
use std::string::ToString;
use std::vec::Vec;
use std::{format, vec};

type Prepare = for<'m> fn(&Checker<'m>, &OpShape) -> Result<Step<'m>, TfliteError>;

/// Prepares operator `k` of `name`'s model with `prepare` and runs it
/// on each recorded case; returns the values compared (each to the bit).
fn run_operator(name: &str, k: usize, op_name: &str, prepare: Prepare) -> usize {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
    let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
    let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
    let recording: Value = serde_json::from_str(&json).unwrap();
    let model = Model::parse(&bytes).unwrap();
    let op = model.operator(k).unwrap();
    assert_eq!(op.op().name(), op_name);
    let c = Checker::new(model, op).unwrap();
    let shape = shape_of(&op, "output", &c.output).unwrap();
    let sizes = Interpreter::arena_sizes(&model).unwrap();
    let mut float32 = vec![f32::NAN; sizes.float32];
    let output = c.activation("output", &c.output).unwrap().range;
    let mut compared = 0;
    for case in recording["cases"].as_array().unwrap() {
        let recorded = |t: usize| -> Vec<f32> {
            case["tensors"][t.to_string()]["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect()
        };
        for i in 0..op.inputs().len() {
            let Some(t) = c.optional(i) else { continue };
            if let Ok(slot) = c.activation("input", &t) {
                float32[slot.range].copy_from_slice(&recorded(t.index()));
            }
        }
        let step = prepare(&c, &shape).unwrap();
        let mut buffers = Buffers {
            int8: &mut [],
            int16: &mut [],
            int32: &mut [],
            float32: &mut float32,
            multipliers: &[],
            fc_rounding: Rounding::Double,
            overlap: TfliteError::NoSubgraph,
        };
        step.run(&mut buffers).unwrap();
        let want = recorded(c.output.index());
        let got = &float32[output.clone()];
        assert_eq!(got.len(), want.len());
        for (e, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.to_bits(), w.to_bits(), "{name}, element {e}: {g:e} {w:e}");
            compared += 1;
        }
    }
    compared
}

// each op's row's `prepare`, which takes the f32 path for an f32 input
fn mul<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::mul::prepare(c, s, &mut [])
}
fn sub<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::sub::prepare(c, s, &mut [])
}
fn squared_difference<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::squared_difference::prepare(c, s, &mut [])
}
fn add<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::add::prepare(c, s, &mut [])
}
fn rsqrt<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::rsqrt::prepare(c, s, &mut [])
}
fn mean<'m>(c: &Checker<'m>, s: &OpShape) -> Result<Step<'m>, TfliteError> {
    crate::ops::reduce::prepare_mean_f32(c, s, &mut [])
}

#[test]
fn the_f32_steps_run_the_recorded_float_models_to_the_bit() {
    let operators: [(&str, usize, &str, Prepare, usize); 8] = [
        ("f32_rsqrt", 0, "MUL", mul, 720),
        // x · x + 0.5: a constant operand, read in place
        ("f32_rsqrt", 1, "ADD", add, 720),
        ("f32_rsqrt", 2, "RSQRT", rsqrt, 720),
        ("f32_add_sub_mul", 2, "ADD", add, 224),
        ("f32_add_sub_mul", 3, "SUB", sub, 224),
        ("f32_add_sub_mul", 4, "MUL", mul, 224),
        (
            "f32_squared_difference",
            2,
            "SQUARED_DIFFERENCE",
            squared_difference,
            224,
        ),
        ("f32_mean", 0, "MEAN", mean, 24),
    ];
    for (name, k, op, prepare, values) in operators {
        assert_eq!(run_operator(name, k, op, prepare), values, "{name} {op}");
    }
}

#[test]
fn the_f32_mean_of_axes_1_and_2_is_one_run() {
    // f32_mean: [1, 5, 6, 3] over axes [1, 2]: outer 1, reduced 5 · 6,
    // inner 3
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
    let bytes = std::fs::read(dir.join("f32_mean.tflite")).unwrap();
    let model = Model::parse(&bytes).unwrap();
    let op = model.operator(0).unwrap();
    let c = Checker::new(model, op).unwrap();
    let shape = shape_of(&op, "output", &c.output).unwrap();
    let Ok(Step::MeanF32(step)) = crate::ops::reduce::prepare_mean_f32(&c, &shape, &mut []) else {
        panic!("not a mean step");
    };
    assert_eq!(step.runs, (1, 30, 3));
}
