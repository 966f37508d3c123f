// A function generic over x's shape that forgets the reduction's bound:
// rustc asks for the public trait, `S: Reduce<Axis<-1>>` (with it, it
// compiles: the doc example of `Reduce`).
use shapecheck::prelude::*;

fn row_sums<S: Shape>(x: &Tensor<f32, S, Vec<f32>>) {
    let _ = x.sum(Axis::<-1>);
}

fn main() {
    let x = Tensor::<f32, shape![2, 2], Vec<f32>>::from_vec((Dim, Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    row_sums(&x);
}
