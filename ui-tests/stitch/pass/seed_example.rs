// TensorFlow's documented example: pairs of three ranks in one call.
use shapecheck::prelude::*;
use shapecheck::dynamic_stitch;

fn main() {
    let i0 = Tensor::<i32, shape![]>::from_array(6);
    let i1 = Tensor::<i32, shape![2]>::from_array([4, 1]);
    let i2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 2], [0, 3]]);
    let d0 = Tensor::<i32, shape![2]>::from_array([61, 62]);
    let d1 = Tensor::<i32, shape![2, 2]>::from_array([[41, 42], [11, 12]]);
    let d2 = Tensor::<i32, shape![2, 2, 2]>::from_array([[[51, 52], [21, 22]], [[1, 2], [31, 32]]]);
    let merged: Tensor<i32, (Dyn, Dim<2>), Vec<i32>> =
        dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2).run().unwrap();
    assert_eq!(merged.dims().as_slice(), &[7, 2]);
    let want: Vec<i32> = (0..7).flat_map(|r| [10 * r + 1, 10 * r + 2]).collect();
    assert_eq!(merged.as_slice(), &want[..]);
}
