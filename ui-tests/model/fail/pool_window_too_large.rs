// a VALID 3×3 pool on a 2×2 image gives no output: the window must lie
// within the input. Stable Rust cannot compare two const generics in a
// bound, so this is an assertion evaluated at instantiation: `cargo build`
// reports it, `cargo check` does not.
use shapecheck::ops::layers::{average_pool_int8_into, ClampInt8, Pool2d, Valid};
use shapecheck::prelude::*;

fn main() {
    let pool = Pool2d::<Dim<3>, Dim<3>, Valid<1, 1>>::new(Valid, ClampInt8::FULL);
    let x = Tensor::<i8, shape![1, 2, 2, 4]>::full(0);
    let mut y = Tensor::<i8, shape![1, 1, 1, 4]>::zeros();
    average_pool_int8_into(&x, &pool, &mut y);
}
