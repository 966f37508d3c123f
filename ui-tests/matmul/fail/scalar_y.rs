// matmul by a 0-d tensor: Paddle's matmul needs rank 1 or more on each side.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::full(1.0);
    let y = Tensor::<f32, shape![]>::full(2.0);
    let _ = x.matmul(&y);
}
