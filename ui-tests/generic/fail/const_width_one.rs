// A width written as `const W: usize` cannot take 1: `shape![5, 1]` is
// `(Dim<5>, One)`, and `One` is the dim that broadcasts, a type of its own.
// The spelling that covers every width is `W: StaticDim`
// (`tests/generic_user.rs::scale_rows`); rustc gives no way to add a note
// to a type mismatch (E0308), so this error cannot name it.
use shapecheck::prelude::*;

fn width<const W: usize>(x: &Tensor<f32, (Dim<5>, Dim<W>)>) -> usize {
    x.as_slice().len() / 5
}

fn main() {
    let x = Tensor::<f32, shape![5, 1]>::full(1.0);
    let _ = width(&x);
}
