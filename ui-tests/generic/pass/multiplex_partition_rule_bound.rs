// The bounds the cases `../fail/multiplex_missing_bound.rs` and
// `../fail/partition_missing_bound.rs` ask for: with them, the same
// functions compile, the output types are named through the public
// aliases, and each is called with shapes that fit, with Paddle's and
// TensorFlow's values.
use shapecheck::prelude::*;
use shapecheck::ops::multiplex::MultiplexOut;
use shapecheck::ops::partition::{PartitionOut, PartitionShapes};
use shapecheck::{MultiplexError, MultiplexShapes, Owned};

fn pick<S: StaticShape + MultiplexShapes<IS>, IS: StaticShape>(
    a: &Tensor<f32, S>,
    b: &Tensor<f32, S>,
    index: &Tensor<i32, IS>,
) -> Result<Owned<f32, MultiplexOut<S, IS>>, MultiplexError> {
    multiplex(&[*a, *b], index).run()
}

fn split<S: StaticShape + PartitionShapes<shape![4], i32>>(
    x: &Tensor<f32, S>,
    parts: &Tensor<i32, shape![4]>,
) -> Option<[Tensor<f32, PartitionOut<S, shape![4], i32>, Vec<f32>>; 2]> {
    dynamic_partition(x, parts, Partitions::<2>).run().ok()
}

fn main() {
    let a = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let b = tensor![[10.0f32, 20.0], [30.0, 40.0]];
    let out = pick(&a, &b, &tensor![[1], [0]]).unwrap();
    assert_eq!(out.as_slice(), &[10.0, 20.0, 3.0, 4.0]);
    let err = pick(&a, &b, &tensor![[2], [0]]).unwrap_err();
    assert_eq!(err, MultiplexError::IndexOutOfRange { row: 0, value: 2, candidates: 2 });

    let x = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]];
    let [even, odd] = split(&x, &tensor![0, 1, 0, 1]).unwrap();
    assert_eq!(even.as_slice(), &[1.0, 2.0, 5.0, 6.0]);
    assert_eq!(odd.dims().as_slice(), &[2, 2]);
    assert_eq!(odd.as_slice(), &[3.0, 4.0, 7.0, 8.0]);
}
