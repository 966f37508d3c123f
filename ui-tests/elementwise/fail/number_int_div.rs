// `/` with a number is, as between tensors, only for f32 and f64: integers
// use elementwise_div, which returns a Result.
use shapecheck::prelude::*;

fn main() {
    let x = tensor![7i32, 8];
    let _ = 2i32 / &x;
}
