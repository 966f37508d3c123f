// `[v; n]` is not read as a row (its length is not visible to the macro).
use shapecheck::tensor;

fn main() {
    let _ = tensor![[0.0; 3], [1.0; 3]];
}
