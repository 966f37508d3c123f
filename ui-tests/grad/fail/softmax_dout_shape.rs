// softmax's output has x's shape [2, 3]; a dout of [3, 2] (the same element
// count) is rejected.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let out = x.softmax(Axis::<-1>);
    let dout = Tensor::<f32, shape![3, 2]>::full(1.0);
    let _ = x.softmax_backward(Axis::<-1>, &out, &dout);
}
