//! The reductions against TFLite Micro, bit for bit: `MEAN` over axis 1
//! of a rank-3 tensor, `SUM` over axis 2 (output scale ≠ input scale),
//! `REDUCE_MAX` over axes 1 and 2, `REDUCE_MIN` with keep_dims, and
//! `ARG_MAX` / `ARG_MIN` (int32 out), on every element of every recorded
//! case of their one-op models in `tests/ops/`. The axes, options and
//! quantization are read from the models with the crate's reader, the
//! parameters derived by the crate's `_params` functions. Then property
//! tests against naive references written plainly here, and the checks
//! that refuse bad lengths and parameters before anything is written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    arg_max, arg_min, arg_min_max_dims, arg_min_max_output_shape, mean_int8, mean_or_sum_int8,
    mean_params, reduce_axes, reduce_max, reduce_min, reduce_output_shape, sum_params, BuiltinOp,
    Model, Options, TensorType, TfliteError,
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

/// A recorded tensor of a case, by its index in the model.
fn recorded(case: &Value, tensor: usize) -> &Value {
    let t = &case["tensors"][tensor.to_string()];
    assert!(!t.is_null(), "case {} has no tensor {tensor}", case["name"]);
    &t["data"]
}

fn ints<T: TryFrom<i64>>(data: &Value) -> Vec<T> {
    data.as_array()
        .expect("array")
        .iter()
        .map(|v| {
            T::try_from(v.as_i64().expect("integer"))
                .ok()
                .expect("in range")
        })
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

/// The one operator of a one-op model, checked to be `op`, with its
/// input, constant int32 second input and output.
fn one_op(model: &Model, op: BuiltinOp) -> (usize, Vec<i32>, usize, bool) {
    assert_eq!(model.operators().count(), 1);
    let o = model.operator(0).unwrap();
    assert_eq!(o.op(), op);
    let constant: Vec<i32> = model
        .tensor(o.input(1).unwrap())
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect();
    let keep = match o.options() {
        Options::Reducer(r) => r.keep_dims,
        _ => false,
    };
    (o.input(0).unwrap(), constant, o.output(0).unwrap(), keep)
}

/// Runs a reduction model's op through `run` on every case and compares
/// every output element; returns how many.
fn check_reduction(
    bytes: &[u8],
    json: &str,
    op: BuiltinOp,
    expected_axes: &[i32],
    expected_keep: bool,
    run: impl Fn(&Model, &[i8], &[usize], &[i32], &mut [i8]),
) -> usize {
    let model = Model::parse(bytes).unwrap();
    let (input, axes, out, keep) = one_op(&model, op);
    assert_eq!((&axes[..], keep), (expected_axes, expected_keep));
    let in_shape = shape(&model, input);
    let out_shape = reduce_output_shape(&in_shape, &axes, keep).unwrap();
    assert_eq!(out_shape.dims(), &shape(&model, out)[..]);
    let mut compared = 0;
    for case in cases(json) {
        let x: Vec<i8> = ints(recorded(&case, input));
        let want: Vec<i8> = ints(recorded(&case, out));
        let mut got = vec![0x55i8; want.len()];
        run(&model, &x, &in_shape, &axes, &mut got);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i}", case["name"]);
            compared += 1;
        }
    }
    compared
}

#[test]
fn mean_over_axis_1_of_rank_3_is_tflite_micro_s() {
    let (bytes, json) = op_files!("mean_rank3_axis1");
    let n = check_reduction(
        bytes,
        json,
        BuiltinOp::MEAN,
        &[1],
        false,
        |model, x, dims, axes, y| {
            let r = reduce_axes(dims, axes).unwrap();
            let (si, zi) = quant(model, 0);
            let (so, zo) = quant(model, model.operator(0).unwrap().output(0).unwrap());
            let params = mean_params(si, zi, so, zo, r.count().unwrap()).unwrap();
            mean_or_sum_int8(x, &r, &params, y).unwrap();
        },
    );
    assert_eq!(n, 8 * 5);
}

#[test]
fn mean_over_h_and_w_is_the_rank_4_kernel_s() {
    // the models of the first set: the general kernel gives mean_int8's
    // values, which tests/ops_conv_pool.rs compares with TFLite Micro's
    let (bytes, json) = op_files!("mean_hw_keepdims");
    let n = check_reduction(
        bytes,
        json,
        BuiltinOp::MEAN,
        &[1, 2],
        true,
        |model, x, dims, axes, y| {
            let r = reduce_axes(dims, axes).unwrap();
            let (si, zi) = quant(model, model.operator(0).unwrap().input(0).unwrap());
            let (so, zo) = quant(model, model.operator(0).unwrap().output(0).unwrap());
            let params = mean_params(si, zi, so, zo, r.count().unwrap()).unwrap();
            mean_or_sum_int8(x, &r, &params, y).unwrap();
            let mut old = vec![0i8; y.len()];
            mean_int8(x, dims[0], dims[1], dims[2], dims[3], &params, &mut old).unwrap();
            assert_eq!(&old[..], &y[..]);
        },
    );
    assert!(n > 0);
}

#[test]
fn sum_over_axis_2_is_tflite_micro_s() {
    let (bytes, json) = op_files!("sum_axis2");
    let n = check_reduction(
        bytes,
        json,
        BuiltinOp::SUM,
        &[2],
        false,
        |model, x, dims, axes, y| {
            let r = reduce_axes(dims, axes).unwrap();
            let (si, zi) = quant(model, 0);
            let (so, zo) = quant(model, model.operator(0).unwrap().output(0).unwrap());
            assert_ne!(si, so);
            let params = sum_params(si, zi, so, zo, r.count().unwrap()).unwrap();
            mean_or_sum_int8(x, &r, &params, y).unwrap();
        },
    );
    assert_eq!(n, 8 * 15);
}

#[test]
fn reduce_max_over_axes_1_and_2_is_tflite_micro_s() {
    let (bytes, json) = op_files!("reduce_max_axis12");
    let n = check_reduction(
        bytes,
        json,
        BuiltinOp::REDUCE_MAX,
        &[1, 2],
        false,
        |model, x, dims, axes, y| {
            // the op moves data: one quantization in and out
            assert_eq!(
                quant(model, 0),
                quant(model, model.operator(0).unwrap().output(0).unwrap())
            );
            reduce_max(x, &reduce_axes(dims, axes).unwrap(), y).unwrap();
        },
    );
    assert_eq!(n, 8 * 3);
}

#[test]
fn reduce_min_keeping_dims_is_tflite_micro_s() {
    let (bytes, json) = op_files!("reduce_min");
    let n = check_reduction(
        bytes,
        json,
        BuiltinOp::REDUCE_MIN,
        &[2],
        true,
        |_, x, dims, axes, y| {
            reduce_min(x, &reduce_axes(dims, axes).unwrap(), y).unwrap();
        },
    );
    assert_eq!(n, 8 * 30);
}

/// Runs an arg max / min model on every case; returns the outputs
/// compared.
fn check_arg(bytes: &[u8], json: &str, op: BuiltinOp, expected_axis: i32) -> usize {
    let model = Model::parse(bytes).unwrap();
    let (input, axis, out, _) = one_op(&model, op);
    assert_eq!(axis, [expected_axis]);
    let Options::ArgMinMax(o) = model.operator(0).unwrap().options() else {
        panic!("no ArgMinMaxOptions")
    };
    assert_eq!(o.output_type, TensorType::Int32);
    assert_eq!(model.tensor(out).unwrap().dtype(), TensorType::Int32);
    let in_shape = shape(&model, input);
    let out_shape = arg_min_max_output_shape(&in_shape, axis[0]).unwrap();
    assert_eq!(out_shape.dims(), &shape(&model, out)[..]);
    let dims = arg_min_max_dims(&in_shape, axis[0]).unwrap();
    let mut compared = 0;
    let mut distinct = std::collections::BTreeSet::new();
    for case in cases(json) {
        let x: Vec<i8> = ints(recorded(&case, input));
        let want: Vec<i32> = ints(recorded(&case, out));
        let mut got = vec![-1i32; want.len()];
        if op == BuiltinOp::ARG_MAX {
            arg_max(&x, dims, &mut got).unwrap();
        } else {
            arg_min(&x, dims, &mut got).unwrap();
        }
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "case {}: output {i}", case["name"]);
            distinct.insert(*w);
            compared += 1;
        }
    }
    // the indices spread over the axis
    assert!(distinct.len() > 2, "{distinct:?}");
    compared
}

#[test]
fn arg_max_over_the_last_axis_is_tflite_micro_s() {
    let (bytes, json) = op_files!("arg_max");
    assert_eq!(check_arg(bytes, json, BuiltinOp::ARG_MAX, -1), 8 * 30);
}

#[test]
fn arg_min_over_axis_1_is_tflite_micro_s() {
    let (bytes, json) = op_files!("arg_min");
    assert_eq!(check_arg(bytes, json, BuiltinOp::ARG_MIN, 1), 8 * 42);
}

// ---- naive references ----

/// Row-major coordinates of every element of `dims`.
fn coordinates(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in dims {
        let mut next = vec![];
        for prefix in &all {
            for c in 0..d {
                let mut p = prefix.clone();
                p.push(c);
                next.push(p);
            }
        }
        all = next;
    }
    all
}

fn offset(coordinate: &[usize], dims: &[usize]) -> usize {
    coordinate
        .iter()
        .zip(dims)
        .fold(0, |acc, (&c, &d)| acc * d + c)
}

/// The elements of `x` (of `dims`) folded into each output of a
/// reduction over `reduced` axes, outputs in row-major order of the kept
/// dims.
fn groups(x: &[i8], dims: &[usize], reduced: &[bool]) -> Vec<Vec<i8>> {
    let kept: Vec<usize> = dims
        .iter()
        .zip(reduced)
        .map(|(&d, &r)| if r { 1 } else { d })
        .collect();
    let mut out = vec![vec![]; kept.iter().product()];
    for c in coordinates(dims) {
        let k: Vec<usize> = c
            .iter()
            .zip(reduced)
            .map(|(&v, &r)| if r { 0 } else { v })
            .collect();
        out[offset(&k, &kept)].push(x[offset(&c, dims)]);
    }
    out
}

/// TFLite Micro's requantization of a sum, written out: the doubling high
/// multiply rounded half up, then a right shift rounded half away from
/// zero.
fn requantize(acc: i32, multiplier: i32, shift: i32) -> i32 {
    let left = shift.max(0);
    let right = (-shift).max(0);
    let x = i64::from(acc.wrapping_mul(1 << left));
    let high = ((x * i64::from(multiplier) + (1 << 30)) >> 31) as i32;
    let mask = (1i64 << right) - 1;
    let rem = i64::from(high) & mask;
    let threshold = (mask >> 1) + i64::from(high < 0);
    ((i64::from(high) >> right) + i64::from(rem > threshold)) as i32
}

/// A shape of 1 to 6 dims of 1 to 4, and which dims are reduced.
fn reduction() -> impl Strategy<Value = (Vec<usize>, Vec<bool>)> {
    prop::collection::vec((1usize..=4, any::<bool>()), 1..=6).prop_map(|v| v.into_iter().unzip())
}

/// The axes naming `reduced`, each written positive or negative and some
/// twice, as TFLite's axes tensor may.
fn axes_of(reduced: &[bool], seed: u64) -> Vec<i32> {
    let rank = reduced.len() as i32;
    let mut axes = vec![];
    for (k, &r) in reduced.iter().enumerate() {
        if r {
            let k = k as i32;
            axes.push(if (seed >> k) & 1 == 1 { k - rank } else { k });
            if (seed >> (k + 8)) & 1 == 1 {
                axes.push(k);
            }
        }
    }
    axes
}

fn bytes(seed: u64, n: usize) -> Vec<i8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as i8
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mean_and_sum_are_their_naive_definitions(
        (dims, reduced) in reduction(),
        seed in any::<u64>(),
        (zi, zo) in (any::<i8>(), any::<i8>()),
        (si, so) in (0.001f32..0.5, 0.001f32..0.5),
        sum in any::<bool>(),
    ) {
        let axes = axes_of(&reduced, seed);
        let r = reduce_axes(&dims, &axes).unwrap();
        prop_assert_eq!(&r.reduced[..dims.len()], &reduced[..]);
        let x = bytes(seed, dims.iter().product());
        let count = r.count().unwrap();
        let params = if sum {
            sum_params(si, i32::from(zi), so, i32::from(zo), count).unwrap()
        } else {
            mean_params(si, i32::from(zi), so, i32::from(zo), count).unwrap()
        };
        let mut got = vec![0i8; r.outputs().unwrap()];
        mean_or_sum_int8(&x, &r, &params, &mut got).unwrap();
        let want: Vec<i8> = groups(&x, &dims, &reduced)
            .iter()
            .map(|g| {
                let s: i32 = g.iter().map(|&v| i32::from(v) - i32::from(zi)).sum();
                let y = requantize(s, params.multiplier.multiplier(), params.multiplier.shift())
                    + i32::from(zo);
                y.clamp(-128, 127) as i8
            })
            .collect();
        prop_assert_eq!(&got, &want);
        // the shape rule: the kept dims, or all with 1 for the reduced
        let kept: Vec<usize> = dims.iter().zip(&reduced).filter(|(_, &r)| !r).map(|(&d, _)| d).collect();
        let ones: Vec<usize> = dims.iter().zip(&reduced).map(|(&d, &r)| if r { 1 } else { d }).collect();
        prop_assert_eq!(reduce_output_shape(&dims, &axes, false).unwrap().dims().to_vec(), kept);
        prop_assert_eq!(reduce_output_shape(&dims, &axes, true).unwrap().dims().to_vec(), ones);
    }

    #[test]
    fn reduce_max_and_min_are_their_naive_definitions(
        (dims, reduced) in reduction(),
        seed in any::<u64>(),
    ) {
        let r = reduce_axes(&dims, &axes_of(&reduced, seed)).unwrap();
        let x = bytes(seed, dims.iter().product());
        let mut max = vec![0i8; r.outputs().unwrap()];
        let mut min = max.clone();
        reduce_max(&x, &r, &mut max).unwrap();
        reduce_min(&x, &r, &mut min).unwrap();
        let g = groups(&x, &dims, &reduced);
        prop_assert_eq!(max, g.iter().map(|g| *g.iter().max().unwrap()).collect::<Vec<_>>());
        prop_assert_eq!(min, g.iter().map(|g| *g.iter().min().unwrap()).collect::<Vec<_>>());
        // any element type: the same on i16 and f32
        let wide: Vec<i16> = x.iter().map(|&v| i16::from(v) * 3).collect();
        let mut wide_max = vec![0i16; r.outputs().unwrap()];
        reduce_max(&wide, &r, &mut wide_max).unwrap();
        prop_assert_eq!(wide_max, g.iter().map(|g| i16::from(*g.iter().max().unwrap()) * 3).collect::<Vec<_>>());
    }

    #[test]
    fn arg_max_and_min_are_the_first_extreme_index(
        dims in prop::collection::vec(1usize..=5, 1..=5),
        axis_pick in any::<usize>(),
        negative in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rank = dims.len();
        let a = axis_pick % rank;
        let axis = if negative { a as i32 - rank as i32 } else { a as i32 };
        // few distinct values: ties are frequent
        let x: Vec<i8> = bytes(seed, dims.iter().product()).iter().map(|v| v % 3).collect();
        let d = arg_min_max_dims(&dims, axis).unwrap();
        let mut got_max = vec![0i32; d.outer * d.inner];
        let mut got_min = got_max.clone();
        arg_max(&x, d, &mut got_max).unwrap();
        arg_min(&x, d, &mut got_min).unwrap();
        let mut reduced = vec![false; rank];
        reduced[a] = true;
        let g = groups(&x, &dims, &reduced);
        let first = |line: &Vec<i8>, v: i8| line.iter().position(|&e| e == v).unwrap() as i32;
        prop_assert_eq!(got_max, g.iter().map(|l| first(l, *l.iter().max().unwrap())).collect::<Vec<_>>());
        prop_assert_eq!(got_min, g.iter().map(|l| first(l, *l.iter().min().unwrap())).collect::<Vec<_>>());
        let mut out_dims = dims.clone();
        out_dims.remove(a);
        prop_assert_eq!(arg_min_max_output_shape(&dims, axis).unwrap().dims().to_vec(), out_dims);
    }
}

#[test]
fn bad_lengths_and_axes_are_refused_before_writing() {
    let r = reduce_axes(&[2, 3], &[1]).unwrap();
    let params = mean_params(0.1, 0, 0.1, 0, 3).unwrap();
    let mut out = [7i8; 2];
    // input too short, output too long, a count that is not the axes'
    assert!(matches!(
        mean_or_sum_int8(&[0; 5], &r, &params, &mut out),
        Err(TfliteError::Length { .. })
    ));
    assert!(mean_or_sum_int8(&[0; 6], &r, &params, &mut [7i8; 3]).is_err());
    let wrong = mean_params(0.1, 0, 0.1, 0, 2).unwrap();
    assert!(matches!(
        mean_or_sum_int8(&[0; 6], &r, &wrong, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(reduce_max(&[0i8; 7], &r, &mut out).is_err());
    assert!(reduce_min(&[0i8; 6], &r, &mut [7i8; 1]).is_err());
    assert_eq!(out, [7, 7]);
    // axes out of range, a rank past 6
    assert!(reduce_axes(&[2, 3], &[2]).is_err());
    assert!(reduce_axes(&[2, 3], &[-3]).is_err());
    assert!(reduce_axes(&[1; 7], &[0]).is_err());
    // an empty reduced dim: a maximum of nothing
    let empty = reduce_axes(&[2, 0], &[1]).unwrap();
    assert!(reduce_max(&[0i8; 0], &empty, &mut out).is_err());
    assert_eq!(out, [7, 7]);
    // arg max: bad axis, bad lengths
    assert!(arg_min_max_dims(&[2, 3], 2).is_err());
    let d = arg_min_max_dims(&[2, 3], 1).unwrap();
    let mut idx = [9i32; 2];
    assert!(arg_max(&[0i8; 5], d, &mut idx).is_err());
    assert!(arg_min(&[0i8; 6], d, &mut [9i32; 3]).is_err());
    assert_eq!(idx, [9, 9]);
}
