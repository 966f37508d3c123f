//! The compute core (issue 57, "Speed"): matmul, the reductions, argmax and
//! softmax on the workloads of `shared/bench/peers_core.py` (which times
//! numpy, TensorFlow and Paddle on the same shapes, at a thread count it is
//! given), and the small static matmuls against a hand loop and nalgebra:
//!
//! | group | what | floor and peers |
//! |---|---|---|
//! | MM1 | matmul f32 `[512,512] x [512,512]` | hand i-k-j loop; ndarray `dot` and `general_mat_mul` into; `matrixmultiply::sgemm` (a probe of an optional feature) |
//! | MM2 | batched matmul `[64,128,64] x [64,64,128]` | hand i-k-j loop per batch; ndarray `dot` per batch into |
//! | MM3 | dense layer `relu(x @ w + b)`: x `[256,512]`, w `[512,512]`, b `[512]` | hand i-k-j loop, bias and relu in one pass; ndarray `dot` then `Zip` |
//! | RD0 | the memory-read floor: a hand sum of the flat `[4096,4096]` vector, 16 accumulators (it vectorises) | the floor of RS1-RS3 and AM1 |
//! | RS1 | sum over the last axis of f32 `[4096,4096]` | RD0; ndarray `sum_axis` |
//! | RS2 | sum of all of it | RD0; ndarray `sum` |
//! | RS3 | max over axis 0 | RD0; ndarray `fold_axis` |
//! | AM1 | argmax of each row | RD0; a hand loop (max, then first index) |
//! | SM1 | softmax over the rows of f32 `[4096,1000]` | memcpy of x (read and write once); a hand three-pass loop with `f32::exp` |
//! | SMM4, SMM16, SMV16 | matmul `[4,4] x [4,4]`, `[16,16] x [16,16]`, `[1,16] x [16,16]`, inline | hand triple loop over arrays (i-k-j); nalgebra `SMatrix` product of the same sizes |
//!
//! The big workloads' shapecheck rows: `static into` (static shapes, a
//! `Vec`-backed tensor, a preallocated output), `static` (the named form,
//! allocating its result: a `Vec` for a `Vec`-backed matmul or softmax
//! input, inline for the reductions' outputs of at most 32 KiB),
//! `dynamic` (`DynTensor`, allocating) and `slices` (the `_slices` entry
//! into a buffer). The static softmax's named form returns an inline
//! result, 16 MiB for SM1, more than a thread's stack: SM1 times
//! `softmax_into` instead. The matmul op has no `rayon` path (no parallel
//! code in `src/ops/matmul`), so MM1 has no thread variant.
//!
//! Timing: criterion groups (every row, seconds apart), then the same
//! targets' rows again **interleaved** (as `benches/small.rs`): each round
//! times a batch of calls of every row of a group, the order rotating, and
//! each row's figure is its median time and the median of its per-round
//! ratio to the group's first row, its floor, so that load on the shared
//! machine moves the rows together. The nanosecond groups are timed
//! interleaved only. All data is f32 from `shapecheck_benches::data`
//! (fixed seeds).
//!
//! Run: `cargo bench -p shapecheck-benches --bench core [-- FILTER]` (every
//! group, about 5 minutes; a filter such as `MM1` or `SM1|RS` picks groups
//! by name, criterion's and the interleaved ones), then
//! `python3 peers_core.py 1` and `2` in the same sitting (numbers in
//! docs/measurements.md, "Compute core").

use criterion::{black_box, BenchmarkGroup, Criterion};
use nalgebra::SMatrix;
use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array1, Array2, Array3, Zip};
use shapecheck::ops::matmul::matmul_slices;
use shapecheck::ops::reduce::{arg_slices, reduce_slices, ArgKind, ReduceKind};
use shapecheck::ops::softmax::{softmax_slices, SoftmaxKind};
use shapecheck::prelude::*;
use shapecheck::{All, NoTrans};
use shapecheck_benches::{data, Args, Group};
use std::time::Duration;

type Mat512 = Tensor<f32, shape![512, 512], Vec<f32>>;
type Big4096 = Tensor<f32, shape![4096, 4096], Vec<f32>>;
type Sm = Tensor<f32, shape![4096, 1000], Vec<f32>>;

/// A group for the big workloads: few samples, short runs (the machine is
/// shared, so a long group only collects more interference).
fn big_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    samples: usize,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(samples)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g
}

/// The matmul floor: `out = x · y`, `x` `m × k`, `y` `k × n`, row-major,
/// i-k-j (a row of y streamed into a row of the output, which vectorises).
#[inline]
fn hand_ikj(x: &[f32], y: &[f32], out: &mut [f32], k: usize, n: usize) {
    for (row, xrow) in out.chunks_exact_mut(n).zip(x.chunks_exact(k)) {
        row.fill(0.0);
        for (&a, yrow) in xrow.iter().zip(y.chunks_exact(n)) {
            for (o, &b) in row.iter_mut().zip(yrow) {
                *o += a * b;
            }
        }
    }
}

/// MM3's floor: [`hand_ikj`], then `relu(row + b)` on each row while it is
/// in the cache.
#[inline]
fn hand_dense(x: &[f32], w: &[f32], b: &[f32], out: &mut [f32], k: usize, n: usize) {
    for (row, xrow) in out.chunks_exact_mut(n).zip(x.chunks_exact(k)) {
        row.fill(0.0);
        for (&a, wrow) in xrow.iter().zip(w.chunks_exact(n)) {
            for (o, &v) in row.iter_mut().zip(wrow) {
                *o += a * v;
            }
        }
        for (o, &bb) in row.iter_mut().zip(b) {
            *o = (*o + bb).max(0.0);
        }
    }
}

/// RD0: the memory-read floor, a sum of `x` with 16 independent
/// accumulators (f32 adds are not reordered by the compiler; separate
/// lanes let it vectorise).
#[inline]
fn read_floor(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; 16];
    let mut chunks = x.chunks_exact(16);
    for c in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += v;
        }
    }
    acc.iter().sum::<f32>() + chunks.remainder().iter().sum::<f32>()
}

/// AM1's hand loop: each row's max with 16 lanes, then the first index
/// holding it (the op's contract: the first index on ties).
#[inline]
fn hand_argmax_rows(x: &[f32], n: usize, out: &mut [i64]) {
    for (o, row) in out.iter_mut().zip(x.chunks_exact(n)) {
        let mut acc = [f32::NEG_INFINITY; 16];
        let mut chunks = row.chunks_exact(16);
        for c in &mut chunks {
            for (a, &v) in acc.iter_mut().zip(c) {
                *a = a.max(v);
            }
        }
        let m = acc
            .iter()
            .chain(chunks.remainder())
            .fold(f32::NEG_INFINITY, |a, &v| a.max(v));
        *o = row.iter().position(|&v| v == m).unwrap_or(0) as i64;
    }
}

/// SM1's hand loop: per row, max, then `exp(x - max)` (std's `f32::exp`)
/// summed, then divided: the loop a person writes.
#[inline]
fn hand_softmax_rows(x: &[f32], n: usize, out: &mut [f32]) {
    for (o, row) in out.chunks_exact_mut(n).zip(x.chunks_exact(n)) {
        let m = row.iter().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
        let mut sum = 0.0;
        for (o, &v) in o.iter_mut().zip(row) {
            *o = (v - m).exp();
            sum += *o;
        }
        let inv = 1.0 / sum;
        for o in o.iter_mut() {
            *o *= inv;
        }
    }
}

/// `matrixmultiply::sgemm` (ndarray's kernel for f32) on row-major
/// slices: `out = x · y`, `x` `m × k`, `y` `k × n`.
#[inline]
fn sgemm(x: &[f32], y: &[f32], out: &mut [f32], m: usize, k: usize, n: usize) {
    assert!(x.len() == m * k && y.len() == k * n && out.len() == m * n);
    // SAFETY: the three lengths match the dims and strides just checked;
    // `out` is a unique borrow, not overlapping `x` or `y`.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            x.as_ptr(),
            k as isize,
            1,
            y.as_ptr(),
            n as isize,
            1,
            0.0,
            out.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

fn mat512(seed: u64) -> Mat512 {
    Tensor::from_vec(Default::default(), data(512 * 512, seed)).unwrap()
}

/// MM1 `[512,512] x [512,512]`.
fn mm1(c: &mut Criterion) {
    let (x, y) = (mat512(101), mat512(102));
    let mut out = mat512(0);
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    let nx = Array2::from_shape_vec((512, 512), x.to_vec()).unwrap();
    let ny = Array2::from_shape_vec((512, 512), y.to_vec()).unwrap();
    let mut nout = Array2::<f32>::zeros((512, 512));
    let mut buf = vec![0.0f32; 512 * 512];

    let mut g = big_group(c, "MM1 matmul f32 [512,512] x [512,512]", 10);
    g.bench_function("hand i-k-j loop into", |b| {
        b.iter(|| hand_ikj(black_box(x.as_slice()), y.as_slice(), &mut buf, 512, 512))
    });
    g.bench_function("static into", |b| {
        b.iter(|| black_box(&x).matmul_into(black_box(&y), NoTrans, NoTrans, &mut out))
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| black_box(&x).matmul(black_box(&y)))
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).matmul(black_box(&dy), false, false).unwrap())
    });
    g.bench_function("slices into", |b| {
        b.iter(|| {
            matmul_slices(
                &[512, 512],
                black_box(x.as_slice()),
                &[512, 512],
                y.as_slice(),
                false,
                false,
                &mut buf,
            )
            .unwrap()
        })
    });
    g.bench_function("ndarray dot", |b| b.iter(|| black_box(&nx).dot(&ny)));
    g.bench_function("ndarray general_mat_mul into", |b| {
        b.iter(|| general_mat_mul(1.0, black_box(&nx), &ny, 0.0, &mut nout))
    });
    g.bench_function("matrixmultiply sgemm into (probe)", |b| {
        b.iter(|| {
            sgemm(
                black_box(x.as_slice()),
                y.as_slice(),
                &mut buf,
                512,
                512,
                512,
            )
        })
    });
    g.finish();
}

/// MM2 `[64,128,64] x [64,64,128]`.
fn mm2(c: &mut Criterion) {
    let x = Tensor::<f32, shape![64, 128, 64], Vec<f32>>::from_vec(
        Default::default(),
        data(64 * 128 * 64, 103),
    )
    .unwrap();
    let y = Tensor::<f32, shape![64, 64, 128], Vec<f32>>::from_vec(
        Default::default(),
        data(64 * 64 * 128, 104),
    )
    .unwrap();
    let mut out = Tensor::<f32, shape![64, 128, 128], Vec<f32>>::from_vec(
        Default::default(),
        vec![0.0; 64 * 128 * 128],
    )
    .unwrap();
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    let nx = Array3::from_shape_vec((64, 128, 64), x.to_vec()).unwrap();
    let ny = Array3::from_shape_vec((64, 64, 128), y.to_vec()).unwrap();
    let mut nout = Array3::<f32>::zeros((64, 128, 128));
    let mut buf = vec![0.0f32; 64 * 128 * 128];

    let mut g = big_group(c, "MM2 batched matmul [64,128,64] x [64,64,128]", 10);
    g.bench_function("hand i-k-j loop into", |b| {
        b.iter(|| {
            for ((o, xm), ym) in buf
                .chunks_exact_mut(128 * 128)
                .zip(black_box(x.as_slice()).chunks_exact(128 * 64))
                .zip(y.as_slice().chunks_exact(64 * 128))
            {
                hand_ikj(xm, ym, o, 64, 128);
            }
        })
    });
    g.bench_function("static into", |b| {
        b.iter(|| black_box(&x).matmul_into(black_box(&y), NoTrans, NoTrans, &mut out))
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| black_box(&x).matmul(black_box(&y)))
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).matmul(black_box(&dy), false, false).unwrap())
    });
    g.bench_function("ndarray general_mat_mul per batch into", |b| {
        b.iter(|| {
            for i in 0..64 {
                general_mat_mul(
                    1.0,
                    &black_box(&nx).slice(s![i, .., ..]),
                    &ny.slice(s![i, .., ..]),
                    0.0,
                    &mut nout.slice_mut(s![i, .., ..]),
                );
            }
        })
    });
    g.finish();
}

/// MM3 `relu(x @ w + b)`.
fn mm3(c: &mut Criterion) {
    let x = Tensor::<f32, shape![256, 512], Vec<f32>>::from_vec(
        Default::default(),
        data(256 * 512, 105),
    )
    .unwrap();
    let w = mat512(106);
    let bias =
        Tensor::<f32, shape![512], Vec<f32>>::from_vec(Default::default(), data(512, 107)).unwrap();
    let zeros = || {
        Tensor::<f32, shape![256, 512], Vec<f32>>::from_vec(
            Default::default(),
            vec![0.0; 256 * 512],
        )
        .unwrap()
    };
    let (mut tmp, mut out) = (zeros(), zeros());
    let (dx, dw, db) = (x.to_dyn(), w.to_dyn(), bias.to_dyn());
    let nx = Array2::from_shape_vec((256, 512), x.to_vec()).unwrap();
    let nw = Array2::from_shape_vec((512, 512), w.to_vec()).unwrap();
    let nb = Array1::from_shape_vec(512, bias.to_vec()).unwrap();
    let mut nout = Array2::<f32>::zeros((256, 512));
    let mut buf = vec![0.0f32; 256 * 512];

    let mut g = big_group(c, "MM3 dense relu(x @ w + b) x [256,512] w [512,512]", 10);
    g.bench_function("hand loop, one pass", |b| {
        b.iter(|| {
            hand_dense(
                black_box(x.as_slice()),
                w.as_slice(),
                bias.as_slice(),
                &mut buf,
                512,
                512,
            )
        })
    });
    g.bench_function(
        "static into (matmul_into, elementwise_add_into Relu)",
        |b| {
            b.iter(|| {
                black_box(&x).matmul_into(black_box(&w), NoTrans, NoTrans, &mut tmp);
                tmp.elementwise_add_into(&bias, Axis::<-1>, Relu, &mut out);
            })
        },
    );
    g.bench_function("static allocating (one line)", |b| {
        b.iter(|| {
            black_box(&x)
                .matmul(black_box(&w))
                .elementwise_add(&bias, Axis::<-1>, Relu)
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| {
            black_box(&dx)
                .matmul(black_box(&dw), false, false)
                .unwrap()
                .elementwise_add(&db, -1, Relu)
                .unwrap()
        })
    });
    g.bench_function("ndarray general_mat_mul into, Zip", |b| {
        b.iter(|| {
            general_mat_mul(1.0, black_box(&nx), &nw, 0.0, &mut nout);
            Zip::from(nout.rows_mut()).for_each(|mut r| {
                Zip::from(&mut r)
                    .and(&nb)
                    .for_each(|o, &bb| *o = (*o + bb).max(0.0))
            });
        })
    });
    g.finish();
}

/// RD0, RS1-RS3 and AM1 on f32 `[4096,4096]`.
fn reductions(c: &mut Criterion, x: &Big4096) {
    let dx = x.to_dyn();
    let nx = Array2::from_shape_vec((4096, 4096), x.to_vec()).unwrap();
    let mut out =
        Tensor::<f32, shape![4096], Vec<f32>>::from_vec(Default::default(), vec![0.0; 4096])
            .unwrap();
    let mut iout =
        Tensor::<i64, shape![4096], Vec<i64>>::from_vec(Default::default(), vec![0; 4096]).unwrap();
    let mut buf = vec![0.0f32; 4096];
    let mut ibuf = vec![0i64; 4096];
    let xs = x.as_slice();

    let mut g = big_group(c, "RD0 memory read, sum of the flat [4096,4096]", 20);
    g.bench_function("hand sum, 16 accumulators", |b| {
        b.iter(|| read_floor(black_box(xs)))
    });
    g.finish();

    let mut g = big_group(c, "RS1 sum last axis f32 [4096,4096]", 20);
    g.bench_function("RD0 floor", |b| b.iter(|| read_floor(black_box(xs))));
    g.bench_function("static", |b| b.iter(|| black_box(x).sum(Axis::<1>)));
    g.bench_function("static into", |b| {
        b.iter(|| {
            black_box(x)
                .reduce_into(ReduceKind::Sum, Axis::<1>, false, &mut out)
                .unwrap()
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).sum(&[1], false).unwrap())
    });
    g.bench_function("slices into", |b| {
        b.iter(|| {
            reduce_slices(
                ReduceKind::Sum,
                &[4096, 4096],
                black_box(xs),
                Some(&[1]),
                false,
                &mut buf,
            )
            .unwrap()
        })
    });
    g.bench_function("ndarray sum_axis", |b| {
        b.iter(|| black_box(&nx).sum_axis(ndarray::Axis(1)))
    });
    g.finish();

    let mut g = big_group(c, "RS2 sum all f32 [4096,4096]", 20);
    g.bench_function("RD0 floor", |b| b.iter(|| read_floor(black_box(xs))));
    g.bench_function("static", |b| b.iter(|| black_box(x).sum(All)));
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).sum(&[], false).unwrap())
    });
    g.bench_function("ndarray sum", |b| b.iter(|| black_box(&nx).sum()));
    g.finish();

    let mut g = big_group(c, "RS3 max axis 0 f32 [4096,4096]", 20);
    g.bench_function("RD0 floor", |b| b.iter(|| read_floor(black_box(xs))));
    g.bench_function("static", |b| b.iter(|| black_box(x).max(Axis::<0>)));
    g.bench_function("static into", |b| {
        b.iter(|| {
            black_box(x)
                .reduce_into(ReduceKind::Max, Axis::<0>, false, &mut out)
                .unwrap()
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).max(&[0], false).unwrap())
    });
    g.bench_function("ndarray fold_axis", |b| {
        b.iter(|| black_box(&nx).fold_axis(ndarray::Axis(0), f32::NEG_INFINITY, |&a, &v| a.max(v)))
    });
    g.finish();

    let mut g = big_group(c, "AM1 argmax per row f32 [4096,4096]", 20);
    g.bench_function("RD0 floor", |b| b.iter(|| read_floor(black_box(xs))));
    g.bench_function("hand loop into", |b| {
        b.iter(|| hand_argmax_rows(black_box(xs), 4096, &mut ibuf))
    });
    g.bench_function("static", |b| b.iter(|| black_box(x).argmax(Axis::<1>)));
    g.bench_function("static into", |b| {
        b.iter(|| {
            black_box(x)
                .arg_reduce_into(ArgKind::ArgMax, Axis::<1>, false, &mut iout)
                .unwrap()
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).argmax(Some(1), false).unwrap())
    });
    g.bench_function("slices into", |b| {
        b.iter(|| {
            arg_slices(
                ArgKind::ArgMax,
                &[4096, 4096],
                black_box(xs),
                Some(1),
                false,
                &mut ibuf,
            )
            .unwrap()
        })
    });
    g.finish();
}

fn sm_zeros() -> Sm {
    Tensor::from_vec(Default::default(), vec![0.0; 4096 * 1000]).unwrap()
}

/// SM1 softmax over the rows of f32 `[4096,1000]`.
fn sm1(c: &mut Criterion, x: &Sm) {
    let mut out = sm_zeros();
    let dx = x.to_dyn();
    let mut buf = vec![0.0f32; 4096 * 1000];

    let mut g = big_group(c, "SM1 softmax rows f32 [4096,1000]", 20);
    g.bench_function("memcpy of x into", |b| {
        b.iter(|| buf.copy_from_slice(black_box(x.as_slice())))
    });
    g.bench_function("hand loop with f32::exp into", |b| {
        b.iter(|| hand_softmax_rows(black_box(x.as_slice()), 1000, &mut buf))
    });
    g.bench_function("static into", |b| {
        b.iter(|| {
            black_box(x)
                .softmax_into(SoftmaxKind::Softmax, Axis::<-1>, &mut out)
                .unwrap()
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).softmax(-1).unwrap())
    });
    g.bench_function("slices into", |b| {
        b.iter(|| {
            softmax_slices(
                SoftmaxKind::Softmax,
                &[4096, 1000],
                black_box(x.as_slice()),
                -1,
                &mut buf,
            )
            .unwrap()
        })
    });
    g.finish();
}

/// Calls per row per round of the small matmuls.
const SMALL_BATCH: usize = 20_000;

/// `x · y` of nested arrays, i-k-j (a person's triple loop; with constant
/// sizes the compiler unrolls and vectorises it).
#[inline]
fn hand_small<const M: usize, const K: usize, const N: usize>(
    x: &[[f32; K]; M],
    y: &[[f32; N]; K],
) -> [[f32; N]; M] {
    let mut out = [[0.0f32; N]; M];
    for i in 0..M {
        for k in 0..K {
            let a = x[i][k];
            for j in 0..N {
                out[i][j] += a * y[k][j];
            }
        }
    }
    out
}

/// [`hand_small`] into a caller's array (the floor of `matmul_into`).
#[inline]
fn hand_small_into<const M: usize, const K: usize, const N: usize>(
    x: &[[f32; K]; M],
    y: &[[f32; N]; K],
    out: &mut [[f32; N]; M],
) {
    for i in 0..M {
        out[i] = [0.0; N];
        for k in 0..K {
            let a = x[i][k];
            for j in 0..N {
                out[i][j] += a * y[k][j];
            }
        }
    }
}

/// One small matmul group: the hand loop (the ratios' base), the static
/// named form, `matmul_into` an inline tensor, and nalgebra's product of
/// `SMatrix`es of the same sizes (column-major: the same arithmetic on the
/// other layout). A macro: the static op needs the sizes as literals.
macro_rules! small_matmul {
    ($name:expr, $seed:expr, $args:expr, $m:literal, $k:literal, $n:literal) => {{
        let xv = data($m * $k, $seed);
        let yv = data($k * $n, $seed + 1);
        let xa: [[f32; $k]; $m] =
            core::array::from_fn(|i| core::array::from_fn(|k| xv[i * $k + k]));
        let ya: [[f32; $n]; $k] =
            core::array::from_fn(|k| core::array::from_fn(|j| yv[k * $n + j]));
        let x = Tensor::<f32, shape![$m, $k]>::from_array(xa);
        let y = Tensor::<f32, shape![$k, $n]>::from_array(ya);
        let nx = SMatrix::<f32, $m, $k>::from_row_slice(&xv);
        let ny = SMatrix::<f32, $k, $n>::from_row_slice(&yv);
        // the three agree
        let want = hand_small(&xa, &ya);
        let got: Tensor<f32, shape![$m, $n]> = x.matmul(&y);
        let nz = nx * ny;
        for i in 0..$m {
            for j in 0..$n {
                let w = want[i][j];
                assert!((got.as_slice()[i * $n + j] - w).abs() <= 1e-4 * (1.0 + w.abs()));
                assert!((nz[(i, j)] - w).abs() <= 1e-4 * (1.0 + w.abs()));
            }
        }
        let mut out = Tensor::<f32, shape![$m, $n]>::full(0.0);
        let mut g = Group::new($name, SMALL_BATCH);
        g.row("hand triple loop (i-k-j, arrays)", || {
            hand_small(black_box(&xa), black_box(&ya))
        });
        let mut hout = [[0.0f32; $n]; $m];
        g.row("hand triple loop into a caller's array", move || {
            hand_small_into(black_box(&xa), black_box(&ya), &mut hout);
            black_box(hout[0][0])
        });
        g.row("static matmul", || black_box(&x).matmul(black_box(&y)));
        g.row("static matmul_into", move || {
            black_box(&x).matmul_into(black_box(&y), NoTrans, NoTrans, &mut out);
            black_box(out.as_slice()[0])
        });
        g.row("nalgebra SMatrix product", || {
            black_box(&nx) * black_box(&ny)
        });
        g.run($args);
    }};
}

/// The big targets' rows again, interleaved with their floors and peers.
fn big_interleaved(args: &Args, x: &Big4096, sm: &Sm) {
    let xs = x.as_slice();
    let mut g = Group::new("RS1-RS3, AM1 against RD0 (interleaved)", 4);
    g.row("RD0 floor: hand sum, 16 accumulators", || {
        read_floor(black_box(xs))
    });
    g.row("RS1 static sum(Axis::<1>)", || black_box(x).sum(Axis::<1>));
    g.row("RS2 static sum(All)", || black_box(x).sum(All));
    g.row("RS3 static max(Axis::<0>)", || black_box(x).max(Axis::<0>));
    g.row("AM1 static argmax(Axis::<1>)", || {
        black_box(x).argmax(Axis::<1>)
    });
    g.row("AM1 hand loop", || {
        let mut o = [0i64; 4096];
        hand_argmax_rows(black_box(xs), 4096, &mut o);
        o
    });
    g.run(args);

    let mut out = sm_zeros();
    let (mut buf, mut buf2) = (vec![0.0f32; 4096 * 1000], vec![0.0f32; 4096 * 1000]);
    let mut g = Group::new("SM1 softmax rows (interleaved)", 2);
    g.row("static softmax_into", move || {
        black_box(sm)
            .softmax_into(SoftmaxKind::Softmax, Axis::<-1>, &mut out)
            .unwrap();
        black_box(out.as_slice()[0])
    });
    g.row("hand loop with f32::exp", move || {
        hand_softmax_rows(black_box(sm.as_slice()), 1000, &mut buf);
        black_box(buf[0])
    });
    g.row("memcpy of x", move || {
        buf2.copy_from_slice(black_box(sm.as_slice()));
        black_box(buf2[0])
    });
    g.run(args);

    let (a, b) = (mat512(101), mat512(102));
    let mut out = mat512(0);
    let (mut buf, mut buf2) = (vec![0.0f32; 512 * 512], vec![0.0f32; 512 * 512]);
    let na = Array2::from_shape_vec((512, 512), a.to_vec()).unwrap();
    let nb = Array2::from_shape_vec((512, 512), b.to_vec()).unwrap();
    let mut g = Group::new("MM1 matmul [512,512] (interleaved)", 1);
    g.row("static matmul_into", || {
        black_box(&a).matmul_into(black_box(&b), NoTrans, NoTrans, &mut out);
        black_box(out.as_slice()[0])
    });
    g.row("hand i-k-j loop", || {
        hand_ikj(black_box(a.as_slice()), b.as_slice(), &mut buf, 512, 512);
        black_box(buf[0])
    });
    g.row("ndarray dot", || black_box(&na).dot(&nb));
    g.row("matrixmultiply sgemm (probe)", || {
        sgemm(
            black_box(a.as_slice()),
            b.as_slice(),
            &mut buf2,
            512,
            512,
            512,
        );
        black_box(buf2[0])
    });
    g.run(args);
}

fn main() {
    // interleaved rounds: a number on the command line; filters: words
    let args = Args::parse(11);
    let mut c = Criterion::default();
    if !args.filters.is_empty() {
        c = c.with_filter(args.filters.join("|"));
    }
    let x = Big4096::from_vec(Default::default(), data(4096 * 4096, 108)).unwrap();
    let sm = Sm::from_vec(Default::default(), data(4096 * 1000, 109)).unwrap();

    small_matmul!("SMM4 matmul [4,4] x [4,4], inline", 110, &args, 4, 4, 4);
    small_matmul!(
        "SMM16 matmul [16,16] x [16,16], inline",
        112,
        &args,
        16,
        16,
        16
    );
    small_matmul!(
        "SMV16 matmul [1,16] x [16,16], inline",
        114,
        &args,
        1,
        16,
        16
    );

    mm1(&mut c);
    mm2(&mut c);
    mm3(&mut c);
    reductions(&mut c, &x);
    sm1(&mut c, &sm);
    c.final_summary();

    big_interleaved(&args, &x, &sm);
}
