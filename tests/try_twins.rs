//! The `DynTensor` twins of `Tensor`'s `try_` forms (issue 69): each twin
//! against the static path on random shapes and values (a `Tensor` whose
//! dims are all `Dyn`, so that every shape reaches the same run-time rule),
//! the `_into` twins against the allocating forms, and one error test per
//! twin: a wrong shape gives the typed error naming its rule and the values,
//! and an `_into` form writes nothing.
#![cfg(feature = "alloc")]
// the ops' errors are large on purpose (no heap, see `StitchError`)
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck::ops::reduce::{ArgKind, ReduceGradKind, ReduceKind};
use shapecheck::ops::softmax::SoftmaxKind;
use shapecheck::ops::{Add, Div, Max, Min, Mul, Sub};
use shapecheck::prelude::*;
use shapecheck::{ActivationKind, BinaryOpKind, ElementwiseError};

/// A rank-2 tensor whose dims are both known at run time only.
type Mat<T> = Tensor<T, (Dyn, Dyn), Vec<T>>;
/// A rank-1 one.
type Vector<T> = Tensor<T, (Dyn,), Vec<T>>;

fn mat<T: Copy>(rows: usize, cols: usize, data: &[T]) -> Mat<T> {
    Mat::with_dims(&[rows, cols], data.to_vec()).unwrap()
}

fn vector<T: Copy>(data: &[T]) -> Vector<T> {
    Vector::with_dims(&[data.len()], data.to_vec()).unwrap()
}

/// A tensor's dims and elements.
type Parts<T> = (Vec<usize>, Vec<T>);

/// An op's result as what the two paths can be compared by: the dims and
/// elements, or the error's rule and message.
fn seen<T, E: Into<Error>>(r: Result<Parts<T>, E>) -> Result<Parts<T>, (&'static str, String)> {
    r.map_err(|e| {
        let e: Error = e.into();
        (e.rule(), e.to_string())
    })
}

/// A tensor's dims and elements.
fn parts<T: Copy>(dims: &[usize], data: &[T]) -> (Vec<usize>, Vec<T>) {
    (dims.to_vec(), data.to_vec())
}

/// dims of 0 to 3 by 0 to 3 with their elements.
fn arb_mat() -> impl Strategy<Value = (usize, usize, Vec<i32>)> {
    (0usize..4, 0usize..4)
        .prop_flat_map(|(r, c)| (Just(r), Just(c), prop::collection::vec(-20i32..20, r * c)))
}

const REDUCE_KINDS: [ReduceKind; 5] = [
    ReduceKind::Sum,
    ReduceKind::Mean,
    ReduceKind::Max,
    ReduceKind::Min,
    ReduceKind::Prod,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn try_reduce_and_keepdim_match_the_static_path(
        (r, c, data) in arb_mat(),
        kind in prop::sample::select(REDUCE_KINDS.to_vec()),
        first in any::<bool>(),
    ) {
        let x = mat(r, c, &data);
        let d = x.to_dyn();
        let (stat, dynamic, stat_keep, dyn_keep) = if first {
            (
                seen(x.try_reduce::<i32, _>(kind, Axis::<0>).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(d.try_reduce::<i32, _>(kind, Axis::<0>).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(x.try_reduce_keepdim::<i32, _>(kind, Axis::<0>).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(d.try_reduce_keepdim::<i32, _>(kind, 0).map(|t| parts(&t.dims(), t.as_slice()))),
            )
        } else {
            (
                seen(x.try_reduce::<i32, _>(kind, Axis::<-1>).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(d.try_reduce::<i32, _>(kind, -1).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(x.try_reduce_keepdim::<i32, _>(kind, Axis::<-1>).map(|t| parts(&t.dims(), t.as_slice()))),
                seen(d.try_reduce_keepdim::<i32, _>(kind, Axis::<-1>).map(|t| parts(&t.dims(), t.as_slice()))),
            )
        };
        prop_assert_eq!(&dynamic, &stat);
        prop_assert_eq!(&dyn_keep, &stat_keep);
        // the twin is the dynamic entry under the static path's name
        let axis = if first { 0 } else { -1 };
        prop_assert_eq!(
            seen(d.reduce::<i32>(kind, &[axis], false).map(|t| parts(&t.dims(), t.as_slice()))),
            dynamic
        );
    }

    #[test]
    fn try_arg_reduce_and_keepdim_match_the_static_path(
        (r, c, data) in arb_mat(),
        argmax in any::<bool>(),
    ) {
        let kind = if argmax { ArgKind::ArgMax } else { ArgKind::ArgMin };
        let x = mat(r, c, &data);
        let d = x.to_dyn();
        prop_assert_eq!(
            seen(d.try_arg_reduce(kind, Axis::<1>).map(|t| parts(&t.dims(), t.as_slice()))),
            seen(x.try_arg_reduce(kind, Axis::<1>).map(|t| parts(&t.dims(), t.as_slice())))
        );
        prop_assert_eq!(
            seen(d.try_arg_reduce_keepdim(kind, 0).map(|t| parts(&t.dims(), t.as_slice()))),
            seen(x.try_arg_reduce_keepdim(kind, Axis::<0>).map(|t| parts(&t.dims(), t.as_slice())))
        );
    }

    #[test]
    fn try_reduce_backward_matches_the_static_path(
        (r, c, data) in arb_mat(),
        dout_data in prop::collection::vec(-5i32..5, 0..4),
        kind in prop::sample::select(vec![ReduceGradKind::Sum, ReduceGradKind::Mean, ReduceGradKind::Max, ReduceGradKind::Min]),
    ) {
        let to_f = |v: &[i32]| v.iter().map(|&a| a as f64).collect::<Vec<f64>>();
        let x = mat(r, c, &to_f(&data));
        // out and dout of r elements, or of another count (the rule's error)
        let out = vector(&x.to_dyn().max(&[1], false).map(|m| m.into_vec()).unwrap_or_default());
        let dout = vector(&to_f(&dout_data));
        let stat = x.try_reduce_backward(kind, Axis::<1>, false, &out, &dout);
        let dynamic = x.to_dyn().try_reduce_backward(kind, Axis::<1>, false, &out.to_dyn(), &dout.to_dyn());
        prop_assert_eq!(
            seen(dynamic.map(|t| parts(&t.dims(), t.as_slice()))),
            seen(stat.map(|t| parts(&t.dims(), t.as_slice())))
        );
    }
}

/// One elementwise case: x [r, c] and y [n] (at axis -1 it meets the
/// columns, so n = c broadcasts and another n is the rule's error).
fn arb_elementwise() -> impl Strategy<Value = (usize, usize, Vec<i32>, Vec<i32>)> {
    (0usize..4, 1usize..4, 0usize..4).prop_flat_map(|(r, c, n)| {
        let n = if n == 0 { c } else { n }; // the broadcasting case most often
        (
            Just(r),
            Just(c),
            prop::collection::vec(-9i32..9, r * c),
            prop::collection::vec(1i32..9, n),
        )
    })
}

/// The static path's named `_into` form for `op`, into `out`.
fn static_named_into(
    op: BinaryOpKind,
    x: &Mat<i32>,
    y: &Vector<i32>,
    out: &mut Mat<i32>,
) -> Result<(), ElementwiseError> {
    let (a, id) = (Axis::<-1>, Identity);
    match op {
        BinaryOpKind::Mul => x.try_elementwise_mul_into(y, a, id, out),
        BinaryOpKind::Add => x.try_elementwise_add_into(y, a, id, out),
        BinaryOpKind::Sub => x.try_elementwise_sub_into(y, a, id, out),
        BinaryOpKind::Div => x.try_elementwise_div_into(y, a, id, out),
        BinaryOpKind::Max => x.try_elementwise_max_into(y, a, id, out),
        BinaryOpKind::Min => x.try_elementwise_min_into(y, a, id, out),
    }
}

/// The dynamic path's named `_into` form for `op`, into `out`.
fn dyn_named_into(
    op: BinaryOpKind,
    x: &DynTensor<i32>,
    y: &DynTensor<i32>,
    out: &mut DynTensor<i32>,
) -> Result<(), ElementwiseError> {
    let (a, id) = (Axis::<-1>, Identity);
    match op {
        BinaryOpKind::Mul => x.try_elementwise_mul_into(y, a, id, out),
        BinaryOpKind::Add => x.try_elementwise_add_into(y, a, id, out),
        BinaryOpKind::Sub => x.try_elementwise_sub_into(y, a, id, out),
        BinaryOpKind::Div => x.try_elementwise_div_into(y, a, id, out),
        BinaryOpKind::Max => x.try_elementwise_max_into(y, a, id, out),
        BinaryOpKind::Min => x.try_elementwise_min_into(y, a, id, out),
    }
}

const OPS: [BinaryOpKind; 6] = [
    BinaryOpKind::Mul,
    BinaryOpKind::Add,
    BinaryOpKind::Sub,
    BinaryOpKind::Div,
    BinaryOpKind::Max,
    BinaryOpKind::Min,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_elementwise_into_twins_match_the_static_path(
        (r, c, xs, ys) in arb_elementwise(),
        op in prop::sample::select(OPS.to_vec()),
        relu in any::<bool>(),
    ) {
        let x = mat(r, c, &xs);
        let y = vector(&ys);
        let (dx, dy) = (x.to_dyn(), y.to_dyn());
        // the named form into an output of x's dims (the output's when y broadcasts)
        let mut out = mat(r, c, &vec![-1; r * c]);
        let mut dout = out.to_dyn();
        let stat = static_named_into(op, &x, &y, &mut out);
        let dynamic = dyn_named_into(op, &dx, &dy, &mut dout);
        prop_assert_eq!(
            dynamic.as_ref().map_err(|e| e.to_string()),
            stat.as_ref().map_err(|e| e.to_string())
        );
        prop_assert_eq!(dout.as_slice(), out.as_slice());
        // the entry, with the op and the activation as values, into an
        // output of the dims the allocating form gives (x's, or [r, n] where
        // a single column broadcasts against y)
        let act = if relu { ActivationKind::Relu } else { ActivationKind::Identity };
        let fresh = dx.try_elementwise(op, &dy, -1, act);
        let out_dims = fresh.as_ref().map(|z| z.dims().to_vec()).unwrap_or(vec![r, c]);
        let untouched = vec![-1; out_dims.iter().product()];
        let mut entry = DynTensor::new(&out_dims, untouched.clone()).unwrap();
        let e = dx.try_elementwise_into(op, &dy, -1, act, &mut entry);
        match fresh {
            Ok(z) => {
                prop_assert!(e.is_ok());
                prop_assert_eq!(entry.as_slice(), z.as_slice());
                if !relu && z.dims().as_slice() == [r, c] {
                    prop_assert!(stat.is_ok());
                    prop_assert_eq!(z.as_slice(), out.as_slice());
                }
            }
            Err(err) => {
                prop_assert_eq!(e.unwrap_err().to_string(), err.to_string());
                prop_assert_eq!(entry.as_slice(), untouched.as_slice()); // nothing written
            }
        }
    }

    #[test]
    fn try_elementwise_matches_the_static_path((r, c, xs, ys) in arb_elementwise()) {
        let x = mat(r, c, &xs);
        let y = vector(&ys);
        let stat = x.try_elementwise(Sub, &y, Axis::<-1>, Relu).map(|t| parts(&t.dims(), t.as_slice()));
        let dynamic = x.to_dyn().try_elementwise(Sub, &y.to_dyn(), Axis::<-1>, Relu).map(|t| parts(&t.dims(), t.as_slice()));
        prop_assert_eq!(seen(dynamic), seen(stat));
    }

    #[test]
    fn the_elementwise_backward_twins_match_the_static_path(
        (r, c, xs, ys) in arb_elementwise(),
        op in prop::sample::select(vec![BinaryOpKind::Mul, BinaryOpKind::Add, BinaryOpKind::Max]),
    ) {
        let to_f = |v: &[i32]| v.iter().map(|&a| a as f64).collect::<Vec<f64>>();
        let x = mat(r, c, &to_f(&xs));
        let y = vector(&to_f(&ys));
        let (dx, dy) = (x.to_dyn(), y.to_dyn());
        let Ok(out) = x.try_elementwise_mul(&y, Axis::<-1>, Identity) else {
            // the forward's rule: the backward's is the same
            let err = dx.try_elementwise_backward(op, &dy, &dx, &dx, -1, ActivationKind::Identity).unwrap_err();
            prop_assert_eq!(err.rule(), "elementwise/broadcast");
            return Ok(());
        };
        let dout = out.clone();
        let stat = match op {
            BinaryOpKind::Mul => x.try_elementwise_backward(Mul, &y, &out, &dout, Axis::<-1>, Identity),
            BinaryOpKind::Add => x.try_elementwise_backward(Add, &y, &out, &dout, Axis::<-1>, Identity),
            _ => x.try_elementwise_backward(Max, &y, &out, &dout, Axis::<-1>, Identity),
        }
        .unwrap();
        let (odyn, ddyn) = (out.to_dyn(), dout.to_dyn());
        let (gx, gy) = dx.try_elementwise_backward(op, &dy, &odyn, &ddyn, Axis::<-1>, Identity).unwrap();
        prop_assert_eq!((gx.as_slice(), gy.as_slice()), (stat.0.as_slice(), stat.1.as_slice()));
        let (mut gx2, mut gy2) = (DynTensor::full(&[r, c], 7.0).unwrap(), DynTensor::full(&[ys.len()], 7.0).unwrap());
        dx.try_elementwise_backward_into(op, &dy, &odyn, &ddyn, -1, ActivationKind::Identity, &mut gx2, &mut gy2).unwrap();
        prop_assert_eq!((gx2.as_slice(), gy2.as_slice()), (gx.as_slice(), gy.as_slice()));
    }
}

/// A matmul case: x [m, k] and y [k2, n] read with the transposes, so
/// that a k2 other than k (after the transposes) is the rule's error.
fn arb_matmul() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vec<i32>, Vec<i32>, bool, bool)> {
    (
        1usize..4,
        1usize..4,
        1usize..4,
        0usize..3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(m, k, n, skew, tx, ty)| {
            // skew 0 or 1: the inner dims agree; 2: y's is one more
            let k2 = if skew == 2 { k + 1 } else { k };
            let xd = if tx { vec![k, m] } else { vec![m, k] };
            let yd = if ty { vec![n, k2] } else { vec![k2, n] };
            let (xn, yn) = (m * k, k2 * n);
            (
                Just(xd),
                Just(yd),
                prop::collection::vec(-9i32..9, xn),
                prop::collection::vec(-9i32..9, yn),
                Just(tx),
                Just(ty),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn try_matmul_into_matches_the_allocating_forms((xd, yd, xs, ys, tx, ty) in arb_matmul()) {
        let x = DynTensor::new(&xd, xs.clone()).unwrap();
        let y = DynTensor::new(&yd, ys.clone()).unwrap();
        let fresh = x.matmul(&y, tx, ty);
        // the output's dims when the rule holds, else any (the rule fails first)
        let out_dims = fresh.as_ref().map(|z| z.dims().to_vec()).unwrap_or(vec![1]);
        let numel: usize = out_dims.iter().product();
        let mut out = DynTensor::full(&out_dims, 5).unwrap();
        let r = x.try_matmul_into(&y, tx, ty, &mut out);
        match &fresh {
            Ok(z) => {
                prop_assert!(r.is_ok());
                prop_assert_eq!(out.as_slice(), z.as_slice());
            }
            Err(e) => {
                prop_assert_eq!(r.unwrap_err().to_string(), e.to_string());
                let untouched = vec![5; numel];
                prop_assert_eq!(out.as_slice(), untouched.as_slice());
            }
        }
        // the static path, its dims all run-time, untransposed
        if !tx && !ty {
            let (sx, sy) = (mat(xd[0], xd[1], &xs), mat(yd[0], yd[1], &ys));
            let mut sout = mat(xd[0], yd[1], &vec![5; xd[0] * yd[1]]);
            let sr = sx.try_matmul_into(&sy, NoTrans, NoTrans, &mut sout);
            let mut dout = DynTensor::full(&[xd[0], yd[1]], 5).unwrap();
            let dr = x.try_matmul_into(&y, NoTrans, NoTrans, &mut dout);
            prop_assert_eq!(dr.map_err(|e| e.to_string()), sr.map_err(|e| e.to_string()));
            prop_assert_eq!(dout.as_slice(), sout.as_slice());
        }
    }

    #[test]
    fn the_matmul_backward_twins_match_the_dynamic_entry((xd, yd, xs, ys, tx, ty) in arb_matmul()) {
        let to_f = |v: &[i32]| v.iter().map(|&a| a as f64).collect::<Vec<f64>>();
        let x = DynTensor::new(&xd, to_f(&xs)).unwrap();
        let y = DynTensor::new(&yd, to_f(&ys)).unwrap();
        let Ok(out) = x.matmul(&y, tx, ty) else {
            let e = x.try_matmul_backward(&y, &x, tx, ty).unwrap_err();
            prop_assert_eq!(e.rule(), "matmul/inner");
            return Ok(());
        };
        let want = x.matmul_backward(&y, &out, tx, ty).unwrap();
        let got = x.try_matmul_backward(&y, &out, tx, ty).unwrap();
        prop_assert_eq!(&got, &want);
        let (mut gx, mut gy) = (DynTensor::full(&xd, 3.0).unwrap(), DynTensor::full(&yd, 3.0).unwrap());
        x.try_matmul_backward_into(&y, &out, tx, ty, &mut gx, &mut gy).unwrap();
        prop_assert_eq!((gx, gy), want);
    }

    #[test]
    fn try_reshape_matches_the_static_path(
        (r, c, data) in arb_mat(),
        rows in 0usize..7,
    ) {
        // the target [rows, 2]: the counts agree for some rows only
        let stat = mat(r, c, &data).try_reshape((Dyn(rows), Dim::<2>)).map(|t| parts(&t.dims(), t.as_slice()));
        let dynamic = mat(r, c, &data).to_dyn().try_reshape((Dyn(rows), Dim::<2>)).map(|t| parts(&t.dims(), t.as_slice()));
        prop_assert_eq!(seen(dynamic), seen(stat));
    }

    #[test]
    fn try_softmax_backward_matches_the_static_path(
        (r, c, data) in arb_mat(),
        dout_rows in 0usize..4,
        log in any::<bool>(),
    ) {
        let kind = if log { SoftmaxKind::LogSoftmax } else { SoftmaxKind::Softmax };
        let x = mat(r, c, &data.iter().map(|&v| v as f64 / 4.0).collect::<Vec<f64>>());
        let out = x.try_softmax(Axis::<-1>).unwrap();
        let dout = mat(dout_rows, c, &vec![0.5; dout_rows * c]);
        let stat = x.try_softmax_backward(kind, Axis::<-1>, &out, &dout).map(|t| parts(&t.dims(), t.as_slice()));
        let dynamic = x
            .to_dyn()
            .try_softmax_backward(kind, -1, &out.to_dyn(), &dout.to_dyn())
            .map(|t| parts(&t.dims(), t.as_slice()));
        prop_assert_eq!(seen(dynamic), seen(stat));
    }
}

// One error test per twin: the typed error, naming the rule and the values.

fn d<T: Copy>(dims: &[usize], data: &[T]) -> DynTensor<T> {
    DynTensor::new(dims, data.to_vec()).unwrap()
}

#[test]
fn try_reduce_errors() {
    let x = d(&[2, 0], &[0i32; 0]);
    let e = x.try_reduce::<i32, _>(ReduceKind::Max, -1).unwrap_err();
    assert_eq!(e.rule(), "reduce/empty");
    let e = x
        .try_reduce_keepdim::<i32, _>(ReduceKind::Sum, Axis::<2>)
        .unwrap_err();
    assert_eq!(e.rule(), "reduce/axis-range");
    assert!(e.to_string().contains("[2, 0]"), "{e}");
    let e = x.try_arg_reduce(ArgKind::ArgMax, 1).unwrap_err();
    assert_eq!(e.rule(), "reduce/empty");
    let e = x.try_arg_reduce_keepdim(ArgKind::ArgMin, -3).unwrap_err();
    assert_eq!(e.rule(), "reduce/axis-range");
    assert!(e.to_string().contains("-3"), "{e}");
}

#[test]
fn try_reduce_backward_error() {
    let x = d(&[2, 3], &[1.0f32; 6]);
    let dout = d(&[3], &[1.0f32; 3]);
    let e = x
        .try_reduce_backward(ReduceGradKind::Sum, Axis::<1>, false, &dout, &dout)
        .unwrap_err();
    assert_eq!(e.rule(), "reduce/dout-shape");
    assert!(
        e.to_string().contains("[3]") && e.to_string().contains("[2]"),
        "{e}"
    );
}

#[test]
fn try_elementwise_errors_write_nothing() {
    let x = d(&[2, 3], &[1, 2, 3, 4, 5, 6]);
    let y = d(&[2], &[1, 1]);
    let e = x
        .try_elementwise(Add, &y, Axis::<-1>, Identity)
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    assert!(
        e.to_string().contains("[2, 3]") && e.to_string().contains("[2]"),
        "{e}"
    );

    let mut out = d(&[2, 3], &[9; 6]);
    let e = x
        .try_elementwise_into(Add, &y, -1, Identity, &mut out)
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    assert_eq!(out.as_slice(), &[9; 6]);

    // y broadcasts at axis 0, but the output is not [2, 3]
    let mut wrong = d(&[3, 2], &[9; 6]);
    let e = x
        .try_elementwise_into(Mul, &y, Axis::<0>, Identity, &mut wrong)
        .unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert_eq!(
        e.to_string(),
        "the output buffer has shape [3, 2], but the op produces shape [2, 3]"
    );
    assert_eq!(wrong.as_slice(), &[9; 6]);
}

#[test]
fn every_named_into_twin_checks_its_output() {
    let x = d(&[2, 2], &[1, 2, 3, 4]);
    let y = d(&[2], &[1, 2]);
    for op in OPS {
        let mut wrong = d(&[4], &[9; 4]);
        let e = dyn_named_into(op, &x, &y, &mut wrong).unwrap_err();
        assert_eq!(e.rule(), "shape/output", "{op:?}");
        assert!(
            e.to_string().contains("[4]") && e.to_string().contains("[2, 2]"),
            "{e}"
        );
        assert_eq!(
            wrong.as_slice(),
            &[9; 4],
            "{op:?} wrote into a wrong output"
        );
    }
    // an integer division by zero: the typed error, nothing written
    let mut out = d(&[2, 2], &[9; 4]);
    let zero = d(&[2], &[1, 0]);
    let e = x
        .try_elementwise_div_into(&zero, Axis::<-1>, Identity, &mut out)
        .unwrap_err();
    assert!(
        matches!(e, ElementwiseError::DivisionByZero { index: 1 }),
        "{e:?}"
    );
    assert_eq!(out.as_slice(), &[9; 4]);
    let _ = (Div, Max, Min, Sub); // the markers the static path names
}

#[test]
fn try_elementwise_backward_errors_write_nothing() {
    let x = d(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]);
    let y = d(&[2], &[1.0f32, 1.0]);
    let out = x.try_elementwise_add(&y, -1, Identity).unwrap();
    let e = x
        .try_elementwise_backward(Add, &y, &out, &y, -1, Identity)
        .unwrap_err();
    assert_eq!(e.rule(), "elementwise/dout-shape");
    let (mut gx, mut gy) = (d(&[2, 2], &[9.0f32; 4]), d(&[3], &[9.0f32; 3]));
    let e = x
        .try_elementwise_backward_into(Add, &y, &out, &out, -1, Identity, &mut gx, &mut gy)
        .unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert!(
        e.to_string().contains("[3]") && e.to_string().contains("[2]"),
        "{e}"
    );
    assert_eq!(
        (gx.as_slice(), gy.as_slice()),
        (&[9.0; 4][..], &[9.0; 3][..])
    );
}

#[test]
fn try_matmul_into_errors_write_nothing() {
    let x = d(&[2, 3], &[1; 6]);
    let y = d(&[2, 3], &[1; 6]);
    let mut out = d(&[2, 2], &[9; 4]);
    let e = x
        .try_matmul_into(&y, NoTrans, NoTrans, &mut out)
        .unwrap_err();
    assert_eq!(e.rule(), "matmul/inner");
    assert_eq!(
        e.to_string(),
        "matmul: x [2, 3] and y [2, 3]: x's last dim 3 must equal y's second-to-last dim 2"
    );
    assert_eq!(out.as_slice(), &[9; 4]);
    let mut wrong = d(&[3, 3], &[9; 9]);
    let e = x.try_matmul_into(&y, false, true, &mut wrong).unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert!(
        e.to_string().contains("[3, 3]") && e.to_string().contains("[2, 2]"),
        "{e}"
    );
    assert_eq!(wrong.as_slice(), &[9; 9]);
}

#[test]
fn try_matmul_backward_errors_write_nothing() {
    let x = d(&[2, 3], &[1.0f32; 6]);
    let w = d(&[3, 1], &[1.0f32; 3]);
    let e = x.try_matmul_backward(&w, &w, NoTrans, NoTrans).unwrap_err();
    assert_eq!(e.rule(), "matmul/dout-shape");
    let dout = d(&[2, 1], &[1.0f32; 2]);
    let (mut dx, mut dw) = (d(&[3, 2], &[9.0f32; 6]), d(&[3, 1], &[9.0f32; 3]));
    let e = x
        .try_matmul_backward_into(&w, &dout, NoTrans, NoTrans, &mut dx, &mut dw)
        .unwrap_err();
    assert_eq!(e.rule(), "shape/output");
    assert!(
        e.to_string().contains("[3, 2]") && e.to_string().contains("[2, 3]"),
        "{e}"
    );
    assert_eq!(
        (dx.as_slice(), dw.as_slice()),
        (&[9.0; 6][..], &[9.0; 3][..])
    );
}

#[test]
fn try_reshape_error() {
    let x = d(&[3, 4], &[0u8; 12]);
    let e = x.try_reshape((Dyn(5), Dim::<2>)).unwrap_err();
    assert_eq!(e.rule(), "reshape/element-count");
    assert_eq!(
        e.to_string(),
        "reshape: the target shape must hold as many elements as the tensor: [3, 4] holds 12, but [5, 2] holds 10"
    );
}

#[test]
fn try_softmax_backward_error() {
    let x = d(&[2, 2], &[0.0f64; 4]);
    let out = x.try_softmax(-1).unwrap();
    let e = x
        .try_softmax_backward(SoftmaxKind::Softmax, Axis::<2>, &out, &out)
        .unwrap_err();
    assert_eq!(e.rule(), "softmax/axis-range");
    let short = d(&[2], &[1.0f64; 2]);
    let e = x
        .try_softmax_backward(SoftmaxKind::LogSoftmax, -1, &out, &short)
        .unwrap_err();
    assert_eq!(e.rule(), "softmax/dout-shape");
    assert!(
        e.to_string().contains("[2]") && e.to_string().contains("[2, 2]"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn try_zip_with_matches_the_static_path((r, c, xs, ys) in arb_elementwise()) {
        let x = mat(r, c, &xs);
        let y = vector(&ys);
        let f = |a: i32, b: i32| a * 100 - b;
        let stat = x.try_zip_with(&y, f).map(|t| parts(&t.dims(), t.as_slice()));
        let dynamic = x.to_dyn().try_zip_with(&y.to_dyn(), f).map(|t| parts(&t.dims(), t.as_slice()));
        match (dynamic, stat) {
            (Ok(d), Ok(s)) => prop_assert_eq!(d, s),
            // the same rule; the static path's error is a fused expression's
            (Err(d), Err(s)) => prop_assert_eq!(d.rule(), s.rule()),
            (d, s) => prop_assert!(false, "the paths disagree: {:?} and {:?}", d, s),
        }
    }
}

#[test]
fn try_zip_with_error() {
    let x = d(&[2, 3], &[1u8; 6]);
    let y = d(&[2], &[1u8; 2]);
    let e = x.try_zip_with(&y, |a, b| a.wrapping_add(b)).unwrap_err();
    assert_eq!(e.rule(), "elementwise/broadcast");
    assert!(
        e.to_string().contains("[2, 3]") && e.to_string().contains("[2]"),
        "{e}"
    );
}

#[test]
fn try_zip_with_over_a_large_tensor_matches_the_loop() {
    // large enough for the planner's long-row loops (and rayon's split
    // with the feature); y [cols] broadcast over the rows
    let (rows, cols) = (900, 301); // past PAR_MIN_ELEMS (1 << 18)
    let xs: Vec<i64> = (0..rows * cols).map(|i| (i as i64 * 7919) % 1000).collect();
    let ys: Vec<i64> = (0..cols).map(|j| j as i64 - 150).collect();
    let z = d(&[rows, cols], &xs)
        .try_zip_with(&d(&[cols], &ys), |a, b| a * 3 - b)
        .unwrap();
    let mut want = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for j in 0..cols {
            want.push(xs[i * cols + j] * 3 - ys[j]);
        }
    }
    assert_eq!(z.dims().as_slice(), &[rows, cols]);
    assert_eq!(z.as_slice(), want.as_slice());
}
