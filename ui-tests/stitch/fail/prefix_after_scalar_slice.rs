// TensorFlow's testErrorDataNumDimsMismatch: pair 0 (indices [3], data [3])
// leaves the slice []; pair 1's data [1, 5] does not start with its indices
// [5]. TensorFlow checks a pair's prefix before its slice: the prefix rule.
use shapecheck::prelude::*;

fn main() {
    let i0 = Tensor::<i32, shape![3]>::from_array([0, 4, 7]);
    let d0 = Tensor::<i32, shape![3]>::from_array([0, 40, 70]);
    let i1 = Tensor::<i32, shape![5]>::from_array([1, 6, 2, 3, 5]);
    let d1 = Tensor::<i32, shape![1, 5]>::from_array([[10, 60, 20, 30, 50]]);
    let _ = shapecheck::dynamic_stitch(&i0, &d0).pair(&i1, &d1);
}
