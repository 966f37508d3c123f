// matmul's backward takes `dout` typed as the forward's output: x [2, 3]
// times w [3, 4] is [2, 4], so a `dout` of [2, 3] (x's shape, a common
// slip) does not compile.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let w = Tensor::<f32, shape![3, 4]>::full(1.0);
    let dout = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = x.matmul_backward(&w, &dout);
}
