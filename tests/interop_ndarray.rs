//! Feature `ndarray`: zero-copy views both ways (pointer equality), owned
//! conversions, `DynTensor` ↔ `ArrayD`, and the typed errors.
#![cfg(feature = "ndarray")]
#![allow(clippy::result_large_err)]

use ndarray::{array, s, Array, Array2, ArrayD, IxDyn};
use shapecheck::interop::ndarray::NdarrayError;
use shapecheck::prelude::*;
use shapecheck::BinaryOpKind;
use shapecheck::{Dims, ShapeError};

#[test]
fn a_standard_view_becomes_a_tensor_without_copying() {
    let a = array![[1, 2, 3], [4, 5, 6]];
    let t = Tensor::<i32, shape![2, 3], &[i32]>::try_from(a.view()).unwrap();
    assert_eq!(t.as_slice().as_ptr(), a.as_ptr());
    assert_eq!(t.get(&[1, 0]), Some(&4));
    // a shape with a run-time dim takes its size from the array
    let d = Tensor::<i32, shape![Dyn, 3], &[i32]>::try_from(a.view()).unwrap();
    assert_eq!(d.dims().as_slice(), &[2, 3]);
    assert_eq!(d.as_slice().as_ptr(), a.as_ptr());
    // a row slice of a standard array is standard too: still no copy
    let row = a.slice(s![1..2, ..]);
    let r = Tensor::<i32, shape![1, 3], &[i32]>::try_from(row).unwrap();
    assert_eq!(r.as_slice(), &[4, 5, 6]);
    assert_eq!(r.as_slice().as_ptr(), a.as_ptr().wrapping_add(3));
}

#[test]
fn a_mutable_view_writes_through() {
    let mut a = Array2::<f32>::zeros((2, 2));
    let p = a.as_ptr();
    {
        let mut t = Tensor::<f32, shape![2, 2], &mut [f32]>::try_from(a.view_mut()).unwrap();
        assert_eq!(t.as_slice().as_ptr(), p);
        *t.get_mut(&[0, 1]).unwrap() = 7.0;
    }
    assert_eq!(a[[0, 1]], 7.0);
}

#[test]
fn static_dims_that_differ_are_a_typed_error_naming_both() {
    let a = array![[1, 2, 3, 4], [5, 6, 7, 8]];
    let err = Tensor::<i32, shape![2, 3], &[i32]>::try_from(a.view()).unwrap_err();
    assert_eq!(
        err,
        NdarrayError::Shape {
            array: Dims::new(&[2, 4]).unwrap(),
            error: ShapeError::DimMismatch {
                axis: 1,
                expected: 3,
                found: 4
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "ndarray array of shape [2, 4] does not fit the tensor's shape type: \
         dim 1 is 3 in the shape type, but 4 was given"
    );
    let err = Tensor::<i32, shape![8], &[i32]>::try_from(a.view()).unwrap_err();
    assert!(matches!(
        err,
        NdarrayError::Shape {
            error: ShapeError::RankMismatch {
                expected: 1,
                found: 2
            },
            ..
        }
    ));
    // rank 9 is beyond MAX_RANK
    let big = ArrayD::<u8>::zeros(IxDyn(&[1; 9]));
    let err = DynTensor::try_from(big).unwrap_err();
    assert_eq!(
        err,
        NdarrayError::Invalid(ShapeError::RankTooLarge { rank: 9 })
    );
}

#[test]
fn a_non_standard_layout_is_rejected_not_copied() {
    let a = array![[1, 2, 3], [4, 5, 6]];
    let err = Tensor::<i32, shape![3, 2], &[i32]>::try_from(a.t()).unwrap_err();
    assert!(matches!(err, NdarrayError::NotStandardLayout { .. }));
    assert_eq!(
        err.to_string(),
        "ndarray view of shape [3, 2] with strides [1, 3] is not in standard (row-major, \
         contiguous) layout; copy it with `as_standard_layout()` first"
    );
    // a column slice is not contiguous
    let err = Tensor::<i32, shape![2], &[i32]>::try_from(a.column(1)).unwrap_err();
    assert!(err.to_string().contains("[2] with strides [3]"), "{err}");
    // the caller can copy explicitly, then borrow
    let std = a.t().as_standard_layout().into_owned();
    let t = Tensor::<i32, shape![3, 2], &[i32]>::try_from(std.view()).unwrap();
    assert_eq!(t.as_slice(), &[1, 4, 2, 5, 3, 6]);
}

#[test]
fn any_tensor_is_an_ndarray_view_without_copying() {
    let t = Tensor::<f64, shape![2, 3]>::from_fn(|i| (10 * i[0] + i[1]) as f64);
    let v = t.as_ndarray().unwrap();
    assert_eq!(v.as_ptr(), t.as_slice().as_ptr());
    assert_eq!(v.shape(), &[2, 3]);
    assert_eq!(v[[1, 2]], 12.0);

    let buf = [1u8, 2, 3, 4, 5, 6];
    let b = Tensor::<u8, shape![3, 2], &[u8]>::from_storage(&buf[..]).unwrap();
    assert_eq!(b.as_ndarray().unwrap().as_ptr(), buf.as_ptr());

    let mut h = Tensor::<i32, shape![2, 2]>::full(0).to_heap();
    let p = h.as_slice().as_ptr();
    let mut m = h.as_ndarray_mut().unwrap();
    assert_eq!(m.as_ptr(), p);
    m[[1, 1]] = 9;
    assert_eq!(h.as_slice(), &[0, 0, 0, 9]);

    // a scalar is a rank-0 array
    let sc = Tensor::<i32, shape![]>::from_array(5);
    assert_eq!(sc.as_ndarray().unwrap().ndim(), 0);
    assert_eq!(sc.as_ndarray().unwrap().into_iter().next(), Some(&5));
}

#[test]
fn a_shape_ndarray_cannot_describe_is_an_error() {
    let t = DynTensor::<u8>::new(&[0, usize::MAX], vec![]).unwrap();
    let err = t.as_ndarray().unwrap_err();
    assert_eq!(
        err,
        NdarrayError::Ndarray {
            dims: Dims::new(&[0, usize::MAX]).unwrap()
        }
    );
    assert!(err.to_string().contains("exceeds isize::MAX"));
}

#[test]
fn owned_conversions_move_the_buffer_when_they_can() {
    let a = Array::from_shape_vec((2, 3), vec![1, 2, 3, 4, 5, 6]).unwrap();
    let p = a.as_ptr();
    let t = Tensor::<i32, shape![2, 3], Vec<i32>>::try_from(a).unwrap();
    assert_eq!(t.as_slice().as_ptr(), p);
    let back = t.into_ndarray().unwrap();
    assert_eq!(back.as_ptr(), p);
    assert_eq!(back.shape(), &[2, 3]);

    // a transposed owned array is copied in row-major order
    let a = array![[1, 2, 3], [4, 5, 6]].reversed_axes();
    let t = Tensor::<i32, shape![3, 2], Vec<i32>>::try_from(a).unwrap();
    assert_eq!(t.as_slice(), &[1, 4, 2, 5, 3, 6]);

    // to_ndarray copies any tensor
    let inline = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let o = inline.to_ndarray().unwrap();
    assert_eq!(o, array![[1, 2], [3, 4]].into_dyn());
    assert_ne!(o.as_ptr(), inline.as_slice().as_ptr());

    let err = Tensor::<i32, shape![2, 2], Vec<i32>>::try_from(array![1, 2, 3, 4]).unwrap_err();
    assert!(matches!(err, NdarrayError::Shape { .. }));
}

#[test]
fn dyn_tensor_and_arrayd_round_trip() {
    let a = ArrayD::from_shape_vec(IxDyn(&[2, 1, 3]), (0..6).collect()).unwrap();
    let moved = a.clone();
    let p = moved.as_ptr();
    let d = DynTensor::try_from(moved).unwrap();
    assert_eq!(d.dims().as_slice(), &[2, 1, 3]);
    assert_eq!(d.as_slice().as_ptr(), p);
    assert_eq!(d.as_ndarray().unwrap().as_ptr(), p);
    let back = d.into_ndarray().unwrap();
    assert_eq!(back.as_ptr(), p);
    assert_eq!(back, a);
    // ops on the way
    let x = DynTensor::try_from(a.clone()).unwrap();
    let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    let z = x
        .elementwise(BinaryOpKind::Add, &y, -1, ActivationKind::Identity)
        .unwrap()
        .into_ndarray()
        .unwrap();
    assert_eq!(z, a.mapv(|v| v + 10 * (v % 3 + 1)));
}
