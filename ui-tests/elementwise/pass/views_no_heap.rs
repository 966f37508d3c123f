// Static buffers, borrowed views, results written into a caller's buffer.
use shapecheck::prelude::*;

static X: [f32; 6] = [1.0, -2.0, 3.0, -4.0, 5.0, -6.0];
static Y: [f32; 2] = [10.0, 100.0];

fn main() {
    let mut out = [0.0f32; 6];
    let x = Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&X[..]).unwrap();
    let y = Tensor::<f32, shape![2], &[f32]>::from_storage(&Y[..]).unwrap();
    let mut o = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out[..]).unwrap();
    x.elementwise_mul_into(&y, Axis::<0>, Relu, &mut o);
    assert_eq!(out, [10.0, 0.0, 30.0, 0.0, 500.0, 0.0]);
    // a view operand gives an inline result
    let z: Tensor<f32, shape![2, 3]> = x.elementwise_add(&y, Axis::<0>, Identity);
    assert_eq!(z.as_slice(), &[11.0, 8.0, 13.0, 96.0, 105.0, 94.0]);
}
