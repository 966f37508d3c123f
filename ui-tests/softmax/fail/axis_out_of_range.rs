// softmax/axis-range: a [2, 3] tensor's softmax axis lies in [-2, 1]
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = x.softmax(Axis::<2>);
}
