// f32 indices, then `.run()`: one error, by the index-element rule (the
// builder holding the rejected pair reports nothing more).
use shapecheck::prelude::*;

fn main() {
    let i = Tensor::<f32, shape![2]>::from_array([0.0, 1.0]);
    let d = Tensor::<f32, shape![2, 4]>::full(1.0);
    let _ = shapecheck::dynamic_stitch(&i, &d).run();
}
