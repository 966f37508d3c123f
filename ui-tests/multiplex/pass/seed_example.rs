// The seed's 4x4 example with inline tensors, and the fluid example with an
// i64 index.
use shapecheck::prelude::*;
use shapecheck::{multiplex, MultiplexError};

fn main() {
    type S = shape![4, 4];
    let inputs: [Tensor<i32, S>; 4] =
        core::array::from_fn(|k| Tensor::from_fn(|i| [k, i[0], 0, 0][i[1]] as i32));
    let index = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [1], [2]]);
    let out: Tensor<i32, S> = multiplex(&inputs, &index).run().unwrap();
    assert_eq!(
        out.as_slice(),
        &[3, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0]
    );

    let x1 = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
    let x2 = Tensor::<f32, shape![2, 2]>::from_array([[5., 6.], [7., 8.]]);
    let index = Tensor::<i64, shape![2, 1]>::from_array([[1], [0]]);
    assert_eq!(
        multiplex(&[x1, x2], &index).run().unwrap().as_slice(),
        &[5., 6., 3., 4.]
    );

    let bad = Tensor::<i64, shape![2, 1]>::from_array([[-1], [0]]);
    assert_eq!(
        multiplex(&[x1, x2], &bad).run().unwrap_err(),
        MultiplexError::NegativeIndex { row: 0, value: -1 }
    );
}
