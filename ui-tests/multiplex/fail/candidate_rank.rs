// Candidates of rank 1: multiplex selects rows, so candidates need rank >= 2.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![4]>::full(1.0);
    let b = Tensor::<f32, shape![4]>::full(2.0);
    let index = Tensor::<i32, shape![4, 1]>::from_array([[0], [1], [0], [1]]);
    let _ = multiplex(&[a, b], &index).run();
}
