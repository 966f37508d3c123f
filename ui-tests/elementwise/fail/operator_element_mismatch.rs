// No implicit promotion: f32 * f64 is rejected with the element-type rule.
use shapecheck::prelude::*;

fn main() {
    let a = tensor![1.0f32, 2.0];
    let b = tensor![1.0f64, 2.0];
    let _ = &a * &b;
}
