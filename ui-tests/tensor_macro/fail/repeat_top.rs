// `tensor![v; n]` at the top level: the same rule as a repeated row.
use shapecheck::tensor;

fn main() {
    let _ = tensor![0.0f32; 3];
}
