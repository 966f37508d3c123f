// No candidate at all.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [0]]);
    let none: [Tensor<f32, shape![2, 3]>; 0] = [];
    let _ = multiplex(&none, &index).run();
}
