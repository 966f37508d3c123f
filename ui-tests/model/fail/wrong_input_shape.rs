// sine.tflite takes a [1, 1] input; a [1, 2] tensor is not it
use shapecheck::prelude::*;

shapecheck::model!(Sine = "../../../tflite/tests/models/sine.tflite");

fn main() {
    let x = Tensor::<i8, shape![1, 2]>::full(0);
    let _ = Sine::predict(&x);
}
