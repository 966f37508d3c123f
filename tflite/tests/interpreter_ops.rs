//! The interpreter on TFLite Micro's one-op models (tests/ops/): every
//! output and every activation of all 8 recorded cases of each, bit for
//! bit (int8 exactly, f32 to the bit).

mod common;

use std::path::PathBuf;

fn ops_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops")
}

fn check(name: &str) {
    let dir = ops_dir();
    let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
    let recording = common::read_json(&dir.join(format!("{name}.json")));
    let compared = common::check_recording(&bytes, &recording, name);
    assert!(compared >= 16, "{name}: {compared} tensors compared");
}

macro_rules! ops {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
    };
}

ops!(
    conv_1x1,
    conv_3x3_s2_same,
    conv_5x3_dil2_valid,
    conv_10x4_s2_same,
    dw_3x3_dm2_same,
    dw_3x3_dil2_valid,
    dw_kx1_valid,
    avgpool_3x3_s2_valid,
    avgpool_2x2_s1_same,
    maxpool_2x2_valid,
    maxpool_3x3_s2_same,
    mean_hw,
    mean_hw_keepdims,
    add_residual_relu,
    add_broadcast_channel,
    add_broadcast_row_relu,
    pad_1_2,
    logistic,
    fc_relu,
    softmax,
    float_io_conv,
);

#[test]
fn every_one_op_model_is_listed() {
    let mut files: Vec<String> = std::fs::read_dir(ops_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".tflite").map(str::to_string)
        })
        .collect();
    files.sort();
    let listed = include_str!("interpreter_ops.rs");
    for f in files {
        assert!(listed.contains(&format!("    {f},")), "{f} is not tested");
    }
}
