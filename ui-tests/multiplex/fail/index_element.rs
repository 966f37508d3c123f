// The index must hold i32 or i64, not floats.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 2]>::full(1.0);
    let b = Tensor::<f32, shape![2, 2]>::full(2.0);
    let index = Tensor::<f32, shape![2, 1]>::from_array([[1.0], [0.0]]);
    let _ = multiplex(&[a, b], &index).run();
}
