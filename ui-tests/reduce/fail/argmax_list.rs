// reduce/arg-axis: argmax takes one axis (Paddle rejects a list)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = x.argmax((Axis::<0>, Axis::<1>));
}
