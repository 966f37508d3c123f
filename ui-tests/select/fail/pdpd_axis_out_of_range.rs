// pdpd: the axis must be -1 or in [0, rank(then)]; -2 and 3 are not.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![3]>::full(true);
    let t = Tensor::<f32, shape![2, 3]>::full(1.0);
    let e = Tensor::<f32, shape![3]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<-2>);
    let s = Tensor::<bool, shape![]>::full(true);
    let _ = select(&s, &t, &t, Pdpd::<3>);
}
