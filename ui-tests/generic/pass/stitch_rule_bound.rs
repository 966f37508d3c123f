// dynamic_stitch in a function generic over the data's shape: the one bound
// the case `../fail/stitch_missing_bound.rs` asks for, the output named
// through `StitchOut`, TensorFlow's values
use shapecheck::ops::stitch::{StitchFirst, StitchOut};
use shapecheck::prelude::*;

fn merge<S: StaticShape + StitchFirst<shape![3], i32>>(
    order: &Tensor<i32, shape![3]>,
    x: &Tensor<f32, S>,
) -> Option<Tensor<f32, StitchOut<S, shape![3], i32>, Vec<f32>>> {
    dynamic_stitch(order, x).run().ok()
}

fn main() {
    let x = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let out = merge(&tensor![2, 0, 1], &x).unwrap();
    assert_eq!(out.as_slice(), &[3.0, 4.0, 5.0, 6.0, 1.0, 2.0]);
}
