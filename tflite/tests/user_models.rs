//! The interpreter on user-style Keras models (tests/user/, made by
//! `gen_user_models.py` there and recorded by TFLite Micro's interpreter):
//! several of the ops Keras exports in one model each, as a user's own
//! model has them. Every output and every activation of all 8 recorded
//! cases, bit for bit (f32 tensors too), three
//! ways (see `common::check_recording`).

mod common;

use std::path::PathBuf;

fn check(name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/user");
    let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
    let recording = common::read_json(&dir.join(format!("{name}.json")));
    let compared = common::check_recording(&bytes, &recording, name);
    assert!(compared >= 8 * 8, "{name}: {compared} tensors compared");
}

macro_rules! models {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
    };
}

models!(
    user_mobilenet_v3_block,
    user_unet,
    user_conv1d_gap,
    user_gated_heads,
    user_layernorm_elu,
    user_float_mlp,
    user_attention,
    user_padded_resnet,
);

/// Models of tests/user/ the interpreter does not run yet, each with what
/// stops it: a model leaves this list when it runs.
const NOT_RUN_YET: &[(&str, &str)] = &[(
    "user_audio_int16",
    "operator 5 (TANH): its input, tensor 14",
)];

#[test]
fn every_user_model_is_listed() {
    let source = include_str!("user_models.rs");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/user");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".tflite").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        let listed = source.contains(&format!("    {name},"));
        let waiting = NOT_RUN_YET.iter().any(|(n, _)| *n == name);
        assert!(
            listed != waiting,
            "{name}: listed {listed}, not run yet {waiting}"
        );
    }
}

/// Each model not run yet still stops where the list says: when it runs,
/// this fails, and the model moves to the list above.
#[test]
#[allow(clippy::result_large_err)] // TfliteError, the crate's error, as it is
fn the_models_not_run_yet_stop_where_listed() {
    use shapecheck_tflite::{Arena, Arithmetic, Interpreter, Model};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/user");
    for (name, stop) in NOT_RUN_YET {
        let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let error = Interpreter::arena_sizes(&model)
            .and_then(|sizes| {
                let mut int8 = vec![0i8; sizes.int8];
                let mut int16 = vec![0i16; sizes.int16];
                let mut int32 = vec![0i32; sizes.int32];
                let mut float32 = vec![0f32; sizes.float32];
                let mut multipliers =
                    vec![shapecheck_tflite::QuantizedMultiplier::ZERO; sizes.multipliers];
                let arena = Arena {
                    int8: &mut int8,
                    int16: &mut int16,
                    int32: &mut int32,
                    float32: &mut float32,
                    multipliers: &mut multipliers,
                };
                Interpreter::new(model, arena, Arithmetic::Micro)?.invoke()
            })
            .map(|_| "runs".to_string())
            .unwrap_or_else(|e| e.to_string());
        assert!(error.contains(stop), "{name}: {error}");
    }
}
