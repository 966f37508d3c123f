// numpy: cond [2, 4], then [3, 4] and else [4] right-align to 2 against 3.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let t = Tensor::<f32, shape![3, 4]>::full(1.0);
    let e = Tensor::<f32, shape![4]>::full(2.0);
    let _ = select(&c, &t, &e, Numpy);
}
