//! G1 of `shared/bench/peers.py`: the backward of W1's elementwise_mul
//! (`x [256,128,256] * y [128,256]`, axis -1) for `dout [256,128,256]`:
//! `dx = dout · y` (x's shape) and `dy = Σ over the first dim of dout · x`
//! (y's shape). Rows: the typed backward allocating its gradients and
//! writing into preallocated ones (`_into`), the dynamic path
//! (`DynTensor::elementwise_backward`, `elementwise_backward_slices`), a
//! hand-written one-pass loop, and ndarray (numpy's two expressions, and a
//! `Zip` into preallocated arrays). f32 from a fixed seed.
//!
//! G2: the backward of fused expressions one and three layers deep.
//!
//! Run: `cargo bench -p shapecheck-benches --bench grad` (numbers in
//! docs/measurements.md, beside peers.py's numpy, TensorFlow and Paddle rows).

// the dynamic rows return the op's `Result`, whose error carries shapes by value
#![allow(clippy::result_large_err)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::{Array2, Array3, Axis as NdAxis, Zip};
use shapecheck::ops::elementwise::elementwise_backward_slices;
use shapecheck::ops::Mul;
use shapecheck::prelude::*;
use shapecheck::{ActivationKind, BinaryOpKind};
use shapecheck_benches::{data, w1_inputs, Big, BIG};
use std::time::Duration;

fn g1(c: &mut Criterion) {
    let (x, y) = w1_inputs();
    let out = x.elementwise_mul(&y, Axis::<-1>, Identity);
    let dout = Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), data(BIG, 7)).unwrap();
    let mut gx =
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap();
    let mut gy = Tensor::<f32, shape![128, 256], Vec<f32>>::from_vec(
        Default::default(),
        vec![0.0; 128 * 256],
    )
    .unwrap();
    let (dx_dyn, dy_dyn, out_dyn, dout_dyn) = (x.to_dyn(), y.to_dyn(), out.to_dyn(), dout.to_dyn());

    let nx = Array3::from_shape_vec((256, 128, 256), x.to_vec()).unwrap();
    let ny = Array2::from_shape_vec((128, 256), y.to_vec()).unwrap();
    let nd = Array3::from_shape_vec((256, 128, 256), dout.to_vec()).unwrap();
    let mut ngx = Array3::<f32>::zeros((256, 128, 256));
    let mut ngy = Array2::<f32>::zeros((128, 256));

    let mut g = c.benchmark_group("G1 backward of W1 elementwise_mul (dout [256,128,256])");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("hand-written one-pass loop", |b| {
        b.iter(|| {
            let (xs, ys, ds) = (
                black_box(x.as_slice()),
                black_box(y.as_slice()),
                black_box(dout.as_slice()),
            );
            let gys = gy.as_mut_slice();
            gys.fill(0.0);
            for ((gx, a), d) in gx
                .as_mut_slice()
                .chunks_exact_mut(128 * 256)
                .zip(xs.chunks_exact(128 * 256))
                .zip(ds.chunks_exact(128 * 256))
            {
                for ((((gx, gy), &a), &b), &d) in
                    gx.iter_mut().zip(gys.iter_mut()).zip(a).zip(ys).zip(d)
                {
                    *gx = d * b;
                    *gy += d * a;
                }
            }
        })
    });
    g.bench_function("typed into (elementwise_backward_into)", |b| {
        b.iter(|| {
            black_box(&x).elementwise_backward_into(
                Mul,
                black_box(&y),
                &out,
                black_box(&dout),
                Axis::<-1>,
                Identity,
                &mut gx,
                &mut gy,
            )
        })
    });
    g.bench_function("typed fresh (elementwise_backward)", |b| {
        b.iter(|| {
            black_box(&x).elementwise_backward(
                Mul,
                black_box(&y),
                &out,
                black_box(&dout),
                Axis::<-1>,
                Identity,
            )
        })
    });
    g.bench_function("dynamic (DynTensor::elementwise_backward)", |b| {
        b.iter(|| {
            black_box(&dx_dyn).elementwise_backward(
                BinaryOpKind::Mul,
                black_box(&dy_dyn),
                &out_dyn,
                black_box(&dout_dyn),
                -1,
                ActivationKind::Identity,
            )
        })
    });
    g.bench_function("dynamic into (elementwise_backward_slices)", |b| {
        b.iter(|| {
            elementwise_backward_slices(
                BinaryOpKind::Mul,
                ActivationKind::Identity,
                &[256, 128, 256],
                black_box(x.as_slice()),
                &[128, 256],
                black_box(y.as_slice()),
                -1,
                out.as_slice(),
                black_box(dout.as_slice()),
                gx.as_mut_slice(),
                gy.as_mut_slice(),
            )
        })
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut ngx)
                .and(black_box(&nd))
                .and_broadcast(black_box(&ny))
                .for_each(|g, &d, &b| *g = d * b);
            ngy.fill(0.0);
            for (d, a) in nd.outer_iter().zip(nx.outer_iter()) {
                Zip::from(&mut ngy)
                    .and(&d)
                    .and(&a)
                    .for_each(|g, &d, &a| *g += d * a);
            }
        })
    });
    g.bench_function(
        "ndarray as numpy (&dout * &y, (&dout * &x).sum_axis(0))",
        |b| {
            b.iter(|| {
                let gx = black_box(&nd) * black_box(&ny);
                let gy = (black_box(&nd) * black_box(&nx)).sum_axis(NdAxis(0));
                (gx, gy)
            })
        },
    );
    g.finish();
}

/// The backward of fused expressions by depth (no peer figure): x
/// `[64,256]`, w and b `[256]`, f32: one layer `tanh(x * w + b)` (6 nodes)
/// and three layers `tanh(tanh(tanh(x * w + b) * w + b) * w)` (14 nodes).
/// Each node's value is computed once per element on the way up, so the
/// time grows with the node count, not with its square.
fn g2(c: &mut Criterion) {
    type S = shape![64, 256];
    let x = Tensor::<f32, S, Vec<f32>>::from_vec(Default::default(), data(64 * 256, 11)).unwrap();
    let w =
        Tensor::<f32, shape![256], Vec<f32>>::from_vec(Default::default(), data(256, 12)).unwrap();
    let b =
        Tensor::<f32, shape![256], Vec<f32>>::from_vec(Default::default(), data(256, 13)).unwrap();
    let dout =
        Tensor::<f32, S, Vec<f32>>::from_vec(Default::default(), data(64 * 256, 14)).unwrap();
    let mut g = c.benchmark_group("G2 fused backward by depth (x [64,256], w and b [256])");
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("one layer tanh(x * w + b)", |bench| {
        bench.iter(|| {
            (black_box(&x).lazy() * &w + &b)
                .tanh()
                .backward(black_box(&dout))
        })
    });
    g.bench_function("three layers", |bench| {
        bench.iter(|| {
            (((black_box(&x).lazy() * &w + &b).tanh() * &w + &b).tanh() * &w)
                .tanh()
                .backward(black_box(&dout))
        })
    });
    g.finish();
}

criterion_group!(benches, g1, g2);
criterion_main!(benches);
