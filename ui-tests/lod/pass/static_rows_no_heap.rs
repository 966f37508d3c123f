// A LoD tensor over a static dense shape and borrowed levels, its
// sequences, and a reset whose new level lands in a caller's buffer.
use shapecheck::prelude::*;
use shapecheck::{LodTensor, Offsets};

fn main() {
    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(Tensor::<i32, shape![3, 2]>::from_array([[1, 2], [3, 4], [5, 6]]), &levels[..]).unwrap();
    let lens: Vec<usize> = x.sequences(0).unwrap().map(|s| s.rows().len()).collect();
    assert_eq!(lens, [1, 2]);
    let y = Tensor::<i32, shape![3]>::from_array([0, 2, 3]);
    let mut buf = [0usize; 3];
    let out = x.lod_reset_by_data(&y, true, &mut buf).unwrap();
    assert_eq!(out.levels(), 2);
    assert_eq!(out.level(1).unwrap().as_slice(), &[0, 2, 3]);
}
