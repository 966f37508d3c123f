// a crop of 4 rows from row 2 of 5 ends past the input: begin + size must
// be within each axis. The rule is arithmetic on const generics, so this
// is an assertion evaluated at instantiation (`cargo build` reports it)
use shapecheck::ops::layers::{slice_int8, Begin};
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i8, shape![1, 5, 6, 4]>::full(0);
    let _: Tensor<i8, shape![1, 4, 4, 4]> = slice_int8(&x, Begin::<0, 2, 1, 0>);
}
