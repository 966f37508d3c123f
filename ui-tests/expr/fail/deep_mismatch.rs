// A mismatch three nodes deep: `t * 2` is [2, 3], `+ &c` meets [4].
use shapecheck::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let b = Tensor::<f32, shape![3]>::zeros();
    let c = Tensor::<f32, shape![4]>::zeros();
    let _ = ((t.lazy() * 2.0 + &b).relu() + &c).eval();
}
