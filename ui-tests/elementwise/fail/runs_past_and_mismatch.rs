// Y [3, 2] at axis 2 of X [4, 3, 2]: its 3 meets X's 2 and its 2 runs past
// the end. One error, and the rule Paddle's check reports first: runs-past.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![4, 3, 2]>::full(1.0);
    let y = Tensor::<f32, shape![3, 2]>::full(2.0);
    let _ = x.elementwise_mul(&y, Axis::<2>, Identity);
}
