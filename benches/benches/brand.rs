//! Issue 23: a branded first dim against the all-static form and the `try_`
//! form, on S1's and W1's shapes, timed **interleaved** like
//! `benches/dynamic.rs`: each round times a batch of calls of each form
//! (the order rotating), and the figures are the medians of the rounds'
//! ratios.
//!
//! - all static: the shapes as types (`shape![2, 3, 4, 5]`, inline);
//! - branded: the first dim `Branded` (checked once, before the timing),
//!   through the plain form: no shape comparison when the op runs; the same
//!   storage as the all-static form (S1: inline arrays; W1: `Vec`s);
//! - `try_`: the first dim `Dyn`, through the `try_` form, which runs the
//!   shape rule on every call.
//!
//! S1b and W1b brand both operands (the brand meets itself): x `[B, 3, 4, 5]`
//! and y `[B, 3, 4]` at axis 0; x `[B, 128, 256]` and y `[B, 128, 256]`.
//!
//! Run: `cargo bench -p shapecheck-benches --bench brand [-- ROUNDS]` (30
//! rounds by default, about a minute; numbers in docs/measurements.md). A
//! filter (`-- S1`) runs the workloads whose names hold it.

// The timed closures return the ops' `Result`s, whose error types are
// large on purpose (no heap, see `ops::stitch`).
#![allow(clippy::result_large_err)]

use shapecheck::prelude::*;
use shapecheck_benches::{data, median, w1_inputs, Args};
use std::hint::black_box;
use std::time::Instant;

/// The time of `n` calls, in ns per call (results dropped outside).
fn time<R>(n: usize, f: &mut impl FnMut() -> R) -> f64 {
    let mut keep = Vec::with_capacity(n);
    let start = Instant::now();
    for _ in 0..n {
        keep.push(f());
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
    drop(black_box(keep));
    ns
}

/// `rounds` rounds of `batch` calls of each form, the order rotating.
fn compare<A, B, C>(
    name: &str,
    args: &Args,
    batch: usize,
    mut stat: impl FnMut() -> A,
    mut branded: impl FnMut() -> B,
    mut tried: impl FnMut() -> C,
) {
    let rounds = args.rounds;
    for _ in 0..3 {
        time(batch, &mut stat);
        time(batch, &mut branded);
        time(batch, &mut tried);
    }
    let (mut s, mut b, mut t) = (Vec::new(), Vec::new(), Vec::new());
    let (mut vs_static, mut vs_try) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (x, y, z) = match round % 3 {
            0 => {
                let x = time(batch, &mut stat);
                let y = time(batch, &mut branded);
                (x, y, time(batch, &mut tried))
            }
            1 => {
                let y = time(batch, &mut branded);
                let z = time(batch, &mut tried);
                (time(batch, &mut stat), y, z)
            }
            _ => {
                let z = time(batch, &mut tried);
                let x = time(batch, &mut stat);
                (x, time(batch, &mut branded), z)
            }
        };
        s.push(x);
        b.push(y);
        t.push(z);
        vs_static.push(y / x);
        vs_try.push(y / z);
    }
    let unit = |ns: f64| {
        if ns > 1e5 {
            format!("{:.2} ms", ns / 1e6)
        } else {
            format!("{ns:.0} ns")
        }
    };
    println!(
        "{name}: all static {}, branded {}, try_ {} (medians per call); \
         branded / static {:.3}, branded / try_ {:.3} (median ratios, {rounds} rounds of {batch})",
        unit(median(s)),
        unit(median(b)),
        unit(median(t)),
        median(vs_static),
        median(vs_try),
    );
}

fn main() {
    let args = Args::parse(30);

    let name = "S1 elementwise_mul [B=2,3,4,5] x [3,4] axis 1";
    if args.wants(name) {
        let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_slice(&data(120, 4)).unwrap();
        let y = Tensor::<f32, shape![3, 4]>::from_slice(&data(12, 5)).unwrap();
        let xd = Tensor::<f32, shape![Dyn, 3, 4, 5], Vec<f32>>::from_vec(
            (Dyn(2), Dim, Dim, Dim),
            data(120, 4),
        )
        .unwrap();
        x.with_brand(|xb, _| {
            compare(
                name,
                &args,
                2000,
                || black_box(&x).elementwise_mul(black_box(&y), Axis::<1>, Identity),
                || black_box(&xb).elementwise_mul(black_box(&y), Axis::<1>, Identity),
                || black_box(&xd).try_elementwise_mul(black_box(&y), Axis::<1>, Identity),
            )
        });
    }

    let name = "S1 into elementwise_mul_into [B=2,3,4,5] x [3,4] axis 1";
    if args.wants(name) {
        // the `_into` forms: every form writes into a caller's buffer
        let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_slice(&data(120, 4)).unwrap();
        let y = Tensor::<f32, shape![3, 4]>::from_slice(&data(12, 5)).unwrap();
        let xd = Tensor::<f32, shape![Dyn, 3, 4, 5], Vec<f32>>::from_vec(
            (Dyn(2), Dim, Dim, Dim),
            data(120, 4),
        )
        .unwrap();
        let (mut sbuf, mut bbuf, mut tbuf) = ([0.0f32; 120], [0.0f32; 120], [0.0f32; 120]);
        let mut sout =
            Tensor::<f32, shape![2, 3, 4, 5], &mut [f32]>::from_storage(&mut sbuf[..]).unwrap();
        let mut tout = Tensor::<f32, shape![Dyn, 3, 4, 5], &mut [f32]>::with_shape(
            (Dyn(2), Dim, Dim, Dim),
            &mut tbuf[..],
        )
        .unwrap();
        let bout = Tensor::<f32, shape![Dyn, 3, 4, 5], &mut [f32]>::with_shape(
            (Dyn(2), Dim, Dim, Dim),
            &mut bbuf[..],
        )
        .unwrap();
        x.with_brand(|xb, rows| {
            let Ok(mut bout) = bout.brand_rows(rows) else {
                return;
            };
            compare(
                name,
                &args,
                2000,
                || {
                    black_box(&x).elementwise_mul_into(
                        black_box(&y),
                        Axis::<1>,
                        Identity,
                        &mut sout,
                    )
                },
                || {
                    black_box(&xb).elementwise_mul_into(
                        black_box(&y),
                        Axis::<1>,
                        Identity,
                        &mut bout,
                    )
                },
                || {
                    black_box(&xd).try_elementwise_mul_into(
                        black_box(&y),
                        Axis::<1>,
                        Identity,
                        &mut tout,
                    )
                },
            )
        });
    }

    let name = "S1b elementwise_mul [B=2,3,4,5] x [B,3,4] axis 0";
    if args.wants(name) {
        let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_slice(&data(120, 4)).unwrap();
        let y = Tensor::<f32, shape![2, 3, 4]>::from_slice(&data(24, 5)).unwrap();
        let xd = Tensor::<f32, shape![Dyn, 3, 4, 5], Vec<f32>>::from_vec(
            (Dyn(2), Dim, Dim, Dim),
            data(120, 4),
        )
        .unwrap();
        let yd =
            Tensor::<f32, shape![Dyn, 3, 4], Vec<f32>>::from_vec((Dyn(2), Dim, Dim), data(24, 5))
                .unwrap();
        x.with_brand(|xb, rows| {
            let Ok(yb) = y.brand_rows(rows) else {
                return;
            };
            compare(
                name,
                &args,
                2000,
                || black_box(&x).elementwise_mul(black_box(&y), Axis::<0>, Identity),
                || black_box(&xb).elementwise_mul(black_box(&yb), Axis::<0>, Identity),
                || black_box(&xd).try_elementwise_mul(black_box(&yd), Axis::<0>, Identity),
            )
        });
    }

    let name = "W1 elementwise_mul [B=256,128,256] x [128,256] axis -1";
    if args.wants(name) {
        let (x, y) = w1_inputs();
        let xd: Tensor<f32, shape![Dyn, 128, 256], Vec<f32>> = x.clone().try_into_shape().unwrap();
        xd.clone().with_brand(|xb, _| {
            compare(
                name,
                &args,
                1,
                || black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity),
                || black_box(&xb).elementwise_mul(black_box(&y), Axis::<-1>, Identity),
                || black_box(&xd).try_elementwise_mul(black_box(&y), Axis::<-1>, Identity),
            )
        });
    }

    let name = "W1b elementwise_mul [B=256,128,256] x [B,128,256] axis -1";
    if args.wants(name) {
        let (x, _) = w1_inputs();
        let y = x.clone();
        let xd: Tensor<f32, shape![Dyn, 128, 256], Vec<f32>> = x.clone().try_into_shape().unwrap();
        let yd = xd.clone();
        xd.clone().with_brand(|xb, rows| {
            let Ok(yb) = yd.clone().brand_rows(rows) else {
                return;
            };
            compare(
                name,
                &args,
                1,
                || black_box(&x).elementwise_mul(black_box(&y), Axis::<-1>, Identity),
                || black_box(&xb).elementwise_mul(black_box(&yb), Axis::<-1>, Identity),
                || black_box(&xd).try_elementwise_mul(black_box(&yd), Axis::<-1>, Identity),
            )
        });
    }
}
