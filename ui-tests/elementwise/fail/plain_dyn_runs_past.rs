// A run-time dim that runs past the other operand's last dim can be dropped
// only if it is 1, which is known when the op runs: the plain form does not
// compile and names the `try_` form.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4, 3]>::full(1.0);
    let y = Tensor::<f32, shape![3, Dyn], Vec<f32>>::from_vec((Dim, Dyn(1)), vec![1.0; 3]).unwrap();
    let _ = x.elementwise_mul(&y, Axis::<2>, Identity);
}
