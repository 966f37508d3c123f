//! reshape against a naive reference: the result holds the input's flat
//! row-major elements under the new dims, accepted exactly when the element
//! counts agree; every form (static, rows kept, run-time, `DynTensor`) on
//! every storage (inline, `Vec`, views, bounded rooms, brands), nothing
//! copied where the storage is a buffer.

use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::{Dims, ReshapeError, Room};

/// The reference: the element at multi-index `idx` of `dims` over `flat`.
fn at<'a>(flat: &'a [i32], dims: &[usize], idx: &[usize]) -> &'a i32 {
    let mut k = 0;
    for (d, i) in dims.iter().zip(idx) {
        k = k * d + i;
    }
    &flat[k]
}

/// Every multi-index of `dims`, row-major.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in dims {
        all = all
            .into_iter()
            .flat_map(|p| {
                (0..d).map(move |i| {
                    let mut q = p.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    all
}

/// A [3, 2] tensor over the [2, 3] array it was made with.
type KeptArray = Tensor<i32, shape![3, 2], shapecheck::Inline<i32, shape![2, 3]>>;

fn dims_strategy() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..5, 0..5)
}

proptest! {
    /// `try_reshape` and `DynTensor::reshape` accept exactly the targets of
    /// the same count, and every element is where the reference puts it.
    #[test]
    fn run_time_reshape_matches_the_reference(from in dims_strategy(), to in dims_strategy()) {
        let n: usize = from.iter().product();
        let flat: Vec<i32> = (0..n as i32).map(|v| v * 3 - 7).collect();
        let x = DynTensor::new(&from, flat.clone()).unwrap();
        let m: usize = to.iter().product();
        let got = x.clone().reshape(&to);
        if n == m {
            let y = got.unwrap();
            prop_assert_eq!(&y.dims()[..], &to[..]);
            for idx in indices(&to) {
                let k = idx.iter().zip(&to).fold(0, |k, (i, d)| k * d + i);
                prop_assert_eq!(&y.as_slice()[k], at(&flat, &to, &idx));
            }
            prop_assert_eq!(y.as_slice(), &flat[..]);
        } else {
            let err = got.unwrap_err();
            prop_assert_eq!(err.rule(), "reshape/element-count");
            prop_assert_eq!(
                err,
                ReshapeError::ElementCount {
                    from: Dims::new(&from).unwrap(),
                    to: Dims::new(&to).unwrap(),
                    from_numel: n,
                    to_numel: m,
                }
            );
        }
        // the same through a typed tensor of run-time dims (rank 2 targets)
        if to.len() == 2 {
            let t = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(n),), flat.clone()).unwrap();
            let r = t.try_reshape((Dyn(to[0]), Dyn(to[1])));
            prop_assert_eq!(r.is_ok(), n == m);
            if let Ok(r) = r {
                prop_assert_eq!(r.as_slice(), &flat[..]);
                for idx in indices(&to) {
                    prop_assert_eq!(r.get(&idx), Some(at(&flat, &to, &idx)));
                }
            }
        }
    }

    /// `reshape_rows` keeps the first dim's value and the elements, for any
    /// number of rows.
    #[test]
    fn rows_keep_their_elements(rows in 0usize..7) {
        let flat: Vec<i32> = (0..(rows * 6) as i32).collect();
        let x = Tensor::<i32, shape![Dyn, 2, 3], Vec<i32>>::with_dims(&[rows, 2, 3], flat.clone()).unwrap();
        let y = x.reshape_rows::<shape![Dyn, 3, 2]>();
        prop_assert_eq!(&y.dims()[..], &[rows, 3, 2]);
        for idx in indices(&[rows, 3, 2]) {
            prop_assert_eq!(y.get(&idx), Some(at(&flat, &[rows, 3, 2], &idx)));
        }
    }
}

#[test]
fn static_reshape_on_every_storage() {
    let x = tensor![[1, 2, 3], [4, 5, 6]];
    // inline: the array moves, its type kept
    let y: KeptArray = x.reshape::<shape![3, 2]>();
    assert_eq!(y.get(&[2, 1]), Some(&6));
    assert_eq!(y.as_slice(), &[1, 2, 3, 4, 5, 6]);
    // a view: the same memory
    let v = x.view().reshape::<shape![6]>();
    assert_eq!(v.as_slice().as_ptr(), x.as_slice().as_ptr());
    // a mutable view writes through
    let mut z = x;
    {
        let mut m = z.view_mut().reshape::<shape![6]>();
        m.as_mut_slice()[5] = 60;
    }
    assert_eq!(z.get(&[1, 2]), Some(&60));
    // a Vec keeps its allocation
    let h = x.to_heap();
    let p = h.as_slice().as_ptr();
    let h = h.reshape::<shape![1, 1, 6]>();
    assert_eq!(h.as_slice().as_ptr(), p);
    assert_eq!(h.get(&[0, 0, 4]), Some(&5));
    // scalar <-> one element
    let s = Tensor::<i32, shape![]>::from_array(7);
    assert_eq!(s.reshape::<shape![1, 1]>().get(&[0, 0]), Some(&7));
}

#[test]
fn rows_keep_every_kind_of_first_dim() {
    // a bounded room: the room moves, the size is kept
    let data: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let b = BoundedTensor::<f32, shape![Dyn, 2, 2], 4>::from_shape_slice(
        (Bounded::new(3).unwrap(), Dim, Dim),
        &data,
    )
    .unwrap();
    let r = b.reshape_rows::<(Bounded<4>, Dim<4>)>();
    assert_eq!(r.dims().as_slice(), &[3, 4]);
    assert_eq!(r.as_slice(), &data[..]);
    let _: &Room<f32, (Bounded<4>, Dim<2>, Dim<2>)> = r.storage();
    // a brand: still the same brand after the reshape, so plain ops meet it
    let x =
        Tensor::<f32, shape![Dyn, 2, 2], Vec<f32>>::with_dims(&[3, 2, 2], data.clone()).unwrap();
    let w = tensor![1.0f32, 2.0, 3.0, 4.0];
    x.with_brand(|x, _rows| {
        let flat = x.reshape_rows::<(_, Dim<4>)>();
        let y = flat.elementwise_mul(&w, Axis::<1>, Identity);
        assert_eq!(&y.as_slice()[..4], &[0.0, 2.0, 6.0, 12.0]);
    });
    // static rows
    let s = tensor![[[1, 2], [3, 4]], [[5, 6], [7, 8]]];
    assert_eq!(s.reshape_rows::<shape![2, 4]>().get(&[1, 0]), Some(&5));
}

#[test]
fn run_time_errors_name_both_shapes_and_drop_nothing_kept() {
    let x =
        Tensor::<u8, shape![Dyn, 3], Vec<u8>>::with_dims(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    let err = x.view().try_reshape((Dyn(4), Dyn(2))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "reshape: the target shape must hold as many elements as the tensor: [2, 3] holds 6, but [4, 2] holds 8"
    );
    assert_eq!(x.as_slice(), &[1, 2, 3, 4, 5, 6]);
    // a count that overflows is its own error
    let err = x.view().try_reshape((Dyn(usize::MAX), Dyn(2))).unwrap_err();
    assert_eq!(err.rule(), "shape/overflow");
    // zero elements meet zero elements, whatever the dims
    let e = Tensor::<u8, shape![Dyn, 3], Vec<u8>>::with_dims(&[0, 3], vec![]).unwrap();
    assert_eq!(
        e.try_reshape((Dyn(5), Dyn(0))).unwrap().dims().as_slice(),
        &[5, 0]
    );
    // DynTensor: rank over the limit
    let d = DynTensor::new(&[1], vec![0u8]).unwrap();
    assert_eq!(d.reshape(&[1; 9]).unwrap_err().rule(), "shape/rank");
}
