// Paddle's axis rule inside a tree: y [3] at axis 0 meets the 2 rows.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::zeros();
    let y = Tensor::<f32, shape![3]>::zeros();
    let _ = (x.lazy() * 3.0 - &x).elementwise_mul(&y, Axis::<0>, Relu).eval();
}
