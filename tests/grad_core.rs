//! The reductions' and softmax's gradients against finite differences
//! (f64, random shapes, axes and keepdim), Paddle's max / min rule on ties,
//! and the static forms against the dynamic ones.

use proptest::prelude::*;
use shapecheck::ops::reduce::{reduce_backward_slices, ReduceGradKind};
use shapecheck::ops::softmax::{softmax_backward_slices, SoftmaxKind};
use shapecheck::prelude::*;
use shapecheck::{All, DynTensor};

/// dims (rank 0 to 3, each 1 to 3), axes (a subset, some negative; empty:
/// all) and keepdim.
fn reduce_case() -> impl Strategy<Value = (Vec<usize>, Vec<isize>, bool)> {
    (0usize..=3)
        .prop_flat_map(|r| {
            (
                proptest::collection::vec(1usize..=3, r),
                proptest::collection::vec(any::<(bool, bool)>(), r),
                any::<bool>(),
            )
        })
        .prop_map(|(dims, picks, keep)| {
            let r = dims.len() as isize;
            let axes = picks
                .iter()
                .enumerate()
                .filter(|(_, (on, _))| *on)
                .map(|(i, (_, neg))| if *neg { i as isize - r } else { i as isize })
                .collect();
            (dims, axes, keep)
        })
}

fn forward(kind: ReduceGradKind, x: &DynTensor<f64>, axes: &[isize], keep: bool) -> DynTensor<f64> {
    match kind {
        ReduceGradKind::Sum => x.sum(axes, keep),
        ReduceGradKind::Mean => x.mean(axes, keep),
        ReduceGradKind::Max => x.max(axes, keep),
        ReduceGradKind::Min => x.min(axes, keep),
    }
    .unwrap()
}

/// `Σ dout · f(x)`, whose gradient in x is the backward's.
fn loss(kind: ReduceGradKind, x: &DynTensor<f64>, axes: &[isize], keep: bool, dout: &[f64]) -> f64 {
    let out = forward(kind, x, axes, keep);
    out.as_slice().iter().zip(dout).map(|(o, d)| o * d).sum()
}

const EPS: f64 = 1e-5;

/// The central difference of `f` at each element of `x`.
fn numeric(x: &[f64], f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let (mut hi, mut lo) = (x.to_vec(), x.to_vec());
            hi[i] += EPS;
            lo[i] -= EPS;
            (f(&hi) - f(&lo)) / (2.0 * EPS)
        })
        .collect()
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| (p - q).abs() <= 1e-6 * p.abs().max(1.0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn reductions_match_finite_differences(
        (dims, axes, keep) in reduce_case(),
        seed in proptest::collection::vec(-10.0f64..10.0, 27),
        dseed in proptest::collection::vec(-2.0f64..2.0, 27),
        k in 0usize..4,
    ) {
        let kind = [ReduceGradKind::Sum, ReduceGradKind::Mean, ReduceGradKind::Max, ReduceGradKind::Min][k];
        let n: usize = dims.iter().product();
        let xs = seed[..n].to_vec();
        // max / min are differentiable where the extreme is unique: values
        // at least 1e-3 apart (random values almost always are)
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        prop_assume!(sorted.windows(2).all(|w| w[1] - w[0] > 1e-3));
        let x = DynTensor::new(&dims, xs.clone()).unwrap();
        let out = forward(kind, &x, &axes, keep);
        let dout = DynTensor::new(out.dims().as_slice(), dseed[..out.as_slice().len()].to_vec()).unwrap();
        let gx = x.reduce_backward(kind, &axes, keep, &out, &dout).unwrap();
        let want = numeric(&xs, |v| {
            loss(kind, &DynTensor::new(&dims, v.to_vec()).unwrap(), &axes, keep, dout.as_slice())
        });
        prop_assert!(close(gx.as_slice(), &want), "{kind:?} {dims:?} {axes:?} {keep}: {:?} vs {want:?}", gx.as_slice());
        // the slices form agrees
        let mut g2 = vec![0.0; n];
        reduce_backward_slices(kind, &dims, &xs, Some(&axes), keep, out.as_slice(), dout.as_slice(), &mut g2).unwrap();
        prop_assert_eq!(gx.as_slice(), &g2[..]);
    }

    #[test]
    fn softmax_matches_finite_differences(
        dims in proptest::collection::vec(1usize..=4, 0..=3),
        axis_pick in 0usize..8,
        neg in any::<bool>(),
        log in any::<bool>(),
        seed in proptest::collection::vec(-3.0f64..3.0, 64),
        dseed in proptest::collection::vec(-2.0f64..2.0, 64),
    ) {
        let kind = if log { SoftmaxKind::LogSoftmax } else { SoftmaxKind::Softmax };
        let span = dims.len().max(1);
        let a = (axis_pick % span) as isize;
        let axis = if neg { a - span as isize } else { a };
        let n: usize = dims.iter().product();
        let xs = seed[..n].to_vec();
        let ds = dseed[..n].to_vec();
        let x = DynTensor::new(&dims, xs.clone()).unwrap();
        let dout = DynTensor::new(&dims, ds.clone()).unwrap();
        let out = x.softmax_with(kind, axis).unwrap();
        let gx = x.softmax_backward_with(kind, axis, &out, &dout).unwrap();
        let want = numeric(&xs, |v| {
            let o = DynTensor::new(&dims, v.to_vec()).unwrap().softmax_with(kind, axis).unwrap();
            o.as_slice().iter().zip(&ds).map(|(o, d)| o * d).sum()
        });
        prop_assert!(close(gx.as_slice(), &want), "{kind:?} {dims:?} axis {axis}: {:?} vs {want:?}", gx.as_slice());
        let mut g2 = vec![0.0; n];
        softmax_backward_slices(kind, &dims, axis, out.as_slice(), &ds, &mut g2).unwrap();
        prop_assert_eq!(gx.as_slice(), &g2[..]);
    }
}

#[test]
fn max_and_min_send_dout_to_every_tie() {
    // Paddle's paddle.max / paddle.min: the whole dout to each equal position
    let x = tensor![[0.1f64, 0.9, 0.9, 0.9], [0.9, 0.9, 0.6, 0.7]];
    let out = x.max(All);
    let gx = x.max_backward(All, &out, &Tensor::<f64, shape![]>::full(1.0));
    assert_eq!(gx.as_slice(), &[0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    let out = x.min_keepdim(Axis::<0>);
    let dout = tensor![[1.0f64, 2.0, 3.0, 4.0]];
    let gx = x.min_keepdim_backward(Axis::<0>, &out, &dout);
    assert_eq!(gx.as_slice(), &[1.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 4.0]);
}

#[test]
fn the_static_forms_agree_with_the_dynamic_ones() {
    let x = Tensor::<f64, shape![2, 3, 4]>::from_fn(|i| {
        (i[0] * 12 + i[1] * 4 + i[2]) as f64 * 0.37 - 3.0
    });
    let dx = DynTensor::new(&[2, 3, 4], x.as_slice().to_vec()).unwrap();
    let dout = Tensor::<f64, shape![3]>::from_array([1.0, -2.0, 0.5]);
    let ddout = DynTensor::new(&[3], dout.as_slice().to_vec()).unwrap();

    let g: Tensor<f64, shape![2, 3, 4]> = x.sum_backward((Axis::<0>, Axis::<-1>), &dout);
    assert_eq!(
        g.as_slice(),
        dx.sum_backward(&[0, -1], false, &ddout).unwrap().as_slice()
    );
    let g = x.mean_backward((Axis::<0>, Axis::<-1>), &dout);
    assert_eq!(
        g.as_slice(),
        dx.mean_backward(&[0, -1], false, &ddout)
            .unwrap()
            .as_slice()
    );
    let out = x.max((Axis::<0>, Axis::<-1>));
    let dout_ = DynTensor::new(&[3], out.as_slice().to_vec()).unwrap();
    let g = x.max_backward((Axis::<0>, Axis::<-1>), &out, &dout);
    assert_eq!(
        g.as_slice(),
        dx.max_backward(&[0, -1], false, &dout_, &ddout)
            .unwrap()
            .as_slice()
    );
    let outk = x.min_keepdim(Axis::<1>);
    let doutk = Tensor::<f64, shape![2, 1, 4]>::from_fn(|i| (i[0] + i[2]) as f64);
    let g = x.min_keepdim_backward(Axis::<1>, &outk, &doutk);
    let dd = |t: &Tensor<f64, shape![2, 1, 4]>| {
        DynTensor::new(&[2, 1, 4], t.as_slice().to_vec()).unwrap()
    };
    assert_eq!(
        g.as_slice(),
        dx.min_backward(&[1], true, &dd(&outk), &dd(&doutk))
            .unwrap()
            .as_slice()
    );

    // the _into forms write the same into a caller's buffer
    let mut buf = [0.0f64; 24];
    let mut gv = Tensor::<f64, shape![2, 3, 4], &mut [f64]>::from_storage(&mut buf[..]).unwrap();
    x.min_keepdim_backward_into(Axis::<1>, &outk, &doutk, &mut gv);
    assert_eq!(&buf[..], g.as_slice());
    let mut gi = Tensor::<f64, shape![2, 3, 4]>::zeros();
    x.sum_backward_into((Axis::<0>, Axis::<-1>), &dout, &mut gi);
    assert_eq!(gi, x.sum_backward((Axis::<0>, Axis::<-1>), &dout));
    x.mean_backward_into((Axis::<0>, Axis::<-1>), &dout, &mut gi);
    assert_eq!(gi, x.mean_backward((Axis::<0>, Axis::<-1>), &dout));
    x.max_backward_into((Axis::<0>, Axis::<-1>), &out, &dout, &mut gi);
    assert_eq!(gi, x.max_backward((Axis::<0>, Axis::<-1>), &out, &dout));

    let p = x.softmax(Axis::<1>);
    let ds = Tensor::<f64, shape![2, 3, 4]>::from_fn(|i| (i[1] as f64) - 1.0);
    let dd3 = |t: &Tensor<f64, shape![2, 3, 4]>| {
        DynTensor::new(&[2, 3, 4], t.as_slice().to_vec()).unwrap()
    };
    let g = x.softmax_backward(Axis::<1>, &p, &ds);
    assert_eq!(
        g.as_slice(),
        dx.softmax_backward(1, &dd3(&p), &dd3(&ds))
            .unwrap()
            .as_slice()
    );
    let l = x.log_softmax(Axis::<-1>);
    let g = x.log_softmax_backward(Axis::<-1>, &l, &ds);
    assert_eq!(
        g.as_slice(),
        dx.log_softmax_backward(-1, &dd3(&l), &dd3(&ds))
            .unwrap()
            .as_slice()
    );
}

#[test]
fn the_entries_check_before_writing() {
    use shapecheck::ops::reduce::ReduceGradKind;
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0; 6]).unwrap();
    let dout = Tensor::<f32, shape![Dyn], Vec<f32>>::with_dims(&[3], vec![1.0; 3]).unwrap();
    let mut gx = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![9.0; 6]).unwrap();
    // sum over axis 1 has 2 outputs, dout has 3
    let err = x
        .reduce_backward_into(ReduceGradKind::Sum, Axis::<1>, false, &dout, &dout, &mut gx)
        .unwrap_err();
    assert_eq!(err.rule(), "reduce/dout-shape");
    assert_eq!(gx.as_slice(), &[9.0; 6]);
    // a gx of the wrong dims
    let mut small =
        Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[1, 3], vec![9.0; 3]).unwrap();
    let err = x
        .reduce_backward_into(
            ReduceGradKind::Sum,
            Axis::<0>,
            false,
            &dout,
            &dout,
            &mut small,
        )
        .unwrap_err();
    assert_eq!(err.rule(), "shape/output");
    let g = x
        .try_reduce_backward(ReduceGradKind::Sum, Axis::<0>, false, &dout, &dout)
        .unwrap();
    assert_eq!(g.as_slice(), &[1.0; 6]);
    // softmax: dout of x's dims or an error
    let err = x
        .try_softmax_backward(SoftmaxKind::Softmax, Axis::<0>, &x, &dout)
        .unwrap_err();
    assert_eq!(err.rule(), "softmax/dout-shape");
}
