// Both ops on views over caller buffers, with Dyn dims in the inputs and
// i32/i64 indices mixed in one stitch call.
use shapecheck::prelude::*;
use shapecheck::{dynamic_partition_into, dynamic_stitch, Partitions, StitchError};

fn main() {
    let data_buf = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let data = Tensor::<f32, (Dyn, Dim<2>), &[f32]>::with_dims(&[3, 2], &data_buf[..]).unwrap();
    let parts = Tensor::<i64, shape![Dyn], &[i64]>::with_dims(&[3], &[1i64, 0, 1][..]).unwrap();
    let mut buf = [0.0f32; 6];
    let [p0, p1] = dynamic_partition(&data, &parts, Partitions::<2>).run_into(&mut buf).unwrap();
    let _: &Tensor<f32, (Dyn, Dim<2>), &mut [f32]> = &p0;
    assert_eq!(p0.as_slice(), &[3.0, 4.0]);
    assert_eq!(p1.as_slice(), &[1.0, 2.0, 5.0, 6.0]);

    let i0 = Tensor::<i32, shape![1]>::from_array([1]);
    let d0 = Tensor::<f32, shape![1, 2]>::from_array([[3.0, 4.0]]);
    let i1 = Tensor::<i64, shape![2]>::from_array([0, 2]);
    let d1 = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [5.0, 6.0]]);
    let mut out = [0.0f32; 6];
    let merged = dynamic_stitch(&i0, &d0).pair(&i1, &d1).run_into(&mut out).unwrap();
    assert_eq!(merged.dims().as_slice(), &[3, 2]);
    assert_eq!(out, data_buf);

    // a Dyn slice dim that disagrees at run time is an error, not a panic
    let d2 = Tensor::<f32, (Dyn, Dyn), &[f32]>::with_dims(&[1, 3], &data_buf[..3]).unwrap();
    let i2 = Tensor::<i32, shape![1]>::from_array([3]);
    let err = dynamic_stitch(&i0, &d0).pair(&i2, &d2).run_into(&mut out).unwrap_err();
    assert!(matches!(err, StitchError::SliceMismatch { m: 1, .. }), "{err}");
}
