// `reshape_rows` with a run-time dim after the first: the row's count is
// not in the type; the note names `try_reshape`.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![2, Dyn], Vec<f32>>::with_dims(&[2, 3], vec![1.0; 6]).unwrap();
    let _ = x.reshape_rows::<shape![2, 3]>();
}
