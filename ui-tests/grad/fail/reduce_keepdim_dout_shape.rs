// max_keepdim over axis 0 of x [2, 3] gives [1, 3]; its backward's dout
// must be [1, 3], and one of the dropped shape [3] is rejected.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f64, shape![2, 3]>::full(1.0);
    let out = x.max_keepdim(Axis::<0>);
    let dout = Tensor::<f64, shape![3]>::full(1.0);
    let _ = x.max_keepdim_backward(Axis::<0>, &out, &dout);
}
