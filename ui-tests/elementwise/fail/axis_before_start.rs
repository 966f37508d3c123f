// A negative axis counts as |rank(X) - rank(Y)| + axis + 1: here 2 - 4 + 1 = -1.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i64, shape![2, 3, 4, 5]>::full(1);
    let y = Tensor::<i64, shape![3, 4]>::full(2);
    let _ = x.elementwise_sub(&y, Axis::<-4>, Identity);
}
