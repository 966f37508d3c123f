// A branded tensor cannot leave the closure of its brand: outside it, no
// other tensor could be checked against the brand.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let _escaped = x.with_brand(|x, _rows| x);
}
