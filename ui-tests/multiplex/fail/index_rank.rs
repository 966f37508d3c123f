// The index must have rank 2 ([rows, 1]), not be a vector.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 2]>::full(1.0);
    let b = Tensor::<f32, shape![2, 2]>::full(2.0);
    let index = Tensor::<i32, shape![2]>::from_array([1, 0]);
    let _ = multiplex(&[a, b], &index).run();
}
