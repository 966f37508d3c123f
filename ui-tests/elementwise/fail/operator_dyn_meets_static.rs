// `&x * &y` with a run-time dim that meets a static dim other than 1: a
// check is needed when the op runs, so the operator does not compile and the
// error names the `try_` forms.
use shapecheck::prelude::*;

fn main() {
    let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
    let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let _ = &merged * &w;
}
