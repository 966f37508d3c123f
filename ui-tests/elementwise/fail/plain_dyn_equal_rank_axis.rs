// Equal ranks at an axis other than -1 or 0: Paddle accepts identical shapes
// only, and whether a run-time dim equals the other is known when the op
// runs: the plain form does not compile and names the `try_` form.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(1), Dim), vec![1.0; 3]).unwrap();
    let y = Tensor::<f32, shape![1, 3]>::full(1.0);
    let _ = x.elementwise_sub(&y, Axis::<1>, Identity);
}
