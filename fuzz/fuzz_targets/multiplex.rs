//! `multiplex_output_dims`, `multiplex_slices` and `DynTensor::multiplex` on
//! arbitrary candidates (count, dims, data), index dims and index values
//! (negative, huge; i32 and i64).
//!
//! Invariants: on Err the output buffer is untouched; on Ok the output dims
//! agree, their product is the output length, every row `i` is row `i` of
//! candidate `index[i]`, and every index value was in range; the `DynTensor`
//! form agrees.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{multiplex_output_dims, multiplex_slices, DynTensor, IndexElement};
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
    let rows = first.first().copied().unwrap_or(0);
    let index_dims = if byte(u) < 220 {
        vec![rows, 1]
    } else {
        dims(u)
    };
    let ilen = data_len(u, &index_dims);
    let index: Vec<I> = (0..ilen).map(|_| index_value(u, count)).collect();
    let out_len = match numel(&first).filter(|&n| n <= MAX_ELEMS) {
        Some(n) if byte(u) < 230 => n,
        _ => usize::from(byte(u) % 16),
    };
    let sentinel = T::value(u);
    let mut out = vec![sentinel; out_len];

    let inputs: Vec<(&[usize], &[T])> = cands.iter().map(|(d, v)| (&d[..], &v[..])).collect();
    let dim_list: Vec<&[usize]> = cands.iter().map(|(d, _)| &d[..]).collect();
    let r = multiplex_slices(&inputs, &index_dims, &index, &mut out);
    match r {
        Err(_) => assert!(
            out.iter().all(|v| v.same(sentinel)),
            "output written on error"
        ),
        Ok(d) => {
            assert_eq!(multiplex_output_dims(&dim_list, &index_dims), Ok(d));
            assert_eq!(d.numel(), Some(out.len()));
            assert!(count >= 2 && d.rank() >= 2);
            assert_eq!(index.len(), rows);
            let row_len = out.len() / rows;
            for (i, (row, &k)) in out.chunks(row_len).zip(&index).enumerate() {
                let k: i64 = k.into();
                assert!(k >= 0 && (k as usize) < count, "index {k} accepted");
                let src = &cands[k as usize].1[i * row_len..(i + 1) * row_len];
                assert!(row.iter().zip(src).all(|(a, b)| a.same(*b)));
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
    let Some(n) = numel(&first).filter(|&n| n <= MAX_ELEMS) else {
        return;
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
