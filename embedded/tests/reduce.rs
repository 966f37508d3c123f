//! Paddle's reductions on the target (`sum`, `mean`, `max`, `min`, `prod`,
//! `argmax`, `argmin`), through the static API: views over the vectors'
//! data in flash into a caller's buffer (`reduce_into` / `arg_reduce_into`),
//! views and inline tensors to an inline result (`x.sum(Axis::<1>)`,
//! `sum_keepdim`, `sum(All)`, a tuple of axes, ...). One axis, several,
//! negative ones, every dim (`axis` null or `[]`), keepdim; `sum` of i32 is
//! i64; argmax / argmin take the first index on ties (every arg case here
//! has ties), and a 0-d x with keepdim gives `[1]`. Run-time (`Dyn`) dims go
//! through `reduce_into` (a caller's buffer, no heap), a rejected case as a
//! typed error with the buffer untouched; the no-heap dynamic path
//! (`reduce_slices`, `arg_slices`) takes the axis errors that are compile
//! errors on the static API. Expected values: the recorded PaddlePaddle
//! 3.3.1 outputs of tests/vectors/core/reduce.json (embedded by build.rs),
//! compared bit for bit.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::ops::reduce::{arg_slices, reduce_slices, ArgKind, ReduceKind};
use shapecheck::prelude::*;
use shapecheck::{All, ReduceError};
use shapecheck_embedded::vectors::reduce::*;
use shapecheck_embedded::{attr, Checks, Sentinel};

// vector: SUM_NEG = core/reduce sum_axis_list#0
// vector: SUM_I32_KEEP = core/reduce sum_axis_int#0
// vector: SUM_NONE = core/reduce sum_axis_none#0
// vector: SUM_EMPTY_LIST_KEEP = core/reduce sum_axis_empty_list#3
// vector: MEAN_LAST = core/reduce mean_axis_list#5
// vector: MEAN_TWO = core/reduce mean_axis_list#8
// vector: MAX_THREE = core/reduce max_axis_list#1
// vector: MAX_NEG = core/reduce max_axis_neg_int#2
// vector: MIN_KEEP = core/reduce min_axis_list#10
// vector: MIN_FIRST = core/reduce min_axis_neg_int#1
// vector: PROD_ROWS = core/reduce prod_axis_int#1
// vector: PROD_ALL_KEEP = core/reduce prod_axis_list#8
// vector: ARGMAX_MID = core/reduce argmax_axis_int#9
// vector: ARGMAX_LAST = core/reduce argmax_axis_neg_int#4
// vector: ARGMIN_KEEP = core/reduce argmin_axis_neg_int#0
// vector: ARGMAX_ALL = core/reduce argmax_axis_none#3
// vector: ARGMIN_ALL_KEEP = core/reduce argmin_axis_none#2
// vector: ARGMAX_0D_KEEP = core/reduce argmax_axis_int#8
// vector: MAX_EMPTY = core/reduce max_axis_list_empty#0
// vector: MEAN_DUP = core/reduce mean_axis_dup#0
// vector: PROD_OOB = core/reduce prod_axis_oob_int#0
// vector: ARGMAX_OOB = core/reduce argmax_axis_oob_int#1

/// A reduction case through the static API, three ways (see the file's
/// doc). `red!(c, CASE: T => U, "op", x [..] -> [..], method(AXES),
/// into_method(KIND), keepdim K, axis "text")`: `axis` is the recorded
/// attribute as text ("null", an int, or "(list)" for a list).
macro_rules! red {
    ($c:ident, $case:ident : $T:ty => $U:ty, $op:literal, x [$($x:tt)*] -> [$($o:tt)*],
     $method:ident($axes:expr), $into:ident($kind:expr), keepdim $keep:literal, axis $axis:literal) => {{
        type X = shape![$($x)*];
        type O = shape![$($o)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == $op
                && $case::ERROR.is_none()
                && attr($case::ATTRS, "keepdim") == Some(stringify!($keep))
                && attr($case::ATTRS, "axis") == Some($axis)
                && $case::OUT.dims == <O as FixedShape>::DIMS,
            what,
        );
        let want: &[$U] = $case::OUT.data;
        if let Some(x) = $c.some($case::X.view::<X>(), what) {
            let mut buf = [<$U as Sentinel>::SENTINEL; <O as FixedShape>::NUMEL];
            match Tensor::<$U, O, &mut [$U]>::from_storage(&mut buf[..]) {
                Ok(mut out) => $c.check(x.$into($kind, $axes, $keep, &mut out).is_ok(), what),
                Err(_) => $c.check(false, what),
            }
            $c.eq(&buf, want, what);
            let z: Tensor<$U, O> = x.$method($axes);
            $c.eq(z.as_slice(), want, what);
        }
        if let Some(x) = $c.some($case::X.inline::<X>(), what) {
            let z: Tensor<$U, O> = x.$method($axes);
            $c.eq(z.as_slice(), want, what);
        }
    }};
}

fn axes<const N: usize>(list: &[i64]) -> Option<[isize; N]> {
    (list.len() == N).then(|| core::array::from_fn(|i| list[i] as isize))
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("reduce");
    use ArgKind::{ArgMax, ArgMin};
    use ReduceKind::{Max, Mean, Min, Prod, Sum};

    // sum over a negative axis: [2, 4, 3] axis [-2] -> [2, 3]
    c.check(sum_neg::AXIS == [-2], "sum_neg axis");
    red!(c, sum_neg: i64 => i64, "sum", x [2, 4, 3] -> [2, 3],
        sum(Axis::<-2>), reduce_into(Sum), keepdim false, axis "(list)");
    // sum of i32 is i64, keepdim: [1, 2, 2] axis 1 -> [1, 1, 2]
    red!(c, sum_i32_keep: i32 => i64, "sum", x [1, 2, 2] -> [1, 1, 2],
        sum_keepdim(Axis::<1>), reduce_into(Sum), keepdim true, axis "1");
    // axis null: every dim
    red!(c, sum_none: f32 => f32, "sum", x [3, 2] -> [],
        sum(All), reduce_into(Sum), keepdim false, axis "null");
    // axis [] reduces every dim too (not a no-op), keepdim: all ones
    c.check(
        sum_empty_list_keep::AXIS.is_empty(),
        "sum_empty_list_keep axis",
    );
    red!(c, sum_empty_list_keep: f32 => f32, "sum", x [1, 4] -> [1, 1],
        sum_keepdim(All), reduce_into(Sum), keepdim true, axis "(list)");
    // mean over the last axis, f64: [3, 2, 3] -> [3, 2]
    c.check(mean_last::AXIS == [2], "mean_last axis");
    red!(c, mean_last: f64 => f64, "mean", x [3, 2, 3] -> [3, 2],
        mean(Axis::<2>), reduce_into(Mean), keepdim false, axis "(list)");
    // two axes: [2, 3] axes [0, 1] -> []
    c.check(mean_two::AXIS == [0, 1], "mean_two axis");
    red!(c, mean_two: f64 => f64, "mean", x [2, 3] -> [],
        mean((Axis::<0>, Axis::<1>)), reduce_into(Mean), keepdim false, axis "(list)");
    // three axes in any order, one negative: [2, 4, 1] axes [-3, 2, 1] -> []
    c.check(max_three::AXIS == [-3, 2, 1], "max_three axis");
    red!(c, max_three: i64 => i64, "max", x [2, 4, 1] -> [],
        max((Axis::<-3>, Axis::<2>, Axis::<1>)), reduce_into(Max), keepdim false, axis "(list)");
    red!(c, max_neg: f32 => f32, "max", x [2, 4, 2] -> [2, 2],
        max(Axis::<-2>), reduce_into(Max), keepdim false, axis "-2");
    c.check(min_keep::AXIS == [-2], "min_keep axis");
    red!(c, min_keep: f32 => f32, "min", x [3, 3] -> [1, 3],
        min_keepdim(Axis::<-2>), reduce_into(Min), keepdim true, axis "(list)");
    red!(c, min_first: i32 => i32, "min", x [4, 1, 3, 2] -> [1, 3, 2],
        min(Axis::<-4>), reduce_into(Min), keepdim false, axis "-4");
    red!(c, prod_rows: i32 => i32, "prod", x [3, 3] -> [3],
        prod(Axis::<0>), reduce_into(Prod), keepdim false, axis "0");
    c.check(prod_all_keep::AXIS == [-1, 0], "prod_all_keep axis");
    red!(c, prod_all_keep: i64 => i64, "prod", x [1, 2] -> [1, 1],
        prod_keepdim((Axis::<-1>, Axis::<0>)), reduce_into(Prod), keepdim true, axis "(list)");

    // argmax / argmin: i64 indices, the first on ties
    red!(c, argmax_mid: i32 => i64, "argmax", x [4, 2, 2] -> [4, 2],
        argmax(Axis::<1>), arg_reduce_into(ArgMax), keepdim false, axis "1");
    red!(c, argmax_last: f32 => i64, "argmax", x [4, 4] -> [4],
        argmax(Axis::<-1>), arg_reduce_into(ArgMax), keepdim false, axis "-1");
    red!(c, argmin_keep: f64 => i64, "argmin", x [4, 2] -> [1, 2],
        argmin_keepdim(Axis::<-2>), arg_reduce_into(ArgMin), keepdim true, axis "-2");
    // no axis: the index into the flattened x
    red!(c, argmax_all: i32 => i64, "argmax", x [2, 2, 3] -> [],
        argmax(All), arg_reduce_into(ArgMax), keepdim false, axis "null");
    red!(c, argmin_all_keep: f64 => i64, "argmin", x [4, 4] -> [1, 1],
        argmin_keepdim(All), arg_reduce_into(ArgMin), keepdim true, axis "null");
    // a 0-d x with an axis and keepdim gives [1] (Paddle's own rule)
    red!(c, argmax_0d_keep: f32 => i64, "argmax", x [] -> [1],
        argmax_keepdim(Axis::<0>), arg_reduce_into(ArgMax), keepdim true, axis "0");

    // ---- run-time (`Dyn`) dims: reduce_into, a caller's buffer ----
    // accepted: [Dyn, 4, 3] over axis -2 -> [Dyn, 3]
    {
        let what = "sum_neg Dyn reduce_into";
        let x =
            Tensor::<i64, shape![Dyn, 4, 3], &[i64]>::with_dims(sum_neg::X.dims, sum_neg::X.data);
        let mut buf = [i64::SENTINEL; 6];
        let out = Tensor::<i64, shape![Dyn, 3], &mut [i64]>::with_dims(&[2, 3], &mut buf[..]);
        match (x, out) {
            (Ok(x), Ok(mut out)) => c.check(
                x.reduce_into(Sum, Axis::<-2>, false, &mut out).is_ok(),
                what,
            ),
            _ => c.check(false, what),
        }
        c.eq(&buf, sum_neg::OUT.data, what);
    }
    // rejected, reduce/empty: max over [4, 1, 0]'s axes [0, -1], the last of size 0
    {
        let what = "max_empty Dyn reduce_into";
        c.check(
            max_empty::OP == "max" && max_empty::ERROR.is_some() && max_empty::AXIS == [0, -1],
            what,
        );
        let x = Tensor::<i32, shape![4, 1, Dyn], &[i32]>::with_dims(
            max_empty::X.dims,
            max_empty::X.data,
        );
        let mut buf = [i32::SENTINEL; 1];
        match (
            x,
            Tensor::<i32, shape![1], &mut [i32]>::from_storage(&mut buf[..]),
        ) {
            (Ok(x), Ok(mut out)) => {
                let r = x.reduce_into(Max, (Axis::<0>, Axis::<-1>), false, &mut out);
                c.check(
                    matches!(r, Err(e @ ReduceError::EmptyReduction { dim: 2, .. }) if e.rule() == "reduce/empty"),
                    what,
                );
            }
            _ => c.check(false, what),
        }
        c.check(buf.iter().all(|v| *v == i32::SENTINEL), what);
    }

    // ---- the no-heap dynamic path: axes as values ----
    {
        let what = "mean_dup reduce_slices";
        let x = &mean_dup::X;
        let mut buf = [f32::SENTINEL; 24];
        let ax = axes::<3>(mean_dup::AXIS);
        c.check(mean_dup::ERROR.is_some() && ax.is_some(), what);
        if let Some(ax) = ax {
            let r = reduce_slices(Mean, x.dims, x.data, Some(&ax), false, &mut buf);
            c.check(
                matches!(r, Err(e) if e.rule() == "reduce/duplicate-axis"),
                what,
            );
        }
        c.check(buf.iter().all(|v| *v == f32::SENTINEL), what);
    }
    {
        let what = "prod_oob reduce_slices";
        let x = &prod_oob::X;
        let mut buf = [i32::SENTINEL; 3];
        c.check(prod_oob::ERROR.is_some(), what);
        let r = reduce_slices(
            Prod,
            x.dims,
            x.data,
            Some(&[prod_oob::AXIS as isize]),
            false,
            &mut buf,
        );
        c.check(matches!(r, Err(e) if e.rule() == "reduce/axis-range"), what);
        c.check(buf.iter().all(|v| *v == i32::SENTINEL), what);
    }
    {
        let what = "argmax_oob arg_slices";
        let x = &argmax_oob::X;
        let mut buf = [i64::SENTINEL; 16];
        c.check(argmax_oob::ERROR.is_some(), what);
        let r = arg_slices(
            ArgMax,
            x.dims,
            x.data,
            Some(argmax_oob::AXIS as isize),
            false,
            &mut buf,
        );
        c.check(matches!(r, Err(e) if e.rule() == "reduce/axis-range"), what);
        c.check(buf.iter().all(|v| *v == i64::SENTINEL), what);
    }
    {
        // an accepted one through the same path: argmax with ties
        let what = "argmax_mid arg_slices";
        let x = &argmax_mid::X;
        let mut buf = [i64::SENTINEL; 8];
        let r = arg_slices(
            ArgMax,
            x.dims,
            x.data,
            Some(argmax_mid::AXIS as isize),
            false,
            &mut buf,
        );
        c.check(
            matches!(r, Ok(d) if d.as_slice() == argmax_mid::OUT.dims),
            what,
        );
        c.eq(&buf, argmax_mid::OUT.data, what);
    }

    c.finish()
}
