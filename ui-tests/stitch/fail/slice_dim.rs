// The slice rule, same rank: pair 0 leaves [4], pair 1 (mixed ranks) leaves [5].
use shapecheck::prelude::*;

fn main() {
    let i0 = Tensor::<i32, shape![2]>::from_array([0, 1]);
    let d0 = Tensor::<f32, shape![2, 4]>::full(1.0);
    let i1 = Tensor::<i64, shape![2, 3]>::from_array([[2, 3, 4], [5, 6, 7]]);
    let d1 = Tensor::<f32, shape![2, 3, 5]>::full(2.0);
    let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
}
