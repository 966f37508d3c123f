// two branches of 8 channels joined along the channels give 16, not 8:
// the output's axis dim is the sum of the inputs'. The sum is arithmetic
// on two const generics, which no stable bound states, so this is an
// assertion evaluated at instantiation (`cargo build` reports it)
use shapecheck::ops::layers::concatenation_int8;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<i8, shape![1, 4, 4, 8]>::full(0);
    let b = Tensor::<i8, shape![1, 4, 4, 8]>::full(0);
    let _: Tensor<i8, shape![1, 4, 4, 8]> = concatenation_int8(&a, &b, Axis::<-1>);
}
