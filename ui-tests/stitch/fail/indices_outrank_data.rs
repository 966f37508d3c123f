// Indices [2, 2] with data [4]: the data's shape cannot start with a longer one.
use shapecheck::prelude::*;

fn main() {
    let i0 = Tensor::<i32, shape![3]>::from_array([0, 1, 2]);
    let d0 = Tensor::<f32, shape![3]>::full(1.0);
    let i1 = Tensor::<i32, shape![2, 2]>::from_array([[3, 4], [5, 6]]);
    let d1 = Tensor::<f32, shape![4]>::full(2.0);
    let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
}
