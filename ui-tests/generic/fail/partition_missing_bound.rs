// a function generic over the data's shape, without the rule's bound
use shapecheck::prelude::*;

fn split<S: StaticShape>(x: &Tensor<f32, S>, parts: &Tensor<i32, shape![4]>) {
    let _ = dynamic_partition(x, parts, Partitions::<2>).run();
}

fn main() {}
