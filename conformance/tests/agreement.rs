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
//! The full enumeration (42 417 elementwise and 4 103 800 select
//! cases) is far too long to compile in CI, so by default a deterministic
//! sample is taken: `AGREEMENT_CASES` per family (default 1500), spread over
//! the whole enumeration by a fixed stride, half accepted and half rejected
//! where the family has enough of each. `AGREEMENT_CASES=0` runs everything.

use serde_json::{json, Value};
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::ops::select::{select_output_dims, select_slices};
use shapecheck::{ActivationKind, AutoBroadcast, BinaryOpKind};
use std::path::{Path, PathBuf};
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

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create a scratch dir");
    dir
}

#[test]
fn runtime_and_type_level_rules_agree() {
    let n: usize = std::env::var("AGREEMENT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let dir = scratch("agreement");
    let mut counts = vec![];
    let shapes = shapes();
    let ew = elementwise_keys(&shapes);
    let sel = select_keys(&shapes);
    let (ew_total, sel_total) = (ew.len(), sel.len());
    let batches = [
        (
            "elementwise",
            ew_total,
            sample(ew, n)
                .into_iter()
                .map(|k| elementwise_case(&shapes, k))
                .collect::<Vec<_>>(),
        ),
        (
            "select",
            sel_total,
            sample(sel, n)
                .into_iter()
                .map(|k| select_case(&shapes, k))
                .collect(),
        ),
    ];
    for (family, total, picked) in batches {
        let accepted = picked.iter().filter(|c| c.get("out").is_some()).count();
        eprintln!(
            "agreement: {family}: {} of {total} cases ({accepted} accepted by the run-time rule)",
            picked.len()
        );
        counts.push((family, picked.len()));
        let doc = json!({"op": family, "source": "generated by conformance/tests/agreement.rs", "cases": picked});
        std::fs::write(
            dir.join(format!("{family}.json")),
            serde_json::to_string(&doc).expect("json"),
        )
        .expect("write the cases");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .arg("static")
        .arg(&dir)
        .output()
        .expect("cannot run the conformance binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("--- conformance static {}:\n{stdout}", dir.display());
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    for (family, n) in counts {
        let want = format!("{family}: {n} passed, 0 failed");
        assert!(
            stdout.lines().any(|l| l == want),
            "the two forms of the {family} rule disagree (expected the line {want:?})"
        );
    }
    assert!(out.status.success(), "conformance static failed");
}
