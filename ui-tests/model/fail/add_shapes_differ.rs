// a residual ADD of [1, 8, 8, 16] and [1, 8, 8, 32]: the channels neither
// agree nor broadcast (numpy's rule, as TFLite's ADD)
use shapecheck::ops::layers::{add_int8_into, AddInt8};
use shapecheck::prelude::*;

fn main() {
    let params = shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap();
    let add = AddInt8::new(params).unwrap();
    let a = Tensor::<i8, shape![1, 8, 8, 16]>::full(0);
    let b = Tensor::<i8, shape![1, 8, 8, 32]>::full(0);
    let mut y = Tensor::<i8, shape![1, 8, 8, 32]>::zeros();
    add_int8_into(&a, &b, &add, &mut y);
}
