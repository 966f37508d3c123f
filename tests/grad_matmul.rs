//! `matmul`'s typed backward: the gradients against central finite
//! differences of `L = Σ dout · matmul(x, y)` (f64, any ranks, vectors,
//! transposes and broadcast batch dims, whose gradients sum), the static
//! forms against the dynamic one, and the checks of the run-time forms.

// MatmulError carries its shapes inline (no heap), which clippy finds large.
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck::ops::matmul::{matmul_backward_slices, matmul_output_dims, matmul_slices};
use shapecheck::prelude::*;
use shapecheck::{NoTrans, Trans};

/// One case: x's and y's dims (meeting under the flags), their data, the flags.
#[derive(Debug, Clone)]
struct Case {
    xd: Vec<usize>,
    yd: Vec<usize>,
    tx: bool,
    ty: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        proptest::collection::vec(1usize..4, 0..3),
        proptest::collection::vec(any::<bool>(), 3),
        proptest::collection::vec(any::<bool>(), 3),
        (0usize..4, 0usize..4),
        (1usize..4, 0usize..4, 1usize..4),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(ob, keep_x, keep_y, (cut_x, cut_y), (m, k, n), (tx, ty, vx, vy))| {
                // each operand's batch: a suffix of the output's, some dims 1
                let batch = |keep: &[bool], cut: usize| -> Vec<usize> {
                    let from = cut.min(ob.len());
                    ob[from..]
                        .iter()
                        .zip(keep)
                        .map(|(&d, &k)| if k { d } else { 1 })
                        .collect()
                };
                let (bx, by) = (batch(&keep_x, cut_x), batch(&keep_y, cut_y));
                let xd = if vx && bx.is_empty() {
                    vec![k]
                } else if tx {
                    [bx, vec![k, m]].concat()
                } else {
                    [bx, vec![m, k]].concat()
                };
                let yd = if vy && by.is_empty() {
                    vec![k]
                } else if ty {
                    [by, vec![n, k]].concat()
                } else {
                    [by, vec![k, n]].concat()
                };
                Case { xd, yd, tx, ty }
            },
        )
}

fn data(len: usize, seed: u64) -> Vec<f64> {
    (0..len)
        .map(|i| {
            let v = (i as u64 + 1)
                .wrapping_mul(seed | 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                >> 40;
            (v % 2001) as f64 / 1000.0 - 1.0
        })
        .collect()
}

/// `Σ dout · matmul(x, y)`.
fn loss(c: &Case, x: &[f64], y: &[f64], dout: &[f64]) -> f64 {
    let mut out = vec![0.0; dout.len()];
    matmul_slices(&c.xd, x, &c.yd, y, c.tx, c.ty, &mut out).unwrap();
    out.iter().zip(dout).map(|(a, b)| a * b).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn gradients_match_finite_differences(c in case(), seed in any::<u64>()) {
        let od = matmul_output_dims(&c.xd, &c.yd, c.tx, c.ty).unwrap();
        let nx: usize = c.xd.iter().product();
        let ny: usize = c.yd.iter().product();
        let no: usize = od.as_slice().iter().product();
        let (x, y, dout) = (data(nx, seed), data(ny, seed ^ 7), data(no, seed ^ 13));
        let (mut dx, mut dy) = (vec![f64::NAN; nx], vec![f64::NAN; ny]);
        matmul_backward_slices(&c.xd, &x, &c.yd, &y, &dout, c.tx, c.ty, &mut dx, &mut dy).unwrap();
        let h = 1e-3;
        for (v, g, is_x) in [(&x, &dx, true), (&y, &dy, false)] {
            for i in 0..v.len() {
                let (mut p, mut m) = (v.clone(), v.clone());
                p[i] += h;
                m[i] -= h;
                let (lp, lm) = if is_x {
                    (loss(&c, &p, &y, &dout), loss(&c, &m, &y, &dout))
                } else {
                    (loss(&c, &x, &p, &dout), loss(&c, &x, &m, &dout))
                };
                let fd = (lp - lm) / (2.0 * h);
                prop_assert!((fd - g[i]).abs() <= 1e-7 * (1.0 + fd.abs()), "{c:?} {} [{i}]: {fd} vs {}", if is_x { "dx" } else { "dy" }, g[i]);
            }
        }
        // the DynTensor form computes the same
        let (xt, yt) = (DynTensor::new(&c.xd, x.clone()).unwrap(), DynTensor::new(&c.yd, y.clone()).unwrap());
        let (gx, gy) = xt.matmul_backward(&yt, &DynTensor::new(od.as_slice(), dout).unwrap(), c.tx, c.ty).unwrap();
        prop_assert_eq!((gx.as_slice(), gy.as_slice()), (&dx[..], &dy[..]));
    }
}

/// A `from_fn` closure reading the flat index.
fn seq(f: impl Fn(usize) -> f64) -> impl FnMut(&[usize]) -> f64 {
    let mut i = 0;
    move |_| {
        i += 1;
        f(i - 1)
    }
}

#[test]
fn static_forms_agree_with_the_dynamic_path() {
    // [2, 1, 3, 4] · [5, 4, 2]ᵀ-free: [2, 1, 3, 4] x [5, 4, 2] -> [2, 5, 3, 2]; y's batch
    // is absent on the left, x's is 1 in the middle: both gradients sum
    let x = Tensor::<f64, shape![2, 1, 3, 4]>::from_fn(seq(|i| (i as f64) * 0.25 - 1.0));
    let y = Tensor::<f64, shape![5, 4, 2]>::from_fn(seq(|i| 1.0 - (i as f64) * 0.1));
    let dout = Tensor::<f64, shape![2, 5, 3, 2]>::from_fn(seq(|i| (i % 7) as f64 - 3.0));
    let (dx, dy) = x.matmul_backward(&y, &dout);
    let _: &Tensor<f64, shape![2, 1, 3, 4]> = &dx;
    let _: &Tensor<f64, shape![5, 4, 2]> = &dy;
    let (mut ex, mut ey) = ([0.0; 24], [0.0; 40]);
    matmul_backward_slices(
        &[2, 1, 3, 4],
        x.as_slice(),
        &[5, 4, 2],
        y.as_slice(),
        dout.as_slice(),
        false,
        false,
        &mut ex,
        &mut ey,
    )
    .unwrap();
    assert_eq!((dx.as_slice(), dy.as_slice()), (&ex[..], &ey[..]));

    // transposed: x [4, 3] read as [3, 4], y [2, 4] read as [4, 2]
    let x = Tensor::<f64, shape![4, 3]>::from_fn(seq(|i| i as f64));
    let y = Tensor::<f64, shape![2, 4]>::from_fn(seq(|i| 2.0 - i as f64));
    let dout = Tensor::<f64, shape![3, 2]>::from_fn(seq(|i| i as f64 + 0.5));
    let (dx, dy) = x.matmul_backward_t(&y, &dout, Trans, Trans);
    let (mut ex, mut ey) = ([0.0; 12], [0.0; 8]);
    matmul_backward_slices(
        &[4, 3],
        x.as_slice(),
        &[2, 4],
        y.as_slice(),
        dout.as_slice(),
        true,
        true,
        &mut ex,
        &mut ey,
    )
    .unwrap();
    assert_eq!((dx.as_slice(), dy.as_slice()), (&ex[..], &ey[..]));
    // and into caller's buffers, over what was there
    let (mut gx, mut gy) = (Tensor::full(7.0), Tensor::full(7.0));
    x.matmul_backward_into(&y, &dout, Trans, Trans, &mut gx, &mut gy);
    assert_eq!((gx.as_slice(), gy.as_slice()), (&ex[..], &ey[..]));
    // the try_ form on the same static shapes
    let (tx, ty) = x.try_matmul_backward(&y, &dout, Trans, Trans).unwrap();
    assert_eq!((tx.as_slice(), ty.as_slice()), (&ex[..], &ey[..]));
    let _ = NoTrans;
}

#[test]
fn run_time_forms_check_before_writing() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let dout =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    let err = x
        .try_matmul_backward(&w, &dout, NoTrans, NoTrans)
        .unwrap_err();
    assert_eq!(err.rule(), "matmul/dout-shape");
    assert_eq!(
        err.to_string(),
        "the backward's dout has dims [3, 2], but the forward output of x and y has dims [2, 2]: the gradient flowing back must have the output's shape"
    );
    // a gradient buffer of the wrong dims: nothing written
    let dout =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let mut dx =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(1), Dim), vec![9.0; 2]).unwrap();
    let mut dw = Tensor::full(9.0f32);
    let err = x
        .try_matmul_backward_into(&w, &dout, NoTrans, NoTrans, &mut dx, &mut dw)
        .unwrap_err();
    assert_eq!(err.rule(), "shape/output");
    assert_eq!(
        (dx.as_slice(), dw.as_slice()),
        (&[9.0; 2][..], &[9.0; 4][..])
    );
    // the slices form: a short gradient buffer, nothing written
    let (mut gx, mut gy) = ([5.0f32; 3], [5.0f32; 4]);
    let err = matmul_backward_slices(
        &[2, 2],
        &[1.0; 4],
        &[2, 2],
        &[1.0; 4],
        &[1.0; 4],
        false,
        false,
        &mut gx,
        &mut gy,
    )
    .unwrap_err();
    assert_eq!(err.rule(), "shape/data-length");
    assert_eq!((gx, gy), ([5.0; 3], [5.0; 4]));
    // K = 0: zero gradients of empty operands; M = 0: zeros
    let (mut gx, mut gy) = ([5.0f32; 0], [5.0f32; 0]);
    matmul_backward_slices(
        &[2, 0],
        &[],
        &[0, 3],
        &[],
        &[0.0; 6],
        false,
        false,
        &mut gx,
        &mut gy,
    )
    .unwrap();
    let (mut gx, mut gy) = ([5.0f32; 0], [5.0f32; 6]);
    matmul_backward_slices(
        &[0, 2],
        &[],
        &[2, 3],
        &[1.0; 6],
        &[],
        false,
        false,
        &mut gx,
        &mut gy,
    )
    .unwrap();
    assert_eq!(gy, [0.0; 6]);
}
