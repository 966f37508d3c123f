// `&x * &y` broadcasts like numpy (axis -1): [3, 4] right-aligned against
// [2, 3, 4, 5] pairs 4 with 3 and 5 with 4. The error is the elementwise rule's
// own, naming both shapes.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(1.0);
    let y = Tensor::<f32, shape![3, 4]>::full(2.0);
    let _ = &x * &y;
}
