// Gradients are defined for f32 and f64: sum_backward on an i32 tensor is
// the grad-element rule, one error.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2, 3]>::full(1);
    let dout = Tensor::<i32, shape![2]>::full(1);
    let _ = x.sum_backward(Axis::<1>, &dout);
}
