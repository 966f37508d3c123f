// A pair's gradient has its data's shape [2, 4], not the output's
// [rows, 4]: assigning it to a [Dyn, 4] tensor is rejected.
use shapecheck::prelude::*;

fn main() {
    let i = Tensor::<i32, shape![2]>::from_array([1, 0]);
    let d = Tensor::<f32, shape![2, 4]>::full(1.0);
    let stitch = dynamic_stitch(&i, &d);
    let dout = stitch.run().unwrap();
    let ((), g) = stitch.backward(&dout).unwrap();
    let _wrong: Tensor<f32, shape![Dyn, 4], Vec<f32>> = g;
}
