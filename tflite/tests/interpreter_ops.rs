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
    mul_two,
    mul_broadcast_const,
    sub_two,
    div,
    maximum_two,
    minimum_two,
    squared_difference,
    relu,
    relu6,
    leaky_relu,
    prelu_per_channel,
    hard_swish,
    tanh,
    rsqrt,
    abs,
    elu_float_inside,
    f32_elu,
    f32_exp,
    f32_neg,
    f32_rsqrt,
    f32_square,
    f32_add_sub_mul,
    f32_squared_difference,
    int16_conv_3x3,
    int16_add,
    int16_dw_3x3,
    int16_fc,
    int16_logistic,
    int16_maxpool,
    int16_quantize_float_io,
    int16_softmax,
    int16_avgpool,
    int16_concat,
    int16_mean,
    int16_mul,
    int16_requantize,
    int16_reshape,
    int16_tanh,
    // the ops that move data
    concat_3_lastaxis,
    concat_axis1,
    pack_axis1,
    transpose_021,
    transpose_0312,
    strided_slice_crop,
    strided_slice_step2,
    slice,
    split_3,
    split_v,
    unpack,
    expand_dims,
    gather,
    depth_to_space_2,
    space_to_depth_2,
    mirror_pad_reflect,
    mirror_pad_symmetric,
    padv2_const,
    // TANH, the int8 → int8 QUANTIZE and CONCATENATION together
    requantize,
    // the reductions, arg max / min, resizes, transposed convolution,
    // batch matrix product, log softmax and L2 normalization
    mean_rank3_axis1,
    sum_axis2,
    reduce_max_axis12,
    reduce_min,
    arg_max,
    arg_min,
    resize_nearest_x2,
    resize_nearest_x2_align_corners,
    resize_nearest_x2_legacy,
    resize_bilinear_x2,
    resize_bilinear_x2_align_corners,
    resize_bilinear_x2_legacy,
    resize_bilinear_5x4_to_7x9,
    transpose_conv_2x2_s2_same,
    transpose_conv_3x3_s2_same_bias,
    batch_matmul,
    log_softmax,
    l2_normalization,
    // Keras's LayerNormalization: its MEANs over the last axis run now
    layernorm_float_island,
    f32_mean,
    // the f32 convolutions and pools
    f32_conv_3x3_same_relu,
    f32_conv_5x3_s2_valid,
    f32_conv_dilated,
    f32_conv_1x1_relu6,
    f32_dw_3x3_s2_mult2_relu6,
    f32_dw_5x5_valid,
    f32_fc_relu,
    f32_avgpool_3x3_s2_same,
    f32_maxpool_2x2,
    f32_transpose_conv_3x3_s2,
    // float32 (issue 79): the data movement ops, and the f32 kernels of
    // CONCATENATION, the resizes, BATCH_MATMUL, MAXIMUM / MINIMUM and
    // REDUCE_MAX
    f32_pad,
    f32_strided_slice_transpose_split,
    f32_resize_nearest_x2,
    f32_resize_bilinear_x2,
    f32_batch_matmul,
    f32_maximum_minimum,
    f32_reduce_max,
    f32_concat,
    f32_div,
    // the f32 activations (issue 79)
    f32_softmax,
    f32_log_softmax,
    f32_logistic,
    f32_tanh,
    f32_hard_swish,
    f32_relu6,
    f32_leaky_relu,
    f32_prelu,
    f32_l2_normalization,
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
