// X may have the lower rank: X [3] right-aligned against Y [2, 4] pairs 3 with 4.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![3]>::full(1);
    let y = Tensor::<i32, shape![2, 4]>::full(2);
    let _ = x.elementwise_max(&y, Axis::<-1>, Identity);
}
