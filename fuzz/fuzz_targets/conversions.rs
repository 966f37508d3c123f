//! `Dims::new`, `Dims::for_data`, `DynTensor::new`/`full`, `into_static` and
//! `TryFrom` into a few static shapes (with `Dyn` dims), `Shape::from_dims`,
//! `Tensor::with_dims`/`try_full_with_shape`,
//! and what a converted tensor offers (`get`, `Display`, `Debug`).
//!
//! Invariants: each constructor accepts exactly the inputs its rule allows
//! (checked against a naive reference), and a converted tensor has the dims
//! and the data it was built from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{shape, Dims, DynTensor, Shape, ShapeError, Tensor, MAX_RANK};
use shapecheck_fuzz::*;

/// Converts to `S`, whose dims are `pattern` (`None` for `Dyn`).
fn conv<S: Shape>(u: &mut Unstructured<'_>, d: &[usize], v: &[i32], pattern: &[Option<usize>]) {
    let fits = d.len() == pattern.len()
        && d.iter()
            .zip(pattern)
            .all(|(&n, p)| p.map_or(true, |p| p == n));
    let s = S::from_dims(d);
    assert_eq!(s.is_ok(), fits, "from_dims({d:?}) for {pattern:?}");
    if let Ok(s) = s {
        assert_eq!(s.dims().as_slice(), d);
        if numel(d).is_some_and(|n| n <= MAX_ELEMS) {
            let f = Tensor::<i32, S, Vec<i32>>::try_full_with_shape(s, 3).expect("small fill");
            assert_eq!(f.dims().numel(), Some(f.as_slice().len()));
        }
    }
    let w = Tensor::<i32, S, Vec<i32>>::with_dims(d, v.to_vec());
    assert_eq!(w.is_ok(), fits && numel(d) == Some(v.len()));
    let Ok(t) = DynTensor::new(d, v.to_vec()) else {
        return;
    };
    match t.clone().into_static::<S>() {
        Ok(st) => {
            assert!(fits);
            assert_eq!(st.dims().as_slice(), d);
            assert_eq!(st.as_slice(), v);
            // what a converted tensor offers
            let index: Vec<usize> = (0..byte(u) % 10).map(|_| dim(u)).collect();
            let want = (index.len() == d.len() && index.iter().zip(d).all(|(i, n)| i < n))
                .then(|| index.iter().zip(d).fold(0, |f, (&i, &n)| f * n + i));
            assert_eq!(st.get(&index).copied(), want.map(|w| v[w]));
            let shown = format!("{st}");
            let debug = format!("{st:?}");
            assert!(shown.len() <= debug.len());
            let back = st.to_dyn();
            assert_eq!(back, t);
        }
        Err(e) => {
            assert!(!fits, "into_static rejected {d:?} for {pattern:?}: {e}");
        }
    }
    let via: Result<Tensor<i32, S, Vec<i32>>, _> = Tensor::try_from(t);
    assert_eq!(via.is_ok(), fits);
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let d = dims(&mut u);
    let len = data_len(&mut u, &d);
    let v = data::<i32>(&mut u, len);

    // Dims against a naive reference
    let nd = Dims::new(&d);
    assert_eq!(nd.is_ok(), d.len() <= MAX_RANK);
    // a 0 anywhere makes the count 0, however big the other dims
    let naive = if d.contains(&0) {
        Some(0)
    } else {
        d.iter().try_fold(1usize, |a, &n| a.checked_mul(n))
    };
    if let Ok(nd) = nd {
        assert_eq!(nd.as_slice(), &d[..]);
        assert_eq!(nd.numel(), naive);
        assert!(!nd.to_string().is_empty());
    }
    let fd = Dims::for_data(&d, v.len());
    assert_eq!(fd.is_ok(), nd.is_ok() && naive == Some(v.len()));
    let t = DynTensor::new(&d, v.clone());
    assert_eq!(t.is_ok(), fd.is_ok());
    if let Ok(t) = &t {
        assert_eq!(t.dims().as_slice(), &d[..]);
        assert_eq!(t.as_slice(), &v[..]);
        let _ = format!("{t:?}");
    }
    match naive {
        Some(n) if n <= MAX_ELEMS && d.len() <= MAX_RANK => {
            let f = DynTensor::full(&d, 7i32).expect("a small shape fills");
            assert_eq!(f.as_slice().len(), n);
            assert!(f.as_slice().iter().all(|&x| x == 7));
        }
        None => {
            assert!(matches!(
                DynTensor::full(&d, 7i32),
                Err(ShapeError::NumelOverflow { .. } | ShapeError::RankTooLarge { .. })
            ));
        }
        _ => {}
    }

    match byte(&mut u) % 8 {
        0 => conv::<()>(&mut u, &d, &v, &[]),
        1 => conv::<shape![Dyn]>(&mut u, &d, &v, &[None]),
        2 => conv::<shape![2, 3]>(&mut u, &d, &v, &[Some(2), Some(3)]),
        3 => conv::<shape![Dyn, 2]>(&mut u, &d, &v, &[None, Some(2)]),
        4 => conv::<shape![1, Dyn, 4]>(&mut u, &d, &v, &[Some(1), None, Some(4)]),
        5 => conv::<shape![Dyn, Dyn, Dyn]>(&mut u, &d, &v, &[None, None, None]),
        6 => conv::<shape![Dyn, Dyn, Dyn, Dyn, Dyn, Dyn, Dyn, Dyn]>(&mut u, &d, &v, &[None; 8]),
        _ => {
            // into an inline static shape
            let fits = d == [2, 3];
            if let Ok(t) = &t {
                let st: Result<Tensor<i32, shape![2, 3]>, _> = Tensor::try_from(t);
                assert_eq!(st.is_ok(), fits);
                if let Ok(st) = st {
                    assert_eq!(st.as_slice(), &v[..]);
                }
            }
        }
    }
});
