// a layer's output placed over its own input in the arena: the read view
// [1, 16] at 0 (elements 0..16) and the write view [1, 16] at 8 (8..24)
// share elements 8..16. Stable Rust cannot compare two const generics in a
// bound, so this is an assertion evaluated at instantiation: `cargo build`
// reports it, `cargo check` does not.
use shapecheck::ops::layers::Arena;
use shapecheck::prelude::*;

fn main() {
    let mut arena = Arena::<i8, 32>::new();
    let _ = arena.read_write::<shape![1, 16], 0, shape![1, 16], 8>();
}
