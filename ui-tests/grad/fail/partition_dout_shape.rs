// dynamic_partition of [4, 2] data by [4] partitions has outputs
// [count, 2]: a dout of [count, 3] is rejected.
use shapecheck::prelude::*;
use shapecheck::dynamic_partition_backward;

fn main() {
    let data = Tensor::<f32, shape![4, 2]>::full(1.0);
    let parts = Tensor::<i32, shape![4]>::from_array([0, 1, 0, 1]);
    let dout = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 6]).unwrap();
    let _ = dynamic_partition_backward(&data, &parts, Partitions::<2>, &[dout.clone(), dout]);
}
