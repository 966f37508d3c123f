//! Issue 23: the dynamic path (`DynTensor`) against the static allocating
//! form on W1, W5 and W7, timed **interleaved**: each round times one call
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
use shapecheck::{dynamic_partition, dynamic_stitch, ActivationKind, BinaryOpKind, Partitions};
use shapecheck_benches::{median, w1_inputs, w5_inputs, w7_inputs, Args};
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
fn compare<A, B>(
    name: &str,
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
    println!(
        "{name}: static allocating {:.2} ms, dynamic {:.2} ms (medians); dynamic / static: \
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
    const NAMES: [&str; 3] = [
        "W1 elementwise_mul [256,128,256] x [128,256]",
        "W5 dynamic_stitch 4 x 2^18 rows of 16 f32",
        "W7 dynamic_partition 2^20 rows of 16 f32 into 4",
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

    // W7: W5's output partitioned back by the pair each row came from
    let merged = stitch.run().unwrap();
    let (x, parts) = w7_inputs(merged.as_slice(), &indices);
    let (dx, dp) = (x.to_dyn(), parts.to_dyn());
    compare(
        NAMES[2],
        &args,
        || dynamic_partition(black_box(&x), black_box(&parts), Partitions::<4>).run(),
        || black_box(&dx).dynamic_partition(black_box(&dp), 4),
    );
}
