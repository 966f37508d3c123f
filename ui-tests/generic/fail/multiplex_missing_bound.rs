// a function generic over the candidates' shape, without the rule's bound
use shapecheck::prelude::*;

fn pick<S: StaticShape>(a: &Tensor<f32, S>, b: &Tensor<f32, S>, index: &Tensor<i32, shape![2, 1]>) {
    let _ = multiplex(&[*a, *b], index).run();
}

fn main() {}
