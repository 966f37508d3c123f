// A scalar has no first dim to keep: `reshape_rows` is refused, and the note
// names `reshape`, the form for a scalar.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![]>::from_array(1.0);
    let _ = x.reshape_rows::<shape![1]>();
}
