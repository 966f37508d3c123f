//! The three models of tests/models/ read back as their README's tables
//! say: every operator, tensor shape, type, scale, zero point and option.

// The README's scales as it prints them: more digits than an f32 holds,
// each the nearest f32 to the file's value.
#![allow(clippy::excessive_precision)]

use shapecheck_tflite::{
    Activation, Array, BuiltinOp, FullyConnectedOptions, Model, ModelTensor, Operator, Options,
    Padding, TensorType, WeightsFormat,
};

const SINE_FLOAT: &[u8] = include_bytes!("models/sine_float.tflite");
const SINE: &[u8] = include_bytes!("models/sine.tflite");
const SPEECH: &[u8] = include_bytes!("models/speech.tflite");

fn vec<T: shapecheck_tflite::LeNumber>(a: Array<'_, T>) -> Vec<T> {
    a.iter().collect()
}

fn tensor<'a>(m: &Model<'a>, i: usize) -> ModelTensor<'a> {
    m.tensor(i).unwrap_or_else(|| panic!("no tensor {i}"))
}

/// The tensor's single scale and zero point (per-tensor quantization).
fn per_tensor(t: &ModelTensor<'_>) -> (f32, i64) {
    let q = t
        .quantization()
        .unwrap_or_else(|| panic!("{} not quantized", t.name()));
    assert!(!q.is_per_channel(), "{}", t.name());
    assert_eq!((q.scales().len(), q.zero_points().len()), (1, 1));
    (q.scales().get(0).unwrap(), q.zero_points().get(0).unwrap())
}

fn fc_options(op: &Operator<'_>) -> FullyConnectedOptions {
    match op.options() {
        Options::FullyConnected(o) => o,
        other => panic!("operator {}: {other:?}", op.index()),
    }
}

/// Asserts operator `i` is a fully connected layer reading `input`, `weights`
/// and `bias`, writing `output`, with `act`, keep_num_dims false and the
/// default weights format.
fn assert_fc(m: &Model<'_>, i: usize, tensors: [i32; 4], act: Activation) {
    let op = m.operator(i).unwrap();
    assert_eq!(op.op(), BuiltinOp::FULLY_CONNECTED);
    assert_eq!(vec(op.inputs()), tensors[..3], "operator {i} inputs");
    assert_eq!(vec(op.outputs()), [tensors[3]], "operator {i} outputs");
    let o = fc_options(&op);
    assert_eq!(o.fused_activation, act, "operator {i}");
    assert_eq!(o.weights_format, WeightsFormat::Default);
    assert!(!o.keep_num_dims);
    assert!(!o.asymmetric_quantize_inputs);
}

fn assert_shape(m: &Model<'_>, i: usize, shape: &[i32], dtype: TensorType) {
    let t = tensor(m, i);
    assert_eq!(vec(t.shape()), shape, "tensor {i} {}", t.name());
    assert_eq!(t.dtype(), dtype, "tensor {i} {}", t.name());
    let elements: i32 = shape.iter().product();
    assert_eq!(t.elements(), elements as usize);
}

/// Asserts tensor `i` is a constant holding all its elements.
fn assert_constant(m: &Model<'_>, i: usize, bytes_per_element: usize) {
    let t = tensor(m, i);
    assert_eq!(
        t.data().len(),
        t.elements() * bytes_per_element,
        "tensor {i}"
    );
    assert_ne!(t.buffer_index(), 0);
}

fn assert_activation(m: &Model<'_>, i: usize) {
    assert!(tensor(m, i).data().is_empty(), "tensor {i} has data");
}

#[test]
fn the_copies_are_the_readme_s_files() {
    assert_eq!(
        [SINE_FLOAT.len(), SINE.len(), SPEECH.len()],
        [3164, 2680, 18800]
    );
    let readme = include_str!("models/README.md");
    for sha in [
        "ee939863195ca37ce063b18e14fb82aa0d98db6596ba41095757f6b560da1070",
        "780cc6ff8ecec39193e3f32a877af73385c9d6abc39f47d0e846a22d808f65df",
        "09e5e2a9dfb2d8ed78802bf18ce297bff54281a66ca18e0c23d69ca14f822a83",
        "2b9b80250c851660475acc74123d06a0be6ba53d4de22e220033574ab1448005",
    ] {
        assert!(readme.contains(sha), "README lost {sha}");
    }
}

#[test]
fn sine_float_is_three_float_fully_connected_layers() {
    let m = Model::parse(SINE_FLOAT).unwrap();
    assert_eq!(m.description(), "MLIR Converted.");
    assert_eq!((m.version(), m.subgraph_count()), (3, 1));
    assert_eq!((m.tensor_count(), m.operator_count()), (10, 3));
    assert_eq!((vec(m.inputs()), vec(m.outputs())), (vec![0], vec![9]));
    assert_fc(&m, 0, [0, 4, 3, 7], Activation::Relu);
    assert_fc(&m, 1, [7, 5, 1, 8], Activation::Relu);
    assert_fc(&m, 2, [8, 6, 2, 9], Activation::None);
    for op in m.operators() {
        assert_eq!(op.version(), 1);
    }
    let f = TensorType::Float32;
    for (i, shape) in [
        (0, &[1, 1][..]),
        (4, &[16, 1]),
        (3, &[16]),
        (7, &[1, 16]),
        (5, &[16, 16]),
        (1, &[16]),
        (8, &[1, 16]),
        (6, &[1, 16]),
        (2, &[1]),
        (9, &[1, 1]),
    ] {
        assert_shape(&m, i, shape, f);
    }
    for i in [1, 2, 3, 4, 5, 6] {
        assert_constant(&m, i, 4);
    }
    for i in [0, 7, 8, 9] {
        assert_activation(&m, i);
    }
    assert!(m.tensors().all(|t| t.quantization().is_none()));
    // the batch dim is open in the signature, 1 in the shape
    assert_eq!(vec(tensor(&m, 0).shape_signature()), [-1, 1]);
    // float data reads as f32: the multiply-accumulates of 16·1 + 16·16 + 1·16
    let weights: usize = [4, 5, 6]
        .iter()
        .map(|&i| tensor(&m, i).data_as::<f32>().unwrap().len())
        .sum();
    assert_eq!(weights, 288);
    assert!(tensor(&m, 4).data_as::<i8>().is_none());
}

#[test]
fn sine_is_the_same_layers_quantized_per_tensor() {
    let m = Model::parse(SINE).unwrap();
    assert_eq!(m.description(), "MLIR Converted.");
    assert_eq!((m.tensor_count(), m.operator_count()), (10, 3));
    assert_eq!((vec(m.inputs()), vec(m.outputs())), (vec![0], vec![9]));
    assert_fc(&m, 0, [0, 6, 5, 7], Activation::Relu);
    assert_fc(&m, 1, [7, 4, 3, 8], Activation::Relu);
    assert_fc(&m, 2, [8, 2, 1, 9], Activation::None);
    for op in m.operators() {
        assert_eq!(op.version(), 4);
    }
    let (i8t, i32t) = (TensorType::Int8, TensorType::Int32);
    // (tensor, shape, dtype, scale, zero point), the README's table
    let table: [(usize, &[i32], TensorType, f32, i64); 10] = [
        (0, &[1, 1], i8t, 0.0245739762, -128),
        (6, &[16, 1], i8t, 0.00410788413, 0),
        (5, &[16], i32t, 0.000100947043, 0),
        (7, &[1, 16], i8t, 0.0110060545, -128),
        (4, &[16, 16], i8t, 0.00925852917, 0),
        (3, &[16], i32t, 0.000101899874, 0),
        (8, &[1, 16], i8t, 0.00866769906, -128),
        (2, &[1, 16], i8t, 0.0124584753, 0),
        (1, &[1], i32t, 0.000107986314, 0),
        (9, &[1, 1], i8t, 0.00826966856, 7),
    ];
    for (i, shape, dtype, scale, zp) in table {
        assert_shape(&m, i, shape, dtype);
        assert_eq!(per_tensor(&tensor(&m, i)), (scale, zp), "tensor {i}");
    }
    for (i, size) in [(6, 1), (4, 1), (2, 1), (5, 4), (3, 4), (1, 4)] {
        assert_constant(&m, i, size);
    }
    for i in [0, 7, 8, 9] {
        assert_activation(&m, i);
    }
    // each bias scale is input scale × weight scale (to f32 rounding)
    for (bias, input, weights) in [(5, 0, 6), (3, 7, 4), (1, 8, 2)] {
        let want =
            per_tensor(&tensor(&m, input)).0 as f64 * per_tensor(&tensor(&m, weights)).0 as f64;
        let got = per_tensor(&tensor(&m, bias)).0 as f64;
        assert!(
            (got - want).abs() <= want * 1e-6,
            "bias {bias}: {got} vs {want}"
        );
    }
    // the weights are int8, the biases int32, read in place
    assert_eq!(tensor(&m, 6).data_as::<i8>().unwrap().len(), 16);
    assert_eq!(tensor(&m, 5).data_as::<i32>().unwrap().len(), 16);
}

#[test]
fn speech_reads_its_ops_from_deprecated_builtin_code() {
    let m = Model::parse(SPEECH).unwrap();
    assert_eq!(m.description(), "TOCO Converted.");
    assert_eq!(m.operator_code_count(), 4);
    let ops: Vec<(BuiltinOp, i32)> = m.operators().map(|o| (o.op(), o.version())).collect();
    assert_eq!(
        ops,
        [
            (BuiltinOp::RESHAPE, 1),
            (BuiltinOp::DEPTHWISE_CONV_2D, 3),
            (BuiltinOp::FULLY_CONNECTED, 4),
            (BuiltinOp::SOFTMAX, 2),
        ]
    );
    // builtin_code is 0 (ADD) in this file: no operator may read as ADD
    assert!(m.operators().all(|o| o.op() != BuiltinOp::ADD));
    // the trap is in the file: read its OperatorCode tables by hand
    let codes = raw_operator_codes(SPEECH);
    assert_eq!(
        codes,
        [(4, 0), (9, 0), (22, 0), (25, 0)],
        "(deprecated_builtin_code, builtin_code)"
    );
    // and sine.tflite, converted later, fills both
    assert_eq!(raw_operator_codes(SINE), [(9, 9)]);
}

/// Each OperatorCode's (deprecated_builtin_code, builtin_code), absent
/// fields as their default 0, read with a few lines of FlatBuffers walking
/// independent of the library.
fn raw_operator_codes(b: &[u8]) -> Vec<(i8, i32)> {
    let u32_at = |p: usize| u32::from_le_bytes(b[p..p + 4].try_into().unwrap()) as usize;
    let u16_at = |p: usize| u16::from_le_bytes(b[p..p + 2].try_into().unwrap()) as usize;
    // the position of field `id` of the table at `t`, if present
    let field = |t: usize, id: usize| {
        let vt = (t as i64 - i32::from_le_bytes(b[t..t + 4].try_into().unwrap()) as i64) as usize;
        let off = if 4 + 2 * id < u16_at(vt) {
            u16_at(vt + 4 + 2 * id)
        } else {
            0
        };
        (off != 0).then_some(t + off)
    };
    let root = u32_at(0);
    let vector = field(root, 1).map(|p| p + u32_at(p)).unwrap();
    (0..u32_at(vector))
        .map(|i| {
            let elem = vector + 4 + 4 * i;
            let t = elem + u32_at(elem);
            let deprecated = field(t, 0).map_or(0, |p| b[p] as i8);
            let builtin = field(t, 3).map_or(0, |p| u32_at(p) as i32);
            (deprecated, builtin)
        })
        .collect()
}

#[test]
fn speech_layers_match_the_readme() {
    let m = Model::parse(SPEECH).unwrap();
    assert_eq!((m.tensor_count(), m.operator_count()), (10, 4));
    assert_eq!((vec(m.inputs()), vec(m.outputs())), (vec![3], vec![9]));
    let (i8t, i32t) = (TensorType::Int8, TensorType::Int32);

    // 0: RESHAPE T3 [1,1960] -> T4 [1,49,40,1], shape constant T5
    let reshape = m.operator(0).unwrap();
    assert_eq!(
        (vec(reshape.inputs()), vec(reshape.outputs())),
        (vec![3, 5], vec![4])
    );
    assert_shape(&m, 3, &[1, 1960], i8t);
    assert_shape(&m, 4, &[1, 49, 40, 1], i8t);
    assert_shape(&m, 5, &[4], i32t);
    assert_eq!(
        vec(tensor(&m, 5).data_as::<i32>().unwrap()),
        [-1, 49, 40, 1]
    );
    assert!(tensor(&m, 5).quantization().is_none());
    for i in [3, 4] {
        assert_eq!(
            per_tensor(&tensor(&m, i)),
            (0.101715684, -128),
            "tensor {i}"
        );
    }
    match reshape.options() {
        Options::Reshape(r) => assert_eq!(r.new_shape.map(vec), Some(vec![-1, 49, 40, 1])),
        other => panic!("{other:?}"),
    }

    // 1: DEPTHWISE_CONV_2D T4, filter T8 [1,10,8,8] per channel on dim 3, bias T0 -> T2
    let conv = m.operator(1).unwrap();
    assert_eq!(
        (vec(conv.inputs()), vec(conv.outputs())),
        (vec![4, 8, 0], vec![2])
    );
    assert_shape(&m, 8, &[1, 10, 8, 8], i8t);
    assert_constant(&m, 8, 1);
    let filter = tensor(&m, 8).quantization().unwrap();
    assert!(filter.is_per_channel());
    assert_eq!(filter.quantized_dimension(), 3);
    let filter_scales: [f32; 8] = [
        0.0006222437,
        0.00014269954,
        0.000753062,
        0.00043657448,
        0.0005639701,
        0.00048389193,
        0.0008077786,
        0.000661146,
    ];
    assert_eq!(vec(filter.scales()), filter_scales);
    assert_eq!(vec(filter.zero_points()), [0; 8]);
    assert_eq!(filter.scale(7), Some(0.000661146));
    assert_eq!(filter.scale(8), None);
    // bias [8] int32, scales = input scale × filter scale, per channel
    assert_shape(&m, 0, &[8], i32t);
    assert_constant(&m, 0, 4);
    let bias = tensor(&m, 0).quantization().unwrap();
    assert_eq!(bias.scales().len(), 8);
    for (c, fs) in filter_scales.iter().enumerate() {
        let want = 0.101715684_f64 * *fs as f64;
        let got = bias.scale(c).unwrap() as f64;
        assert!((got - want).abs() <= want * 1e-6, "bias channel {c}");
    }
    assert_shape(&m, 2, &[1, 25, 20, 8], i8t);
    assert_eq!(per_tensor(&tensor(&m, 2)), (0.0841869861, -128));
    match conv.options() {
        Options::DepthwiseConv2d(o) => {
            assert_eq!(o.padding, Padding::Same);
            assert_eq!((o.stride_h, o.stride_w), (2, 2));
            assert_eq!(o.depth_multiplier, 8);
            assert_eq!((o.dilation_h, o.dilation_w), (1, 1));
            assert_eq!(o.fused_activation, Activation::Relu);
        }
        other => panic!("{other:?}"),
    }

    // 2: FULLY_CONNECTED T2 (as [1,4000]), weights T7 [4,4000], bias T1 [4] -> T6 [1,4]
    assert_fc(&m, 2, [2, 7, 1, 6], Activation::None);
    assert_shape(&m, 7, &[4, 4000], i8t);
    assert_constant(&m, 7, 1);
    assert_eq!(per_tensor(&tensor(&m, 7)), (0.000478705071, 0));
    assert_shape(&m, 1, &[4], i32t);
    assert_constant(&m, 1, 4);
    assert_eq!(per_tensor(&tensor(&m, 1)), (4.03007361e-05, 0));
    assert_shape(&m, 6, &[1, 4], i8t);
    assert_eq!(per_tensor(&tensor(&m, 6)), (0.0917319208, 14));

    // 3: SOFTMAX T6 -> T9 [1,4] (1/256, -128), beta 1
    let softmax = m.operator(3).unwrap();
    assert_eq!(
        (vec(softmax.inputs()), vec(softmax.outputs())),
        (vec![6], vec![9])
    );
    assert_shape(&m, 9, &[1, 4], i8t);
    assert_eq!(per_tensor(&tensor(&m, 9)), (0.00390625, -128));
    match softmax.options() {
        Options::Softmax(s) => assert_eq!(s.beta, 1.0),
        other => panic!("{other:?}"),
    }
    for i in [2, 3, 4, 6, 9] {
        assert_activation(&m, i);
    }
}

#[test]
fn the_macs_are_the_readme_s() {
    // sine: 16 + 256 + 16; speech: 4000 outputs × 10×8 taps + 4 × 4000
    let sine = Model::parse(SINE).unwrap();
    let fc_macs = |m: &Model<'_>, op: usize| {
        let o = m.operator(op).unwrap();
        tensor(m, o.input(1).unwrap()).elements()
    };
    assert_eq!((0..3).map(|i| fc_macs(&sine, i)).sum::<usize>(), 288);
    let speech = Model::parse(SPEECH).unwrap();
    let conv = speech.operator(1).unwrap();
    let out = tensor(&speech, conv.output(0).unwrap()).elements();
    let filter = tensor(&speech, conv.input(1).unwrap());
    let taps = vec(filter.shape())[1..3].iter().product::<i32>() as usize;
    assert_eq!(out * taps + fc_macs(&speech, 2), 336_000);
}
