// none: then [4, 5] differs from cond and else [2, 3] in both dims: one
// error, at the first dim.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<i32, shape![4, 5]>::full(1);
    let e = Tensor::<i32, shape![2, 3]>::full(2);
    let _ = select(&c, &t, &e, NoBroadcast);
}
