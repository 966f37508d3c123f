//! Matmul's kernel: the loops over a [`MatmulFrame`], written once, and
//! [`matmul_slices`] (the dynamic path over slices, no heap).
//!
//! Every form of the op ends in [`apply`]: it checks the three lengths
//! against the frame (nothing is written before), then multiplies each
//! batch's matrices. The loop order is i-k-j where y's rows are contiguous
//! (y not transposed): `out[i, ..] += x[i, k] * y[k, ..]` streams a row of y
//! into a row of the output, which the compiler vectorises. Where y is read
//! by columns (transposed, or a vector), it is i-j-k: a dot product of x's
//! row with y's contiguous column.

use super::rule::{self, MatmulFrame};
use super::MatmulError;
use crate::dims::{Dims, ShapeError, MAX_RANK};
use crate::element::Element;
use crate::kernel::SPEED_OVER_SIZE;

/// The offsets of batch `b`'s matrices of x and y: `b` read as an index of
/// the output's batch dims, each operand's batch dim of 1 repeated.
// Every index below is guarded by `< f.batch.rank <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
#[inline(always)]
pub(super) fn offsets(f: &MatmulFrame, mut b: usize) -> (usize, usize) {
    let fr = &f.batch;
    let (mut xs, mut ys) = (f.x_mat, f.y_mat);
    let (mut xo, mut yo) = (0, 0);
    let mut p = fr.rank.min(MAX_RANK);
    while p > 0 {
        p -= 1;
        let d = fr.out[p];
        let i = b.checked_rem(d).unwrap_or(0);
        b = b.checked_div(d).unwrap_or(0);
        let (dx, dy) = (fr.ops[0][p], fr.ops[1][p]);
        if dx != 1 {
            xo += i * xs;
        }
        if dy != 1 {
            yo += i * ys;
        }
        xs *= dx;
        ys *= dy;
    }
    (xo, yo)
}

/// One matrix product: `out` (`m × n`, row-major) = `x` (`m × k` read
/// through `x_i`, `x_k`) times `y` (`k × n` read through `y_k`, `y_j`).
/// `out` is written whole (zeros where `k` is 0); `n >= 1` and every index
/// lies inside `x` and `y` (the caller checked the lengths).
#[inline(always)]
fn matrix<T: Element>(f: &MatmulFrame, x: &[T], y: &[T], out: &mut [T]) {
    let (k, n) = (f.k, f.n);
    if cfg!(feature = "matrixmultiply")
        && f.m.saturating_mul(k).saturating_mul(n) >= GEMM_MIN
        && T::gemm([f.m, k, n], x, [f.x_i, f.x_k], y, [f.y_k, f.y_j], out)
    {
        return;
    }
    if k > 0 && f.y_j == 1 && f.y_k == n && f.x_k == 1 && (f.m == 1 || f.x_i == k) {
        if !SPEED_OVER_SIZE {
            // dot products (i-j-k): each output element summed in a
            // register and stored once, no fill and no output traffic in
            // the loop; y's column read with stride n. The smallest code
            // (the Cortex-M cores). Not on the x86-64 host, not even for
            // one row of x: its strided columns do not vectorise, and
            // `[1,16] x [16,16]` took 48.8 ns against the i-k-j loop's
            // 10.2 (`cargo bench -p shapecheck-benches --bench core --
            // SMV`). The same sums in the same (k) order as the i-k-j loop
            // below: the same bits.
            for (row, xrow) in out.chunks_exact_mut(n).zip(x.chunks_exact(k)) {
                for (j, o) in row.iter_mut().enumerate() {
                    let col = y.get(j..).unwrap_or(&[]).iter().step_by(n);
                    *o = xrow
                        .iter()
                        .zip(col)
                        .fold(T::default(), |acc, (&a, &b)| T::add(acc, T::mul(a, b)));
                }
            }
            return;
        }
        // neither operand transposed (the common case): x's rows and y's
        // rows as chunks, no index computed in the loops
        for (row, xrow) in out.chunks_exact_mut(n).zip(x.chunks_exact(k)) {
            row.fill(T::default());
            for (&a, yrow) in xrow.iter().zip(y.chunks_exact(n)) {
                for (o, &b) in row.iter_mut().zip(yrow) {
                    *o = T::add(*o, T::mul(a, b));
                }
            }
        }
        return;
    }
    for (i, row) in out.chunks_exact_mut(n).enumerate() {
        let xi = i * f.x_i;
        let a = |kk: usize| x.get(xi + kk * f.x_k).copied().unwrap_or_default();
        if f.y_j == 1 {
            // i-k-j: y's row `kk` is `y[kk * y_k ..][..n]`, streamed into
            // the output's row
            row.fill(T::default());
            for kk in 0..k {
                let (a, yrow) = (a(kk), y.get(kk * f.y_k..).unwrap_or(&[]));
                for (o, &b) in row.iter_mut().zip(yrow) {
                    *o = T::add(*o, T::mul(a, b));
                }
            }
        } else {
            // i-j-k: y's column `j` is `y[j * y_j ..][..k]` (y_k is 1)
            if f.x_k == 1 {
                // x's row is contiguous too: dot products of slices, four
                // columns of y at a time where they are adjacent (y
                // transposed), four independent sums (each still in k order)
                let xrow = x.get(xi..xi + k).unwrap_or(&[]);
                let mut done = 0;
                if k > 0 && f.y_j == k {
                    let mut outs = row.chunks_exact_mut(4);
                    for (o4, c4) in (&mut outs).zip(y.chunks_exact(4 * k)) {
                        let Some((c0, rest)) = c4.split_at_checked(k) else {
                            break;
                        };
                        let Some((c1, rest)) = rest.split_at_checked(k) else {
                            break;
                        };
                        let Some((c2, c3)) = rest.split_at_checked(k) else {
                            break;
                        };
                        let mut acc = [T::default(); 4];
                        for ((((&a, &b0), &b1), &b2), &b3) in
                            xrow.iter().zip(c0).zip(c1).zip(c2).zip(c3)
                        {
                            acc = [
                                T::add(acc[0], T::mul(a, b0)),
                                T::add(acc[1], T::mul(a, b1)),
                                T::add(acc[2], T::mul(a, b2)),
                                T::add(acc[3], T::mul(a, b3)),
                            ];
                        }
                        o4.copy_from_slice(&acc);
                        done += 4;
                    }
                }
                for (j, o) in row.iter_mut().enumerate().skip(done) {
                    let col = y.get(j * f.y_j..).unwrap_or(&[]);
                    *o = xrow
                        .iter()
                        .zip(col)
                        .take(k)
                        .fold(T::default(), |acc, (&a, &b)| T::add(acc, T::mul(a, b)));
                }
                continue;
            }
            for (j, o) in row.iter_mut().enumerate() {
                let col = y.get(j * f.y_j..).unwrap_or(&[]);
                let mut acc = T::default();
                for (kk, &b) in col.iter().take(k).enumerate() {
                    acc = T::add(acc, T::mul(a(kk), b));
                }
                *o = acc;
            }
        }
    }
}

/// Feature `matrixmultiply`: the multiply-adds (M · K · N) from which an
/// f32/f64 matrix goes to matrixmultiply, 64³. Not a speed threshold: on
/// the x86-64 host it is ahead from 8³ (0.1 against 0.3 µs; 64³ 5.4
/// against 21 µs; 512³ 2.5 against 9.5 ms). Below it the loops here keep
/// what the crate gives up: no allocation (it allocates a packing buffer
/// on every call), and sums in k order, the same bits as the conformance
/// vectors' (its blocked kernel sums in another order: equal within float
/// rounding only). A product below 64³ costs at most about 20 µs here.
const GEMM_MIN: usize = 64 * 64 * 64;

/// The static path's last step: the frame is a constant of the shape types
/// and every slice has its type's length (views and buffers are checked
/// when they are made), so nothing is checked here; the loops read and
/// write through `get` and chunks, so a wrong length could not read or
/// write out of bounds. Inlined whole, so that the constant frame picks
/// the loop and sizes it, and the other loops are not compiled.
#[inline(always)]
pub(super) fn apply_known<T: Element>(f: &MatmulFrame, x: &[T], y: &[T], out: &mut [T]) {
    let size = f.m * f.n;
    if size == 0 {
        return;
    }
    for (b, o) in out.chunks_exact_mut(size).enumerate() {
        let (xo, yo) = offsets(f, b);
        let (xm, ym) = (
            x.get(xo..xo + f.x_mat).unwrap_or(&[]),
            y.get(yo..yo + f.y_mat).unwrap_or(&[]),
        );
        matrix(f, xm, ym, o);
    }
}

/// Every form's last step: checks the lengths of x, y and `out` against the
/// frame (nothing is written if one is wrong), then runs the loops.
/// Inlined, so that a static matmul's constant frame sizes the loops.
#[inline(always)]
pub(super) fn apply<T: Element>(
    f: &MatmulFrame,
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    out: &mut [T],
) -> Result<Dims, MatmulError> {
    if f.lens != [Some(x.len()), Some(y.len()), Some(out.len())] {
        // the error names the first wrong one (the frame's counts are the dims')
        Dims::for_data(x_dims, x.len())?;
        Dims::for_data(y_dims, y.len())?;
        Dims::for_data(&f.out, out.len())?;
        // not reached (the frame's counts are its dims'): still no write
        return Err(MatmulError::Shape(ShapeError::DataLength {
            shape: f.out,
            numel: f.lens[2].unwrap_or(0),
            len: out.len(),
        }));
    }
    let size = f.m * f.n;
    if size == 0 {
        // no element to write (M, N or a batch dim is 0)
        return Ok(f.out);
    }
    for (b, o) in out.chunks_exact_mut(size).enumerate() {
        let (xo, yo) = offsets(f, b);
        let (xm, ym) = (
            x.get(xo..xo + f.x_mat).unwrap_or(&[]),
            y.get(yo..yo + f.y_mat).unwrap_or(&[]),
        );
        matrix(f, xm, ym, o);
    }
    Ok(f.out)
}

/// The dynamic path without a heap: `out = matmul(x, y, transpose_x,
/// transpose_y)` (Paddle's rule), shapes given as values. `out` must hold
/// exactly the output's element count
/// ([`matmul_output_dims`](super::matmul_output_dims) tells it). Returns the
/// output dims.
///
/// ```
/// use shapecheck::ops::matmul::matmul_slices;
/// let x = [1, 2, 3, 4, 5, 6]; // [2, 3]
/// let y = [1, 0, 1];          // [3]: a column
/// let mut out = [0; 2];
/// let dims = matmul_slices(&[2, 3], &x, &[3], &y, false, false, &mut out).unwrap();
/// assert_eq!((dims.as_slice(), out), (&[2][..], [4, 10]));
/// let err = matmul_slices(&[2, 3], &x, &[2], &y[..2], false, false, &mut out).unwrap_err();
/// assert_eq!(err.rule(), "matmul/inner");
/// ```
#[allow(clippy::too_many_arguments)]
pub fn matmul_slices<T: Element>(
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    transpose_x: bool,
    transpose_y: bool,
    out: &mut [T],
) -> Result<Dims, MatmulError> {
    let f = rule::frame(transpose_x, transpose_y, x_dims, y_dims)?;
    apply(&f, x_dims, x, y_dims, y, out)
}
