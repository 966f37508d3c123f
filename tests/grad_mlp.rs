//! A two-layer MLP's gradients (`y = relu(x · W1 + b1) · W2 + b2`, loss
//! `½ Σ (y - t)²`), from the typed backward of matmul and elementwise_add,
//! against central finite differences in f64, on a run-time (`Dyn`) batch.

// the library's error types are returned as they are
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck::ops::Add;
use shapecheck::prelude::*;
use shapecheck::NoTrans;

type Rows<const N: usize> = Tensor<f64, (Dyn, Dim<N>), Vec<f64>>;

struct Params {
    w1: Tensor<f64, shape![4, 5]>,
    b1: Tensor<f64, shape![5]>,
    w2: Tensor<f64, shape![5, 3]>,
    b2: Tensor<f64, shape![3]>,
}

/// The hidden layer's pre-activation, the hidden layer, the output.
fn forward(p: &Params, x: &Rows<4>) -> (Rows<5>, Rows<5>, Rows<3>) {
    let z1 = x.matmul(&p.w1);
    let h = z1.elementwise_add(&p.b1, Axis::<-1>, Relu);
    let y = h.matmul(&p.w2).elementwise_add(&p.b2, Axis::<-1>, Identity);
    (z1, h, y)
}

fn loss(p: &Params, x: &Rows<4>, t: &[f64]) -> f64 {
    let (_, _, y) = forward(p, x);
    y.as_slice()
        .iter()
        .zip(t)
        .map(|(a, b)| 0.5 * (a - b) * (a - b))
        .sum()
}

/// The gradients of `loss`: W1, b1, W2, b2 (each typed as its parameter).
fn grads(p: &Params, x: &Rows<4>, t: &[f64]) -> [Vec<f64>; 4] {
    let (_, h, y) = forward(p, x);
    let mut dy = y.clone();
    for (d, &target) in dy.as_mut_slice().iter_mut().zip(t) {
        *d -= target;
    }
    let z2 = h.matmul(&p.w2);
    let (dz2, db2) = z2
        .try_elementwise_backward(Add, &p.b2, &y, &dy, Axis::<-1>, Identity)
        .unwrap();
    let (dh, dw2) = h
        .try_matmul_backward(&p.w2, &dz2, NoTrans, NoTrans)
        .unwrap();
    let z1 = x.matmul(&p.w1);
    let (dz1, db1) = z1
        .try_elementwise_backward(Add, &p.b1, &h, &dh, Axis::<-1>, Relu)
        .unwrap();
    let (_, dw1) = x
        .try_matmul_backward(&p.w1, &dz1, NoTrans, NoTrans)
        .unwrap();
    let _: &Tensor<f64, shape![4, 5]> = &dw1;
    let _: &Tensor<f64, shape![5]> = &db1;
    let _: &Tensor<f64, shape![5, 3]> = &dw2;
    let _: &Tensor<f64, shape![3]> = &db2;
    [
        dw1.as_slice().to_vec(),
        db1.as_slice().to_vec(),
        dw2.as_slice().to_vec(),
        db2.as_slice().to_vec(),
    ]
}

fn param(p: &mut Params, which: usize) -> &mut [f64] {
    match which {
        0 => p.w1.as_mut_slice(),
        1 => p.b1.as_mut_slice(),
        2 => p.w2.as_mut_slice(),
        _ => p.b2.as_mut_slice(),
    }
}

fn vals(n: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(-1.0f64..1.0, n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn mlp_gradients_match_finite_differences(
        rows in 1usize..4,
        w1 in vals(20), b1 in vals(5), w2 in vals(15), b2 in vals(3),
        xs in vals(12), ts in vals(9),
    ) {
        let take = |v: &[f64], n: usize| v[..n].to_vec();
        let mut p = Params {
            w1: Tensor::from_shape_slice(Default::default(), &w1).unwrap(),
            b1: Tensor::from_shape_slice(Default::default(), &b1).unwrap(),
            w2: Tensor::from_shape_slice(Default::default(), &w2).unwrap(),
            b2: Tensor::from_shape_slice(Default::default(), &b2).unwrap(),
        };
        let x = Rows::<4>::from_vec((Dyn(rows), Dim), take(&xs, rows * 4)).unwrap();
        let t = take(&ts, rows * 3);
        // a pre-activation at relu's kink has no derivative: skip it
        let (z1, _, _) = forward(&p, &x);
        prop_assume!(z1.as_slice().iter().all(|z| z.abs() > 1e-3));
        let g = grads(&p, &x, &t);
        let h = 1e-6;
        for (which, gw) in g.iter().enumerate() {
            for (i, &gi) in gw.iter().enumerate() {
                let v = param(&mut p, which)[i];
                param(&mut p, which)[i] = v + h;
                let lp = loss(&p, &x, &t);
                param(&mut p, which)[i] = v - h;
                let lm = loss(&p, &x, &t);
                param(&mut p, which)[i] = v;
                let fd = (lp - lm) / (2.0 * h);
                prop_assert!((fd - gi).abs() <= 1e-6 * (1.0 + fd.abs()), "param {which}[{i}]: {fd} vs {gi}");
            }
        }
    }
}
