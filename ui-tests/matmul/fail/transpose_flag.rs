// x [2, 3] times y [2, 3] with y transposed: y's last dim 3 is the inner
// one, so x must be transposed too (or y not)
use shapecheck::prelude::*;
use shapecheck::{NoTrans, Trans};

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let y = Tensor::<f32, shape![3, 2]>::full(1.0);
    let _ = x.matmul_t(&y, NoTrans, Trans);
}
