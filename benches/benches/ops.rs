//! Fixed workloads, each next to its floor (memcpy of the same bytes, or a
//! hand-written loop) and next to ndarray, the crate users would pick instead.
//!
//! Run: `cargo bench -p shapecheck-benches` (numbers in README.md).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::{Array, Array2, Array3, Array4, Zip};
use shapecheck::prelude::*;
use std::time::Duration;

type Big = shape![256, 128, 256];

fn data(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 97) as f32 * 0.5 - 7.0).collect()
}

/// W1: [256, 128, 256] x [128, 256] (numpy, axis -1), and W2: x [128] at axis 1.
fn big_elementwise(c: &mut Criterion) {
    let n = 256 * 128 * 256;
    let x = Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), data(n)).unwrap();
    let y =
        Tensor::<f32, shape![128, 256], Vec<f32>>::from_vec(Default::default(), data(128 * 256))
            .unwrap();
    let y1 = Tensor::<f32, shape![128], Vec<f32>>::from_vec(Default::default(), data(128)).unwrap();
    let mut out = Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; n]).unwrap();

    let nx = Array3::from_shape_vec((256, 128, 256), data(n)).unwrap();
    let ny = Array2::from_shape_vec((128, 256), data(128 * 256)).unwrap();
    let ny1 = Array::from_shape_vec((128, 1), data(128)).unwrap();
    let mut nout = Array3::<f32>::zeros((256, 128, 256));

    let mut g = c.benchmark_group("W1 [256,128,256] x [128,256]");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(x.as_slice())))
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (xs, ys) = (black_box(x.as_slice()), black_box(y.as_slice()));
            for (o, a) in out
                .as_mut_slice()
                .chunks_exact_mut(128 * 256)
                .zip(xs.chunks_exact(128 * 256))
            {
                for ((o, &a), &b) in o.iter_mut().zip(a).zip(ys) {
                    *o = a * b;
                }
            }
        })
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| black_box(&x).elementwise_mul_into(black_box(&y), Axis::<-1>, Identity, &mut out))
    });
    g.bench_function("shapecheck allocating", |b| {
        b.iter(|| black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity))
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&nx))
                .and_broadcast(black_box(&ny))
                .for_each(|o, &a, &b| *o = a * b)
        })
    });
    g.bench_function("ndarray &x * &y", |b| {
        b.iter(|| black_box(&nx) * black_box(&ny))
    });
    g.finish();

    let mut g = c.benchmark_group("W2 [256,128,256] x [128] axis 1");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(x.as_slice())))
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| black_box(&x).elementwise_mul_into(black_box(&y1), Axis::<1>, Identity, &mut out))
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&nx))
                .and_broadcast(black_box(&ny1))
                .for_each(|o, &a, &b| *o = a * b)
        })
    });
    g.finish();
}

/// S1: [2, 3, 4, 5] x [3, 4] at axis 1, inline tensors, against the loop a
/// person would write over nested arrays.
fn small_elementwise(c: &mut Criterion) {
    let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| (i[0] + i[1] + i[2] + i[3]) as f32);
    let y = Tensor::<f32, shape![3, 4]>::from_fn(|i| (i[0] * 4 + i[1]) as f32 + 0.5);
    let xa: [[[[f32; 5]; 4]; 3]; 2] = x.storage().0;
    let ya: [[f32; 4]; 3] = y.storage().0;
    let nx = Array4::from_shape_vec((2, 3, 4, 5), x.as_slice().to_vec()).unwrap();
    let ny = Array::from_shape_vec((3, 4, 1), y.as_slice().to_vec()).unwrap();

    let mut g = c.benchmark_group("S1 [2,3,4,5] x [3,4] axis 1");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (x, y) = (black_box(&xa), black_box(&ya));
            let mut out = [[[[0.0f32; 5]; 4]; 3]; 2];
            for (oa, xa) in out.iter_mut().zip(x) {
                for ((ob, xb), yb) in oa.iter_mut().zip(xa).zip(y) {
                    for ((oc, xc), &yc) in ob.iter_mut().zip(xb).zip(yb) {
                        for (od, &xd) in oc.iter_mut().zip(xc) {
                            *od = xd * yc;
                        }
                    }
                }
            }
            out
        })
    });
    g.bench_function("shapecheck", |b| {
        b.iter(|| black_box(&x).elementwise_mul(black_box(&y), Axis::<1>, Identity))
    });
    g.bench_function("ndarray &x * &y", |b| {
        b.iter(|| black_box(&nx) * black_box(&ny))
    });
    g.finish();
}

criterion_group!(benches, big_elementwise, small_elementwise);
criterion_main!(benches);
