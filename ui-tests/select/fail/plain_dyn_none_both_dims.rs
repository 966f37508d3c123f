// none: then's two run-time dims meet the static dims of cond and else, and
// whether they are equal is only known when the op runs: the plain `select`
// reports the first pair only, one error, and names `try_select`.
use shapecheck::prelude::*;

fn pick(
    cond: &Tensor<bool, shape![2, 3], Vec<bool>>,
    then: &Tensor<i32, (Dyn, Dyn), Vec<i32>>,
    other: &Tensor<i32, shape![2, 3], Vec<i32>>,
) {
    let _ = select(cond, then, other, NoBroadcast);
}

fn main() {}
