// A multiplex that is never run computes nothing: written as the free
// function it was before it became a builder (`multiplex(&c, &i)` was the
// result), the call is a warning naming the four output methods, an error
// under `deny(unused_must_use)`.
#![deny(unused_must_use)]
use shapecheck::prelude::*;

fn main() {
    let a = tensor![[1, 2], [3, 4]];
    let b = tensor![[5, 6], [7, 8]];
    let index = tensor![[1], [0]];
    multiplex(&[a, b], &index);
}
