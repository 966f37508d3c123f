//! Fixed workloads, each next to its floor (memcpy of the same bytes, or a
//! hand-written loop) and next to ndarray, the crate users would pick instead.
//!
//! Run: `cargo bench -p shapecheck-benches` (numbers in README.md).

// The multiplex groups return the op's `Result` from the timed closure, so
// that the benchmark measures what a caller gets; its error type is large on
// purpose (no heap, see `ops::multiplex`).
#![allow(clippy::result_large_err)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::{Array, Array2, Array3, Array4, Zip};
use shapecheck::prelude::*;
use shapecheck::{multiplex, multiplex_into, select, select_into};
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

/// A deterministic pseudo-random stream (xorshift), so runs are comparable.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn bools(n: usize, seed: u64) -> Vec<bool> {
    let mut r = rng(seed);
    (0..n).map(|_| r() & 1 == 1).collect()
}

type Sq = shape![1024, 1024];
const SQ: usize = 1024 * 1024;

/// X1: select on [1024, 1024] f32 (cond random, so a loop that branches on it
/// mispredicts half the time: the hand-written loops come in the plain
/// `if c { t } else { e }` form and the branch-free one): numpy with three equal shapes, numpy with
/// cond [1024, 1] and a scalar else, pdpd at axis 0 with else [1024].
fn big_select(c: &mut Criterion) {
    let t = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), data(SQ)).unwrap();
    let e = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), data(SQ + 3)[3..].to_vec())
        .unwrap();
    let cond = Tensor::<bool, Sq, Vec<bool>>::from_vec(Default::default(), bools(SQ, 7)).unwrap();
    let cond_col =
        Tensor::<bool, shape![1024, 1], Vec<bool>>::from_vec(Default::default(), bools(1024, 9))
            .unwrap();
    let e_scalar = Tensor::<f32, shape![]>::full(-1.5);
    let e_row =
        Tensor::<f32, shape![1024], Vec<f32>>::from_vec(Default::default(), data(1024)).unwrap();
    let mut out = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), vec![0.0; SQ]).unwrap();

    let nt = Array2::from_shape_vec((1024, 1024), t.to_vec()).unwrap();
    let ne = Array2::from_shape_vec((1024, 1024), e.to_vec()).unwrap();
    let nc = Array2::from_shape_vec((1024, 1024), cond.to_vec()).unwrap();
    let nc_col = Array2::from_shape_vec((1024, 1), cond_col.to_vec()).unwrap();
    let ne_scalar = ndarray::arr0(-1.5f32);
    let ne_row = Array2::from_shape_vec((1024, 1), e_row.to_vec()).unwrap();
    let mut nout = Array2::<f32>::zeros((1024, 1024));

    let mut g = c.benchmark_group("X1 select [1024,1024] numpy, same shapes");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(t.as_slice())))
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e.as_slice()),
            );
            for (((o, &c), &t), &e) in out.as_mut_slice().iter_mut().zip(c).zip(t).zip(e) {
                *o = if c { t } else { e };
            }
        })
    });
    g.bench_function("hand-written loop, branch-free", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e.as_slice()),
            );
            for (((o, &c), &t), &e) in out.as_mut_slice().iter_mut().zip(c).zip(t).zip(e) {
                *o = std::hint::select_unpredictable(c, t, e);
            }
        })
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| {
            select_into(
                black_box(&cond),
                black_box(&t),
                black_box(&e),
                Numpy,
                &mut out,
            )
        })
    });
    g.bench_function("shapecheck allocating", |b| {
        b.iter(|| select(black_box(&cond), black_box(&t), black_box(&e), Numpy))
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&nc))
                .and(black_box(&nt))
                .and(black_box(&ne))
                .for_each(|o, &c, &t, &e| *o = if c { t } else { e })
        })
    });
    g.bench_function("ndarray Zip map_collect", |b| {
        b.iter(|| {
            Zip::from(black_box(&nc))
                .and(black_box(&nt))
                .and(black_box(&ne))
                .map_collect(|&c, &t, &e| if c { t } else { e })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("X2 select [1024,1024] numpy, cond [1024,1], else []");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(t.as_slice())))
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond_col.as_slice()),
                black_box(t.as_slice()),
                black_box(e_scalar.as_slice()[0]),
            );
            for ((o, &c), t) in out
                .as_mut_slice()
                .chunks_exact_mut(1024)
                .zip(c)
                .zip(t.chunks_exact(1024))
            {
                if c {
                    o.copy_from_slice(t);
                } else {
                    o.fill(e);
                }
            }
        })
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| {
            select_into(
                black_box(&cond_col),
                black_box(&t),
                black_box(&e_scalar),
                Numpy,
                &mut out,
            )
        })
    });
    g.bench_function("shapecheck allocating", |b| {
        b.iter(|| {
            select(
                black_box(&cond_col),
                black_box(&t),
                black_box(&e_scalar),
                Numpy,
            )
        })
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and_broadcast(black_box(&nc_col))
                .and(black_box(&nt))
                .and_broadcast(black_box(&ne_scalar))
                .for_each(|o, &c, &t, &e| *o = if c { t } else { e })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("X3 select [1024,1024] pdpd axis 0, else [1024]");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(t.as_slice())))
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e_row.as_slice()),
            );
            for (((o, c), t), &e) in out
                .as_mut_slice()
                .chunks_exact_mut(1024)
                .zip(c.chunks_exact(1024))
                .zip(t.chunks_exact(1024))
                .zip(e)
            {
                for ((o, &c), &t) in o.iter_mut().zip(c).zip(t) {
                    *o = if c { t } else { e };
                }
            }
        })
    });
    g.bench_function("hand-written loop, branch-free", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e_row.as_slice()),
            );
            for (((o, c), t), &e) in out
                .as_mut_slice()
                .chunks_exact_mut(1024)
                .zip(c.chunks_exact(1024))
                .zip(t.chunks_exact(1024))
                .zip(e)
            {
                for ((o, &c), &t) in o.iter_mut().zip(c).zip(t) {
                    *o = std::hint::select_unpredictable(c, t, e);
                }
            }
        })
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| {
            select_into(
                black_box(&cond),
                black_box(&t),
                black_box(&e_row),
                Pdpd::<0>,
                &mut out,
            )
        })
    });
    g.bench_function("shapecheck allocating", |b| {
        b.iter(|| {
            select(
                black_box(&cond),
                black_box(&t),
                black_box(&e_row),
                Pdpd::<0>,
            )
        })
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&nc))
                .and(black_box(&nt))
                .and_broadcast(black_box(&ne_row))
                .for_each(|o, &c, &t, &e| *o = if c { t } else { e })
        })
    });
    g.finish();
}

/// X4: select on tiny inline shapes, against the loop a person would write
/// over nested arrays: [2, 3, 4] all three, and [2, 3, 4] with cond [3, 1]
/// and a scalar else.
fn small_select(c: &mut Criterion) {
    let cond = Tensor::<bool, shape![2, 3, 4]>::from_fn(|i| (i[0] + 2 * i[1] + i[2]) % 3 == 0);
    let t = Tensor::<f32, shape![2, 3, 4]>::from_fn(|i| (i[0] * 12 + i[1] * 4 + i[2]) as f32);
    let e = Tensor::<f32, shape![2, 3, 4]>::from_fn(|i| -((i[0] + i[1] + i[2]) as f32));
    let cond_col = Tensor::<bool, shape![3, 1]>::from_array([[true], [false], [true]]);
    let e_scalar = Tensor::<f32, shape![]>::full(-1.5);
    let ca: [[[bool; 4]; 3]; 2] = cond.storage().0;
    let ta: [[[f32; 4]; 3]; 2] = t.storage().0;
    let ea: [[[f32; 4]; 3]; 2] = e.storage().0;
    let cca: [[bool; 1]; 3] = cond_col.storage().0;
    let nc = Array3::from_shape_vec((2, 3, 4), cond.to_vec()).unwrap();
    let nt = Array3::from_shape_vec((2, 3, 4), t.to_vec()).unwrap();
    let ne = Array3::from_shape_vec((2, 3, 4), e.to_vec()).unwrap();

    let mut g = c.benchmark_group("X4 select [2,3,4] numpy, same shapes, inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (c, t, e) = (black_box(&ca), black_box(&ta), black_box(&ea));
            let mut out = [[[0.0f32; 4]; 3]; 2];
            for (((oa, ca), ta), ea) in out.iter_mut().zip(c).zip(t).zip(e) {
                for (((ob, cb), tb), eb) in oa.iter_mut().zip(ca).zip(ta).zip(ea) {
                    for (((o, &c), &t), &e) in ob.iter_mut().zip(cb).zip(tb).zip(eb) {
                        *o = if c { t } else { e };
                    }
                }
            }
            out
        })
    });
    g.bench_function("shapecheck", |b| {
        b.iter(|| select(black_box(&cond), black_box(&t), black_box(&e), Numpy))
    });
    g.bench_function("ndarray Zip map_collect", |b| {
        b.iter(|| {
            Zip::from(black_box(&nc))
                .and(black_box(&nt))
                .and(black_box(&ne))
                .map_collect(|&c, &t, &e| if c { t } else { e })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("X5 select [2,3,4] numpy, cond [3,1], else [], inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (c, t, e) = (black_box(&cca), black_box(&ta), black_box(-1.5f32));
            let mut out = [[[0.0f32; 4]; 3]; 2];
            for (oa, ta) in out.iter_mut().zip(t) {
                for ((ob, &[cb]), tb) in oa.iter_mut().zip(c).zip(ta) {
                    for (o, &t) in ob.iter_mut().zip(tb) {
                        *o = if cb { t } else { e };
                    }
                }
            }
            out
        })
    });
    g.bench_function("shapecheck", |b| {
        b.iter(|| {
            select(
                black_box(&cond_col),
                black_box(&t),
                black_box(&e_scalar),
                Numpy,
            )
        })
    });
    g.finish();
}

/// M1: multiplex of 4 candidates [65536, 64] f32 with a random valid index,
/// into a preallocated output.
fn big_multiplex(c: &mut Criterion) {
    type C = shape![65536, 64];
    let n = 65536 * 64;
    let inputs: [Tensor<f32, C, Vec<f32>>; 4] = core::array::from_fn(|k| {
        Tensor::from_vec(Default::default(), data(n + k)[k..].to_vec()).unwrap()
    });
    let mut r = rng(11);
    let index = Tensor::<i32, shape![65536, 1], Vec<i32>>::from_vec(
        Default::default(),
        (0..65536).map(|_| (r() % 4) as i32).collect(),
    )
    .unwrap();
    let mut out = Tensor::<f32, C, Vec<f32>>::from_vec(Default::default(), vec![0.0; n]).unwrap();
    let slices: [&[f32]; 4] = core::array::from_fn(|k| inputs[k].as_slice());

    let mut g = c.benchmark_group("M1 multiplex 4 x [65536,64], into");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    g.bench_function("memcpy floor", |b| {
        b.iter(|| {
            out.as_mut_slice()
                .copy_from_slice(black_box(inputs[0].as_slice()))
        })
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (cands, idx) = (black_box(&slices), black_box(index.as_slice()));
            for (row, (dst, &k)) in out.as_mut_slice().chunks_exact_mut(64).zip(idx).enumerate() {
                dst.copy_from_slice(&cands[k as usize][row * 64..row * 64 + 64]);
            }
        })
    });
    g.bench_function("shapecheck into", |b| {
        b.iter(|| multiplex_into(black_box(&inputs), black_box(&index), &mut out))
    });
    g.finish();
}

/// M2: multiplex of 4 inline [4, 4] candidates, against a hand-written loop.
fn small_multiplex(c: &mut Criterion) {
    type C = shape![4, 4];
    let inputs: [Tensor<f32, C>; 4] =
        core::array::from_fn(|k| Tensor::from_fn(|i| (k * 16 + i[0] * 4 + i[1]) as f32));
    let index = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [1], [2]]);
    let arrays: [[[f32; 4]; 4]; 4] = core::array::from_fn(|k| inputs[k].storage().0);
    let ia: [[i32; 1]; 4] = index.storage().0;

    let mut g = c.benchmark_group("M2 multiplex 4 x [4,4], inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (cands, idx) = (black_box(&arrays), black_box(&ia));
            let mut out = [[0.0f32; 4]; 4];
            for (row, (o, &[k])) in out.iter_mut().zip(idx).enumerate() {
                *o = cands[k as usize][row];
            }
            out
        })
    });
    g.bench_function("shapecheck", |b| {
        b.iter(|| multiplex(black_box(&inputs), black_box(&index)))
    });
    g.finish();
}

criterion_group!(
    benches,
    big_elementwise,
    small_elementwise,
    big_select,
    small_select,
    big_multiplex,
    small_multiplex
);
criterion_main!(benches);
