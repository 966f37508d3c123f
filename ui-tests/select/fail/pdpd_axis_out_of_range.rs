// pdpd: the axis must be -1 or in [0, rank(then)]; -2 is not.
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![3]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<f32, shape![3]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<-2>);
}
