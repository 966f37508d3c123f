// pdpd is one way: then's 1 cannot take else's 3 (numpy would give [2, 3]).
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 1]>::full(true);
    let t = Tensor::<i64, shape![2, 1]>::full(1);
    let e = Tensor::<i64, shape![2, 3]>::full(2);
    let _ = select(&c, &t, &e, Pdpd::<0>);
}
