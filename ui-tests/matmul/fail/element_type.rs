// f32 times f64: Paddle rejects mixed dtypes, and so does the type checker
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let y = Tensor::<f64, shape![3, 2]>::full(1.0);
    let _ = x.matmul(&y);
}
