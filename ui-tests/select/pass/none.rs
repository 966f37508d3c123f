// none: identical shapes; the specification's example.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let c = Tensor::<bool, shape![3, 2]>::from_array([[false, false], [true, false], [true, true]]);
    let t = Tensor::<i64, shape![3, 2]>::from_array([[-1, 0], [1, 2], [3, 4]]);
    let e = Tensor::<i64, shape![3, 2]>::from_array([[11, 10], [9, 8], [7, 6]]);
    let out: Tensor<i64, shape![3, 2]> = select(&c, &t, &e, NoBroadcast);
    assert_eq!(out.as_slice(), &[11, 10, 1, 8, 3, 4]);
}
