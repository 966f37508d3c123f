// a run-time batch meets the plain form, which cannot check it: try_matmul
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 4], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 12]).unwrap();
    let w = Tensor::<f32, shape![4, 2]>::full(1.0);
    let _ = x.matmul(&w);
}
