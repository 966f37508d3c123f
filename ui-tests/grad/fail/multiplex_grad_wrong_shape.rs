// Each candidate's gradient has the candidate's shape [3, 2] (zeros past
// the index's rows), not the output's [2, 2]: assigning it to a [2, 2]
// tensor is rejected.
use shapecheck::prelude::*;
use shapecheck::multiplex_backward;

fn main() {
    let a = Tensor::<f32, shape![3, 2]>::full(1.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let dout = Tensor::<f32, shape![2, 2]>::full(1.0);
    let [da, _db] = multiplex_backward(&[a, a], &index, &dout).unwrap();
    let _wrong: Tensor<f32, shape![2, 2]> = da;
}
