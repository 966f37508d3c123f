// Gradients are real numbers: a backward on i32 tensors is rejected.
use shapecheck::ops::Add;
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2]>::full(1);
    let y = Tensor::<i32, shape![2]>::full(2);
    let out = x.elementwise_add(&y, Axis::<-1>, Identity);
    let _ = x.elementwise_backward(Add, &y, &out, &out, Axis::<-1>, Identity);
}
