// multiplex! keeps the rules of multiplex: one index row per candidate row.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<i64, shape![3, 2]>::full(1);
    let b = Tensor::<i64, shape![3, 2]>::full(2);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [1]]);
    let _ = shapecheck::multiplex!(index; a, b);
}
