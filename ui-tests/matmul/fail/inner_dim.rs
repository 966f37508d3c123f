// x [3, 4] times y [5, 6]: x's last dim 4 meets y's second-to-last 5
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4]>::full(1.0);
    let y = Tensor::<f32, shape![5, 6]>::full(1.0);
    let _ = x.matmul(&y);
}
