//! Fused expressions (issue 25) on the workloads F1-F3 of
//! `shared/bench/peers.py`, which times numpy (allocating, and `out=` in
//! three passes) and TensorFlow (eager, and XLA-fused) on the same shapes:
//!
//! | group | what |
//! |---|---|
//! | F1 | `relu(x * y + b)`: x `[256,128,256]`, y `[128,256]`, b `[256]` |
//! | F2 | `select(c, t * 2, t + e)`: c bool `[1024,1024]`, t `[1024,1024]`, e `[1024]` |
//! | F3 | `relu(a * b + d)`: a `[2,3,4,5]`, b `[3,4,1]`, d `[5]`, inline |
//! | W1e, W2e | W1 and W2 as one-node expressions into a buffer, beside memcpy |
//!
//! Rows: the fused expression (into a caller's buffer, and allocating its
//! result), the same chain of plain ops (into preallocated intermediates,
//! and allocating), a hand-fused loop, and ndarray's `Zip` into a buffer;
//! F1 also a memcpy of its output's bytes, its floor, timed among its rows
//! (the allocating rows' fresh pages slow every row of that group).
//!
//! Timed **interleaved** (as `benches/brand.rs`): each round times a batch
//! of calls of every row of a group, the order rotating, and each row's
//! figure is its median time and the median of its per-round ratio to the
//! group's first row (memcpy in W1e, the fused form in F1-F3), so that
//! load on a shared machine moves the rows together.
//!
//! Run: `cargo bench -p shapecheck-benches --bench fused [-- ROUNDS] [-- F1]`
//! (15 rounds by default, about 2 minutes), then `python3 peers.py` in the
//! same sitting (docs/measurements.md).

// The allocating rows return the expression's `Result`, whose error type is
// large on purpose (no heap, see `expr::ExprError`).
#![allow(clippy::result_large_err)]

use ndarray::{Array1, Array2, Array3, Zip};
use shapecheck::expr;
use shapecheck::prelude::*;
use shapecheck::select_into;
use shapecheck_benches::{bools, data, w1_inputs, Args, Big, Group, BIG};
use std::hint::black_box;

/// F1 and the one-node W1/W2 expressions.
fn f1(args: &Args) {
    let (x, y) = w1_inputs();
    let b =
        Tensor::<f32, shape![256], Vec<f32>>::from_vec(Default::default(), data(256, 7)).unwrap();
    let y1 =
        Tensor::<f32, shape![128], Vec<f32>>::from_vec(Default::default(), data(128, 3)).unwrap();
    let out = std::cell::RefCell::new(
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap(),
    );
    let tmp = std::cell::RefCell::new(
        Tensor::<f32, Big, Vec<f32>>::from_vec(Default::default(), vec![0.0; BIG]).unwrap(),
    );
    // the same x with a run-time first dim: its expressions allocate a Vec
    let xd =
        Tensor::<f32, shape![Dyn, 128, 256], Vec<f32>>::from_vec((Dyn(256), Dim, Dim), x.to_vec())
            .unwrap();
    let nx = Array3::from_shape_vec((256, 128, 256), x.to_vec()).unwrap();
    let ny = Array2::from_shape_vec((128, 256), y.to_vec()).unwrap();
    let nb = Array1::from_shape_vec(256, b.to_vec()).unwrap();
    let nout = std::cell::RefCell::new(Array3::<f32>::zeros((256, 128, 256)));

    let mut g = Group::new("W1e W2e one-node expressions into [256,128,256]", 2);
    g.row("memcpy into", || {
        out.borrow_mut()
            .as_mut_slice()
            .copy_from_slice(black_box(x.as_slice()))
    });
    g.row("W1 static into (plain op)", || {
        {
            black_box(&x).elementwise_mul_into(
                black_box(&y),
                Axis::<-1>,
                Identity,
                &mut *out.borrow_mut(),
            )
        }
    });
    g.row("W1 expression into", || {
        (black_box(&x).lazy() * black_box(&y)).eval_into(&mut *out.borrow_mut())
    });
    g.row("W2 static into (plain op)", || {
        {
            black_box(&x).elementwise_mul_into(
                black_box(&y1),
                Axis::<1>,
                Identity,
                &mut *out.borrow_mut(),
            )
        }
    });
    g.row("W2 expression into", || {
        {
            black_box(&x)
                .lazy()
                .elementwise_mul(black_box(&y1), Axis::<1>, Identity)
                .eval_into(&mut *out.borrow_mut())
        }
    });
    g.run(args);

    let mut g = Group::new("F1 relu(x * y + b) [256,128,256] x [128,256] + [256]", 2);
    g.row("fused into", || {
        {
            (black_box(&x).lazy() * black_box(&y) + black_box(&b))
                .relu()
                .eval_into(&mut *out.borrow_mut())
        }
    });
    g.row("fused allocating (try_eval, run-time rows)", || {
        {
            (black_box(&xd).lazy() * black_box(&y) + black_box(&b))
                .relu()
                .try_eval()
        }
    });
    g.row("plain chain into", || {
        black_box(&x).elementwise_mul_into(
            black_box(&y),
            Axis::<-1>,
            Identity,
            &mut *tmp.borrow_mut(),
        );
        tmp.borrow()
            .elementwise_add_into(black_box(&b), Axis::<-1>, Relu, &mut *out.borrow_mut());
    });
    g.row("plain chain allocating", || {
        {
            black_box(&x)
                .elementwise_mul(black_box(&y), Axis::<-1>, Identity)
                .elementwise_add(black_box(&b), Axis::<-1>, Relu)
        }
    });
    g.row("hand-fused loop", || {
        let (xs, ys, bs) = (
            black_box(x.as_slice()),
            black_box(y.as_slice()),
            black_box(b.as_slice()),
        );
        for (o, a) in out
            .borrow_mut()
            .as_mut_slice()
            .chunks_exact_mut(128 * 256)
            .zip(xs.chunks_exact(128 * 256))
        {
            for ((o, a), yr) in o
                .chunks_exact_mut(256)
                .zip(a.chunks_exact(256))
                .zip(ys.chunks_exact(256))
            {
                for (((o, &a), &y), &b) in o.iter_mut().zip(a).zip(yr).zip(bs) {
                    let v = a * y + b;
                    *o = if v > 0.0 { v } else { 0.0 };
                }
            }
        }
    });
    g.row("ndarray Zip into", || {
        {
            Zip::from(&mut *nout.borrow_mut())
                .and(black_box(&nx))
                .and_broadcast(black_box(&ny))
                .and_broadcast(black_box(&nb))
                .for_each(|o, &a, &y, &b| {
                    let v = a * y + b;
                    *o = if v > 0.0 { v } else { 0.0 };
                })
        }
    });
    g.row("memcpy into (the floor: the same output)", || {
        out.borrow_mut()
            .as_mut_slice()
            .copy_from_slice(black_box(x.as_slice()))
    });
    g.run(args);
}

/// F2: select of two expressions on W3's shapes.
fn f2(args: &Args) {
    const N: usize = 1024;
    type Sq = shape![1024, 1024];
    let cond =
        Tensor::<bool, Sq, Vec<bool>>::from_vec(Default::default(), bools(N * N, 11)).unwrap();
    let t = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), data(N * N, 12)).unwrap();
    let e =
        Tensor::<f32, shape![1024], Vec<f32>>::from_vec(Default::default(), data(N, 13)).unwrap();
    let two = Tensor::<f32, shape![1]>::from_array([2.0]);
    let out = std::cell::RefCell::new(
        Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), vec![0.0; N * N]).unwrap(),
    );
    let t2 = std::cell::RefCell::new(out.borrow().clone());
    let te = std::cell::RefCell::new(out.borrow().clone());
    let td =
        Tensor::<f32, shape![Dyn, 1024], Vec<f32>>::from_vec((Dyn(N), Dim), t.to_vec()).unwrap();
    let cd = Tensor::<bool, shape![Dyn, 1024], Vec<bool>>::from_vec((Dyn(N), Dim), cond.to_vec())
        .unwrap();
    let outd = std::cell::RefCell::new(
        Tensor::<f32, shape![Dyn, 1024], Vec<f32>>::from_vec((Dyn(N), Dim), vec![0.0; N * N])
            .unwrap(),
    );
    let nc = Array2::from_shape_vec((N, N), cond.to_vec()).unwrap();
    let nt = Array2::from_shape_vec((N, N), t.to_vec()).unwrap();
    let ne = Array1::from_shape_vec(N, e.to_vec()).unwrap();
    let nout = std::cell::RefCell::new(Array2::<f32>::zeros((N, N)));

    let mut g = Group::new("F2 select(c, t * 2, t + e) [1024,1024], e [1024]", 4);
    g.row("fused into", || {
        {
            expr::select(
                black_box(&cond),
                black_box(&t).lazy() * 2.0,
                t.lazy() + black_box(&e),
                Numpy,
            )
            .eval_into(&mut *out.borrow_mut())
        }
    });
    g.row("fused allocating (try_eval, run-time rows)", || {
        {
            expr::select(
                black_box(&cd),
                black_box(&td).lazy() * 2.0,
                td.lazy() + black_box(&e),
                Numpy,
            )
            .try_eval()
        }
    });
    g.row("fused into (try_eval_into, run-time rows)", || {
        {
            expr::select(
                black_box(&cd),
                black_box(&td).lazy() * 2.0,
                td.lazy() + black_box(&e),
                Numpy,
            )
            .try_eval_into(&mut *outd.borrow_mut())
        }
    });
    g.row("plain chain into", || {
        black_box(&t).elementwise_mul_into(&two, Axis::<-1>, Identity, &mut *t2.borrow_mut());
        t.elementwise_add_into(black_box(&e), Axis::<-1>, Identity, &mut *te.borrow_mut());
        select_into(
            black_box(&cond),
            &*t2.borrow(),
            &*te.borrow(),
            Numpy,
            &mut *out.borrow_mut(),
        );
    });
    g.row("plain chain allocating", || {
        let t2 = black_box(&t).elementwise_mul(&two, Axis::<-1>, Identity);
        let te = t.elementwise_add(black_box(&e), Axis::<-1>, Identity);
        select(black_box(&cond), &t2, &te, Numpy)
    });
    g.row("hand-fused loop", || {
        let (cs, ts, es) = (
            black_box(cond.as_slice()),
            black_box(t.as_slice()),
            black_box(e.as_slice()),
        );
        for ((o, c), t) in out
            .borrow_mut()
            .as_mut_slice()
            .chunks_exact_mut(N)
            .zip(cs.chunks_exact(N))
            .zip(ts.chunks_exact(N))
        {
            for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(es) {
                *o = core::hint::select_unpredictable(c, t * 2.0, t + e);
            }
        }
    });
    g.row("ndarray Zip into", || {
        {
            Zip::from(&mut *nout.borrow_mut())
                .and(black_box(&nc))
                .and(black_box(&nt))
                .and_broadcast(black_box(&ne))
                .for_each(|o, &c, &t, &e| *o = if c { t * 2.0 } else { t + e })
        }
    });
    g.run(args);
}

/// F3: the small inline chain.
fn f3(args: &Args) {
    let a = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| {
        (i[0] * 60 + i[1] * 20 + i[2] * 5 + i[3]) as f32 * 0.1 - 6.0
    });
    let b = Tensor::<f32, shape![3, 4, 1]>::from_fn(|i| (i[0] * 4 + i[1]) as f32 * 0.25 - 1.5);
    let d = Tensor::<f32, shape![5]>::from_array([0.5, -1.0, 0.25, 2.0, -0.5]);
    // each row writes into a buffer of its own (moved into its closure)
    let mut out1 = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
    let (mut tmp2, mut out2) = (out1, out1);
    let aa: [[[[f32; 5]; 4]; 3]; 2] = a.storage().0;
    let bb: [[[f32; 1]; 4]; 3] = b.storage().0;
    let dd: [f32; 5] = d.storage().0;

    let mut g = Group::new("F3 relu(a * b + d) [2,3,4,5] x [3,4,1] + [5] inline", 20000);
    g.row("fused eval (inline result)", || {
        {
            (black_box(&a).lazy() * black_box(&b) + black_box(&d))
                .relu()
                .eval()
        }
    });
    g.row("fused into", move || {
        (black_box(&a).lazy() * black_box(&b) + black_box(&d))
            .relu()
            .eval_into(&mut out1);
        black_box(&out1);
    });
    g.row("plain chain (inline results)", || {
        (black_box(&a) * black_box(&b)).elementwise_add(black_box(&d), Axis::<-1>, Relu)
    });
    g.row("plain chain into", move || {
        black_box(&a).elementwise_mul_into(black_box(&b), Axis::<-1>, Identity, &mut tmp2);
        tmp2.elementwise_add_into(black_box(&d), Axis::<-1>, Relu, &mut out2);
        black_box(&out2);
    });
    g.row("hand-fused loop (nested arrays)", || {
        let (a, b, d) = (black_box(&aa), black_box(&bb), black_box(&dd));
        let mut o = [[[[0.0f32; 5]; 4]; 3]; 2];
        for i in 0..2 {
            for j in 0..3 {
                for k in 0..4 {
                    for l in 0..5 {
                        let v = a[i][j][k][l] * b[j][k][0] + d[l];
                        o[i][j][k][l] = if v > 0.0 { v } else { 0.0 };
                    }
                }
            }
        }
        o
    });
    g.run(args);
}

fn main() {
    let args = Args::parse(15);
    f3(&args);
    f1(&args);
    f2(&args);
}
