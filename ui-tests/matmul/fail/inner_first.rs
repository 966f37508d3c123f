// the inner dims (5, 6) and the batch dims (2, 3) both differ: one error,
// the inner rule's (the run-time rule checks it first)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 4, 5]>::full(1.0);
    let y = Tensor::<f32, shape![3, 6, 7]>::full(1.0);
    let _ = x.matmul(&y);
}
