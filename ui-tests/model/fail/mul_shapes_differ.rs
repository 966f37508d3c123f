// a squeeze-and-excite MUL whose scale has 8 channels, on a tensor of 16:
// the two shapes do not broadcast
use shapecheck::ops::layers::{mul_int8, MulInt8};
use shapecheck::prelude::*;

fn main() {
    let params = shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127).unwrap();
    let mul = MulInt8::new(params).unwrap();
    let x = Tensor::<i8, shape![1, 8, 8, 16]>::full(0);
    let scale = Tensor::<i8, shape![1, 1, 1, 8]>::full(0);
    let _ = mul_int8(&x, &scale, &mul);
}
