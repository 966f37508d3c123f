//! `model!` on every one-op model of `tflite/tests/ops/` that the
//! interpreter runs (the list of `tflite/tests/interpreter_ops.rs`): each
//! expands (typed layers where they cover it, else the plan's steps) and
//! its `predict` gives every recorded case's outputs as TFLite Micro
//! recorded them: integers exactly, f32 to the bit (as
//! `tflite/tests/common/mod.rs` compares). Then the user-style models of
//! `tflite/tests/user/`, several ops each, the same way. A model with several
//! outputs returns them as a tuple, in the model's output order; the
//! recording holds the others under `tensors`, by tensor index.

use serde_json::Value;

/// The recording beside a model: `tflite/tests/ops/<name>.json` for
/// `tflite/tests/ops/<name>.tflite`.
fn recording(tflite: &str) -> Value {
    let json = tflite.strip_suffix(".tflite").unwrap().to_string() + ".json";
    let path = format!("{}/{json}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A recorded list of numbers, each rounded to the nearest f32 (integers
/// are exact; the recording prints some f32s with an f64's digits).
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("a list of numbers")
        .iter()
        .map(|x| f64::from(x.as_f64().expect("a number") as f32))
        .collect()
}

/// The element types `predict` takes and returns.
trait Element: Copy + std::fmt::Debug {
    /// A recorded input value as the element.
    fn from_recorded(v: f64) -> Self;
    /// Whether `self` is the recorded value: integers exactly, f32 as f32
    /// bit patterns (to the bit, as `tflite/tests/common/mod.rs` compares).
    fn agrees(self, recorded: f64) -> bool;
}

impl Element for i8 {
    fn from_recorded(v: f64) -> Self {
        v as i8
    }
    fn agrees(self, recorded: f64) -> bool {
        f64::from(self) == recorded
    }
}

impl Element for i16 {
    fn from_recorded(v: f64) -> Self {
        v as i16
    }
    fn agrees(self, recorded: f64) -> bool {
        f64::from(self) == recorded
    }
}

impl Element for i32 {
    fn from_recorded(v: f64) -> Self {
        v as i32
    }
    fn agrees(self, recorded: f64) -> bool {
        f64::from(self) == recorded
    }
}

impl Element for f32 {
    fn from_recorded(v: f64) -> Self {
        v as f32
    }
    fn agrees(self, recorded: f64) -> bool {
        self.to_bits() == (recorded as f32).to_bits()
    }
}

/// Panics naming the first element of `ours` that is not `theirs`'s.
fn compare<T: Element>(ours: &[T], theirs: &[f64], what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: the length");
    if let Some(k) = (0..theirs.len()).find(|&k| !ours[k].agrees(theirs[k])) {
        panic!(
            "{what}: element {k} of {}: ours {:?}, TFLite Micro's {}",
            theirs.len(),
            ours[k],
            theirs[k]
        );
    }
}

/// The recorded input of `case` as `T`s.
fn input<T: Element>(case: &Value) -> Vec<T> {
    numbers(&case["input"])
        .into_iter()
        .map(T::from_recorded)
        .collect()
}

macro_rules! one_op {
    ($($test:ident: $net:ident, $module:ident, $tflite:literal $(, [$($out:literal),*])?;)*) => {
        $(
            shapecheck::model!(pub $net = $tflite);
            #[test]
            fn $test() {
                let rec = recording($tflite);
                let cases = rec["cases"].as_array().unwrap();
                assert!(cases.len() >= 2);
                for case in cases {
                    let what = format!("{} {}", stringify!($test), case["name"]);
                    let x = input(case);
                    let x = $module::Input::from_slice(x.as_slice()).unwrap();
                    one_op!(@check $net, x, case, what $(, [$($out),*])?);
                }
            }
        )*
    };
    (@check $net:ident, $x:ident, $case:ident, $what:ident) => {
        let y = $net::predict(&$x);
        compare(y.as_slice(), &numbers(&$case["out"]), &$what);
    };
    (@check $net:ident, $x:ident, $case:ident, $what:ident, [$o0:literal, $o1:literal]) => {
        let (y0, y1) = $net::predict(&$x);
        compare(y0.as_slice(), &numbers(&$case["out"]), &$what);
        for (y, index) in [(y0.as_slice(), $o0), (y1.as_slice(), $o1)] {
            let recorded = numbers(&$case["tensors"][index.to_string()]["data"]);
            compare(y, &recorded, &format!("{} output tensor {index}", $what));
        }
    };
    (@check $net:ident, $x:ident, $case:ident, $what:ident, [$o0:literal, $o1:literal, $o2:literal]) => {
        let (y0, y1, y2) = $net::predict(&$x);
        compare(y0.as_slice(), &numbers(&$case["out"]), &$what);
        for (y, index) in [(y0.as_slice(), $o0), (y1.as_slice(), $o1), (y2.as_slice(), $o2)] {
            let recorded = numbers(&$case["tensors"][index.to_string()]["data"]);
            compare(y, &recorded, &format!("{} output tensor {index}", $what));
        }
    };
}

one_op! {
    conv_1x1: Conv1x1, conv1x1, "tflite/tests/ops/conv_1x1.tflite";
    conv_3x3_s2_same: Conv3x3S2Same, conv3x3_s2_same, "tflite/tests/ops/conv_3x3_s2_same.tflite";
    conv_5x3_dil2_valid: Conv5x3Dil2Valid, conv5x3_dil2_valid, "tflite/tests/ops/conv_5x3_dil2_valid.tflite";
    conv_10x4_s2_same: Conv10x4S2Same, conv10x4_s2_same, "tflite/tests/ops/conv_10x4_s2_same.tflite";
    dw_3x3_dm2_same: Dw3x3Dm2Same, dw3x3_dm2_same, "tflite/tests/ops/dw_3x3_dm2_same.tflite";
    dw_3x3_dil2_valid: Dw3x3Dil2Valid, dw3x3_dil2_valid, "tflite/tests/ops/dw_3x3_dil2_valid.tflite";
    dw_kx1_valid: DwKx1Valid, dw_kx1_valid, "tflite/tests/ops/dw_kx1_valid.tflite";
    avgpool_3x3_s2_valid: Avgpool3x3S2Valid, avgpool3x3_s2_valid, "tflite/tests/ops/avgpool_3x3_s2_valid.tflite";
    avgpool_2x2_s1_same: Avgpool2x2S1Same, avgpool2x2_s1_same, "tflite/tests/ops/avgpool_2x2_s1_same.tflite";
    maxpool_2x2_valid: Maxpool2x2Valid, maxpool2x2_valid, "tflite/tests/ops/maxpool_2x2_valid.tflite";
    maxpool_3x3_s2_same: Maxpool3x3S2Same, maxpool3x3_s2_same, "tflite/tests/ops/maxpool_3x3_s2_same.tflite";
    mean_hw: MeanHw, mean_hw, "tflite/tests/ops/mean_hw.tflite";
    mean_hw_keepdims: MeanHwKeepdims, mean_hw_keepdims, "tflite/tests/ops/mean_hw_keepdims.tflite";
    add_residual_relu: AddResidualRelu, add_residual_relu, "tflite/tests/ops/add_residual_relu.tflite";
    add_broadcast_channel: AddBroadcastChannel, add_broadcast_channel, "tflite/tests/ops/add_broadcast_channel.tflite";
    add_broadcast_row_relu: AddBroadcastRowRelu, add_broadcast_row_relu, "tflite/tests/ops/add_broadcast_row_relu.tflite";
    pad_1_2: Pad12, pad12, "tflite/tests/ops/pad_1_2.tflite";
    logistic: Logistic, logistic, "tflite/tests/ops/logistic.tflite";
    fc_relu: FcRelu, fc_relu, "tflite/tests/ops/fc_relu.tflite";
    softmax: Softmax, softmax, "tflite/tests/ops/softmax.tflite";
    float_io_conv: FloatIoConv, float_io_conv, "tflite/tests/ops/float_io_conv.tflite";
    mul_two: MulTwo, mul_two, "tflite/tests/ops/mul_two.tflite";
    mul_broadcast_const: MulBroadcastConst, mul_broadcast_const, "tflite/tests/ops/mul_broadcast_const.tflite";
    sub_two: SubTwo, sub_two, "tflite/tests/ops/sub_two.tflite";
    div: Div, div, "tflite/tests/ops/div.tflite";
    maximum_two: MaximumTwo, maximum_two, "tflite/tests/ops/maximum_two.tflite";
    minimum_two: MinimumTwo, minimum_two, "tflite/tests/ops/minimum_two.tflite";
    squared_difference: SquaredDifference, squared_difference, "tflite/tests/ops/squared_difference.tflite";
    relu: Relu, relu, "tflite/tests/ops/relu.tflite";
    relu6: Relu6, relu6, "tflite/tests/ops/relu6.tflite";
    leaky_relu: LeakyRelu, leaky_relu, "tflite/tests/ops/leaky_relu.tflite";
    prelu_per_channel: PreluPerChannel, prelu_per_channel, "tflite/tests/ops/prelu_per_channel.tflite";
    hard_swish: HardSwish, hard_swish, "tflite/tests/ops/hard_swish.tflite";
    tanh: Tanh, tanh, "tflite/tests/ops/tanh.tflite";
    rsqrt: Rsqrt, rsqrt, "tflite/tests/ops/rsqrt.tflite";
    abs: Abs, abs, "tflite/tests/ops/abs.tflite";
    elu_float_inside: EluFloatInside, elu_float_inside, "tflite/tests/ops/elu_float_inside.tflite";
    f32_elu: F32Elu, f32_elu, "tflite/tests/ops/f32_elu.tflite";
    f32_exp: F32Exp, f32_exp, "tflite/tests/ops/f32_exp.tflite";
    f32_neg: F32Neg, f32_neg, "tflite/tests/ops/f32_neg.tflite";
    f32_rsqrt: F32Rsqrt, f32_rsqrt, "tflite/tests/ops/f32_rsqrt.tflite";
    f32_square: F32Square, f32_square, "tflite/tests/ops/f32_square.tflite";
    f32_add_sub_mul: F32AddSubMul, f32_add_sub_mul, "tflite/tests/ops/f32_add_sub_mul.tflite";
    f32_squared_difference: F32SquaredDifference, f32_squared_difference, "tflite/tests/ops/f32_squared_difference.tflite";
    int16_conv_3x3: Int16Conv3x3, int16_conv3x3, "tflite/tests/ops/int16_conv_3x3.tflite";
    int16_add: Int16Add, int16_add, "tflite/tests/ops/int16_add.tflite";
    int16_dw_3x3: Int16Dw3x3, int16_dw3x3, "tflite/tests/ops/int16_dw_3x3.tflite";
    int16_fc: Int16Fc, int16_fc, "tflite/tests/ops/int16_fc.tflite";
    int16_logistic: Int16Logistic, int16_logistic, "tflite/tests/ops/int16_logistic.tflite";
    int16_maxpool: Int16Maxpool, int16_maxpool, "tflite/tests/ops/int16_maxpool.tflite";
    int16_quantize_float_io: Int16QuantizeFloatIo, int16_quantize_float_io, "tflite/tests/ops/int16_quantize_float_io.tflite";
    int16_softmax: Int16Softmax, int16_softmax, "tflite/tests/ops/int16_softmax.tflite";
    int16_avgpool: Int16Avgpool, int16_avgpool, "tflite/tests/ops/int16_avgpool.tflite";
    concat_3_lastaxis: Concat3Lastaxis, concat3_lastaxis, "tflite/tests/ops/concat_3_lastaxis.tflite";
    concat_axis1: ConcatAxis1, concat_axis1, "tflite/tests/ops/concat_axis1.tflite";
    pack_axis1: PackAxis1, pack_axis1, "tflite/tests/ops/pack_axis1.tflite";
    transpose_021: Transpose021, transpose021, "tflite/tests/ops/transpose_021.tflite";
    transpose_0312: Transpose0312, transpose0312, "tflite/tests/ops/transpose_0312.tflite";
    strided_slice_crop: StridedSliceCrop, strided_slice_crop, "tflite/tests/ops/strided_slice_crop.tflite";
    strided_slice_step2: StridedSliceStep2, strided_slice_step2, "tflite/tests/ops/strided_slice_step2.tflite";
    slice: Slice, slice, "tflite/tests/ops/slice.tflite";
    split_3: Split3, split3, "tflite/tests/ops/split_3.tflite", [2, 3, 4];
    split_v: SplitV, split_v, "tflite/tests/ops/split_v.tflite", [3, 4, 5];
    unpack: Unpack, unpack, "tflite/tests/ops/unpack.tflite", [1, 2, 3];
    expand_dims: ExpandDims, expand_dims, "tflite/tests/ops/expand_dims.tflite";
    gather: Gather, gather, "tflite/tests/ops/gather.tflite";
    depth_to_space_2: DepthToSpace2, depth_to_space2, "tflite/tests/ops/depth_to_space_2.tflite";
    space_to_depth_2: SpaceToDepth2, space_to_depth2, "tflite/tests/ops/space_to_depth_2.tflite";
    mirror_pad_reflect: MirrorPadReflect, mirror_pad_reflect, "tflite/tests/ops/mirror_pad_reflect.tflite";
    mirror_pad_symmetric: MirrorPadSymmetric, mirror_pad_symmetric, "tflite/tests/ops/mirror_pad_symmetric.tflite";
    padv2_const: Padv2Const, padv2_const, "tflite/tests/ops/padv2_const.tflite";
    requantize: Requantize, requantize, "tflite/tests/ops/requantize.tflite";
    mean_rank3_axis1: MeanRank3Axis1, mean_rank3_axis1, "tflite/tests/ops/mean_rank3_axis1.tflite";
    sum_axis2: SumAxis2, sum_axis2, "tflite/tests/ops/sum_axis2.tflite";
    reduce_max_axis12: ReduceMaxAxis12, reduce_max_axis12, "tflite/tests/ops/reduce_max_axis12.tflite";
    reduce_min: ReduceMin, reduce_min, "tflite/tests/ops/reduce_min.tflite";
    arg_max: ArgMax, arg_max, "tflite/tests/ops/arg_max.tflite";
    arg_min: ArgMin, arg_min, "tflite/tests/ops/arg_min.tflite";
    resize_nearest_x2: ResizeNearestX2, resize_nearest_x2, "tflite/tests/ops/resize_nearest_x2.tflite";
    resize_nearest_x2_align_corners: ResizeNearestX2AlignCorners, resize_nearest_x2_align_corners, "tflite/tests/ops/resize_nearest_x2_align_corners.tflite";
    resize_nearest_x2_legacy: ResizeNearestX2Legacy, resize_nearest_x2_legacy, "tflite/tests/ops/resize_nearest_x2_legacy.tflite";
    resize_bilinear_x2: ResizeBilinearX2, resize_bilinear_x2, "tflite/tests/ops/resize_bilinear_x2.tflite";
    resize_bilinear_x2_align_corners: ResizeBilinearX2AlignCorners, resize_bilinear_x2_align_corners, "tflite/tests/ops/resize_bilinear_x2_align_corners.tflite";
    resize_bilinear_x2_legacy: ResizeBilinearX2Legacy, resize_bilinear_x2_legacy, "tflite/tests/ops/resize_bilinear_x2_legacy.tflite";
    resize_bilinear_5x4_to_7x9: ResizeBilinear5x4To7x9, resize_bilinear5x4_to7x9, "tflite/tests/ops/resize_bilinear_5x4_to_7x9.tflite";
    transpose_conv_2x2_s2_same: TransposeConv2x2S2Same, transpose_conv2x2_s2_same, "tflite/tests/ops/transpose_conv_2x2_s2_same.tflite";
    transpose_conv_3x3_s2_same_bias: TransposeConv3x3S2SameBias, transpose_conv3x3_s2_same_bias, "tflite/tests/ops/transpose_conv_3x3_s2_same_bias.tflite";
    batch_matmul: BatchMatmul, batch_matmul, "tflite/tests/ops/batch_matmul.tflite";
    log_softmax: LogSoftmax, log_softmax, "tflite/tests/ops/log_softmax.tflite";
    l2_normalization: L2Normalization, l2_normalization, "tflite/tests/ops/l2_normalization.tflite";
    layernorm_float_island: LayernormFloatIsland, layernorm_float_island, "tflite/tests/ops/layernorm_float_island.tflite";
    f32_mean: F32Mean, f32_mean, "tflite/tests/ops/f32_mean.tflite";
    int16_concat: Int16Concat, int16_concat, "tflite/tests/ops/int16_concat.tflite";
    int16_mean: Int16Mean, int16_mean, "tflite/tests/ops/int16_mean.tflite";
    int16_mul: Int16Mul, int16_mul, "tflite/tests/ops/int16_mul.tflite";
    int16_requantize: Int16Requantize, int16_requantize, "tflite/tests/ops/int16_requantize.tflite";
    int16_reshape: Int16Reshape, int16_reshape, "tflite/tests/ops/int16_reshape.tflite";
    int16_tanh: Int16Tanh, int16_tanh, "tflite/tests/ops/int16_tanh.tflite";
    // the f32 convolutions and pools
    f32_conv_3x3_same_relu: F32Conv3x3SameRelu, f32_conv3x3_same_relu, "tflite/tests/ops/f32_conv_3x3_same_relu.tflite";
    f32_conv_5x3_s2_valid: F32Conv5x3S2Valid, f32_conv5x3_s2_valid, "tflite/tests/ops/f32_conv_5x3_s2_valid.tflite";
    f32_conv_dilated: F32ConvDilated, f32_conv_dilated, "tflite/tests/ops/f32_conv_dilated.tflite";
    f32_conv_1x1_relu6: F32Conv1x1Relu6, f32_conv1x1_relu6, "tflite/tests/ops/f32_conv_1x1_relu6.tflite";
    f32_dw_3x3_s2_mult2_relu6: F32Dw3x3S2Mult2Relu6, f32_dw3x3_s2_mult2_relu6, "tflite/tests/ops/f32_dw_3x3_s2_mult2_relu6.tflite";
    f32_dw_5x5_valid: F32Dw5x5Valid, f32_dw5x5_valid, "tflite/tests/ops/f32_dw_5x5_valid.tflite";
    f32_fc_relu: F32FcRelu, f32_fc_relu, "tflite/tests/ops/f32_fc_relu.tflite";
    f32_avgpool_3x3_s2_same: F32Avgpool3x3S2Same, f32_avgpool3x3_s2_same, "tflite/tests/ops/f32_avgpool_3x3_s2_same.tflite";
    f32_maxpool_2x2: F32Maxpool2x2, f32_maxpool2x2, "tflite/tests/ops/f32_maxpool_2x2.tflite";
    f32_transpose_conv_3x3_s2: F32TransposeConv3x3S2, f32_transpose_conv3x3_s2, "tflite/tests/ops/f32_transpose_conv_3x3_s2.tflite";
    // float32 (issue 79): the data movement ops, and the f32 kernels of
    // the resizes, BATCH_MATMUL, MAXIMUM / MINIMUM and REDUCE_MAX
    f32_pad: F32Pad, f32_pad, "tflite/tests/ops/f32_pad.tflite";
    f32_strided_slice_transpose_split: F32StridedSliceTransposeSplit, f32_strided_slice_transpose_split, "tflite/tests/ops/f32_strided_slice_transpose_split.tflite", [8, 9];
    f32_resize_nearest_x2: F32ResizeNearestX2, f32_resize_nearest_x2, "tflite/tests/ops/f32_resize_nearest_x2.tflite";
    f32_resize_bilinear_x2: F32ResizeBilinearX2, f32_resize_bilinear_x2, "tflite/tests/ops/f32_resize_bilinear_x2.tflite";
    f32_batch_matmul: F32BatchMatmul, f32_batch_matmul, "tflite/tests/ops/f32_batch_matmul.tflite";
    f32_maximum_minimum: F32MaximumMinimum, f32_maximum_minimum, "tflite/tests/ops/f32_maximum_minimum.tflite";
    f32_reduce_max: F32ReduceMax, f32_reduce_max, "tflite/tests/ops/f32_reduce_max.tflite";
    f32_concat: F32Concat, f32_concat, "tflite/tests/ops/f32_concat.tflite";
    f32_div: F32Div, f32_div, "tflite/tests/ops/f32_div.tflite";
    // the f32 activations (issue 79)
    f32_softmax: F32Softmax, f32_softmax, "tflite/tests/ops/f32_softmax.tflite";
    f32_log_softmax: F32LogSoftmax, f32_log_softmax, "tflite/tests/ops/f32_log_softmax.tflite";
    f32_logistic: F32Logistic, f32_logistic, "tflite/tests/ops/f32_logistic.tflite";
    f32_tanh: F32Tanh, f32_tanh, "tflite/tests/ops/f32_tanh.tflite";
    f32_hard_swish: F32HardSwish, f32_hard_swish, "tflite/tests/ops/f32_hard_swish.tflite";
    f32_relu6: F32Relu6, f32_relu6, "tflite/tests/ops/f32_relu6.tflite";
    f32_leaky_relu: F32LeakyRelu, f32_leaky_relu, "tflite/tests/ops/f32_leaky_relu.tflite";
    f32_prelu: F32Prelu, f32_prelu, "tflite/tests/ops/f32_prelu.tflite";
    f32_l2_normalization: F32L2Normalization, f32_l2_normalization, "tflite/tests/ops/f32_l2_normalization.tflite";
}

// the user-style models (several ops each)
one_op! {
    user_mobilenet_v3_block: UserMobilenetV3Block, user_mobilenet_v3_block, "tflite/tests/user/user_mobilenet_v3_block.tflite";
    user_unet: UserUnet, user_unet, "tflite/tests/user/user_unet.tflite";
    user_conv1d_gap: UserConv1dGap, user_conv1d_gap, "tflite/tests/user/user_conv1d_gap.tflite";
    user_gated_heads: UserGatedHeads, user_gated_heads, "tflite/tests/user/user_gated_heads.tflite";
    user_layernorm_elu: UserLayernormElu, user_layernorm_elu, "tflite/tests/user/user_layernorm_elu.tflite";
    user_float_mlp: UserFloatMlp, user_float_mlp, "tflite/tests/user/user_float_mlp.tflite";
    user_audio_int16: UserAudioInt16, user_audio_int16, "tflite/tests/user/user_audio_int16.tflite";
    user_attention: UserAttention, user_attention, "tflite/tests/user/user_attention.tflite";
    user_padded_resnet: UserPaddedResnet, user_padded_resnet, "tflite/tests/user/user_padded_resnet.tflite";
}

// The float32 CNN of `tflite/tests/models/` (convolutions, depthwise
// convolutions, a max pool, a mean, a dense layer, a softmax; 16 recorded
// cases), the same way.
one_op! {
    float_cnn: FloatCnn, float_cnn, "tflite/tests/models/float_cnn.tflite";
}

/// The float CNN's `RAM_BYTES` counts 4 bytes a float activation: its
/// tensors as `model!` places them, each f32.
#[test]
fn float_cnn_counts_four_bytes_a_float() {
    assert_eq!(
        core::mem::size_of::<float_cnn::Input>(),
        4 * 32 * 32 * 3,
        "the input is f32"
    );
    assert_eq!(core::mem::size_of::<float_cnn::Output>(), 4 * 5);
    // whole floats, and at least the first convolution's output,
    // [1, 16, 16, 16] floats (the input is not counted)
    const { assert!(float_cnn::RAM_BYTES.is_multiple_of(4)) };
    const { assert!(float_cnn::RAM_BYTES >= 4 * 16 * 16 * 16) };
}

/// Every model of `tflite/tests/user/` has its `model!` line above.
#[test]
fn every_user_model_is_written_by_model() {
    let here = include_str!("model_one_op.rs");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tflite/tests/user");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if let Some(name) = file.strip_suffix(".tflite") {
            assert!(
                here.contains(&format!("\n    {name}: ")),
                "{name} has no model! here"
            );
            count += 1;
        }
    }
    assert!(count >= 9, "{count} user models");
}

/// Every model the interpreter runs (`tflite/tests/interpreter_ops.rs`'s
/// `ops!` list) has its `model!` line above.
#[test]
fn every_model_the_interpreter_runs_is_written_by_model() {
    let listed = include_str!("../tflite/tests/interpreter_ops.rs");
    let start = listed.find("ops!(\n").expect("the ops! list");
    let end = start + listed[start..].find(");").expect("its end");
    let here = include_str!("model_one_op.rs");
    let mut count = 0;
    for line in listed[start..end].lines().skip(1) {
        let name = line.trim().trim_end_matches(',');
        if name.is_empty() || name.starts_with("//") {
            continue;
        }
        assert!(
            here.contains(&format!("\n    {name}: ")),
            "{name} runs in the interpreter but has no model! here"
        );
        count += 1;
    }
    assert!(count >= 90, "{count} models listed");
}

#[test]
fn a_float_convolution_counts_4_bytes_per_activation() {
    use core::mem::size_of;
    // the input [1, 7, 6, 3] is f32s, the caller's; RAM_BYTES is the
    // output [1, 7, 6, 5], 4 bytes each
    assert_eq!(size_of::<f32_conv3x3_same_relu::Input>(), 4 * 7 * 6 * 3);
    let x = f32_conv3x3_same_relu::Input::from_slice(&[0.5f32; 7 * 6 * 3]).unwrap();
    let y = F32Conv3x3SameRelu::predict(&x);
    let y: &[f32] = y.as_slice();
    assert_eq!(y.len(), 7 * 6 * 5);
    assert_eq!(F32Conv3x3SameRelu::RAM_BYTES, 4 * 7 * 6 * 5);
    // depthwise [1, 4, 3, 8], transposed [1, 8, 10, 5], average pool [1, 4, 4, 3]
    assert_eq!(F32Dw3x3S2Mult2Relu6::RAM_BYTES, 4 * 4 * 3 * 8);
    assert_eq!(F32TransposeConv3x3S2::RAM_BYTES, 4 * 8 * 10 * 5);
    assert_eq!(F32Avgpool3x3S2Same::RAM_BYTES, 4 * 4 * 4 * 3);
}
