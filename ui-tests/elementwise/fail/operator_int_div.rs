// `/` is only defined for f32 and f64: an integer division by zero has no
// value, and integers use elementwise_div, which returns a Result.
use shapecheck::prelude::*;

fn main() {
    let a = tensor![7i32, 8];
    let b = tensor![2, 0];
    let _ = &a / &b;
}
