// reduce/duplicate-axis: axes 1 and -2 of a rank-3 tensor are the same dim
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2, 3, 4]>::full(1);
    let _ = x.max((Axis::<1>, Axis::<-2>));
}
