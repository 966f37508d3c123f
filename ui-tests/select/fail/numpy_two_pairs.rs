// numpy: cond [2, 3] and then [4, 5] differ in both aligned dims: one error,
// at the first pair.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<f32, shape![4, 5]>::full(1.0);
    let e = Tensor::<f32, shape![]>::full(2.0);
    let _ = select(&c, &t, &e, Numpy);
}
