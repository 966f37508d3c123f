// Both aligned pairs of then and cond meet a run-time dim: the plain
// `select` reports the first pair only, one error, and names `try_select`.
use shapecheck::prelude::*;

fn pick(
    cond: &Tensor<bool, shape![2, 3], Vec<bool>>,
    then: &Tensor<i32, (Dyn, Dyn), Vec<i32>>,
    other: &Tensor<i32, shape![2, 3], Vec<i32>>,
) {
    let _ = select(cond, then, other, Numpy);
}

fn main() {}
