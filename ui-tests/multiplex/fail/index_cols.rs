// The index's second dim must be 1.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 2]>::full(1.0);
    let b = Tensor::<f32, shape![2, 2]>::full(2.0);
    let index = Tensor::<i32, shape![2, 2]>::from_array([[1, 0], [0, 1]]);
    let _ = multiplex(&[a, b], &index).run();
}
