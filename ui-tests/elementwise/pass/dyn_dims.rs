// A shape with a run-time dim: the static rules still apply, the run-time
// dim is checked when the op runs and a mismatch is an error, not a panic.
use shapecheck::prelude::*;
use shapecheck::ops::{Add, Mul};
use shapecheck::ElementwiseError;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 6]).unwrap();
    let y = Tensor::<f32, shape![3]>::from_array([1.0, 2.0, 3.0]);
    let z = x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap();
    assert_eq!(z.dims().as_slice(), &[2, 3]);

    let w = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(4),), vec![1.0; 4]).unwrap();
    let err = x.try_elementwise(Add, &w, Axis::<-1>, Identity).unwrap_err();
    assert!(matches!(err, ElementwiseError::DimMismatch { x_dim: 3, y_dim: 4, .. }), "{err}");
}
