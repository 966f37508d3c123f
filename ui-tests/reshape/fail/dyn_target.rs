// `reshape::<S2>()` to a shape with a run-time dim: its size is not in the
// type, so the compiler cannot check the count; the note names `try_reshape`.
use shapecheck::prelude::*;

fn main() {
    let x = tensor![[1, 2, 3], [4, 5, 6]];
    let _ = x.reshape::<shape![Dyn, 3]>();
}
