// A layer generic over the batch dim that gives two tensors of that dim to
// a plain form: two `Dyn` batches may differ, so the plain form cannot take
// them, and the error points to the `try_` form (with which
// tests/generic_user.rs's `add_rows` compiles under `B: DimLike` alone).
use shapecheck::prelude::*;
use shapecheck::Owned;

fn add_rows<B: DimLike>(x: &Owned<f32, (B, Dim<4>)>, y: &Owned<f32, (B, Dim<4>)>) -> Owned<f32, (B, Dim<4>)> {
    x.elementwise_add(y, Axis::<-1>, Identity)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 4], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 8]).unwrap();
    let _ = add_rows(&x, &x);
}
