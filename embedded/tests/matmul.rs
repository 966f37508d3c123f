//! Paddle's `matmul` on the target, through the static API (views over the
//! vectors' data in flash into a caller's buffer with `matmul_into`, views
//! and inline operands to an inline result with `matmul` / `matmul_t`):
//! plain, transposed, vector on either side, vector · vector (0-d),
//! broadcast and ranks that differ, K = 0, and one of the integer cases
//! Paddle's own kernel crashed on. Run-time (`Dyn`) dims go through
//! `try_matmul_into` (a caller's buffer, no heap): accepted cases, and
//! rejected ones as a typed error with the buffer untouched; the no-heap
//! dynamic path (`matmul_slices`) the same. Expected values: the recorded
//! PaddlePaddle 3.3.1 outputs of tests/vectors/core/matmul.json (embedded by
//! build.rs); the values are small integers or halves, so every result is
//! exact and compared bit for bit.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::ops::matmul::matmul_slices;
use shapecheck::prelude::*;
use shapecheck::{MatmulError, NoTrans, Trans};
use shapecheck_embedded::vectors::matmul::*;
use shapecheck_embedded::{Checks, Sentinel};

// vector: MAT2D = core/matmul matmul_mat2d#0
// vector: MAT2D_TT = core/matmul matmul_mat2d#2
// vector: MAT2D_NT = core/matmul matmul_mat2d#16
// vector: MAT2D_TN = core/matmul matmul_mat2d#7
// vector: VEC_LEFT = core/matmul matmul_vec_left#4
// vector: VEC_RIGHT = core/matmul matmul_vec_right#5
// vector: VEC_VEC = core/matmul matmul_vec_vec#4
// vector: BCAST = core/matmul matmul_bcast#12
// vector: BATCHED = core/matmul matmul_batched#10
// vector: RANK_MIX = core/matmul matmul_rank_mix#6
// vector: K_ZERO = core/matmul matmul_zero_size#1
// vector: INT_CRASHED = core/matmul matmul_int_bcast_rank_mix#3
// vector: BAD_INNER = core/matmul matmul_bad_inner#5
// vector: BAD_BATCH = core/matmul matmul_bad_batch#2
// vector: BAD_INNER_VEC = core/matmul matmul_bad_inner_vec#0

/// A matmul case through the static API, three ways (see the file's doc).
/// `mm!(c, CASE: T, x [..], y [..] -> [..], MarkerX = flag, MarkerY = flag)`.
macro_rules! mm {
    ($c:ident, $case:ident : $T:ty, x [$($x:tt)*], y [$($y:tt)*] -> [$($o:tt)*],
     $tx:ident = $txb:literal, $ty:ident = $tyb:literal) => {{
        type X = shape![$($x)*];
        type Y = shape![$($y)*];
        type O = shape![$($o)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == "matmul"
                && $case::ERROR.is_none()
                && $case::TRANSPOSE_X == $txb
                && $case::TRANSPOSE_Y == $tyb
                && $case::OUT.dims == <O as FixedShape>::DIMS,
            what,
        );
        let want: &[$T] = $case::OUT.data;
        let x = $c.some($case::X.view::<X>(), what);
        let y = $c.some($case::Y.view::<Y>(), what);
        if let (Some(x), Some(y)) = (x, y) {
            let mut buf = [<$T as Sentinel>::SENTINEL; <O as FixedShape>::NUMEL];
            match Tensor::<$T, O, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => x.matmul_into(&y, $tx, $ty, &mut out),
                Err(_) => $c.check(false, what),
            }
            $c.eq(&buf, want, what);
            let z: Tensor<$T, O> = x.matmul_t(&y, $tx, $ty);
            $c.eq(z.as_slice(), want, what);
        }
        let x = $c.some($case::X.inline::<X>(), what);
        let y = $c.some($case::Y.inline::<Y>(), what);
        if let (Some(x), Some(y)) = (x, y) {
            let z: Tensor<$T, O> = x.matmul_t(&y, $tx, $ty);
            $c.eq(z.as_slice(), want, what);
        }
    }};
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("matmul");

    // [3, 5] x [5, 4]
    mm!(c, mat2d: f32, x [3, 5], y [5, 4] -> [3, 4], NoTrans = false, NoTrans = false);
    // the plain spelling of the same
    if let (Some(x), Some(y)) = (
        mat2d::X.view::<shape![3, 5]>(),
        mat2d::Y.view::<shape![5, 4]>(),
    ) {
        let z: Tensor<f32, shape![3, 4]> = x.matmul(&y);
        c.eq(z.as_slice(), mat2d::OUT.data, "mat2d matmul");
    } else {
        c.check(false, "mat2d views");
    }
    // both transposed: [2, 4]ᵀ x [3, 2]ᵀ -> [4, 3]
    mm!(c, mat2d_tt: f32, x [2, 4], y [3, 2] -> [4, 3], Trans = true, Trans = true);
    // x · yᵀ (a dense layer with its weights stored out x in): [4, 3] x [5, 3]ᵀ
    mm!(c, mat2d_nt: f32, x [4, 3], y [5, 3] -> [4, 5], NoTrans = false, Trans = true);
    // xᵀ · y, int32: [5, 2]ᵀ x [5, 4]
    mm!(c, mat2d_tn: i32, x [5, 2], y [5, 4] -> [2, 4], Trans = true, NoTrans = false);
    // a vector on the left is a row, its dim dropped: [5] x [3, 5]ᵀ -> [3]
    mm!(c, vec_left: f32, x [5], y [3, 5] -> [3], NoTrans = false, Trans = true);
    // a vector on the right is a column: [3, 2, 3] x [3] -> [3, 2]
    mm!(c, vec_right: i32, x [3, 2, 3], y [3] -> [3, 2], NoTrans = false, NoTrans = false);
    // vector . vector is 0-d
    mm!(c, vec_vec: i64, x [3], y [3] -> [], NoTrans = false, NoTrans = false);
    // batch dims broadcast: [1, 5, 3] x [2, 3, 5] -> [2, 5, 5]
    mm!(c, bcast: f32, x [1, 5, 3], y [2, 3, 5] -> [2, 5, 5], NoTrans = false, NoTrans = false);
    // rank 4, batched: [2, 1, 4, 5] x [2, 1, 5, 2]
    mm!(c, batched: f32, x [2, 1, 4, 5], y [2, 1, 5, 2] -> [2, 1, 4, 2], NoTrans = false, NoTrans = false);
    // ranks differ: [4, 3, 1] x [1, 4] -> [4, 3, 4]
    mm!(c, rank_mix: i32, x [4, 3, 1], y [1, 4] -> [4, 3, 4], NoTrans = false, NoTrans = false);
    // K = 0 gives zeros: [0, 2]ᵀ x [2, 0]ᵀ -> [2, 2]
    mm!(c, k_zero: f32, x [0, 2], y [2, 0] -> [2, 2], Trans = true, Trans = true);
    // Paddle's int32 kernel corrupted its heap on these shapes (the output
    // recorded from its float64 kernel): [3, 1, 1, 1] x [2, 1, 3]
    c.check(int_crashed::INT_KERNEL_CRASHED, "int_crashed flag");
    mm!(c, int_crashed: i32, x [3, 1, 1, 1], y [2, 1, 3] -> [3, 2, 1, 3], NoTrans = false, NoTrans = false);

    // ---- run-time (`Dyn`) dims: try_matmul_into, a caller's buffer ----
    // accepted: [Dyn, 3] x [Dyn, 3]ᵀ -> [Dyn, Dyn] ([4, 3] x [5, 3]ᵀ)
    {
        let what = "mat2d_nt try_matmul_into";
        let x =
            Tensor::<f32, shape![Dyn, 3], &[f32]>::with_dims(mat2d_nt::X.dims, mat2d_nt::X.data);
        let y =
            Tensor::<f32, shape![Dyn, 3], &[f32]>::with_dims(mat2d_nt::Y.dims, mat2d_nt::Y.data);
        let mut buf = [f32::SENTINEL; 20];
        let out = Tensor::<f32, shape![Dyn, Dyn], &mut [f32]>::with_dims(&[4, 5], &mut buf[..]);
        match (x, y, out) {
            (Ok(x), Ok(y), Ok(mut out)) => {
                let r = x.try_matmul_into(&y, NoTrans, Trans, &mut out);
                c.check(r.is_ok(), what);
            }
            _ => c.check(false, what),
        }
        c.eq(&buf, mat2d_nt::OUT.data, what);
    }
    // rejected, matmul/inner: [1, 5]ᵀ x [2, 3] (K 1 against 2)
    {
        let what = "bad_inner try_matmul_into";
        c.check(
            bad_inner::ERROR.is_some() && bad_inner::TRANSPOSE_X && !bad_inner::TRANSPOSE_Y,
            what,
        );
        let x =
            Tensor::<f32, shape![Dyn, 5], &[f32]>::with_dims(bad_inner::X.dims, bad_inner::X.data);
        let y =
            Tensor::<f32, shape![Dyn, 3], &[f32]>::with_dims(bad_inner::Y.dims, bad_inner::Y.data);
        let mut buf = [f32::SENTINEL; 15];
        match (
            x,
            y,
            Tensor::<f32, shape![5, 3], &mut [f32]>::from_storage(&mut buf[..]),
        ) {
            (Ok(x), Ok(y), Ok(mut out)) => {
                let r = x.try_matmul_into(&y, Trans, NoTrans, &mut out);
                c.check(
                    matches!(r, Err(e @ MatmulError::Inner { x_dim: 1, y_dim: 2, .. }) if e.rule() == "matmul/inner"),
                    what,
                );
            }
            _ => c.check(false, what),
        }
        c.check(buf.iter().all(|v| *v == f32::SENTINEL), what);
    }
    // rejected, matmul/batch: [4, 2, 2] x [5, 2, 2] (batch 4 against 5)
    {
        let what = "bad_batch try_matmul_into";
        c.check(bad_batch::ERROR.is_some(), what);
        let x = Tensor::<i32, shape![Dyn, 2, 2], &[i32]>::with_dims(
            bad_batch::X.dims,
            bad_batch::X.data,
        );
        let y = Tensor::<i32, shape![Dyn, 2, 2], &[i32]>::with_dims(
            bad_batch::Y.dims,
            bad_batch::Y.data,
        );
        let mut buf = [i32::SENTINEL; 16];
        let out = Tensor::<i32, shape![Dyn, 2, 2], &mut [i32]>::with_dims(&[4, 2, 2], &mut buf[..]);
        match (x, y, out) {
            (Ok(x), Ok(y), Ok(mut out)) => {
                let r = x.try_matmul_into(&y, Trans, Trans, &mut out);
                c.check(
                    matches!(r, Err(e @ MatmulError::Batch { x_dim: 4, y_dim: 5, .. }) if e.rule() == "matmul/batch"),
                    what,
                );
            }
            _ => c.check(false, what),
        }
        c.check(buf.iter().all(|v| *v == i32::SENTINEL), what);
    }

    // ---- the no-heap dynamic path: shapes as values ----
    {
        let what = "bad_inner_vec matmul_slices";
        let (x, y) = (&bad_inner_vec::X, &bad_inner_vec::Y);
        let mut buf = [f32::SENTINEL; 16];
        let r = matmul_slices(
            x.dims,
            x.data,
            y.dims,
            y.data,
            bad_inner_vec::TRANSPOSE_X,
            bad_inner_vec::TRANSPOSE_Y,
            &mut buf,
        );
        c.check(
            bad_inner_vec::ERROR.is_some() && matches!(r, Err(e) if e.rule() == "matmul/inner"),
            what,
        );
        c.check(buf.iter().all(|v| *v == f32::SENTINEL), what);
    }
    {
        let what = "int_crashed matmul_slices";
        let (x, y) = (&int_crashed::X, &int_crashed::Y);
        let mut buf = [i32::SENTINEL; 18];
        let r = matmul_slices(x.dims, x.data, y.dims, y.data, false, false, &mut buf);
        c.check(
            matches!(r, Ok(d) if d.as_slice() == int_crashed::OUT.dims),
            what,
        );
        c.eq(&buf, int_crashed::OUT.data, what);
    }

    c.finish()
}
