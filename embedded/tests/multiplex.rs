//! Paddle's multiplex on the target: the static API over candidate views
//! in flash (into a caller's buffer and to an inline result), the index
//! value errors (out of range, negative: a typed error, the buffer
//! untouched), and the shape errors through the no-heap dynamic path
//! (`multiplex_slices`). Expected values: the recorded Paddle outputs of
//! tests/vectors/multiplex.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::MultiplexError as E;
use shapecheck_embedded::vectors::multiplex::*;
use shapecheck_embedded::{multiplex_case, slices, Checks};

// vector: DOC = multiplex multiplex_doc#0
// vector: DOC_EXAMPLE = multiplex multiplex_doc_example#0
// vector: RANK4_I32 = multiplex multiplex_ok#5
// vector: RANK3_I64 = multiplex multiplex_ok#2
// vector: RANK3_F64 = multiplex multiplex_ok#8
// vector: FIVE_CANDIDATES = multiplex multiplex_ok#22
// vector: OUT_OF_RANGE = multiplex multiplex_out_of_range#0
// vector: OUT_OF_RANGE_LAST_ROW = multiplex multiplex_out_of_range#7
// vector: NEGATIVE = multiplex multiplex_negative#2
// vector: NEGATIVE_LAST_ROW = multiplex multiplex_negative#9
// vector: ONE_CANDIDATE = multiplex multiplex_ok#0
// vector: ROWS_MORE = multiplex multiplex_rows_more#1
// vector: ROWS_FEWER = multiplex multiplex_rows_fewer#4
// vector: ROWS_FEWER_ONE = multiplex multiplex_rows_fewer#8

#[entry]
fn main() -> ! {
    let mut c = Checks::new("multiplex");

    multiplex_case!(c, doc: f32, 4 x [4, 4], index [4, 1] -> [4, 4]);
    multiplex_case!(c, doc_example: f32, 2 x [2, 2], index [2, 1] -> [2, 2]);
    multiplex_case!(c, rank4_i32: i32, 3 x [4, 1, 3, 3], index [4, 1] -> [4, 1, 3, 3]);
    multiplex_case!(c, rank3_i64: i64, 3 x [5, 1, 2], index [5, 1] -> [5, 1, 2]);
    multiplex_case!(c, rank3_f64: f64, 3 x [4, 2, 3], index [4, 1] -> [4, 2, 3]);
    multiplex_case!(c, five_candidates: f32, 5 x [3, 3, 1, 3], index [3, 1] -> [3, 3, 1, 3]);

    // index values: run-time errors of the static API
    multiplex_case!(c, out_of_range: i32, 5 x [2, 2, 4, 1], index [2, 1]
        -> Err(E::IndexOutOfRange { row: 0, value: 5, candidates: 5 }));
    multiplex_case!(c, out_of_range_last_row: f32, 2 x [4, 2], index [4, 1]
        -> Err(E::IndexOutOfRange { row: 3, value: 3, candidates: 2 }));
    multiplex_case!(c, negative: i64, 2 x [3, 2, 4, 4], index [3, 1]
        -> Err(E::NegativeIndex { row: 0, value: -1 }));
    multiplex_case!(c, negative_last_row: f32, 3 x [3, 3], index [3, 1]
        -> Err(E::NegativeIndex { row: 2, value: -1 }));

    // shapes: compile errors on the static API, typed errors here
    slices::multiplex(
        &mut c,
        "one_candidate",
        one_candidate::INPUTS,
        &one_candidate::INDEX,
        None,
        |e| matches!(e, E::TooFewCandidates { count: 1 }),
    );
    slices::multiplex(
        &mut c,
        "rows_more",
        rows_more::INPUTS,
        &rows_more::INDEX,
        None,
        |e| matches!(e, E::IndexRows { index, candidates } if index.first() == Some(&9) && candidates.first() == Some(&6)),
    );
    // an accepted one through the same path
    slices::multiplex(
        &mut c,
        "doc",
        doc::INPUTS,
        &doc::INDEX,
        Some(&doc::OUT),
        |_| false,
    );

    // ---- an index with FEWER rows than the candidates (Paddle accepts it:
    // the output has the index's rows; more rows is an error, above)
    multiplex_case!(c, rows_fewer: f32, 3 x [4, 4, 3], index [2, 1] -> [2, 4, 3]);
    multiplex_case!(c, rows_fewer_one: f64, 5 x [2, 2], index [1, 1] -> [1, 2]);
    slices::multiplex(
        &mut c,
        "rows_fewer",
        rows_fewer::INPUTS,
        &rows_fewer::INDEX,
        Some(&rows_fewer::OUT),
        |_| false,
    );

    c.finish()
}
