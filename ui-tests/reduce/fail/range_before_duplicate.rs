// reduce/axis-range: -2 is out of a rank-1 tensor's [-1, 1); the 0 after it
// is not reported as a duplicate (Paddle checks the range first)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2]>::full(1.0);
    let _ = x.sum_keepdim((Axis::<-2>, Axis::<0>));
}
