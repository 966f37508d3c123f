// 6 channels cut in 3 give pieces of 2 channels, not 3. The rule is
// arithmetic on const generics, so this is an assertion evaluated at
// instantiation (`cargo build` reports it)
use shapecheck::ops::layers::split_int8;
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i8, shape![1, 5, 4, 6]>::full(0);
    let _: [Tensor<i8, shape![1, 5, 4, 3]>; 3] = split_int8(&x, Axis::<-1>);
}
