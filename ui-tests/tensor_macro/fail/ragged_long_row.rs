// A row deep inside a rank-3 literal is longer than the first one at its depth.
use shapecheck::tensor;

fn main() {
    let _ = tensor![[[1, 2], [3, 4]], [[5, 6], [7, 8, 9]]];
}
