// Two run-time dims meet: whether they broadcast is only known when the op
// runs, so the plain form does not compile and names the `try_` form.
use shapecheck::prelude::*;

fn main() {
    let a = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
    let b = dynamic_stitch(&tensor![0, 1], &tensor![[5.0f32, 6.0], [7.0, 8.0]]).run().unwrap();
    let _ = a.elementwise_add(&b, Axis::<-1>, Identity);
}
