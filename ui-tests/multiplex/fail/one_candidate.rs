// A single candidate: multiplex needs at least 2 (checked when `multiplex` is
// instantiated with K = 1, so `cargo build` reports it and `cargo check` does not).
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::full(1.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [0]]);
    let _ = multiplex(&[a], &index).run();
}
