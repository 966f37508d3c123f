//! The backward of fused expressions against central finite differences in
//! f64, on random shapes (run-time dims) and values: every leaf's gradient,
//! broadcast leaves (summed back to their shape) included.

#![allow(clippy::result_large_err)] // the library's error enums carry shapes by value

use proptest::prelude::*;
use shapecheck::expr;
use shapecheck::prelude::*;

type D1 = Tensor<f64, shape![Dyn], Vec<f64>>;
type D2 = Tensor<f64, shape![Dyn, Dyn], Vec<f64>>;
type D3 = Tensor<f64, shape![Dyn, Dyn, Dyn], Vec<f64>>;

fn t<S: Shape>(dims: &[usize], v: &[f64]) -> Tensor<f64, S, Vec<f64>> {
    Tensor::with_dims(dims, v.to_vec()).unwrap()
}

/// `sum(dout * f(leaves))` with leaf `k`'s element `i` moved by `h`.
fn loss(
    f: &dyn Fn(&[Vec<f64>]) -> Vec<f64>,
    leaves: &[Vec<f64>],
    dout: &[f64],
    k: usize,
    i: usize,
    h: f64,
) -> f64 {
    let mut moved = leaves.to_vec();
    moved[k][i] += h;
    f(&moved).iter().zip(dout).map(|(a, b)| a * b).sum()
}

/// Every gradient element against `(loss(+h) - loss(-h)) / 2h`.
fn check(
    f: &dyn Fn(&[Vec<f64>]) -> Vec<f64>,
    leaves: &[Vec<f64>],
    dout: &[f64],
    grads: &[&[f64]],
) -> Result<(), TestCaseError> {
    let h = 1e-6;
    for (k, g) in grads.iter().enumerate() {
        prop_assert_eq!(g.len(), leaves[k].len());
        for i in 0..g.len() {
            let fd = (loss(f, leaves, dout, k, i, h) - loss(f, leaves, dout, k, i, -h)) / (2.0 * h);
            prop_assert!(
                (g[i] - fd).abs() <= 1e-5 * (1.0 + fd.abs()),
                "leaf {} [{}]: backward {} vs finite difference {}",
                k,
                i,
                g[i],
                fd
            );
        }
    }
    Ok(())
}

/// Values away from 0 and from each other, so that no relu kink or max tie
/// falls within a finite difference's step.
fn vals(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        (0.1f64..2.0, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v }),
        n,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `max(tanh(x * y at axis 1 + b) - d, e)`: y [3, 4] at axis 1 of x
    /// [2, 3, 4], b [4] and e [1] broadcast (summed back), d [2, 3, 4].
    #[test]
    fn elementwise_chain_matches_finite_differences(
        x in vals(24), y in vals(12), b in vals(4), d in vals(24), e in vals(1), dout in vals(24),
    ) {
        let f = |l: &[Vec<f64>]| -> Vec<f64> {
            let (x, y, b, d, e): (D3, D2, D1, D3, D1) = (t(&[2, 3, 4], &l[0]), t(&[3, 4], &l[1]), t(&[4], &l[2]), t(&[2, 3, 4], &l[3]), t(&[1], &l[4]));
            ((x.lazy().elementwise_mul(&y, Axis::<1>, Identity) + &b).tanh() - &d)
                .elementwise_max(&e, Axis::<-1>, Identity)
                .try_eval()
                .unwrap()
                .to_vec()
        };
        let (tx, ty, tb, td, te): (D3, D2, D1, D3, D1) = (t(&[2, 3, 4], &x), t(&[3, 4], &y), t(&[4], &b), t(&[2, 3, 4], &d), t(&[1], &e));
        let g: D3 = t(&[2, 3, 4], &dout);
        let ((((gx, gy), gb), gd), ge) = ((tx.lazy().elementwise_mul(&ty, Axis::<1>, Identity) + &tb).tanh() - &td)
            .elementwise_max(&te, Axis::<-1>, Identity)
            .try_backward(&g)
            .unwrap();
        let leaves = [x, y, b, d, e];
        check(&f, &leaves, &dout, &[gx.as_slice(), gy.as_slice(), gb.as_slice(), gd.as_slice(), ge.as_slice()])?;
    }

    /// `select(c, relu(t * w), t / s, Numpy)` with c [3, 1] repeating along
    /// rows, w [4] and s [3, 1] broadcast; then `* 0.5` and `+ t`.
    #[test]
    fn select_chain_matches_finite_differences(
        c in prop::collection::vec(any::<bool>(), 3), tt in vals(12), w in vals(4), s in vals(3), dout in vals(12),
    ) {
        let cond = Tensor::<bool, shape![Dyn, Dyn], Vec<bool>>::with_dims(&[3, 1], c.clone()).unwrap();
        let (a, tw, ts, a2): (D2, D1, D2, D2) = (t(&[3, 4], &tt), t(&[4], &w), t(&[3, 1], &s), t(&[3, 4], &tt));
        let g: D2 = t(&[3, 4], &dout);
        let ((((ga, gw), (ga2, gs)), ()), g2) = (expr::select(&cond, (a.lazy() * &tw).relu(), a2.lazy() / &ts, Numpy) * 0.5 + &a)
            .try_backward(&g)
            .unwrap();
        // the leaves in the tree's order: t (then), w, t (else), s, and t (added)
        let leaves = [tt.clone(), w, tt.clone(), s, tt];
        let f_all = |l: &[Vec<f64>]| -> Vec<f64> {
            let (t0, w, t1, s, t2): (D2, D1, D2, D2, D2) = (t(&[3, 4], &l[0]), t(&[4], &l[1]), t(&[3, 4], &l[2]), t(&[3, 1], &l[3]), t(&[3, 4], &l[4]));
            (expr::select(&cond, (t0.lazy() * &w).relu(), t1.lazy() / &s, Numpy) * 0.5 + &t2)
                .try_eval()
                .unwrap()
                .to_vec()
        };
        check(&f_all, &leaves, &dout, &[ga.as_slice(), gw.as_slice(), ga2.as_slice(), gs.as_slice(), g2.as_slice()])?;
    }
}

/// The static form equals the run-time form, and a wrong `dout` is the
/// typed error.
#[test]
fn static_backward_equals_the_run_time_one() {
    let x = Tensor::<f64, shape![2, 3]>::from_fn(|i| i[0] as f64 - i[1] as f64 * 0.7 + 0.3);
    let y = Tensor::<f64, shape![3]>::from_array([1.5, -2.0, 0.25]);
    let dout = Tensor::<f64, shape![2, 3]>::from_fn(|i| 1.0 + i[1] as f64);
    let (gx, gy) = (x.lazy() * &y).relu().backward(&dout);
    let xd: D2 = t(&[2, 3], x.as_slice());
    let dd: Tensor<f64, shape![Dyn, 3], Vec<f64>> = t(&[2, 3], dout.as_slice());
    let (gxd, gyd) = (xd.lazy() * &y).relu().try_backward(&dd).unwrap();
    assert_eq!(gx.as_slice(), gxd.as_slice());
    assert_eq!(gy.as_slice(), gyd.as_slice());
    let wrong: Tensor<f64, shape![Dyn, 3], Vec<f64>> = t(&[3, 3], &[1.0; 9]);
    assert_eq!(
        (xd.lazy() * &y).try_backward(&wrong).unwrap_err().rule(),
        "shape/output"
    );
}

proptest! {
    /// One gradient per tensor: a tensor read three times in
    /// `x * x * w + x` gets the sum of its three shares, checked against
    /// the nested gradients of the same tree and against the derivative
    /// computed by hand (2·x·w + 1 for x, x² summed over rows for w).
    #[test]
    fn a_tensor_read_several_times_gets_the_sum(xs in vals(6), ws in vals(3)) {
        let x: Tensor<f64, shape![Dyn, 3], Vec<f64>> = t(&[2, 3], &xs);
        let w: Tensor<f64, shape![3], Vec<f64>> = t(&[3], &ws);
        let e = x.lazy() * &x * &w + &x;
        let dout: Tensor<f64, shape![Dyn, 3], Vec<f64>> = t(&[2, 3], &[1.0; 6]);
        let g = e.gradients(&dout).unwrap();
        prop_assert_eq!(g.len(), 2);
        let (((g1, g2), gw), g3) = e.try_backward(&dout).unwrap();
        let gx = g.of(&x).unwrap();
        for i in 0..6 {
            let nested = g1.as_slice()[i] + g2.as_slice()[i] + g3.as_slice()[i];
            prop_assert_eq!(gx.as_slice()[i], nested);
            let by_hand = 2.0 * xs[i] * ws[i % 3] + 1.0;
            prop_assert!((gx.as_slice()[i] - by_hand).abs() <= 1e-9 * (1.0 + by_hand.abs()));
        }
        let gw2 = g.of(&w).unwrap();
        prop_assert_eq!(gw2.as_slice(), gw.as_slice());
        for j in 0..3 {
            let by_hand = xs[j] * xs[j] + xs[j + 3] * xs[j + 3];
            prop_assert!((gw2.as_slice()[j] - by_hand).abs() <= 1e-9 * (1.0 + by_hand.abs()));
        }
        // a copy of x is another tensor: not read
        prop_assert!(g.of(&x.clone()).is_none());
    }
}
