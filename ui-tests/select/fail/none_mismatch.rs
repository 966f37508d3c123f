// none: same rank, but then [2, 3] differs from cond and else [2, 4].
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let t = Tensor::<i32, shape![2, 3]>::full(1);
    let e = Tensor::<i32, shape![2, 4]>::full(2);
    let _ = select(&c, &t, &e, NoBroadcast);
}
