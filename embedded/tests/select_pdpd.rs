//! OpenVINO's Select with auto_broadcast pdpd on the target (one-way: the
//! output has then's shape; cond and else drop their trailing 1s and are
//! placed at the axis), through the static API and, for the rejected shapes,
//! the no-heap dynamic path (`select_slices`: a typed error, the buffer
//! untouched). Every pdpd vector has axis 0 (what OpenVINO's Python API
//! records, see tests/vectors/README.md). Expected values: the recorded
//! OpenVINO outputs of tests/vectors/select.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::SelectError;
use shapecheck_embedded::vectors::select_pdpd::*;
use shapecheck_embedded::{select_case, slices, Checks};

// vector: ELSE_TRAILING = select select_pdpd_valid#8
// vector: ELSE_ROW = select select_pdpd_valid#15
// vector: COND_ONE = select select_pdpd_valid#13
// vector: SAME_RANK = select select_pdpd_mismatch#2
// vector: RANK1 = select select_pdpd_valid#3
// vector: COND_ONES = select select_pdpd_mismatch#3
// vector: RANK_HIGHER = select select_pdpd_valid#1
// vector: COND_DIM = select select_pdpd_valid#2
// vector: ELSE_DIM = select select_pdpd_valid#12

#[entry]
fn main() -> ! {
    let mut c = Checks::new("select_pdpd");

    // else [1, 1, 2] on then [3, 1, 2]
    select_case!(c, else_trailing: f64, cond [], then [3, 1, 2], else [1, 1, 2] -> [3, 1, 2],
        mode Pdpd::<0> => "pdpd" axis "0");
    select_case!(c, else_row: i64, cond [], then [4, 4], else [1, 4] -> [4, 4],
        mode Pdpd::<0> => "pdpd" axis "0");
    select_case!(c, cond_one: f64, cond [1], then [2, 1, 1], else [] -> [2, 1, 1],
        mode Pdpd::<0> => "pdpd" axis "0");
    select_case!(c, same_rank: i64, cond [1], then [4, 1], else [4, 1] -> [4, 1],
        mode Pdpd::<0> => "pdpd" axis "0");
    select_case!(c, rank1: i32, cond [3], then [3], else [3] -> [3],
        mode Pdpd::<0> => "pdpd" axis "0");
    select_case!(c, cond_ones: f32, cond [1, 1], then [1, 3], else [] -> [1, 3],
        mode Pdpd::<0> => "pdpd" axis "0");

    // rejected: compile errors on the static API, typed errors here
    slices::select(
        &mut c,
        "rank_higher",
        rank_higher::ATTRS,
        &rank_higher::COND,
        &rank_higher::THEN,
        &rank_higher::ELSE,
        None,
        |e| matches!(e, SelectError::PdpdRankHigher { axis: 0, .. }),
    );
    slices::select(
        &mut c,
        "cond_dim",
        cond_dim::ATTRS,
        &cond_dim::COND,
        &cond_dim::THEN,
        &cond_dim::ELSE,
        None,
        |e| matches!(e, SelectError::PdpdDimMismatch { .. }),
    );
    slices::select(
        &mut c,
        "else_dim",
        else_dim::ATTRS,
        &else_dim::COND,
        &else_dim::THEN,
        &else_dim::ELSE,
        None,
        |e| {
            matches!(
                e,
                SelectError::PdpdDimMismatch { .. } | SelectError::PdpdRunsPast { .. }
            )
        },
    );
    slices::select(
        &mut c,
        "else_trailing",
        else_trailing::ATTRS,
        &else_trailing::COND,
        &else_trailing::THEN,
        &else_trailing::ELSE,
        Some(&else_trailing::OUT),
        |_| false,
    );

    c.finish()
}
