// multiplex! needs at least two candidates, and says so under `cargo check` too.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 4]>::full(1.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [0]]);
    let _ = shapecheck::multiplex!(index; a);
}
