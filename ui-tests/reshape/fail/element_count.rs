// A static reshape to a shape of another element count: [2, 3] holds 6,
// [4, 2] holds 8. Stable Rust cannot compare two const generics in a bound,
// so this is an assertion evaluated at instantiation: `cargo build` reports
// it, `cargo check` does not.
use shapecheck::prelude::*;

fn main() {
    let x = tensor![[1, 2, 3], [4, 5, 6]];
    let _ = x.reshape::<shape![4, 2]>();
}
