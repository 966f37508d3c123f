//! Rule agreement: the run-time form of each shape rule (`ops/<op>/rule.rs`,
//! what the dynamic path calls) and its type-level form (`src/rules/` and the
//! generated impls, what gives the compile errors) decide every case alike.
//!
//! Cases: every pair of shapes of rank 0 to 3 with dims in {0, 1, 2, 3} (85
//! shapes), every elementwise axis in `[-R, R)` (`R` the larger rank, -1 for
//! two scalars); for select every triple of such shapes under none, numpy and
//! pdpd at every axis from -1 to rank(then). The expectation of each case is
//! the run-time rule's verdict (and, when it accepts, the dynamic path's
//! output); the batch goes through `conformance static`, which compiles the
//! accepted cases (same output shape and values required) and checks that
//! every rejected case fails to compile, attributed to that case, every
//! error of it starting with the identifier of the rule the run-time form
//! names (`elementwise/runs-past: ...`): the two forms must agree on which
//! rule rejects a case, not only on whether one does.
//!
//! reduce (sum, max, argmax; axis null, each int and for sum and max each
//! pair from one past each end of the range, keepdim or not) and softmax
//! (each axis from one past each end, both ops), every shape above: 400
//! cases each by default, as the escape hatch's.
//!
//! The escape hatch's ops: dynamic_stitch (one or two (indices, data)
//! pairs of rank 0 to 3, dims in {0, 1, 2}, and TensorFlow's
//! `testErrorDataNumDimsMismatch`), dynamic_partition (data and partitions
//! shapes as for stitch, 1 or 3 partitions) and multiplex (two candidates,
//! an index of rank 0 to 3, wrong ranks and column counts too), and
//! matmul (every pair of shapes under the four pairs of transposes,
//! `AGREEMENT_CASES` as for the escape hatch's ops). Index
//! values are data: valid in every case (the run-time rules on them are
//! checked at run time on both paths). Left out, as known disagreements
//! (docs/conformance.md): multiplex cases breaking several shape rules at
//! once, and partition of scalar data by partitions of higher rank.
//!
//! The full enumeration (42 417 elementwise and 4 103 800 select
//! cases) is far too long to compile in CI, so by default a deterministic
//! sample is taken: `AGREEMENT_CASES` per family (default 1500; 400 for
//! the escape hatch's ops, whose cases compile slower), spread over the
//! whole enumeration by a fixed stride, half accepted and half rejected
//! where the family has enough of each (for the escape hatch's ops,
//! stratified by the rejecting rule). `AGREEMENT_CASES=0` runs everything.
//! The fused-expression forms of the accepted elementwise and select cases
//! are type-checked in every case but run in one case in five
//! (`CONFORMANCE_EXPR_EVERY`, default 5 here; the vectors run them all):
//! their code generation is most of the run crate's build time.

mod common;

use common::scratch;
use serde_json::{json, Value};
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::ops::matmul::{matmul_output_dims, matmul_slices};
use shapecheck::ops::multiplex::multiplex_output_dims;
use shapecheck::ops::partition::{partition_slice_dims, partition_slices};
use shapecheck::ops::reduce::{
    arg_slices, reduce_output_dims, reduce_slices, ArgKind, ReduceKind, Reduction,
};
use shapecheck::ops::select::{select_output_dims, select_slices};
use shapecheck::ops::softmax::{rule::plan as softmax_plan, softmax_slices, SoftmaxKind};
use shapecheck::ops::stitch::stitch_output_dims;
use shapecheck::{
    multiplex_slices, stitch_slices, ActivationKind, AutoBroadcast, BinaryOpKind, IndexSlice,
    StitchPair,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Every shape of rank 0 to 3 with dims in {0, 1, 2, 3}.
fn shapes() -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..3 {
        let next: Vec<Vec<usize>> = last
            .iter()
            .flat_map(|s: &Vec<usize>| {
                (0..4).map(move |d| {
                    let mut t = s.clone();
                    t.push(d);
                    t
                })
            })
            .collect();
        out.extend(next.iter().cloned());
        last = next;
    }
    out
}

fn numel(dims: &[usize]) -> usize {
    dims.iter().product()
}

fn tensor(dims: &[usize], dtype: &str, data: Value) -> Value {
    json!({"shape": dims, "dtype": dtype, "data": data})
}

/// Small nonzero values, different per operand.
fn ints(dims: &[usize], seed: i64) -> Vec<i32> {
    (0..numel(dims) as i64)
        .map(|i| ((i * 7 + seed) % 9 + 1) as i32)
        .collect()
}

fn bools(dims: &[usize]) -> Vec<bool> {
    (0..numel(dims)).map(|i| (i * 5 + 1) % 3 != 0).collect()
}

/// A reduce case: x (an index into [`shapes`]), the op, the axes (`None`:
/// null) and keepdim.
type RedKey = (usize, Reduction, Option<Vec<isize>>, bool);

/// Every reduce case: sum, max and argmax; axis null, every int from
/// `-r - 1` to `r` (one past each end), and for sum and max every pair of
/// them (duplicates included); keepdim or not.
fn reduce_keys(shapes: &[Vec<usize>]) -> Vec<(bool, RedKey)> {
    let mut keys = vec![];
    let ops = [
        Reduction::Reduce(ReduceKind::Sum),
        Reduction::Reduce(ReduceKind::Max),
        Reduction::Arg(ArgKind::ArgMax),
    ];
    for (xi, x) in shapes.iter().enumerate() {
        let r = x.len().max(1) as isize;
        for op in ops {
            let mut axes: Vec<Option<Vec<isize>>> = vec![None];
            axes.extend((-r - 1..=r).map(|a| Some(vec![a])));
            if matches!(op, Reduction::Reduce(_)) {
                for a in -r - 1..=r {
                    axes.extend((-r - 1..=r).map(|b| Some(vec![a, b])));
                }
            }
            for ax in axes {
                for keepdim in [false, true] {
                    let ok = reduce_output_dims(x, ax.as_deref(), keepdim, op).is_ok();
                    keys.push((ok, (xi, op, ax.clone(), keepdim)));
                }
            }
        }
    }
    keys
}

/// A reduce case as a vector: the dynamic path's output or error.
fn reduce_case(shapes: &[Vec<usize>], (xi, op, axes, keepdim): RedKey) -> Value {
    let x = &shapes[xi];
    let xv = ints(x, 2);
    let axis = match &axes {
        None => json!(null),
        Some(list) if list.len() == 1 && matches!(op, Reduction::Arg(_)) => json!(list[0]),
        Some(list) => json!(list),
    };
    let mut case = json!({
        "name": format!("reduce_{}_{x:?}_{axes:?}_{keepdim}", op.name()),
        "op": op.name(),
        "x": tensor(x, "int32", json!(xv)),
        "attrs": {"axis": axis, "keepdim": keepdim},
    });
    match reduce_output_dims(x, axes.as_deref(), keepdim, op) {
        Ok(d) => {
            let n = numel(&d);
            case["out"] = match op {
                Reduction::Reduce(k @ ReduceKind::Sum) => {
                    let mut out = vec![0i64; n];
                    reduce_slices(k, x, &xv, axes.as_deref(), keepdim, &mut out)
                        .expect("the rule accepted");
                    tensor(&d, "int64", json!(out))
                }
                Reduction::Reduce(k) => {
                    let mut out = vec![0i32; n];
                    reduce_slices(k, x, &xv, axes.as_deref(), keepdim, &mut out)
                        .expect("the rule accepted");
                    tensor(&d, "int32", json!(out))
                }
                Reduction::Arg(k) => {
                    let mut out = vec![0i64; n];
                    let axis = axes.as_ref().and_then(|a| a.first().copied());
                    arg_slices(k, x, &xv, axis, keepdim, &mut out).expect("the rule accepted");
                    tensor(&d, "int64", json!(out))
                }
            };
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// Every softmax case: each shape, each axis from `-r - 1` to `r`, both ops.
type SmKey = (usize, isize, SoftmaxKind);

fn softmax_keys(shapes: &[Vec<usize>]) -> Vec<(bool, SmKey)> {
    let mut keys = vec![];
    for (xi, x) in shapes.iter().enumerate() {
        let r = x.len().max(1) as isize;
        for axis in -r - 1..=r {
            for kind in [SoftmaxKind::Softmax, SoftmaxKind::LogSoftmax] {
                keys.push((softmax_plan(x, axis).is_ok(), (xi, axis, kind)));
            }
        }
    }
    keys
}

fn softmax_case(shapes: &[Vec<usize>], (xi, axis, kind): SmKey) -> Value {
    let x = &shapes[xi];
    let xv: Vec<f32> = ints(x, 3).iter().map(|&v| v as f32 / 4.0).collect();
    let op = match kind {
        SoftmaxKind::Softmax => "softmax",
        SoftmaxKind::LogSoftmax => "log_softmax",
    };
    let mut case = json!({
        "name": format!("{op}_{x:?}_axis{axis}"),
        "op": op,
        "x": tensor(x, "float32", json!(xv)),
        "attrs": {"axis": axis},
    });
    match softmax_plan(x, axis) {
        Ok(_) => {
            let mut out = vec![0f32; xv.len()];
            softmax_slices(kind, x, &xv, axis, &mut out).expect("the rule accepted");
            case["out"] = tensor(x, "float32", json!(out));
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// An elementwise case: X and Y (indices into [`shapes`]) and the axis.
type EwKey = (usize, usize, isize);

/// Every elementwise case, with the run-time rule's verdict.
fn elementwise_keys(shapes: &[Vec<usize>]) -> Vec<(bool, EwKey)> {
    let mut keys = vec![];
    for (xi, x) in shapes.iter().enumerate() {
        for (yi, y) in shapes.iter().enumerate() {
            let r = x.len().max(y.len()) as isize;
            let axes: Vec<isize> = if r == 0 { vec![-1] } else { (-r..r).collect() };
            for axis in axes {
                let ok = elementwise_output_dims(x, y, axis).is_ok();
                keys.push((ok, (xi, yi, axis)));
            }
        }
    }
    keys
}

/// An elementwise case as a vector: the dynamic path's output or error.
fn elementwise_case(shapes: &[Vec<usize>], (xi, yi, axis): EwKey) -> Value {
    let (x, y) = (&shapes[xi], &shapes[yi]);
    let (xv, yv) = (ints(x, 1), ints(y, 4));
    let mut case = json!({
        "name": format!("ew_{x:?}_{y:?}_axis{axis}"),
        "op": "elementwise_mul",
        "x": tensor(x, "int32", json!(xv)),
        "y": tensor(y, "int32", json!(yv)),
        "attrs": {"axis": axis},
    });
    match elementwise_output_dims(x, y, axis) {
        Ok(d) => {
            let mut out = vec![0i32; numel(&d)];
            let id = ActivationKind::Identity;
            elementwise_slices(BinaryOpKind::Mul, id, x, &xv, y, &yv, axis, &mut out)
                .expect("the rule accepted these shapes");
            case["out"] = tensor(&d, "int32", json!(out));
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// A select case: cond, then, else (indices into [`shapes`]) and the mode.
type SelKey = (usize, usize, usize, AutoBroadcast);

/// Every select case (pdpd at every axis from -1 to rank(then)), with the
/// run-time rule's verdict.
fn select_keys(shapes: &[Vec<usize>]) -> Vec<(bool, SelKey)> {
    let mut keys = vec![];
    for (ci, c) in shapes.iter().enumerate() {
        for (ti, t) in shapes.iter().enumerate() {
            let mut modes = vec![AutoBroadcast::None, AutoBroadcast::Numpy];
            modes.extend((-1..=t.len() as isize).map(|axis| AutoBroadcast::Pdpd { axis }));
            for (ei, e) in shapes.iter().enumerate() {
                for &mode in &modes {
                    let ok = select_output_dims(mode, c, t, e).is_ok();
                    keys.push((ok, (ci, ti, ei, mode)));
                }
            }
        }
    }
    keys
}

/// A select case as a vector: the dynamic path's output or error.
fn select_case(shapes: &[Vec<usize>], (ci, ti, ei, mode): SelKey) -> Value {
    let (c, t, e) = (&shapes[ci], &shapes[ti], &shapes[ei]);
    let (cv, tv) = (bools(c), ints(t, 2));
    let ev: Vec<i32> = ints(e, 5).iter().map(|v| -v).collect();
    let attrs = match mode {
        AutoBroadcast::None => json!({"auto_broadcast": "none"}),
        AutoBroadcast::Numpy => json!({"auto_broadcast": "numpy"}),
        AutoBroadcast::Pdpd { axis } => json!({"auto_broadcast": "pdpd", "axis": axis}),
    };
    let mut case = json!({
        "name": format!("sel_{c:?}_{t:?}_{e:?}_{mode}"),
        "op": "select",
        "cond": tensor(c, "bool", json!(cv)),
        "then": tensor(t, "int32", json!(tv)),
        "else": tensor(e, "int32", json!(ev)),
        "attrs": attrs,
    });
    match select_output_dims(mode, c, t, e) {
        Ok(d) => {
            let mut out = vec![0i32; numel(&d)];
            select_slices(mode, c, &cv, t, &tv, e, &ev, &mut out)
                .expect("the rule accepted these shapes");
            case["out"] = tensor(&d, "int32", json!(out));
        }
        Err(err) => case["error"] = json!(err.to_string()),
    }
    case
}

/// Every shape of rank 0 to 3 with dims in {0, 1, 2} (40 shapes): the
/// stitch and partition cases (a pair of them per tensor pair).
fn small_shapes() -> Vec<Vec<usize>> {
    shapes()
        .into_iter()
        .filter(|s| s.iter().all(|&d| d <= 2))
        .collect()
}

/// Index values for stitch: non-negative (a negative index is a rule on
/// values, checked at run time on both paths), with gaps and repeats.
fn stitch_indices(dims: &[usize], m: usize) -> Vec<i32> {
    (0..numel(dims))
        .map(|j| ((j * 3 + m * 2 + 1) % 5) as i32)
        .collect()
}

/// A dynamic_stitch case: one or two (indices, data) pairs of shapes.
type StitchKey = Vec<(Vec<usize>, Vec<usize>)>;

/// The run-time rule's verdict on a stitch case: `Ok(output dims)` or the
/// rule id.
fn stitch_verdict(key: &StitchKey) -> Result<Vec<usize>, &'static str> {
    let vals: Vec<(Vec<i32>, Vec<i32>)> = key
        .iter()
        .enumerate()
        .map(|(m, (i, d))| (stitch_indices(i, m), ints(d, m as i64 * 3 + 1)))
        .collect();
    let pairs: Vec<StitchPair<'_, i32>> = key
        .iter()
        .zip(&vals)
        .map(|((i, d), (iv, dv))| StitchPair::new(i, iv, d, dv).expect("rank <= 3"))
        .collect();
    stitch_output_dims(pairs.into_iter())
        .map(|d| d.as_slice().to_vec())
        .map_err(|e| e.rule())
}

/// Every stitch case: each single pair of [`small_shapes`], and each pair
/// of pairs whose first one passes the prefix rule (after a failing first
/// pair, the second is never looked at), with the run-time rule's verdict.
/// Then TensorFlow's `testErrorDataNumDimsMismatch` as it is written there.
fn stitch_keys(shapes: &[Vec<usize>]) -> Vec<(String, StitchKey)> {
    let mut keys = vec![];
    let mut push = |key: StitchKey| {
        let verdict = stitch_verdict(&key).err().unwrap_or("accepted");
        keys.push((verdict.to_string(), key));
    };
    let mut good_first = vec![];
    for i in shapes {
        for d in shapes {
            if d.starts_with(i) {
                good_first.push((i.clone(), d.clone()));
            }
            push(vec![(i.clone(), d.clone())]);
        }
    }
    for first in &good_first {
        for i in shapes {
            for d in shapes {
                push(vec![first.clone(), (i.clone(), d.clone())]);
            }
        }
    }
    // data [1, 5] after indices [5], following a pair with an empty slice
    push(vec![(vec![3], vec![3]), (vec![5], vec![1, 5])]);
    keys
}

fn stitch_case(key: &StitchKey) -> Value {
    let (mut indices, mut data) = (vec![], vec![]);
    let vals: Vec<(Vec<i32>, Vec<i32>)> = key
        .iter()
        .enumerate()
        .map(|(m, (i, d))| (stitch_indices(i, m), ints(d, m as i64 * 3 + 1)))
        .collect();
    for ((i, d), (iv, dv)) in key.iter().zip(&vals) {
        indices.push(tensor(i, "int32", json!(iv)));
        data.push(tensor(d, "int32", json!(dv)));
    }
    let name: Vec<String> = key.iter().map(|(i, d)| format!("{i:?}{d:?}")).collect();
    let mut case = json!({
        "name": format!("stitch_{}", name.join("_")),
        "op": "dynamic_stitch",
        "indices": indices,
        "data": data,
    });
    let pairs: Vec<StitchPair<'_, i32>> = key
        .iter()
        .zip(&vals)
        .map(|((i, d), (iv, dv))| StitchPair::new(i, iv, d, dv).expect("rank <= 3"))
        .collect();
    match stitch_verdict(key) {
        Ok(dims) => {
            let mut out = vec![0i32; numel(&dims)];
            let got = stitch_slices(&pairs, &mut out).expect("the rule accepted these shapes");
            assert_eq!(got.as_slice(), dims.as_slice());
            case["out"] = tensor(&dims, "int32", json!(out));
        }
        Err(rule) => case["error"] = json!(format!("{rule} (the run-time rule)")),
    }
    case
}

/// A dynamic_partition case: data and partitions shapes (indices into
/// [`small_shapes`]) and the number of partitions.
type PartKey = (usize, usize, usize);

fn partition_values(dims: &[usize], num: usize) -> Vec<i32> {
    (0..numel(dims))
        .map(|j| ((j * 2 + 1) % num) as i32)
        .collect()
}

/// The run-time rule's verdict on a partition case: "accepted" or the rule id.
fn partition_verdict(d: &[usize], p: &[usize], num: usize) -> &'static str {
    let pv = partition_values(p, num);
    let mut counts = vec![0; num];
    partition_slice_dims(d, numel(d), p, IndexSlice::I32(&pv), &mut counts)
        .err()
        .map(|e| e.rule())
        .unwrap_or("accepted")
}

/// Every partition case (1 and 3 partitions), with the run-time rule's
/// verdict; and the number left out: scalar data with partitions of rank 1
/// or more, where the static form's error is rustc's "mismatched types"
/// (the prefix rule's only impl for scalar data decides the partitions'
/// type before the argument is read), not the rule's (docs/conformance.md).
fn partition_keys(shapes: &[Vec<usize>]) -> (Vec<(String, PartKey)>, usize) {
    let mut keys = vec![];
    let mut scalar = 0;
    for (di, d) in shapes.iter().enumerate() {
        for (pi, p) in shapes.iter().enumerate() {
            if d.is_empty() && !p.is_empty() {
                scalar += 2;
                continue;
            }
            for num in [1, 3] {
                keys.push((partition_verdict(d, p, num).to_string(), (di, pi, num)));
            }
        }
    }
    (keys, scalar)
}

fn partition_case(shapes: &[Vec<usize>], (di, pi, num): PartKey) -> Value {
    let (d, p) = (&shapes[di], &shapes[pi]);
    let (dv, pv) = (ints(d, 2), partition_values(p, num));
    let mut case = json!({
        "name": format!("partition_{d:?}_{p:?}_num{num}"),
        "op": "dynamic_partition",
        "data": tensor(d, "int32", json!(dv)),
        "partitions": tensor(p, "int32", json!(pv)),
        "attrs": {"num_partitions": num},
    });
    let mut counts = vec![0; num];
    let mut out = vec![0i32; dv.len()];
    match partition_slices(d, &dv, p, &pv, &mut counts, &mut out) {
        Ok(slice) => {
            let row: usize = numel(slice.as_slice());
            let mut outs = vec![];
            let mut at = 0;
            for &c in &counts {
                let mut dims = vec![c];
                dims.extend_from_slice(slice.as_slice());
                outs.push(tensor(&dims, "int32", json!(out[at..at + c * row])));
                at += c * row;
            }
            case["out"] = json!(outs);
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// A multiplex case: two candidates' shapes and the index's (indices into
/// [`shapes`]).
type MuxKey = (usize, usize, usize);

/// Index values: each names a candidate (0 or 1); an out-of-range value is
/// a rule on values, checked at run time on both paths.
fn mux_index(dims: &[usize]) -> Vec<i32> {
    (0..numel(dims)).map(|j| ((j * 5 + 1) % 2) as i32).collect()
}

/// Of multiplex's shape rules, how many fail at once: the candidates'
/// rank, their shapes, the index's shape.
fn mux_failing_rules(a: &[usize], b: &[usize], x: &[usize]) -> usize {
    [a.len() < 2, a != b, !matches!(x, [_, 1])]
        .iter()
        .filter(|&&f| f)
        .count()
}

/// Every multiplex case of two candidates (the same shape, or two of
/// rank 1 to 2) and an index of any shape (rank 0 to 3: wrong ranks and
/// column counts too), with the run-time rule's verdict; and the number of
/// cases left out because two or three of the rules on the candidates'
/// rank, their shapes and the index's shape fail at once: there the two
/// forms name different rules today (docs/conformance.md).
fn multiplex_keys(shapes: &[Vec<usize>]) -> (Vec<(String, MuxKey)>, usize) {
    let mut keys = vec![];
    let mut several = 0;
    for (ai, a) in shapes.iter().enumerate() {
        for (bi, b) in shapes.iter().enumerate() {
            if ai != bi && !(matches!(a.len(), 1 | 2) && matches!(b.len(), 1 | 2)) {
                continue;
            }
            for (xi, x) in shapes.iter().enumerate() {
                if mux_failing_rules(a, b, x) >= 2 {
                    several += 1;
                    continue;
                }
                let verdict = multiplex_output_dims(&[a, b], x)
                    .err()
                    .map(|e| e.rule())
                    .unwrap_or("accepted");
                keys.push((verdict.to_string(), (ai, bi, xi)));
            }
        }
    }
    (keys, several)
}

fn multiplex_case(shapes: &[Vec<usize>], (ai, bi, xi): MuxKey) -> Value {
    let (a, b, x) = (&shapes[ai], &shapes[bi], &shapes[xi]);
    let (av, bv, xv) = (ints(a, 1), ints(b, 6), mux_index(x));
    let mut case = json!({
        "name": format!("mux_{a:?}_{b:?}_index{x:?}"),
        "op": "multiplex",
        "inputs": [tensor(a, "int32", json!(av)), tensor(b, "int32", json!(bv))],
        "index": tensor(x, "int32", json!(xv)),
    });
    match multiplex_output_dims(&[a, b], x) {
        Ok(d) => {
            let mut out = vec![0i32; numel(d.as_slice())];
            let inputs: [(&[usize], &[i32]); 2] = [(a, &av), (b, &bv)];
            multiplex_slices(&inputs, x, &xv, &mut out).expect("the rule accepted these shapes");
            case["out"] = tensor(d.as_slice(), "int32", json!(out));
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// Rules the static form checks by a constant assertion, which `conformance
/// static` compiles one package per case: few of them are sampled.
const MONO_RULES: &[&str] = &["multiplex/index-rows", "multiplex/candidate-count"];
const MONO_CAP: usize = 6;

/// A matmul case: x and y (indices into [`shapes`]) and the transposes.
type MmKey = (usize, usize, bool, bool);

/// Every matmul case (each pair of shapes under the four pairs of flags),
/// with the run-time rule's verdict: its rule, or "accepted".
fn matmul_keys(shapes: &[Vec<usize>]) -> Vec<(String, MmKey)> {
    let mut keys = vec![];
    for (xi, x) in shapes.iter().enumerate() {
        for (yi, y) in shapes.iter().enumerate() {
            for (tx, ty) in [(false, false), (false, true), (true, false), (true, true)] {
                let v = matmul_output_dims(x, y, tx, ty)
                    .err()
                    .map(|e| e.rule())
                    .unwrap_or("accepted");
                keys.push((v.to_string(), (xi, yi, tx, ty)));
            }
        }
    }
    keys
}

/// A matmul case as a vector: the dynamic path's output or error.
fn matmul_case(shapes: &[Vec<usize>], (xi, yi, tx, ty): MmKey) -> Value {
    let (x, y) = (&shapes[xi], &shapes[yi]);
    let (xv, yv) = (ints(x, 2), ints(y, 5));
    let mut case = json!({
        "name": format!("mm_{x:?}_{y:?}_{tx}_{ty}"),
        "op": "matmul",
        "x": tensor(x, "int32", json!(xv)),
        "y": tensor(y, "int32", json!(yv)),
        "attrs": {"transpose_x": tx, "transpose_y": ty},
    });
    match matmul_output_dims(x, y, tx, ty) {
        Ok(d) => {
            let mut out = vec![0i32; numel(&d)];
            matmul_slices(x, &xv, y, &yv, tx, ty, &mut out)
                .expect("the rule accepted these shapes");
            case["out"] = tensor(&d, "int32", json!(out));
        }
        Err(e) => case["error"] = json!(e.to_string()),
    }
    case
}

/// Up to `n` cases (all if `n` is 0), stratified by the run-time rule's
/// verdict: half accepted, the other half shared equally by the rules
/// that reject (at most [`MONO_CAP`] of a rule in [`MONO_RULES`]), each
/// stratum spread evenly over the enumeration; `always` (by index) are
/// added whatever the sample.
fn stratified<K: Clone>(cases: &[(String, K)], n: usize, always: &[usize]) -> Vec<K> {
    if n == 0 {
        return cases.iter().map(|(_, k)| k.clone()).collect();
    }
    let mut strata: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (v, _)) in cases.iter().enumerate() {
        strata.entry(v.as_str()).or_default().push(i);
    }
    let rejecting = strata.len() - usize::from(strata.contains_key("accepted"));
    let share = (n / 2) / rejecting.max(1);
    let mut picked: Vec<usize> = always.to_vec();
    for (verdict, members) in &strata {
        let quota = match *verdict {
            "accepted" => n - share * rejecting,
            v if MONO_RULES.contains(&v) => share.min(MONO_CAP),
            _ => share,
        }
        .min(members.len());
        let len = members.len();
        picked.extend(
            members
                .iter()
                .enumerate()
                .filter(|(i, _)| quota > 0 && (i * quota) / len != ((i + 1) * quota) / len)
                .map(|(_, &c)| c),
        );
    }
    picked.sort_unstable();
    picked.dedup();
    picked.into_iter().map(|i| cases[i].1.clone()).collect()
}

/// Up to `n` cases (all if `n` is 0): half accepted, half rejected where
/// there are enough of each, each half spread evenly over the enumeration.
fn sample<K>(cases: Vec<(bool, K)>, n: usize) -> Vec<K> {
    if n == 0 || cases.len() <= n {
        return cases.into_iter().map(|(_, c)| c).collect();
    }
    let (acc, rej): (Vec<_>, Vec<_>) = cases.into_iter().partition(|(ok, _)| *ok);
    let n_acc = (n / 2).min(acc.len()).max(n.saturating_sub(rej.len()));
    let spread = |v: Vec<(bool, K)>, k: usize| -> Vec<K> {
        let len = v.len();
        v.into_iter()
            .enumerate()
            .filter(|(i, _)| k > 0 && (i * k) / len != ((i + 1) * k) / len)
            .map(|(_, (_, c))| c)
            .collect()
    };
    let mut out = spread(acc, n_acc);
    out.extend(spread(rej, n - n_acc));
    out
}

/// The strata of a sample: how many cases of each verdict.
fn strata_counts<'a>(verdicts: impl Iterator<Item = &'a str>) -> String {
    let mut m: BTreeMap<&str, usize> = BTreeMap::new();
    for v in verdicts {
        *m.entry(v).or_default() += 1;
    }
    m.iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One vector file of generated cases.
struct Batch {
    file: &'static str,
    family: &'static str,
    cases: Vec<Value>,
}

fn cases_from_env(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "long: `cargo test -p conformance -- --ignored` runs it (CI does)"]
fn runtime_and_type_level_rules_agree() {
    let n = cases_from_env("AGREEMENT_CASES", 1500);
    // the escape hatch's ops compile slower per case (a builder per pair,
    // `multiplex!`): a smaller default, the same override
    let n_hatch = cases_from_env("AGREEMENT_CASES", 400);
    let dir = scratch("agreement");
    let shapes = shapes();
    let small = small_shapes();
    let ew = elementwise_keys(&shapes);
    let sel = select_keys(&shapes);
    let st = stitch_keys(&small);
    let (pa, pa_scalar) = partition_keys(&small);
    eprintln!(
        "agreement: dynamic_partition: {pa_scalar} cases of scalar data with partitions of rank 1 or more left out (a rustc type mismatch, not the rule's error)"
    );
    let (mx, mx_several) = multiplex_keys(&shapes);
    let mm = matmul_keys(&shapes);
    eprintln!(
        "agreement: multiplex: {mx_several} cases where several shape rules fail left out (the forms name different rules first)"
    );
    let (ew_total, sel_total) = (ew.len(), sel.len());
    let (red, sm) = (reduce_keys(&shapes), softmax_keys(&shapes));
    let (red_total, sm_total) = (red.len(), sm.len());
    // the last stitch key: TensorFlow's testErrorDataNumDimsMismatch
    let tf_case = st.len() - 1;
    let report = |name: &str, picked: Vec<(String, Value)>, total: usize| {
        eprintln!(
            "agreement: {name}: {} of {total} cases ({})",
            picked.len(),
            strata_counts(picked.iter().map(|(v, _)| v.as_str()))
        );
        picked.into_iter().map(|(_, c)| c).collect::<Vec<_>>()
    };
    let with_verdict = |c: Value| -> (String, Value) {
        let v = if c.get("out").is_some() {
            "accepted"
        } else {
            "rejected"
        };
        (v.to_string(), c)
    };
    let batches = [
        Batch {
            file: "elementwise",
            family: "elementwise",
            cases: report(
                "elementwise",
                sample(ew, n)
                    .into_iter()
                    .map(|k| with_verdict(elementwise_case(&shapes, k)))
                    .collect(),
                ew_total,
            ),
        },
        Batch {
            file: "select",
            family: "select",
            cases: report(
                "select",
                sample(sel, n)
                    .into_iter()
                    .map(|k| with_verdict(select_case(&shapes, k)))
                    .collect(),
                sel_total,
            ),
        },
        Batch {
            file: "reduce",
            family: "reduce",
            cases: report(
                "reduce",
                sample(red, n_hatch)
                    .into_iter()
                    .map(|k| with_verdict(reduce_case(&shapes, k)))
                    .collect(),
                red_total,
            ),
        },
        Batch {
            file: "softmax",
            family: "softmax",
            cases: report(
                "softmax",
                sample(sm, n_hatch)
                    .into_iter()
                    .map(|k| with_verdict(softmax_case(&shapes, k)))
                    .collect(),
                sm_total,
            ),
        },
        Batch {
            file: "dynamic_stitch",
            family: "dynamic_stitch",
            cases: report(
                "dynamic_stitch",
                stratified(&st, n_hatch, &[tf_case])
                    .into_iter()
                    .map(|k| {
                        (
                            stitch_verdict(&k).err().unwrap_or("accepted").to_string(),
                            stitch_case(&k),
                        )
                    })
                    .collect(),
                st.len(),
            ),
        },
        Batch {
            file: "dynamic_partition",
            family: "dynamic_partition",
            cases: report(
                "dynamic_partition",
                stratified(&pa, n_hatch, &[])
                    .into_iter()
                    .map(|(d, p, num)| {
                        let v = partition_verdict(&small[d], &small[p], num);
                        (v.to_string(), partition_case(&small, (d, p, num)))
                    })
                    .collect(),
                pa.len(),
            ),
        },
        Batch {
            file: "multiplex",
            family: "multiplex",
            cases: report(
                "multiplex",
                stratified(&mx, n_hatch, &[])
                    .into_iter()
                    .map(|k| {
                        let (a, b, x) = k;
                        let v = multiplex_output_dims(&[&shapes[a], &shapes[b]], &shapes[x])
                            .err()
                            .map(|e| e.rule())
                            .unwrap_or("accepted");
                        (v.to_string(), multiplex_case(&shapes, k))
                    })
                    .collect(),
                mx.len(),
            ),
        },
        Batch {
            file: "matmul",
            family: "matmul",
            cases: report(
                "matmul",
                stratified(&mm, n_hatch, &[])
                    .into_iter()
                    .map(|k| {
                        let (x, y, tx, ty) = k;
                        let v = matmul_output_dims(&shapes[x], &shapes[y], tx, ty)
                            .err()
                            .map(|e| e.rule())
                            .unwrap_or("accepted");
                        (v.to_string(), matmul_case(&shapes, k))
                    })
                    .collect(),
                mm.len(),
            ),
        },
    ];
    // Two runs of the tool at once, select's cases in one and the rest in
    // the other, each in a work dir of its own: building a crate of cases
    // is mostly rustc's type checking, one core per crate, and the
    // machine has two. (The second work dir builds the library once more.)
    let second = scratch("agreement-select");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for b in &batches {
        *counts.entry(b.family).or_default() += b.cases.len();
        let doc = json!({"op": b.family, "source": "generated by conformance/tests/agreement.rs", "cases": b.cases});
        let into = if b.family == "select" { &second } else { &dir };
        std::fs::write(
            into.join(format!("{}.json", b.file)),
            serde_json::to_string(&doc).expect("json"),
        )
        .expect("write the cases");
    }
    let select_work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-static-agreement");
    // each run's output to files (a full pipe would stall the run not
    // being read)
    let log = |cases: &Path, name: &str| {
        std::fs::File::create(cases.with_extension(name)).expect("a log file")
    };
    let spawn = |cases: &Path, work: Option<&Path>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_conformance"));
        cmd.arg("static")
            .arg(cases)
            .stdout(log(cases, "stdout"))
            .stderr(log(cases, "stderr"));
        if let Some(work) = work {
            cmd.env("CONFORMANCE_WORK_DIR", work);
        }
        // what this test checks is the rule's verdict and the plain op's
        // output; the fused forms of every case are still type-checked (a
        // rejected shape is a compile error there too), and one in five runs
        if std::env::var_os("CONFORMANCE_EXPR_EVERY").is_none() {
            cmd.env("CONFORMANCE_EXPR_EVERY", "5");
        }
        cmd.spawn().expect("cannot run the conformance binary")
    };
    let runs = [spawn(&dir, None), spawn(&second, Some(&select_work))];
    let mut stdout = String::new();
    let mut success = true;
    for (mut run, cases) in runs.into_iter().zip([&dir, &second]) {
        let status = run.wait().expect("the conformance binary");
        let read =
            |name: &str| std::fs::read_to_string(cases.with_extension(name)).unwrap_or_default();
        let text = read("stdout");
        eprintln!("--- conformance static {}:\n{text}", cases.display());
        eprintln!("{}", read("stderr"));
        stdout += &text;
        success &= status.success();
    }
    for (family, n) in counts {
        let want = format!("{family}: {n} passed, 0 failed");
        assert!(
            stdout.lines().any(|l| l == want),
            "the two forms of the {family} rule disagree (expected the line {want:?})"
        );
    }
    assert!(success, "conformance static failed");
}
