// Equal ranks, different shapes: only axis -1 or 0 is allowed.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 1]>::full(1.0);
    let y = Tensor::<f32, shape![4, 3]>::full(2.0);
    let _ = x.elementwise_div(&y, Axis::<1>, Identity);
}
