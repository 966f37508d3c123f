// numpy: three-way bidirectional broadcast; cond [2, 4] with then [4] and else [4] gives [2, 4].
use shapecheck::prelude::*;
use shapecheck::{select, select_into};

fn main() {
    let c = Tensor::<bool, shape![2, 4]>::from_array([[true; 4], [false; 4]]);
    let t = Tensor::<i32, shape![4]>::from_array([1, 2, 3, 4]);
    let e = Tensor::<i32, shape![4]>::from_array([5, 6, 7, 8]);
    let out: Tensor<i32, shape![2, 4]> = select(&c, &t, &e, Numpy);
    assert_eq!(out.as_slice(), &[1, 2, 3, 4, 5, 6, 7, 8]);

    // then [3, 1] with else [1, 4] and a scalar cond: [3, 4]
    let c = Tensor::<bool, shape![]>::from_array(false);
    let t = Tensor::<f64, shape![3, 1]>::full(1.0);
    let e = Tensor::<f64, shape![1, 4]>::from_array([[1.5, 2.5, 3.5, 4.5]]);
    let mut out = Tensor::<f64, shape![3, 4]>::full(0.0);
    select_into(&c, &t, &e, Numpy, &mut out);
    assert_eq!(out.get(&[2, 3]), Some(&4.5));
}
