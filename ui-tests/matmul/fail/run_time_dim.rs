// a run-time inner dim meets the plain form, which cannot check it:
// try_matmul (x's rows may be run-time: the rule never compares them)
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, Dyn], Vec<f32>>::from_vec((Dim, Dyn(4)), vec![1.0; 12]).unwrap();
    let w = Tensor::<f32, shape![4, 2]>::full(1.0);
    let _ = x.matmul(&w);
}
