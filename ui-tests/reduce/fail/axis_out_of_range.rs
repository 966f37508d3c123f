// reduce/axis-range: a [2, 3] tensor has axes -2..=1; axis 2 is out of range
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = x.sum(Axis::<2>);
}
