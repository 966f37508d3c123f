// reduce/axis-range: the second axis of the tuple, -4, is out of a rank-3 tensor's [-3, 3)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<i64, shape![2, 3, 4]>::full(1);
    let _ = x.mean_keepdim((Axis::<0>, Axis::<-4>));
}
