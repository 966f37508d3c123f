// Row 1 is shorter than row 0: the error points at row 1.
use shapecheck::tensor;

fn main() {
    let _ = tensor![[1.0, 2.0, 3.0], [4.0, 5.0]];
}
