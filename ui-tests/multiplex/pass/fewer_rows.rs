// Fewer index rows than candidate rows (Paddle 3.3.1): the output has the
// index's rows, in its type; the candidates' other rows are not read.
use shapecheck::prelude::*;
use shapecheck::{multiplex, multiplex_into, MultiplexError};

fn main() {
    // Paddle: candidates [3, 2], index [[1], [1]] -> shape [2, 2]
    let a = Tensor::<i32, shape![3, 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
    let b = Tensor::<i32, shape![3, 2]>::from_array([[10, 20], [30, 40], [50, 60]]);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [1]]);
    let out: Tensor<i32, shape![2, 2]> = multiplex(&[a, b], &index).run().unwrap();
    assert_eq!(out.as_slice(), &[10, 20, 30, 40]);

    // the macro form, one index row: a [1, 2] output
    let one = Tensor::<i64, shape![1, 1]>::from_array([[0]]);
    let out: Tensor<i32, shape![1, 2]> = shapecheck::multiplex!(one; a, b).unwrap();
    assert_eq!(out.as_slice(), &[1, 2]);

    // no heap: views and a caller's buffer of the output's size
    static C: [f32; 12] = [0., 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11.];
    static D: [f32; 12] = [-0., -1., -2., -3., -4., -5., -6., -7., -8., -9., -10., -11.];
    let c = Tensor::<f32, shape![4, 3], &[f32]>::from_storage(&C[..]).unwrap();
    let d = Tensor::<f32, shape![4, 3], &[f32]>::from_storage(&D[..]).unwrap();
    let idx = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let mut buf = [7.0f32; 6];
    let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    multiplex_into(&[c, d], &idx, &mut out).unwrap();
    assert_eq!(buf, [-0., -1., -2., 3., 4., 5.]);

    // index values are still checked, and nothing is written on error
    let bad = Tensor::<i32, shape![2, 1]>::from_array([[0], [2]]);
    let mut buf = [7.0f32; 6];
    let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    assert_eq!(
        multiplex_into(&[c, d], &bad, &mut out),
        Err(MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 })
    );
    assert_eq!(buf, [7.0; 6]);
}
