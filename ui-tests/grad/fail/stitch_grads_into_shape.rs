// backward_into writes each pair's gradient into a caller's tensor of that
// pair's data shape [2, 4]; a [4, 2] tensor is rejected.
use shapecheck::prelude::*;
use shapecheck::StitchGrad;

fn main() {
    let i = Tensor::<i32, shape![2]>::from_array([1, 0]);
    let d = Tensor::<f32, shape![2, 4]>::full(1.0);
    let stitch = dynamic_stitch(&i, &d);
    let dout = stitch.run().unwrap();
    let mut g = Tensor::<f32, shape![4, 2]>::full(0.0);
    let _ = stitch.backward_into(&dout, StitchGrad::Derivative, &mut ((), &mut g));
}
