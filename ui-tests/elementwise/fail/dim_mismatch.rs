// Paddle's example shapes at the default axis: [3, 4] right-aligned against
// [2, 3, 4, 5] pairs 4 with 3 and 5 with 4.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.0);
    let y = Tensor::<f32, shape![3, 4]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
}
