// Two tensors branded by two different brands: their rows were checked
// against different sizes, so they do not meet in a plain form.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![2.0; 4]).unwrap();
    x.with_brand(|x, _rows| {
        y.with_brand(|y, _cols| {
            let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
        })
    });
}
