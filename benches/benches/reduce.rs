//! Issue 57's reduction and softmax workloads (RS1-RS3, AM1, SM1, named as
//! in the shared `peers_core.py`) on the dynamic path, each against the
//! memory-read floor RD0 (a hand-written 16-lane sum of the same
//! `f32[4096, 4096]`), timed interleaved: each round times one call of the
//! floor and one of the op, and the figure is the median of the rounds'
//! times and of their ratios.
//!
//! Run: `cargo bench -p shapecheck-benches --bench reduce [-- ROUNDS]`
//! (20 rounds by default).

use shapecheck::DynTensor;
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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// RD0: the read floor, every element of `data` added into 16 lanes.
fn floor(data: &[f32]) -> f32 {
    let mut acc = [0f32; 16];
    for c in data.chunks_exact(16) {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += v;
        }
    }
    acc.iter().sum()
}

/// A workload: its name and one call, returning an element of its result.
type Workload<'a> = (&'static str, Box<dyn FnMut() -> f32 + 'a>);

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let n = 4096;
    let data: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 - 0.5)
        .collect();
    let x = DynTensor::new(&[n, n], data.clone()).expect("dims");
    let s = DynTensor::new(&[4096, 1000], data[..4096 * 1000].to_vec()).expect("dims");
    let mut ops: Vec<Workload<'_>> = vec![
        (
            "RS1 sum, last axis",
            Box::new(|| x.sum(&[-1], false).map_or(0.0, |t| t.as_slice()[0])),
        ),
        (
            "RS2 sum, all",
            Box::new(|| x.sum(&[], false).map_or(0.0, |t| t.as_slice()[0])),
        ),
        (
            "RS3 max, axis 0",
            Box::new(|| x.max(&[0], false).map_or(0.0, |t| t.as_slice()[0])),
        ),
        (
            "AM1 argmax per row",
            Box::new(|| {
                x.argmax(Some(-1), false)
                    .map_or(0.0, |t| t.as_slice()[0] as f32)
            }),
        ),
        (
            "SM1 softmax rows [4096, 1000]",
            Box::new(|| s.softmax(-1).map_or(0.0, |t| t.as_slice()[0])),
        ),
    ];
    let mut rd0 = || floor(&data);
    println!(
        "{rounds} rounds, medians; ratio to RD0 (the read floor, {n}x{n} f32) in the same round"
    );
    for (name, op) in &mut ops {
        let (mut fl, mut t, mut ratio) = (vec![], vec![], vec![]);
        for _ in 0..rounds {
            let a = time(&mut rd0);
            let b = time(op);
            fl.push(a);
            t.push(b);
            ratio.push(b / a);
        }
        println!(
            "{name:32} {:8.3} ms   RD0 {:8.3} ms   ratio {:.2}",
            median(t),
            median(fl),
            median(ratio)
        );
    }
}
