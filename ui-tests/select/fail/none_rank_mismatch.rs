// none: else [4] has another rank than cond and then [2, 4] (numpy would accept it).
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let t = Tensor::<i32, shape![2, 4]>::full(1);
    let e = Tensor::<i32, shape![4]>::full(2);
    let _ = select(&c, &t, &e, NoBroadcast);
}
