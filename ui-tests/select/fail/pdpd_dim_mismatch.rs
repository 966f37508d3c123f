// pdpd at axis 0: else [4] lands on then's first dim 2.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let t = Tensor::<i64, shape![2, 4]>::full(1);
    let e = Tensor::<i64, shape![4]>::full(2);
    let _ = select(&c, &t, &e, Pdpd::<0>);
}
