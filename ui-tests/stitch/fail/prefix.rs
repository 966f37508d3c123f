// dynamic_stitch's prefix rule: data [2, 4] does not start with indices [3].
// One mistake, one error: the rest of the chain is not reported.
use shapecheck::prelude::*;

fn main() {
    let i = Tensor::<i32, shape![3]>::from_array([0, 1, 2]);
    let d = Tensor::<f32, shape![2, 4]>::full(1.0);
    let i1 = Tensor::<i32, shape![1]>::from_array([3]);
    let d1 = Tensor::<f32, shape![1, 4]>::full(2.0);
    let _ = shapecheck::dynamic_stitch(&i, &d).pair(&i1, &d1).run();
}
