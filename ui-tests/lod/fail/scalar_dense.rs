// A LoD splits the dense tensor's rows into sequences: a scalar has none.
use shapecheck::prelude::*;
use shapecheck::{LodTensor, Offsets};

fn main() {
    let levels = [Offsets::new(&[0, 1])];
    let _ = LodTensor::new(Tensor::<f32, shape![]>::full(1.0), &levels[..]);
}
