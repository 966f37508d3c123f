//! OpenVINO's Select with auto_broadcast none and numpy on the target,
//! through the static API (views over the vectors' data in flash into a
//! caller's buffer, views and inline tensors to an inline result), and the
//! rejected shapes through the no-heap dynamic path (`select_slices`: a
//! typed error, the buffer untouched). Expected values: the recorded
//! OpenVINO outputs of tests/vectors/select.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::SelectError;
use shapecheck_embedded::vectors::select::*;
use shapecheck_embedded::{select_case, slices, Checks};

// vector: NONE_DOC = select select_none_doc#0
// vector: NONE_RANK3 = select select_none_valid#10
// vector: NONE_ONES = select select_none_valid#4
// vector: NUMPY_THEN_HIGHER = select select_numpy_valid#3
// vector: NUMPY_ALL_BROADCAST = select select_numpy_valid#8
// vector: NUMPY_SCALAR_THEN = select select_numpy_valid#12
// vector: NUMPY_COND_COLUMN = select select_numpy_valid#29
// vector: NUMPY_OUTER = select select_numpy_mismatch#5
// vector: NUMPY_RANK0_COND = select select_numpy_valid#2
// vector: NONE_MISMATCH = select select_none_mismatch#0
// vector: NUMPY_MISMATCH = select select_numpy_mismatch#3

#[entry]
fn main() -> ! {
    let mut c = Checks::new("select");

    select_case!(c, none_doc: i64, cond [3, 2], then [3, 2], else [3, 2] -> [3, 2],
        mode NoBroadcast => "none" axis "none");
    select_case!(c, none_rank3: f32, cond [4, 3, 2], then [4, 3, 2], else [4, 3, 2] -> [4, 3, 2],
        mode NoBroadcast => "none" axis "none");
    select_case!(c, none_ones: i64, cond [2, 1, 4], then [2, 1, 4], else [2, 1, 4] -> [2, 1, 4],
        mode NoBroadcast => "none" axis "none");
    // cond and else [2, 3] broadcast over then's first dim
    select_case!(c, numpy_then_higher: f64, cond [2, 3], then [4, 2, 3], else [2, 3] -> [4, 2, 3],
        mode Numpy => "numpy" axis "none");
    // all three broadcast: [3, 3, 1, 1], [3, 4, 1], [3, 3, 4, 1] -> [3, 3, 4, 1]
    select_case!(c, numpy_all_broadcast: i64, cond [3, 3, 1, 1], then [3, 4, 1], else [3, 3, 4, 1]
        -> [3, 3, 4, 1], mode Numpy => "numpy" axis "none");
    select_case!(c, numpy_scalar_then: f32, cond [1, 1], then [], else [2, 3, 1] -> [2, 3, 1],
        mode Numpy => "numpy" axis "none");
    select_case!(c, numpy_cond_column: i32, cond [4, 1], then [], else [4, 3] -> [4, 3],
        mode Numpy => "numpy" axis "none");
    select_case!(c, numpy_outer: f32, cond [3, 1], then [1, 3], else [] -> [3, 3],
        mode Numpy => "numpy" axis "none");
    select_case!(c, numpy_rank0_cond: f64, cond [], then [1], else [1, 1] -> [1, 1],
        mode Numpy => "numpy" axis "none");

    // rejected: compile errors on the static API, typed errors here
    slices::select(
        &mut c,
        "none_mismatch",
        none_mismatch::ATTRS,
        &none_mismatch::COND,
        &none_mismatch::THEN,
        &none_mismatch::ELSE,
        None,
        |e| matches!(e, SelectError::NoneMismatch { .. }),
    );
    slices::select(
        &mut c,
        "numpy_mismatch",
        numpy_mismatch::ATTRS,
        &numpy_mismatch::COND,
        &numpy_mismatch::THEN,
        &numpy_mismatch::ELSE,
        None,
        |e| {
            matches!(
                e,
                SelectError::NumpyMismatch {
                    position: 0,
                    cond_dim: 2,
                    then_dim: 3,
                    ..
                }
            )
        },
    );
    // an accepted one through the same path
    slices::select(
        &mut c,
        "numpy_all_broadcast",
        numpy_all_broadcast::ATTRS,
        &numpy_all_broadcast::COND,
        &numpy_all_broadcast::THEN,
        &numpy_all_broadcast::ELSE,
        Some(&numpy_all_broadcast::OUT),
        |_| false,
    );

    c.finish()
}
