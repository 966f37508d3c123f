//! Pairs of functions, `<group>_ours` and `<group>_hand`: the same small
//! workload of `benches/benches/ops.rs` and `fused.rs` (S1, S2, X4, X5, M2,
//! F3) through shapecheck and as the loop a person would write, each
//! `#[inline(never)]` with its inputs by reference and its result by value,
//! so that both compile alone, alike, and `run.sh` can compare their
//! instructions (the criterion groups also measure how each call is inlined
//! into the bench's loop). Each hand loop is the bench group's own, copied
//! as it is there (`benches/src/small.rs`, F3's in `benches/fused.rs`; this
//! crate depends on shapecheck alone), M2's the one that returns `None` on
//! an index out of range (`hand_m2_checked`: ours checks too).

use shapecheck::prelude::*;

/// S1: `[2, 3, 4, 5] x [3, 4]` at axis 1.
#[inline(never)]
pub fn s1_ours(
    x: &Tensor<f32, shape![2, 3, 4, 5]>,
    y: &Tensor<f32, shape![3, 4]>,
) -> Tensor<f32, shape![2, 3, 4, 5]> {
    x.elementwise_mul(y, Axis::<1>, Identity)
}

/// S1 by hand.
#[inline(never)]
pub fn s1_hand(x: &[[[[f32; 5]; 4]; 3]; 2], y: &[[f32; 4]; 3]) -> [[[[f32; 5]; 4]; 3]; 2] {
    let mut out = [[[[0.0f32; 5]; 4]; 3]; 2];
    for (oa, xa) in out.iter_mut().zip(x) {
        for ((ob, xb), yb) in oa.iter_mut().zip(xa).zip(y) {
            for ((oc, xc), &yc) in ob.iter_mut().zip(xb).zip(yb) {
                for (od, &xd) in oc.iter_mut().zip(xc) {
                    *od = xd * yc;
                }
            }
        }
    }
    out
}

/// S2: select, cond, then and else `[3, 2]`.
#[inline(never)]
pub fn s2_ours(
    c: &Tensor<bool, shape![3, 2]>,
    t: &Tensor<f32, shape![3, 2]>,
    e: &Tensor<f32, shape![3, 2]>,
) -> Tensor<f32, shape![3, 2]> {
    select(c, t, e, Numpy)
}

/// S2 by hand.
#[inline(never)]
pub fn s2_hand(c: &[[bool; 2]; 3], t: &[[f32; 2]; 3], e: &[[f32; 2]; 3]) -> [[f32; 2]; 3] {
    let mut out = [[0.0f32; 2]; 3];
    for (((o, c), t), e) in out.iter_mut().zip(c).zip(t).zip(e) {
        for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
            *o = if c { t } else { e };
        }
    }
    out
}

/// X4: select, all three `[2, 3, 4]`.
#[inline(never)]
pub fn x4_ours(
    c: &Tensor<bool, shape![2, 3, 4]>,
    t: &Tensor<f32, shape![2, 3, 4]>,
    e: &Tensor<f32, shape![2, 3, 4]>,
) -> Tensor<f32, shape![2, 3, 4]> {
    select(c, t, e, Numpy)
}

/// X4 by hand.
#[inline(never)]
pub fn x4_hand(
    c: &[[[bool; 4]; 3]; 2],
    t: &[[[f32; 4]; 3]; 2],
    e: &[[[f32; 4]; 3]; 2],
) -> [[[f32; 4]; 3]; 2] {
    let mut out = [[[0.0f32; 4]; 3]; 2];
    for (((oa, ca), ta), ea) in out.iter_mut().zip(c).zip(t).zip(e) {
        for (((ob, cb), tb), eb) in oa.iter_mut().zip(ca).zip(ta).zip(ea) {
            for (((o, &c), &t), &e) in ob.iter_mut().zip(cb).zip(tb).zip(eb) {
                *o = if c { t } else { e };
            }
        }
    }
    out
}

/// X5: select, then `[2, 3, 4]`, cond `[3, 1]`, a scalar else.
#[inline(never)]
pub fn x5_ours(
    c: &Tensor<bool, shape![3, 1]>,
    t: &Tensor<f32, shape![2, 3, 4]>,
    e: &Tensor<f32, shape![]>,
) -> Tensor<f32, shape![2, 3, 4]> {
    select(c, t, e, Numpy)
}

/// X5 by hand.
#[inline(never)]
pub fn x5_hand(c: &[[bool; 1]; 3], t: &[[[f32; 4]; 3]; 2], e: f32) -> [[[f32; 4]; 3]; 2] {
    let mut out = [[[0.0f32; 4]; 3]; 2];
    for (oa, ta) in out.iter_mut().zip(t) {
        for ((ob, &[cb]), tb) in oa.iter_mut().zip(c).zip(ta) {
            for (o, &t) in ob.iter_mut().zip(tb) {
                *o = if cb { t } else { e };
            }
        }
    }
    out
}

/// M2: multiplex of 4 candidates `[4, 4]` by an index `[4, 1]` (its
/// `Result`: the index values are checked).
#[inline(never)]
pub fn m2_ours(
    inputs: &[Tensor<f32, shape![4, 4]>; 4],
    index: &Tensor<i32, shape![4, 1]>,
) -> Option<Tensor<f32, shape![4, 4]>> {
    multiplex(inputs, index).run().ok()
}

/// M2 by hand, with the same index check.
#[inline(never)]
pub fn m2_hand(cands: &[[[f32; 4]; 4]; 4], idx: &[[i32; 1]; 4]) -> Option<[[f32; 4]; 4]> {
    let mut out = [[0.0f32; 4]; 4];
    for (row, (o, &[k])) in out.iter_mut().zip(idx).enumerate() {
        *o = cands.get(usize::try_from(k).ok()?)?[row];
    }
    Some(out)
}

/// F3: `relu(a * b + d)`, `[2, 3, 4, 5] x [3, 4, 1] + [5]`, fused.
#[inline(never)]
pub fn f3_ours(
    a: &Tensor<f32, shape![2, 3, 4, 5]>,
    b: &Tensor<f32, shape![3, 4, 1]>,
    d: &Tensor<f32, shape![5]>,
) -> Tensor<f32, shape![2, 3, 4, 5]> {
    (a.lazy() * b + d).relu().eval()
}

/// F3 by hand.
#[inline(never)]
pub fn f3_hand(
    a: &[[[[f32; 5]; 4]; 3]; 2],
    b: &[[[f32; 1]; 4]; 3],
    d: &[f32; 5],
) -> [[[[f32; 5]; 4]; 3]; 2] {
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
}
