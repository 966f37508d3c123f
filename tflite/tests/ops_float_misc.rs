//! The f32 kernels of `CONCATENATION`, `RESIZE_NEAREST_NEIGHBOR`,
//! `RESIZE_BILINEAR`, `BATCH_MATMUL`, `MAXIMUM`, `MINIMUM`, `DIV` and
//! `REDUCE_MAX` against TFLite Micro and against naive references.
//!
//! First each of these operators in the float one-op models of
//! `tests/ops/` is run through its public kernel on the inputs TFLite
//! Micro recorded for it (constants read from the model) and compared
//! with TFLite Micro's output to the bit, the sign of zero included (all
//! are plain arithmetic: no C library call). `f32_concat` and `f32_div`
//! are checked so only: their convolutions and LOGISTIC are other
//! kernels. Then property tests against plain references written from
//! TFLite's formulas, NaN, ±0 and ±∞ among the values, and the checks
//! that refuse bad lengths before anything is written.

use proptest::prelude::*;
use serde_json::Value;
use shapecheck_tflite::{
    activation_range_f32, batch_matmul_f32, concatenation, concatenation_params, div_f32, maximum,
    minimum, reduce_axes, reduce_max_f32, resize_bilinear_f32, resize_nearest_neighbor,
    resize_params, Activation, Model, Options, ResizeDims, TensorType, TfliteError,
};

fn read(name: &str) -> (Vec<u8>, Value) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
    let bytes = std::fs::read(dir.join(format!("{name}.tflite"))).unwrap();
    let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
    (bytes, serde_json::from_str(&json).unwrap())
}

/// A recorded tensor's data as f32 values (the JSON holds f32s, each read
/// back to the nearest f32).
fn f32s(data: &Value) -> Vec<f32> {
    data.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_f64().expect("a number") as f32)
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

/// Operand `tensor` in a case: its recorded data, or the model's constant.
fn operand(model: &Model, case: &Value, tensor: usize) -> Vec<f32> {
    let t = model.tensor(tensor).unwrap();
    if let Some(c) = t.data_as::<f32>().filter(|c| !c.is_empty()) {
        return c.iter().collect();
    }
    let recorded = &case["tensors"][tensor.to_string()]["data"];
    assert!(!recorded.is_null(), "tensor {tensor} is not recorded");
    f32s(recorded)
}

/// The int32 constant of `tensor` (a resize's size, a reduction's axes).
fn constant_i32(model: &Model, tensor: usize) -> Vec<i32> {
    model
        .tensor(tensor)
        .unwrap()
        .data_as::<i32>()
        .unwrap()
        .iter()
        .collect()
}

/// Runs this file's f32 operators of `name`'s model on every recorded
/// case; returns the number of values compared, per op name.
fn check_model(name: &str) -> Vec<(String, usize)> {
    let (bytes, recording) = read(name);
    let model = Model::parse(&bytes).unwrap();
    let cases = recording["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 8, "{name}: every oracle records 8 cases");
    let mut compared: Vec<(String, usize)> = vec![];
    for op in model.operators() {
        let inputs: Vec<usize> = (0..op.inputs().len()).filter_map(|k| op.input(k)).collect();
        let out = op.output(0).unwrap();
        if model.tensor(out).unwrap().dtype() != TensorType::Float32 {
            continue;
        }
        let op_name = op.op().name();
        if !matches!(
            op_name,
            "CONCATENATION"
                | "RESIZE_NEAREST_NEIGHBOR"
                | "RESIZE_BILINEAR"
                | "BATCH_MATMUL"
                | "MAXIMUM"
                | "MINIMUM"
                | "DIV"
                | "REDUCE_MAX"
        ) {
            continue;
        }
        let mut count = 0;
        for case in cases {
            let want = f32s(&case["tensors"][out.to_string()]["data"]);
            let mut got = vec![f32::NAN; want.len()];
            let x = operand(&model, case, inputs[0]);
            let sx = shape(&model, inputs[0]);
            match (op_name, op.options()) {
                ("CONCATENATION", Options::Concatenation(o)) => {
                    let xs: Vec<Vec<f32>> =
                        inputs.iter().map(|&t| operand(&model, case, t)).collect();
                    let shapes: Vec<Vec<usize>> =
                        inputs.iter().map(|&t| shape(&model, t)).collect();
                    let q = vec![(1.0, 0); xs.len()];
                    let params =
                        concatenation_params(&q, (1.0, 0), o.axis, sx.len(), o.fused_activation)
                            .unwrap();
                    let xs: Vec<&[f32]> = xs.iter().map(Vec::as_slice).collect();
                    let shapes: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
                    concatenation(&xs, &shapes, &params, &mut got).unwrap();
                }
                ("RESIZE_NEAREST_NEIGHBOR" | "RESIZE_BILINEAR", Options::Resize(o)) => {
                    let size = constant_i32(&model, inputs[1]);
                    let dims = ResizeDims {
                        batches: sx[0],
                        input_height: sx[1],
                        input_width: sx[2],
                        depth: sx[3],
                        output_height: usize::try_from(size[0]).unwrap(),
                        output_width: usize::try_from(size[1]).unwrap(),
                    };
                    let params = resize_params(o.align_corners, o.half_pixel_centers).unwrap();
                    if op_name == "RESIZE_BILINEAR" {
                        resize_bilinear_f32(&x, dims, params, &mut got).unwrap();
                    } else {
                        resize_nearest_neighbor(&x, dims, params, &mut got).unwrap();
                    }
                }
                ("BATCH_MATMUL", Options::BatchMatMul(o)) => {
                    let y = operand(&model, case, inputs[1]);
                    let sy = shape(&model, inputs[1]);
                    batch_matmul_f32(&x, &sx, &y, &sy, o.adj_x, o.adj_y, &mut got).unwrap();
                }
                ("MAXIMUM" | "MINIMUM", _) => {
                    let y = operand(&model, case, inputs[1]);
                    let sy = shape(&model, inputs[1]);
                    if op_name == "MAXIMUM" {
                        maximum(&x[..], &sx, &y[..], &sy, &mut got).unwrap();
                    } else {
                        minimum(&x[..], &sx, &y[..], &sy, &mut got).unwrap();
                    }
                }
                ("DIV", Options::Div(o)) => {
                    let y = operand(&model, case, inputs[1]);
                    let sy = shape(&model, inputs[1]);
                    let (lo, hi) = activation_range_f32(o.fused_activation).unwrap();
                    div_f32(&x[..], &sx, &y[..], &sy, lo, hi, &mut got).unwrap();
                }
                ("REDUCE_MAX", _) => {
                    let axes = reduce_axes(&sx, &constant_i32(&model, inputs[1])).unwrap();
                    reduce_max_f32(&x, &axes, &mut got).unwrap();
                }
                (other, options) => panic!("{name}: {other} with options {options:?}"),
            }
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g.to_bits() == w.to_bits(),
                    "{name} {} operator {} ({op_name}): element {k}: ours {g:e}, TFLite Micro's {w:e}",
                    case["name"],
                    op.index()
                );
            }
            count += want.len();
        }
        compared.push((op_name.to_string(), count));
    }
    compared
}

fn ops(list: &[(&str, usize)]) -> Vec<(String, usize)> {
    list.iter().map(|&(n, c)| (n.to_string(), c)).collect()
}

#[test]
fn the_f32_kernels_match_tflite_micro_to_the_bit() {
    // [1, 5, 4, 3] to [1, 10, 8, 3], 240 values a case
    assert_eq!(
        check_model("f32_resize_nearest_x2"),
        ops(&[("RESIZE_NEAREST_NEIGHBOR", 8 * 240)])
    );
    assert_eq!(
        check_model("f32_resize_bilinear_x2"),
        ops(&[("RESIZE_BILINEAR", 8 * 240)])
    );
    // [1, 5, 6] · [1, 5, 6]ᵀ
    assert_eq!(
        check_model("f32_batch_matmul"),
        ops(&[("BATCH_MATMUL", 8 * 25)])
    );
    assert_eq!(
        check_model("f32_maximum_minimum"),
        ops(&[("MAXIMUM", 8 * 28), ("MINIMUM", 8 * 28)])
    );
    assert_eq!(check_model("f32_reduce_max"), ops(&[("REDUCE_MAX", 8 * 3)]));
    // three f32 convolutions' outputs joined on the channels
    assert_eq!(
        check_model("f32_concat"),
        ops(&[("CONCATENATION", 8 * 270)])
    );
    // the DIV after two convolutions and a LOGISTIC
    assert_eq!(check_model("f32_div"), ops(&[("DIV", 8 * 90)]));
}

// Naive references, written plainly from TFLite's formulas.

/// Every index of `shape`, row-major.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in shape {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..d).map(move |i| {
                    let mut v = prefix.clone();
                    v.push(i);
                    v
                })
            })
            .collect();
    }
    all
}

/// The flat index in a tensor of `shape` of the output's element at
/// `index` (numpy's broadcasting: right-aligned, a dim of 1 read at 0).
fn broadcast_index(shape: &[usize], out_shape: &[usize], index: &[usize]) -> usize {
    let skip = out_shape.len() - shape.len();
    let mut flat = 0;
    for (axis, &d) in shape.iter().enumerate() {
        let i = if d == 1 { 0 } else { index[skip + axis] };
        flat = flat * d + i;
    }
    flat
}

fn naive_binary(
    (a, a_shape): (&[f32], &[usize]),
    (b, b_shape): (&[f32], &[usize]),
    out_shape: &[usize],
    f: impl Fn(f32, f32) -> f32,
) -> Vec<f32> {
    indices(out_shape)
        .iter()
        .map(|i| {
            f(
                a[broadcast_index(a_shape, out_shape, i)],
                b[broadcast_index(b_shape, out_shape, i)],
            )
        })
        .collect()
}

/// TFLite's `ActivationFunctionWithMinMax`: `min(max(x, lo), hi)` with
/// C++'s `std::max` / `std::min`.
fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    let y = if x < lo { lo } else { x };
    if hi < y {
        hi
    } else {
        y
    }
}

fn same_bits(ours: &[f32], theirs: &[f32]) -> bool {
    ours.len() == theirs.len()
        && ours
            .iter()
            .zip(theirs)
            .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
}

/// Values with the cases where floats differ: ±0, ±∞, NaN, ties.
fn values(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(
        prop_oneof![
            4 => -100.0f32..100.0,
            1 => Just(0.0f32),
            1 => Just(-0.0f32),
            1 => Just(1.0f32),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            1 => Just(f32::NAN),
        ],
        n,
    )
}

/// Two shapes that broadcast, up to rank 4, and their output's.
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vec<usize>)> {
    prop::collection::vec((1usize..4, any::<bool>(), any::<bool>()), 0..5).prop_flat_map(|dims| {
        let a: Vec<usize> = dims.iter().map(|d| if d.1 { 1 } else { d.0 }).collect();
        let b: Vec<usize> = dims.iter().map(|d| if d.2 { 1 } else { d.0 }).collect();
        (0..=a.len(), 0..=b.len()).prop_map(move |(ka, kb)| {
            let (a, b) = (a[a.len() - ka..].to_vec(), b[b.len() - kb..].to_vec());
            // the larger of each right-aligned pair, a missing dim 1
            let rank = ka.max(kb);
            let at = |v: &[usize], k: usize| (k + v.len()).checked_sub(rank).map_or(1, |i| v[i]);
            let out = (0..rank).map(|k| at(&a, k).max(at(&b, k))).collect();
            (a, b, out)
        })
    })
}

fn activation() -> impl Strategy<Value = Activation> {
    prop_oneof![
        Just(Activation::None),
        Just(Activation::Relu),
        Just(Activation::Relu6),
        Just(Activation::ReluN1To1)
    ]
}

/// TFLite's `ComputeInterpolationValues`, with the C library's floor and
/// ceiling.
fn naive_interpolation(y: usize, scale: f32, half: bool, size: usize) -> (f32, usize, usize) {
    let v = y as f32;
    let s = if half {
        (v + 0.5) * scale - 0.5
    } else {
        v * scale
    };
    let lo = (s.floor() as i32).max(0) as usize;
    let hi = (s.ceil() as i32).min(size as i32 - 1) as usize;
    (s, lo, hi)
}

#[allow(clippy::too_many_arguments)]
fn naive_bilinear(
    x: &[f32],
    (n, h, w, c): (usize, usize, usize, usize),
    (oh, ow): (usize, usize),
    align: bool,
    half: bool,
) -> Vec<f32> {
    let scale = |i: usize, o: usize| {
        if align && o > 1 {
            (i - 1) as f32 / (o - 1) as f32
        } else {
            i as f32 / o as f32
        }
    };
    let (hs, ws) = (scale(h, oh), scale(w, ow));
    let at = |b: usize, y: usize, xx: usize, k: usize| x[((b * h + y) * w + xx) * c + k];
    let mut out = vec![];
    for b in 0..n {
        for y in 0..oh {
            let (iy, y0, y1) = naive_interpolation(y, hs, half, h);
            for xx in 0..ow {
                let (ix, x0, x1) = naive_interpolation(xx, ws, half, w);
                for k in 0..c {
                    let v = at(b, y0, x0, k) * (1.0 - (iy - y0 as f32)) * (1.0 - (ix - x0 as f32))
                        + at(b, y1, x0, k) * (iy - y0 as f32) * (1.0 - (ix - x0 as f32))
                        + at(b, y0, x1, k) * (1.0 - (iy - y0 as f32)) * (ix - x0 as f32)
                        + at(b, y1, x1, k) * (iy - y0 as f32) * (ix - x0 as f32)
                        + 0.0;
                    out.push(v);
                }
            }
        }
    }
    out
}

/// `a · b` per broadcast batch, with each transposed operand written out
/// transposed first: `out[i][j] = Σ_t a[i][t]·b[t][j]` from +0.
fn naive_batch_matmul(
    (a, a_shape): (&[f32], &[usize]),
    (b, b_shape): (&[f32], &[usize]),
    adj_x: bool,
    adj_y: bool,
    (batch, n): (&[usize], usize),
) -> Vec<f32> {
    let matrix = |data: &[f32], shape: &[usize], index: &[usize], adj: bool| -> Vec<Vec<f32>> {
        let rank = shape.len();
        let (r, c) = (shape[rank - 2], shape[rank - 1]);
        let mut start = 0;
        let skip = batch.len() - (rank - 2);
        for (axis, &d) in shape[..rank - 2].iter().enumerate() {
            let i = if d == 1 { 0 } else { index[skip + axis] };
            start = start * d + i;
        }
        let m: Vec<Vec<f32>> = (0..r)
            .map(|i| (0..c).map(|j| data[start * r * c + i * c + j]).collect())
            .collect();
        if adj {
            (0..c).map(|j| (0..r).map(|i| m[i][j]).collect()).collect()
        } else {
            m
        }
    };
    let mut out = vec![];
    for index in indices(batch) {
        let x = matrix(a, a_shape, &index, adj_x);
        let y = matrix(b, b_shape, &index, adj_y);
        for row in &x {
            for j in 0..n {
                let mut total = 0.0f32;
                for (&v, y_row) in row.iter().zip(&y) {
                    total += v * y_row[j];
                }
                out.push(total);
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn maximum_minimum_and_div_are_the_naive_broadcast(
        (a_shape, b_shape, out_shape, a, b) in shapes().prop_flat_map(|(a_shape, b_shape, out_shape)| {
            let (na, nb) = (a_shape.iter().product(), b_shape.iter().product());
            (Just(a_shape), Just(b_shape), Just(out_shape), values(na), values(nb))
        }),
        act in activation(),
    ) {
        let n: usize = out_shape.iter().product();
        let mut got = vec![f32::NAN; n];
        maximum(&a[..], &a_shape, &b[..], &b_shape, &mut got).unwrap();
        let want = naive_binary((&a, &a_shape), (&b, &b_shape), &out_shape, |x, y| if x > y { x } else { y });
        // to the bit: a NaN is the NaN of its operand
        prop_assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()), "maximum: {got:?} {want:?}");
        minimum(&a[..], &a_shape, &b[..], &b_shape, &mut got).unwrap();
        let want = naive_binary((&a, &a_shape), (&b, &b_shape), &out_shape, |x, y| if x < y { x } else { y });
        prop_assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()), "minimum: {got:?} {want:?}");
        let (lo, hi) = activation_range_f32(act).unwrap();
        div_f32(&a[..], &a_shape, &b[..], &b_shape, lo, hi, &mut got).unwrap();
        let want = naive_binary((&a, &a_shape), (&b, &b_shape), &out_shape, |x, y| clamp(x / y, lo, hi));
        prop_assert!(same_bits(&got, &want), "div: {got:?} {want:?}");
    }

    #[test]
    fn reduce_max_is_the_naive_fold_from_the_lowest_float(
        (dims, reduced, x) in prop::collection::vec(1usize..4, 1..5).prop_flat_map(|dims| {
            let n = dims.iter().product();
            let rank = dims.len();
            (Just(dims), prop::collection::vec(any::<bool>(), rank), values(n))
        })
    ) {
        let axes_list: Vec<i32> = (0..dims.len()).filter(|&k| reduced[k]).map(|k| k as i32).collect();
        let axes = reduce_axes(&dims, &axes_list).unwrap();
        let out_dims: Vec<usize> = dims.iter().zip(&reduced).filter(|(_, &r)| !r).map(|(&d, _)| d).collect();
        let outputs: usize = out_dims.iter().product();
        let mut want = vec![f32::MIN; outputs];
        for (flat, index) in indices(&dims).iter().enumerate() {
            let mut o = 0;
            for (axis, &d) in dims.iter().enumerate() {
                if !reduced[axis] {
                    o = o * d + index[axis];
                }
            }
            let v = x[flat];
            want[o] = if v > want[o] { v } else { want[o] };
        }
        let mut got = vec![f32::NAN; outputs];
        reduce_max_f32(&x, &axes, &mut got).unwrap();
        prop_assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()), "{got:?} {want:?}");
    }

    #[test]
    fn bilinear_is_tflites_formula(
        (n, h, w, c) in (1usize..3, 1usize..6, 1usize..6, 1usize..4),
        (oh, ow) in (1usize..12, 1usize..12),
        flags in prop_oneof![Just((false, false)), Just((true, false)), Just((false, true))],
        seed in any::<u64>(),
    ) {
        let x: Vec<f32> = (0..n * h * w * c)
            .map(|k| {
                let v = (seed.wrapping_mul(6364136223846793005).wrapping_add((k as u64).wrapping_mul(1442695040888963407)) >> 40) as f32;
                // negative, positive and zero values, some −0
                if k % 7 == 3 { -0.0 } else { v / 1e5 - 80.0 }
            })
            .collect();
        let dims = ResizeDims { batches: n, input_height: h, input_width: w, depth: c, output_height: oh, output_width: ow };
        let params = resize_params(flags.0, flags.1).unwrap();
        let mut got = vec![f32::NAN; n * oh * ow * c];
        resize_bilinear_f32(&x, dims, params, &mut got).unwrap();
        let want = naive_bilinear(&x, (n, h, w, c), (oh, ow), flags.0, flags.1);
        prop_assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()), "{got:?} {want:?}");
        // no −0 survives TFLite's trailing + 0
        prop_assert!(got.iter().all(|v| v.to_bits() != (-0.0f32).to_bits()));
    }

    #[test]
    fn batch_matmul_is_the_naive_product(
        (m, k, n) in (1usize..5, 0usize..6, 1usize..5),
        (b_lhs, b_rhs) in prop_oneof![
            Just((vec![], vec![])),
            Just((vec![2], vec![2])),
            Just((vec![3], vec![1])),
            Just((vec![1, 2], vec![3, 1])),
            Just((vec![2, 2], vec![2])),
        ],
        (adj_x, adj_y) in (any::<bool>(), any::<bool>()),
        seed in values(64),
    ) {
        let lhs_shape: Vec<usize> = b_lhs.iter().copied().chain(if adj_x { [k, m] } else { [m, k] }).collect();
        let rhs_shape: Vec<usize> = b_rhs.iter().copied().chain(if adj_y { [n, k] } else { [k, n] }).collect();
        let fill = |len: usize, shift: usize| -> Vec<f32> { (0..len).map(|i| seed[(i * 7 + shift) % 64]).collect() };
        let a = fill(lhs_shape.iter().product(), 0);
        let b = fill(rhs_shape.iter().product(), 13);
        let batch: Vec<usize> = {
            let rank = b_lhs.len().max(b_rhs.len());
            let pad = |v: &Vec<usize>| -> Vec<usize> { std::iter::repeat_n(1, rank - v.len()).chain(v.iter().copied()).collect() };
            pad(&b_lhs).iter().zip(pad(&b_rhs)).map(|(&x, y)| x.max(y)).collect()
        };
        let batches: usize = batch.iter().product();
        let mut got = vec![f32::NAN; batches * m * n];
        batch_matmul_f32(&a, &lhs_shape, &b, &rhs_shape, adj_x, adj_y, &mut got).unwrap();
        let want = naive_batch_matmul((&a, &lhs_shape), (&b, &rhs_shape), adj_x, adj_y, (&batch, n));
        prop_assert!(same_bits(&got, &want), "{got:?} {want:?}");
    }

    #[test]
    fn concatenation_copies_f32_bits(
        (rows, widths) in (1usize..4, prop::collection::vec(1usize..4, 1..4)),
        x in values(48),
    ) {
        let parts: Vec<Vec<f32>> = widths.iter().enumerate()
            .map(|(p, &wd)| (0..rows * wd).map(|i| x[(i + 5 * p) % 48]).collect())
            .collect();
        let shapes: Vec<Vec<usize>> = widths.iter().map(|&wd| vec![rows, wd]).collect();
        let total: usize = widths.iter().sum();
        let q = vec![(1.0, 0); parts.len()];
        let params = concatenation_params(&q, (1.0, 0), -1, 2, Activation::None).unwrap();
        let mut got = vec![f32::NAN; rows * total];
        let xs: Vec<&[f32]> = parts.iter().map(Vec::as_slice).collect();
        let ss: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        concatenation(&xs, &ss, &params, &mut got).unwrap();
        let mut want = vec![];
        for r in 0..rows {
            for (p, &wd) in widths.iter().enumerate() {
                want.extend_from_slice(&parts[p][r * wd..(r + 1) * wd]);
            }
        }
        prop_assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()));
    }
}

#[test]
fn bad_lengths_are_refused_before_anything_is_written() {
    let mut out = [7.0f32; 4];
    let dims = ResizeDims {
        batches: 1,
        input_height: 1,
        input_width: 2,
        depth: 1,
        output_height: 2,
        output_width: 2,
    };
    let params = resize_params(false, true).unwrap();
    assert!(matches!(
        resize_bilinear_f32(&[1.0; 3], dims, params, &mut out),
        Err(TfliteError::Length { .. })
    ));
    assert!(resize_bilinear_f32(&[1.0; 2], dims, params, &mut out[..3]).is_err());
    let both = shapecheck_tflite::ResizeParams {
        align_corners: true,
        half_pixel_centers: true,
    };
    assert!(resize_bilinear_f32(&[1.0; 2], dims, both, &mut out).is_err());
    assert!(batch_matmul_f32(
        &[1.0; 6],
        &[2, 3],
        &[1.0; 6],
        &[2, 3],
        false,
        false,
        &mut out
    )
    .is_err());
    assert!(batch_matmul_f32(
        &[1.0; 4],
        &[2, 2],
        &[1.0; 4],
        &[2, 2],
        false,
        false,
        &mut out[..3]
    )
    .is_err());
    let (lo, hi) = activation_range_f32(Activation::None).unwrap();
    assert!(div_f32(
        &[1.0f32; 3][..],
        &[3],
        &[1.0f32; 2][..],
        &[2],
        lo,
        hi,
        &mut out
    )
    .is_err());
    let axes = reduce_axes(&[2, 2], &[1]).unwrap();
    assert!(reduce_max_f32(&[1.0; 3], &axes, &mut out[..2]).is_err());
    assert!(reduce_max_f32(&[1.0; 4], &axes, &mut out).is_err());
    assert_eq!(out, [7.0; 4], "nothing written");
}
