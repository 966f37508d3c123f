// X and Y must have one element type (Paddle 2.x: "Input tensors must be same type").
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let y = Tensor::<f64, shape![3]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
}
