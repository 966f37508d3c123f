// DynTensor's operators check shapes when they run, but element types at
// compile time, as Tensor's do.
use shapecheck::prelude::*;

fn main() {
    let x = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
    let y = DynTensor::new(&[2], vec![1.0f64, 2.0]).unwrap();
    let _ = &x * &y;
}
