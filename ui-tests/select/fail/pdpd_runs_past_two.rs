// pdpd at axis 1: else [3, 2, 5] placed on then [2, 3, 4] runs past its last
// dim with two dims that are not 1: one error, at the first.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![]>::full(true);
    let t = Tensor::<f32, shape![2, 3, 4]>::full(1.0);
    let e = Tensor::<f32, shape![3, 2, 5]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<1>);
}
