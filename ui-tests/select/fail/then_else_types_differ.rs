// then holds f32 and else i32 (OpenVINO: "Argument 1 and 2 element types must match").
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<i32, shape![2, 3]>::full(2);
    let _ = select(&c, &t, &e, Numpy);
}
