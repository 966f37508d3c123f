// dynamic_partition's partitions must hold i32 or i64.
use shapecheck::prelude::*;

fn main() {
    let data = Tensor::<f32, shape![2, 4]>::full(1.0);
    let parts = Tensor::<f32, shape![2]>::from_array([0.0, 1.0]);
    let _ = dynamic_partition(&data, &parts, Partitions::<2>).run();
}
