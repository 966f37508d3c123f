// cond must hold bool: an f32 mask is rejected (OpenVINO: "Argument 0 must have boolean element type").
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<f32, shape![2, 3]>::full(1.0);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<f32, shape![2, 3]>::full(2.0);
    let _ = select(&c, &t, &e, Numpy);
}
