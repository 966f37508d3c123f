// the sine model by hand: three fully connected layers, 1 → 16 → 16 → 1,
// each fed the one before; the constants are those model! writes
use shapecheck::prelude::*;
use shapecheck::ops::layers::fully_connected_int8;

shapecheck::model!(Sine = "../../../tflite/tests/models/sine.tflite");

fn main() {
    let x = Tensor::<i8, shape![1, 1]>::from_array([[-128]]);
    let h1 = fully_connected_int8(&x, &sine::LAYER_0);
    let h2 = fully_connected_int8(&h1, &sine::LAYER_1);
    let y: Tensor<i8, shape![1, 1]> = fully_connected_int8(&h2, &sine::LAYER_2);
    assert_eq!(y, Sine::predict(&x));
    assert_eq!(y.as_slice(), &[11]);
}
