// Lengths and offsets are distinct types: lengths cannot be passed where
// offsets are meant.
use shapecheck::prelude::*;
use shapecheck::{Lengths, LodTensor};

fn main() {
    let levels = [Lengths::new(&[2, 3, 1])];
    let _ = LodTensor::new(Tensor::<f32, shape![6, 1]>::full(1.0), &levels[..]);
}
