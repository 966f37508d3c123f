// A bounded tensor (a run-time row count, at most a capacity) passed where
// a static shape is required: one error naming the capacity and the shape.
use shapecheck::prelude::*;

fn first_row_sum(t: &Tensor<i32, shape![2, 2]>) -> i32 {
    t.as_slice().iter().take(2).sum()
}

fn main() {
    let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1, 2], [3, 4]]).run_bounded::<4>().unwrap();
    let _ = first_row_sum(&rows);
}
