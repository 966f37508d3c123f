//! The fixed workloads of issue 15 ("Speed"), the same shapes as
//! `shared/bench/peers.py` (which times numpy and the frameworks on them):
//!
//! | group | what |
//! |---|---|
//! | W1 | elementwise_mul `[256,128,256] x [128,256]`, axis -1 |
//! | W2 | elementwise_mul `[256,128,256] x [128]`, axis 1 |
//! | W3 | select numpy: cond bool `[1024,1024]`, then `[1024,1024]`, else `[1024]` |
//! | W4 | multiplex: 4 candidates `[65536,64]`, index `[65536,1]` random in 0..4 |
//! | W5 | dynamic_stitch: a shuffled permutation of 0..2^20 in 4 index lists, data `[2^18,16]` each |
//! | W6 | memcpy of W1's x (the floor of W1 and W2) |
//! | W7 | dynamic_partition of W5's output (`[2^20,16]`) into 4 (the inverse of W5) |
//! | W8 | lod_reset of a 2^20-row LoD tensor with 2^14 sequences (no copy) |
//! | S1 | elementwise_mul `[2,3,4,5] x [3,4]` at axis 1, inline |
//! | S2 | select on `[3,2]`, the OpenVINO seed's example, inline |
//! | X4, X5, M2 | select and multiplex on tiny inline shapes |
//!
//! Each of W1-W5 has three shapecheck rows: `static into` (static shapes, a
//! preallocated output), `static allocating` and `dynamic` (`DynTensor`, which
//! allocates its result), next to its floor (memcpy of the same bytes, or the
//! loop a person would write) and, where it has one, ndarray.
//! All data is f32 from a fixed-seed generator, so runs are comparable.
//!
//! Run: `cargo bench -p shapecheck-benches` (all groups, about 8 minutes), or
//! one group: `cargo bench -p shapecheck-benches -- W3` (numbers in docs/measurements.md).

// The multiplex groups return the op's `Result` from the timed closure, so
// that the benchmark measures what a caller gets; its error type is large on
// purpose (no heap, see `ops::multiplex`).
#![allow(clippy::result_large_err)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion};
use ndarray::{Array, Array2, Array3, Array4, Zip};
use shapecheck::ops::elementwise::elementwise_slices;
use shapecheck::prelude::*;
use shapecheck::{
    dynamic_partition, dynamic_partition_into, dynamic_stitch, multiplex, multiplex_into, select,
    select_into, ActivationKind, AutoBroadcast, BinaryOpKind, DynLodTensor, LodTensor, Offsets,
    Partitions,
};
use shapecheck_benches::small::{
    hand_m2, hand_m2_checked, hand_s1, hand_s2, hand_x4, hand_x5, m2_inputs, s1_inputs, s2_inputs,
    x4_x5_inputs,
};
use shapecheck_benches::{
    bools, data, hand_gather, hand_scatter, w1_inputs, w4_inputs, w5_inputs, w7_inputs, Big, BIG,
    PART, ROWS, SLICE,
};
use std::time::Duration;

/// A group for the big, memory-bound workloads: few samples, short runs (the
/// machine is shared, so a long group only collects more interference).
fn big_group<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g
}

/// A group for the nanosecond workloads.
fn small_group<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    g
}

/// W1, W2 and W6: the big elementwise products and their memcpy floor.
fn big_elementwise(c: &mut Criterion) {
    let (x, y) = w1_inputs();
    let y1 =
        Tensor::<f32, shape![128], Vec<f32>>::from_vec(Default::default(), data(128, 3)).unwrap();
    let mut out =
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap();
    let dx = x.to_dyn();
    let dy = y.to_dyn();
    // Paddle's axis rule at the dynamic path: y [128] at axis 1
    let dy1 = y1.to_dyn();

    let nx = Array3::from_shape_vec((256, 128, 256), x.to_vec()).unwrap();
    let ny = Array2::from_shape_vec((128, 256), y.to_vec()).unwrap();
    let ny1 = Array::from_shape_vec((128, 1), y1.to_vec()).unwrap();
    let mut nout = Array3::<f32>::zeros((256, 128, 256));

    let mut g = big_group(c, "W6 memcpy [256,128,256] f32");
    g.bench_function("memcpy into", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(x.as_slice())))
    });
    g.bench_function("to_vec (fresh allocation)", |b| {
        b.iter(|| black_box(x.as_slice()).to_vec())
    });
    g.finish();

    let mut g = big_group(c, "W1 elementwise_mul [256,128,256] x [128,256] axis -1");
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
    g.bench_function("static into", |b| {
        b.iter(|| black_box(&x).elementwise_mul_into(black_box(&y), Axis::<-1>, Identity, &mut out))
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity))
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| {
            black_box(&dx).elementwise(
                BinaryOpKind::Mul,
                black_box(&dy),
                -1,
                ActivationKind::Identity,
            )
        })
    });
    g.bench_function("dynamic into (elementwise_slices)", |b| {
        b.iter(|| {
            elementwise_slices(
                BinaryOpKind::Mul,
                ActivationKind::Identity,
                &[256, 128, 256],
                black_box(x.as_slice()),
                &[128, 256],
                black_box(y.as_slice()),
                -1,
                out.as_mut_slice(),
            )
        })
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

    let mut g = big_group(c, "W2 elementwise_mul [256,128,256] x [128] axis 1");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let (xs, ys) = (black_box(x.as_slice()), black_box(y1.as_slice()));
            // row r of 256 elements is (i, j) = (r / 128, r % 128): y[j]
            for ((o, a), &b) in out
                .as_mut_slice()
                .chunks_exact_mut(256)
                .zip(xs.chunks_exact(256))
                .zip(ys.iter().cycle())
            {
                for (o, &a) in o.iter_mut().zip(a) {
                    *o = a * b;
                }
            }
        })
    });
    g.bench_function("static into", |b| {
        b.iter(|| black_box(&x).elementwise_mul_into(black_box(&y1), Axis::<1>, Identity, &mut out))
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| black_box(&x).elementwise_mul(black_box(&y1), Axis::<1>, Identity))
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| {
            black_box(&dx).elementwise(
                BinaryOpKind::Mul,
                black_box(&dy1),
                1,
                ActivationKind::Identity,
            )
        })
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
    let (x, y) = s1_inputs();
    let xa: [[[[f32; 5]; 4]; 3]; 2] = x.storage().0;
    let ya: [[f32; 4]; 3] = y.storage().0;
    let nx = Array4::from_shape_vec((2, 3, 4, 5), x.to_vec()).unwrap();
    let ny = Array::from_shape_vec((3, 4, 1), y.to_vec()).unwrap();

    let mut g = small_group(c, "S1 elementwise_mul [2,3,4,5] x [3,4] axis 1, inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| hand_s1(black_box(&xa), black_box(&ya)))
    });
    g.bench_function("static", |b| {
        b.iter(|| black_box(&x).elementwise_mul(black_box(&y), Axis::<1>, Identity))
    });
    g.bench_function("ndarray &x * &y", |b| {
        b.iter(|| black_box(&nx) * black_box(&ny))
    });
    g.finish();
}

type Sq = shape![1024, 1024];
const SQ: usize = 1024 * 1024;

/// W3: select numpy, cond [1024, 1024] random, then [1024, 1024], else
/// [1024] (broadcast along the rows). A random cond makes a loop that
/// branches on it mispredict half the time: the hand-written loops come in
/// the plain `if c { t } else { e }` form and the branch-free one.
fn big_select(c: &mut Criterion) {
    let cond = Tensor::<bool, Sq, Vec<bool>>::from_vec(Default::default(), bools(SQ, 7)).unwrap();
    let t = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), data(SQ, 8)).unwrap();
    let e =
        Tensor::<f32, shape![1024], Vec<f32>>::from_vec(Default::default(), data(1024, 9)).unwrap();
    let mut out = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), vec![0.0; SQ]).unwrap();
    let (dc, dt, de) = (cond.to_dyn(), t.to_dyn(), e.to_dyn());

    let nc = Array2::from_shape_vec((1024, 1024), cond.to_vec()).unwrap();
    let nt = Array2::from_shape_vec((1024, 1024), t.to_vec()).unwrap();
    let ne = Array::from_shape_vec(1024, e.to_vec()).unwrap();
    let mut nout = Array2::<f32>::zeros((1024, 1024));

    let mut g = big_group(c, "W3 select numpy [1024,1024], else [1024]");
    g.sample_size(30);
    g.bench_function("memcpy floor (then)", |b| {
        b.iter(|| out.as_mut_slice().copy_from_slice(black_box(t.as_slice())))
    });
    g.bench_function("hand-written loop, branch-free", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e.as_slice()),
            );
            for ((o, c), t) in out
                .as_mut_slice()
                .chunks_exact_mut(1024)
                .zip(c.chunks_exact(1024))
                .zip(t.chunks_exact(1024))
            {
                for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
                    *o = std::hint::select_unpredictable(c, t, e);
                }
            }
        })
    });
    g.bench_function("hand-written loop, if/else", |b| {
        b.iter(|| {
            let (c, t, e) = (
                black_box(cond.as_slice()),
                black_box(t.as_slice()),
                black_box(e.as_slice()),
            );
            for ((o, c), t) in out
                .as_mut_slice()
                .chunks_exact_mut(1024)
                .zip(c.chunks_exact(1024))
                .zip(t.chunks_exact(1024))
            {
                for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
                    *o = if c { t } else { e };
                }
            }
        })
    });
    g.bench_function("static into", |b| {
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
    g.bench_function("static allocating", |b| {
        b.iter(|| select(black_box(&cond), black_box(&t), black_box(&e), Numpy))
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| {
            DynTensor::select(
                black_box(&dc),
                black_box(&dt),
                black_box(&de),
                AutoBroadcast::Numpy,
            )
        })
    });
    g.bench_function("ndarray Zip into", |b| {
        b.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&nc))
                .and(black_box(&nt))
                .and_broadcast(black_box(&ne))
                .for_each(|o, &c, &t, &e| *o = if c { t } else { e })
        })
    });
    g.bench_function("ndarray Zip map_collect", |b| {
        b.iter(|| {
            Zip::from(black_box(&nc))
                .and(black_box(&nt))
                .and_broadcast(black_box(&ne))
                .map_collect(|&c, &t, &e| if c { t } else { e })
        })
    });
    g.finish();
}

/// S2: OpenVINO's Select-1 example (the seed): cond, then and else [3, 2].
fn seed_select(c: &mut Criterion) {
    let (cond, t, e) = s2_inputs();
    assert_eq!(
        select(&cond, &t, &e, Numpy).as_slice(),
        &[11.0, 10.0, 1.0, 8.0, 3.0, 4.0]
    );
    let (ca, ta, ea) = (cond.storage().0, t.storage().0, e.storage().0);
    let nc = Array2::from_shape_vec((3, 2), cond.to_vec()).unwrap();
    let nt = Array2::from_shape_vec((3, 2), t.to_vec()).unwrap();
    let ne = Array2::from_shape_vec((3, 2), e.to_vec()).unwrap();

    let mut g = small_group(c, "S2 select [3,2] (OpenVINO seed), inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| hand_s2(black_box(&ca), black_box(&ta), black_box(&ea)))
    });
    g.bench_function("static", |b| {
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
}

/// X4, X5: select on tiny inline shapes: [2, 3, 4] all three, and [2, 3, 4]
/// with cond [3, 1] and a scalar else.
fn small_select(c: &mut Criterion) {
    let (cond, t, e, cond_col, e_scalar) = x4_x5_inputs();
    let ca: [[[bool; 4]; 3]; 2] = cond.storage().0;
    let ta: [[[f32; 4]; 3]; 2] = t.storage().0;
    let ea: [[[f32; 4]; 3]; 2] = e.storage().0;
    let cca: [[bool; 1]; 3] = cond_col.storage().0;

    let mut g = small_group(c, "X4 select [2,3,4] numpy, same shapes, inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| hand_x4(black_box(&ca), black_box(&ta), black_box(&ea)))
    });
    g.bench_function("static", |b| {
        b.iter(|| select(black_box(&cond), black_box(&t), black_box(&e), Numpy))
    });
    g.finish();

    let mut g = small_group(c, "X5 select [2,3,4] numpy, cond [3,1], else [], inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| hand_x5(black_box(&cca), black_box(&ta), black_box(-1.5f32)))
    });
    g.bench_function("static", |b| {
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

/// W4: multiplex of 4 candidates [65536, 64] f32 with a random index in 0..4.
fn big_multiplex(c: &mut Criterion) {
    let (inputs, index) = w4_inputs();
    let n = 65536 * 64;
    let mut out =
        Tensor::<f32, shape![65536, 64], Vec<f32>>::from_vec(Default::default(), vec![0.0; n])
            .unwrap();
    let slices: [&[f32]; 4] = core::array::from_fn(|k| inputs[k].as_slice());
    let dyn_inputs: Vec<DynTensor<f32>> = inputs.iter().map(|t| t.to_dyn()).collect();
    let dyn_index = index.to_dyn();

    let mut g = big_group(c, "W4 multiplex 4 x [65536,64], index [65536,1]");
    g.sample_size(30);
    g.bench_function("memcpy floor (output)", |b| {
        b.iter(|| {
            out.as_mut_slice()
                .copy_from_slice(black_box(inputs[0].as_slice()))
        })
    });
    g.bench_function("hand-written gather loop", |b| {
        b.iter(|| {
            hand_gather(
                black_box(&slices),
                black_box(index.as_slice()),
                out.as_mut_slice(),
            )
        })
    });
    g.bench_function("static into", |b| {
        b.iter(|| multiplex_into(black_box(&inputs), black_box(&index), &mut out))
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| multiplex(black_box(&inputs), black_box(&index)).run())
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| DynTensor::multiplex(black_box(&dyn_inputs), black_box(&dyn_index)))
    });
    g.finish();
}

/// M2: multiplex of 4 inline [4, 4] candidates, against a hand-written loop.
fn small_multiplex(c: &mut Criterion) {
    let (inputs, index) = m2_inputs();
    let arrays: [[[f32; 4]; 4]; 4] = core::array::from_fn(|k| inputs[k].storage().0);
    let ia: [[i32; 1]; 4] = index.storage().0;

    let mut g = small_group(c, "M2 multiplex 4 x [4,4], inline");
    g.bench_function("hand-written loop", |b| {
        b.iter(|| hand_m2(black_box(&arrays), black_box(&ia)))
    });
    // the same loop with the op's contract: an index value out of range is
    // an error and nothing is returned (the loop above panics instead)
    g.bench_function("hand-written loop, index checked", |b| {
        b.iter(|| hand_m2_checked(black_box(&arrays), black_box(&ia)))
    });
    g.bench_function("static", |b| {
        b.iter(|| multiplex(black_box(&inputs), black_box(&index)).run())
    });
    g.finish();
}

/// W5 (dynamic_stitch), W7 (dynamic_partition, its inverse) and W8 (lod_reset).
fn stitch_partition_lod(c: &mut Criterion) {
    let (indices, datas) = w5_inputs();
    let stitch = dynamic_stitch(&indices[0], &datas[0])
        .pair(&indices[1], &datas[1])
        .pair(&indices[2], &datas[2])
        .pair(&indices[3], &datas[3]);
    let dyn_i: Vec<DynTensor<i32>> = indices.iter().map(|t| t.to_dyn()).collect();
    let dyn_d: Vec<DynTensor<f32>> = datas.iter().map(|t| t.to_dyn()).collect();
    let dyn_pairs: Vec<(&DynTensor<i32>, &DynTensor<f32>)> = dyn_i.iter().zip(&dyn_d).collect();
    let mut buf = vec![0.0f32; ROWS * SLICE];
    let mut floor = vec![0.0f32; ROWS * SLICE];

    let mut g = big_group(c, "W5 dynamic_stitch 4 x 2^18 rows of 16 f32");
    g.bench_function("memcpy floor (output)", |b| {
        b.iter(|| floor.copy_from_slice(black_box(&buf)))
    });
    g.bench_function("hand-written scatter loop", |b| {
        b.iter(|| hand_scatter(black_box(&indices), black_box(&datas), &mut buf))
    });
    g.bench_function("static into", |b| {
        b.iter(|| black_box(&stitch).run_into(&mut buf).map(|t| t.dims()))
    });
    g.bench_function("static allocating", |b| b.iter(|| black_box(&stitch).run()));
    g.bench_function("dynamic", |b| {
        b.iter(|| DynTensor::dynamic_stitch(black_box(&dyn_pairs)))
    });
    // the same, into a DynTensor kept between calls (its buffer reused)
    let mut dyn_out = DynTensor::dynamic_stitch(&dyn_pairs).unwrap();
    g.bench_function("dynamic into a kept DynTensor", |b| {
        b.iter(|| DynTensor::dynamic_stitch_into(black_box(&dyn_pairs), &mut dyn_out))
    });
    g.finish();

    // W7: the merged output, partitioned back by the pair each row came from
    let merged = stitch.run().unwrap();
    let (x, parts) = w7_inputs(merged.as_slice(), &indices);
    let (dx, dp) = (x.to_dyn(), parts.to_dyn());

    let mut g = big_group(c, "W7 dynamic_partition 2^20 rows of 16 f32 into 4");
    g.bench_function("memcpy floor (data)", |b| {
        b.iter(|| buf.copy_from_slice(black_box(x.as_slice())))
    });
    g.bench_function("hand-written loop", |b| {
        b.iter(|| {
            let mut cursors = [0, PART * SLICE, 2 * PART * SLICE, 3 * PART * SLICE];
            let (xs, ps) = (black_box(x.as_slice()), black_box(parts.as_slice()));
            for (&p, row) in ps.iter().zip(xs.chunks_exact(SLICE)) {
                let at = cursors[p as usize];
                buf[at..at + SLICE].copy_from_slice(row);
                cursors[p as usize] = at + SLICE;
            }
        })
    });
    g.bench_function("static into", |b| {
        b.iter(|| {
            dynamic_partition_into(black_box(&x), black_box(&parts), Partitions::<4>, &mut buf)
                .map(|p| p.map(|t| t.dims()))
        })
    });
    g.bench_function("static allocating", |b| {
        b.iter(|| dynamic_partition(black_box(&x), black_box(&parts), Partitions::<4>).run())
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| black_box(&dx).dynamic_partition(black_box(&dp), 4))
    });
    g.finish();
    drop((dx, dp, buf, floor));

    // W8: x (2^20 rows) with 2^14 sequences of 64 rows, reset to 2^14
    // sequences of other lengths (alternately 32 and 96 rows)
    let seqs = 1usize << 14;
    let old: Vec<usize> = (0..=seqs).map(|s| s * 64).collect();
    let new: Vec<usize> = (0..=seqs)
        .map(|s| s / 2 * 128 + if s % 2 == 1 { 32 } else { 0 })
        .collect();
    assert_eq!(new.last(), Some(&ROWS));
    let old_levels = [Offsets::new(&old)];
    let lx = LodTensor::new(x, &old_levels[..]).unwrap();
    // the same sequences over 2^16 rows: a lod_reset that copied rows would
    // take 16 times less here
    let small_old: Vec<usize> = (0..=seqs).map(|s| s * 4).collect();
    let small_new: Vec<usize> = (0..=seqs)
        .map(|s| s / 2 * 8 + if s % 2 == 1 { 2 } else { 0 })
        .collect();
    let small_levels = [Offsets::new(&small_old)];
    let small = LodTensor::new(
        Tensor::<f32, shape![65536, 16], Vec<f32>>::from_vec(
            Default::default(),
            data(65536 * 16, 50),
        )
        .unwrap(),
        &small_levels[..],
    )
    .unwrap();
    let dyn_lx = DynLodTensor::new(lx.dense().to_dyn(), &old_levels[..]).unwrap();
    let mut copy = vec![0.0f32; ROWS * SLICE];

    let mut g = big_group(c, "W8 lod_reset 2^20 rows, 2^14 sequences");
    g.sample_size(50);
    g.bench_function("memcpy of the data (what a copy would cost)", |b| {
        b.iter(|| copy.copy_from_slice(black_box(lx.as_slice())))
    });
    g.bench_function("static (view)", |b| {
        b.iter(|| {
            black_box(&lx)
                .view()
                .lod_reset(Offsets::new(black_box(&new)), false)
                .map(|t| t.levels())
        })
    });
    g.bench_function("static (view), 2^16 rows", |b| {
        b.iter(|| {
            black_box(&small)
                .view()
                .lod_reset(Offsets::new(black_box(&small_new)), false)
                .map(|t| t.levels())
        })
    });
    g.bench_function("static (view), append", |b| {
        b.iter(|| {
            black_box(&lx)
                .view()
                .lod_reset(Offsets::new(black_box(&new)), true)
                .map(|t| t.levels())
        })
    });
    g.bench_function("dynamic (lod_reset_levels)", |b| {
        b.iter(|| {
            black_box(&dyn_lx).lod_reset_levels(None, Some(Offsets::new(black_box(&new))), false)
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    big_elementwise,
    small_elementwise,
    big_select,
    seed_select,
    small_select,
    big_multiplex,
    small_multiplex,
    stitch_partition_lod
);
criterion_main!(benches);
