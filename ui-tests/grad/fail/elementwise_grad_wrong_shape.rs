// y's gradient has y's shape [2] (summed over the rows it broadcast along),
// not the output's [2, 3]: assigning it to a [2, 3] tensor is rejected.
use shapecheck::ops::Mul;
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let y = Tensor::<f32, shape![2]>::full(2.0);
    let out = x.elementwise_mul(&y, Axis::<0>, Identity);
    let (_dx, dy) = x.elementwise_backward(Mul, &y, &out, &out, Axis::<0>, Identity);
    let _wrong: Tensor<f32, shape![2, 3]> = dy;
}
