//! The pairs of `lib.rs` timed as a user's program calls them: this binary
//! and the library are built with the default release profile (16 codegen
//! units, where `run.sh`'s `--emit=asm` listing is one unit), each pair
//! interleaved, `ours` right after `hand`, 21 rounds of a million calls;
//! prints the median ratio ours / hand and its quartiles. Bench X5 was
//! 5.3x its hand loop here while its one-unit listing matched the hand
//! loop's (docs/measurements.md, "Issue 34, stop 50").
//!
//! `bash benches/codegen/run.sh` builds and runs it after the listing.

use shapecheck::prelude::*;
use shapecheck_codegen::*;
use std::hint::black_box;
use std::time::Instant;

/// Keeps a result from being optimized away.
fn keep<T>(v: T) {
    let _ = black_box(v);
}

/// Times `hand` and `ours` alternately and prints the ratio.
fn pair(name: &str, mut hand: impl FnMut(), mut ours: impl FnMut()) {
    const CALLS: usize = 1_000_000;
    const ROUNDS: usize = 21;
    let mut rounds: Vec<(f64, f64, f64)> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..CALLS {
                hand();
            }
            let h = start.elapsed().as_secs_f64();
            let start = Instant::now();
            for _ in 0..CALLS {
                ours();
            }
            let o = start.elapsed().as_secs_f64();
            let ns = |s: f64| s / CALLS as f64 * 1e9;
            (o / h, ns(h), ns(o))
        })
        .collect();
    rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (q1, mid, q3) = (
        rounds[ROUNDS / 4],
        rounds[ROUNDS / 2],
        rounds[3 * ROUNDS / 4],
    );
    println!(
        "{name:4} ours / hand {:.3} (quartiles {:.3} to {:.3}); hand {:.2} ns, ours {:.2} ns",
        mid.0, q1.0, q3.0, mid.1, mid.2
    );
}

fn main() {
    let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| (i[0] + i[1] * 2 + i[2] + i[3]) as f32);
    let y = Tensor::<f32, shape![3, 4]>::from_fn(|i| (i[0] * 4 + i[1]) as f32 * 0.5);
    let (xa, ya) = (x.storage().0, y.storage().0);
    pair(
        "S1",
        || keep(s1_hand(black_box(&xa), black_box(&ya))),
        || keep(s1_ours(black_box(&x), black_box(&y))),
    );

    let c2 = Tensor::<bool, shape![3, 2]>::from_fn(|i| (i[0] + i[1]) % 2 == 0);
    let t2 = Tensor::<f32, shape![3, 2]>::from_fn(|i| i[0] as f32);
    let e2 = Tensor::<f32, shape![3, 2]>::from_fn(|i| i[1] as f32);
    let (c2a, t2a, e2a) = (c2.storage().0, t2.storage().0, e2.storage().0);
    pair(
        "S2",
        || keep(s2_hand(black_box(&c2a), black_box(&t2a), black_box(&e2a))),
        || keep(s2_ours(black_box(&c2), black_box(&t2), black_box(&e2))),
    );

    let c = Tensor::<bool, shape![2, 3, 4]>::from_fn(|i| (i[0] + 2 * i[1] + i[2]) % 3 == 0);
    let t = Tensor::<f32, shape![2, 3, 4]>::from_fn(|i| (i[0] * 12 + i[1] * 4 + i[2]) as f32);
    let e = Tensor::<f32, shape![2, 3, 4]>::from_fn(|i| -((i[0] + i[1] + i[2]) as f32));
    let (ca, ta, ea) = (c.storage().0, t.storage().0, e.storage().0);
    pair(
        "X4",
        || keep(x4_hand(black_box(&ca), black_box(&ta), black_box(&ea))),
        || keep(x4_ours(black_box(&c), black_box(&t), black_box(&e))),
    );

    let cc = Tensor::<bool, shape![3, 1]>::from_array([[true], [false], [true]]);
    let es = Tensor::<f32, shape![]>::full(-1.5);
    let cca = cc.storage().0;
    pair(
        "X5",
        || keep(x5_hand(black_box(&cca), black_box(&ta), black_box(-1.5f32))),
        || keep(x5_ours(black_box(&cc), black_box(&t), black_box(&es))),
    );

    let ins: [Tensor<f32, shape![4, 4]>; 4] =
        core::array::from_fn(|k| Tensor::from_fn(|i| (k * 16 + i[0] * 4 + i[1]) as f32));
    let insa: [[[f32; 4]; 4]; 4] = core::array::from_fn(|k| ins[k].storage().0);
    let idx = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [2], [1]]);
    let idxa = idx.storage().0;
    pair(
        "M2",
        || keep(m2_hand(black_box(&insa), black_box(&idxa))),
        || keep(m2_ours(black_box(&ins), black_box(&idx))),
    );

    let b = Tensor::<f32, shape![3, 4, 1]>::from_fn(|i| (i[0] + i[1]) as f32 - 2.0);
    let d = Tensor::<f32, shape![5]>::from_fn(|i| i[0] as f32 * 0.25);
    let (ba, da) = (b.storage().0, d.storage().0);
    pair(
        "F3",
        || keep(f3_hand(black_box(&xa), black_box(&ba), black_box(&da))),
        || keep(f3_ours(black_box(&x), black_box(&b), black_box(&d))),
    );
}
