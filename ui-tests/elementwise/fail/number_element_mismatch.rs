// A number on one side of an operator must have the tensor's element type:
// shapecheck never promotes (an f64 with an f32 tensor is not converted).
use shapecheck::prelude::*;

fn main() {
    let x = tensor![1.0f32, 2.0];
    let _ = &x * 2.0f64;
}
