//! The nanosecond workloads of `benches/ops.rs` (S1, S2, X4, X5, M2) timed
//! **interleaved** against their hand-written loops (the same inputs and
//! loops, from `shapecheck_benches::small`): each round times a batch of
//! calls of every row of a group, the order rotating, and each row's figure
//! is its median time and the median of its per-round ratio to the group's
//! first row, the hand-written loop. Criterion's groups in `ops.rs` time
//! each row in a run of its own, seconds apart, and on a shared machine two
//! runs of the same few-nanosecond loop differ by more than the targets'
//! 10 %; here load moves the rows together. F3's rows are timed this way in
//! `benches/fused.rs`.
//!
//! Run: `cargo bench -p shapecheck-benches --bench small [-- ROUNDS] [-- X5]`
//! (15 rounds by default, well under a minute; numbers in
//! docs/measurements.md).

// M2's rows return the op's `Result`, whose error type is large on purpose
// (no heap, see `ops::multiplex`).
#![allow(clippy::result_large_err)]

use shapecheck::prelude::*;
use shapecheck::{multiplex, select};
use shapecheck_benches::small::{
    hand_m2, hand_m2_checked, hand_s1, hand_s2, hand_x4, hand_x5, m2_inputs, s1_inputs, s2_inputs,
    x4_x5_inputs,
};
use shapecheck_benches::{Args, Group};
use std::hint::black_box;

/// Calls per row per round: a few hundred microseconds per batch.
const BATCH: usize = 50_000;

fn main() {
    let args = Args::parse(15);

    let (x, y) = s1_inputs();
    let (xa, ya) = (x.storage().0, y.storage().0);
    let mut g = Group::new("S1 elementwise_mul [2,3,4,5] x [3,4] axis 1, inline", BATCH);
    g.row("hand-written loop", || {
        hand_s1(black_box(&xa), black_box(&ya))
    });
    g.row("static", || {
        black_box(&x).elementwise_mul(black_box(&y), Axis::<1>, Identity)
    });
    g.run(&args);

    let (cond, t, e) = s2_inputs();
    let (ca, ta, ea) = (cond.storage().0, t.storage().0, e.storage().0);
    let mut g = Group::new("S2 select [3,2] (OpenVINO seed), inline", BATCH);
    g.row("hand-written loop", || {
        hand_s2(black_box(&ca), black_box(&ta), black_box(&ea))
    });
    g.row("static", || {
        select(black_box(&cond), black_box(&t), black_box(&e), Numpy)
    });
    g.run(&args);

    let (cond, t, e, cond_col, e_scalar) = x4_x5_inputs();
    let (ca, ta, ea) = (cond.storage().0, t.storage().0, e.storage().0);
    let cca = cond_col.storage().0;
    let mut g = Group::new("X4 select [2,3,4] numpy, same shapes, inline", BATCH);
    g.row("hand-written loop", || {
        hand_x4(black_box(&ca), black_box(&ta), black_box(&ea))
    });
    g.row("static", || {
        select(black_box(&cond), black_box(&t), black_box(&e), Numpy)
    });
    g.run(&args);
    let mut g = Group::new(
        "X5 select [2,3,4] numpy, cond [3,1], else [], inline",
        BATCH,
    );
    g.row("hand-written loop", || {
        hand_x5(black_box(&cca), black_box(&ta), black_box(-1.5f32))
    });
    g.row("static", || {
        select(
            black_box(&cond_col),
            black_box(&t),
            black_box(&e_scalar),
            Numpy,
        )
    });
    g.run(&args);

    let (inputs, index) = m2_inputs();
    let arrays: [[[f32; 4]; 4]; 4] = core::array::from_fn(|k| inputs[k].storage().0);
    let ia = index.storage().0;
    let mut g = Group::new("M2 multiplex 4 x [4,4], inline", BATCH);
    g.row("hand-written loop", || {
        hand_m2(black_box(&arrays), black_box(&ia))
    });
    g.row("hand-written loop, index checked", || {
        hand_m2_checked(black_box(&arrays), black_box(&ia))
    });
    g.row("static", || {
        multiplex(black_box(&inputs), black_box(&index)).run()
    });
    g.run(&args);
}
