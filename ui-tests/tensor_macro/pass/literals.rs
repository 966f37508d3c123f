// Shapes and element types of tensor! literals, checked by the compiler.
use shapecheck::prelude::*;

macro_rules! pair {
    ($row:expr) => {
        tensor![$row, $row]
    };
}

fn main() {
    let a: Tensor<f64, shape![2, 2]> = tensor![[1.0, 2.0], [3.0, 4.0]];
    let b: Tensor<f32, shape![1, 3]> = tensor![[1.0f32, 2.0, 3.0,],];
    let c: Tensor<i32, shape![1]> = tensor![5];
    let d: Tensor<bool, shape![2, 1, 2]> = tensor![[[true, false]], [[false, true]]];
    let e: Tensor<u8, shape![0]> = tensor![];
    let f: Tensor<i64, shape![2, 0]> = tensor![[], []];
    let g: Tensor<f64, shape![1, 1, 1, 1, 1, 1, 1, 2]> = tensor![[[[[[[[1.0, 2.0]]]]]]]];
    let h: Tensor<i32, shape![2, 3]> = pair!([1, 2, 3]);
    let x = 2.5f32;
    let i: Tensor<f32, shape![2]> = tensor![x, -x * 2.0];
    assert_eq!(a.as_slice(), &[1.0, 2.0, 3.0, 4.0]);
    assert_eq!(b.dims().as_slice(), &[1, 3]);
    assert_eq!(c.as_slice(), &[5]);
    assert_eq!(d.as_slice(), &[true, false, false, true]);
    assert!(e.as_slice().is_empty());
    assert!(f.as_slice().is_empty());
    assert_eq!(g.as_slice(), &[1.0, 2.0]);
    assert_eq!(h.as_slice(), &[1, 2, 3, 1, 2, 3]);
    assert_eq!(i.as_slice(), &[2.5, -5.0]);
}
