// dynamic_partition: data [4, 2] does not start with partitions [2].
use shapecheck::prelude::*;
use shapecheck::Partitions;

fn main() {
    let data = Tensor::<f32, shape![4, 2]>::full(1.0);
    let parts = Tensor::<i32, shape![2]>::from_array([0, 1]);
    let mut buf = [0.0f32; 8];
    let [_a, _b] = dynamic_partition(&data, &parts, Partitions::<2>).run_into(&mut buf).unwrap();
}
