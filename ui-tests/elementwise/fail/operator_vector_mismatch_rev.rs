// The lower-rank operand on the left: [2] against [2, 3] still meets the 3.
use shapecheck::prelude::*;

fn main() {
    let x = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let y = tensor![1.0, 2.0];
    let _ = &y - &x;
}
