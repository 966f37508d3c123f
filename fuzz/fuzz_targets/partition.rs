//! dynamic_partition through `partition_slices` (no heap: counts and one
//! output buffer from the caller), `DynTensor::dynamic_partition` (owned
//! outputs) and, for ranks the types can hold, the static
//! `dynamic_partition(..)`'s `.run()` (owned) and `.run_into(buf)` (one buffer)
//! with `Dyn` dims: 0 to 7 partitions, partitions of rank 0 to 3 (and any
//! dims), data with a matching or wrong prefix and length, partition values
//! in range, negative, equal to NUM or huge; i32 and i64.
//!
//! Invariants (differential): the verdict equals the naive reference's
//! (`shapecheck_fuzz::ragged::partition`, TensorFlow's kernel), the same
//! typed error with the same fields when rejected; on Ok output `i` has dims
//! `[count_i] + slice` and the slices whose partition is `i` in row-major
//! order, laid out one after the other in the caller's buffer (the rest of
//! the buffer untouched); a buffer shorter than the data is
//! `BufferTooSmall`; on every error the caller's buffers (outputs and
//! counts) are untouched; every form agrees.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::ops::partition::partition_slice_dims;
use shapecheck::{
    dynamic_partition, partition_slices, Dyn, DynTensor, Partitions,
    StitchIndex, Tensor,
};
use shapecheck_fuzz::ragged::{self, StitchErr};
use shapecheck_fuzz::*;

type Parts<T> = Result<Vec<(Vec<usize>, Vec<T>)>, StitchErr>;

/// A partition value: mostly in `[0, num]`, sometimes negative or huge.
fn part_value(u: &mut Unstructured<'_>, num: usize) -> i64 {
    match byte(u) {
        0..=219 => i64::from(byte(u)) % (num as i64 + 1),
        220..=229 => -1 - i64::from(byte(u) % 4),
        230..=234 => i64::from(i32::MAX),
        235..=239 => i64::MAX,
        240..=244 => i64::MIN,
        245..=249 => 1 << 32,
        _ => u.arbitrary().unwrap_or(0),
    }
}

/// The outputs laid out one after the other.
fn concat<T: Copy>(outs: &[(Vec<usize>, Vec<T>)]) -> Vec<T> {
    outs.iter().flat_map(|(_, v)| v.iter().copied()).collect()
}

fn same<T: FuzzValue>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(*y))
}

/// `dynamic_partition(..)`'s `.run()` and `.run_into(buf)` with `Partitions::<3>`
/// against the reference's outputs.
macro_rules! static_forms {
    ($td:ident, $tp:ident, $want:ident, $sentinel:ident, $u:ident) => {{
        match (dynamic_partition(&$td, &$tp, Partitions::<3>).run(), &$want) {
            (Ok(z), Ok(w)) => {
                for (t, (d, v)) in z.iter().zip(w) {
                    assert_eq!(t.dims().as_slice(), &d[..]);
                    assert!(same(t.as_slice(), v));
                }
            }
            (Err(e), Err(w)) => assert_eq!(&ragged::stitch_err(&e), w),
            (z, w) => panic!("static {:?}, reference {w:?}", z.is_ok()),
        }
        let n = $td.as_slice().len();
        let len = match byte($u) {
            0..=199 => n + usize::from(byte($u) % 3),
            b => usize::from(b % 8),
        };
        let mut buf = vec![$sentinel; len];
        let got = dynamic_partition(&$td, &$tp, Partitions::<3>).run_into(&mut buf)
            .map(|z| z.map(|t| (t.dims().as_slice().to_vec(), t.as_slice().to_vec())));
        let want_buf = match &$want {
            Ok(_) if len < n => Err(StitchErr::Buffer {
                dims: $td.dims().as_slice().to_vec(),
                needed: n,
                len,
            }),
            w => w.clone(),
        };
        match (got, want_buf) {
            (Ok(z), Ok(w)) => {
                for ((d, v), (wd, wv)) in z.iter().zip(&w) {
                    assert_eq!(d, wd);
                    assert!(same(v, wv));
                }
                let all = concat(&w);
                assert!(same(&buf[..all.len()], &all));
                assert!(buf[all.len()..].iter().all(|v| v.same($sentinel)));
            }
            (Err(e), Err(w)) => {
                assert_eq!(ragged::stitch_err(&e), w);
                assert!(
                    buf.iter().all(|v| v.same($sentinel)),
                    "buffer written on {e}"
                );
            }
            (z, w) => panic!("static into {:?}, reference {w:?}", z.is_ok()),
        }
    }};
}

fn check<T: FuzzValue, I: StitchIndex + FuzzValue + TryFrom<i64> + Into<i64> + Default>(
    u: &mut Unstructured<'_>,
) {
    let num = match byte(u) {
        0..=239 => usize::from(byte(u) % 6),
        _ => usize::from(byte(u) % 8),
    };
    let pdims = small_dims(u);
    let ddims = match byte(u) {
        0..=219 => {
            let mut d = pdims.clone();
            d.extend(small_dims(u).into_iter().take(3));
            d
        }
        220..=234 => related_dims(u, &pdims),
        _ => dims(u),
    };
    let plen = data_len(u, &pdims);
    let parts: Vec<I> = (0..plen)
        .map(|_| I::try_from(part_value(u, num)).unwrap_or_default())
        .collect();
    let wide: Vec<i64> = parts.iter().map(|&p| p.into()).collect();
    let dlen = data_len(u, &ddims);
    let data = data::<T>(u, dlen);

    let want: Parts<T> = ragged::partition(&ddims, &data, &pdims, &wide, num);

    // the rule alone: counts filled on Ok, untouched on error
    let mut counts = vec![usize::MAX; num];
    let got = partition_slice_dims(
        &ddims,
        data.len(),
        &pdims,
        I::index_slice(&parts),
        &mut counts,
    );
    match (&got, &want) {
        (Ok(s), Ok(w)) => {
            let rows: Vec<usize> = w.iter().map(|(d, _)| d[0]).collect();
            assert_eq!(counts, rows);
            if let Some((d, _)) = w.first() {
                assert_eq!(s.as_slice(), &d[1..]);
            }
        }
        (Err(e), Err(w)) => {
            assert_eq!(&ragged::stitch_err(e), w);
            assert!(
                counts.iter().all(|&c| c == usize::MAX),
                "counts written on {e}"
            );
        }
        _ => panic!("{ddims:?} {pdims:?} {wide:?} {num}: rule {got:?}, reference {want:?}"),
    }

    // the caller-buffer form
    let len = match byte(u) {
        0..=159 => data.len(),
        160..=199 => data.len() + usize::from(byte(u) % 4),
        200..=219 => data.len().saturating_sub(1),
        b => usize::from(b % 16),
    };
    let sentinel = T::value(u);
    let mut out = vec![sentinel; len];
    let mut counts = vec![usize::MAX; num];
    let got = partition_slices(&ddims, &data, &pdims, &parts, &mut counts, &mut out);
    let want_buf = match &want {
        Ok(_) if len < data.len() => Err(StitchErr::Buffer {
            dims: ddims.clone(),
            needed: data.len(),
            len,
        }),
        w => w.clone(),
    };
    match (&got, &want_buf) {
        (Ok(s), Ok(w)) => {
            let rows: Vec<usize> = w.iter().map(|(d, _)| d[0]).collect();
            assert_eq!(counts, rows);
            if let Some((d, _)) = w.first() {
                assert_eq!(s.as_slice(), &d[1..]);
            }
            let all = concat(w);
            assert!(same(&out[..all.len()], &all), "{ddims:?} {wide:?}");
            assert!(out[all.len()..].iter().all(|v| v.same(sentinel)));
        }
        (Err(e), Err(w)) => {
            assert_eq!(&ragged::stitch_err(e), w);
            assert!(!e.to_string().is_empty());
            assert!(out.iter().all(|v| v.same(sentinel)), "output written on {e}");
            assert!(counts.iter().all(|&c| c == usize::MAX), "counts written on {e}");
        }
        _ => panic!("{ddims:?} {pdims:?} {wide:?} {num} into {len}: library {got:?}, reference {want_buf:?}"),
    }

    // owned outputs, DynTensor
    let (Ok(td), Ok(tp)) = (
        DynTensor::new(&ddims, data.clone()),
        DynTensor::new(&pdims, parts.clone()),
    ) else {
        return;
    };
    match (td.dynamic_partition(&tp, num), &want) {
        (Ok(z), Ok(w)) => {
            assert_eq!(z.len(), w.len());
            for (t, (d, v)) in z.iter().zip(w) {
                assert_eq!(t.dims().as_slice(), &d[..]);
                assert!(same(t.as_slice(), v));
            }
        }
        (Err(e), Err(w)) => assert_eq!(&ragged::stitch_err(&e), w),
        (z, w) => panic!("DynTensor {:?}, reference {w:?}", z.map(|v| v.len())),
    }

    // the static forms, with Dyn dims: data of rank 1 or 2 over partitions
    // of rank 1, NUM = 3
    if num == 3 && pdims.len() == 1 {
        let tp = Tensor::<I, (Dyn,), Vec<I>>::with_dims(&pdims, parts.clone()).unwrap();
        match ddims.len() {
            1 => {
                let Ok(td) = Tensor::<T, (Dyn,), Vec<T>>::with_dims(&ddims, data.clone()) else {
                    return;
                };
                static_forms!(td, tp, want, sentinel, u);
            }
            2 => {
                let Ok(td) = Tensor::<T, (Dyn, Dyn), Vec<T>>::with_dims(&ddims, data.clone())
                else {
                    return;
                };
                static_forms!(td, tp, want, sentinel, u);
            }
            _ => {}
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    match byte(&mut u) % 4 {
        0 => check::<f32, i32>(&mut u),
        1 => check::<i32, i64>(&mut u),
        2 => check::<i64, i32>(&mut u),
        _ => check::<bool, i64>(&mut u),
    }
});
