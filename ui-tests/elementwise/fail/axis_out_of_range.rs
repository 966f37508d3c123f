// axis must lie in [-R, R) where R is the larger rank (here R = 2).
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![1, 2]>::full(1.0);
    let y = Tensor::<f64, shape![2]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<2>, Identity);
}
