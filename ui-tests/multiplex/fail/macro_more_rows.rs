// multiplex! keeps the rules of multiplex: the index (7 rows) must not have
// more rows than the candidates (4), as Paddle 3.3.1's case multiplex_rows_more.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<i64, shape![4, 3, 1, 3]>::full(1);
    let b = Tensor::<i64, shape![4, 3, 1, 3]>::full(2);
    let c = Tensor::<i64, shape![4, 3, 1, 3]>::full(3);
    let index = Tensor::<i32, shape![7, 1]>::from_array([[2], [0], [0], [1], [0], [1], [1]]);
    let _ = shapecheck::multiplex!(index; a, b, c);
}
