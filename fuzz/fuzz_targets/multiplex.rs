//! `multiplex_output_dims`, `multiplex_slices` and `DynTensor::multiplex` on
//! arbitrary candidates (count, dims, data), index dims (as many rows as the
//! candidates, fewer, more, any shape) and index values (negative, huge; i32
//! and i64).
//!
//! Invariants (differential): the shapes are accepted exactly when the naive
//! reference of Paddle 3.3.1's measured rule (`shapecheck_fuzz::reference::
//! multiplex`: output rows = index rows, at most the candidates' rows)
//! accepts, with its output dims; the slices are accepted exactly when the
//! shapes, every data length, the output length and every index value are
//! right; on Ok every row `i` is row `i` of candidate `index[i]` and every
//! index value was in range, even for an output with no element (Paddle reads
//! no index there, and rejecting is allowed: the library checks them all);
//! on Err the output buffer is untouched; the `DynTensor` form agrees, and
//! so does the static builder's `run_into` over `Dyn` dims (two candidates,
//! any buffer length: a short one is `multiplex/buffer`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{
    multiplex, multiplex_output_dims, multiplex_slices, Dyn, DynTensor, IndexElement, Tensor,
};
use shapecheck_fuzz::*;

fn index_value<I: FuzzValue + TryFrom<i64>>(u: &mut Unstructured<'_>, count: usize) -> I {
    if byte(u) < 200 {
        let k = i64::from(byte(u)) % (count as i64 + 1);
        I::try_from(k).unwrap_or_default()
    } else {
        I::value(u)
    }
}

fn check<T: FuzzValue, I: FuzzValue + IndexElement + TryFrom<i64> + Into<i64>>(
    u: &mut Unstructured<'_>,
) {
    let count = usize::from(byte(u) % 6);
    let first = dims(u);
    let mut cands: Vec<(Vec<usize>, Vec<T>)> = Vec::new();
    for _ in 0..count {
        let d = if byte(u) < 220 {
            first.clone()
        } else {
            dims(u)
        };
        let len = data_len(u, &d);
        let v = data::<T>(u, len);
        cands.push((d, v));
    }
    let cand_rows = first.first().copied().unwrap_or(0);
    let index_dims = match byte(u) {
        0..=149 => vec![cand_rows, 1],
        150..=199 => vec![usize::from(byte(u)) % (cand_rows.min(64) + 1), 1],
        200..=224 => vec![cand_rows.saturating_add(1 + usize::from(byte(u) % 3)), 1],
        _ => dims(u),
    };
    let ilen = data_len(u, &index_dims);
    let index: Vec<I> = (0..ilen).map(|_| index_value(u, count)).collect();
    let dim_list: Vec<&[usize]> = cands.iter().map(|(d, _)| &d[..]).collect();

    // the shape rule against the naive reference
    let want = reference::multiplex(&dim_list, &index_dims);
    let lib = multiplex_output_dims(&dim_list, &index_dims);
    // candidates whose element count overflows cannot hold data: their
    // dims alone may be accepted or not, the slices must reject them
    let cands_fit = numel(&first).is_some();
    match (&lib, &want) {
        (Ok(d), Some(w)) => assert_eq!(d.as_slice(), &w[..], "{dim_list:?} {index_dims:?}"),
        (Err(_), None) => {}
        _ if !cands_fit => {}
        _ => panic!("{dim_list:?} index {index_dims:?}: library {lib:?}, reference {want:?}"),
    }
    let want = want.filter(|_| cands_fit);

    let want_len = want.as_deref().and_then(numel).filter(|&n| n <= MAX_ELEMS);
    let out_len = match want_len {
        Some(n) if byte(u) < 230 => n,
        _ => usize::from(byte(u) % 16),
    };
    let sentinel = T::value(u);
    let mut out = vec![sentinel; out_len];
    let inputs: Vec<(&[usize], &[T])> = cands.iter().map(|(d, v)| (&d[..], &v[..])).collect();
    let r = multiplex_slices(&inputs, &index_dims, &index, &mut out);

    let lens_ok = cands.iter().all(|(d, v)| numel(d) == Some(v.len()))
        && numel(&index_dims) == Some(index.len())
        && want_len == Some(out_len);
    let in_range = index.iter().all(|&k| {
        let k: i64 = k.into();
        k >= 0 && (k as usize) < count
    });
    match &r {
        Err(e) => {
            assert!(
                out.iter().all(|v| v.same(sentinel)),
                "output written on error"
            );
            assert!(
                want.is_none() || !lens_ok || !in_range,
                "valid input rejected: {dim_list:?} index {index_dims:?} {index:?}: {e}"
            );
        }
        Ok(d) => {
            let w = want
                .as_ref()
                .expect("accepted shapes the reference rejects");
            assert_eq!(d.as_slice(), &w[..]);
            assert!(lens_ok, "wrong lengths accepted");
            assert!(in_range, "index {index:?} accepted with {count} candidates");
            let row_len = numel(&w[1..]).unwrap_or(0);
            if row_len > 0 {
                for (i, (row, &k)) in out.chunks(row_len).zip(&index).enumerate() {
                    let k: i64 = k.into();
                    let src = &cands[k as usize].1[i * row_len..(i + 1) * row_len];
                    assert!(row.iter().zip(src).all(|(a, b)| a.same(*b)), "row {i}");
                }
            }
        }
    }

    // the DynTensor form: same outcome as the slices with a right-sized buffer
    let Ok(tensors) = cands
        .iter()
        .map(|(d, v)| DynTensor::new(d, v.clone()))
        .collect::<Result<Vec<_>, _>>()
    else {
        return;
    };
    let Ok(ti) = DynTensor::new(&index_dims, index.clone()) else {
        return;
    };
    let n = match want_len {
        Some(n) => n,
        None => usize::from(byte(u) % 4),
    };
    let mut out2 = vec![sentinel; n];
    let r2 = multiplex_slices(&inputs, &index_dims, &index, &mut out2);
    let z = DynTensor::multiplex(&tensors, &ti);
    match (r2, z) {
        (Ok(d), Ok(z)) => {
            assert_eq!(z.dims(), d);
            assert!(z.as_slice().iter().zip(&out2).all(|(a, b)| a.same(*b)));
            assert_eq!(z.as_slice().len(), out2.len());
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "slices {a:?} and DynTensor {:?} disagree",
            b.map(|t| t.dims())
        ),
    }

    // the static builder over run-time dims (two candidates and an index,
    // each of rank 2): `run_into` a buffer of a fuzzed length agrees with
    // the slices, reports a short buffer as `multiplex/buffer`, writes
    // nothing on error and nothing past the output
    let ([(d0, v0), (d1, v1)], [ir, ic]) = (cands.as_slice(), index_dims.as_slice()) else {
        return;
    };
    let ([a0, a1], [b0, b1]) = (d0.as_slice(), d1.as_slice()) else {
        return;
    };
    let (Ok(t0), Ok(t1), Ok(tix)) = (
        Tensor::<T, (Dyn, Dyn), Vec<T>>::from_vec((Dyn(*a0), Dyn(*a1)), v0.clone()),
        Tensor::<T, (Dyn, Dyn), Vec<T>>::from_vec((Dyn(*b0), Dyn(*b1)), v1.clone()),
        Tensor::<I, (Dyn, Dyn), Vec<I>>::from_vec((Dyn(*ir), Dyn(*ic)), index.clone()),
    ) else {
        return;
    };
    let exact_len = want_len.unwrap_or(0);
    let len = match (want_len, byte(u) % 3) {
        (Some(n), 0) => n.saturating_sub(1),
        (Some(n), 1) => n,
        (Some(n), _) => n + 3,
        (None, _) => usize::from(byte(u) % 8),
    };
    let mut exact = vec![sentinel; exact_len];
    let slices = multiplex_slices(&inputs, &index_dims, &index, &mut exact);
    let mut buf = vec![sentinel; len];
    let got = multiplex(&[t0, t1], &tix)
        .run_into(&mut buf)
        .map(|view| view.as_slice().len());
    match (&got, &slices) {
        (Ok(n), Ok(_)) => {
            assert_eq!(*n, exact_len);
            assert!(buf.iter().zip(&exact).all(|(a, b)| a.same(*b)), "rows differ");
            assert!(buf[exact_len..].iter().all(|v| v.same(sentinel)), "written past the output");
        }
        (Err(e), Ok(_)) => {
            assert_eq!(e.rule(), "multiplex/buffer", "{e}");
            assert!(len < exact_len);
            assert!(buf.iter().all(|v| v.same(sentinel)), "buffer written on error");
        }
        (Err(_), Err(_)) => assert!(buf.iter().all(|v| v.same(sentinel)), "buffer written on error"),
        (Ok(_), Err(e)) => panic!("the builder accepts what the slices reject: {e}"),
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    match byte(&mut u) % 4 {
        0 => check::<f32, i32>(&mut u),
        1 => check::<f32, i64>(&mut u),
        2 => check::<i32, i32>(&mut u),
        _ => check::<i64, i64>(&mut u),
    }
});
