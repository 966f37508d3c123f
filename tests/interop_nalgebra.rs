//! Feature `nalgebra`: SMatrix / DMatrix to and from 2-D tensors, pinned on
//! non-square cases (nalgebra is column-major, a tensor row-major).
#![cfg(feature = "nalgebra")]
#![allow(clippy::result_large_err)]

use nalgebra::{DMatrix, Matrix2x3, SMatrix};
use shapecheck::prelude::*;
use shapecheck::ShapeError;

#[test]
fn a_non_square_smatrix_keeps_rows_and_columns() {
    // rows (1 2 3) and (4 5 6); nalgebra's buffer is column by column
    let m = Matrix2x3::new(1, 2, 3, 4, 5, 6);
    assert_eq!(m.as_slice(), &[1, 4, 2, 5, 3, 6]);
    let t: Tensor<i32, shape![2, 3]> = m.into();
    assert_eq!(t.as_slice(), &[1, 2, 3, 4, 5, 6]);
    for r in 0..2 {
        for c in 0..3 {
            assert_eq!(t.get(&[r, c]), Some(&m[(r, c)]));
        }
    }
    let back: SMatrix<i32, 2, 3> = t.to_smatrix();
    assert_eq!(back, m);
    // and from a tensor built row-major
    let u = Tensor::<f64, shape![3, 2]>::from_array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    let mu: SMatrix<f64, 3, 2> = u.to_smatrix();
    assert_eq!(mu[(2, 0)], 5.0);
    assert_eq!(mu.as_slice(), &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    assert_eq!(
        mu.transpose(),
        SMatrix::<f64, 2, 3>::new(1.0, 3.0, 5.0, 2.0, 4.0, 6.0)
    );
}

#[test]
fn vectors_and_1x1_use_one_for_size_1() {
    let row = SMatrix::<f32, 1, 3>::new(1.0, 2.0, 3.0);
    let t: Tensor<f32, shape![1, 3]> = row.into();
    assert_eq!(t.as_slice(), &[1.0, 2.0, 3.0]);
    let col = SMatrix::<f32, 3, 1>::new(1.0, 2.0, 3.0);
    let u: Tensor<f32, shape![3, 1]> = col.into();
    assert_eq!(u.as_slice(), &[1.0, 2.0, 3.0]);
    // a [3, 1] column broadcasts against [3, 4] as any shape![3, 1] does
    let x = Tensor::<f32, shape![3, 4]>::full(1.0);
    let y = x.elementwise_mul(&u, Axis::<-1>, Identity);
    assert_eq!(y.get(&[2, 3]), Some(&3.0));
    let one: Tensor<f32, shape![1, 1]> = SMatrix::<f32, 1, 1>::new(9.0).into();
    assert_eq!(one.as_slice(), &[9.0]);
    let back: SMatrix<f32, 1, 3> = t.to_smatrix();
    assert_eq!(back, row);
}

#[test]
fn dmatrix_round_trips_through_heap_and_dyn_tensors() {
    let m = DMatrix::from_row_slice(2, 3, &[1, 2, 3, 4, 5, 6]);
    assert_eq!(m.as_slice(), &[1, 4, 2, 5, 3, 6]);
    let t = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::try_from_dmatrix(&m).unwrap();
    assert_eq!(t.dims().as_slice(), &[2, 3]);
    assert_eq!(t.as_slice(), &[1, 2, 3, 4, 5, 6]);
    assert_eq!(t.to_dmatrix(), m);
    let d = DynTensor::try_from(&m).unwrap();
    assert_eq!(d.as_slice(), &[1, 2, 3, 4, 5, 6]);
    assert_eq!(d.to_dmatrix().unwrap(), m);
    // an inline tensor converts too
    let s = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    assert_eq!(s.to_dmatrix(), m);
    // an empty matrix
    let e = DMatrix::<i32>::zeros(0, 4);
    let de = DynTensor::try_from(&e).unwrap();
    assert_eq!(de.dims().as_slice(), &[0, 4]);
    assert_eq!(de.to_dmatrix().unwrap().shape(), (0, 4));
}

#[test]
fn run_time_shape_errors_are_typed() {
    let m = DMatrix::from_row_slice(2, 3, &[1, 2, 3, 4, 5, 6]);
    let err = Tensor::<i32, shape![2, 2], Vec<i32>>::try_from_dmatrix(&m).unwrap_err();
    assert_eq!(
        err,
        ShapeError::DimMismatch {
            axis: 1,
            expected: 2,
            found: 3
        }
    );
    let d = DynTensor::new(&[6], vec![1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(
        d.to_dmatrix().unwrap_err(),
        ShapeError::RankMismatch {
            expected: 2,
            found: 1
        }
    );
}
