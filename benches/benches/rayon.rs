//! Feature `rayon`: W1 and W5 (the workloads of `ops.rs`) and F1 (a fused
//! expression, `fused.rs`) in rayon pools of 1 and 2 threads, and
//! elementwise_mul around the split threshold.
//!
//! Run: `cargo bench -p shapecheck-benches --features rayon --bench rayon`
//! (about 2 minutes). A pool of 1 thread runs the serial loops (the library
//! does not split when the pool has one thread), so its rows are the
//! serial figures in the same run. Each measurement runs inside its pool
//! (`pool.install` around criterion's loop, not inside it: entering a pool
//! from outside costs about 10 µs, which would hide the small sizes).

// The timed closures return the ops' `Result`s, whose errors are large on
// purpose (no heap).
#![allow(clippy::result_large_err)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use shapecheck::prelude::*;
use shapecheck::{dynamic_stitch, PAR_MIN_ELEMS};
use shapecheck_benches::{data, w1_inputs, w5_inputs, Big, BIG, ROWS, SLICE};
use std::time::Duration;

fn pools() -> [(usize, rayon::ThreadPool); 2] {
    [1, 2].map(|n| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap();
        (n, pool)
    })
}

fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g
}

fn w1(c: &mut Criterion) {
    let (x, y) = w1_inputs();
    let mut out =
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap();
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    let mut g = group(c, "R W1 elementwise_mul [256,128,256] x [128,256] axis -1");
    for (n, pool) in pools() {
        g.bench_function(format!("static into, {n} thread(s)"), |b| {
            pool.install(|| {
                b.iter(|| {
                    black_box(&x).elementwise_mul_into(
                        black_box(&y),
                        Axis::<-1>,
                        Identity,
                        &mut out,
                    )
                })
            })
        });
        g.bench_function(format!("static allocating, {n} thread(s)"), |b| {
            pool.install(|| {
                b.iter(|| black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity))
            })
        });
        g.bench_function(format!("dynamic, {n} thread(s)"), |b| {
            pool.install(|| {
                b.iter(|| {
                    black_box(&dx).elementwise(
                        shapecheck::BinaryOpKind::Mul,
                        black_box(&dy),
                        -1,
                        shapecheck::ActivationKind::Identity,
                    )
                })
            })
        });
    }
    g.finish();
}

/// F1 of peers.py, `relu(x * y + b)` fused, into a preallocated output
/// (TensorFlow's XLA runs it on both cores).
fn f1(c: &mut Criterion) {
    let (x, y) = w1_inputs();
    let b =
        Tensor::<f32, shape![256], Vec<f32>>::from_vec(Default::default(), data(256, 3)).unwrap();
    let mut out =
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap();
    let mut g = group(c, "R F1 relu(x * y + b) [256,128,256] x [128,256] + [256]");
    for (n, pool) in pools() {
        g.bench_function(format!("fused eval_into, {n} thread(s)"), |bench| {
            pool.install(|| {
                bench.iter(|| {
                    (black_box(&x).lazy() * black_box(&y) + &b)
                        .relu()
                        .eval_into(&mut out)
                })
            })
        });
    }
    g.finish();
}

fn w5(c: &mut Criterion) {
    let (indices, datas) = w5_inputs();
    let stitch = dynamic_stitch(&indices[0], &datas[0])
        .pair(&indices[1], &datas[1])
        .pair(&indices[2], &datas[2])
        .pair(&indices[3], &datas[3]);
    let dyn_i: Vec<DynTensor<i32>> = indices.iter().map(|t| t.to_dyn()).collect();
    let dyn_d: Vec<DynTensor<f32>> = datas.iter().map(|t| t.to_dyn()).collect();
    let dyn_pairs: Vec<(&DynTensor<i32>, &DynTensor<f32>)> = dyn_i.iter().zip(&dyn_d).collect();
    let mut buf = vec![0.0f32; ROWS * SLICE];
    let mut g = group(c, "R W5 dynamic_stitch 4 x 2^18 rows of 16 f32");
    for (n, pool) in pools() {
        g.bench_function(format!("static into, {n} thread(s)"), |b| {
            pool.install(|| b.iter(|| black_box(&stitch).run_into(&mut buf).map(|t| t.dims())))
        });
        g.bench_function(format!("static allocating, {n} thread(s)"), |b| {
            pool.install(|| b.iter(|| black_box(&stitch).run()))
        });
        g.bench_function(format!("dynamic, {n} thread(s)"), |b| {
            pool.install(|| b.iter(|| DynTensor::dynamic_stitch(black_box(&dyn_pairs))))
        });
    }
    g.finish();
}

/// elementwise_mul into, `[rows, 256] x [256]` at axis -1, for outputs of
/// 2^16 to 2^20 elements (the threshold is `PAR_MIN_ELEMS`).
fn threshold(c: &mut Criterion) {
    let mut g = group(c, "R threshold elementwise_mul [k,256] x [256] into");
    let y = DynTensor::new(&[256], data(256, 5)).unwrap();
    for log in [16, 17, 18, 20] {
        let n = 1usize << log;
        let x = data(n, 6);
        let mut out = vec![0.0f32; n];
        for (t, pool) in pools() {
            let name = format!(
                "2^{log} elements ({}), {t} thread(s)",
                if n >= PAR_MIN_ELEMS {
                    "split"
                } else {
                    "serial"
                }
            );
            g.bench_function(name, |b| {
                pool.install(|| {
                    b.iter(|| {
                        shapecheck::ops::elementwise::elementwise_slices(
                            shapecheck::BinaryOpKind::Mul,
                            shapecheck::ActivationKind::Identity,
                            &[n / 256, 256],
                            black_box(&x),
                            &[256],
                            black_box(y.as_slice()),
                            -1,
                            &mut out,
                        )
                    })
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, w1, f1, w5, threshold);
criterion_main!(benches);
