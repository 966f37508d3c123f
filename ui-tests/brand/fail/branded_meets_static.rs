// A branded dim meeting a static dim other than 1 still needs a check when
// the op runs: the plain form names the `try_` form.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    x.with_brand(|x, _rows| {
        let _ = x.elementwise_mul(&w, Axis::<-1>, Identity);
    });
}
