// select of a [4, 1] condition, a [4, W] tensor and a scalar, generic over
// the width with `W: StaticDim` alone (issue 56): `One` and the scalar meet
// any dim, so no select bound is needed; called with W = One and Dim<3>.
use shapecheck::prelude::*;

fn mask_rows<W: StaticDim>(
    keep: &Tensor<bool, shape![4, 1]>,
    x: &Tensor<f32, (Dim<4>, W)>,
    fill: &Tensor<f32, shape![]>,
) -> Owned<f32, (Dim<4>, W)> {
    select(keep, x, fill, Numpy)
}

fn main() {
    let keep = Tensor::<bool, shape![4, 1]>::from_array([[true], [false], [true], [false]]);
    let fill = Tensor::<f32, shape![]>::from_array(-1.0);

    let x = Tensor::<f32, (Dim<4>, Dim<3>)>::from_fn(|i| (i[0] * 3 + i[1]) as f32);
    let out = mask_rows(&keep, &x, &fill);
    assert_eq!(
        out.as_slice(),
        &[0.0, 1.0, 2.0, -1.0, -1.0, -1.0, 6.0, 7.0, 8.0, -1.0, -1.0, -1.0]
    );

    let x = Tensor::<f32, (Dim<4>, One)>::from_fn(|i| i[0] as f32);
    let out = mask_rows(&keep, &x, &fill);
    assert_eq!(out.as_slice(), &[0.0, -1.0, 2.0, -1.0]);
}
