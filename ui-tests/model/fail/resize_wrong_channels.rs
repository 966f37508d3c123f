// a resize keeps the channels: 3 in, 3 out, not 6
use shapecheck::ops::layers::{resize_nearest_int8, Resize};
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i8, shape![1, 4, 4, 3]>::full(0);
    let _: Tensor<i8, shape![1, 8, 8, 6]> = resize_nearest_int8(&x, &Resize::LEGACY);
}
