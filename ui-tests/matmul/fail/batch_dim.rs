// the batch dims 2 and 3 differ and neither is 1
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 4, 5]>::full(1.0);
    let y = Tensor::<f32, shape![3, 5, 6]>::full(1.0);
    let _ = x.matmul(&y);
}
