//! Feature `generic-array`: GenericArray as storage (no copy), its length
//! checked against the shape, and TDim, a dim from a typenum length.
#![cfg(feature = "generic-array")]
#![allow(clippy::result_large_err)]

use generic_array::{arr, ArrayLength, GenericArray};
use shapecheck::interop::generic_array::TDim;
use shapecheck::ops::Add;
use shapecheck::prelude::*;
use shapecheck::{Dims, ShapeError};
use typenum::{U0, U3, U4, U6};

#[test]
fn a_generic_array_is_storage_without_copying() {
    let a: GenericArray<f32, U6> = arr![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let mut t = Tensor::<f32, shape![2, 3], _>::from_generic_array(a);
    assert_eq!(t.get(&[1, 2]), Some(&6.0));
    *t.get_mut(&[0, 0]).unwrap() = -1.0;
    let p = t.as_slice().as_ptr();
    assert_eq!(t.storage().as_ptr(), p);
    assert_eq!(t.view().as_slice().as_ptr(), p);
    let (_, back) = t.into_parts();
    assert_eq!(back, arr![-1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
}

#[test]
fn ops_read_it_through_a_view_and_write_into_it() {
    let x = Tensor::<i32, shape![2, 3], _>::from_generic_array(arr![1, 2, 3, 4, 5, 6]);
    let y = Tensor::<i32, shape![2]>::from_array([10, 100]);
    let z = x.view().elementwise_mul(&y, Axis::<0>, Identity);
    assert_eq!(z.as_slice(), &[10, 20, 30, 400, 500, 600]);
    // an _into form writes into GenericArray storage
    let mut out = Tensor::<i32, shape![2, 3], GenericArray<i32, U6>>::from_generic_array(
        GenericArray::default(),
    );
    x.elementwise_add_into(&y, Axis::<0>, Identity, &mut out);
    assert_eq!(out.as_slice(), &[11, 12, 13, 104, 105, 106]);
    let back: GenericArray<i32, U6> = z.to_generic_array();
    assert_eq!(back, arr![10, 20, 30, 400, 500, 600]);
}

#[test]
fn a_length_known_at_run_time_is_checked_at_construction() {
    let a: GenericArray<u8, U4> = arr![1, 2, 3, 4];
    let t = Tensor::<u8, shape![Dyn, 2], _>::with_shape((Dyn(2), Dim::<2>), a).unwrap();
    assert_eq!(t.dims().as_slice(), &[2, 2]);
    let err = Tensor::<u8, shape![Dyn, 2], _>::with_shape((Dyn(3), Dim::<2>), a).unwrap_err();
    assert_eq!(
        err,
        ShapeError::DataLength {
            shape: Dims::new(&[3, 2]).unwrap(),
            numel: 6,
            len: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "shape [3, 2] holds 6 elements, but the data has 4"
    );
    let err = Tensor::<u8, shape![Dyn], _>::with_dims(&[5], a).unwrap_err();
    assert!(matches!(
        err,
        ShapeError::DataLength {
            numel: 5,
            len: 4,
            ..
        }
    ));
}

/// Code generic over a typenum length carries it in the shape.
fn ramp<N: ArrayLength>() -> Tensor<u32, (TDim<N>,), GenericArray<u32, N>> {
    let mut a = GenericArray::<u32, N>::default();
    for (i, v) in a.iter_mut().enumerate() {
        *v = i as u32;
    }
    a.into()
}

/// An N×3 heap tensor, N a typenum.
type RowsOfThree<N> = Tensor<f64, (TDim<N>, Dim<3>), Vec<f64>>;

fn rows_of_three<N: ArrayLength>(data: Vec<f64>) -> Result<RowsOfThree<N>, ShapeError> {
    Tensor::with_shape((TDim::new(), Dim), data)
}

#[test]
fn tdim_carries_a_typenum_length_in_the_shape() {
    let r = ramp::<U4>();
    assert_eq!(r.dims().as_slice(), &[4]);
    assert_eq!(r.as_slice(), &[0, 1, 2, 3]);
    assert_eq!(<TDim<U4> as DimLike>::STATIC, Some(4));
    assert_eq!(TDim::<U3>::new().size(), 3);
    assert_eq!(TDim::<U3>::from_size(3), Some(TDim::new()));
    assert_eq!(TDim::<U3>::from_size(4), None);
    assert_eq!(format!("{:?}", TDim::<U6>::new()), "TDim<6>");
    let empty = ramp::<U0>();
    assert_eq!(empty.dims().as_slice(), &[0]);

    let m = rows_of_three::<U3>((0..9).map(f64::from).collect()).unwrap();
    assert_eq!(m.get(&[2, 0]), Some(&6.0));
    assert_eq!(
        rows_of_three::<U3>(vec![0.0; 6]).unwrap_err(),
        ShapeError::DataLength {
            shape: Dims::new(&[3, 3]).unwrap(),
            numel: 9,
            len: 6
        }
    );
    // from run-time dims, the typenum dim is checked like a static one
    let err = Tensor::<f64, (TDim<U3>, Dim<3>), Vec<f64>>::with_dims(&[2, 3], vec![0.0; 6]);
    assert_eq!(
        err.unwrap_err(),
        ShapeError::DimMismatch {
            axis: 0,
            expected: 3,
            found: 2
        }
    );
}

#[test]
fn a_tdim_tensor_runs_ops_through_a_dyn_view() {
    let x = ramp::<U4>();
    let v = Tensor::<u32, (Dyn,), &[u32]>::with_dims(&x.dims(), x.as_slice()).unwrap();
    assert_eq!(v.as_slice().as_ptr(), x.as_slice().as_ptr());
    let y = Tensor::<u32, shape![1]>::from_array([10]);
    let z = v
        .to_heap()
        .try_elementwise(Add, &y, Axis::<-1>, Identity)
        .unwrap();
    assert_eq!(z.as_slice(), &[10, 11, 12, 13]);
}
