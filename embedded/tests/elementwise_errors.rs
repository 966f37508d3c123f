//! Errors of Paddle's elementwise ops on the target. A shape that the rule
//! rejects is a compile error on the static API (ui-tests/ has those); on
//! the no-heap dynamic path (`elementwise_slices`, shapes as values) it is a
//! typed error, and the caller's buffer is left untouched: the rejected
//! cases of tests/vectors/elementwise.json go through it here, with a few
//! accepted ones (including one that Paddle itself overflows on, decided by
//! the seed's rule, see tests/vectors/README.md), and the same rules for
//! run-time (`Dyn`) dims on the static API's `try_` forms. Integer division by zero
//! is the static API's only run-time error; no vector records it (Paddle
//! raises a floating-point exception), so its inputs come from a vector and
//! the zero is put in by the test.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::ops::Mul;
use shapecheck::ElementwiseError as E;
use shapecheck_embedded::vectors::elementwise_errors::*;
use shapecheck_embedded::{slices, Checks};

// vector: DIM_MISMATCH_AXIS0 = elementwise elementwise_mul_random#0
// vector: DIM_MISMATCH_NUMPY = elementwise elementwise_mul_random#24
// vector: DIM_MISMATCH_TRAIL1 = elementwise elementwise_sub_trail1#0
// vector: EQUAL_RANK_AXIS = elementwise elementwise_mul_eqrank_axis_bad#4
// vector: AXIS_RANGE = elementwise elementwise_sub_axis_edge#1
// vector: AXIS_RANGE_HIGH = elementwise elementwise_mul_axis_edge#1
// vector: RUNS_PAST = elementwise elementwise_mul_random#10
// vector: RUNS_PAST_FITS = elementwise elementwise_mul_trail1#1
// vector: ACCEPTED_DOC = elementwise elementwise_mul_doc#4
// vector: ACCEPTED_I64 = elementwise elementwise_mul_sub#31
// vector: DIV_I32 = elementwise elementwise_mul_sub#1

#[entry]
fn main() -> ! {
    let mut c = Checks::new("elementwise_errors");

    macro_rules! case {
        ($case:ident, $tol:expr, $expect:pat) => {
            slices::elementwise(
                &mut c,
                stringify!($case),
                $case::OP,
                $case::ATTRS,
                &$case::X,
                &$case::Y,
                $case::ERROR.map_or(Some(&$case::OUT), |_| None),
                $tol,
                |e| matches!(e, $expect),
            )
        };
        ($case:ident, $expect:pat) => {
            slices::elementwise(
                &mut c,
                stringify!($case),
                $case::OP,
                $case::ATTRS,
                &$case::X,
                &$case::Y,
                None,
                0.0,
                |e| matches!(e, $expect),
            )
        };
    }
    // rejected by Paddle: each a typed error naming the rule
    case!(
        dim_mismatch_axis0,
        E::DimMismatch {
            x_dim: 4,
            y_dim: 3,
            ..
        }
    );
    case!(
        dim_mismatch_numpy,
        E::DimMismatch {
            x_dim: 4,
            y_dim: 3,
            ..
        }
    );
    case!(dim_mismatch_trail1, E::DimMismatch { .. });
    case!(equal_rank_axis, E::EqualRankAxis { axis: 1, .. });
    case!(
        axis_range,
        E::AxisOutOfRange { axis: -4, .. } | E::AxisBeforeStart { axis: -4, .. }
    );
    case!(axis_range_high, E::AxisOutOfRange { axis: 3, .. });
    case!(runs_past, E::RunsPast { axis: 2, .. });
    // accepted ones, the same path
    case!(runs_past_fits, 0.0, _);
    case!(accepted_doc, 1e-6, _);
    case!(accepted_i64, 0.0, _);

    // run-time dims on the static API (`try_` forms, into a caller's buffer):
    // the accepted case gives Paddle's output, the rejected one its error
    // with the buffer untouched
    {
        let (x, y) = (&accepted_i64::X, &accepted_i64::Y);
        let mut buf = [i64::MIN; 36];
        match (
            Tensor::<i64, shape![Dyn, 2, 3, 2], &[i64]>::with_dims(x.dims, x.data),
            Tensor::<i64, shape![Dyn, 2], &[i64]>::with_dims(y.dims, y.data),
            Tensor::<i64, shape![Dyn, 2, 3, 2], &mut [i64]>::with_dims(x.dims, &mut buf[..]),
        ) {
            (Ok(x), Ok(y), Ok(mut out)) => c.check(
                x.try_elementwise_into(Mul, &y, Axis::<0>, Identity, &mut out)
                    .is_ok(),
                "try_elementwise_into, Dyn dims",
            ),
            _ => c.check(false, "Dyn views of accepted_i64"),
        }
        c.eq(&buf, accepted_i64::OUT.data, "try_elementwise_into values");
        let (x, y) = (&dim_mismatch_numpy::X, &dim_mismatch_numpy::Y);
        let mut buf = [i64::MIN; 16];
        match (
            Tensor::<i64, shape![Dyn, 4], &[i64]>::with_dims(x.dims, x.data),
            Tensor::<i64, shape![Dyn], &[i64]>::with_dims(y.dims, y.data),
            Tensor::<i64, shape![Dyn, 4], &mut [i64]>::with_dims(x.dims, &mut buf[..]),
        ) {
            (Ok(x), Ok(y), Ok(mut out)) => c.check(
                matches!(
                    x.try_elementwise_into(Mul, &y, Axis::<-1>, Identity, &mut out),
                    Err(E::DimMismatch {
                        x_dim: 4,
                        y_dim: 3,
                        ..
                    })
                ),
                "try_elementwise_into, Dyn dims: DimMismatch 4 vs 3",
            ),
            _ => c.check(false, "Dyn views of dim_mismatch_numpy"),
        }
        c.check(
            buf.iter().all(|v| *v == i64::MIN),
            "try_elementwise_into error: buffer untouched",
        );
    }

    // integer division by zero, static API: the inputs of a recorded case,
    // one zero put into Y by the test
    type X = shape![1, 3, 4, 2];
    type Y = shape![3];
    match (div_i32::X.inline::<X>(), div_i32::Y.inline::<Y>()) {
        (Some(x), Some(mut y)) => {
            c.check(
                y.as_slice().iter().all(|v| *v != 0),
                "div_i32: Y has no zero",
            );
            // integer division truncates toward zero, as Paddle's kernel
            match x.elementwise_div(&y, Axis::<1>, Identity) {
                Ok(z) => {
                    let want = x
                        .as_slice()
                        .iter()
                        .enumerate()
                        .all(|(i, v)| z.as_slice()[i] == v / y.as_slice()[(i / 8) % 3]);
                    c.check(want, "div_i32: x / y truncated");
                }
                Err(_) => c.check(false, "div_i32 without a zero"),
            }
            y.as_mut_slice()[1] = 0;
            c.check(
                x.elementwise_div(&y, Axis::<1>, Identity).map(|_| ())
                    == Err(E::DivisionByZero { index: 1 }),
                "div_i32 by zero: DivisionByZero { index: 1 }",
            );
            let mut buf = [-7i32; 24];
            match Tensor::<i32, X, &mut [i32]>::from_storage(&mut buf[..]) {
                Ok(mut out) => c.check(
                    x.elementwise_div_into(&y, Axis::<1>, Identity, &mut out)
                        == Err(E::DivisionByZero { index: 1 }),
                    "div_into by zero: the error",
                ),
                Err(_) => c.check(false, "output view"),
            }
            c.check(
                buf.iter().all(|v| *v == -7),
                "div_into by zero: buffer untouched",
            );
        }
        _ => c.check(false, "div_i32 vector dims"),
    }

    c.finish()
}
