// dynamic_partition needs at least one partition.
use shapecheck::prelude::*;
use shapecheck::Partitions;

fn main() {
    let data = Tensor::<f32, shape![4, 2]>::full(1.0);
    let parts = Tensor::<i32, shape![4]>::from_array([0, 0, 0, 0]);
    let mut buf = [0.0f32; 8];
    let _ = dynamic_partition(&data, &parts, Partitions::<0>).run_into(&mut buf);
}
