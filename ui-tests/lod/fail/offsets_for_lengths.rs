// Offsets where lengths are meant: `from_lengths` takes `Lengths` only.
use shapecheck::prelude::*;
use shapecheck::{LodTensor, Offsets};

fn main() {
    let dense = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::with_dims(&[6, 1], vec![0.0; 6]).unwrap();
    let _ = LodTensor::from_lengths(dense, &[Offsets::new(&[0, 2, 5, 6])]);
}
