// A function generic over x's shape that forgets softmax's bound: rustc
// asks for the public trait, `S: SoftmaxAxis<f32, Axis<-1>>` (with it, it
// compiles: the doc example of `SoftmaxAxis`).
use shapecheck::prelude::*;

fn probs<S: Shape>(x: &Tensor<f32, S, Vec<f32>>) {
    let _ = x.softmax(Axis::<-1>);
}

fn main() {
    let x = Tensor::<f32, shape![2, 2], Vec<f32>>::from_vec((Dim, Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    probs(&x);
}
