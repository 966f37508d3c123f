// two branches whose rows differ (4 and 8) cannot be joined along the
// channels, whatever the output: the dims off the axis must be equal. An
// assertion evaluated at instantiation, as the output's sum
// (concatenation_wrong_output; `cargo build` reports it)
use shapecheck::ops::layers::concatenation_int8;
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<i8, shape![1, 4, 4, 8]>::full(0);
    let b = Tensor::<i8, shape![1, 8, 4, 8]>::full(0);
    let _: Tensor<i8, shape![1, 4, 4, 16]> = concatenation_int8(&a, &b, Axis::<-1>);
}
