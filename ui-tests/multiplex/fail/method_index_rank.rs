// The method form on the index (`index.try_multiplex`, the spelling both
// paths share): an index of shape [3] (not [rows, 1]) is one error, by
// multiplex's index rule.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![3, 2]>::full(1.0);
    let b = Tensor::<f32, shape![3, 2]>::full(2.0);
    let index = Tensor::<i32, shape![3]>::full(0);
    let _ = index.try_multiplex(&[a, b]);
}
