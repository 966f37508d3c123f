// A plain `_into` form cannot check a buffer whose shape has a `Dyn` dim:
// the error says to brand the dim or call the `try_..._into` form.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 4]).unwrap();
    let mut buf = [0.0f32; 4];
    let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[2, 2], &mut buf[..]).unwrap();
    x.elementwise_mul_into(&tensor![1.0f32, 2.0], Axis::<-1>, Identity, &mut out);
}
