// A run-time dim that meets a static dim other than 1 needs a check when the
// op runs: the plain form does not compile and names the `try_` form.
use shapecheck::prelude::*;

fn main() {
    let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
    let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let _ = merged.elementwise_mul(&w, Axis::<-1>, Identity);
}
