//! The named backward forms of sum, mean, max, min, softmax and log_softmax
//! on shapes with run-time dims the rule need not check (a `Dyn` batch
//! reduced away, a branded batch, a `Bounded` batch reduced away), with no
//! `Result`, against a naive reference written plainly here.

use proptest::prelude::*;
use shapecheck::ops::reduce::ReduceKind;
use shapecheck::prelude::*;
use shapecheck::{Bounded, Room};

/// `rows` rows of 3 values, as a `[Dyn, 3]` tensor.
fn dyn_rows(rows: &[[f64; 3]]) -> Tensor<f64, shape![Dyn, 3], Vec<f64>> {
    let flat: Vec<f64> = rows.iter().flatten().copied().collect();
    Tensor::from_vec((Dyn(rows.len()), Dim), flat).unwrap()
}

/// The naive reference of reducing over the batch (axis 0) of `x` (`n`
/// rows of 3): each gradient element from its column's `dout`.
fn naive_batch(kind: &str, x: &[[f64; 3]], out: &[f64; 3], dout: &[f64; 3]) -> Vec<f64> {
    let n = x.len() as f64;
    let mut g = Vec::new();
    for row in x {
        for j in 0..3 {
            g.push(match kind {
                "sum" => dout[j],
                "mean" => dout[j] / n,
                _ if row[j] == out[j] => dout[j],
                _ => 0.0,
            });
        }
    }
    g
}

/// The naive reference along the last axis: each row's gradient from its
/// own `dout` element.
fn naive_row(kind: &str, x: &[[f64; 3]], out: &[f64], dout: &[f64]) -> Vec<f64> {
    let mut g = Vec::new();
    for (i, row) in x.iter().enumerate() {
        for v in row {
            g.push(match kind {
                "sum" => dout[i],
                "mean" => dout[i] / 3.0,
                _ if *v == out[i] => dout[i],
                _ => 0.0,
            });
        }
    }
    g
}

/// softmax's and log_softmax's gradients along each row, written out.
fn naive_softmax(log: bool, out: &[f64], dout: &[f64]) -> Vec<f64> {
    let mut g = Vec::new();
    for (o, d) in out.chunks(3).zip(dout.chunks(3)) {
        if log {
            let s: f64 = d.iter().sum();
            g.extend(o.iter().zip(d).map(|(o, d)| d - o.exp() * s));
        } else {
            let s: f64 = o.iter().zip(d).map(|(o, d)| o * d).sum();
            g.extend(o.iter().zip(d).map(|(o, d)| o * (d - s)));
        }
    }
    g
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(a, b)| (a - b).abs() <= 1e-12 * (1.0 + b.abs()))
}

/// Small integers, so that max and min meet ties.
fn rows() -> impl Strategy<Value = Vec<[f64; 3]>> {
    proptest::collection::vec(
        proptest::array::uniform3((-3i8..=3).prop_map(f64::from)),
        0..6,
    )
}

fn three() -> impl Strategy<Value = [f64; 3]> {
    proptest::array::uniform3(-4.0f64..4.0)
}

proptest! {
    /// A `Dyn` batch reduced away: the output `[3]` is static, so `dout`
    /// needs no check, and the gradient keeps x's `[Dyn, 3]`.
    #[test]
    fn dyn_batch_reduced_away(x in rows(), dout in three()) {
        let t = dyn_rows(&x);
        let d = Tensor::<f64, shape![3]>::from_array(dout);
        let g: Tensor<f64, shape![Dyn, 3], Vec<f64>> = t.sum_backward(Axis::<0>, &d);
        prop_assert!(close(g.as_slice(), &naive_batch("sum", &x, &[0.0; 3], &dout)));
        prop_assert_eq!(g.dims(), t.dims());
        let g = t.mean_backward(Axis::<0>, &d);
        prop_assert!(close(g.as_slice(), &naive_batch("mean", &x, &[0.0; 3], &dout)));
        let dk = Tensor::<f64, shape![1, 3]>::from_array([dout]);
        let g = t.sum_keepdim_backward(Axis::<0>, &dk);
        prop_assert!(close(g.as_slice(), &naive_batch("sum", &x, &[0.0; 3], &dout)));
        let g = t.mean_keepdim_backward(Axis::<0>, &dk);
        prop_assert!(close(g.as_slice(), &naive_batch("mean", &x, &[0.0; 3], &dout)));
        if !x.is_empty() {
            // the forward over a `Dyn` axis is the `try_` form (empty: refused)
            let mx = t.try_max(Axis::<0>).unwrap();
            let out = [mx.as_slice()[0], mx.as_slice()[1], mx.as_slice()[2]];
            let g = t.max_backward(Axis::<0>, &mx, &d);
            prop_assert!(close(g.as_slice(), &naive_batch("max", &x, &out, &dout)));
            let mn = t.try_reduce_keepdim::<f64, _>(ReduceKind::Min, Axis::<0>).unwrap();
            let out = [mn.as_slice()[0], mn.as_slice()[1], mn.as_slice()[2]];
            let g = t.min_keepdim_backward(Axis::<0>, &mn, &dk);
            prop_assert!(close(g.as_slice(), &naive_batch("min", &x, &out, &dout)));
        }
    }

    /// A branded batch kept: `dout`'s `[rows]` carries x's brand, so its
    /// size is proven; the `_into` forms write a branded buffer.
    #[test]
    fn branded_batch_kept(x in rows(), seed in three()) {
        let n = x.len();
        let dout: Vec<f64> = (0..n).map(|i| seed[i % 3] + i as f64).collect();
        dyn_rows(&x).with_brand(|t, b| {
            let d = Tensor::<f64, shape![Dyn], Vec<f64>>::from_vec((Dyn(n),), dout.clone()).unwrap().brand_rows(b).unwrap();
            let g = t.sum_backward(Axis::<1>, &d);
            assert!(close(g.as_slice(), &naive_row("sum", &x, &[], &dout)));
            let g = t.mean_backward(Axis::<-1>, &d);
            assert!(close(g.as_slice(), &naive_row("mean", &x, &[], &dout)));
            let out = t.max(Axis::<1>);
            let g = t.max_backward(Axis::<1>, &out, &d);
            assert!(close(g.as_slice(), &naive_row("max", &x, out.as_slice(), &dout)));
            let out = t.min(Axis::<1>);
            let mut gx = Tensor::<f64, shape![Dyn, 3], Vec<f64>>::from_vec((Dyn(n), Dim), vec![9.0; 3 * n]).unwrap().brand_rows(b).unwrap();
            t.min_backward_into(Axis::<1>, &out, &d, &mut gx);
            assert!(close(gx.as_slice(), &naive_row("min", &x, out.as_slice(), &dout)));
            t.sum_backward_into(Axis::<1>, &d, &mut gx);
            assert!(close(gx.as_slice(), &naive_row("sum", &x, &[], &dout)));
        });
    }

    /// softmax and log_softmax on a branded batch: the gradient's shape is
    /// x's (a brand stays a brand).
    #[test]
    fn softmax_branded_batch(x in rows(), seed in three()) {
        let n = x.len();
        let dout: Vec<f64> = (0..3 * n).map(|i| seed[i % 3] * (i as f64 + 1.0)).collect();
        dyn_rows(&x).with_brand(|t, b| {
            let d = Tensor::<f64, shape![Dyn, 3], Vec<f64>>::from_vec((Dyn(n), Dim), dout.clone()).unwrap().brand_rows(b).unwrap();
            let out = t.softmax(Axis::<1>);
            let g = t.softmax_backward(Axis::<1>, &out, &d);
            assert_eq!(g.dims(), t.dims());
            assert!(close(g.as_slice(), &naive_softmax(false, out.as_slice(), &dout)));
            let out = t.log_softmax(Axis::<-1>);
            let g = t.log_softmax_backward(Axis::<-1>, &out, &d);
            assert!(close(g.as_slice(), &naive_softmax(true, out.as_slice(), &dout)));
        });
    }

    /// A `Bounded` batch reduced away: the gradient is stored as x's shape
    /// chooses (a `Room`).
    #[test]
    fn bounded_batch_reduced_away(x in rows(), dout in three()) {
        type S = (Bounded<8>, Dim<3>);
        let flat: Vec<f64> = x.iter().flatten().copied().collect();
        let shape = <S as Shape>::from_dims(&[x.len(), 3]).unwrap();
        let t = Tensor::<f64, S, Room<f64, S>>::from_shape_slice(shape, &flat).unwrap();
        let d = Tensor::<f64, shape![3]>::from_array(dout);
        let g: Tensor<f64, S, Room<f64, S>> = t.sum_backward(Axis::<0>, &d);
        prop_assert_eq!(g.dims(), t.dims());
        prop_assert!(close(g.as_slice(), &naive_batch("sum", &x, &[0.0; 3], &dout)));
    }
}
