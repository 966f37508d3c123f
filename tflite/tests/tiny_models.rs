//! The TinyML models (TFLite Micro's person detection and the MLPerf Tiny
//! suite) through the interpreter, every recorded case of
//! `tiny/<model>.json` bit for bit TFLite Micro's (the output, and every
//! activation of the first two cases). The files are not in the
//! repository: this test reads them from the directory `SHAPECHECK_MODELS`
//! names, by default `shared/models` beside the repository (see the
//! README, "A model from a .tflite file"), and fails when they are missing:
//!
//! ```text
//! cargo test --release -p shapecheck-tflite --test tiny_models -- --ignored
//! ```

mod common;

use std::path::PathBuf;

/// `SHAPECHECK_MODELS`, or `shared/models` beside the repository when it is
/// not set (CI's layout, as `embedded/` reads it).
fn models_dir() -> PathBuf {
    std::env::var_os("SHAPECHECK_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/models"))
}

fn check(file: &str) {
    let dir = models_dir();
    let bytes = std::fs::read(dir.join(format!("{file}.tflite"))).unwrap_or_else(|e| {
        panic!(
            "{file}.tflite in {} (SHAPECHECK_MODELS): {e}",
            dir.display()
        )
    });
    let recording = common::read_json(&dir.join("tiny").join(format!("{file}.json")));
    let cases = recording["cases"].as_array().map_or(0, Vec::len);
    assert_eq!(cases, 16, "{file}: 16 recorded cases");
    common::check_recording(&bytes, &recording, file);
}

macro_rules! models {
    ($($name:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            #[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
            fn $name() {
                check($file);
            }
        )*
    };
}

models!(
    person => "person_detect",
    vww => "vww_96_int8",
    kws => "kws_ref_model",
    resnet8 => "pretrainedResnet_quant",
    ad => "ad01_int8",
    sww => "str_ww_ref_model",
    resnet_large => "pretrainedResnet_large_int8",
);

/// The planner (`plan`) places each model's int8 activations at its
/// liveness floor, the figure the README's RAM table gives, and so does
/// the interpreter's packed `Plan`.
#[test]
#[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
fn the_tiny_models_are_planned_at_their_floor() {
    use shapecheck_tflite::plan::{activations, liveness_floor, place};
    use shapecheck_tflite::{Arithmetic, Layout, Model, Plan, TensorType};
    let dir = models_dir();
    for (file, floor) in [
        ("person_detect.tflite", 55_296),
        ("vww_96_int8.tflite", 55_296),
        ("kws_ref_model.tflite", 16_000),
        ("pretrainedResnet_quant.tflite", 49_152),
        ("ad01_int8.tflite", 768),
        ("str_ww_ref_model.tflite", 6_656),
        ("pretrainedResnet_large_int8.tflite", 122_880),
    ] {
        let bytes = std::fs::read(dir.join(file))
            .unwrap_or_else(|e| panic!("{file} in {} (SHAPECHECK_MODELS): {e}", dir.display()));
        let model = Model::parse(&bytes).unwrap();
        let (_, lifetimes) = activations(&model, TensorType::Int8);
        assert_eq!(liveness_floor(&lifetimes), floor, "{file}");
        assert_eq!(place(&lifetimes).size, floor, "{file}");
        // the interpreter's packed plan: the same placement, its inputs beside
        let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).unwrap();
        assert_eq!(plan.activation_bytes(), floor, "{file}");
        let input = model.input(0).unwrap().elements();
        assert_eq!(plan.arena_sizes().int8, input + floor, "{file}");
    }
}

/// ResNet-8 and ResNet-large below their floors (issue 70): each
/// residual `ADD` writes over the input it is the last to read; the
/// first block streams its two convolutions and its `ADD`, written over
/// the block's input as the rows pass (the 32×32 stage holds one whole
/// tensor and rings), and the second block's shortcut convolution
/// streams into its `ADD`, written over the other branch's output. At
/// `Goal::Layers` nothing is in place (the interpreter's plan).
#[test]
#[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
fn the_resnets_go_below_their_floor_with_in_place_adds() {
    use shapecheck_tflite::schedule::{Goal, Holds, Schedule};
    use shapecheck_tflite::Model;
    let dir = models_dir();
    for (file, floor, smallest) in [
        ("pretrainedResnet_quant.tflite", 49_152, 26_112),
        ("pretrainedResnet_large_int8.tflite", 122_880, 65_280),
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let layers = Schedule::search(&model, Goal::Layers).unwrap();
        assert_eq!((layers.arena, layers.floor), (floor, floor), "{file}");
        assert!(layers.in_place.is_empty(), "{file}");
        let s = Schedule::search(&model, Goal::Ram(smallest)).unwrap();
        assert_eq!(s.arena, smallest, "{file}");
        assert!(s.arena * 10 <= floor * 7, "{file}: at most 0.7x its floor");
        // the first block's run ends in its ADD, over the run's input
        let runs: Vec<_> = s.runs.iter().map(|r| r.ops.clone()).collect();
        assert_eq!(runs, [1..4, 4..6, 6..8], "{file}");
        let first = s.in_place.iter().find(|a| a.op == 3).unwrap();
        assert_eq!(Some(first.over), model.operator(1).unwrap().input(0));
        // the three residual ADDs, each over one of its inputs, whose
        // output has no slot of its own
        let mut adds: Vec<usize> = s.in_place.iter().map(|a| a.op).collect();
        adds.sort_unstable();
        assert_eq!(adds, [3, 7, 11], "{file}");
        for add in &s.in_place {
            let op = model.operator(add.op).unwrap();
            assert_eq!(op.input(add.operand), Some(add.over), "{file}");
            assert_eq!(op.output(0), Some(add.output), "{file}");
            assert!(!s.slots.iter().any(|x| x.holds == Holds::Tensor(add.output)));
        }
        // every two slots live at one operator apart
        for (i, a) in s.slots.iter().enumerate() {
            assert!(a.offset + a.lifetime.size <= s.arena);
            for b in s.slots.iter().skip(i + 1) {
                let meet =
                    a.lifetime.first <= b.lifetime.last && b.lifetime.first <= a.lifetime.last;
                assert!(
                    !meet
                        || a.offset + a.lifetime.size <= b.offset
                        || b.offset + b.lifetime.size <= a.offset,
                    "{file}: {a:?} and {b:?}"
                );
            }
        }
        // one byte less finds nothing and names the smallest
        let e = Schedule::search(&model, Goal::Ram(smallest - 1)).unwrap_err();
        assert_eq!(e.smallest, smallest, "{file}");
    }
}
