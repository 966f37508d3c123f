// multiplex! with any number (>= 2) of candidates, inline or on the heap.
use shapecheck::prelude::*;

fn main() {
    let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    let b = Tensor::<f32, shape![2, 2]>::from_array([[5.0, 6.0], [7.0, 8.0]]);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let out: Tensor<f32, shape![2, 2]> = shapecheck::multiplex!(index; a, b).unwrap();
    assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);

    // six heap candidates of [4, 3]; row i comes from candidate index[i]
    let c: Vec<Tensor<i64, shape![4, 3], Vec<i64>>> = (0..6)
        .map(|k| Tensor::from_vec(Default::default(), vec![k as i64; 12]).unwrap())
        .collect();
    let index = Tensor::<i64, shape![4, 1]>::from_array([[5], [0], [3], [3]]);
    let out = shapecheck::multiplex!(index; c[0], c[1], c[2], c[3], c[4], c[5]).unwrap();
    assert_eq!(out.as_slice(), &[5, 5, 5, 0, 0, 0, 3, 3, 3, 3, 3, 3]);

    // an index value out of range is still a run-time error
    let bad = Tensor::<i64, shape![4, 1]>::from_array([[5], [0], [6], [3]]);
    assert!(shapecheck::multiplex!(bad; c[0], c[1], c[2], c[3], c[4], c[5]).is_err());
}
