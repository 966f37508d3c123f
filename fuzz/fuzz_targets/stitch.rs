//! dynamic_stitch through `stitch_slices` (no heap, caller's buffer; i32 and
//! i64 index pairs mixed in one call) and `DynTensor::dynamic_stitch`, on 0
//! to 5 pairs of mixed ranks (scalar indices included), duplicate indices,
//! empty index lists, wrong lengths, mismatched prefixes and slices, and
//! huge or negative index values.
//!
//! Invariants (differential): the verdict equals the naive reference's
//! (`shapecheck_fuzz::ragged::stitch_dims`, TensorFlow's kernel), the same
//! typed error with the same fields when rejected (huge indices: the
//! reference's `TooManyRows` or rank verdict, computed in `u128`); on Ok the
//! dims are `[max + 1] + slice` and the values are the reference's (zeros
//! where no index points, the later of equal indices wins); a buffer too
//! small is `BufferTooSmall` with the reference's count; on every error the
//! buffer is untouched, and on Ok the buffer past the output is untouched;
//! the `DynTensor` form agrees. Outputs above `MAX_ELEMS` elements are not
//! computed, only their verdicts compared.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{stitch_slices, DynTensor, StitchIndex, StitchPair};
use shapecheck_fuzz::ragged::{self, Pair, StitchErr};
use shapecheck_fuzz::*;

/// One pair's index values as given to the library.
enum Idx {
    I32(Vec<i32>),
    I64(Vec<i64>),
}

/// An index value: mostly within the rows a small output has, sometimes
/// negative or huge.
fn index_value(u: &mut Unstructured<'_>) -> i64 {
    match byte(u) {
        0..=199 => i64::from(byte(u) % 12),
        200..=209 => -1 - i64::from(byte(u)),
        210..=214 => i64::from(i32::MAX),
        215..=219 => i64::MAX,
        220..=224 => i64::MAX - 1,
        225..=229 => 1 << 40,
        230..=234 => i64::MIN,
        235..=239 => 1 << 32,
        240..=244 => (1 << 16) + i64::from(byte(u)),
        _ => u.arbitrary().unwrap_or(0),
    }
}

fn check<T: FuzzValue + Default>(u: &mut Unstructured<'_>) {
    let slice = small_dims(u);
    let npairs = usize::from(byte(u) % 6);
    // 0: all i32, 1: all i64, 2: mixed
    let kinds = byte(u) % 3;
    let mut pairs: Vec<Pair<T>> = Vec::new();
    let mut idx: Vec<Idx> = Vec::new();
    for _ in 0..npairs {
        let idims = small_dims(u);
        let ddims = match byte(u) {
            0..=219 => {
                let mut d = idims.clone();
                d.extend_from_slice(&slice);
                d
            }
            220..=234 => {
                let mut d = idims.clone();
                d.extend(related_dims(u, &slice));
                d
            }
            _ => dims(u),
        };
        let ilen = data_len(u, &idims);
        let values: Vec<i64> = (0..ilen).map(|_| index_value(u)).collect();
        let wide = match kinds {
            0 => false,
            1 => true,
            _ => flag(u),
        };
        let (typed, indices) = if wide {
            (Idx::I64(values.clone()), values)
        } else {
            let v: Vec<i32> = values.iter().map(|&x| x as i32).collect();
            let w = v.iter().map(|&x| i64::from(x)).collect();
            (Idx::I32(v), w)
        };
        let dlen = data_len(u, &ddims);
        pairs.push(Pair {
            indices_dims: idims,
            indices,
            data_dims: ddims,
            data: data::<T>(u, dlen),
        });
        idx.push(typed);
    }

    // the library's pairs: a rank above 8 is refused by the constructor
    let mut lib_pairs = Vec::new();
    for (p, i) in pairs.iter().zip(&idx) {
        let made = match i {
            Idx::I32(v) => StitchPair::new(&p.indices_dims, v, &p.data_dims, &p.data),
            Idx::I64(v) => StitchPair::new(&p.indices_dims, v, &p.data_dims, &p.data),
        };
        match made {
            Ok(pair) => lib_pairs.push(pair),
            Err(e) => {
                // Dims::new of the indices' dims, then of the data's
                let rank = if p.indices_dims.len() > shapecheck::MAX_RANK {
                    p.indices_dims.len()
                } else {
                    p.data_dims.len()
                };
                assert_eq!(
                    ragged::stitch_err(&e),
                    StitchErr::Shape(ragged::Shape::Rank(rank))
                );
                assert!(rank > shapecheck::MAX_RANK, "{:?}: {e}", p.data_dims);
                return;
            }
        }
    }

    let want = ragged::stitch_dims(&pairs);
    let n = want.as_ref().ok().map(|d| reference::count(d).unwrap());
    let small = n.filter(|&n| n <= MAX_ELEMS);
    let len = match (byte(u), n) {
        (0..=159, Some(n)) if n <= MAX_ELEMS => n,
        (160..=199, Some(n)) if n <= MAX_ELEMS => n + usize::from(byte(u) % 4),
        (200..=219, Some(n)) if n <= MAX_ELEMS => n.saturating_sub(1),
        (b, _) => usize::from(b % 16),
    };
    let sentinel = T::value(u);
    let mut out = vec![sentinel; len];
    let got = stitch_slices(&lib_pairs, &mut out);
    // the reference's verdict for this buffer
    let want_buf = match (&want, n) {
        (Ok(d), Some(n)) if len < n => Err(StitchErr::Buffer {
            dims: d.clone(),
            needed: n,
            len,
        }),
        (w, _) => w.clone(),
    };
    match (&got, &want_buf) {
        (Ok(d), Ok(w)) => {
            assert_eq!(d.as_slice(), &w[..]);
            let n = n.unwrap();
            let values = ragged::stitch_values(&pairs, w);
            assert!(
                out[..n].iter().zip(&values).all(|(a, b)| a.same(*b)),
                "{pairs:?}: {:?} != {values:?}",
                &out[..n]
            );
            assert!(
                out[n..].iter().all(|v| v.same(sentinel)),
                "written past the output"
            );
        }
        (Err(e), Err(w)) => {
            assert_eq!(&ragged::stitch_err(e), w, "{pairs:?}");
            assert!(!e.to_string().is_empty());
            assert!(out.iter().all(|v| v.same(sentinel)), "written on error {e}");
        }
        _ => panic!("{pairs:?} into {len}: library {got:?}, reference {want_buf:?}"),
    }

    // the DynTensor form, for pairs of one index type whose data fit their dims
    if want.is_ok() && small.is_none() {
        return; // too big to allocate here
    }
    let tensors: Option<Vec<_>> = pairs
        .iter()
        .map(|p| DynTensor::new(&p.data_dims, p.data.clone()).ok())
        .collect();
    let Some(tensors) = tensors else { return };
    if idx.iter().all(|i| matches!(i, Idx::I32(_))) {
        let ind: Option<Vec<_>> = idx
            .iter()
            .zip(&pairs)
            .map(|(i, p)| match i {
                Idx::I32(v) => DynTensor::new(&p.indices_dims, v.clone()).ok(),
                Idx::I64(_) => None,
            })
            .collect();
        if let Some(ind) = ind {
            dyn_check(&ind, &tensors, &pairs, &want);
        }
    } else if idx.iter().all(|i| matches!(i, Idx::I64(_))) {
        let ind: Option<Vec<_>> = idx
            .iter()
            .zip(&pairs)
            .map(|(i, p)| match i {
                Idx::I64(v) => DynTensor::new(&p.indices_dims, v.clone()).ok(),
                Idx::I32(_) => None,
            })
            .collect();
        if let Some(ind) = ind {
            dyn_check(&ind, &tensors, &pairs, &want);
        }
    }
}

fn dyn_check<I: StitchIndex + Copy, T: FuzzValue + Default>(
    ind: &[DynTensor<I>],
    data: &[DynTensor<T>],
    pairs: &[Pair<T>],
    want: &Result<Vec<usize>, StitchErr>,
) {
    let refs: Vec<(&DynTensor<I>, &DynTensor<T>)> = ind.iter().zip(data).collect();
    match (DynTensor::dynamic_stitch(&refs), want) {
        (Ok(z), Ok(w)) => {
            assert_eq!(z.dims().as_slice(), &w[..]);
            let values = ragged::stitch_values(pairs, w);
            assert_eq!(z.as_slice().len(), values.len());
            assert!(z.as_slice().iter().zip(&values).all(|(a, b)| a.same(*b)));
        }
        (Err(e), Err(w)) => assert_eq!(&ragged::stitch_err(&e), w),
        (z, w) => panic!("DynTensor {:?}, reference {w:?}", z.map(|t| t.dims())),
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    match byte(&mut u) % 3 {
        0 => check::<i32>(&mut u),
        1 => check::<f32>(&mut u),
        _ => check::<i64>(&mut u),
    }
});
