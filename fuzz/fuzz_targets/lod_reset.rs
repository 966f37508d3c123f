//! `lod_reset` in every mode: target offsets (with and without `append`),
//! y's int32 data as offsets (y winning over a target), y with a LoD
//! (`append` and target ignored), y without a LoD of another type, nothing
//! at all; on x of any row count (huge ones with no columns) with 0 to 5
//! levels. Dynamic path: `DynLodTensor::lod_reset` and `lod_reset_levels`;
//! borrowed, no-heap path: `LodTensor::lod_reset` (on a view),
//! `lod_reset_by_data` (the level written into the caller's buffer) and
//! `lod_reset_like`.
//!
//! Invariants (differential): the verdict equals the naive reference's
//! (`shapecheck_fuzz::ragged::lod_reset`, Paddle's kernel as written in
//! op-semantics §5), the same typed error with the same source, position
//! and values when rejected; on Ok the output's levels are the reference's
//! and its dense tensor is x's, unchanged; a buffer too small for y's data is
//! the `Buffer` error; on every error the caller's buffer is untouched, and
//! on Ok the buffer past the new level is untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{Dyn, DynLodTensor, DynTensor, DynY, LodTensor, Offsets, Tensor};
use shapecheck_fuzz::ragged::{self, ResetErr, Y};
use shapecheck_fuzz::*;

/// A new level for `rows` rows: offsets of a split of the rows, mutated
/// sometimes, or any numbers.
fn new_level(u: &mut Unstructured<'_>, rows: usize) -> Vec<usize> {
    if byte(u) >= 230 {
        return (0..byte(u) % 6).map(|_| lod_number(u)).collect();
    }
    // cut the rows into at most 5 sequences
    let mut cuts: Vec<usize> = (0..byte(u) % 5)
        .map(|_| match rows {
            0 => 0,
            r => u.arbitrary::<usize>().unwrap_or(0) % r.saturating_add(1),
        })
        .collect();
    cuts.sort_unstable();
    let mut level = vec![0];
    level.extend(cuts);
    level.push(rows);
    let mut levels = vec![level];
    mutate_levels(u, &mut levels);
    levels.pop().unwrap_or_default()
}

/// A level as y's int32 data: the offsets converted (wrapping), sometimes
/// a value made negative or extreme.
fn as_i32(u: &mut Unstructured<'_>, level: &[usize]) -> Vec<i32> {
    let mut v: Vec<i32> = level.iter().map(|&x| x as i32).collect();
    if !v.is_empty() && byte(u) >= 220 {
        let i = usize::from(byte(u)) % v.len();
        v[i] = i32::value(u);
    }
    v
}

/// A dense tensor's dims for `rows` rows: `[rows, c]`, `c` 0 when the rows
/// are too many to hold data.
fn dense_dims(u: &mut Unstructured<'_>, rows: usize) -> Vec<usize> {
    let c = usize::from(byte(u) % 3);
    let c = if rows.checked_mul(c).is_some_and(|n| n <= MAX_ELEMS) {
        c
    } else {
        0
    };
    vec![rows, c]
}

/// The levels of any `Levels`, as lists.
fn levels_of<L: shapecheck::Levels>(l: &L) -> Vec<Vec<usize>> {
    (0..l.count())
        .map(|k| l.level(k).unwrap().as_slice().to_vec())
        .collect()
}

/// x: a valid nested LoD over `rows` rows (its own, or lengths built for them).
fn x_lod(u: &mut Unstructured<'_>) -> (Vec<Vec<usize>>, usize) {
    let (lens, n) = nested_lengths(u);
    let lod: Vec<Vec<usize>> = lens.iter().map(|l| offsets_wrapping(l)).collect();
    if lod.is_empty() && byte(u) >= 200 {
        // no LoD: any row count
        return (lod, lod_number(u));
    }
    if ragged::check_lod(&lod, n).is_err() {
        // a level of no sequence: no LoD
        return (Vec::new(), n);
    }
    (lod, n)
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let u = &mut u;
    let (xl, rows) = x_lod(u);
    let xd = dense_dims(u, rows);
    let xdata: Vec<f32> = (0..reference::count(&xd).unwrap())
        .map(|i| i as f32)
        .collect();
    let xoffs: Vec<Offsets<'_>> = xl.iter().map(|o| Offsets::new(o)).collect();
    let x = DynLodTensor::new(DynTensor::new(&xd, xdata.clone()).unwrap(), &xoffs[..])
        .expect("a valid x");
    let append = flag(u);
    let target = (byte(u) < 128).then(|| new_level(u, rows));

    // y: 0 none, 1 int32 data, 2 a LoD tensor, 3 a tensor without LoD
    // (int32 or float32)
    let y_kind = byte(u) % 4;
    let yrows = match byte(u) {
        0..=199 => rows,
        _ => lod_number(u),
    };
    let ydata_level = new_level(u, rows);
    let ydata = as_i32(u, &ydata_level);
    let ydata_dims = if flag(u) {
        vec![ydata.len()]
    } else {
        vec![1, ydata.len()]
    };
    let yint = DynTensor::new(&ydata_dims, ydata.clone()).unwrap();
    // y with a LoD: a nested LoD over yrows rows, or a level of yrows
    let (ylens, n) = nested_lengths(u);
    let mut yl: Vec<Vec<usize>> = if ylens.is_empty() || n != yrows {
        vec![new_level(u, yrows)]
    } else {
        ylens.iter().map(|l| offsets_wrapping(l)).collect()
    };
    let yd = dense_dims(u, yrows);
    let yf: Vec<f32> = vec![0.5; reference::count(&yd).unwrap()];
    if ragged::check_lod(&yl, yrows).is_err() {
        yl = vec![vec![0, yrows]];
    }
    let yoffs: Vec<Offsets<'_>> = yl.iter().map(|o| Offsets::new(o)).collect();
    let ylod =
        DynLodTensor::new(DynTensor::new(&yd, yf.clone()).unwrap(), &yoffs[..]).expect("a valid y");
    let none: &[Offsets<'_>] = &[];
    let yplain_i = DynLodTensor::new(yint.clone(), none).unwrap();
    let yplain_f = DynLodTensor::new(DynTensor::new(&yd, yf.clone()).unwrap(), none).unwrap();

    let (y, yref) = match y_kind {
        0 => (None, None),
        1 => (Some(DynY::data(&yint)), Some(Y::Int32(ydata.clone()))),
        2 => (Some(ylod.as_y()), Some(Y::Lod(yl.clone()))),
        _ if flag(u) => (Some(yplain_i.as_y()), Some(Y::Int32(ydata.clone()))),
        _ => (Some(yplain_f.as_y()), Some(Y::Other("float32"))),
    };
    let want = ragged::lod_reset(rows, &xl, yref.as_ref(), target.as_deref(), append);
    let t = target.as_deref().map(Offsets::new);

    // the dynamic path
    let got = x.lod_reset_levels(y, t, append);
    assert_eq!(
        got.map(|l| l.into_offsets())
            .map_err(|e| ragged::reset_err(&e)),
        want,
        "x {xl:?} rows {rows}, y {yref:?}, target {target:?}, append {append}"
    );
    match (x.clone().lod_reset(y, t, append), &want) {
        (Ok(out), Ok(w)) => {
            assert_eq!(out.dense(), x.dense());
            assert_eq!(&levels_of(out.lod()), w);
        }
        (Err(e), Err(w)) => {
            assert_eq!(&ragged::reset_err(&e), w);
            assert!(!e.to_string().is_empty());
        }
        (o, w) => panic!("lod_reset {:?}, reference {w:?}", o.map(|_| ())),
    }

    // the borrowed, no-heap path
    let dense = Tensor::<f32, (Dyn, Dyn), &[f32]>::with_dims(&xd, &xdata[..]).unwrap();
    let xs = LodTensor::new(dense, &xoffs[..]).unwrap();
    match y_kind {
        0 => {
            if let Some(t) = t {
                let got = xs
                    .view()
                    .lod_reset(t, append)
                    .map(|o| {
                        assert_eq!(o.as_slice().as_ptr(), xdata.as_ptr());
                        levels_of(o.lod())
                    })
                    .map_err(|e| ragged::reset_err(&e));
                assert_eq!(got, want);
            }
        }
        1 | 3 => {
            let yt = Tensor::<i32, (Dyn,), &[i32]>::with_dims(&[ydata.len()], &ydata[..]).unwrap();
            let want = ragged::lod_reset(
                rows,
                &xl,
                Some(&Y::Int32(ydata.clone())),
                target.as_deref(),
                append,
            );
            let n = ydata.len();
            let len = match byte(u) {
                0..=199 => n + usize::from(byte(u) % 3),
                b => usize::from(b % 8),
            };
            let want = match want {
                Ok(_) if len < n => Err(ResetErr::Buffer { needed: n, len }),
                w => w,
            };
            let mut buf = vec![usize::MAX; len];
            let got = xs
                .view()
                .lod_reset_by_data(&yt, append, &mut buf)
                .map(|o| levels_of(o.lod()))
                .map_err(|e| ragged::reset_err(&e));
            assert_eq!(got, want, "y data {ydata:?} into {len}");
            let from = if want.is_ok() { n } else { 0 };
            assert!(
                buf[from..].iter().all(|&v| v == usize::MAX),
                "buffer written on error or past the level"
            );
            // a y without LoD has nothing for lod_reset_like
            let dense = Tensor::<f32, (Dyn, Dyn), &[f32]>::with_dims(&yd, &yf[..]).unwrap();
            let yn = LodTensor::new(dense, none).unwrap();
            let e = xs.view().lod_reset_like(&yn).map(|_| ()).unwrap_err();
            assert_eq!(e, shapecheck::LodResetError::YWithoutLod);
        }
        _ => {
            let dense = Tensor::<f32, (Dyn, Dyn), &[f32]>::with_dims(&yd, &yf[..]).unwrap();
            let ys = LodTensor::new(dense, &yoffs[..]).unwrap();
            let got = xs
                .view()
                .lod_reset_like(&ys)
                .map(|o| levels_of(o.lod()))
                .map_err(|e| ragged::reset_err(&e));
            assert_eq!(got, want);
        }
    }
});
