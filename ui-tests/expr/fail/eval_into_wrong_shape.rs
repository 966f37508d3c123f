// `eval_into` a buffer of another shape: the output is [2, 3].
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let mut out = Tensor::<f32, shape![3, 2]>::zeros();
    (x.lazy() + 1.0).eval_into(&mut out);
}
