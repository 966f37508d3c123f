//! Fused expressions (`x.lazy()`, issue 25) on the target, without a heap:
//!
//! - F3, `relu(a * b + d)` with a [2, 3, 4, 5], b [3, 4, 1], d [5] (f32,
//!   numpy broadcasting), inline static tensors: fused (`eval` to an inline
//!   result, `eval_into` a caller's buffer, the operators and the named ops
//!   with `Axis::<-1>`), against the chain of plain ops
//!   (`elementwise_mul` then `elementwise_add` with `Relu`) and a
//!   hand-written loop, all computed here on the target: bit for bit equal;
//! - the select chain of F2, `select(c, t * 2, t + e)` on small static
//!   shapes (cond [2, 3] and a cond [4, 1, 1] that repeats along the row,
//!   then [4, 2, 3], else [3]), fused against the same chain of plain ops
//!   (`t * 2` and `t + e` as tensors, then `select`) and a hand loop.
//!
//! The data are chosen here (no conformance vector has these chains): values
//! with a fractional part, so that a product or sum rounds, and both signs,
//! so that relu clips about half of F3's outputs.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::expr;
use shapecheck::prelude::*;
use shapecheck_embedded::Checks;

type A = shape![2, 3, 4, 5];
type B = shape![3, 4, 1];
type D = shape![5];

const fn fill<const N: usize>(scale: f32, offset: f32) -> [f32; N] {
    let mut a = [0.0; N];
    let mut i = 0;
    while i < N {
        a[i] = i as f32 * scale + offset;
        i += 1;
    }
    a
}

static A_DATA: [f32; 120] = fill(0.37, -21.1);
static B_DATA: [f32; 12] = fill(-0.61, 3.3);
static D_DATA: [f32; 5] = fill(1.7, -3.05);

/// F3 written by hand: the loops over a's dims, b's value per (i1, i2), d's
/// per i3; relu as the library's (`v > 0 ? v : 0`).
fn f3_loop(a: &[f32; 120], b: &[f32; 12], d: &[f32; 5], out: &mut [f32; 120]) {
    for i0 in 0..2 {
        for i1 in 0..3 {
            for i2 in 0..4 {
                let bv = b[i1 * 4 + i2];
                for (i3, &dv) in d.iter().enumerate() {
                    let i = ((i0 * 3 + i1) * 4 + i2) * 5 + i3;
                    let v = a[i] * bv + dv;
                    out[i] = if v > 0.0 { v } else { 0.0 };
                }
            }
        }
    }
}

/// `got` and `want` hold the same f32 bit patterns.
#[track_caller]
fn same_bits(c: &mut Checks, got: &[f32], want: &[f32], what: &str) {
    let ok = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.to_bits() == w.to_bits());
    c.check(ok, what);
    if !ok {
        cortex_m_semihosting::hprintln!("  got  {:?}\n  want {:?}", got, want);
    }
}

fn f3(c: &mut Checks) {
    let mut want = [0.0f32; 120];
    f3_loop(&A_DATA, &B_DATA, &D_DATA, &mut want);
    // the data reach both sides of relu
    let clipped = want.iter().filter(|v| **v == 0.0).count();
    c.check(
        clipped > 20 && clipped < 100,
        "f3: relu clips some outputs, not all",
    );

    let (Some(a), Some(b), Some(d)) = (
        c.some(Tensor::<f32, A>::from_slice(&A_DATA).ok(), "f3: a"),
        c.some(Tensor::<f32, B>::from_slice(&B_DATA).ok(), "f3: b"),
        c.some(Tensor::<f32, D>::from_slice(&D_DATA).ok(), "f3: d"),
    ) else {
        return;
    };

    // the chain of plain ops: one intermediate tensor, relu on the add
    let chain = a
        .elementwise_mul(&b, Axis::<-1>, Identity)
        .elementwise_add(&d, Axis::<-1>, Relu);
    same_bits(c, chain.as_slice(), &want, "f3: plain ops = hand loop");

    // fused, to an inline result
    let fused: Tensor<f32, A> = (a.lazy() * &b + &d).relu().eval();
    same_bits(c, fused.as_slice(), &want, "f3: fused eval = hand loop");
    same_bits(
        c,
        fused.as_slice(),
        chain.as_slice(),
        "f3: fused eval = plain ops",
    );

    // fused, into a caller's buffer
    let mut buf = [f32::NAN; 120];
    if let Some(mut out) = c.some(
        Tensor::<f32, A, &mut [f32]>::from_storage(&mut buf[..]).ok(),
        "f3: out view",
    ) {
        (a.lazy() * &b + &d).relu().eval_into(&mut out);
    }
    same_bits(c, &buf, &want, "f3: fused eval_into = hand loop");

    // the named ops as nodes, relu as the add's activation
    let named = a
        .lazy()
        .elementwise_mul(&b, Axis::<-1>, Identity)
        .elementwise_add(&d, Axis::<-1>, Relu)
        .eval();
    same_bits(
        c,
        named.as_slice(),
        &want,
        "f3: fused named ops = hand loop",
    );

    // views over the data in flash as leaves (no copy), try_eval_into
    let mut buf2 = [f32::NAN; 120];
    if let (Some(av), Some(bv), Some(dv), Some(mut out)) = (
        c.some(
            Tensor::<f32, A, &[f32]>::from_storage(&A_DATA[..]).ok(),
            "f3: a view",
        ),
        c.some(
            Tensor::<f32, B, &[f32]>::from_storage(&B_DATA[..]).ok(),
            "f3: b view",
        ),
        c.some(
            Tensor::<f32, D, &[f32]>::from_storage(&D_DATA[..]).ok(),
            "f3: d view",
        ),
        c.some(
            Tensor::<f32, A, &mut [f32]>::from_storage(&mut buf2[..]).ok(),
            "f3: out view 2",
        ),
    ) {
        let r = (av.lazy() * &bv + &dv).relu().try_eval_into(&mut out);
        c.check(r.is_ok(), "f3: try_eval_into over views");
    }
    same_bits(c, &buf2, &want, "f3: fused over views = hand loop");
}

type T = shape![4, 2, 3];
type C = shape![2, 3];
type CCol = shape![4, 1, 1];
type E = shape![3];

static T_DATA: [f32; 24] = fill(0.83, -9.7);
static E_DATA: [f32; 3] = [0.1, -2.25, 7.5];
static C_DATA: [bool; 6] = [true, false, false, true, true, false];
static CCOL_DATA: [bool; 4] = [false, true, true, false];

/// `select(c, t * 2, t + e)` by hand, cond read through `cond(i0, i1, i2)`.
fn select_loop(
    cond: impl Fn(usize, usize, usize) -> bool,
    t: &[f32; 24],
    e: &[f32; 3],
) -> [f32; 24] {
    let mut out = [0.0f32; 24];
    for i0 in 0..4 {
        for i1 in 0..2 {
            for (i2, &ev) in e.iter().enumerate() {
                let i = (i0 * 2 + i1) * 3 + i2;
                out[i] = if cond(i0, i1, i2) {
                    t[i] * 2.0
                } else {
                    t[i] + ev
                };
            }
        }
    }
    out
}

fn select_chain(c: &mut Checks) {
    let (Some(t), Some(e), Some(cond), Some(col)) = (
        c.some(Tensor::<f32, T>::from_slice(&T_DATA).ok(), "select: t"),
        c.some(Tensor::<f32, E>::from_slice(&E_DATA).ok(), "select: e"),
        c.some(Tensor::<bool, C>::from_slice(&C_DATA).ok(), "select: cond"),
        c.some(
            Tensor::<bool, CCol>::from_slice(&CCOL_DATA).ok(),
            "select: cond column",
        ),
    ) else {
        return;
    };
    let two = Tensor::<f32, shape![]>::full(2.0);

    // cond [2, 3]: read along the row
    let want = select_loop(|_, i1, i2| C_DATA[i1 * 3 + i2], &T_DATA, &E_DATA);
    let doubled = t.elementwise_mul(&two, Axis::<-1>, Identity);
    let shifted = &t + &e;
    let chain = select(&cond, &doubled, &shifted, Numpy);
    same_bits(c, chain.as_slice(), &want, "select: plain ops = hand loop");
    let fused: Tensor<f32, T> = expr::select(&cond, t.lazy() * 2.0, t.lazy() + &e, Numpy).eval();
    same_bits(
        c,
        fused.as_slice(),
        chain.as_slice(),
        "select: fused = plain ops",
    );
    let mut buf = [f32::NAN; 24];
    if let Some(mut out) = c.some(
        Tensor::<f32, T, &mut [f32]>::from_storage(&mut buf[..]).ok(),
        "select: out view",
    ) {
        expr::select(&cond, t.lazy() * 2.0, t.lazy() + &e, Numpy).eval_into(&mut out);
    }
    same_bits(c, &buf, &want, "select: fused eval_into = hand loop");
    // the tensor 2 as a leaf instead of the constant
    let fused2 = expr::select(&cond, t.lazy() * &two, t.lazy() + &e, Numpy).eval();
    same_bits(
        c,
        fused2.as_slice(),
        &want,
        "select: fused, 2 as a tensor = hand loop",
    );

    // cond [4, 1, 1]: one value per output row (the repeat path)
    let want = select_loop(|i0, _, _| CCOL_DATA[i0], &T_DATA, &E_DATA);
    let chain = select(&col, &doubled, &shifted, Numpy);
    same_bits(
        c,
        chain.as_slice(),
        &want,
        "select column: plain ops = hand loop",
    );
    let fused = expr::select(&col, t.lazy() * 2.0, t.lazy() + &e, Numpy).eval();
    same_bits(
        c,
        fused.as_slice(),
        chain.as_slice(),
        "select column: fused = plain ops",
    );

    // a deeper tree: relu of the select, minus e, fused against plain ops
    let deep = (expr::select(&cond, t.lazy() * 2.0, t.lazy() + &e, Numpy).relu() - &e).eval();
    let zero = Tensor::<f32, shape![]>::full(0.0);
    let plain = select(&cond, &doubled, &shifted, Numpy)
        .elementwise_add(&zero, Axis::<-1>, Relu)
        .elementwise_sub(&e, Axis::<-1>, Identity);
    same_bits(
        c,
        deep.as_slice(),
        plain.as_slice(),
        "select, relu, - e: fused = plain ops",
    );
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("expr");
    f3(&mut c);
    select_chain(&mut c);
    c.finish()
}
