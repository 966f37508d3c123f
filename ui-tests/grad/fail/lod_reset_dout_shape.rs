// lod_reset keeps x's dense shape [3, 2]: the upstream gradient must have
// it; a dout of [2, 3] is rejected.
use shapecheck::prelude::*;

fn main() {
    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &levels[..]).unwrap();
    let dout = Tensor::<f32, shape![2, 3]>::full(1.0);
    let _ = x.lod_reset_backward(dout);
}
