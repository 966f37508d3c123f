// `reshape` is for static shapes: a run-time dim needs the checked form,
// `try_reshape`.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0; 6]).unwrap();
    let _ = x.reshape::<shape![6]>();
}
