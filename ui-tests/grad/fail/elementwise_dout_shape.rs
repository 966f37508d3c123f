// The upstream gradient of x [2, 3] * y [2] at axis 0 must have the output's
// shape [2, 3]; a dout of [3, 2] (the same element count) is rejected.
use shapecheck::ops::Mul;
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let y = Tensor::<f32, shape![2]>::full(2.0);
    let out = x.elementwise_mul(&y, Axis::<0>, Identity);
    let dout = Tensor::<f32, shape![3, 2]>::full(1.0);
    let _ = x.elementwise_backward(Mul, &y, &out, &dout, Axis::<0>, Identity);
}
