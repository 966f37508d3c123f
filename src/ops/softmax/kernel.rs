//! The softmax loops, written once ([`softmax_into`]): numerically stable,
//! each row (the elements along the axis) in three passes: its max, the
//! sum of `exp(x - max)` (written to the output), then the scale (softmax:
//! divide by the sum; log_softmax: `x - max - ln(sum)`). Rows along the
//! last axis are contiguous; along another axis the same passes run over
//! `inner` columns side by side, row by row, so they stay contiguous too.

use super::rule::{plan, SoftmaxPlan};
use super::{SoftmaxElement, SoftmaxError, SoftmaxKind};
use crate::dims::Dims;

/// softmax or log_softmax of `x` under the plan into `out` (x's count).
pub(crate) fn softmax_into<T: SoftmaxElement>(
    p: &SoftmaxPlan,
    kind: SoftmaxKind,
    x: &[T],
    out: &mut [T],
) {
    let (n, inner) = (p.n, p.inner);
    let block = n * inner;
    if block == 0 {
        return;
    }
    for (xs, os) in x.chunks_exact(block).zip(out.chunks_exact_mut(block)) {
        if inner == 1 {
            row(kind, xs, os);
        } else {
            columns(kind, xs, os, inner);
        }
    }
}

/// One contiguous row, in passes the compiler vectorises: the max (eight
/// lanes), `exp(x - max)` into the output, its sum (eight lanes), the scale.
#[inline(always)]
fn row<T: SoftmaxElement>(kind: SoftmaxKind, xs: &[T], os: &mut [T]) {
    let max = lanes(xs, T::neg_infinity(), |m, v| if v > m { v } else { m });
    for (o, &v) in os.iter_mut().zip(xs) {
        *o = (v - max).exp_nonpositive();
    }
    let sum = lanes(os, T::zero(), |a, b| a + b);
    match kind {
        SoftmaxKind::Softmax => {
            for o in os.iter_mut() {
                *o = *o / sum;
            }
        }
        SoftmaxKind::LogSoftmax => {
            let shift = max + sum.ln();
            for (o, &v) in os.iter_mut().zip(xs) {
                *o = v - shift;
            }
        }
    }
}

/// `f` over a row with eight accumulators started at `init`, merged at the end.
#[inline(always)]
fn lanes<T: Copy>(row: &[T], init: T, f: impl Fn(T, T) -> T) -> T {
    let mut acc = [init; 8];
    let mut chunks = row.chunks_exact(8);
    for c in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a = f(*a, v);
        }
    }
    let [a0, a1, a2, a3, a4, a5, a6, a7] = acc;
    let mut r = f(f(f(a0, a4), f(a1, a5)), f(f(a2, a6), f(a3, a7)));
    for &v in chunks.remainder() {
        r = f(r, v);
    }
    r
}

/// `inner` columns of `n` rows each (`xs` is `[n, inner]`), side by side:
/// the max and the sum of each column are kept in the output's first and
/// last rows while the passes run, then the scale overwrites them.
fn columns<T: SoftmaxElement>(kind: SoftmaxKind, xs: &[T], os: &mut [T], inner: usize) {
    // pass 1: each column's max, in the output's first row
    let Some((first, rest)) = os.split_at_mut_checked(inner) else {
        return;
    };
    first.fill(T::neg_infinity());
    for xr in xs.chunks_exact(inner) {
        for (m, &v) in first.iter_mut().zip(xr) {
            if v > *m {
                *m = v;
            }
        }
    }
    // pass 2: exp(x - max) into the rows after the first, the sums kept
    // apart in the first row's place once its max is read
    let mut maxes = xs.chunks_exact(inner);
    let Some(x0) = maxes.next() else { return };
    for (orow, xr) in rest.chunks_exact_mut(inner).zip(maxes) {
        for ((o, &v), &m) in orow.iter_mut().zip(xr).zip(first.iter()) {
            *o = (v - m).exp_nonpositive();
        }
    }
    // the first row: sum = exp(x0 - max) + the rest; the max is still needed
    // for log_softmax, so it is kept as `shift` per column in place
    for (j, (m, &v)) in first.iter_mut().zip(x0).enumerate() {
        let mut s = (v - *m).exp_nonpositive();
        for r in rest.chunks_exact(inner) {
            if let Some(&e) = r.get(j) {
                s = s + e;
            }
        }
        let e0 = (v - *m).exp_nonpositive();
        *m = match kind {
            // the first row's value; the sum is re-derived below as e0 / out0
            SoftmaxKind::Softmax => {
                for r in rest.chunks_exact_mut(inner) {
                    if let Some(o) = r.get_mut(j) {
                        *o = *o / s;
                    }
                }
                e0 / s
            }
            SoftmaxKind::LogSoftmax => {
                let shift = *m + s.ln();
                for (r, xr) in rest
                    .chunks_exact_mut(inner)
                    .zip(xs.chunks_exact(inner).skip(1))
                {
                    if let (Some(o), Some(&xv)) = (r.get_mut(j), xr.get(j)) {
                        *o = xv - shift;
                    }
                }
                v - shift
            }
        };
    }
}

/// The dynamic path over slices: softmax or log_softmax of x (`x_dims`,
/// `x`) along `axis` into `out` (x's count); returns the output dims.
///
/// ```
/// use shapecheck::ops::softmax::{softmax_slices, SoftmaxKind};
/// let x = [0.0f64, 0.0, 1.0, 1.0];
/// let mut out = [0.0; 4];
/// softmax_slices(SoftmaxKind::Softmax, &[2, 2], &x, 1, &mut out).unwrap();
/// assert_eq!(out, [0.5; 4]);
/// ```
pub fn softmax_slices<T: SoftmaxElement>(
    kind: SoftmaxKind,
    x_dims: &[usize],
    x: &[T],
    axis: isize,
    out: &mut [T],
) -> Result<Dims, SoftmaxError> {
    let p = plan(x_dims, axis)?;
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(x_dims, out.len())?;
    softmax_into(&p, kind, x, out);
    Ok(p.x)
}
