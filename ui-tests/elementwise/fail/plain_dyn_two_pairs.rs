// Both aligned pairs meet a run-time dim: the plain form reports the first
// pair only, one error, and names the `try_` form.
use shapecheck::prelude::*;

fn scale(x: &Tensor<f32, (Dyn, Dyn), Vec<f32>>, y: &Tensor<f32, shape![2, 3], Vec<f32>>) {
    let _ = x.elementwise_mul(y, Axis::<-1>, Identity);
}

fn main() {}
