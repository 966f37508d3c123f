//! Paddle's elementwise ops with an explicit `axis` (Y placed at that dim
//! of X, its trailing 1s ignored where they run past) and the activations
//! relu / tanh / sigmoid (through libm, f32 and f64), on the target through
//! the static API. Expected values: the recorded Paddle outputs of
//! tests/vectors/elementwise.json (embedded by build.rs); tanh and sigmoid
//! within 1e-6 relative, everything else bit for bit.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck_embedded::vectors::elementwise_axis::*;
use shapecheck_embedded::{elementwise_case, Checks};

// vector: DOC_TANH = elementwise elementwise_mul_doc#4
// vector: DOC_SIGMOID = elementwise elementwise_mul_doc#3
// vector: MUL_AXIS1 = elementwise elementwise_mul_sub#1
// vector: MUL_AXIS1_I64 = elementwise elementwise_mul_sub#4
// vector: DIV_AXIS3 = elementwise elementwise_div_random#3
// vector: MUL_AXIS0 = elementwise elementwise_mul_sub#31
// vector: MIN_TANH = elementwise elementwise_min_sub#1
// vector: ADD_TRAIL1_SIGMOID = elementwise elementwise_add_trail1#0
// vector: DIV_RELU = elementwise elementwise_div_sub#0
// vector: MIN_X_ONES = elementwise elementwise_min_ones_in_x#0
// vector: SUB_X_ONES = elementwise elementwise_sub_ones_in_x#0
// vector: MUL_Y_HIGHER_TANH = elementwise elementwise_mul_trail1#0
// vector: MIN_SIGMOID_F64 = elementwise elementwise_min_random#0
// vector: ADD_RELU_RANK5 = elementwise elementwise_add_ones_in_y#0
// vector: MAX_AXIS1 = elementwise elementwise_max_sub#0

#[entry]
fn main() -> ! {
    let mut c = Checks::new("elementwise_axis");

    // Paddle's documented example: [2, 3, 4, 5] by [3, 4] at axis 1, tanh
    elementwise_case!(c, doc_tanh: f32, elementwise_mul / elementwise_mul_into,
        x [2, 3, 4, 5], y [3, 4] -> [2, 3, 4, 5], axis 1, act Tanh = "tanh", tol 1e-6);
    elementwise_case!(c, doc_sigmoid: f32, elementwise_mul / elementwise_mul_into,
        x [2, 3, 4, 5], y [4, 5] -> [2, 3, 4, 5], axis 2, act Sigmoid = "sigmoid", tol 1e-6);
    elementwise_case!(c, mul_axis1: i32, elementwise_mul / elementwise_mul_into,
        x [1, 3, 4, 2], y [3] -> [1, 3, 4, 2], axis 1, act Identity = "", tol 0.0);
    elementwise_case!(c, mul_axis1_i64: i64, elementwise_mul / elementwise_mul_into,
        x [4, 2, 3], y [2] -> [4, 2, 3], axis 1, act Identity = "", tol 0.0);
    elementwise_case!(c, div_axis3: f32, elementwise_div / elementwise_div_into,
        x [4, 2, 1, 2], y [2] -> [4, 2, 1, 2], axis 3, act Identity = "", tol 0.0);
    elementwise_case!(c, mul_axis0: i64, elementwise_mul / elementwise_mul_into,
        x [3, 2, 3, 2], y [3, 2] -> [3, 2, 3, 2], axis 0, act Identity = "", tol 0.0);
    elementwise_case!(c, min_tanh: f32, elementwise_min / elementwise_min_into,
        x [1, 3, 4, 2], y [2] -> [1, 3, 4, 2], axis 3, act Tanh = "tanh", tol 1e-6);
    // Y [1, 1] at axis 1 of [4, 1, 1, 2]
    elementwise_case!(c, add_trail1_sigmoid: f32, elementwise_add / elementwise_add_into,
        x [4, 1, 1, 2], y [1, 1] -> [4, 1, 1, 2], axis 1, act Sigmoid = "sigmoid", tol 1e-6);
    elementwise_case!(c, div_relu: f32, elementwise_div / elementwise_div_into,
        x [4, 4], y [4] -> [4, 4], axis 1, act Relu = "relu", tol 0.0);
    // X's 1 broadcasts against Y's 3 at axis 1: [2, 1] min [3] -> [2, 3]
    elementwise_case!(c, min_x_ones: i64, elementwise_min / elementwise_min_into,
        x [2, 1], y [3] -> [2, 3], axis 1, act Identity = "", tol 0.0);
    elementwise_case!(c, sub_x_ones: i64, elementwise_sub / elementwise_sub_into,
        x [3, 1, 3], y [3] -> [3, 3, 3], axis 1, act Identity = "", tol 0.0);
    // X of lower rank, placed at axis 0 of Y: [2] * [2, 1] -> [2, 1], f64 tanh
    elementwise_case!(c, mul_y_higher_tanh: f64, elementwise_mul / elementwise_mul_into,
        x [2], y [2, 1] -> [2, 1], axis 0, act Tanh = "tanh", tol 1e-6);
    elementwise_case!(c, min_sigmoid_f64: f64, elementwise_min / elementwise_min_into,
        x [4], y [4] -> [4], axis 0, act Sigmoid = "sigmoid", tol 1e-6);
    elementwise_case!(c, add_relu_rank5: f32, elementwise_add / elementwise_add_into,
        x [2, 4, 1, 3, 1], y [1] -> [2, 4, 1, 3, 1], axis 1, act Relu = "relu", tol 0.0);
    elementwise_case!(c, max_axis1: f32, elementwise_max / elementwise_max_into,
        x [1, 3], y [3] -> [1, 3], axis 1, act Identity = "", tol 0.0);

    c.finish()
}
