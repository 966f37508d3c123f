// A function generic over x's shape that forgets matmul's bound: rustc
// asks for the public trait, `S: MatmulShapes<..>` (with
// `S: MatmulShapes<shape![3, 4]>` it compiles: the doc example of
// `MatmulShapes`).
use shapecheck::prelude::*;

fn project<S: Shape>(x: &Tensor<f32, S, Vec<f32>>, w: &Tensor<f32, shape![3, 4]>) {
    let _ = x.matmul(w);
}

fn main() {
    let x = Tensor::<f32, shape![2, 3], Vec<f32>>::from_vec((Dim, Dim), vec![0.0; 6]).unwrap();
    project(&x, &Tensor::full(1.0));
}
