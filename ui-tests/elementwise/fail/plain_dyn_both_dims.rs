// Under `Axis::<1>` both dims of X are run-time dims that meet static dims of
// Y: the plain form reports the first pair only, one error, and names the
// `try_` form.
use shapecheck::prelude::*;

fn scale(x: &Tensor<f32, (Dyn, Dyn), Vec<f32>>, y: &Tensor<f32, shape![2, 3], Vec<f32>>) {
    let _ = x.elementwise_mul(y, Axis::<1>, Identity);
}

fn main() {}
