// f32 indices in a later pair, then `.run()`: one error, at `.pair`.
use shapecheck::prelude::*;

fn main() {
    let i0 = Tensor::<i32, shape![2]>::from_array([0, 1]);
    let d0 = Tensor::<f32, shape![2, 4]>::full(1.0);
    let i1 = Tensor::<f32, shape![2]>::from_array([2.0, 3.0]);
    let d1 = Tensor::<f32, shape![2, 4]>::full(2.0);
    let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1).run();
}
