// Zero-size shapes are valid types and valid inputs (Paddle 3.3.1): [0, 3]
// candidates with a [0, 1] index give [0, 3]; [3, 0] candidates give [3, 0];
// an empty index gives an empty output. Index values are checked even when
// the output is empty (a deliberate difference: Paddle reads none there).
use shapecheck::prelude::*;
use shapecheck::{multiplex, MultiplexError};

fn main() {
    let a = Tensor::<f32, shape![0, 3]>::full(1.0);
    let none = Tensor::<i32, shape![0, 1]>::from_array([]);
    let out: Tensor<f32, shape![0, 3]> = multiplex(&[a, a], &none).run().unwrap();
    assert!(out.as_slice().is_empty());

    let b = Tensor::<f32, shape![3, 0]>::full(1.0);
    let index = Tensor::<i32, shape![3, 1]>::from_array([[0], [1], [0]]);
    let out: Tensor<f32, shape![3, 0]> = multiplex(&[b, b], &index).run().unwrap();
    assert_eq!(out.dims().as_slice(), &[3, 0]);

    let c = Tensor::<i64, shape![6, 4]>::full(5);
    let out: Tensor<i64, shape![0, 4]> = shapecheck::multiplex!(none; c, c, c).unwrap();
    assert!(out.as_slice().is_empty());

    let bad = Tensor::<i32, shape![3, 1]>::from_array([[0], [5], [0]]);
    assert_eq!(
        multiplex(&[b, b], &bad).run().unwrap_err(),
        MultiplexError::IndexOutOfRange { row: 1, value: 5, candidates: 2 }
    );
}
