//! Feature `serde`: round trips through serde_json for inline, heap and
//! borrowed tensors, `DynTensor` and `Dims`; every mismatch on the way in is
//! our `ShapeError`, with its values.
#![cfg(feature = "serde")]
#![allow(clippy::result_large_err)]

use shapecheck::prelude::*;
use shapecheck::{Dims, ShapeError};

fn err_of<T: serde::de::DeserializeOwned>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(_) => panic!("{json} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn inline_tensors_round_trip() {
    let t = Tensor::<f32, shape![2, 3]>::from_fn(|i| (i[0] * 3 + i[1]) as f32 * 0.5);
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(json, r#"{"shape":[2,3],"data":[0.0,0.5,1.0,1.5,2.0,2.5]}"#);
    let back: Tensor<f32, shape![2, 3]> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    // a scalar, and a shape with a 1 (One)
    let s = Tensor::<i64, shape![]>::from_array(-7);
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        r#"{"shape":[],"data":[-7]}"#
    );
    let c: Tensor<u8, shape![3, 1]> =
        serde_json::from_str(r#"{"shape":[3,1],"data":[1,2,3]}"#).unwrap();
    assert_eq!(c.as_slice(), &[1, 2, 3]);
}

#[test]
fn heap_and_dyn_dim_tensors_round_trip() {
    let t = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(3), Dim::<2>), (0..6).collect())
        .unwrap();
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(json, r#"{"shape":[3,2],"data":[0,1,2,3,4,5]}"#);
    let back: Tensor<i32, shape![Dyn, 2], Vec<i32>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.shape().0, Dyn(3));
    // a view serializes like its owner
    assert_eq!(serde_json::to_string(&t.view()).unwrap(), json);
}

#[test]
fn dyn_tensors_and_dims_round_trip() {
    let d = DynTensor::new(&[2, 1, 2], vec![true, false, false, true]).unwrap();
    let json = serde_json::to_string(&d).unwrap();
    assert_eq!(json, r#"{"shape":[2,1,2],"data":[true,false,false,true]}"#);
    assert_eq!(serde_json::from_str::<DynTensor<bool>>(&json).unwrap(), d);
    let dims = Dims::new(&[4, 0, 9]).unwrap();
    assert_eq!(serde_json::to_string(&dims).unwrap(), "[4,0,9]");
    assert_eq!(serde_json::from_str::<Dims>("[4,0,9]").unwrap(), dims);
    // field order and extra fields (the vectors' dtype) do not matter
    let v: DynTensor<f64> =
        serde_json::from_str(r#"{"data":[1.5,2.5],"dtype":"float64","shape":[2]}"#).unwrap();
    assert_eq!(v.as_slice(), &[1.5, 2.5]);
}

#[test]
fn a_static_shape_checks_dims_with_our_error() {
    let dim = ShapeError::DimMismatch {
        axis: 1,
        expected: 3,
        found: 2,
    }
    .to_string();
    let json = r#"{"shape":[2,2],"data":[1,2,3,4]}"#;
    assert!(err_of::<Tensor<i32, shape![2, 3]>>(json).starts_with(&dim));
    assert!(err_of::<Tensor<i32, shape![Dyn, 3], Vec<i32>>>(json).starts_with(&dim));
    let rank = ShapeError::RankMismatch {
        expected: 1,
        found: 2,
    }
    .to_string();
    assert!(err_of::<Tensor<i32, shape![4]>>(json).starts_with(&rank));
}

#[test]
fn data_of_the_wrong_length_is_our_error() {
    let shape = Dims::new(&[2, 2]).unwrap();
    for (data, len) in [("[1,2,3]", 3), ("[1,2,3,4,5,6]", 6), ("[]", 0)] {
        let json = format!(r#"{{"shape":[2,2],"data":{data}}}"#);
        let want = ShapeError::DataLength {
            shape,
            numel: 4,
            len,
        }
        .to_string();
        assert!(
            err_of::<Tensor<i32, shape![2, 2]>>(&json).starts_with(&want),
            "{json}"
        );
        assert!(err_of::<Tensor<i32, shape![2, 2], Vec<i32>>>(&json).starts_with(&want));
        assert!(err_of::<DynTensor<i32>>(&json).starts_with(&want));
    }
}

#[test]
fn bad_documents_are_errors_not_panics() {
    let too_deep = ShapeError::RankTooLarge { rank: 9 }.to_string();
    assert!(err_of::<Dims>("[1,1,1,1,1,1,1,1,1]").starts_with(&too_deep));
    assert!(
        err_of::<DynTensor<u8>>(r#"{"shape":[1,1,1,1,1,1,1,1,1],"data":[0]}"#)
            .starts_with(&too_deep)
    );
    let overflow = ShapeError::NumelOverflow {
        shape: Dims::new(&[usize::MAX, 2]).unwrap(),
    };
    let json = format!(r#"{{"shape":[{},2],"data":[]}}"#, usize::MAX);
    assert!(err_of::<DynTensor<u8>>(&json).starts_with(&overflow.to_string()));
    assert!(err_of::<DynTensor<u8>>(r#"{"data":[1]}"#).contains("missing field `shape`"));
    assert!(err_of::<DynTensor<u8>>(r#"{"shape":[1]}"#).contains("missing field `data`"));
    assert!(
        err_of::<DynTensor<u8>>(r#"{"shape":[1],"shape":[1],"data":[1]}"#)
            .contains("duplicate field `shape`")
    );
    assert!(err_of::<Tensor<u8, shape![1]>>(r#"{"shape":[1],"data":[300]}"#).contains("300"));
}

#[test]
fn the_sequence_form_works_too() {
    // formats without field names read a tensor as (shape, data)
    let t: Tensor<i32, shape![2]> = serde_json::from_str("[[2],[5,6]]").unwrap();
    assert_eq!(t.as_slice(), &[5, 6]);
    let d: DynTensor<i32> = serde_json::from_str("[[1,2],[5,6]]").unwrap();
    assert_eq!(d.dims().as_slice(), &[1, 2]);
}

#[test]
fn lod_tensors_round_trip_with_their_offsets() {
    use shapecheck::{DynLodTensor, LodError, LodTensor, Offsets, OwnedLod};
    // Paddle's two-level example: lengths [[2, 1], [2, 3, 1]] are offsets
    // [[0, 2, 3], [0, 2, 5, 6]] over 6 rows
    let dense = Tensor::<i32, shape![6, 1]>::from_array([[1], [2], [3], [4], [5], [6]]);
    let levels = [Offsets::new(&[0, 2, 3]), Offsets::new(&[0, 2, 5, 6])];
    let x = LodTensor::new(dense, &levels[..]).unwrap();
    let json = serde_json::to_string(&x).unwrap();
    assert_eq!(
        json,
        r#"{"shape":[6,1],"data":[1,2,3,4,5,6],"lod":[[0,2,3],[0,2,5,6]]}"#
    );
    // into a heap LoD tensor with a run-time row count, and a dynamic one
    let back: LodTensor<i32, shape![Dyn, 1], Vec<i32>, OwnedLod> =
        serde_json::from_str(&json).unwrap();
    assert_eq!(back.as_slice(), x.as_slice());
    assert_eq!(back.lod().as_offsets(), &[vec![0, 2, 3], vec![0, 2, 5, 6]]);
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    let dynamic: DynLodTensor<i32> = serde_json::from_str(&json).unwrap();
    assert_eq!(dynamic.level(1).unwrap().as_slice(), &[0, 2, 5, 6]);
    assert_eq!(serde_json::to_string(&dynamic).unwrap(), json);
    // a LoD that fails Paddle's CheckLoD is our LodError, naming the level
    let bad = r#"{"shape":[6,1],"data":[1,2,3,4,5,6],"lod":[[0,2,3],[0,2,5,7]]}"#;
    let err = DynLodTensor::<i32>::new(
        DynTensor::new(&[6, 1], vec![1, 2, 3, 4, 5, 6]).unwrap(),
        OwnedLod::from_offsets(vec![vec![0, 2, 3], vec![0, 2, 5, 7]]),
    )
    .unwrap_err();
    assert!(matches!(err, LodError::RowsMismatch { .. }), "{err:?}");
    assert!(err_of::<DynLodTensor<i32>>(bad).starts_with(&err.to_string()));
    assert!(
        err_of::<LodTensor<i32, shape![Dyn, 1], Vec<i32>, OwnedLod>>(bad)
            .starts_with(&err.to_string())
    );
    // the dense part keeps its own checks, and `lod` is required
    assert!(err_of::<LodTensor<i32, shape![Dyn, 2], Vec<i32>, OwnedLod>>(&json).contains("dim 1"));
    assert!(
        err_of::<DynLodTensor<i32>>(r#"{"shape":[1],"data":[1]}"#).contains("missing field `lod`")
    );
}
