// pdpd at axis 0: else [4, 5] lands on then [2, 3], both dims wrong: one
// error, at the first dim.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<i64, shape![2, 3]>::full(1);
    let e = Tensor::<i64, shape![4, 5]>::full(2);
    let _ = select(&c, &t, &e, Pdpd::<0>);
}
