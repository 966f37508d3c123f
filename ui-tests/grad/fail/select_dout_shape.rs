// The upstream gradient of select over cond [2, 3], then [3], else [1]
// (numpy) must have the output's shape [2, 3]; a dout of [3] is rejected.
use shapecheck::ops::select::select_backward;
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<f32, shape![3]>::full(1.0);
    let e = Tensor::<f32, shape![1]>::full(0.0);
    let dout = Tensor::<f32, shape![3]>::full(1.0);
    let _ = select_backward(&c, &t, &e, &dout, Numpy);
}
