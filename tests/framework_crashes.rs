//! Where the frameworks crash, overflow a buffer or read out of bounds, we
//! return a typed error (or the value the rule gives), and shape arithmetic
//! that would overflow `usize` is an error on every path.
//!
//! - every vector marked `framework_crashed` or `framework_overflow` (see
//!   `tests/vectors/README.md`) of elementwise, select and multiplex, run
//!   through the dynamic API: a typed error where the vector records one, the
//!   recorded output where the rule accepts;
//! - multiplex with more index rows than candidate rows (Paddle's kernel, by
//!   code reading, reads and writes out of bounds there);
//! - overflowing element counts through every constructor and op;
//! - regressions found by fuzzing.
#![allow(clippy::result_large_err)] // errors carry their dims inline (no heap)

use serde_json::Value;
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::prelude::*;
use shapecheck::{
    multiplex_slices, select_output_dims, select_slices, ActivationKind, AutoBroadcast,
    BinaryOpKind, Dims, ElementwiseError, ShapeError,
};
use std::path::Path;

fn load(family: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/vectors/{family}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn flagged(c: &Value) -> bool {
    c["framework_crashed"] == Value::Bool(true) || c["framework_overflow"] == Value::Bool(true)
}

fn tensor(t: &Value) -> DynTensor<f64> {
    let dims: Vec<usize> = t["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    // values are small integers or halves: exact in f64 whatever the dtype
    let data: Vec<f64> = t["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    DynTensor::new(&dims, data).unwrap()
}

/// The dynamic API's answer against the recorded one; returns the error
/// text when the case records an error.
fn judge<E: std::fmt::Display>(c: &Value, got: Result<DynTensor<f64>, E>) -> Option<String> {
    let name = c["name"].as_str().unwrap_or("?");
    match (c.get("out"), got) {
        (Some(out), Ok(z)) => {
            let want = tensor(out);
            assert_eq!(z.dims(), want.dims(), "{name}");
            assert_eq!(z.as_slice(), want.as_slice(), "{name}");
            None
        }
        (None, Err(e)) => Some(e.to_string()),
        (Some(_), Err(e)) => panic!("{name}: recorded an output, got the error {e}"),
        (None, Ok(z)) => panic!("{name}: recorded an error, got {:?}", z.dims()),
    }
}

#[test]
fn elementwise_framework_crash_and_overflow_vectors() {
    let (mut errors, mut outputs) = (0, 0);
    for c in load("elementwise").iter().filter(|c| flagged(c)) {
        assert!(c
            .get("attrs")
            .and_then(|a| a.get("act"))
            .is_none_or(Value::is_null));
        let op = BinaryOpKind::from_name(c["op"].as_str().unwrap()).unwrap();
        let axis = c["attrs"]["axis"].as_i64().unwrap() as isize;
        let (x, y) = (tensor(&c["x"]), tensor(&c["y"]));
        let got = x.elementwise(op, &y, axis, ActivationKind::Identity);
        if let Err(e) = &got {
            // the typed error of this rule, naming it and the values
            assert!(matches!(e, ElementwiseError::RunsPast { .. }), "{e}");
            assert!(e.to_string().contains(&format!("axis {axis}")), "{e}");
        }
        match judge(c, got) {
            Some(_) => errors += 1,
            None => outputs += 1,
        }
    }
    // 7 such vectors today: 5 rejected, 2 accepted by the trailing-1s rule
    assert!(
        errors >= 5 && outputs >= 2,
        "{errors} errors, {outputs} outputs"
    );
}

#[test]
fn select_framework_crash_vectors() {
    for c in load("select").iter().filter(|c| flagged(c)) {
        let a = &c["attrs"];
        let mode = AutoBroadcast::from_name(
            a["auto_broadcast"].as_str().unwrap(),
            a["axis"].as_i64().unwrap_or(-1) as isize,
        )
        .unwrap();
        let cond = tensor(&c["cond"]);
        let cond = DynTensor::new(
            &cond.dims(),
            cond.as_slice().iter().map(|&v| v != 0.0).collect(),
        )
        .unwrap();
        let got = DynTensor::select(&cond, &tensor(&c["then"]), &tensor(&c["else"]), mode);
        judge(c, got);
    }
}

#[test]
fn multiplex_framework_crash_vectors_and_rows_past_the_candidates() {
    let mut past = 0;
    for c in load("multiplex").iter() {
        let inputs: Vec<DynTensor<f64>> =
            c["inputs"].as_array().unwrap().iter().map(tensor).collect();
        let rows = inputs.first().map(|t| t.dims()[0]).unwrap_or(0);
        let index = tensor(&c["index"]);
        let index_rows = index.dims().first().copied().unwrap_or(0);
        if !flagged(c) && index_rows <= rows {
            continue;
        }
        let index = DynTensor::new(
            &index.dims(),
            index.as_slice().iter().map(|&v| v as i64).collect(),
        )
        .unwrap();
        let got = DynTensor::multiplex(&inputs, &index);
        if index_rows > rows {
            assert!(
                got.is_err(),
                "{}: index rows past the candidates' accepted",
                c["name"]
            );
            past += 1;
        }
        judge(c, got);
    }
    assert!(
        past >= 4,
        "{past} vectors with more index rows than candidate rows"
    );
}

/// Dims whose element count overflows `usize`.
const HUGE: [&[usize]; 4] = [
    &[usize::MAX, 2],
    &[1 << 32, 1 << 32],
    &[1 << 63, 4, 3],
    &[3, 1 << 62, 1 << 2],
];

#[test]
fn overflowing_element_counts_are_errors_on_every_path() {
    for d in HUGE {
        let overflow = |e: &ShapeError| matches!(e, ShapeError::NumelOverflow { .. });
        assert_eq!(Dims::new(d).unwrap().numel(), None, "{d:?}");
        assert!(Dims::for_data(d, 0).is_err(), "{d:?}");
        assert!(DynTensor::new(d, Vec::<f32>::new()).is_err(), "{d:?}");
        assert!(
            DynTensor::full(d, 0f32).is_err_and(|e| overflow(&e)),
            "{d:?}"
        );
        assert!(Tensor::<f32, shape![Dyn, Dyn], Vec<f32>>::with_dims(d, vec![]).is_err());
        let one = [1usize];
        let mut out = [0f32; 4];
        // the rule accepts the shapes; the count does not fit
        assert!(elementwise_output_dims(d, &one, -1).is_ok());
        let r = elementwise_slices(
            BinaryOpKind::Add,
            ActivationKind::Identity,
            d,
            &[],
            &one,
            &[1.0],
            -1,
            &mut out,
        );
        assert!(r.is_err(), "{d:?}");
        let r = elementwise_slices(
            BinaryOpKind::Add,
            ActivationKind::Identity,
            &one,
            &[1.0],
            d,
            &[],
            -1,
            &mut out,
        );
        assert!(r.is_err(), "{d:?}");
        assert!(select_output_dims(AutoBroadcast::Numpy, &one, d, &one).is_ok());
        let r = select_slices(
            AutoBroadcast::Numpy,
            &one,
            &[true],
            d,
            &[],
            &one,
            &[1.0],
            &mut out,
        );
        assert!(r.is_err(), "{d:?}");
        let cands: [(&[usize], &[f32]); 2] = [(d, &[]), (d, &[])];
        let index_dims = [d[0], 1];
        assert!(multiplex_slices(&cands, &index_dims, &[0i32; 4], &mut out).is_err());
        assert!(multiplex_slices(&cands, &[1, 1], &[0i32], &mut out).is_err());
    }
}

/// Found by fuzzing (`conversions`): `get` on an empty tensor whose other
/// dims are huge overflowed the flat index (`[2^63, 4, 0]`; a 0 after them
/// makes the tensor empty, so nothing is in range).
#[test]
fn get_on_an_empty_tensor_with_huge_dims_is_none() {
    let t = DynTensor::new(&[1 << 63, 4, 0], Vec::<i32>::new()).unwrap();
    let s = t.into_static::<shape![Dyn, Dyn, Dyn]>().unwrap();
    assert_eq!(s.get(&[(1 << 62) + 5, 3, 0]), None);
    assert_eq!(s.get(&[usize::MAX - 1, 3, 0]), None);
    assert_eq!(s.to_string(), "[]");
}
