// The index has 3 rows, the candidates 2: index rows must not exceed candidate
// rows (Paddle 3.3.1: "The 2nd-dim of input cannot be smaller than batchSize of
// the index tensor"). Stable Rust cannot compare two const generics in a bound,
// so this is an assertion evaluated at instantiation: `cargo build` reports
// it, `cargo check` does not.
use shapecheck::multiplex;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 2]>::full(1.0);
    let b = Tensor::<f32, shape![2, 2]>::full(2.0);
    let index = Tensor::<i32, shape![3, 1]>::from_array([[1], [0], [1]]);
    let _ = multiplex(&[a, b], &index).run();
}
