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
    user_audio_int16,
    user_attention,
    user_padded_resnet,
);

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
        assert!(
            source.contains(&format!("    {name},")),
            "{name} is not in models!"
        );
    }
}
