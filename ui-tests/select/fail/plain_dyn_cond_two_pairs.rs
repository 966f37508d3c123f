// numpy: cond's two run-time dims meet then's static ones, and whether they
// broadcast is only known when the op runs: the plain `select` reports the
// first pair only, one error, and names `try_select`.
use shapecheck::prelude::*;

fn pick(
    cond: &Tensor<bool, (Dyn, Dyn), Vec<bool>>,
    then: &Tensor<i32, shape![2, 3], Vec<i32>>,
    other: &Tensor<i32, shape![2, 3], Vec<i32>>,
) {
    let _ = select(cond, then, other, Numpy);
}

fn main() {}
