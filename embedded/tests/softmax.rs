//! Paddle's `softmax` and `log_softmax` on the target, through the static
//! API: views over the vectors' data in flash into a caller's buffer
//! (`softmax_into`), views and inline tensors to an inline result
//! (`x.softmax(Axis::<-1>)`, `x.log_softmax(..)`), over the last, the first
//! and a middle axis, f32 and f64, and 0-d. Run-time (`Dyn`) dims go through
//! `softmax_into` (a caller's buffer, no heap); the rejected axes, compile
//! errors on the static API, through the no-heap dynamic path
//! (`softmax_slices`): a typed error, the buffer untouched. Expected values:
//! the recorded PaddlePaddle 3.3.1 outputs of tests/vectors/core/softmax.json
//! (embedded by build.rs), within the tolerances of its README: float32
//! softmax 1e-6 relative, float32 log_softmax `1e-6 · max(|want|, 1)`,
//! float64 1e-12 relative.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use cortex_m_semihosting::hprintln;
use shapecheck::ops::softmax::{softmax_slices, SoftmaxKind};
use shapecheck::prelude::*;
use shapecheck_embedded::vectors::softmax::*;
use shapecheck_embedded::{Checks, Sentinel};

// vector: SM_ROWS = core/softmax softmax_valid#23
// vector: SM_ROWS_F64 = core/softmax softmax_valid#18
// vector: SM_MIDDLE = core/softmax softmax_valid#48
// vector: SM_FIRST = core/softmax softmax_valid#22
// vector: SM_0D = core/softmax softmax_valid#7
// vector: SM_DEFAULT_F64 = core/softmax softmax_default#1
// vector: LSM_ROWS = core/softmax log_softmax_valid#49
// vector: LSM_ROWS_F64 = core/softmax log_softmax_valid#12
// vector: LSM_COLS = core/softmax log_softmax_valid#46
// vector: LSM_DEFAULT = core/softmax log_softmax_default#0
// vector: LSM_0D_F64 = core/softmax log_softmax_valid#15
// vector: SM_BAD_AXIS = core/softmax softmax_invalid#2
// vector: LSM_BAD_AXIS = core/softmax log_softmax_invalid#2
// vector: SM_BAD_AXIS_0D = core/softmax softmax_invalid#3

/// The README's tolerance for one element.
trait Close: Copy + core::fmt::Debug {
    fn close(self, want: Self, log: bool) -> bool;
}
fn abs(v: f64) -> f64 {
    if v < 0.0 {
        -v
    } else {
        v
    }
}
impl Close for f32 {
    fn close(self, want: f32, log: bool) -> bool {
        let (g, w) = (self as f64, want as f64);
        let d = abs(g - w);
        if log {
            d <= 1e-6 * if abs(w) > 1.0 { abs(w) } else { 1.0 }
        } else {
            d <= 1e-6 * abs(w)
        }
    }
}
impl Close for f64 {
    fn close(self, want: f64, _log: bool) -> bool {
        abs(self - want) <= 1e-12 * abs(want)
    }
}

#[track_caller]
fn close<T: Close>(c: &mut Checks, got: &[T], want: &[T], log: bool, what: &str) {
    let ok = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.close(*w, log));
    c.check(ok, what);
    if !ok {
        hprintln!("  got  {:?}\n  want {:?}", got, want);
    }
}

/// A softmax case through the static API, three ways (see the file's doc).
/// `sm!(c, CASE: T, "op", x [..], method / KIND, axis A)`.
macro_rules! sm {
    ($c:ident, $case:ident : $T:ty, $op:literal, x [$($x:tt)*], $method:ident / $kind:expr,
     axis $axis:literal) => {{
        type X = shape![$($x)*];
        let what = stringify!($case);
        let log = $op == "log_softmax";
        $c.check(
            $case::OP == $op
                && $case::ERROR.is_none()
                && $case::AXIS == $axis
                && $case::OUT.dims == <X as FixedShape>::DIMS,
            what,
        );
        let want: &[$T] = $case::OUT.data;
        if let Some(x) = $c.some($case::X.view::<X>(), what) {
            let mut buf = [<$T as Sentinel>::SENTINEL; <X as FixedShape>::NUMEL];
            match Tensor::<$T, X, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => $c.check(x.softmax_into($kind, Axis::<{ $axis }>, &mut out).is_ok(), what),
                Err(_) => $c.check(false, what),
            }
            close(&mut $c, &buf, want, log, what);
            let z: Tensor<$T, X> = x.$method(Axis::<{ $axis }>);
            close(&mut $c, z.as_slice(), want, log, what);
        }
        if let Some(x) = $c.some($case::X.inline::<X>(), what) {
            let z: Tensor<$T, X> = x.$method(Axis::<{ $axis }>);
            close(&mut $c, z.as_slice(), want, log, what);
        }
    }};
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("softmax");
    use SoftmaxKind::{LogSoftmax, Softmax};

    // over the last axis (rows)
    sm!(c, sm_rows: f32, "softmax", x [4, 4], softmax / Softmax, axis -1);
    sm!(c, sm_rows_f64: f64, "softmax", x [3, 4], softmax / Softmax, axis 1);
    // a middle axis, and the first of rank 4
    sm!(c, sm_middle: f32, "softmax", x [2, 3, 2], softmax / Softmax, axis 1);
    sm!(c, sm_first: f32, "softmax", x [2, 3, 5, 1], softmax / Softmax, axis -4);
    // 0-d: 1.0
    sm!(c, sm_0d: f32, "softmax", x [], softmax / Softmax, axis -1);
    sm!(c, sm_default_f64: f64, "softmax", x [2, 5, 2], softmax / Softmax, axis -1);
    sm!(c, lsm_rows: f32, "log_softmax", x [2, 5], log_softmax / LogSoftmax, axis -1);
    sm!(c, lsm_rows_f64: f64, "log_softmax", x [4, 2], log_softmax / LogSoftmax, axis -1);
    sm!(c, lsm_cols: f32, "log_softmax", x [4, 3], log_softmax / LogSoftmax, axis -2);
    sm!(c, lsm_default: f32, "log_softmax", x [2, 4, 2], log_softmax / LogSoftmax, axis -1);
    // 0-d: 0.0
    sm!(c, lsm_0d_f64: f64, "log_softmax", x [], log_softmax / LogSoftmax, axis 0);

    // ---- run-time (`Dyn`) dims: softmax_into, a caller's buffer ----
    {
        let what = "sm_rows Dyn softmax_into";
        let x = Tensor::<f32, shape![Dyn, 4], &[f32]>::with_dims(sm_rows::X.dims, sm_rows::X.data);
        let mut buf = [f32::SENTINEL; 16];
        let out = Tensor::<f32, shape![Dyn, 4], &mut [f32]>::with_dims(&[4, 4], &mut buf[..]);
        match (x, out) {
            (Ok(x), Ok(mut out)) => {
                c.check(x.softmax_into(Softmax, Axis::<-1>, &mut out).is_ok(), what)
            }
            _ => c.check(false, what),
        }
        close(&mut c, &buf, sm_rows::OUT.data, false, what);
    }

    // ---- the no-heap dynamic path: the axis as a value ----
    macro_rules! rejected {
        ($case:ident : $T:ty, $kind:expr, $n:literal) => {{
            let what = stringify!($case);
            let x = &$case::X;
            let mut buf = [<$T as Sentinel>::SENTINEL; $n];
            c.check($case::ERROR.is_some(), what);
            let r = softmax_slices($kind, x.dims, x.data, $case::AXIS as isize, &mut buf);
            c.check(matches!(r, Err(e) if e.rule() == "softmax/axis-range"), what);
            c.check(buf.iter().all(|v| *v == <$T as Sentinel>::SENTINEL), what);
        }};
    }
    rejected!(sm_bad_axis: f32, Softmax, 6);
    rejected!(lsm_bad_axis: f32, LogSoftmax, 15);
    rejected!(sm_bad_axis_0d: f32, Softmax, 1);
    {
        let what = "lsm_rows softmax_slices";
        let x = &lsm_rows::X;
        let mut buf = [f32::SENTINEL; 10];
        let r = softmax_slices(
            LogSoftmax,
            x.dims,
            x.data,
            lsm_rows::AXIS as isize,
            &mut buf,
        );
        c.check(
            matches!(r, Ok(d) if d.as_slice() == lsm_rows::OUT.dims),
            what,
        );
        close(&mut c, &buf, lsm_rows::OUT.data, true, what);
    }

    c.finish()
}
