// A zero-size dim broadcasts only against 0 or 1, as in numpy and Paddle.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![0, 3]>::full(1.0);
    let y = Tensor::<f32, shape![5, 3]>::full(2.0);
    let _ = x.elementwise_add(&y, Axis::<-1>, Identity);
}
