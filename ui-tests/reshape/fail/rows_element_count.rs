// `reshape_rows` keeps the first dim; a row of [2, 3] (6 elements) cannot
// become a row of [5].
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2, 3], Vec<f32>>::with_dims(&[4, 2, 3], vec![1.0; 24]).unwrap();
    let _ = x.reshape_rows::<shape![Dyn, 5]>();
}
