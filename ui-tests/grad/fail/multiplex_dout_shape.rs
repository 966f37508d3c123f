// multiplex of [3, 2] candidates with a [2, 1] index has output [2, 2]: the
// upstream gradient must have that shape; a dout shaped like the candidates,
// [3, 2], is rejected.
use shapecheck::prelude::*;
use shapecheck::multiplex_backward;

fn main() {
    let a = Tensor::<f32, shape![3, 2]>::full(1.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let dout = Tensor::<f32, shape![3, 2]>::full(1.0);
    let _ = multiplex_backward(&[a, a], &index, &dout);
}
