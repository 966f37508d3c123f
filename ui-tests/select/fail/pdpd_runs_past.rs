// pdpd at axis 1: else [3, 2] placed on then [2, 3] runs past its last dim with a 2.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<f32, shape![3, 2]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<1>);
}
