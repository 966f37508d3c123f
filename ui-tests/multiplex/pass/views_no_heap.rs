// Candidates, index and output as views over static buffers: no heap, the
// result written by `multiplex_into`.
use shapecheck::multiplex_into;
use shapecheck::prelude::*;

static A: [f64; 6] = [1., 2., 3., 4., 5., 6.];
static B: [f64; 6] = [10., 20., 30., 40., 50., 60.];
static C: [f64; 6] = [100., 200., 300., 400., 500., 600.];
static INDEX: [i32; 3] = [2, 0, 1];

fn main() {
    let view = |buf: &'static [f64; 6]| {
        Tensor::<f64, shape![3, 1, 2], &[f64]>::from_storage(&buf[..]).unwrap()
    };
    let inputs = [view(&A), view(&B), view(&C)];
    let index = Tensor::<i32, shape![3, 1], &[i32]>::from_storage(&INDEX[..]).unwrap();
    let mut buf = [0.0f64; 6];
    let mut out = Tensor::<f64, shape![3, 1, 2], &mut [f64]>::from_storage(&mut buf[..]).unwrap();
    multiplex_into(&inputs, &index, &mut out).unwrap();
    assert_eq!(buf, [100., 200., 3., 4., 50., 60.]);
}
