//! The elementwise family: recorded Paddle vectors, property tests against a
//! naive reference, static and dynamic paths against each other, and the
//! run-time errors of the escape hatch.

#![allow(clippy::result_large_err)] // the library's error enums carry shapes by value

use proptest::prelude::*;
use serde_json::Value;
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::ops::{Mul, Sub};
use shapecheck::prelude::*;
use shapecheck::BinaryOpKind;
use shapecheck::{ElementwiseError, ShapeError};

// ------------------------------------------------------------ naive reference

/// The output dims and, per output element, the flat positions read in X and Y.
type ReferencePlan = (Vec<usize>, Vec<(usize, usize)>);

/// Paddle's rule written out directly, index by index (no strides, no
/// merging): returns the output dims and, for each output position, the flat
/// positions read in X and Y. `None` when the rule rejects the shapes.
fn reference_plan(x: &[usize], y: &[usize], axis: isize) -> Option<ReferencePlan> {
    let (rx, ry) = (x.len(), y.len());
    let r = rx.max(ry);
    let (x_at, y_at);
    if x == y {
        x_at = 0;
        y_at = 0;
    } else if rx == ry {
        if axis != -1 && axis != 0 {
            return None;
        }
        x_at = 0;
        y_at = 0;
    } else {
        if axis < -(r as isize) || axis >= r as isize {
            return None;
        }
        let o = if axis < 0 {
            (r - rx.min(ry)) as isize + axis + 1
        } else {
            axis
        };
        if o < 0 {
            return None;
        }
        let o = o as usize;
        let small = if rx < ry { x } else { y };
        for (k, &d) in small.iter().enumerate() {
            if o + k >= r && d != 1 {
                return None;
            }
        }
        if rx < ry {
            x_at = o;
            y_at = 0;
        } else {
            x_at = 0;
            y_at = o;
        }
    }
    let dim_at = |dims: &[usize], at: usize, p: usize| -> usize {
        if p >= at && p - at < dims.len() {
            dims[p - at]
        } else {
            1
        }
    };
    let mut out = vec![0; r];
    for (p, o) in out.iter_mut().enumerate() {
        let (a, b) = (dim_at(x, x_at, p), dim_at(y, y_at, p));
        if a != b && a != 1 && b != 1 {
            return None;
        }
        *o = if a == 1 { b } else { a };
    }
    let numel: usize = out.iter().product();
    let mut reads = Vec::with_capacity(numel);
    let mut idx = vec![0usize; r];
    for _ in 0..numel {
        let flat = |dims: &[usize], at: usize| -> usize {
            let mut f = 0;
            for (k, &d) in dims.iter().enumerate() {
                let p = at + k;
                let i = if p < r && d != 1 { idx[p] } else { 0 };
                f = f * d + i;
            }
            f
        };
        reads.push((flat(x, x_at), flat(y, y_at)));
        for p in (0..r).rev() {
            idx[p] += 1;
            if idx[p] < out[p] {
                break;
            }
            idx[p] = 0;
        }
    }
    Some((out, reads))
}

fn apply(op: BinaryOpKind, a: f64, b: f64) -> f64 {
    match op {
        BinaryOpKind::Mul => a * b,
        BinaryOpKind::Add => a + b,
        BinaryOpKind::Sub => a - b,
        BinaryOpKind::Div => a / b,
        BinaryOpKind::Max => {
            if a > b {
                a
            } else {
                b
            }
        }
        BinaryOpKind::Min => {
            if a < b {
                a
            } else {
                b
            }
        }
    }
}

fn activate(act: ActivationKind, v: f64) -> f64 {
    match act {
        ActivationKind::Identity => v,
        ActivationKind::Relu => {
            if v > 0.0 {
                v
            } else {
                0.0
            }
        }
        ActivationKind::Tanh => v.tanh(),
        ActivationKind::Sigmoid => 1.0 / (1.0 + (-v).exp()),
    }
}

fn numel(d: &[usize]) -> usize {
    d.iter().product()
}

// ------------------------------------------------------------ vectors

fn floats(v: &Value) -> Vec<f64> {
    v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn dims(v: &Value) -> Vec<usize> {
    v["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn run_case<T: Element>(
    case: &Value,
    conv: fn(f64) -> T,
    back: fn(T) -> f64,
) -> Result<(Vec<usize>, Vec<f64>), ElementwiseError> {
    let op = BinaryOpKind::from_name(case["op"].as_str().unwrap()).unwrap();
    let attrs = &case["attrs"];
    let axis = attrs["axis"].as_i64().unwrap_or(-1) as isize;
    let act = ActivationKind::from_name(attrs["act"].as_str().unwrap_or("")).unwrap();
    let (xd, yd) = (dims(&case["x"]), dims(&case["y"]));
    let x: Vec<T> = floats(&case["x"]).into_iter().map(conv).collect();
    let y: Vec<T> = floats(&case["y"]).into_iter().map(conv).collect();
    let od = elementwise_output_dims(&xd, &yd, axis)?;
    let mut out = vec![T::default(); numel(&od)];
    let got = elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out)?;
    assert_eq!(got, od);
    Ok((got.to_vec(), out.into_iter().map(back).collect()))
}

#[test]
fn paddle_vectors_through_the_dynamic_path() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/elementwise.json"
    ))
    .unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 248);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let got = match case["x"]["dtype"].as_str().unwrap() {
            "float32" => run_case::<f32>(case, |v| v as f32, |v| v as f64),
            "float64" => run_case::<f64>(case, |v| v, |v| v),
            "int32" => run_case::<i32>(case, |v| v as i32, |v| v as f64),
            "int64" => run_case::<i64>(case, |v| v as i64, |v| v as f64),
            other => panic!("dtype {other}"),
        };
        let name = format!("{}#{i}", case["name"].as_str().unwrap());
        match (got, case.get("out")) {
            (Ok((d, v)), Some(out)) => {
                let want = floats(out);
                let act = case["attrs"]["act"].as_str().unwrap_or("");
                let close = |a: f64, b: f64| {
                    if act == "tanh" || act == "sigmoid" {
                        (a - b).abs() <= 1e-6 * b.abs().max(1e-30)
                    } else {
                        a.to_bits() == b.to_bits() || (a == b)
                    }
                };
                if d != dims(out)
                    || v.len() != want.len()
                    || !v.iter().zip(&want).all(|(a, b)| close(*a, *b))
                {
                    failures.push(format!("{name}: values or shape differ"));
                }
            }
            (Err(e), None) => assert!(!e.to_string().is_empty()),
            (Ok(_), None) => failures.push(format!(
                "{name}: accepted, framework rejected: {}",
                case["error"]
            )),
            (Err(e), Some(_)) => {
                failures.push(format!("{name}: rejected ({e}), framework accepted"))
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ------------------------------------------------------------ properties

/// X's dims, then Y built from a window of X's dims (some set to 1), placed by a
/// random axis, sometimes with extra trailing 1s, sometimes with a wrong dim.
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, isize, bool)> {
    (
        prop::collection::vec(0usize..4, 0..6),
        any::<u64>(),
        -7isize..7,
        any::<bool>(),
    )
        .prop_map(|(x, seed, axis, swap)| {
            let mut s = seed;
            let mut next = |m: u64| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) % m
            };
            let start = next(x.len() as u64 + 1) as usize;
            let len = next((x.len() - start) as u64 + 1) as usize;
            let mut y: Vec<usize> = x[start..start + len]
                .iter()
                .map(|&d| if next(3) == 0 { 1 } else { d })
                .collect();
            let ones = next(3) as usize;
            y.extend(std::iter::repeat_n(1, ones));
            if next(5) == 0 && !y.is_empty() {
                let k = next(y.len() as u64) as usize;
                y[k] += 2;
            }
            let axis = if next(2) == 0 { start as isize } else { axis };
            if swap {
                (y, x, axis, true)
            } else {
                (x, y, axis, false)
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn dynamic_path_matches_naive_reference(
        (xd, yd, axis, _) in shapes(),
        op in prop::sample::select(vec![BinaryOpKind::Mul, BinaryOpKind::Add, BinaryOpKind::Sub, BinaryOpKind::Div, BinaryOpKind::Max, BinaryOpKind::Min]),
        act in prop::sample::select(vec![ActivationKind::Identity, ActivationKind::Relu, ActivationKind::Tanh, ActivationKind::Sigmoid]),
        seed in any::<u32>(),
    ) {
        let x: Vec<f64> = (0..numel(&xd)).map(|i| ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) % 13) as f64 - 6.0).collect();
        let y: Vec<f64> = (0..numel(&yd)).map(|i| ((i as u32).wrapping_mul(40503).wrapping_add(seed) % 11) as f64 - 5.0).collect();
        let reference = reference_plan(&xd, &yd, axis);
        let dims = elementwise_output_dims(&xd, &yd, axis);
        match (&reference, &dims) {
            (None, Err(_)) => {}
            (Some((od, reads)), Ok(d)) => {
                prop_assert_eq!(d.as_slice(), od.as_slice());
                let mut out = vec![0.0f64; numel(od)];
                elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out).unwrap();
                for (o, &(i, j)) in out.iter().zip(reads) {
                    let want = activate(act, apply(op, x[i], y[j]));
                    prop_assert!(o.to_bits() == want.to_bits() || (o.is_nan() && want.is_nan()), "{} vs {}", o, want);
                }
            }
            _ => prop_assert!(false, "reference {:?} vs library {:?} for {:?} {:?} axis {}", reference.map(|r| r.0), dims, xd, yd, axis),
        }
    }

    /// A run-time number of rows that meets no dim (or a 1) of the other
    /// operand needs no check: the plain forms accept it and agree with the
    /// `try_` forms, value for value, at Paddle's axes and numpy's.
    #[test]
    fn plain_forms_with_dyn_rows_match_the_try_forms(
        rows in 0usize..9,
        seed in any::<u32>(),
    ) {
        let v = |i: usize, m: u32| ((i as u32).wrapping_mul(m).wrapping_add(seed) % 13) as f32 - 6.0;
        let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec(
            (Dyn(rows), Dim),
            (0..rows * 3).map(|i| v(i, 2654435761)).collect(),
        ).unwrap();
        let w = Tensor::<f32, shape![3]>::from_array([v(0, 7), v(1, 7), v(2, 7)]);
        let col = Tensor::<f32, shape![1, 3]>::from_array([[v(0, 5), v(1, 5), v(2, 5)]]);
        let t = Tensor::<f32, shape![2, 1, 3]>::from_array([[[v(0, 3), v(1, 3), v(2, 3)]], [[v(3, 3), v(4, 3), v(5, 3)]]]);

        // the rows meet no dim of w (numpy's -1 and Paddle's 1)
        let z: Tensor<f32, shape![Dyn, 3], Vec<f32>> = x.elementwise_mul(&w, Axis::<-1>, Identity);
        prop_assert_eq!(&z, &x.try_elementwise_mul(&w, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(&(&x * &w), &z);
        prop_assert_eq!(&(&w + &x), &x.try_elementwise_add(&w, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(&x.elementwise_add(&w, Axis::<1>, Relu), &x.try_elementwise_add(&w, Axis::<1>, Relu).unwrap());
        prop_assert_eq!(&x.elementwise_sub(&w, Axis::<-1>, Tanh), &x.try_elementwise_sub(&w, Axis::<-1>, Tanh).unwrap());
        prop_assert_eq!(&x.elementwise_max(&w, Axis::<-1>, Identity), &x.try_elementwise_max(&w, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(&x.elementwise_min(&w, Axis::<-1>, Sigmoid), &x.try_elementwise_min(&w, Axis::<-1>, Sigmoid).unwrap());
        let q = x.elementwise_div(&w, Axis::<-1>, Identity).unwrap();
        let tq = x.try_elementwise_div(&w, Axis::<-1>, Identity).unwrap();
        prop_assert!(q.as_slice().iter().zip(tq.as_slice()).all(|(a, b)| a.to_bits() == b.to_bits()));
        // the `Dyn` on the right, and the rows meeting a 1
        prop_assert_eq!(&w.elementwise_mul(&x, Axis::<-1>, Identity), &w.try_elementwise_mul(&x, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(&x.elementwise_add(&col, Axis::<-1>, Identity), &x.try_elementwise_add(&col, Axis::<-1>, Identity).unwrap());
        // [2, 1, 3] with [Dyn, 3]: the rows meet the 1, the output is [2, Dyn, 3]
        let b: Tensor<f32, shape![2, Dyn, 3], Vec<f32>> = t.elementwise_mul(&x, Axis::<-1>, Identity);
        let bd = b.dims();
        prop_assert_eq!(bd.as_slice(), &[2, rows, 3]);
        prop_assert_eq!(&b, &t.try_elementwise_mul(&x, Axis::<-1>, Identity).unwrap());
    }

    #[test]
    fn integer_ops_never_panic(
        (xd, yd, axis, _) in shapes(),
        op in prop::sample::select(vec![BinaryOpKind::Mul, BinaryOpKind::Add, BinaryOpKind::Sub, BinaryOpKind::Div]),
        extreme in any::<bool>(),
    ) {
        let fill = |n: usize, k: i32| -> Vec<i32> {
            (0..n).map(|i| if extreme { if i % 2 == 0 { i32::MIN } else { -1 } } else { (i as i32 % 5) - k }).collect()
        };
        let (x, y) = (fill(numel(&xd), 2), fill(numel(&yd), 1));
        if let Ok(d) = elementwise_output_dims(&xd, &yd, axis) {
            let mut out = vec![0i32; numel(&d)];
            let r = elementwise_slices(op, ActivationKind::Identity, &xd, &x, &yd, &y, axis, &mut out);
            if op == BinaryOpKind::Div && y.contains(&0) && !out.is_empty() {
                prop_assert!(matches!(r, Err(ElementwiseError::DivisionByZero { .. })), "{:?}", r);
            } else {
                prop_assert!(r.is_ok());
            }
        }
    }
}

// ------------------------------------------------------------ static vs dynamic

macro_rules! static_agrees {
    ($name:ident, [$($xd:literal),*], [$($yd:literal),*], $axis:literal) => {
        #[test]
        fn $name() {
            let xd = [$($xd),*];
            let yd = [$($yd),*];
            let xs: Vec<f32> = (0..numel(&xd)).map(|i| (i % 7) as f32 - 3.0).collect();
            let ys: Vec<f32> = (0..numel(&yd)).map(|i| (i % 5) as f32 + 0.5).collect();
            let x = Tensor::<f32, shape![$($xd),*], Vec<f32>>::from_vec(Default::default(), xs.clone()).unwrap();
            let y = Tensor::<f32, shape![$($yd),*], Vec<f32>>::from_vec(Default::default(), ys.clone()).unwrap();
            let z = x.elementwise_sub(&y, Axis::<$axis>, Relu);
            let d = elementwise_output_dims(&xd, &yd, $axis).unwrap();
            let mut out = vec![0.0f32; numel(&d)];
            elementwise_slices(BinaryOpKind::Sub, ActivationKind::Relu, &xd, &xs, &yd, &ys, $axis, &mut out).unwrap();
            assert_eq!(z.dims(), d);
            assert_eq!(z.as_slice(), out.as_slice());
            // the same through the try_ path and through a DynTensor
            let t = x.try_elementwise(Sub, &y, Axis::<$axis>, Relu).unwrap();
            assert_eq!(t.as_slice(), out.as_slice());
            let dz = x.to_dyn().elementwise(BinaryOpKind::Sub, &y.to_dyn(), $axis, ActivationKind::Relu).unwrap();
            assert_eq!(dz.as_slice(), out.as_slice());
        }
    };
}

static_agrees!(static_numpy_rank4, [2, 3, 4, 5], [4, 5], -1);
static_agrees!(static_axis1, [2, 3, 4, 5], [3, 4], 1);
static_agrees!(static_trailing_one, [2, 3, 4, 5], [2, 1], 0);
static_agrees!(static_x_lower_rank, [3, 2], [3, 1, 1], 0);
static_agrees!(static_both_ways, [30, 3, 1, 5], [30, 1, 4, 1], -1);
static_agrees!(static_overflow_rule, [4, 2, 2, 3, 4], [4, 1, 1], 4);
static_agrees!(static_scalar, [3, 4], [], -1);
static_agrees!(static_zero_size, [0, 3], [3], -1);
static_agrees!(
    static_rank8,
    [2, 1, 2, 1, 2, 1, 2, 1],
    [1, 2, 1, 2, 1, 2, 1, 2],
    -1
);
static_agrees!(static_identical_any_axis, [2, 3], [2, 3], 1);
static_agrees!(static_big_dims, [2, 1500], [1500], -1);

// ------------------------------------------------------------ run-time errors

#[test]
fn dyn_dims_are_checked_at_run_time() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 6]).unwrap();
    let y = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(4),), vec![1.0; 4]).unwrap();
    let err = x
        .try_elementwise(Mul, &y, Axis::<-1>, Identity)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "broadcast dimension mismatch: X = [2, 3] and Y = [4] at axis -1 align X's 3 with Y's 4 at output dim 1; aligned dims must be equal or one of them 1"
    );
    let ok = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(1),), vec![2.0]).unwrap();
    let z = x.try_elementwise(Mul, &ok, Axis::<-1>, Identity).unwrap();
    assert_eq!(z.as_slice(), &[2.0; 6]);
}

#[test]
fn every_rule_has_a_typed_error() {
    let e = elementwise_output_dims(&[2, 1], &[4, 3], 1).unwrap_err();
    assert!(
        matches!(e, ElementwiseError::EqualRankAxis { axis: 1, .. }),
        "{e}"
    );
    let e = elementwise_output_dims(&[1, 2], &[2], 2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the axis must be in [-2, 2), but axis is 2 (X = [1, 2], Y = [2])"
    );
    let e = elementwise_output_dims(&[2, 3, 4, 5], &[3, 4], -4).unwrap_err();
    assert!(
        matches!(e, ElementwiseError::AxisBeforeStart { axis: -4, .. }),
        "{e}"
    );
    let e = elementwise_output_dims(&[3, 4, 3], &[3, 2], 2).unwrap_err();
    assert!(
        matches!(e, ElementwiseError::RunsPast { axis: 2, .. }),
        "{e}"
    );
    let e = elementwise_output_dims(&[0], &[5], -1).unwrap_err();
    assert!(
        matches!(
            e,
            ElementwiseError::DimMismatch {
                x_dim: 0,
                y_dim: 5,
                ..
            }
        ),
        "{e}"
    );
    let e = elementwise_output_dims(&[1; 9], &[1], -1).unwrap_err();
    assert_eq!(
        e,
        ElementwiseError::Shape(ShapeError::RankTooLarge { rank: 9 })
    );
    // a data length that does not match its dims
    let mut out = [0.0f32; 6];
    let e = elementwise_slices(
        BinaryOpKind::Mul,
        ActivationKind::Identity,
        &[2, 3],
        &[1.0; 5],
        &[3],
        &[1.0; 3],
        -1,
        &mut out,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "shape [2, 3] holds 6 elements, but the data has 5"
    );
    // an output buffer of the wrong size
    let mut small = [0.0f32; 4];
    let e = elementwise_slices(
        BinaryOpKind::Mul,
        ActivationKind::Identity,
        &[2, 3],
        &[1.0; 6],
        &[3],
        &[1.0; 3],
        -1,
        &mut small,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            ElementwiseError::Shape(ShapeError::DataLength {
                numel: 6,
                len: 4,
                ..
            })
        ),
        "{e}"
    );
    // dims whose element count overflows
    let e = elementwise_output_dims(&[usize::MAX, 2], &[2], -1);
    assert!(e.is_ok());
    let mut none: [f32; 0] = [];
    let e = elementwise_slices(
        BinaryOpKind::Mul,
        ActivationKind::Identity,
        &[usize::MAX, 2],
        &[],
        &[2],
        &[1.0; 2],
        -1,
        &mut none,
    )
    .unwrap_err();
    assert!(
        matches!(e, ElementwiseError::Shape(ShapeError::NumelOverflow { .. })),
        "{e}"
    );
}

#[test]
fn integer_division_by_zero_is_an_error() {
    let x = Tensor::<i64, shape![2, 2]>::from_array([[7, -7], [9, i64::MIN]]);
    let y = Tensor::<i64, shape![2]>::from_array([2, -1]);
    let z = x.elementwise_div(&y, Axis::<-1>, Identity).unwrap();
    // truncation toward zero, and MIN / -1 wraps instead of panicking
    assert_eq!(z.as_slice(), &[3, 7, 4, i64::MIN]);
    let zero = Tensor::<i64, shape![2]>::from_array([2, 0]);
    let e = x.elementwise_div(&zero, Axis::<-1>, Identity).unwrap_err();
    assert_eq!(e, ElementwiseError::DivisionByZero { index: 1 });
    // floats divide by zero as IEEE says
    let f = Tensor::<f32, shape![2]>::from_array([1.0, -1.0]);
    let g = Tensor::<f32, shape![]>::from_array(0.0);
    let h = f.elementwise_div(&g, Axis::<-1>, Identity).unwrap();
    assert_eq!(h.as_slice(), &[f32::INFINITY, f32::NEG_INFINITY]);
}

#[test]
fn max_and_min_follow_paddles_functors_with_nan() {
    let x = Tensor::<f32, shape![2]>::from_array([f32::NAN, 1.0]);
    let y = Tensor::<f32, shape![2]>::from_array([1.0, f32::NAN]);
    let m = x.elementwise_max(&y, Axis::<-1>, Identity);
    // a > b ? a : b
    assert_eq!(m.as_slice()[0], 1.0);
    assert!(m.as_slice()[1].is_nan());
}

#[test]
fn conversions_between_static_and_dynamic() {
    let t = Tensor::<i32, shape![2, 3]>::from_fn(|i| (i[0] * 3 + i[1]) as i32);
    let d = t.to_dyn();
    assert_eq!(d.dims().as_slice(), &[2, 3]);
    let back: Tensor<i32, shape![2, 3], Vec<i32>> = d.clone().try_into().unwrap();
    assert_eq!(back.as_slice(), t.as_slice());
    let inline = Tensor::<i32, shape![2, 3]>::try_from(&d).unwrap();
    assert_eq!(inline, t);
    let wrong: Result<Tensor<i32, shape![3, 2], Vec<i32>>, _> = d.clone().try_into();
    assert_eq!(
        wrong.unwrap_err(),
        ShapeError::DimMismatch {
            axis: 0,
            expected: 3,
            found: 2
        }
    );
    let dynamic: Tensor<i32, shape![Dyn, 3], Vec<i32>> = d.try_into().unwrap();
    assert_eq!(dynamic.dims().as_slice(), &[2, 3]);
}

#[test]
fn display_prints_nested_brackets() {
    let t = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    assert_eq!(t.to_string(), "[[1, 2], [3, 4]]");
    assert_eq!(format!("{t:?}"), "Tensor[2, 2] [[1, 2], [3, 4]]");
    let s = Tensor::<f32, shape![]>::from_array(1.5);
    assert_eq!(s.to_string(), "1.5");
    // an empty tensor prints `[]` whatever its dims, as numpy's `str` does
    let e = Tensor::<f32, shape![2, 0]>::full(0.0);
    assert_eq!(e.to_string(), "[]");
    assert_eq!(format!("{e:?}"), "Tensor[2, 0] []");
}

/// Regression (fuzz target `conversions`): an empty tensor with huge dims
/// printed one bracket pair per row (2^32 of them, gigabytes, found as an
/// out-of-memory), and `[0, 2^63, 4]` overflowed the row-size product.
#[test]
fn display_of_an_empty_tensor_with_huge_dims_is_short() {
    for dims in [
        [(1usize << 32) + 1, 0, 1 << 32],
        [0, 1 << 63, 4],
        [usize::MAX, 0, usize::MAX],
    ] {
        let t: Tensor<i32, shape![Dyn, Dyn, Dyn], Vec<i32>> =
            DynTensor::new(&dims, vec![]).unwrap().try_into().unwrap();
        assert_eq!(t.to_string(), "[]");
        assert_eq!(format!("{t:?}"), format!("Tensor{:?} []", t.dims()));
    }
}

#[test]
fn a_zero_dim_makes_the_element_count_zero_whatever_the_order() {
    use shapecheck::Dims;
    for dims in [
        [usize::MAX, usize::MAX, 0],
        [usize::MAX, 0, usize::MAX],
        [0, usize::MAX, usize::MAX],
    ] {
        assert_eq!(Dims::new(&dims).unwrap().numel(), Some(0), "{dims:?}");
    }
    assert_eq!(Dims::new(&[usize::MAX, 2]).unwrap().numel(), None);
    // an empty operand with huge dims gives an empty result, not an overflow error
    let mut out: [f32; 0] = [];
    let d = elementwise_slices(
        BinaryOpKind::Add,
        ActivationKind::Identity,
        &[usize::MAX, 0],
        &[],
        &[1],
        &[1.0],
        -1,
        &mut out,
    )
    .unwrap();
    assert_eq!(d.as_slice(), &[usize::MAX, 0]);
}

/// The type-level placement, as rustc resolves it through the generated
/// axis tables (`ElementwiseAxis`), is the verdict of
/// `shapecheck_rules::elementwise::placement`, the function the run-time
/// rule calls: compiled for every pair of ranks 0..=4 and every axis from
/// -5 to 4 (one past each end of the widest range). The macro crate's
/// tests follow the same tables by hand for ranks up to 8.
mod type_level_placement {
    use shapecheck::ops::elementwise::{
        At, AtTrimmed, Axis, BeforeStart, ElementwiseAxis, Identical, OutOfRange,
    };
    use shapecheck::{One, Shape};
    use shapecheck_rules::elementwise::{placement, Placement};

    /// A placement type's value.
    trait Verdict {
        const V: Placement;
    }
    impl<const O: usize> Verdict for At<O> {
        const V: Placement = Placement::At(O);
    }
    impl<const O: usize, const K: usize> Verdict for AtTrimmed<O, K> {
        const V: Placement = Placement::AtTrimmed { at: O, kept: K };
    }
    impl Verdict for Identical {
        const V: Placement = Placement::Identical;
    }
    impl Verdict for BeforeStart {
        const V: Placement = Placement::BeforeStart;
    }
    impl Verdict for OutOfRange {
        const V: Placement = Placement::OutOfRange;
    }

    fn check<X, Y: Shape, const A: isize>()
    where
        X: Shape + ElementwiseAxis<Y, Axis<A>>,
        <X as ElementwiseAxis<Y, Axis<A>>>::Place: Verdict,
    {
        assert_eq!(
            <<X as ElementwiseAxis<Y, Axis<A>>>::Place as Verdict>::V,
            placement(X::RANK, Y::RANK, A),
            "X of rank {}, Y of rank {}, axis {A}",
            X::RANK,
            Y::RANK
        );
    }

    /// Every axis from -5 to 4 for one pair of shapes.
    macro_rules! every_axis {
        ($x:ty, $y:ty) => {
            check::<$x, $y, -5>();
            check::<$x, $y, -4>();
            check::<$x, $y, -3>();
            check::<$x, $y, -2>();
            check::<$x, $y, -1>();
            check::<$x, $y, 0>();
            check::<$x, $y, 1>();
            check::<$x, $y, 2>();
            check::<$x, $y, 3>();
            check::<$x, $y, 4>();
        };
    }

    type R0 = ();
    type R1 = (One,);
    type R2 = (One, One);
    type R3 = (One, One, One);
    type R4 = (One, One, One, One);

    #[test]
    fn every_rank_pair_up_to_4() {
        every_axis!(R0, R0);
        every_axis!(R0, R1);
        every_axis!(R0, R2);
        every_axis!(R0, R3);
        every_axis!(R0, R4);
        every_axis!(R1, R0);
        every_axis!(R1, R1);
        every_axis!(R1, R2);
        every_axis!(R1, R3);
        every_axis!(R1, R4);
        every_axis!(R2, R0);
        every_axis!(R2, R1);
        every_axis!(R2, R2);
        every_axis!(R2, R3);
        every_axis!(R2, R4);
        every_axis!(R3, R0);
        every_axis!(R3, R1);
        every_axis!(R3, R2);
        every_axis!(R3, R3);
        every_axis!(R3, R4);
        every_axis!(R4, R0);
        every_axis!(R4, R1);
        every_axis!(R4, R2);
        every_axis!(R4, R3);
        every_axis!(R4, R4);
    }
}
