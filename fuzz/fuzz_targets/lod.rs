//! LoD construction from arbitrary offsets (`check_lod`, `LodTensor::new`,
//! `DynLodTensor::new`) and from lengths (`check_lengths`,
//! `LodTensor::from_lengths` / `from_lengths_in`, `DynLodTensor::from_lengths`,
//! `Lengths::offsets_into` / `to_offsets`), and what an accepted LoD offers
//! (`sequences` of every level, `lengths`, `lengths_into`). The LoDs are
//! nested ones built level by level and then mutated (an offset moved, made
//! huge, dropped or added; the row count changed; a length made huge so the
//! sums overflow), or any numbers; 0 to 5 levels; dense tensors of any row
//! count (huge ones with no columns), rank 1 or 2, or a scalar.
//!
//! Invariants (differential): every constructor accepts exactly what the
//! naive reference of Paddle's `CheckLoD` accepts
//! (`shapecheck_fuzz::ragged::check_lod`, `lod_of_lengths`), and rejects
//! with the reference's error: the same rule, level, position and values;
//! lengths convert to the reference's offsets; every sequence of every level
//! spans the rows the reference computes and views exactly those elements;
//! a buffer too small is the `Buffer` error and is left untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{
    check_lengths, check_lod, Dyn, DynLodTensor, DynTensor, Lengths, LodTensor, Offsets, Tensor,
};
use shapecheck_fuzz::ragged::{self, LodErr};
use shapecheck_fuzz::*;

/// The dense tensor's dims for `rows` rows: `[rows, c]` (`c` 0 when the
/// rows are too many to hold data), sometimes `[rows]`, rarely a scalar.
fn dense_dims(u: &mut Unstructured<'_>, rows: usize) -> Vec<usize> {
    let fits = |n: usize| rows.checked_mul(n).is_some_and(|e| e <= MAX_ELEMS);
    match byte(u) {
        0..=4 => vec![],
        5..=59 if fits(1) => vec![rows],
        _ => {
            let c = usize::from(byte(u) % 4);
            vec![rows, if fits(c) { c } else { 0 }]
        }
    }
}

/// Every sequence of every level of an accepted LoD, both paths, against
/// the reference's row spans.
fn check_sequences(lod: &[Vec<usize>], dd: &[usize], data: &[i32]) {
    let offs: Vec<Offsets<'_>> = lod.iter().map(|o| Offsets::new(o)).collect();
    let rows = dd[0];
    let row_len = data.len().checked_div(rows).unwrap_or(0);
    let x = DynLodTensor::new(DynTensor::new(dd, data.to_vec()).unwrap(), &offs[..]).unwrap();
    assert_eq!(x.check(), Ok(()));
    let lengths: Vec<Vec<usize>> = x.lengths().into_iter().map(|l| l.into_vec()).collect();
    let want: Vec<Vec<usize>> = lod
        .iter()
        .map(|o| o.windows(2).map(|w| w[1] - w[0]).collect())
        .collect();
    assert_eq!(lengths, want);
    for (k, o) in lod.iter().enumerate() {
        let seqs: Vec<_> = x.sequences(k).unwrap().collect();
        assert_eq!(seqs.len(), o.len() - 1);
        for (i, s) in seqs.iter().enumerate() {
            let (a, b) = ragged::row_span(lod, k, i);
            assert_eq!(s.index(), i);
            assert_eq!(s.rows(), a..b, "level {k} sequence {i} of {lod:?}");
            assert_eq!(s.data(), &data[a * row_len..b * row_len]);
            assert_eq!(s.dims().first(), Some(&(b - a)));
            assert_eq!(s.dims().get(1..), dd.get(1..));
        }
    }
    let e = x.sequences(lod.len()).err().expect("no such level");
    assert_eq!(
        ragged::lod_err(&e),
        LodErr::NoSuchLevel {
            level: lod.len(),
            levels: lod.len()
        }
    );

    // the static path, borrowed dense data
    if dd.len() == 2 {
        let dense = Tensor::<i32, (Dyn, Dyn), &[i32]>::with_dims(dd, data).unwrap();
        let x = LodTensor::new(dense, &offs[..]).unwrap();
        for (k, o) in lod.iter().enumerate() {
            for (i, s) in x.sequences(k).unwrap().enumerate() {
                let (a, b) = ragged::row_span(lod, k, i);
                assert_eq!(s.rows(), a..b);
                assert_eq!(s.tensor().as_slice(), &data[a * row_len..b * row_len]);
                assert_eq!(s.tensor().dims().as_slice(), &[b - a, dd[1]]);
            }
            // lengths into a caller's buffer, short or not
            let n = o.len() - 1;
            // every other level into a buffer one entry short
            let blen = if k % 2 == 0 { n } else { n.saturating_sub(1) };
            let mut buf = vec![7usize; blen];
            match x.lengths_into(k, &mut buf) {
                Ok(l) => assert_eq!(l.as_slice(), &want[k][..]),
                Err(e) => {
                    assert_eq!(
                        ragged::lod_err(&e),
                        LodErr::Buffer {
                            what: "lengths",
                            needed: n,
                            len: buf.len()
                        }
                    );
                    assert!(buf.iter().all(|&v| v == 7), "written on error");
                }
            }
        }
    }
}

/// A LoD of offsets: every constructor against the reference.
fn from_offsets(u: &mut Unstructured<'_>, lod: &[Vec<usize>], rows: usize) {
    let want = ragged::check_lod(lod, rows);
    let offs: Vec<Offsets<'_>> = lod.iter().map(|o| Offsets::new(o)).collect();
    let got = check_lod(&offs[..], rows);
    assert_eq!(got.map_err(|e| ragged::lod_err(&e)), want, "{lod:?} {rows}");

    let dd = dense_dims(u, rows);
    let numel = reference::count(&dd).unwrap();
    let data: Vec<i32> = (0..numel as i32).collect();
    let dense = DynTensor::new(&dd, data.clone()).unwrap();
    let want_dyn = if dd.is_empty() {
        Err(LodErr::Scalar)
    } else {
        want.clone()
    };
    let got = DynLodTensor::new(dense, &offs[..]).map(|_| ());
    assert_eq!(got.map_err(|e| ragged::lod_err(&e)), want_dyn);
    if dd.len() == 2 {
        let dense = Tensor::<i32, (Dyn, Dyn), Vec<i32>>::with_dims(&dd, data.clone()).unwrap();
        let got = LodTensor::new(dense, &offs[..]).map(|_| ());
        assert_eq!(got.map_err(|e| ragged::lod_err(&e)), want);
    }
    if want_dyn.is_ok() {
        check_sequences(lod, &dd, &data);
    }
}

/// A LoD of lengths: every constructor against the reference.
fn from_lengths(u: &mut Unstructured<'_>, lens: &[Vec<usize>], rows: usize) {
    let want = ragged::lod_of_lengths(lens, rows);
    let ls: Vec<Lengths<'_>> = lens.iter().map(|l| Lengths::new(l)).collect();
    let got = check_lengths(&ls, rows);
    let verdict = want.as_ref().map(|_| ()).map_err(|e| e.clone());
    assert_eq!(
        got.map_err(|e| ragged::lod_err(&e)),
        verdict,
        "{lens:?} {rows}"
    );

    // each level on its own: into a buffer, and owned
    for (k, l) in ls.iter().enumerate() {
        let want_level = ragged::offsets_of(l.as_slice());
        let n = l.len() + 1;
        let len = match byte(u) {
            0..=199 => n + usize::from(byte(u) % 2),
            b => usize::from(b % 8),
        };
        let mut buf = vec![7usize; len];
        let got = l
            .offsets_into(k, &mut buf)
            .map(|o| o.as_slice().to_vec())
            .map_err(|e| ragged::lod_err(&e));
        let expect = if len < n {
            Err(LodErr::Buffer {
                what: "offsets",
                needed: n,
                len,
            })
        } else {
            want_level
                .clone()
                .map_err(|position| LodErr::Overflow { level: k, position })
        };
        assert_eq!(got, expect, "{l:?}");
        if expect.is_err() {
            assert!(buf.iter().all(|&v| v == 7), "written on error");
        } else {
            assert!(buf[n..].iter().all(|&v| v == 7), "written past the level");
        }
        let owned = l.to_offsets(k).map(|o| o.into_vec());
        assert_eq!(
            owned.map_err(|e| ragged::lod_err(&e)),
            want_level.map_err(|position| LodErr::Overflow { level: k, position })
        );
    }

    let dd = dense_dims(u, rows);
    let numel = reference::count(&dd).unwrap();
    let data: Vec<i32> = (0..numel as i32).collect();
    let want_dyn = if dd.is_empty() {
        Err(LodErr::Scalar)
    } else {
        want.clone()
    };
    let got = DynLodTensor::from_lengths(DynTensor::new(&dd, data.clone()).unwrap(), &ls)
        .map(|x| x.lod().as_offsets().to_vec());
    assert_eq!(got.map_err(|e| ragged::lod_err(&e)), want_dyn);
    if dd.len() != 2 {
        return;
    }
    let dense = Tensor::<i32, (Dyn, Dyn), Vec<i32>>::with_dims(&dd, data.clone()).unwrap();
    let got = LodTensor::from_lengths(dense, &ls).map(|x| x.to_owned_lod().into_offsets());
    assert_eq!(got.map_err(|e| ragged::lod_err(&e)), want);

    // no heap: offsets and levels into the caller's buffers
    let needed: usize = lens.iter().map(|l| l.len() + 1).sum();
    let olen = match byte(u) {
        0..=199 => needed + usize::from(byte(u) % 2),
        b => usize::from(b % 8),
    };
    let llen = match byte(u) {
        0..=199 => lens.len() + usize::from(byte(u) % 2),
        b => usize::from(b % 4),
    };
    let expect = match &want {
        Err(e) => Err(e.clone()),
        Ok(_) if olen < needed => Err(LodErr::Buffer {
            what: "offsets",
            needed,
            len: olen,
        }),
        Ok(_) if llen < lens.len() => Err(LodErr::Buffer {
            what: "levels",
            needed: lens.len(),
            len: llen,
        }),
        Ok(w) => Ok(w.clone()),
    };
    let mut obuf = vec![7usize; olen];
    let got = {
        // the levels' buffer is tied to the result's lifetime: it cannot be
        // read after the call, the offsets' buffer can
        let mut lbuf = vec![Offsets::new(&[]); llen];
        let dense = Tensor::<i32, (Dyn, Dyn), &[i32]>::with_dims(&dd, &data[..]).unwrap();
        LodTensor::from_lengths_in(dense, &ls, &mut obuf, &mut lbuf)
            .map(|x| x.to_owned_lod().into_offsets())
            .map_err(|e| ragged::lod_err(&e))
    };
    assert_eq!(got, expect, "{lens:?} {rows} into {olen}, {llen}");
    if expect.is_err() {
        assert!(obuf.iter().all(|&v| v == 7), "offsets written on error");
    } else {
        assert!(
            obuf[needed..].iter().all(|&v| v == 7),
            "written past the offsets"
        );
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let (mut lens, n) = nested_lengths(&mut u);
    let rows = match byte(&mut u) {
        0..=219 => n,
        220..=229 => n + 1,
        230..=239 => n.saturating_sub(1),
        _ => lod_number(&mut u),
    };
    match byte(&mut u) % 3 {
        0 => {
            let mut lod: Vec<Vec<usize>> = lens.iter().map(|l| offsets_wrapping(l)).collect();
            mutate_levels(&mut u, &mut lod);
            from_offsets(&mut u, &lod, rows);
        }
        1 => {
            mutate_levels(&mut u, &mut lens);
            from_lengths(&mut u, &lens, rows);
        }
        _ => {
            // any numbers
            let levels = usize::from(byte(&mut u) % 5);
            let lod: Vec<Vec<usize>> = (0..levels)
                .map(|_| (0..byte(&mut u) % 6).map(|_| lod_number(&mut u)).collect())
                .collect();
            from_offsets(&mut u, &lod, rows);
        }
    }
});
