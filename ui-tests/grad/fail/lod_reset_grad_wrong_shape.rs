// x's gradient has x's dense shape [3, 2]: assigning its dense tensor to
// a [2, 3] tensor is rejected.
use shapecheck::prelude::*;

fn main() {
    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &levels[..]).unwrap();
    let dout = Tensor::<f32, shape![3, 2]>::full(1.0);
    let dx = x.lod_reset_backward(dout);
    let _wrong: &Tensor<f32, shape![2, 3]> = dx.dense();
}
