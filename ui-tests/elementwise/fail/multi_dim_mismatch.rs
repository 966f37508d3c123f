// Three aligned pairs differ ([2, 3, 4] against [5, 6, 7]): one mistake, one
// error, naming the first pair that conflicts.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3, 4]>::full(1.0);
    let y = Tensor::<f32, shape![5, 6, 7]>::full(2.0);
    let _ = x.elementwise_add(&y, Axis::<-1>, Identity);
}
