// `reshape_rows` keeps the first dim's type: rows of Dyn cannot become rows
// of a static 4 (that needs a check: `try_reshape`).
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2, 3], Vec<f32>>::with_dims(&[4, 2, 3], vec![1.0; 24]).unwrap();
    let _ = x.reshape_rows::<shape![4, 6]>();
}
