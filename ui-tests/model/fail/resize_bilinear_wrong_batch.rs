// a resize keeps the batch: 1 image in, 1 out, not 2
use shapecheck::ops::layers::{resize_bilinear_int8_into, Resize};
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i8, shape![1, 5, 4, 3]>::full(0);
    let mut y = Tensor::<i8, shape![2, 7, 9, 3]>::zeros();
    resize_bilinear_int8_into(&x, &Resize::LEGACY, &mut y);
}
