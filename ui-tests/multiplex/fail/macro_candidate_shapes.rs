// multiplex! checks that every candidate has the first one's shape.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 4]>::full(1.0);
    let b = Tensor::<f32, shape![2, 4]>::full(2.0);
    let c = Tensor::<f32, shape![3, 4]>::full(3.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [2]]);
    let _ = shapecheck::multiplex!(index; a, b, c);
}
