// Y [3, 2] placed at axis 2 of X [3, 4, 3] runs one dim past the end, and
// that dim (2) is not a trailing 1 that could be dropped.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4, 3]>::full(1.0);
    let y = Tensor::<f32, shape![3, 2]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<2>, Identity);
}
