// select's numpy rule at a node whose then branch is an expression: cond
// [2, 4] against then [2, 3].
use shapecheck::expr;
use shapecheck::prelude::*;

fn main() {
    let t = Tensor::<f32, shape![2, 3]>::zeros();
    let c = Tensor::<bool, shape![2, 4]>::full(true);
    let _ = expr::select(&c, t.lazy() * 2.0, 0.0, Numpy).eval();
}
