//! Issue 23: the dynamic path (`DynTensor`) against the static allocating
//! form on W1, W5 and W7; issue 34: W4's, W5's and W7's `into` forms, and
//! W5 into a kept `DynTensor`, against their hand-written loops
//! (`benches/ops.rs`'s). Timed **interleaved**: each round times one call
//! of each (the order alternating), so that the other builds on the shared
//! machine slow both alike, and the figure is the median of the rounds'
//! ratios. Criterion's groups (`benches/ops.rs`) time the rows one after
//! the other, seconds apart, and their ratio follows the load.
//!
//! Run: `cargo bench -p shapecheck-benches --bench dynamic [-- ROUNDS]`
//! (40 rounds by default, under a minute; numbers in docs/measurements.md).
//! A filter as for the criterion benches (`-- W5`, `-- 'W1|W5'`: names
//! holding one of the `|`-separated words) runs those workloads only, so
//! `cargo bench -p shapecheck-benches -- W3` skips this file.

// The timed closures return the ops' `Result`s, whose error types are
// large on purpose (no heap, see `ops::stitch`).
#![allow(clippy::result_large_err)]

use shapecheck::prelude::*;
use shapecheck::{
    dynamic_partition, dynamic_stitch, multiplex_into, ActivationKind, BinaryOpKind, Partitions,
};
use shapecheck_benches::{
    hand_gather, hand_scatter, median, w1_inputs, w4_inputs, w5_inputs, w7_inputs, Args,
    W4Candidate, PART, ROWS, SLICE,
};
use std::hint::black_box;
use std::time::Instant;

/// One call's time in ms (its result dropped outside the timing).
fn time<R>(f: &mut impl FnMut() -> R) -> f64 {
    let start = Instant::now();
    let r = f();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    drop(black_box(r));
    ms
}

/// `rounds` interleaved calls of `stat` (static allocating) and `dynamic`.
fn compare<A, B>(name: &str, args: &Args, stat: impl FnMut() -> A, dynamic: impl FnMut() -> B) {
    compare_named(name, ["static allocating", "dynamic"], args, stat, dynamic);
}

/// `rounds` interleaved calls of `stat` and `dynamic`, named `labels`.
fn compare_named<A, B>(
    name: &str,
    labels: [&str; 2],
    args: &Args,
    mut stat: impl FnMut() -> A,
    mut dynamic: impl FnMut() -> B,
) {
    if !args.wants(name) {
        return;
    }
    let rounds = args.rounds;
    for _ in 0..3 {
        time(&mut stat);
        time(&mut dynamic);
    }
    let (mut s, mut d, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = time(&mut stat);
            (a, time(&mut dynamic))
        } else {
            let b = time(&mut dynamic);
            (time(&mut stat), b)
        };
        s.push(a);
        d.push(b);
        ratios.push(b / a);
    }
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    let [a, b] = labels;
    println!(
        "{name}: {a} {:.2} ms, {b} {:.2} ms (medians); {b} / {a}: \
         median {:.3}, quartiles {:.3} to {:.3} ({rounds} rounds)",
        median(s),
        median(d),
        median(ratios),
        sorted[rounds / 4],
        sorted[3 * rounds / 4],
    );
}

fn main() {
    let args = Args::parse(40);
    const NAMES: [&str; 7] = [
        "W1 elementwise_mul [256,128,256] x [128,256]",
        "W5 dynamic_stitch 4 x 2^18 rows of 16 f32",
        "W7 dynamic_partition 2^20 rows of 16 f32 into 4",
        "W5 into a caller's buffer",
        "W7 into a caller's buffer",
        "W5 into a kept DynTensor",
        "W4 into a caller's buffer",
    ];
    if !NAMES.iter().any(|n| args.wants(n)) {
        return;
    }

    let (x, y) = w1_inputs();
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    compare(
        NAMES[0],
        &args,
        || black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity),
        || {
            black_box(&dx).elementwise(
                BinaryOpKind::Mul,
                black_box(&dy),
                -1,
                ActivationKind::Identity,
            )
        },
    );
    drop((x, y, dx, dy));

    // W4: multiplex into a caller's buffer against the hand gather
    let (inputs, index) = w4_inputs();
    let slices: [&[f32]; 4] = core::array::from_fn(|k| inputs[k].as_slice());
    let mut out = W4Candidate::from_vec(Default::default(), vec![0.0; 65536 * 64]).unwrap();
    let mut hand_out = vec![0.0f32; 65536 * 64];
    compare_named(
        NAMES[6],
        ["hand-written gather loop", "static into"],
        &args,
        || {
            hand_gather(
                black_box(&slices),
                black_box(index.as_slice()),
                &mut hand_out,
            )
        },
        || multiplex_into(black_box(&inputs), black_box(&index), &mut out),
    );
    drop((inputs, index, out, hand_out));

    let (indices, datas) = w5_inputs();
    let stitch = dynamic_stitch(&indices[0], &datas[0])
        .pair(&indices[1], &datas[1])
        .pair(&indices[2], &datas[2])
        .pair(&indices[3], &datas[3]);
    let dyn_i: Vec<DynTensor<i32>> = indices.iter().map(|t| t.to_dyn()).collect();
    let dyn_d: Vec<DynTensor<f32>> = datas.iter().map(|t| t.to_dyn()).collect();
    let pairs: Vec<(&DynTensor<i32>, &DynTensor<f32>)> = dyn_i.iter().zip(&dyn_d).collect();
    compare(
        NAMES[1],
        &args,
        || black_box(&stitch).run(),
        || DynTensor::dynamic_stitch(black_box(&pairs)),
    );

    let (mut buf, mut hand_buf) = (vec![0.0f32; ROWS * SLICE], vec![0.0f32; ROWS * SLICE]);
    compare_named(
        NAMES[3],
        ["hand-written scatter loop", "static into"],
        &args,
        || hand_scatter(black_box(&indices), black_box(&datas), &mut hand_buf),
        || black_box(&stitch).run_into(&mut buf).map(|t| t.dims()),
    );
    // the dynamic path into a tensor kept between calls (its buffer
    // allocated once, by the warm-up calls)
    let mut kept = DynTensor::full(&[0], 0.0f32).unwrap();
    compare_named(
        NAMES[5],
        ["hand-written scatter loop", "DynTensor into a kept tensor"],
        &args,
        || hand_scatter(black_box(&indices), black_box(&datas), &mut hand_buf),
        || DynTensor::dynamic_stitch_into(black_box(&pairs), &mut kept),
    );

    // W7: W5's output partitioned back by the pair each row came from
    let merged = stitch.run().unwrap();
    let (x, parts) = w7_inputs(merged.as_slice(), &indices);
    compare_named(
        NAMES[4],
        ["hand-written loop", "static into"],
        &args,
        || {
            let mut cursors = [0, PART * SLICE, 2 * PART * SLICE, 3 * PART * SLICE];
            let (xs, ps) = (black_box(x.as_slice()), black_box(parts.as_slice()));
            for (&p, row) in ps.iter().zip(xs.chunks_exact(SLICE)) {
                let at = cursors[p as usize];
                hand_buf[at..at + SLICE].copy_from_slice(row);
                cursors[p as usize] = at + SLICE;
            }
        },
        || {
            dynamic_partition(black_box(&x), black_box(&parts), Partitions::<4>)
                .run_into(&mut buf)
                .map(|p| p.map(|t| t.dims()))
        },
    );
    let (dx, dp) = (x.to_dyn(), parts.to_dyn());
    compare(
        NAMES[2],
        &args,
        || dynamic_partition(black_box(&x), black_box(&parts), Partitions::<4>).run(),
        || black_box(&dx).dynamic_partition(black_box(&dp), 4),
    );
}
