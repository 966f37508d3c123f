//! The kernels that move data against TFLite Micro, bit for bit:
//! `CONCATENATION`, `PACK`, `TRANSPOSE`, `STRIDED_SLICE`, `SLICE`,
//! `SPLIT`, `SPLIT_V`, `UNPACK`, `EXPAND_DIMS`, `GATHER`,
//! `DEPTH_TO_SPACE`, `SPACE_TO_DEPTH`, `MIRROR_PAD` and `PADV2`, on every
//! element of every recorded case of their one-op models in `tests/ops/`
//! (each case records every tensor TFLite Micro computed). Each op's
//! parameters come from the model read with the crate's reader (its
//! constants, options and quantization) through the op's `_params`
//! function. Then property tests against naive references written
//! plainly here, and the checks that refuse bad lengths and parameters
//! before anything is written.

// the kernels' error is the crate's TfliteError, as it is
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    concatenation, concatenation_output_shape, concatenation_params, depth_space_params,
    depth_to_space, depth_to_space_output_shape, expand_dims, expand_dims_output_shape,
    expand_dims_params, gather, gather_output_shape, gather_params, mirror_pad, mirror_pad_params,
    pack, pack_output_shape, pack_params, pad, pad_output_shape, padv2_params, slice,
    slice_output_shape, slice_params, space_to_depth, space_to_depth_output_shape, split,
    split_output_shape, split_params, split_v_params, strided_slice, strided_slice_output_shape,
    strided_slice_params, transpose, transpose_output_shape, transpose_params, unpack,
    unpack_output_shape, unpack_params, Activation, BuiltinOp, MirrorPadMode, Model, Options,
    StridedSliceOptions, TfliteError,
};

macro_rules! op_files {
    ($name:literal) => {
        (
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/ops/",
                $name,
                ".tflite"
            ))
            .as_slice(),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/ops/",
                $name,
                ".json"
            )),
        )
    };
}

fn cases(json: &str) -> Vec<Value> {
    let file: Value = serde_json::from_str(json).expect("JSON");
    let cases = file["cases"].as_array().expect("cases").clone();
    assert_eq!(cases.len(), 8, "every oracle records 8 cases");
    cases
}

/// A recorded int8 tensor of a case, by its index in the model.
fn recorded(case: &Value, tensor: usize) -> Vec<i8> {
    let t = &case["tensors"][tensor.to_string()];
    assert!(!t.is_null(), "case {} has no tensor {tensor}", case["name"]);
    t["data"]
        .as_array()
        .expect("array")
        .iter()
        .map(|v| i8::try_from(v.as_i64().expect("integer")).expect("int8"))
        .collect()
}

fn shape(model: &Model, tensor: usize) -> Vec<usize> {
    model
        .tensor(tensor)
        .unwrap()
        .shape()
        .iter()
        .map(|d| usize::try_from(d).unwrap())
        .collect()
}

/// A tensor's per-tensor scale and zero point.
fn quant(model: &Model, tensor: usize) -> (f32, i32) {
    let q = model.tensor(tensor).unwrap().quantization().unwrap();
    (
        q.scale(0).unwrap(),
        i32::try_from(q.zero_point(0).unwrap()).unwrap(),
    )
}

/// A constant int32 tensor's values.
fn constant(model: &Model, tensor: usize) -> Vec<i32> {
    model
        .tensor(tensor)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect()
}

/// A `[rank, 2]` paddings constant as pairs.
fn paddings(model: &Model, tensor: usize) -> Vec<(usize, usize)> {
    constant(model, tensor)
        .chunks(2)
        .map(|p| {
            (
                usize::try_from(p[0]).unwrap(),
                usize::try_from(p[1]).unwrap(),
            )
        })
        .collect()
}

/// The operator `k` of `model`, checked to be `op`.
fn operator<'m>(model: &Model<'m>, k: usize, op: BuiltinOp) -> shapecheck_tflite::Operator<'m> {
    let o = model.operator(k).unwrap();
    assert_eq!(o.op(), op);
    o
}

/// Compares every element of `got` and `want`; returns how many.
fn same(got: &[i8], want: &[i8], case: &Value, what: &str) -> usize {
    assert_eq!(
        got.len(),
        want.len(),
        "case {}: {what}'s length",
        case["name"]
    );
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "case {}: {what} element {i}", case["name"]);
    }
    want.len()
}

/// Runs a one-input, one-output kernel on every case of `json`: the
/// input tensor `input` recorded, the output `output` compared; returns
/// the elements compared.
fn check_one(
    json: &str,
    input: usize,
    output: usize,
    run: impl Fn(&[i8], &mut [i8]) -> Result<(), TfliteError>,
) -> usize {
    let mut compared = 0;
    for case in cases(json) {
        let x = recorded(&case, input);
        let want = recorded(&case, output);
        let mut got = vec![0x55i8; want.len()];
        run(&x, &mut got).unwrap();
        compared += same(&got, &want, &case, "output");
    }
    compared
}

// ------------------------------------------------- TFLite Micro's values ---

/// The model's `CONCATENATION` (operator `k`) on its inputs' recorded
/// values.
fn check_concatenation(bytes: &[u8], json: &str, k: usize) -> usize {
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, k, BuiltinOp::CONCATENATION);
    let Options::Concatenation(o) = op.options() else {
        panic!("{:?}", op.options())
    };
    let inputs: Vec<usize> = op.inputs().iter().map(|i| i as usize).collect();
    let out = op.output(0).unwrap();
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|&i| shape(&model, i)).collect();
    let shape_refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
    assert_eq!(
        concatenation_output_shape(&shape_refs, o.axis)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    let quants: Vec<(f32, i32)> = inputs.iter().map(|&i| quant(&model, i)).collect();
    let params = concatenation_params(
        &quants,
        quant(&model, out),
        o.axis,
        shapes[0].len(),
        o.fused_activation,
    )
    .unwrap();
    let mut compared = 0;
    for case in cases(json) {
        let xs: Vec<Vec<i8>> = inputs.iter().map(|&i| recorded(&case, i)).collect();
        let x_refs: Vec<&[i8]> = xs.iter().map(Vec::as_slice).collect();
        let want = recorded(&case, out);
        let mut got = vec![0x55i8; want.len()];
        concatenation(&x_refs, &shape_refs, &params, &mut got).unwrap();
        compared += same(&got, &want, &case, "output");
    }
    compared
}

#[test]
fn concatenation_on_the_last_axis_is_tflite_micro_s() {
    // three convolutions' outputs (2, 3 and 4 channels) joined on axis −1
    let (bytes, json) = op_files!("concat_3_lastaxis");
    assert_eq!(check_concatenation(bytes, json, 3), 8 * 270);
}

#[test]
fn concatenation_on_axis_1_is_tflite_micro_s() {
    // heights 7 and 5 joined on axis 1
    let (bytes, json) = op_files!("concat_axis1");
    assert_eq!(check_concatenation(bytes, json, 2), 8 * 144);
}

#[test]
fn pack_is_tflite_micro_s() {
    // two Dense branches [1, 7, 4] stacked on axis 1
    let (bytes, json) = op_files!("pack_axis1");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 2, BuiltinOp::PACK);
    let Options::Pack(o) = op.options() else {
        panic!()
    };
    let (a, b, out) = (
        op.input(0).unwrap(),
        op.input(1).unwrap(),
        op.output(0).unwrap(),
    );
    let input_shape = shape(&model, a);
    assert_eq!(
        pack_output_shape(&input_shape, 2, o.axis).unwrap().dims(),
        &shape(&model, out)[..]
    );
    let params = pack_params(
        &[quant(&model, a), quant(&model, b)],
        quant(&model, out),
        o.values_count,
        o.axis,
        input_shape.len(),
    )
    .unwrap();
    let mut compared = 0;
    for case in cases(json) {
        let (xa, xb) = (recorded(&case, a), recorded(&case, b));
        let want = recorded(&case, out);
        let mut got = vec![0x55i8; want.len()];
        pack(&[&xa, &xb], &input_shape, &params, &mut got).unwrap();
        compared += same(&got, &want, &case, "output");
    }
    assert_eq!(compared, 8 * 56);
}

fn check_transpose(bytes: &[u8], json: &str) -> usize {
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::TRANSPOSE);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let params =
        transpose_params(input_shape.len(), &constant(&model, op.input(1).unwrap())).unwrap();
    assert_eq!(
        transpose_output_shape(&input_shape, &params)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    check_one(json, input, out, |x, y| {
        transpose(x, &input_shape, &params, y)
    })
}

#[test]
fn transpose_of_rank_3_is_tflite_micro_s() {
    let (bytes, json) = op_files!("transpose_021");
    assert_eq!(check_transpose(bytes, json), 8 * 35);
}

#[test]
fn transpose_of_rank_4_is_tflite_micro_s() {
    let (bytes, json) = op_files!("transpose_0312");
    assert_eq!(check_transpose(bytes, json), 8 * 90);
}

fn check_strided_slice(bytes: &[u8], json: &str) -> usize {
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::STRIDED_SLICE);
    let Options::StridedSlice(o) = op.options() else {
        panic!()
    };
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let [begin, end, strides] = [1, 2, 3].map(|k| constant(&model, op.input(k).unwrap()));
    let params = strided_slice_params(&input_shape, &begin, &end, &strides, &o).unwrap();
    assert_eq!(
        strided_slice_output_shape(&params).unwrap().dims(),
        &shape(&model, out)[..]
    );
    check_one(json, input, out, |x, y| {
        strided_slice(x, &input_shape, &params, y)
    })
}

#[test]
fn strided_slice_crop_is_tflite_micro_s() {
    // x[:, 1:4, 2:6, :]: begin_mask = end_mask = 9
    let (bytes, json) = op_files!("strided_slice_crop");
    assert_eq!(check_strided_slice(bytes, json), 8 * 36);
}

#[test]
fn strided_slice_of_step_2_is_tflite_micro_s() {
    // x[:, ::2, 1::2, 1:]: begin_mask 3, end_mask 15
    let (bytes, json) = op_files!("strided_slice_step2");
    assert_eq!(check_strided_slice(bytes, json), 8 * 48);
}

#[test]
fn slice_is_tflite_micro_s() {
    let (bytes, json) = op_files!("slice");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::SLICE);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let params = slice_params(
        &input_shape,
        &constant(&model, op.input(1).unwrap()),
        &constant(&model, op.input(2).unwrap()),
    )
    .unwrap();
    assert_eq!(
        slice_output_shape(&input_shape, &params).unwrap().dims(),
        &shape(&model, out)[..]
    );
    let compared = check_one(json, input, out, |x, y| slice(x, &input_shape, &params, y));
    assert_eq!(compared, 8 * 24);
}

/// Runs a split's kernel on every case and compares each output.
fn check_split(
    json: &str,
    input: usize,
    outputs: &[usize],
    run: impl Fn(&[i8], &mut [&mut [i8]]) -> Result<(), TfliteError>,
) -> usize {
    let mut compared = 0;
    for case in cases(json) {
        let x = recorded(&case, input);
        let wants: Vec<Vec<i8>> = outputs.iter().map(|&o| recorded(&case, o)).collect();
        let mut gots: Vec<Vec<i8>> = wants.iter().map(|w| vec![0x55i8; w.len()]).collect();
        let mut refs: Vec<&mut [i8]> = gots.iter_mut().map(Vec::as_mut_slice).collect();
        run(&x, &mut refs).unwrap();
        for (k, (g, w)) in gots.iter().zip(&wants).enumerate() {
            compared += same(g, w, &case, &format!("output {k}"));
        }
    }
    compared
}

#[test]
fn split_is_tflite_micro_s() {
    // axis −1 (the constant input 0) of [1, 5, 4, 6] in 3
    let (bytes, json) = op_files!("split_3");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::SPLIT);
    let Options::Split(o) = op.options() else {
        panic!()
    };
    let axis = constant(&model, op.input(0).unwrap());
    assert_eq!(axis, [-1]);
    let input = op.input(1).unwrap();
    let outputs: Vec<usize> = op.outputs().iter().map(|i| i as usize).collect();
    let input_shape = shape(&model, input);
    let params = split_params(&input_shape, axis[0], o.num_splits).unwrap();
    for (k, &out) in outputs.iter().enumerate() {
        assert_eq!(
            split_output_shape(&input_shape, &params, k).unwrap().dims(),
            &shape(&model, out)[..]
        );
    }
    let compared = check_split(json, input, &outputs, |x, ys| {
        split(x, &input_shape, &params, ys)
    });
    assert_eq!(compared, 8 * 120);
}

#[test]
fn split_v_is_tflite_micro_s() {
    // sizes [1, 3, 2] (input 1) on axis 1 (input 2) of [1, 6, 5, 3]
    let (bytes, json) = op_files!("split_v");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::SPLIT_V);
    let input = op.input(0).unwrap();
    let sizes = constant(&model, op.input(1).unwrap());
    let axis = constant(&model, op.input(2).unwrap());
    let outputs: Vec<usize> = op.outputs().iter().map(|i| i as usize).collect();
    let input_shape = shape(&model, input);
    let params = split_v_params(&input_shape, axis[0], &sizes).unwrap();
    for (k, &out) in outputs.iter().enumerate() {
        assert_eq!(
            split_output_shape(&input_shape, &params, k).unwrap().dims(),
            &shape(&model, out)[..]
        );
    }
    let compared = check_split(json, input, &outputs, |x, ys| {
        split(x, &input_shape, &params, ys)
    });
    assert_eq!(compared, 8 * 90);
}

#[test]
fn unpack_is_tflite_micro_s() {
    // [1, 3, 5, 4] on axis 1 into 3 × [1, 5, 4]
    let (bytes, json) = op_files!("unpack");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::UNPACK);
    let Options::Unpack(o) = op.options() else {
        panic!()
    };
    let input = op.input(0).unwrap();
    let outputs: Vec<usize> = op.outputs().iter().map(|i| i as usize).collect();
    let input_shape = shape(&model, input);
    let params = unpack_params(&input_shape, o.axis, o.num).unwrap();
    for &out in &outputs {
        assert_eq!(
            unpack_output_shape(&input_shape, &params).unwrap().dims(),
            &shape(&model, out)[..]
        );
    }
    let compared = check_split(json, input, &outputs, |x, ys| {
        unpack(x, &input_shape, &params, ys)
    });
    assert_eq!(compared, 8 * 60);
}

#[test]
fn expand_dims_is_tflite_micro_s() {
    // axis 2 (a scalar int32) of [1, 5, 6]
    let (bytes, json) = op_files!("expand_dims");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::EXPAND_DIMS);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let axis = constant(&model, op.input(1).unwrap());
    let params = expand_dims_params(input_shape.len(), axis[0]).unwrap();
    assert_eq!(
        expand_dims_output_shape(&input_shape, &params)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    assert_eq!(check_one(json, input, out, expand_dims), 8 * 30);
}

#[test]
fn gather_is_tflite_micro_s() {
    // rows [3, 0, 4, 4, 1] (constant indices, read in place) on axis 1
    let (bytes, json) = op_files!("gather");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::GATHER);
    let Options::Gather(o) = op.options() else {
        panic!()
    };
    let (input, indices, out) = (
        op.input(0).unwrap(),
        op.input(1).unwrap(),
        op.output(0).unwrap(),
    );
    let (input_shape, indices_shape) = (shape(&model, input), shape(&model, indices));
    let params = gather_params(&input_shape, &indices_shape, o.axis, o.batch_dims).unwrap();
    assert_eq!(
        gather_output_shape(&input_shape, &indices_shape, &params)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    let values = model.tensor(indices).unwrap().data_as::<i32>().unwrap();
    let compared = check_one(json, input, out, |x, y| {
        gather(x, &input_shape, &values, &indices_shape, &params, y)
    });
    assert_eq!(compared, 8 * 30);
}

fn block_size(op: &shapecheck_tflite::Operator) -> i32 {
    match op.options() {
        Options::DepthToSpace(o) | Options::SpaceToDepth(o) => o.block_size,
        other => panic!("{other:?}"),
    }
}

#[test]
fn depth_to_space_is_tflite_micro_s() {
    let (bytes, json) = op_files!("depth_to_space_2");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::DEPTH_TO_SPACE);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let params = depth_space_params(block_size(&op)).unwrap();
    assert_eq!(
        depth_to_space_output_shape(&input_shape, &params)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    let compared = check_one(json, input, out, |x, y| {
        depth_to_space(x, &input_shape, &params, y)
    });
    assert_eq!(compared, 8 * 120);
}

#[test]
fn space_to_depth_is_tflite_micro_s() {
    let (bytes, json) = op_files!("space_to_depth_2");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::SPACE_TO_DEPTH);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let params = depth_space_params(block_size(&op)).unwrap();
    assert_eq!(
        space_to_depth_output_shape(&input_shape, &params)
            .unwrap()
            .dims(),
        &shape(&model, out)[..]
    );
    let compared = check_one(json, input, out, |x, y| {
        space_to_depth(x, &input_shape, &params, y)
    });
    assert_eq!(compared, 8 * 72);
}

fn check_mirror_pad(bytes: &[u8], json: &str, mode: MirrorPadMode) -> usize {
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::MIRROR_PAD);
    let Options::MirrorPad(o) = op.options() else {
        panic!()
    };
    assert_eq!(o.mode, mode);
    let (input, out) = (op.input(0).unwrap(), op.output(0).unwrap());
    let input_shape = shape(&model, input);
    let pads = paddings(&model, op.input(1).unwrap());
    let params = mirror_pad_params(o.mode, &input_shape, &pads).unwrap();
    let (dims, rank) = pad_output_shape(&input_shape, &pads).unwrap();
    assert_eq!(&dims[..rank], &shape(&model, out)[..]);
    check_one(json, input, out, |x, y| {
        mirror_pad(x, &input_shape, &pads, &params, y)
    })
}

#[test]
fn mirror_pad_reflect_is_tflite_micro_s() {
    // REFLECT, paddings (1, 2) × (2, 1)
    let (bytes, json) = op_files!("mirror_pad_reflect");
    assert_eq!(
        check_mirror_pad(bytes, json, MirrorPadMode::Reflect),
        8 * 216
    );
}

#[test]
fn mirror_pad_symmetric_is_tflite_micro_s() {
    // SYMMETRIC, paddings (2, 1) × (1, 3): the widest the 6 columns allow
    // less 3
    let (bytes, json) = op_files!("mirror_pad_symmetric");
    assert_eq!(
        check_mirror_pad(bytes, json, MirrorPadMode::Symmetric),
        8 * 240
    );
}

#[test]
fn padv2_is_tflite_micro_s() {
    // paddings (2, 1) × (1, 2) with 0.7: the int8 scalar 35
    let (bytes, json) = op_files!("padv2_const");
    let model = Model::parse(bytes).unwrap();
    let op = operator(&model, 0, BuiltinOp::PADV2);
    let (input, value, out) = (
        op.input(0).unwrap(),
        op.input(2).unwrap(),
        op.output(0).unwrap(),
    );
    let input_shape = shape(&model, input);
    let pads = paddings(&model, op.input(1).unwrap());
    let constant_value = model.tensor(value).unwrap().data_as::<i8>().unwrap();
    assert_eq!(constant_value.len(), 1);
    let params = padv2_params(
        constant_value.get(0).unwrap(),
        quant(&model, input),
        quant(&model, value),
        quant(&model, out),
    )
    .unwrap();
    assert_eq!(params.value, 35);
    let (dims, rank) = pad_output_shape(&input_shape, &pads).unwrap();
    assert_eq!(&dims[..rank], &shape(&model, out)[..]);
    let compared = check_one(json, input, out, |x, y| {
        pad(x, &input_shape, &pads, params.value, y)
    });
    assert_eq!(compared, 8 * 168);
}

// --------------------------------------------------- naive references ---

/// The row-major index of `index` in `shape`.
fn ravel(index: &[usize], shape: &[usize]) -> usize {
    index
        .iter()
        .zip(shape)
        .fold(0, |flat, (&i, &d)| flat * d + i)
}

/// The multi-index of row-major `flat` in `shape`.
fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &d) in index.iter_mut().zip(shape).rev() {
        *i = flat % d;
        flat /= d;
    }
    index
}

/// Distinct-looking values for a tensor of `n` elements.
fn values(seed: u64, n: usize) -> Vec<i8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as i8
        })
        .collect()
}

/// A shape of 1 to `max_rank` dims of 1 to 4.
fn small_shape(max_rank: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..=4, 1..=max_rank)
}

/// The output of concatenating `inputs` (of `shapes`) on `axis`, written
/// element by element from the output's multi-index.
fn naive_concatenation(inputs: &[Vec<i8>], shapes: &[Vec<usize>], axis: usize) -> Vec<i8> {
    let mut out_shape = shapes[0].clone();
    out_shape[axis] = shapes.iter().map(|s| s[axis]).sum();
    let n: usize = out_shape.iter().product();
    (0..n)
        .map(|flat| {
            let mut index = unravel(flat, &out_shape);
            // which input holds this index along the axis
            let mut k = 0;
            while index[axis] >= shapes[k][axis] {
                index[axis] -= shapes[k][axis];
                k += 1;
            }
            inputs[k][ravel(&index, &shapes[k])]
        })
        .collect()
}

/// The axis's index range of output `k` of a split into `sizes`.
fn piece_start(sizes: &[usize], k: usize) -> usize {
    sizes[..k].iter().sum()
}

/// Each output of splitting `input` (of `shape`) on `axis` into `sizes`.
fn naive_split(input: &[i8], shape: &[usize], axis: usize, sizes: &[usize]) -> Vec<Vec<i8>> {
    (0..sizes.len())
        .map(|k| {
            let mut piece = shape.to_vec();
            piece[axis] = sizes[k];
            let n: usize = piece.iter().product();
            (0..n)
                .map(|flat| {
                    let mut index = unravel(flat, &piece);
                    index[axis] += piece_start(sizes, k);
                    input[ravel(&index, shape)]
                })
                .collect()
        })
        .collect()
}

/// The indices TFLite's loop `for (i = start; stride > 0 ? i < stop : i >
/// stop; i += stride)` visits along one axis of `dim`, with its clamps
/// and masks written out.
fn naive_axis(dim: i64, begin: i64, end: i64, stride: i64, masks: (bool, bool, bool)) -> Vec<i64> {
    let (begin_mask, end_mask, shrink) = masks;
    let clamp = |v: i64| {
        let v = if v < 0 { v + dim } else { v };
        if stride > 0 {
            v.max(0).min(dim)
        } else {
            v.max(-1).min(dim - 1)
        }
    };
    let start = if begin_mask {
        if stride > 0 {
            0
        } else {
            dim - 1
        }
    } else {
        clamp(begin)
    };
    if shrink {
        return vec![start];
    }
    let stop = if end_mask {
        if stride > 0 {
            dim
        } else {
            -1
        }
    } else {
        clamp(end)
    };
    let mut visited = Vec::new();
    let mut i = start;
    while (stride > 0 && i < stop) || (stride < 0 && i > stop) {
        visited.push(i);
        i += stride;
    }
    visited
}

/// A strided slice as the cartesian product of each axis's indices.
fn naive_strided_slice(input: &[i8], shape: &[usize], axes: &[Vec<i64>]) -> Vec<i8> {
    let counts: Vec<usize> = axes.iter().map(Vec::len).collect();
    let n: usize = counts.iter().product();
    (0..n)
        .map(|flat| {
            let pick = unravel(flat, &counts);
            let index: Vec<usize> = pick
                .iter()
                .zip(axes)
                .map(|(&p, axis)| axis[p] as usize)
                .collect();
            input[ravel(&index, shape)]
        })
        .collect()
}

/// The input index a mirror pad reads for padded index `p` of one dim:
/// the reflection of `p − before` about the edges, written with `REFLECT`'s
/// and `SYMMETRIC`'s own formulas.
fn naive_mirror(p: usize, before: usize, dim: usize, mode: MirrorPadMode) -> usize {
    let i = p as i64 - before as i64;
    let n = dim as i64;
    let j = match mode {
        MirrorPadMode::Reflect if i < 0 => -i,
        MirrorPadMode::Reflect if i >= n => 2 * (n - 1) - i,
        MirrorPadMode::Symmetric if i < 0 => -i - 1,
        MirrorPadMode::Symmetric if i >= n => 2 * n - 1 - i,
        _ => i,
    };
    j as usize
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn concatenation_is_its_naive_definition(
        base in small_shape(4),
        axis_pick in 0usize..4,
        extra in prop::collection::vec(1usize..=3, 1..=4),
        negative in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rank = base.len();
        let axis = axis_pick % rank;
        let shapes: Vec<Vec<usize>> = extra
            .iter()
            .map(|&e| {
                let mut s = base.clone();
                s[axis] = e;
                s
            })
            .collect();
        let inputs: Vec<Vec<i8>> = shapes
            .iter()
            .enumerate()
            .map(|(k, s)| values(seed ^ k as u64, s.iter().product()))
            .collect();
        let written_axis = if negative { axis as i32 - rank as i32 } else { axis as i32 };
        let q = (0.5, 3);
        let params = concatenation_params(
            &vec![q; shapes.len()], q, written_axis, rank, Activation::None,
        ).unwrap();
        prop_assert_eq!(params.axis, axis);
        let want = naive_concatenation(&inputs, &shapes, axis);
        let shape_refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let input_refs: Vec<&[i8]> = inputs.iter().map(Vec::as_slice).collect();
        let out_shape = concatenation_output_shape(&shape_refs, written_axis).unwrap();
        prop_assert_eq!(out_shape.elements(), Some(want.len()));
        let mut got = vec![0i8; want.len()];
        concatenation(&input_refs, &shape_refs, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn pack_is_a_concatenation_on_a_new_axis(
        shape in small_shape(4),
        axis_pick in 0usize..5,
        count in 1usize..=4,
        seed in any::<u64>(),
    ) {
        let axis = axis_pick % (shape.len() + 1);
        let inputs: Vec<Vec<i8>> =
            (0..count).map(|k| values(seed ^ k as u64, shape.iter().product())).collect();
        // each input with a dim of 1 inserted at the axis
        let mut unit = shape.clone();
        unit.insert(axis, 1);
        let shapes = vec![unit; count];
        let want = naive_concatenation(&inputs, &shapes, axis);
        let q = (0.25, -7);
        let params = pack_params(&vec![q; count], q, count as i32, axis as i32, shape.len()).unwrap();
        let refs: Vec<&[i8]> = inputs.iter().map(Vec::as_slice).collect();
        let out_shape = pack_output_shape(&shape, count, axis as i32).unwrap();
        prop_assert_eq!(out_shape.dims()[axis], count);
        let mut got = vec![0i8; want.len()];
        pack(&refs, &shape, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn split_v_and_split_are_their_naive_definitions(
        shape in small_shape(4),
        axis_pick in 0usize..4,
        cuts in prop::collection::vec(0usize..=3, 1..=4),
        seed in any::<u64>(),
    ) {
        let axis = axis_pick % shape.len();
        let mut shape = shape;
        shape[axis] = cuts.iter().sum::<usize>().max(1);
        let mut sizes = cuts.clone();
        let total: usize = sizes.iter().sum();
        if total == 0 {
            sizes[0] = 1;
        }
        let input = values(seed, shape.iter().product());
        let want = naive_split(&input, &shape, axis, &sizes);
        // one size written as −1, the rest
        let mut written: Vec<i32> = sizes.iter().map(|&s| s as i32).collect();
        let pick = seed as usize % written.len();
        written[pick] = -1;
        let params = split_v_params(&shape, axis as i32, &written).unwrap();
        prop_assert_eq!(params.sizes(), &sizes[..]);
        let mut gots: Vec<Vec<i8>> = want.iter().map(|w| vec![0i8; w.len()]).collect();
        let mut refs: Vec<&mut [i8]> = gots.iter_mut().map(Vec::as_mut_slice).collect();
        split(&input, &shape, &params, &mut refs).unwrap();
        prop_assert_eq!(&gots, &want);
        // equal pieces: SPLIT
        let n = shape[axis];
        let params = split_params(&shape, axis as i32 - shape.len() as i32, n as i32).unwrap();
        let want = naive_split(&input, &shape, axis, &vec![1; n]);
        let mut gots: Vec<Vec<i8>> = want.iter().map(|w| vec![0i8; w.len()]).collect();
        let mut refs: Vec<&mut [i8]> = gots.iter_mut().map(Vec::as_mut_slice).collect();
        split(&input, &shape, &params, &mut refs).unwrap();
        prop_assert_eq!(&gots, &want);
        // UNPACK: the same pieces, the axis dropped from their shapes
        let params = unpack_params(&shape, axis as i32, n as i32).unwrap();
        let mut dropped = shape.clone();
        dropped.remove(axis);
        prop_assert_eq!(unpack_output_shape(&shape, &params).unwrap().dims().to_vec(), &dropped[..]);
        let mut gots: Vec<Vec<i8>> = want.iter().map(|w| vec![0i8; w.len()]).collect();
        let mut refs: Vec<&mut [i8]> = gots.iter_mut().map(Vec::as_mut_slice).collect();
        unpack(&input, &shape, &params, &mut refs).unwrap();
        prop_assert_eq!(&gots, &want);
    }

    #[test]
    fn transpose_is_its_naive_definition(
        shape in small_shape(6),
        keys in prop::collection::vec(any::<u32>(), 6),
        seed in any::<u64>(),
    ) {
        let rank = shape.len();
        // a permutation: the axes sorted by random keys
        let mut perm: Vec<usize> = (0..rank).collect();
        perm.sort_by_key(|&a| keys[a]);
        let written: Vec<i32> = perm.iter().map(|&p| p as i32).collect();
        let params = transpose_params(rank, &written).unwrap();
        let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
        prop_assert_eq!(transpose_output_shape(&shape, &params).unwrap().dims().to_vec(), &out_shape[..]);
        let input = values(seed, shape.iter().product());
        let want: Vec<i8> = (0..input.len())
            .map(|flat| {
                let out_index = unravel(flat, &out_shape);
                let mut in_index = vec![0; rank];
                for (i, &p) in perm.iter().enumerate() {
                    in_index[p] = out_index[i];
                }
                input[ravel(&in_index, &shape)]
            })
            .collect();
        let mut got = vec![0i8; want.len()];
        transpose(&input, &shape, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn strided_slice_is_its_naive_definition(
        shape in small_shape(5),
        axes in prop::collection::vec(
            (-6i32..=6, -6i32..=6, prop::sample::select(vec![-3, -2, -1, 1, 2, 3])),
            5,
        ),
        (begin_mask, end_mask, shrink_mask) in (0i32..32, 0i32..32, 0i32..32),
        seed in any::<u64>(),
    ) {
        let rank = shape.len();
        let begin: Vec<i32> = axes[..rank].iter().map(|a| a.0).collect();
        let end: Vec<i32> = axes[..rank].iter().map(|a| a.1).collect();
        let strides: Vec<i32> = axes[..rank].iter().map(|a| a.2).collect();
        let options = StridedSliceOptions::new(begin_mask, end_mask, shrink_mask);
        let picked: Vec<Vec<i64>> = (0..rank)
            .map(|a| {
                let bit = |m: i32| (m >> a) & 1 == 1;
                naive_axis(
                    shape[a] as i64,
                    i64::from(begin[a]),
                    i64::from(end[a]),
                    i64::from(strides[a]),
                    (bit(begin_mask), bit(end_mask), bit(shrink_mask)),
                )
            })
            .collect();
        let result = strided_slice_params(&shape, &begin, &end, &strides, &options);
        // a shrunk axis must read one element inside, with a positive step
        let bad_shrink = (0..rank).any(|a| {
            (shrink_mask >> a) & 1 == 1
                && (strides[a] < 0 || !(0..shape[a] as i64).contains(&picked[a][0]))
        });
        prop_assert_eq!(result.is_err(), bad_shrink);
        if let Ok(params) = result {
            let kept: Vec<usize> = (0..rank)
                .filter(|&a| (shrink_mask >> a) & 1 == 0)
                .map(|a| picked[a].len())
                .collect();
            prop_assert_eq!(strided_slice_output_shape(&params).unwrap().dims().to_vec(), &kept[..]);
            let input = values(seed, shape.iter().product());
            let want = naive_strided_slice(&input, &shape, &picked);
            let mut got = vec![0i8; want.len()];
            strided_slice(&input, &shape, &params, &mut got).unwrap();
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn slice_is_a_strided_slice_of_step_1(
        shape in small_shape(5),
        picks in prop::collection::vec((0usize..5, 0usize..5, any::<bool>()), 5),
        seed in any::<u64>(),
    ) {
        let rank = shape.len();
        let begin: Vec<i32> = (0..rank).map(|a| (picks[a].0 % (shape[a] + 1)) as i32).collect();
        let size: Vec<i32> = (0..rank)
            .map(|a| {
                let rest = shape[a] - begin[a] as usize;
                if picks[a].2 { -1 } else { (picks[a].1 % (rest + 1)) as i32 }
            })
            .collect();
        let params = slice_params(&shape, &begin, &size).unwrap();
        let axes: Vec<Vec<i64>> = (0..rank)
            .map(|a| {
                let b = i64::from(begin[a]);
                let n = if size[a] < 0 { shape[a] as i64 - b } else { i64::from(size[a]) };
                (b..b + n).collect()
            })
            .collect();
        let input = values(seed, shape.iter().product());
        let want = naive_strided_slice(&input, &shape, &axes);
        let mut got = vec![0i8; want.len()];
        slice(&input, &shape, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn gather_is_its_naive_definition(
        shape in small_shape(4),
        axis_pick in 0usize..4,
        picks in prop::collection::vec(0usize..8, 0..6),
        seed in any::<u64>(),
    ) {
        let rank = shape.len();
        let axis = axis_pick % rank;
        let indices: Vec<i32> = picks.iter().map(|&p| (p % shape[axis]) as i32).collect();
        let indices_shape = vec![indices.len()];
        let params = gather_params(&shape, &indices_shape, axis as i32, 0).unwrap();
        let mut out_shape = shape.clone();
        out_shape[axis] = indices.len();
        prop_assert_eq!(
            gather_output_shape(&shape, &indices_shape, &params).unwrap().dims().to_vec(),
            &out_shape[..]
        );
        let input = values(seed, shape.iter().product());
        let want: Vec<i8> = (0..out_shape.iter().product())
            .map(|flat| {
                let mut index = unravel(flat, &out_shape);
                index[axis] = indices[index[axis]] as usize;
                input[ravel(&index, &shape)]
            })
            .collect();
        let mut got = vec![0i8; want.len()];
        gather(&input, &shape, &indices[..], &indices_shape, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn depth_to_space_and_back_are_tflite_s_index_formula(
        (b, h, w, c) in (1usize..=2, 1usize..=3, 1usize..=3, 1usize..=3),
        side in 1usize..=3,
        seed in any::<u64>(),
    ) {
        let params = depth_space_params(side as i32).unwrap();
        let in_shape = [b, h, w, side * side * c];
        let input = values(seed, in_shape.iter().product());
        let out_shape = [b, h * side, w * side, c];
        prop_assert_eq!(depth_to_space_output_shape(&in_shape, &params).unwrap().dims().to_vec(), &out_shape[..]);
        // reference_ops::DepthToSpace's index formula
        let want: Vec<i8> = (0..input.len())
            .map(|flat| {
                let [ob, oh, ow, od] = unravel(flat, &out_shape)[..] else { unreachable!() };
                let d = od + ((oh % side) * side + ow % side) * c;
                input[ravel(&[ob, oh / side, ow / side, d], &in_shape)]
            })
            .collect();
        let mut got = vec![0i8; want.len()];
        depth_to_space(&input, &in_shape, &params, &mut got).unwrap();
        prop_assert_eq!(&got, &want);
        // SPACE_TO_DEPTH undoes it
        prop_assert_eq!(space_to_depth_output_shape(&out_shape, &params).unwrap().dims().to_vec(), &in_shape[..]);
        let mut back = vec![0i8; input.len()];
        space_to_depth(&got, &out_shape, &params, &mut back).unwrap();
        prop_assert_eq!(back, input);
    }

    #[test]
    fn mirror_pad_is_its_naive_definition(
        shape in small_shape(4),
        pads in prop::collection::vec((0usize..=4, 0usize..=4), 4),
        symmetric in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rank = shape.len();
        let mode = if symmetric { MirrorPadMode::Symmetric } else { MirrorPadMode::Reflect };
        let limit = |d: usize| if symmetric { d } else { d - 1 };
        let pads: Vec<(usize, usize)> = (0..rank)
            .map(|a| (pads[a].0 % (limit(shape[a]) + 1), pads[a].1 % (limit(shape[a]) + 1)))
            .collect();
        let params = mirror_pad_params(mode, &shape, &pads).unwrap();
        let out_shape: Vec<usize> = (0..rank).map(|a| shape[a] + pads[a].0 + pads[a].1).collect();
        let input = values(seed, shape.iter().product());
        let want: Vec<i8> = (0..out_shape.iter().product())
            .map(|flat| {
                let index: Vec<usize> = unravel(flat, &out_shape)
                    .iter()
                    .enumerate()
                    .map(|(a, &p)| naive_mirror(p, pads[a].0, shape[a], mode))
                    .collect();
                input[ravel(&index, &shape)]
            })
            .collect();
        let mut got = vec![0i8; want.len()];
        mirror_pad(&input, &shape, &pads, &params, &mut got).unwrap();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn expand_dims_inserts_a_1(shape in small_shape(5), pick in 0usize..6, negative in any::<bool>()) {
        let rank = shape.len();
        let axis = pick % (rank + 1);
        let written = if negative { axis as i32 - rank as i32 - 1 } else { axis as i32 };
        let params = expand_dims_params(rank, written).unwrap();
        let mut want = shape.clone();
        want.insert(axis, 1);
        prop_assert_eq!(expand_dims_output_shape(&shape, &params).unwrap().dims().to_vec(), &want[..]);
    }
}

// ------------------------------------------------------------ refusals ---

/// Runs `f` on an output of 6 elements set to 0x55 and checks that it
/// fails and leaves every element as it was.
fn refused(f: impl FnOnce(&mut [i8]) -> Result<(), TfliteError>) -> TfliteError {
    let mut out = [0x55i8; 6];
    let err = f(&mut out).expect_err("refused");
    assert_eq!(out, [0x55; 6], "{err}");
    err
}

#[test]
fn the_joins_refuse_bad_lengths_quantization_and_axes_untouched() {
    let p = concatenation_params(&[(1.0, 0); 2], (1.0, 0), 1, 2, Activation::None).unwrap();
    // an input shorter than its shape
    refused(|y| concatenation(&[&[1, 2], &[3, 4, 5]], &[&[2, 1], &[2, 2]], &p, y));
    // an output of another length
    refused(|y| concatenation(&[&[1, 2], &[3, 4]], &[&[2, 1], &[2, 1]], &p, y));
    // dims that differ off the axis
    refused(|y| concatenation(&[&[1, 2], &[3, 4, 5, 6]], &[&[2, 1], &[1, 4]], &p, y));
    // a shape for each input
    refused(|y| concatenation(&[&[1, 2]], &[&[2, 1], &[2, 2]], &p, y));
    let err =
        concatenation_params(&[(1.0, 0), (1.0, 1)], (1.0, 0), 0, 2, Activation::None).unwrap_err();
    assert!(err.to_string().contains("zero point"), "{err}");
    let err = concatenation_params(&[(0.5, 0)], (1.0, 0), 0, 2, Activation::None).unwrap_err();
    assert!(err.to_string().contains("scale"), "{err}");
    assert!(concatenation_params(&[(1.0, 0)], (1.0, 0), 2, 2, Activation::None).is_err());
    assert!(concatenation_params(&[(1.0, 0)], (1.0, 0), -3, 2, Activation::None).is_err());
    assert!(concatenation_output_shape(&[&[1usize][..]; 11], 0).is_err()); // TFLite Micro's 10
    let p = pack_params(&[(1.0, 0); 2], (1.0, 0), 2, 0, 1).unwrap();
    refused(|y| pack(&[&[1, 2, 3], &[4, 5]], &[3], &p, y));
    refused(|y| pack(&[&[1, 2, 3]], &[3], &p, y));
    assert!(pack_params(&[(1.0, 0); 2], (1.0, 0), 3, 0, 1).is_err());
    assert!(pack_params(&[(1.0, 0); 2], (1.0, 0), 2, 2, 1).is_err());
}

#[test]
fn the_splits_refuse_bad_lengths_and_sizes_untouched() {
    let p = split_params(&[2, 3], 0, 2).unwrap();
    let (mut a, mut b) = ([0x55i8; 3], [0x55i8; 2]);
    assert!(split(&[1, 2, 3, 4, 5, 6], &[2, 3], &p, &mut [&mut a, &mut b]).is_err());
    assert_eq!((a, b), ([0x55; 3], [0x55; 2]));
    let mut b = [0x55i8; 3];
    assert!(split(&[1, 2, 3, 4, 5], &[2, 3], &p, &mut [&mut a, &mut b]).is_err());
    assert!(split(&[1, 2, 3, 4, 5, 6], &[2, 3], &p, &mut [&mut a]).is_err());
    assert!(split(&[1, 2, 3, 4, 5, 6], &[3, 2], &p, &mut [&mut a, &mut b]).is_err());
    assert_eq!((a, b), ([0x55; 3], [0x55; 3]));
    assert!(split_params(&[2, 3], 1, 2).is_err()); // 2 does not divide 3
    assert!(split_params(&[2, 3], 2, 1).is_err());
    assert!(split_params(&[2, 3], 0, 0).is_err());
    assert!(split_v_params(&[2, 5], 1, &[-1, -1]).is_err());
    assert!(split_v_params(&[2, 5], 1, &[2, -2]).is_err());
    assert!(split_v_params(&[2, 5], 1, &[2, 4]).is_err());
    assert!(split_v_params(&[2, 5], 1, &[2, 2]).is_err());
    assert!(unpack_params(&[2, 5], 1, 4).is_err());
    let p = unpack_params(&[2, 3], 0, 2).unwrap();
    let (mut a, mut b) = ([0x55i8; 3], [0x55i8; 2]);
    assert!(unpack(&[1, 2, 3, 4, 5, 6], &[2, 3], &p, &mut [&mut a, &mut b]).is_err());
    assert_eq!((a, b), ([0x55; 3], [0x55; 2]));
}

#[test]
fn the_slices_refuse_bad_boxes_masks_and_lengths_untouched() {
    let p = slice_params(&[2, 3], &[1, 0], &[1, 3]).unwrap();
    refused(|y| slice(&[1, 2, 3, 4, 5], &[2, 3], &p, y));
    refused(|y| slice(&[1, 2, 3, 4, 5, 6], &[3, 2], &p, y));
    assert!(slice_params(&[2, 3], &[2, 0], &[1, 3]).is_err());
    assert!(slice_params(&[2, 3], &[0, 1], &[1, 3]).is_err());
    assert!(slice_params(&[2, 3], &[-1, 0], &[1, 3]).is_err());
    assert!(slice_params(&[2, 3], &[0, 0], &[1, -2]).is_err());
    assert!(slice_params(&[2, 3], &[0], &[1]).is_err());
    assert!(slice_params(&[1; 6], &[0; 6], &[1; 6]).is_err());
    let plain = StridedSliceOptions::new(0, 0, 0);
    let p = strided_slice_params(&[2, 3], &[0, 0], &[2, 3], &[1, 1], &plain).unwrap();
    refused(|y| strided_slice(&[1, 2, 3, 4, 5], &[2, 3], &p, y));
    refused(|y| strided_slice(&[1, 2, 3, 4, 5, 6], &[3, 2], &p, y));
    assert!(strided_slice_params(&[2, 3], &[0, 0], &[2, 3], &[1, 0], &plain).is_err());
    assert!(strided_slice_params(&[2, 3], &[0], &[2, 3], &[1, 1], &plain).is_err());
    for field in 0..3 {
        let mut o = plain;
        match field {
            0 => o.ellipsis_mask = 1,
            1 => o.new_axis_mask = 2,
            _ => o.offset = true,
        }
        let err = strided_slice_params(&[2, 3], &[0, 0], &[2, 3], &[1, 1], &o).unwrap_err();
        assert!(err.to_string().contains("TFLite Micro ignores it"), "{err}");
    }
    // a shrunk axis past the end
    let shrink = StridedSliceOptions::new(0, 0, 1);
    assert!(strided_slice_params(&[2, 3], &[2, 0], &[3, 3], &[1, 1], &shrink).is_err());
    // params whose start lies outside the input
    let mut bad = p;
    bad.start[1] = 3;
    refused(|y| strided_slice(&[1, 2, 3, 4, 5, 6], &[2, 3], &bad, y));
}

#[test]
fn the_other_moves_refuse_bad_params_and_lengths_untouched() {
    let p = transpose_params(2, &[1, 0]).unwrap();
    refused(|y| transpose(&[1, 2, 3, 4, 5], &[2, 3], &p, y));
    refused(|y| transpose(&[1, 2, 3, 4, 5, 6], &[6], &p, y));
    assert!(transpose_params(2, &[0, 0]).is_err());
    assert!(transpose_params(2, &[0, -1]).is_err());
    assert!(transpose_params(7, &[0, 1, 2, 3, 4, 5, 6]).is_err());
    assert!(transpose_params(2, &[0]).is_err());

    let p = gather_params(&[3, 2], &[3], 0, 0).unwrap();
    let err = refused(|y| gather(&[1, 2, 3, 4, 5, 6], &[3, 2], &[0, 3, 1][..], &[3], &p, y));
    assert!(err.to_string().contains("index"), "{err}");
    refused(|y| gather(&[1, 2, 3, 4, 5, 6], &[3, 2], &[0, -1, 1][..], &[3], &p, y));
    refused(|y| gather(&[1, 2, 3, 4, 5], &[3, 2], &[0, 1, 1][..], &[3], &p, y));
    refused(|y| gather(&[1, 2, 3, 4, 5, 6], &[3, 2], &[0, 1][..], &[3], &p, y));
    assert!(gather_params(&[3, 2], &[3], 2, 0).is_err());
    assert!(gather_params(&[3, 2], &[3], 0, 1).is_err());

    let p = depth_space_params(2).unwrap();
    refused(|y| depth_to_space(&[1, 2, 3], &[1, 1, 1, 4], &p, y));
    refused(|y| depth_to_space(&[1, 2, 3, 4, 5, 6], &[1, 1, 1, 6], &p, y));
    refused(|y| space_to_depth(&[1, 2, 3, 4, 5, 6], &[1, 3, 2, 1], &p, y));
    refused(|y| space_to_depth(&[1, 2, 3, 4, 5, 6], &[1, 6], &p, y));
    assert!(depth_space_params(0).is_err());

    let p = mirror_pad_params(MirrorPadMode::Reflect, &[3], &[(2, 1)]).unwrap();
    refused(|y| mirror_pad(&[1, 2], &[3], &[(2, 1)], &p, y));
    refused(|y| mirror_pad(&[1, 2, 3], &[3], &[(3, 0)], &p, y)); // REFLECT's limit: 2
    refused(|y| mirror_pad(&[1, 2, 3], &[3], &[(1, 1)], &p, y)); // an output of 5
    refused(|y| mirror_pad(&[1, 2, 3], &[3], &[], &p, y));
    assert!(mirror_pad_params(MirrorPadMode::Symmetric, &[3], &[(4, 0)]).is_err());

    refused(|y| expand_dims(&[1, 2, 3], y));
    assert!(expand_dims_params(2, 3).is_err());
    assert!(expand_dims_params(2, -4).is_err());

    let q = (0.5, 1);
    assert!(padv2_params(3, q, (0.25, 1), q).is_err());
    assert!(padv2_params(3, (0.5, 2), q, q).is_err());
}

// ------------------------------------------- any arguments, no panic ---

/// A shape of 0 to 7 dims of 0 to 4 (past the ranks the kernels take).
fn any_shape() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..=4, 0..=7)
}

/// A buffer of about `n` elements: `n`, or one less, or one more.
fn sized(n: usize, wobble: u8) -> Vec<i8> {
    let len = match wobble % 4 {
        0 => n.saturating_sub(1),
        1 => n + 1,
        _ => n,
    };
    vec![7i8; len.min(4096)]
}

/// Runs `f` on an output of `len` elements set to 0x55: a refusal leaves
/// it untouched and says why.
fn runs_or_refuses(len: usize, f: impl FnOnce(&mut [i8]) -> Result<(), TfliteError>) {
    let mut out = vec![0x55i8; len.min(4096)];
    if let Err(e) = f(&mut out) {
        assert!(out.iter().all(|&y| y == 0x55), "{e}");
        assert!(!e.to_string().is_empty());
    }
}

fn product(shape: &[usize]) -> usize {
    shape.iter().product()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Hand-built parameters and shapes of any rank, buffers of any
    /// length near theirs: each kernel runs or refuses, never panics, and
    /// a refusal writes nothing.
    #[test]
    fn the_kernels_take_any_arguments_without_panicking(
        (a, b) in (any_shape(), any_shape()),
        numbers in prop::collection::vec(-3i64..=8, 12),
        wobble in prop::collection::vec(any::<u8>(), 4),
    ) {
        let at = |k: usize| numbers[k];
        let u = |k: usize| at(k).max(0) as usize;
        let na = product(&a);
        let nb = product(&b);
        let x = sized(na, wobble[0]);
        let out_len = match wobble[1] % 3 { 0 => na, 1 => nb, _ => u(0) * u(1) };
        let y_len = sized(out_len, wobble[2]).len();

        // joins
        let p = shapecheck_tflite::ConcatenationParams { axis: u(2) };
        let x2 = sized(nb, wobble[3]);
        runs_or_refuses(y_len, |y| concatenation(&[&x, &x2], &[&a, &b], &p, y));
        let p = shapecheck_tflite::PackParams { axis: u(3), values_count: u(4) };
        runs_or_refuses(y_len, |y| pack(&[&x, &x], &a, &p, y));

        // splits
        let mut sizes = [0usize; shapecheck_tflite::MAX_SPLITS];
        for (k, s) in sizes.iter_mut().enumerate().take(4) {
            *s = u(5 + k);
        }
        let p = shapecheck_tflite::SplitParams { axis: u(9), count: u(10).min(20), sizes };
        let mut outs: Vec<Vec<i8>> = (0..p.count).map(|k| vec![0x55i8; sizes.get(k).copied().unwrap_or(0) * u(11)]).collect();
        let before = outs.clone();
        let mut refs: Vec<&mut [i8]> = outs.iter_mut().map(Vec::as_mut_slice).collect();
        if split(&x, &a, &p, &mut refs).is_err() {
            prop_assert_eq!(&outs, &before);
        }
        let p = shapecheck_tflite::UnpackParams { axis: u(9), num: u(10) };
        let mut outs: Vec<Vec<i8>> = (0..u(10)).map(|_| vec![0x55i8; u(11)]).collect();
        let before = outs.clone();
        let mut refs: Vec<&mut [i8]> = outs.iter_mut().map(Vec::as_mut_slice).collect();
        if unpack(&x, &a, &p, &mut refs).is_err() {
            prop_assert_eq!(&outs, &before);
        }

        // one input, one output
        let mut perm = [0usize; 6];
        for (k, q) in perm.iter_mut().enumerate() {
            *q = u(k);
        }
        let p = shapecheck_tflite::TransposeParams { rank: a.len(), perm };
        runs_or_refuses(y_len, |y| transpose(&x, &a, &p, y));
        let mut begin = [0usize; 5];
        let mut size = [0usize; 5];
        let mut stride = [0i32; 5];
        for k in 0..5 {
            begin[k] = u(k);
            size[k] = u(k + 5);
            stride[k] = at(k + 6) as i32 - 2;
        }
        let p = shapecheck_tflite::SliceParams { rank: a.len(), begin, size };
        runs_or_refuses(y_len, |y| slice(&x, &a, &p, y));
        let p = shapecheck_tflite::StridedSliceParams {
            rank: a.len(),
            start: begin,
            stride,
            count: size,
            shrink_axis_mask: u(11) as u32,
        };
        runs_or_refuses(y_len, |y| strided_slice(&x, &a, &p, y));
        let indices: Vec<i32> = numbers.iter().take(u(0)).map(|&i| i as i32).collect();
        let p = shapecheck_tflite::GatherParams { axis: u(1), batch_dims: u(2) };
        runs_or_refuses(y_len, |y| gather(&x, &a, &indices[..], &[indices.len()], &p, y));
        runs_or_refuses(y_len, |y| gather(&x, &a, &indices[..], &b, &p, y));
        let p = shapecheck_tflite::DepthSpaceParams { block_size: u(3) };
        runs_or_refuses(y_len, |y| depth_to_space(&x, &a, &p, y));
        runs_or_refuses(y_len, |y| space_to_depth(&x, &a, &p, y));
        let pads: Vec<(usize, usize)> = (0..a.len()).map(|k| (u(k), u(k + 1))).collect();
        let p = shapecheck_tflite::MirrorPadParams { offset: u(4) % 3 };
        runs_or_refuses(y_len, |y| mirror_pad(&x, &a, &pads, &p, y));
        runs_or_refuses(y_len, |y| pad(&x, &a, &pads, 3, y));
        runs_or_refuses(y_len, |y| expand_dims(&x, y));
    }
}
