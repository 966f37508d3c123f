//! Feature `half`: the conformance vectors of elementwise, select,
//! multiplex and dynamic_stitch converted to `f16` and `bf16`, run, and
//! compared with the recorded results converted the same way.
//!
//! Tolerance: the vectors' inputs are small integers and halves, exact in
//! both types. Elementwise results are accepted within one unit in the last
//! place relative to their magnitude, `|got - want| <= eps * max(1, |want|)`
//! (`eps` = 2^-10 for f16, 2^-7 for bf16); select and multiplex only move
//! values and must match bit for bit (so must dynamic_stitch, whose rows no
//! index covers are zero). Every case the framework rejected must
//! be rejected, and every accepted one accepted with the recorded shape.
#![cfg(feature = "half")]
#![allow(clippy::result_large_err)]

use serde_json::Value;
use shapecheck::interop::half::{bf16, f16};
use shapecheck::prelude::*;
use shapecheck::{select, Element};
use shapecheck::{AutoBroadcast, BinaryOpKind};

fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/vectors/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["cases"].as_array().unwrap().clone()
}

fn dims(v: &Value) -> Vec<usize> {
    v["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn is_float(v: &Value) -> bool {
    matches!(v["dtype"].as_str(), Some("float32" | "float64"))
}

/// The tensor converted to `T` (`None` if its data does not fit its shape).
fn tensor<T: Element>(v: &Value) -> Option<DynTensor<T>> {
    let data = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| T::from_f64(x.as_f64().unwrap()));
    DynTensor::new(&dims(v), data.collect()).ok()
}

fn bools(v: &Value) -> DynTensor<bool> {
    let data = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_bool().unwrap())
        .collect();
    DynTensor::new(&dims(v), data).unwrap()
}

/// How one run differs from the recorded outcome (`None`: it agrees);
/// `close` judges one element.
fn differs<T: Element>(
    case: &Value,
    got: Result<DynTensor<T>, String>,
    close: impl Fn(f64, f64) -> bool,
) -> Option<String> {
    match (got, case.get("out")) {
        (Ok(t), Some(out)) => {
            let want: Vec<f64> = tensor::<T>(out)
                .unwrap()
                .as_slice()
                .iter()
                .map(|v| v.to_f64())
                .collect();
            let ok = t.dims().as_slice() == dims(out).as_slice()
                && t.as_slice().len() == want.len()
                && t.as_slice()
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| close(g.to_f64(), *w));
            (!ok).then(|| format!("got {:?}, want {want:?}", t.as_slice()))
        }
        (Err(_), None) => None,
        (Ok(_), None) => Some("accepted, the framework rejected it".into()),
        (Err(e), Some(_)) => Some(format!("rejected ({e}), the framework accepted it")),
    }
}

fn elementwise<T: Element>(case: &Value) -> Result<DynTensor<T>, String> {
    let op = BinaryOpKind::from_name(case["op"].as_str().unwrap()).unwrap();
    let axis = case["attrs"]["axis"].as_i64().unwrap_or(-1) as isize;
    let act = ActivationKind::from_name(case["attrs"]["act"].as_str().unwrap_or("")).unwrap();
    let (x, y) = (
        tensor::<T>(&case["x"]).unwrap(),
        tensor::<T>(&case["y"]).unwrap(),
    );
    x.elementwise(op, &y, axis, act).map_err(|e| e.to_string())
}

fn select_op<T: Element>(case: &Value) -> Result<DynTensor<T>, String> {
    let attrs = &case["attrs"];
    let axis = attrs["axis"].as_i64().unwrap_or(-1) as isize;
    let mode = AutoBroadcast::from_name(attrs["auto_broadcast"].as_str().unwrap(), axis).unwrap();
    let (t, e) = (
        tensor::<T>(&case["then"]).unwrap(),
        tensor::<T>(&case["else"]).unwrap(),
    );
    DynTensor::select(&bools(&case["cond"]), &t, &e, mode).map_err(|e| e.to_string())
}

fn multiplex_op<T: Element>(case: &Value) -> Result<DynTensor<T>, String> {
    let inputs = case["inputs"].as_array().unwrap();
    let cands: Option<Vec<DynTensor<T>>> = inputs.iter().map(tensor::<T>).collect();
    match (cands, tensor::<i32>(&case["index"])) {
        (Some(c), Some(ix)) => DynTensor::multiplex(&c, &ix).map_err(|e| e.to_string()),
        _ => Err("malformed input".to_string()),
    }
}

/// Runs every float case of `family` in `T` and checks it against the
/// recorded outcome within `close`. A case that the same op in `f32` does
/// not reproduce either is left to that op's own test file and counted
/// apart. Returns (cases checked, cases left).
fn check_family<T: Element>(
    family: &str,
    is_case: impl Fn(&Value) -> bool,
    run_t: impl Fn(&Value) -> Result<DynTensor<T>, String>,
    run_f32: impl Fn(&Value) -> Result<DynTensor<f32>, String>,
    close: impl Fn(f64, f64) -> bool,
) -> (usize, usize) {
    let (mut checked, mut left) = (0, 0);
    let mut failures = Vec::new();
    for (i, case) in load(family).iter().enumerate() {
        if !is_case(case) {
            continue;
        }
        let f32_close = |g: f64, w: f64| g == w || (g - w).abs() <= 1e-6 * w.abs();
        if differs(case, run_f32(case), f32_close).is_some() {
            left += 1;
            continue;
        }
        checked += 1;
        if let Some(why) = differs(case, run_t(case), &close) {
            let name = case["name"].as_str().unwrap();
            failures.push(format!("{name} #{i} ({}): {why}", T::DTYPE));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (checked, left)
}

const F16_EPS: f64 = 1.0 / 1024.0; // 2^-10
const BF16_EPS: f64 = 1.0 / 128.0; // 2^-7

fn within(eps: f64) -> impl Fn(f64, f64) -> bool {
    move |g, w| (g - w).abs() <= eps * w.abs().max(1.0)
}

fn exact(g: f64, w: f64) -> bool {
    g.to_bits() == w.to_bits()
}

#[test]
fn elementwise_vectors_in_f16_and_bf16() {
    let float = |c: &Value| is_float(&c["x"]);
    let h = check_family(
        "elementwise",
        float,
        elementwise::<f16>,
        elementwise::<f32>,
        within(F16_EPS),
    );
    let b = check_family(
        "elementwise",
        float,
        elementwise::<bf16>,
        elementwise::<f32>,
        within(BF16_EPS),
    );
    println!(
        "elementwise: {} float cases checked in f16 and bf16, {} left",
        h.0, h.1
    );
    assert!(h.0 > 80, "only {h:?}");
    assert_eq!(h, b);
}

#[test]
fn select_vectors_in_f16_and_bf16() {
    let float = |c: &Value| is_float(&c["then"]);
    let h = check_family("select", float, select_op::<f16>, select_op::<f32>, exact);
    let b = check_family("select", float, select_op::<bf16>, select_op::<f32>, exact);
    println!(
        "select: {} float cases checked in f16 and bf16, {} left",
        h.0, h.1
    );
    assert!(h.0 > 40, "only {h:?}");
    assert_eq!(h, b);
}

#[test]
fn multiplex_vectors_in_f16_and_bf16() {
    let float = |c: &Value| {
        c["inputs"]
            .as_array()
            .unwrap()
            .first()
            .is_some_and(is_float)
    };
    let h = check_family(
        "multiplex",
        float,
        multiplex_op::<f16>,
        multiplex_op::<f32>,
        exact,
    );
    let b = check_family(
        "multiplex",
        float,
        multiplex_op::<bf16>,
        multiplex_op::<f32>,
        exact,
    );
    println!(
        "multiplex: {} float cases checked in f16 and bf16, {} left",
        h.0, h.1
    );
    assert!(h.0 > 20, "only {h:?}");
    assert_eq!(h, b);
}

#[test]
fn half_arithmetic_rounds_once_to_the_half_type() {
    let h = f16::from_f32;
    // 1/3 is not representable: the nearest f16 is 0.33325195
    let x = Tensor::<f16, shape![2]>::from_array([h(1.0), h(2048.0)]);
    let y = Tensor::<f16, shape![2]>::from_array([h(3.0), h(1.0)]);
    let q = &x / &y;
    assert_eq!(q.as_slice()[0], h(1.0 / 3.0));
    assert_eq!(q.as_slice()[0].to_f64(), 0.333251953125);
    // 2048 + 1 rounds to even in f16 (11-bit significand)
    let s = x.elementwise_add(&y, Axis::<-1>, Identity);
    assert_eq!(s.as_slice()[1], h(2048.0));
    // overflow past f16::MAX is infinity, as in the frameworks
    let big = Tensor::<f16, shape![1]>::from_array([f16::MAX]);
    assert!(big.elementwise_mul(&big, Axis::<-1>, Identity).as_slice()[0].is_infinite());
    // bf16 keeps f32's range, with 8 significant bits
    let b = Tensor::<bf16, shape![2]>::from_array([bf16::from_f32(1e30), bf16::from_f32(257.0)]);
    assert_eq!(b.as_slice()[1].to_f32(), 256.0);
    let sq = b.elementwise_mul(&b, Axis::<-1>, Identity);
    // 1e60 is past bf16::MAX (3.4e38, f32's): infinity
    assert!(sq.as_slice()[0].is_infinite());
    assert!(sq.as_slice()[1].to_f32() == 65536.0);
    // tanh in f64, rounded once
    let t = Tensor::<f16, shape![1]>::from_array([h(0.5)]);
    let a = t.elementwise_add(
        &Tensor::<f16, shape![1]>::from_array([h(0.0)]),
        Axis::<-1>,
        Tanh,
    );
    assert_eq!(a.as_slice()[0], f16::from_f64(0.5f64.tanh()));
}

#[test]
fn select_and_multiplex_on_the_static_path() {
    let h = f16::from_f32;
    let c = Tensor::<bool, shape![2]>::from_array([true, false]);
    let t = Tensor::<f16, shape![2]>::from_array([h(1.5), h(2.5)]);
    let e = Tensor::<f16, shape![2]>::from_array([h(-1.0), h(-2.0)]);
    let o: Tensor<f16, shape![2]> = select(&c, &t, &e, Numpy);
    assert_eq!(o.as_slice(), &[h(1.5), h(-2.0)]);
    let ix = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let a = Tensor::<bf16, shape![2, 2]>::full(bf16::ONE);
    let b = Tensor::<bf16, shape![2, 2]>::full(bf16::NEG_ONE);
    let m = shapecheck::multiplex(&[a, b], &ix).run().unwrap();
    assert_eq!(
        m.as_slice(),
        &[bf16::NEG_ONE, bf16::NEG_ONE, bf16::ONE, bf16::ONE]
    );
}

fn stitch_op<T: Element>(case: &Value) -> Result<DynTensor<T>, String> {
    let indices: Option<Vec<DynTensor<i32>>> = case["indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(tensor::<i32>)
        .collect();
    let data: Option<Vec<DynTensor<T>>> = case["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(tensor::<T>)
        .collect();
    match (indices, data) {
        (Some(i), Some(d)) if i.len() == d.len() => {
            let pairs: Vec<_> = i.iter().zip(&d).collect();
            DynTensor::dynamic_stitch(&pairs).map_err(|e| e.to_string())
        }
        _ => Err("malformed input".to_string()),
    }
}

#[test]
fn dynamic_stitch_vectors_in_f16_and_bf16() {
    let float = |c: &Value| {
        c["op"] == "dynamic_stitch" && c["data"].as_array().unwrap().first().is_some_and(is_float)
    };
    let h = check_family(
        "dynamic_stitch",
        float,
        stitch_op::<f16>,
        stitch_op::<f32>,
        exact,
    );
    let b = check_family(
        "dynamic_stitch",
        float,
        stitch_op::<bf16>,
        stitch_op::<f32>,
        exact,
    );
    println!(
        "dynamic_stitch: {} float cases checked in f16 and bf16, {} left",
        h.0, h.1
    );
    assert!(h.0 > 10, "only {h:?}");
    assert_eq!(h, b);
}
