// Two rules of the plain forms fail at once: y's first dim, a run-time dim,
// meets x's last dim, and y's second, a run-time dim too, runs past x's end.
// One error, for the dim that runs past, and it names the `try_` form.
use shapecheck::prelude::*;

fn scale(x: &Tensor<f32, shape![3, 4, 3], Vec<f32>>, y: &Tensor<f32, (Dyn, Dyn), Vec<f32>>) {
    let _ = x.elementwise_mul(y, Axis::<2>, Identity);
}

fn main() {}
