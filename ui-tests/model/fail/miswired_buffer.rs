// the sine model wired by hand through the activation buffers model!'s
// predict uses: buffer `a` read back as [1, 1] (to feed the first layer
// again), but the first layer wrote a [1, 16] there
use shapecheck::ops::layers::{fully_connected_int8_into, PingPong};
use shapecheck::prelude::*;

shapecheck::model!(Sine = "../../../tflite/tests/models/sine.tflite");

fn main() {
    let x = Tensor::<i8, shape![1, 1]>::full(0);
    let mut buffers = PingPong::<i8, 16, 16>::new(0);
    let (mut h, in_a) = buffers.to_a::<shape![1, 16]>();
    fully_connected_int8_into(&x, &sine::LAYER_0, &mut h);
    let (h, mut y, _) = buffers.a_to_b::<shape![1, 1], shape![1, 16]>(in_a);
    fully_connected_int8_into(&h, &sine::LAYER_0, &mut y);
}
