//! Paddle's elementwise ops at axis -1 (numpy's right alignment, both sides
//! broadcasting) on the target, through the static API: views over the
//! vectors' data in flash into a caller's stack buffer, views to an inline
//! result, and inline operands. Expected values: the recorded Paddle outputs
//! of tests/vectors/elementwise.json (embedded by build.rs).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck_embedded::vectors::elementwise_numpy::*;
use shapecheck_embedded::{elementwise_case, Checks};

// vector: ADD_BOTH_BROADCAST = elementwise elementwise_add_random#0
// vector: DIV_X_ONES = elementwise elementwise_div_random#5
// vector: MIN_LAST_DIM = elementwise elementwise_min_sub#3
// vector: MUL_RELU = elementwise elementwise_mul_ones_in_x#7
// vector: MUL_RANK5 = elementwise elementwise_mul_sub#3
// vector: MUL_SCALAR_Y = elementwise elementwise_mul_scalar#0
// vector: MUL_DOC_SCALAR = elementwise elementwise_mul_doc#0
// vector: MUL_Y_ONES = elementwise elementwise_mul_ones_in_y#10
// vector: SUB_SAME = elementwise elementwise_sub_sub#0
// vector: DIV_Y_HIGHER = elementwise elementwise_div_random#4
// vector: MUL_SIGMOID = elementwise elementwise_mul_full#7

#[entry]
fn main() -> ! {
    let mut c = Checks::new("elementwise_numpy");

    // [2, 1] + [2, 4]: X's 1 broadcasts against Y's 4
    elementwise_case!(c, add_both_broadcast: i32, elementwise_add / elementwise_add_into,
        x [2, 1], y [2, 4] -> [2, 4], axis -1, act Identity = "", tol 0.0);
    // [4, 2, 1] / [3] -> [4, 2, 3]
    elementwise_case!(c, div_x_ones: f32, elementwise_div / elementwise_div_into,
        x [4, 2, 1], y [3] -> [4, 2, 3], axis -1, act Identity = "", tol 0.0);
    elementwise_case!(c, min_last_dim: i32, elementwise_min / elementwise_min_into,
        x [2, 3, 4], y [4] -> [2, 3, 4], axis -1, act Identity = "", tol 0.0);
    // [2, 1, 1, 3] * [1, 2, 3] -> [2, 1, 2, 3], then relu
    elementwise_case!(c, mul_relu: f32, elementwise_mul / elementwise_mul_into,
        x [2, 1, 1, 3], y [1, 2, 3] -> [2, 1, 2, 3], axis -1, act Relu = "relu", tol 0.0);
    elementwise_case!(c, mul_rank5: i64, elementwise_mul / elementwise_mul_into,
        x [2, 3, 3, 1, 2], y [3, 1, 2] -> [2, 3, 3, 1, 2], axis -1, act Identity = "", tol 0.0);
    // a rank-0 Y
    elementwise_case!(c, mul_scalar_y: f32, elementwise_mul / elementwise_mul_into,
        x [3, 1], y [] -> [3, 1], axis -1, act Identity = "", tol 0.0);
    elementwise_case!(c, mul_doc_scalar: i64, elementwise_mul / elementwise_mul_into,
        x [2, 3, 4, 5], y [] -> [2, 3, 4, 5], axis -1, act Identity = "", tol 0.0);
    elementwise_case!(c, mul_y_ones: f32, elementwise_mul / elementwise_mul_into,
        x [2, 4], y [2, 1] -> [2, 4], axis -1, act Identity = "", tol 0.0);
    elementwise_case!(c, sub_same: f32, elementwise_sub / elementwise_sub_into,
        x [3], y [3] -> [3], axis -1, act Identity = "", tol 0.0);
    // Y of higher rank than X: [1, 1] / [2, 4] -> [2, 4]
    elementwise_case!(c, div_y_higher: f32, elementwise_div / elementwise_div_into,
        x [1, 1], y [2, 4] -> [2, 4], axis -1, act Identity = "", tol 0.0);
    // sigmoid through libm, within 1e-6 relative of Paddle's
    elementwise_case!(c, mul_sigmoid: f32, elementwise_mul / elementwise_mul_into,
        x [3, 2, 4, 2], y [3, 2, 4, 2] -> [3, 2, 4, 2], axis -1, act Sigmoid = "sigmoid", tol 1e-6);

    c.finish()
}
