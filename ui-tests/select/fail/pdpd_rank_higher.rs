// pdpd: cond [2, 3, 1] has a higher rank than then [2, 3], trailing 1 or not.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 3, 1]>::full(true);
    let t = Tensor::<f64, shape![2, 3]>::full(1.0);
    let e = Tensor::<f64, shape![3]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<-1>);
}
