// The four operators with numpy broadcasting, result shapes in the types.
use shapecheck::prelude::*;

fn main() {
    let x = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let col = tensor![[10.0f32], [20.0]];
    let row = tensor![1.0f32, 2.0, 4.0];
    let s: Tensor<f32, shape![]> = Tensor::from_array(2.0);
    let p: Tensor<f32, shape![2, 3]> = &x * &row;
    let q: Tensor<f32, shape![2, 3]> = &col + &row;
    let r: Tensor<f32, shape![2, 3]> = &s - &x;
    let d: Tensor<f32, shape![2, 3]> = &x / &col;
    let big: Tensor<f32, shape![4, 2, 3]> = &Tensor::<f32, shape![4, 1, 1]>::full(1.0) * &x;
    assert_eq!(p.as_slice(), &[1.0, 4.0, 12.0, 4.0, 10.0, 24.0]);
    assert_eq!(q.as_slice(), &[11.0, 12.0, 14.0, 21.0, 22.0, 24.0]);
    assert_eq!(r.as_slice(), &[1.0, 0.0, -1.0, -2.0, -3.0, -4.0]);
    assert_eq!(d.as_slice(), &[0.1, 0.2, 0.3, 0.2, 0.25, 0.3]);
    assert_eq!(big.dims().as_slice(), &[4, 2, 3]);
    // integers: + - * (wrapping, as the frameworks' kernels)
    let i = tensor![i32::MAX, 2];
    assert_eq!((&i + &tensor![1, 1]).as_slice(), &[i32::MIN, 3]);
}
