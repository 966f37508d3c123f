// The upstream gradient of x [2, 3].sum(Axis::<1>) must have the output's
// shape [2]; a dout of [3] (the shape of a sum over axis 0) is rejected.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let dout = Tensor::<f32, shape![3]>::full(1.0);
    let _ = x.sum_backward(Axis::<1>, &dout);
}
