// A scalar index with rank-8 data: the output [rows] + slice would have rank 9.
use shapecheck::prelude::*;

fn main() {
    let i = Tensor::<i32, shape![], &[i32]>::from_storage(&[0][..]).unwrap();
    let d = Tensor::<f32, shape![2, 2, 2, 2, 2, 2, 2, 2], Vec<f32>>::from_vec(Default::default(), vec![0.0; 256]).unwrap();
    let _ = shapecheck::dynamic_stitch(&i, &d).run();
}
