// dynamic_stitch of [2, 4] data has output [rows, 4]: the upstream
// gradient's slice must be [4]; a dout of [rows, 3] is rejected.
use shapecheck::prelude::*;

fn main() {
    let i = Tensor::<i32, shape![2]>::from_array([1, 0]);
    let d = Tensor::<f32, shape![2, 4]>::full(1.0);
    let dout = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 6]).unwrap();
    let _ = dynamic_stitch(&i, &d).backward(&dout);
}
