//! The nanosecond workloads S1, S2, X4, X5 and M2: their inputs and the
//! loops a person would write over nested arrays, shared by their criterion
//! groups (`benches/ops.rs`) and their interleaved timing
//! (`benches/small.rs`), so that both time the same code.

use shapecheck::prelude::*;

use crate::data;

/// S1's x, `[2, 3, 4, 5]` inline.
pub type S1X = Tensor<f32, shape![2, 3, 4, 5]>;
/// S1's y, `[3, 4]` inline.
pub type S1Y = Tensor<f32, shape![3, 4]>;
/// S2's cond, `[3, 2]` inline.
pub type S2Cond = Tensor<bool, shape![3, 2]>;
/// S2's then and else, `[3, 2]` inline.
pub type S2Values = Tensor<f32, shape![3, 2]>;
/// X4's cond, `[2, 3, 4]` inline.
pub type X4Cond = Tensor<bool, shape![2, 3, 4]>;
/// X4's then and else (X5's then), `[2, 3, 4]` inline.
pub type X4Values = Tensor<f32, shape![2, 3, 4]>;
/// X5's cond, `[3, 1]` inline.
pub type X5Cond = Tensor<bool, shape![3, 1]>;
/// X5's else, a scalar.
pub type X5Else = Tensor<f32, shape![]>;
/// M2's candidates, `[4, 4]` inline.
pub type M2Candidate = Tensor<f32, shape![4, 4]>;
/// M2's index, `[4, 1]` inline.
pub type M2Index = Tensor<i32, shape![4, 1]>;

/// S1's operands: x `[2, 3, 4, 5]` and y `[3, 4]`, inline.
pub fn s1_inputs() -> (S1X, S1Y) {
    let x = Tensor::from_slice(&data(120, 4)).unwrap();
    let y = Tensor::from_slice(&data(12, 5)).unwrap();
    (x, y)
}

/// S1 by hand: `out[i][j][k][l] = x[i][j][k][l] * y[j][k]`.
#[inline]
pub fn hand_s1(x: &[[[[f32; 5]; 4]; 3]; 2], y: &[[f32; 4]; 3]) -> [[[[f32; 5]; 4]; 3]; 2] {
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

/// S2's operands: OpenVINO's Select-1 example (cond, then, else `[3, 2]`).
pub fn s2_inputs() -> (S2Cond, S2Values, S2Values) {
    let cond = S2Cond::from_array([[false, false], [true, false], [true, true]]);
    let t = S2Values::from_array([[-1.0, 0.0], [1.0, 2.0], [3.0, 4.0]]);
    let e = S2Values::from_array([[11.0, 10.0], [9.0, 8.0], [7.0, 6.0]]);
    (cond, t, e)
}

/// S2 by hand: `if c { t } else { e }` element by element.
#[inline]
pub fn hand_s2(c: &[[bool; 2]; 3], t: &[[f32; 2]; 3], e: &[[f32; 2]; 3]) -> [[f32; 2]; 3] {
    let mut out = [[0.0f32; 2]; 3];
    for (((o, c), t), e) in out.iter_mut().zip(c).zip(t).zip(e) {
        for (((o, &c), &t), &e) in o.iter_mut().zip(c).zip(t).zip(e) {
            *o = if c { t } else { e };
        }
    }
    out
}

/// X4's and X5's operands: cond, then and else `[2, 3, 4]` (X4); cond
/// `[3, 1]` and else a scalar, -1.5 (X5, with X4's then).
pub fn x4_x5_inputs() -> (X4Cond, X4Values, X4Values, X5Cond, X5Else) {
    let cond = Tensor::from_fn(|i| (i[0] + 2 * i[1] + i[2]) % 3 == 0);
    let t = Tensor::from_fn(|i| (i[0] * 12 + i[1] * 4 + i[2]) as f32);
    let e = Tensor::from_fn(|i| -((i[0] + i[1] + i[2]) as f32));
    let cond_col = Tensor::from_array([[true], [false], [true]]);
    (cond, t, e, cond_col, Tensor::full(-1.5))
}

/// X4 by hand: `if c { t } else { e }`, all three `[2, 3, 4]`.
#[inline]
pub fn hand_x4(
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

/// X5 by hand: cond `[3, 1]` along the middle dim, else the scalar `e`.
#[inline]
pub fn hand_x5(c: &[[bool; 1]; 3], t: &[[[f32; 4]; 3]; 2], e: f32) -> [[[f32; 4]; 3]; 2] {
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

/// M2's operands: 4 candidates `[4, 4]` (candidate k's element `(i, j)` is
/// `16k + 4i + j`) and the index `[[3], [0], [1], [2]]`.
pub fn m2_inputs() -> ([M2Candidate; 4], M2Index) {
    let inputs = core::array::from_fn(|k| Tensor::from_fn(|i| (k * 16 + i[0] * 4 + i[1]) as f32));
    (inputs, Tensor::from_array([[3], [0], [1], [2]]))
}

/// M2 by hand: row `r` of candidate `index[r]` (an index value out of range
/// panics).
#[inline]
pub fn hand_m2(cands: &[[[f32; 4]; 4]; 4], idx: &[[i32; 1]; 4]) -> [[f32; 4]; 4] {
    let mut out = [[0.0f32; 4]; 4];
    for (row, (o, &[k])) in out.iter_mut().zip(idx).enumerate() {
        *o = cands[k as usize][row];
    }
    out
}

/// [`hand_m2`] with the op's contract: an index value out of range is an
/// error and nothing is returned.
#[inline]
pub fn hand_m2_checked(cands: &[[[f32; 4]; 4]; 4], idx: &[[i32; 1]; 4]) -> Option<[[f32; 4]; 4]> {
    let mut out = [[0.0f32; 4]; 4];
    for (row, (o, &[k])) in out.iter_mut().zip(idx).enumerate() {
        *o = cands.get(usize::try_from(k).ok()?)?[row];
    }
    Some(out)
}
