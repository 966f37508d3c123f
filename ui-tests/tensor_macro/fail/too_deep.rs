// Nine levels of nesting: a shape has at most 8 dims.
use shapecheck::tensor;

fn main() {
    let _ = tensor![[[[[[[[[1]]]]]]]]];
}
