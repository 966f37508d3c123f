// Dims beyond typenum's 1024 table are ordinary dims here.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![3, 4099], Vec<f32>>::from_vec(Default::default(), vec![0.0; 3 * 4099]).unwrap();
    let y = Tensor::<f32, shape![1500], Vec<f32>>::from_vec(Default::default(), vec![0.0; 1500]).unwrap();
    let _ = x.elementwise_min(&y, Axis::<-1>, Identity);
}
