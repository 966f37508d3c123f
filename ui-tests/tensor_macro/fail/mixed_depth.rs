// A value where a row is expected.
use shapecheck::tensor;

fn main() {
    let _ = tensor![[1, 2], 3];
}
