// The method form on the condition (`cond.try_select`, the spelling both
// paths share): the same rule and one error, as the free function's
// numpy_mismatch. cond [2, 4], then [3, 4] and else [4] right-align to 2
// against 3.
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let t = Tensor::<f32, shape![3, 4]>::full(1.0);
    let e = Tensor::<f32, shape![4]>::full(2.0);
    let _ = c.try_select(&t, &e, Numpy);
}
