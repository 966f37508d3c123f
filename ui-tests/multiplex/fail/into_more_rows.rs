// multiplex_into on views over static buffers (no heap): the same row rule.
// The output's type is what the rule computes ([5, 2]); the assertion still
// fires because 5 index rows exceed the candidates' 4.
use shapecheck::multiplex_into;
use shapecheck::prelude::*;

static A: [f64; 8] = [0.0; 8];
static INDEX: [i32; 5] = [0, 1, 0, 1, 0];

fn main() {
    let a = Tensor::<f64, shape![4, 2], &[f64]>::from_storage(&A[..]).unwrap();
    let index = Tensor::<i32, shape![5, 1], &[i32]>::from_storage(&INDEX[..]).unwrap();
    let mut buf = [0.0f64; 10];
    let mut out = Tensor::<f64, shape![5, 2], &mut [f64]>::from_storage(&mut buf[..]).unwrap();
    let _ = multiplex_into(&[a, a], &index, &mut out);
}
