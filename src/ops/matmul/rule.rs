//! Matmul's shape rule, written once (see the [module docs](super) for the
//! rule in words): [`frame`] takes the transpose flags and the dims of x and
//! y and returns the output dims with everything the kernel needs (the
//! broadcast batch dims, M, K, N and how x and y are read), or the
//! [`MatmulError`] of the first rule broken.
//!
//! It is a `const fn`: the dynamic path calls it at run time, and a static
//! matmul calls it at compile time on its shape types' dims (the kernel's
//! plan is then a constant). How each rank is read (vector, matrix, batch
//! dims) and where the batch dims go is `shapecheck_rules::matmul`, the
//! functions the macro crate tabulates for the type-level form in
//! `bounds.rs` (which exists only for the compile errors).

use super::MatmulError;
use crate::broadcast::{place, Frame};
use crate::dims::{Dims, MAX_RANK};
use shapecheck_rules::matmul::{batch, batch_rank, operand, Operand as Read};

/// A matmul planned from its shapes: the output dims, the batch dims placed
/// in one frame, and each operand's matrix read as `M × K` (x) and `K × N`
/// (y) through strides (a transpose swaps them; a vector has one dim).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MatmulFrame {
    /// The output's dims.
    pub(crate) out: Dims,
    /// The batch dims: the output's (`out` of the frame) and x's and y's
    /// placed in it (`ops[0]`, `ops[1]`, 1 where an operand has none).
    pub(crate) batch: Frame<2>,
    /// Rows of x (1 for a vector), the contracted dim, columns of y (1 for a vector).
    pub(crate) m: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
    /// x's element `(i, k)` of one matrix is at `i * x_i + k * x_k`.
    pub(crate) x_i: usize,
    pub(crate) x_k: usize,
    /// y's element `(k, j)` of one matrix is at `k * y_k + j * y_j`.
    pub(crate) y_k: usize,
    pub(crate) y_j: usize,
    /// The element count of one matrix of x and of y (their last two dims,
    /// or the vector).
    pub(crate) x_mat: usize,
    pub(crate) y_mat: usize,
    /// The element counts of x, y and the output (`None` if one overflows):
    /// what the kernel checks its slices against.
    pub(crate) lens: [Option<usize>; 3],
}

/// The element count of `dims`, `None` if it overflows (a 0 anywhere: 0).
// Every index below is guarded by the slice's length.
#[allow(clippy::indexing_slicing)]
const fn numel(dims: &[usize]) -> Option<usize> {
    let mut i = 0;
    while i < dims.len() {
        if dims[i] == 0 {
            return Some(0);
        }
        i += 1;
    }
    let (mut acc, mut i) = (1usize, 0);
    while i < dims.len() {
        acc = match acc.checked_mul(dims[i]) {
            Some(v) => v,
            None => return None,
        };
        i += 1;
    }
    Some(acc)
}

/// One operand seen as a matrix: its batch dims' count, rows, cols and the
/// strides of its rows and cols (after the transpose), its matrix size.
struct Operand {
    batch: usize,
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
    size: usize,
}

/// A matrix operand (rank 2 or more) under a transpose flag.
// Every index below is guarded by `2 <= d.len()`.
#[allow(clippy::indexing_slicing)]
const fn matrix(d: &[usize], transpose: bool) -> Operand {
    // the matrix: the two dims after the batch dims
    let at = batch_rank(d.len());
    let (a, b) = (d[at], d[at + 1]);
    if transpose {
        Operand {
            batch: at,
            rows: b,
            cols: a,
            row_stride: 1,
            col_stride: b,
            size: a.saturating_mul(b),
        }
    } else {
        Operand {
            batch: at,
            rows: a,
            cols: b,
            row_stride: b,
            col_stride: 1,
            size: a.saturating_mul(b),
        }
    }
}

/// Where an operand's inner dim is, for the error: x's is its last unless
/// transposed, y's its second-to-last unless transposed (a vector's one dim
/// is its last).
const fn at(last: bool) -> &'static str {
    if last {
        "last"
    } else {
        "second-to-last"
    }
}

/// Paddle's `matmul(x, y, transpose_x, transpose_y)`: the frame of x and y.
// Every index below is guarded by `< batch rank <= MAX_RANK`.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn frame(
    transpose_x: bool,
    transpose_y: bool,
    x: &[usize],
    y: &[usize],
) -> Result<MatmulFrame, MatmulError> {
    let (xd, yd) = match (Dims::new(x), Dims::new(y)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return Err(MatmulError::Shape(e)),
    };
    let (read_x, read_y) = (operand(x.len()), operand(y.len()));
    if matches!(read_x, Read::Scalar) || matches!(read_y, Read::Scalar) {
        return Err(MatmulError::Rank { x: xd, y: yd });
    }
    let (x_vector, y_vector) = (
        matches!(read_x, Read::Vector),
        matches!(read_y, Read::Vector),
    );
    // x [K] is a row [1, K], y [K] a column [K, 1]; their flags are ignored
    let xm = if x_vector {
        Operand {
            batch: 0,
            rows: 1,
            cols: x[0],
            row_stride: 0,
            col_stride: 1,
            size: x[0],
        }
    } else {
        matrix(x, transpose_x)
    };
    // y as K × N: its rows are the contracted dim
    let ym = if y_vector {
        Operand {
            batch: 0,
            rows: y[0],
            cols: 1,
            row_stride: 1,
            col_stride: 0,
            size: y[0],
        }
    } else {
        matrix(y, transpose_y)
    };
    if xm.cols != ym.rows {
        return Err(MatmulError::Inner {
            x: xd,
            y: yd,
            x_at: at(x_vector || !transpose_x),
            y_at: at(y_vector || transpose_y),
            x_dim: xm.cols,
            y_dim: ym.rows,
        });
    }
    // the batch dims, right-aligned; each pair equal or one of them 1
    let (xb, yb) = (x.split_at(xm.batch).0, y.split_at(ym.batch).0);
    let aligned = batch(x.len(), y.len());
    let r = aligned.frame;
    let ops = [place(xb, aligned.x.at, r), place(yb, aligned.y.at, r)];
    let mut out_batch = [1usize; MAX_RANK];
    let mut p = 0;
    while p < r {
        let (a, b) = (ops[0][p], ops[1][p]);
        if a != b && a != 1 && b != 1 {
            return Err(MatmulError::Batch {
                x: xd,
                y: yd,
                position: p,
                x_dim: a,
                y_dim: b,
            });
        }
        out_batch[p] = if a == 1 { b } else { a };
        p += 1;
    }
    // the output: the batch dims, then M unless x is a vector, N unless y is
    let mut out = out_batch;
    let mut rank = r;
    if !x_vector {
        out[rank] = xm.rows;
        rank += 1;
    }
    if !y_vector {
        out[rank] = ym.cols;
        rank += 1;
    }
    let out = Dims::from_frame(rank, &out);
    Ok(MatmulFrame {
        lens: [numel(x), numel(y), numel(out.as_slice())],
        out,
        batch: Frame {
            rank: r,
            out: out_batch,
            ops,
            at: [aligned.x.at, aligned.y.at],
        },
        m: xm.rows,
        k: xm.cols,
        n: ym.cols,
        x_i: xm.row_stride,
        x_k: xm.col_stride,
        y_k: ym.row_stride,
        y_j: ym.col_stride,
        x_mat: xm.size,
        y_mat: ym.size,
    })
}

/// The output dims of `matmul(x, y, transpose_x, transpose_y)`, checking
/// every rule.
///
/// ```
/// use shapecheck::ops::matmul::matmul_output_dims;
/// // Paddle's docstring: batch dims broadcast, ranks may differ
/// assert_eq!(matmul_output_dims(&[2, 1, 3, 4], &[5, 4, 6], false, false).unwrap().as_slice(), &[2, 5, 3, 6]);
/// // a vector's transpose flag is ignored; vector · vector is 0-d
/// assert_eq!(matmul_output_dims(&[3], &[3, 4], true, false).unwrap().as_slice(), &[4]);
/// assert_eq!(matmul_output_dims(&[3], &[3], false, false).unwrap().rank(), 0);
/// assert_eq!(matmul_output_dims(&[], &[2, 2], false, false).unwrap_err().rule(), "matmul/rank");
/// ```
pub fn matmul_output_dims(
    x: &[usize],
    y: &[usize],
    transpose_x: bool,
    transpose_y: bool,
) -> Result<Dims, MatmulError> {
    Ok(frame(transpose_x, transpose_y, x, y)?.out)
}
