//! dynamic_stitch and dynamic_partition against naive references written
//! here (random shapes of ranks 0 to 8, random pairs, negative and
//! out-of-range values, broken prefixes and slices), the round trip
//! `stitch(partition(0..n), partition(x)) == x`, and the caller-buffer forms
//! leaving the buffer untouched on every error.

use proptest::prelude::*;
use shapecheck::ops::partition::partition_slices;
use shapecheck::ops::stitch::{stitch_slices, StitchPair};
use shapecheck::prelude::*;
use shapecheck::{dynamic_partition, dynamic_stitch, Partitions};
use shapecheck::{ShapeError, StitchError};

/// The outputs of a partition: (dims, data) each.
type Outputs = Vec<(Vec<usize>, Vec<i64>)>;

fn numel(d: &[usize]) -> usize {
    d.iter().product()
}

/// One pair as plain data.
#[derive(Clone, Debug)]
struct Pair {
    idims: Vec<usize>,
    idx: Vec<i32>,
    ddims: Vec<usize>,
    data: Vec<i64>,
}

/// What the reference says: the output, or which rule fails first (in
/// TensorFlow's order: index values, then per pair prefix and slice).
#[derive(Debug, PartialEq)]
enum Want {
    Out(Vec<usize>, Vec<i64>),
    Negative(usize, usize),
    Prefix(usize),
    Slice(usize),
    Rank,
}

fn reference_stitch(pairs: &[Pair]) -> Want {
    for (m, p) in pairs.iter().enumerate() {
        if let Some(j) = p.idx.iter().position(|&v| v < 0) {
            return Want::Negative(m, j);
        }
    }
    let slice0 = &pairs[0].ddims[pairs[0].idims.len().min(pairs[0].ddims.len())..];
    for (m, p) in pairs.iter().enumerate() {
        if !p.ddims.starts_with(&p.idims) {
            return Want::Prefix(m);
        }
        if &p.ddims[p.idims.len()..] != slice0 {
            return Want::Slice(m);
        }
    }
    if slice0.len() + 1 > 8 {
        return Want::Rank;
    }
    let rows = pairs
        .iter()
        .flat_map(|p| p.idx.iter())
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0);
    let s = numel(slice0);
    let mut out = vec![0i64; rows * s];
    for p in pairs {
        for (j, &v) in p.idx.iter().enumerate() {
            let v = v as usize;
            out[v * s..(v + 1) * s].copy_from_slice(&p.data[j * s..(j + 1) * s]);
        }
    }
    let mut dims = vec![rows];
    dims.extend_from_slice(slice0);
    Want::Out(dims, out)
}

fn got_stitch(r: Result<DynTensor<i64>, StitchError>) -> Want {
    match r {
        Ok(t) => Want::Out(t.dims().to_vec(), t.into_vec()),
        Err(StitchError::NegativeIndex { m, j, .. }) => Want::Negative(m, j),
        Err(StitchError::PrefixMismatch { m, .. }) => Want::Prefix(m),
        Err(StitchError::SliceMismatch { m, .. }) => Want::Slice(m),
        Err(StitchError::Shape(ShapeError::RankTooLarge { .. })) => Want::Rank,
        Err(e) => panic!("unexpected error {e}"),
    }
}

fn dims(max_rank: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![1 => Just(0usize), 6 => 1usize..=2, 1 => Just(3usize)],
        0..=max_rank,
    )
}

/// Random pairs: a common slice (rank 0 to 8), 1 to 4 pairs of indices of
/// ranks such that data's rank is at most 8, values -1..9 (rarely -1), and
/// now and then a data dim changed (a broken prefix or slice).
fn pairs() -> impl Strategy<Value = Vec<Pair>> {
    dims(8).prop_flat_map(|slice| {
        let max_r = 8 - slice.len();
        let pair =
            (dims(max_r), any::<u64>(), 0u8..12).prop_flat_map(move |(idims, seed, breaker)| {
                let n = numel(&idims);
                let slice = slice.clone();
                prop::collection::vec(prop_oneof![12 => 0i32..9, 1 => Just(-1)], n).prop_map(
                    move |idx| {
                        let mut ddims = idims.clone();
                        ddims.extend_from_slice(&slice);
                        if breaker == 0 && !ddims.is_empty() {
                            let k = (seed as usize) % ddims.len();
                            ddims[k] = (ddims[k] + 1) % 4;
                        }
                        let data = (0..numel(&ddims) as i64)
                            .map(|v| v + seed as i64 % 1000 * 1000)
                            .collect();
                        Pair {
                            idims: idims.clone(),
                            idx,
                            ddims,
                            data,
                        }
                    },
                )
            });
        prop::collection::vec(pair, 1..=4)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn stitch_matches_the_reference(pairs in pairs()) {
        let want = reference_stitch(&pairs);
        let idx: Vec<DynTensor<i32>> = pairs.iter().map(|p| DynTensor::new(&p.idims, p.idx.clone()).unwrap()).collect();
        let dat: Vec<DynTensor<i64>> = pairs.iter().map(|p| DynTensor::new(&p.ddims, p.data.clone()).unwrap()).collect();
        let refs: Vec<_> = idx.iter().zip(&dat).collect();
        prop_assert_eq!(got_stitch(DynTensor::dynamic_stitch(&refs)), reference_stitch(&pairs));

        // into a kept DynTensor: the same result, in its own buffer when
        // that is large enough (a stale one of 400 elements, every one -5),
        // and unchanged on an error
        let mut kept = DynTensor::new(&[400], vec![-5i64; 400]).unwrap();
        let at = kept.as_slice().as_ptr();
        match DynTensor::dynamic_stitch_into(&refs, &mut kept) {
            Ok(()) => {
                if kept.as_slice().len() <= 400 {
                    prop_assert_eq!(kept.as_slice().as_ptr(), at);
                }
                prop_assert_eq!(got_stitch(Ok(kept)), want);
            }
            Err(e) => {
                prop_assert_eq!(got_stitch(Err(e)), want);
                prop_assert_eq!(kept.dims().to_vec(), vec![400]);
                prop_assert!(kept.as_slice().iter().all(|&v| v == -5));
            }
        }

        // the no-heap form agrees, and leaves the buffer alone on an error
        let views: Vec<StitchPair<'_, i64>> = pairs.iter()
            .map(|p| StitchPair::new(&p.idims, &p.idx, &p.ddims, &p.data).unwrap()).collect();
        let mut buf = vec![-7i64; 300];
        match (stitch_slices(&views, &mut buf), reference_stitch(&pairs)) {
            (Ok(d), Want::Out(wd, wdata)) => {
                prop_assert_eq!(d.to_vec(), wd);
                prop_assert_eq!(&buf[..wdata.len()], &wdata[..]);
                prop_assert!(buf[wdata.len()..].iter().all(|&v| v == -7));
            }
            (Err(StitchError::BufferTooSmall { needed, .. }), Want::Out(_, wdata)) => {
                prop_assert_eq!(needed, wdata.len());
                prop_assert!(wdata.len() > 300);
                prop_assert!(buf.iter().all(|&v| v == -7));
            }
            (Err(_), Want::Out(..)) => prop_assert!(false, "rejected a valid stitch"),
            (Ok(_), _) => prop_assert!(false, "accepted an invalid stitch"),
            (Err(_), _) => prop_assert!(buf.iter().all(|&v| v == -7)),
        }
    }

    #[test]
    fn partition_matches_the_reference(
        (pdims, slice) in (dims(8)).prop_flat_map(|p| { let r = 8 - p.len(); (Just(p), dims(r)) }),
        num in 1usize..=4,
        seed in any::<u64>(),
        bad in 0u8..8,
    ) {
        let n = numel(&pdims);
        let s = numel(&slice);
        let mut state = seed;
        let mut next = || { state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (state >> 33) as usize };
        let mut parts: Vec<i32> = (0..n).map(|_| (next() % num) as i32).collect();
        if bad == 0 && n > 0 {
            let k = next() % n;
            parts[k] = if next() % 2 == 0 { -1 } else { num as i32 };
        }
        let mut ddims = pdims.clone();
        ddims.extend_from_slice(&slice);
        let data: Vec<i64> = (0..(n * s) as i64).collect();

        // the reference
        let want: Result<Outputs, usize> = match parts.iter().position(|&p| p < 0 || p as usize >= num) {
            Some(pos) => Err(pos),
            None => Ok((0..num).map(|i| {
                let mut out = vec![];
                for (j, &p) in parts.iter().enumerate() {
                    if p as usize == i { out.extend_from_slice(&data[j * s..(j + 1) * s]); }
                }
                let mut d = vec![out.len().checked_div(s).unwrap_or_else(|| parts.iter().filter(|&&p| p as usize == i).count())];
                d.extend_from_slice(&slice);
                (d, out)
            }).collect()),
        };

        let dt = DynTensor::new(&ddims, data.clone()).unwrap();
        let pt = DynTensor::new(&pdims, parts.clone()).unwrap();
        let got = dt.dynamic_partition(&pt, num);
        let mut counts = vec![0; num];
        let mut buf = vec![-7i64; n * s + 3];
        let got_slices = partition_slices(&ddims, &data, &pdims, &parts, &mut counts, &mut buf);
        if slice.len() == 8 {
            // scalar partitions and rank-8 data: the outputs would have rank 9
            let e = StitchError::Shape(ShapeError::RankTooLarge { rank: 9 });
            prop_assert_eq!(got.unwrap_err(), e);
            prop_assert_eq!(got_slices.unwrap_err(), e);
            prop_assert!(buf.iter().all(|&v| v == -7));
            return Ok(());
        }
        match want {
            Ok(w) => {
                let g: Outputs = got.unwrap().into_iter().map(|t| (t.dims().to_vec(), t.into_vec())).collect();
                prop_assert_eq!(&g, &w);
                prop_assert_eq!(got_slices.unwrap().to_vec(), slice.clone());
                let flat: Vec<i64> = w.iter().flat_map(|(_, d)| d.iter().copied()).collect();
                prop_assert_eq!(&buf[..flat.len()], &flat[..]);
                prop_assert_eq!(counts, w.iter().map(|(d, _)| d[0]).collect::<Vec<_>>());
            }
            Err(pos) => {
                let e = StitchError::PartitionOutOfRange { position: pos, value: i64::from(parts[pos]), num };
                prop_assert_eq!(got.unwrap_err(), e);
                prop_assert_eq!(got_slices.unwrap_err(), e);
                prop_assert!(buf.iter().all(|&v| v == -7));
            }
        }
    }

    /// TensorFlow's own use: stitch(partition(0..n), partition(x)) == x.
    #[test]
    fn round_trip(
        (pdims, slice) in (dims(8)).prop_flat_map(|p| { let r = 7 - p.len().min(7); (Just(p), dims(r)) }),
        num in 1usize..=5,
        seed in any::<u64>(),
    ) {
        let n = numel(&pdims);
        let parts: Vec<i32> = (0..n).map(|j| ((seed >> (j % 60)) as usize % num) as i32).collect();
        let mut ddims = pdims.clone();
        ddims.extend_from_slice(&slice);
        let x = DynTensor::new(&ddims, (0..numel(&ddims) as i64).map(|v| v * 3 - 5).collect()).unwrap();
        let p = DynTensor::new(&pdims, parts).unwrap();
        let ids = DynTensor::new(&pdims, (0..n as i32).collect()).unwrap();
        let xs = x.dynamic_partition(&p, num).unwrap();
        let is = ids.dynamic_partition(&p, num).unwrap();
        let pairs: Vec<_> = is.iter().zip(&xs).collect();
        let y = DynTensor::dynamic_stitch(&pairs).unwrap();
        let mut want_dims = vec![n];
        want_dims.extend_from_slice(&slice);
        prop_assert_eq!(y.dims().to_vec(), want_dims);
        prop_assert_eq!(y.as_slice(), x.as_slice());
    }

    /// The round trip on the static path: `[6, 2]` data, `Dyn` rows.
    #[test]
    fn static_round_trip(x in prop::array::uniform12(-100i32..100), parts in prop::array::uniform6(0i32..3)) {
        let xt = Tensor::<i32, shape![6, 2]>::from_slice(&x).unwrap();
        let pt = Tensor::<i32, shape![6]>::from_array(parts);
        let ids = Tensor::<i32, shape![6]>::from_fn(|i| i[0] as i32);
        let [x0, x1, x2] = dynamic_partition(&xt, &pt, Partitions::<3>).run().unwrap();
        let [i0, i1, i2] = dynamic_partition(&ids, &pt, Partitions::<3>).run().unwrap();
        let y: Tensor<i32, (Dyn, Dim<2>), Vec<i32>> = dynamic_stitch(&i0, &x0).pair(&i1, &x1).pair(&i2, &x2).run().unwrap();
        prop_assert_eq!(y.as_slice(), xt.as_slice());
        prop_assert_eq!(y.dims().to_vec(), vec![6, 2]);

        // the same without a heap
        let mut pbuf = [0i32; 12];
        let mut ibuf = [0i32; 6];
        let [x0, x1, x2] = dynamic_partition(&xt, &pt, Partitions::<3>).run_into(&mut pbuf).unwrap();
        let [i0, i1, i2] = dynamic_partition(&ids, &pt, Partitions::<3>).run_into(&mut ibuf).unwrap();
        let mut out = [0i32; 12];
        let z = dynamic_stitch(&i0, &x0).pair(&i1, &x1).pair(&i2, &x2).run_into(&mut out).unwrap();
        prop_assert_eq!(z.as_slice(), xt.as_slice());
    }
}

/// The static caller-buffer forms leave the buffer untouched on every error.
#[test]
fn static_into_errors_leave_the_buffer() {
    let i0 = Tensor::<i32, shape![2]>::from_array([0, 3]);
    let d0 = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
    let neg = Tensor::<i64, shape![]>::from_array(-2);
    let d1 = Tensor::<f32, shape![2]>::from_array([5., 6.]);
    let mut buf = [9.0f32; 8];
    assert_eq!(
        dynamic_stitch(&i0, &d0)
            .pair(&neg, &d1)
            .run_into(&mut buf)
            .unwrap_err(),
        StitchError::NegativeIndex {
            m: 1,
            j: 0,
            value: -2
        }
    );
    assert_eq!(buf, [9.0; 8]);
    let mut small = [9.0f32; 7];
    assert!(matches!(
        dynamic_stitch(&i0, &d0).run_into(&mut small),
        Err(StitchError::BufferTooSmall {
            needed: 8,
            len: 7,
            ..
        })
    ));
    assert_eq!(small, [9.0; 7]);
    assert_eq!(
        dynamic_stitch(&i0, &d0)
            .run_into(&mut buf)
            .unwrap()
            .as_slice(),
        &[1., 2., 0., 0., 0., 0., 3., 4.]
    );

    let p = Tensor::<i32, shape![2]>::from_array([1, 2]);
    let mut pbuf = [9.0f32; 4];
    assert_eq!(
        dynamic_partition(&d0, &p, Partitions::<2>)
            .run_into(&mut pbuf)
            .unwrap_err(),
        StitchError::PartitionOutOfRange {
            position: 1,
            value: 2,
            num: 2
        }
    );
    assert_eq!(pbuf, [9.0; 4]);
    let mut psmall = [9.0f32; 3];
    let ok = Tensor::<i32, shape![2]>::from_array([1, 0]);
    assert!(matches!(
        dynamic_partition(&d0, &ok, Partitions::<2>).run_into(&mut psmall),
        Err(StitchError::BufferTooSmall {
            needed: 4,
            len: 3,
            ..
        })
    ));
    assert_eq!(psmall, [9.0; 3]);
}

/// Huge indices: an error, never a huge allocation attempt.
#[test]
fn huge_indices() {
    let big = Tensor::<i64, shape![1]>::from_array([i64::MAX]);
    let d = Tensor::<f32, shape![1, 2]>::full(1.0);
    let err = dynamic_stitch(&big, &d).output_dims().unwrap_err();
    assert!(
        matches!(
            err,
            StitchError::TooManyRows {
                m: 0,
                j: 0,
                value: i64::MAX,
                ..
            }
        ),
        "{err}"
    );
    assert!(dynamic_stitch(&big, &d).run().is_err());
    assert_eq!(
        err.to_string(),
        format!("dynamic_stitch: indices[0][0] = {0} asks for {0} + 1 rows of slice [2]: the output's element count overflows usize", i64::MAX)
    );
    // where TensorFlow's int32 row count overflows: 2^31 rows of 2
    let tf = Tensor::<i32, shape![1]>::from_array([i32::MAX]);
    let dims = dynamic_stitch(&tf, &d).output_dims().unwrap();
    assert_eq!(dims.as_slice(), &[1usize << 31, 2]);
    let mut buf = [0.0f32; 4];
    assert!(matches!(
        dynamic_stitch(&tf, &d).run_into(&mut buf),
        Err(StitchError::BufferTooSmall { .. })
    ));
    // rows * slice overflowing usize: 2^62 + 1 rows of 4
    let far = Tensor::<i64, shape![]>::from_array(1 << 62);
    let d4 = Tensor::<f32, shape![4]>::full(1.0);
    assert!(matches!(
        dynamic_stitch(&far, &d4).output_dims(),
        Err(StitchError::TooManyRows { value, .. }) if value == 1 << 62
    ));
    // no element at all: huge dims are fine
    let wide = DynTensor::new(&[1, 1 << 40, 0], Vec::<f32>::new()).unwrap();
    let i = DynTensor::new(&[1], vec![3i32]).unwrap();
    let out = DynTensor::dynamic_stitch(&[(&i, &wide)]).unwrap();
    assert_eq!(out.dims().as_slice(), &[4, 1 << 40, 0]);
    // every indices tensor empty: [0] + slice
    let none = DynTensor::new(&[0], Vec::<i32>::new()).unwrap();
    let empty = DynTensor::new(&[0, 1 << 40, 1 << 30], Vec::<f32>::new()).unwrap();
    let out = DynTensor::dynamic_stitch(&[(&none, &empty), (&none, &empty)]).unwrap();
    assert_eq!(out.dims().as_slice(), &[0, 1 << 40, 1 << 30]);
}

#[test]
fn error_messages() {
    let i0 = DynTensor::new(&[2], vec![0i32, 1]).unwrap();
    let d0 = DynTensor::new(&[2, 3], vec![0.0f32; 6]).unwrap();
    let i1 = DynTensor::new(&[1], vec![2i32]).unwrap();
    let d1 = DynTensor::new(&[1, 4], vec![0.0f32; 4]).unwrap();
    assert_eq!(
        DynTensor::dynamic_stitch(&[(&i0, &d0), (&i1, &d1)]).unwrap_err().to_string(),
        "dynamic_stitch: every pair needs the same slice shape, but data[0].shape = [2, 3] after \
         indices[0].shape = [2] leaves [3], and data[1].shape = [1, 4] after indices[1].shape = [1] leaves [4]"
    );
    let neg = DynTensor::new(&[2], vec![0i32, -1]).unwrap();
    assert_eq!(
        DynTensor::dynamic_stitch(&[(&i0, &d0), (&neg, &d0)])
            .unwrap_err()
            .to_string(),
        "dynamic_stitch: indices[1][1] = -1 is out of range: an index must not be negative"
    );
    assert_eq!(
        DynTensor::<f32>::dynamic_stitch::<i32>(&[]).unwrap_err(),
        StitchError::NoPairs
    );
    let p = DynTensor::new(&[3], vec![0i32, 1, 0]).unwrap();
    assert_eq!(
        d0.dynamic_partition(&p, 2).unwrap_err().to_string(),
        "dynamic_partition: data.shape must start with partitions.shape, got data.shape = [2, 3], partitions.shape = [3]"
    );
}

// Found by fuzzing (`fuzz/fuzz_targets/stitch.rs`, `partition.rs`): each
// test below failed before its fix.

/// An index of `i64::MAX` asks for 2^63 rows, which a 64-bit `usize`
/// counts: the rule used to add 1 in `i64` and report `TooManyRows` even
/// when the output holds nothing (an empty slice) or only needs a bigger
/// buffer. Only an element count that overflows is `TooManyRows`.
#[cfg(target_pointer_width = "64")]
#[test]
fn stitch_index_i64_max_counts_its_rows_in_usize() {
    let rows = 1usize << 63;
    let empty: [i32; 0] = [];
    // slice [0]: the output [2^63, 0] holds no element
    let pair = StitchPair::new(&[], &[i64::MAX], &[0], &empty).unwrap();
    assert_eq!(
        stitch_slices(&[pair], &mut []).unwrap().as_slice(),
        &[rows, 0]
    );
    let i = DynTensor::new(&[], vec![i64::MAX]).unwrap();
    let d = DynTensor::new(&[0], Vec::<i32>::new()).unwrap();
    let z = DynTensor::dynamic_stitch(&[(&i, &d)]).unwrap();
    assert_eq!(
        (z.dims().as_slice(), z.as_slice()),
        (&[rows, 0][..], &empty[..])
    );
    // slice []: 2^63 elements, too many for the buffer, not for usize
    let pair = StitchPair::new(&[], &[i64::MAX], &[], &[5]).unwrap();
    let mut out = [-1; 4];
    assert_eq!(
        stitch_slices(&[pair], &mut out).unwrap_err(),
        StitchError::BufferTooSmall {
            dims: shapecheck::Dims::new(&[rows]).unwrap(),
            needed: rows,
            len: 4
        }
    );
    assert_eq!(out, [-1; 4]);
    // slice [2]: 2^64 elements overflow usize
    let pair = StitchPair::new(&[], &[i64::MAX], &[2], &[5, 6]).unwrap();
    assert!(matches!(
        stitch_slices(&[pair], &mut out),
        Err(StitchError::TooManyRows {
            m: 0,
            j: 0,
            value: i64::MAX,
            ..
        })
    ));
}

/// `partition_slices` and `partition_slice_dims` used to fill `counts`
/// before finding an out-of-range value or a too-short buffer: a half-written
/// caller buffer on error.
#[test]
fn partition_leaves_counts_untouched_on_error() {
    let data = [1, 2, 3, 4, 5, 6];
    let mut counts = [9usize; 2];
    let mut out = [0; 6];
    let err = partition_slices(&[3, 2], &data, &[3], &[0i32, 1, 2], &mut counts, &mut out);
    assert_eq!(
        err,
        Err(StitchError::PartitionOutOfRange {
            position: 2,
            value: 2,
            num: 2
        })
    );
    assert_eq!((counts, out), ([9; 2], [0; 6]));
    let mut short = [0; 5];
    let err = partition_slices(&[3, 2], &data, &[3], &[0i32, 1, 1], &mut counts, &mut short);
    assert!(matches!(
        err,
        Err(StitchError::BufferTooSmall {
            needed: 6,
            len: 5,
            ..
        })
    ));
    assert_eq!((counts, short), ([9; 2], [0; 5]));
    let values = shapecheck::IndexSlice::I64(&[1, 0, -1]);
    let err =
        shapecheck::ops::partition::partition_slice_dims(&[3, 2], 6, &[3], values, &mut counts);
    assert!(matches!(
        err,
        Err(StitchError::PartitionOutOfRange {
            position: 2,
            value: -1,
            ..
        })
    ));
    assert_eq!(counts, [9; 2]);
    // and on success, counts and the outputs are written
    let ok = partition_slices(&[3, 2], &data, &[3], &[1i32, 0, 1], &mut counts, &mut out);
    assert_eq!(ok.unwrap().as_slice(), &[2]);
    assert_eq!((counts, out), ([1, 2], [3, 4, 1, 2, 5, 6]));
}

/// Empty data whose slice alone overflows `usize` (`[0, 2^63, 2^63]` over
/// partitions `[0]`): every output is `[0, 2^63, 2^63]`, empty. The forms
/// used to reject it with `NumelOverflow` on the slice, though the rule
/// accepts it and the outputs are valid, empty tensors.
#[cfg(target_pointer_width = "64")]
#[test]
fn partition_of_empty_data_with_an_overflowing_slice() {
    let big = 1usize << 63;
    let dims = [0, big, big];
    let empty: [i32; 0] = [];
    let parts: [i64; 0] = [];
    let mut counts = [9usize; 2];
    let slice = partition_slices(&dims, &empty, &[0], &parts, &mut counts, &mut []).unwrap();
    assert_eq!((slice.as_slice(), counts), (&[big, big][..], [0, 0]));
    let x = DynTensor::new(&dims, Vec::<i32>::new()).unwrap();
    let p = DynTensor::new(&[0], Vec::<i64>::new()).unwrap();
    let outs = x.dynamic_partition(&p, 2).unwrap();
    assert_eq!(outs.len(), 2);
    for o in &outs {
        assert_eq!((o.dims().as_slice(), o.as_slice()), (&dims[..], &empty[..]));
    }
    let xs = Tensor::<i32, (Dyn, Dyn, Dyn), Vec<i32>>::with_dims(&dims, vec![]).unwrap();
    let ps = Tensor::<i64, (Dyn,), Vec<i64>>::with_dims(&[0], vec![]).unwrap();
    let [a, b] = dynamic_partition(&xs, &ps, Partitions::<2>).run().unwrap();
    assert_eq!(
        (a.dims().as_slice(), b.dims().as_slice()),
        (&dims[..], &dims[..])
    );
    let [a, _] = dynamic_partition(&xs, &ps, Partitions::<2>)
        .run_into(&mut [])
        .unwrap();
    assert_eq!(a.dims().as_slice(), &dims[..]);
}

/// The static builder over static shapes (which checks only the index
/// values: its types proved the prefix and slice rules) against the
/// dynamic path's rule and kernel (`stitch_slices`) on the same pairs:
/// the same output, the same dims, or the same error with the buffer
/// untouched; `run()` the same. Index values negative, repeated, past the
/// buffer, and (i64) far past `usize`.
fn static_builder_case(
    i0: i64,
    i1: [i32; 2],
    i2: [i64; 4],
    buf_len: usize,
) -> Result<(), TestCaseError> {
    let t0 = Tensor::<i64, shape![]>::from_array(i0);
    let d0 = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    let t1 = Tensor::<i32, shape![2]>::from_array(i1);
    let d1 = Tensor::<i32, shape![2, 3]>::from_fn(|i| 10 + (i[0] * 3 + i[1]) as i32);
    let t2 = Tensor::<i64, shape![2, 2]>::from_slice(&i2).unwrap();
    let d2 = Tensor::<i32, shape![2, 2, 3]>::from_fn(|i| 100 + (i[0] * 6 + i[1] * 3 + i[2]) as i32);
    let pairs = [
        StitchPair::new(&[], t0.as_slice(), &[3], d0.as_slice()).unwrap(),
        StitchPair::new(&[2], t1.as_slice(), &[2, 3], d1.as_slice()).unwrap(),
        StitchPair::new(&[2, 2], t2.as_slice(), &[2, 2, 3], d2.as_slice()).unwrap(),
    ];
    let stitch = dynamic_stitch(&t0, &d0).pair(&t1, &d1).pair(&t2, &d2);
    let mut want_buf = vec![-7i32; buf_len];
    let want = stitch_slices(&pairs, &mut want_buf);
    let mut got_buf = vec![-7i32; buf_len];
    let got = stitch
        .run_into(&mut got_buf)
        .map(|t| (t.dims(), t.as_slice().to_vec()));
    match (&want, got) {
        (Ok(dims), Ok((got_dims, got_data))) => {
            prop_assert_eq!(*dims, got_dims);
            prop_assert_eq!(&want_buf[..got_data.len()], &got_data[..]);
            prop_assert_eq!(&want_buf, &got_buf);
        }
        (Err(e), Err(g)) => {
            prop_assert_eq!(*e, g);
            prop_assert!(got_buf.iter().all(|&v| v == -7), "buffer written on {}", g);
        }
        (w, g) => prop_assert!(false, "stitch_slices {:?}, builder {:?}", w, g),
    }
    // with a heap: the rule's own output or error (no buffer to overflow)
    let mut big = vec![0i32; 64];
    match (stitch_slices(&pairs, &mut big), stitch.run()) {
        (Ok(dims), Ok(t)) => {
            prop_assert_eq!(dims, t.dims());
            prop_assert_eq!(&big[..t.as_slice().len()], t.as_slice());
        }
        (Err(StitchError::BufferTooSmall { .. }), Ok(t)) => prop_assert!(t.as_slice().len() > 64),
        // more than the heap can give: the count of the rule's output
        (
            Err(StitchError::BufferTooSmall { needed, .. }),
            Err(StitchError::Shape(ShapeError::Allocation { numel })),
        ) => prop_assert_eq!(needed, numel),
        (Err(e), Err(g)) => prop_assert_eq!(e, g),
        (w, g) => prop_assert!(
            false,
            "stitch_slices {:?}, run {:?}",
            w,
            g.map(|t| t.dims())
        ),
    }
    Ok(())
}

proptest! {
    #[test]
    fn static_builder_matches_the_rule(
        i0 in -2i64..12,
        i1 in prop::array::uniform2(-2i32..12),
        i2 in prop::array::uniform4(prop_oneof![8 => -2i64..12, 1 => Just(i64::MAX), 1 => Just(1 << 62)]),
        buf_len in 0usize..40,
    ) {
        static_builder_case(i0, i1, i2, buf_len)?;
    }
}

/// The static path's edge cases: a slice with a 0 dim (rows, no element),
/// every index tensor empty, the largest index's position in TooManyRows
/// (the first of two equal ones), and a `Dyn` pair (the run-time rule).
#[test]
fn static_builder_edges() {
    // slice [0]: the rows still count, nothing is copied
    let i = Tensor::<i32, shape![2]>::from_array([4, 1]);
    let d = Tensor::<f32, shape![2, 0]>::from_slice(&[]).unwrap();
    let mut buf = [0.0f32; 0];
    let t = dynamic_stitch(&i, &d).run_into(&mut buf).unwrap();
    assert_eq!(t.dims().as_slice(), &[5, 0]);
    // no index at all: [0] + slice
    let e = Tensor::<i32, shape![0]>::from_slice(&[]).unwrap();
    let de = Tensor::<f32, shape![0, 3]>::from_slice(&[]).unwrap();
    let t = dynamic_stitch(&e, &de).run_into(&mut buf).unwrap();
    assert_eq!(t.dims().as_slice(), &[0, 3]);
    // the first of two equal largest indices names the error
    let big = Tensor::<i64, shape![3]>::from_array([i64::MAX, 0, i64::MAX]);
    let d3 = Tensor::<u8, shape![3, 2]>::full(1);
    let again = Tensor::<i64, shape![]>::from_array(i64::MAX);
    let d1 = Tensor::<u8, shape![2]>::full(2);
    let err = dynamic_stitch(&big, &d3)
        .pair(&again, &d1)
        .run_into(&mut [0u8; 4])
        .unwrap_err();
    assert_eq!(
        err,
        StitchError::TooManyRows {
            m: 0,
            j: 0,
            value: i64::MAX,
            slice: shapecheck::Dims::new(&[2]).unwrap()
        }
    );
    // a negative index after a huge one: the negative one is the error
    let neg = Tensor::<i64, shape![]>::from_array(-1);
    let err = dynamic_stitch(&big, &d3)
        .pair(&neg, &d1)
        .run_into(&mut [0u8; 4])
        .unwrap_err();
    assert_eq!(
        err,
        StitchError::NegativeIndex {
            m: 1,
            j: 0,
            value: -1
        }
    );
    // a buffer too small names the whole output
    let err = dynamic_stitch(&i, &Tensor::<u8, shape![2, 2]>::full(3))
        .run_into(&mut [0u8; 9])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the output [5, 2] needs 10 elements, but the buffer holds 9"
    );
    // a `Dyn` dim: the run-time rule checks the shapes
    let di = Tensor::<i32, (Dyn,), Vec<i32>>::from_vec((Dyn(2),), vec![1, 0]).unwrap();
    let dd =
        Tensor::<i32, (Dyn, Dim<2>), Vec<i32>>::from_vec((Dyn(2), Dim), vec![1, 2, 3, 4]).unwrap();
    let mut out = [0i32; 4];
    let t = dynamic_stitch(&di, &dd).run_into(&mut out).unwrap();
    assert_eq!(t.as_slice(), &[3, 4, 1, 2]);
    let three = Tensor::<i32, (Dyn,), Vec<i32>>::from_vec((Dyn(3),), vec![0, 1, 2]).unwrap();
    let mut untouched = [-1i32; 8];
    assert_eq!(
        dynamic_stitch(&three, &dd)
            .run_into(&mut untouched)
            .unwrap_err(),
        StitchError::PrefixMismatch {
            m: 0,
            indices: shapecheck::Dims::new(&[3]).unwrap(),
            data: shapecheck::Dims::new(&[2, 2]).unwrap()
        }
    );
    assert_eq!(untouched, [-1; 8]);
}

/// The row copy gives some run-time row lengths as constants (1-4, 8, 16,
/// 32, 64): every length from 1 to 70, with i32 and i64 indices, a
/// duplicate (the later wins) and a row no index names (zeros), against a
/// naive loop, on the `DynTensor`, caller-buffer and static (`Dyn`) paths.
#[test]
fn every_row_length_copies_like_a_naive_loop() {
    for n in 1..=70usize {
        let d0: Vec<i64> = (0..3 * n as i64).collect();
        let d1: Vec<i64> = (0..2 * n as i64).map(|v| -1 - v).collect();
        let (i0, i1) = ([4i32, 0, 2], [2i64, 1]);
        let mut want = vec![0i64; 5 * n];
        for (j, &r) in i0.iter().enumerate() {
            want[r as usize * n..][..n].copy_from_slice(&d0[j * n..][..n]);
        }
        for (j, &r) in i1.iter().enumerate() {
            want[r as usize * n..][..n].copy_from_slice(&d1[j * n..][..n]);
        }

        // DynTensor: one index type per call, so i32 and i64 separately
        let (ti0, td0) = (
            DynTensor::new(&[3], i0.to_vec()).unwrap(),
            DynTensor::new(&[3, n], d0.clone()).unwrap(),
        );
        let (ti1, td1) = (
            DynTensor::new(&[2], i1.to_vec()).unwrap(),
            DynTensor::new(&[2, n], d1.clone()).unwrap(),
        );
        let got = DynTensor::dynamic_stitch(&[(&ti0, &td0)]).unwrap();
        let mut alone = vec![0i64; 5 * n];
        for (j, &r) in i0.iter().enumerate() {
            alone[r as usize * n..][..n].copy_from_slice(&d0[j * n..][..n]);
        }
        assert_eq!(got.as_slice(), &alone[..], "i32, row length {n}");
        let got = DynTensor::dynamic_stitch(&[(&ti1, &td1)]).unwrap();
        let mut alone = vec![0i64; 3 * n];
        for (j, &r) in i1.iter().enumerate() {
            alone[r as usize * n..][..n].copy_from_slice(&d1[j * n..][..n]);
        }
        assert_eq!(got.as_slice(), &alone[..], "i64, row length {n}");

        // both index types in one call
        let pairs = [
            StitchPair::new(&[3], &i0, &[3, n], &d0).unwrap(),
            StitchPair::new(&[2], &i1, &[2, n], &d1).unwrap(),
        ];
        let mut out = vec![7i64; 6 * n];
        let dims = stitch_slices(&pairs, &mut out).unwrap();
        assert_eq!(dims.as_slice(), &[5, n]);
        assert_eq!(&out[..5 * n], &want[..], "slices, row length {n}");

        // the static builder over a run-time slice dim
        let x0 = Tensor::<i64, shape![3, Dyn], Vec<i64>>::with_dims(&[3, n], d0.clone()).unwrap();
        let x1 = Tensor::<i64, shape![2, Dyn], Vec<i64>>::with_dims(&[2, n], d1.clone()).unwrap();
        let (s0, s1) = (
            Tensor::<i32, shape![3]>::from_array(i0),
            Tensor::<i64, shape![2]>::from_array(i1),
        );
        let got = dynamic_stitch(&s0, &x0).pair(&s1, &x1).run().unwrap();
        assert_eq!(got.as_slice(), &want[..], "builder, row length {n}");
    }
}

/// The rows a stitch of `i0` (with `d0`) and `i1` (with `d1`) writes, rows
/// of `n` values, by a naive loop: zeros where no index names a row.
fn naive_rows(i0: &[i32], d0: &[i64], i1: &[i64], d1: &[i64], n: usize) -> Vec<i64> {
    let rows = i0
        .iter()
        .map(|&v| v as usize)
        .chain(i1.iter().map(|&v| v as usize))
        .max()
        .map_or(0, |m| m + 1);
    let mut want = vec![0i64; rows * n];
    for (j, &r) in i0.iter().enumerate() {
        want[r as usize * n..][..n].copy_from_slice(&d0[j * n..][..n]);
    }
    for (j, &r) in i1.iter().enumerate() {
        want[r as usize * n..][..n].copy_from_slice(&d1[j * n..][..n]);
    }
    want
}

/// `i0`/`i1` (`K0` and `K1` values) stitched with rows of `N` i64 into
/// buffers holding 7s, on the static builder, the run-time builder, the
/// caller-buffer slices and a kept `DynTensor`, against [`naive_rows`];
/// past the output the buffer is untouched.
fn check_large_stitch<const K0: usize, const K1: usize, const N: usize>(
    i0: &[i32],
    i1: &[i64],
    what: &str,
) {
    let d0: Vec<i64> = (0..(N * K0) as i64).collect();
    let d1: Vec<i64> = (0..(N * K1) as i64).map(|v| -1 - v).collect();
    let want = naive_rows(i0, &d0, i1, &d1, N);
    assert!(want.len() * 8 > 1 << 20, "{what}: over 1 MiB");

    // the static builder: every shape static
    let s0 = Tensor::<i32, shape![K0], Vec<i32>>::from_vec(Default::default(), i0.to_vec());
    let x0 = Tensor::<i64, shape![K0, N], Vec<i64>>::from_vec(Default::default(), d0.clone());
    let s1 = Tensor::<i64, shape![K1], Vec<i64>>::from_vec(Default::default(), i1.to_vec());
    let x1 = Tensor::<i64, shape![K1, N], Vec<i64>>::from_vec(Default::default(), d1.clone());
    let (s0, x0, s1, x1) = (s0.unwrap(), x0.unwrap(), s1.unwrap(), x1.unwrap());
    let mut buf = vec![7i64; want.len() + 8];
    let got = dynamic_stitch(&s0, &x0)
        .pair(&s1, &x1)
        .run_into(&mut buf)
        .unwrap();
    assert!(
        got.as_slice() == &want[..],
        "{what}, rows of {N}: static builder"
    );
    assert_eq!(
        buf[want.len()..],
        [7; 8],
        "{what}: past the output, untouched"
    );

    // the builder over run-time rows
    let r0 = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(K0),), i0.to_vec()).unwrap();
    let y0 = Tensor::<i64, shape![Dyn, N], Vec<i64>>::from_vec((Dyn(K0), Dim), d0.clone()).unwrap();
    let r1 = Tensor::<i64, shape![Dyn], Vec<i64>>::from_vec((Dyn(K1),), i1.to_vec()).unwrap();
    let y1 = Tensor::<i64, shape![Dyn, N], Vec<i64>>::from_vec((Dyn(K1), Dim), d1.clone()).unwrap();
    let mut buf = vec![7i64; want.len() + 8];
    let got = dynamic_stitch(&r0, &y0)
        .pair(&r1, &y1)
        .run_into(&mut buf)
        .unwrap();
    assert!(
        got.as_slice() == &want[..],
        "{what}, rows of {N}: run-time builder"
    );
    assert_eq!(
        buf[want.len()..],
        [7; 8],
        "{what}: past the output, untouched"
    );

    // the caller-buffer slices
    let pairs = [
        StitchPair::new(&[K0], i0, &[K0, N], &d0).unwrap(),
        StitchPair::new(&[K1], i1, &[K1, N], &d1).unwrap(),
    ];
    let mut buf = vec![7i64; want.len() + 8];
    stitch_slices(&pairs, &mut buf).unwrap();
    assert!(buf[..want.len()] == want[..], "{what}, rows of {N}: slices");
    assert_eq!(
        buf[want.len()..],
        [7; 8],
        "{what}: past the output, untouched"
    );

    // into a kept `DynTensor` whose buffer holds 7s (room for the result
    // and its alignment to a cache line): its buffer is kept, not filled
    let mut kept = DynTensor::full(&[want.len() + 16], 7i64).unwrap();
    let at = kept.as_slice().as_ptr() as usize;
    let j1: Vec<i32> = i1.iter().map(|&v| v as i32).collect();
    let (t0, t1) = (
        DynTensor::new(&[K0], i0.to_vec()).unwrap(),
        DynTensor::new(&[K1], j1).unwrap(),
    );
    let (e0, e1) = (
        DynTensor::new(&[K0, N], d0).unwrap(),
        DynTensor::new(&[K1, N], d1).unwrap(),
    );
    DynTensor::dynamic_stitch_into(&[(&t0, &e0), (&t1, &e1)], &mut kept).unwrap();
    let now = kept.as_slice().as_ptr() as usize;
    assert!((at..at + 64).contains(&now), "{what}: the kept buffer");
    assert!(
        kept.as_slice() == &want[..],
        "{what}, rows of {N}: kept DynTensor"
    );
}

/// A caller's buffer of more than 1 MiB holding other values: the rows no
/// index names become zeros and the rest of the buffer is untouched, with
/// duplicates, on four paths (`check_large_stitch`), in rows of 32
/// bytes (the whole output is zeroed first) and of 64 and 72 bytes (only
/// the unnamed rows are, found from a bit set of the named ones): scattered
/// unnamed rows; then runs of them from a few rows to whole 64-row words,
/// starting and ending inside words and on their edges, a row count that is
/// not a multiple of 64; then a permutation (every row named).
#[test]
fn large_buffers_zero_exactly_the_unnamed_rows() {
    const K0: usize = 30_000;
    const K1: usize = 20_000;
    // scattered: 40 003 rows, about 29% unnamed, and duplicates
    let i0: Vec<i32> = (0..K0).map(|j| ((j * 7919) % 40_003) as i32).collect();
    let i1: Vec<i64> = (0..K1)
        .map(|j| ((j * 104_729 + 5) % 40_003) as i64)
        .collect();
    let mut named = vec![false; 40_003];
    for r in i0
        .iter()
        .map(|&v| v as usize)
        .chain(i1.iter().map(|&v| v as usize))
    {
        named[r] = true;
    }
    assert!(named.contains(&false), "some row is unnamed");
    check_large_stitch::<K0, K1, 4>(&i0, &i1, "scattered");
    check_large_stitch::<K0, K1, 8>(&i0, &i1, "scattered");
    check_large_stitch::<K0, K1, 9>(&i0, &i1, "scattered");

    // runs: rows 0..49 999 named once each except these ranges (each
    // unnamed row's index given to row 0 instead, a duplicate)
    let gaps = [
        3..5,
        60..70,
        128..320,
        333..334,
        1000..1064,
        2050..4100,
        49_990..49_995,
    ];
    let rows: Vec<usize> = (0..K0 + K1)
        .map(|r| {
            if gaps.iter().any(|g| g.contains(&r)) {
                0
            } else {
                r
            }
        })
        .collect();
    let (g0, g1) = rows.split_at(K0);
    let g0: Vec<i32> = g0.iter().rev().map(|&r| r as i32).collect();
    let g1: Vec<i64> = g1.iter().map(|&r| r as i64).collect();
    assert_eq!((K0 + K1) % 64, 16, "the last word is partial");
    check_large_stitch::<K0, K1, 4>(&g0, &g1, "runs");
    check_large_stitch::<K0, K1, 8>(&g0, &g1, "runs");
    check_large_stitch::<K0, K1, 9>(&g0, &g1, "runs");

    // a permutation of the rows: every row named, none zeroed
    let p0: Vec<i32> = (0..K0).map(|j| ((j * 7919) % K0) as i32).collect();
    let p1: Vec<i64> = (0..K1).map(|j| (K0 + (j * 104_729) % K1) as i64).collect();
    check_large_stitch::<K0, K1, 4>(&p0, &p1, "permutation");
    check_large_stitch::<K0, K1, 8>(&p0, &p1, "permutation");
}

/// `pairs` (index values and rows of `n` elements) stitched by a naive
/// loop: zeros where no index names a row, the later duplicate winning.
fn naive_stitch<T: Copy + Default>(pairs: &[(&[i32], &[T])], n: usize) -> Vec<T> {
    let rows = pairs
        .iter()
        .flat_map(|(idx, _)| idx.iter())
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0);
    let mut out = vec![T::default(); rows * n];
    for (idx, data) in pairs {
        for (j, &r) in idx.iter().enumerate() {
            out[r as usize * n..][..n].copy_from_slice(&data[j * n..][..n]);
        }
    }
    out
}

/// `stitch_slices` of two pairs with rows of `n` elements of `T` into a
/// buffer of `other`s, at each offset 0 to 3 of the buffer (so each
/// alignment of the rows to cache lines): the output as `naive_stitch`
/// says, before and past it untouched.
fn check_stitch_at_offsets<T>(n: usize, rows: usize, elem: impl Fn(usize) -> T, other: T)
where
    T: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync,
{
    let (k0, k1) = (rows * 3 / 5, rows * 3 / 5);
    // pair 0 scattered (some rows twice, some not at all); pair 1 ends on
    // the last rows, so the rows looked at ahead run past its indices
    let i0: Vec<i32> = (0..k0).map(|j| ((j * 7919) % rows) as i32).collect();
    let i1: Vec<i32> = (0..k1)
        .map(|j| (rows - k1 + (j * 104_729) % k1) as i32)
        .collect();
    let d0: Vec<T> = (0..k0 * n).map(&elem).collect();
    let d1: Vec<T> = (0..k1 * n).map(|e| elem(e + 7)).collect();
    let want = naive_stitch(&[(&i0, &d0), (&i1, &d1)], n);
    assert!(
        want.len() * core::mem::size_of::<T>() >= 1 << 20,
        "over 1 MiB"
    );
    let pairs = [
        StitchPair::new(&[k0], &i0, &[k0, n], &d0).unwrap(),
        StitchPair::new(&[k1], &i1, &[k1, n], &d1).unwrap(),
    ];
    for offset in 0..4 {
        let mut buf = vec![other; offset + want.len() + 5];
        let dims = stitch_slices(&pairs, &mut buf[offset..]).unwrap();
        assert_eq!(dims.as_slice(), &[rows, n]);
        let (before, rest) = buf.split_at(offset);
        let (got, past) = rest.split_at(want.len());
        assert!(got == &want[..], "rows of {n} at offset {offset}");
        assert!(
            before.iter().chain(past).all(|&v| v == other),
            "offset {offset}: outside"
        );
    }
}

/// On outputs of 1 MiB or more with rows of 32 bytes or more, each row is
/// asked of the cache some rows ahead of its copy (`kernel::prefetch`):
/// rows of odd byte lengths (33 and 100 `u8`, 13 `f32`, 9 `f64`) and every
/// offset of the buffer land exactly where the naive loop puts them, with
/// duplicates and unnamed rows; and the static builder's constant rows.
#[test]
fn rows_asked_for_ahead_land_where_the_naive_loop_puts_them() {
    check_stitch_at_offsets::<u8>(33, 40_000, |e| (e % 251) as u8, 0xAB);
    check_stitch_at_offsets::<u8>(100, 12_000, |e| (e % 253) as u8, 0xAB);
    check_stitch_at_offsets::<f32>(13, 40_000, |e| e as f32, -7.0);
    check_stitch_at_offsets::<f64>(9, 20_000, |e| e as f64, -7.0);

    // the static builder, rows of 13 f32 (its row length a constant)
    const K: usize = 24_000;
    let i0: Vec<i32> = (0..K).map(|j| ((j * 7919) % 40_000) as i32).collect();
    let i1: Vec<i32> = (0..K)
        .map(|j| (16_000 + (j * 104_729) % K) as i32)
        .collect();
    let d0: Vec<f32> = (0..K * 13).map(|e| e as f32).collect();
    let d1: Vec<f32> = (0..K * 13).map(|e| -(e as f32)).collect();
    let want = naive_stitch(&[(&i0, &d0), (&i1, &d1)], 13);
    let s0 = Tensor::<i32, shape![K], Vec<i32>>::from_vec(Default::default(), i0).unwrap();
    let x0 = Tensor::<f32, shape![K, 13], Vec<f32>>::from_vec(Default::default(), d0).unwrap();
    let s1 = Tensor::<i32, shape![K], Vec<i32>>::from_vec(Default::default(), i1).unwrap();
    let x1 = Tensor::<f32, shape![K, 13], Vec<f32>>::from_vec(Default::default(), d1).unwrap();
    let mut buf = vec![-7.0f32; want.len() + 3];
    let got = dynamic_stitch(&s0, &x0)
        .pair(&s1, &x1)
        .run_into(&mut buf[3..])
        .unwrap();
    assert!(got.as_slice() == &want[..], "static builder, rows of 13");
}

/// The index scan looks at blocks of values together and goes value by
/// value only in a block with a negative or a new largest value: past the
/// first block, the error still names the first negative, and `TooManyRows`
/// the first of the largest values, by their flat positions.
#[cfg(target_pointer_width = "64")]
#[test]
fn the_index_scan_names_first_positions_past_its_first_block() {
    let small: Vec<i64> = (0..2000).map(|j| (j * 7919) % 1000).collect();
    let data = DynTensor::new(&[2000, 2], vec![0i32; 4000]).unwrap();
    let first = DynTensor::new(&[2000], small.clone()).unwrap();

    let mut negative = small.clone();
    negative[1000] = -3;
    negative[1500] = -4;
    let negative = DynTensor::new(&[2000], negative).unwrap();
    assert_eq!(
        DynTensor::dynamic_stitch(&[(&first, &data), (&negative, &data)]).unwrap_err(),
        StitchError::NegativeIndex {
            m: 1,
            j: 1000,
            value: -3
        }
    );

    // i64::MAX + 1 rows of 2 elements: too many; the first of the two
    let mut huge = small.clone();
    huge[700] = i64::MAX;
    huge[1300] = i64::MAX;
    let huge = DynTensor::new(&[2000], huge).unwrap();
    match DynTensor::dynamic_stitch(&[(&first, &data), (&huge, &data)]).unwrap_err() {
        StitchError::TooManyRows { m, j, value, .. } => {
            assert_eq!((m, j, value), (1, 700, i64::MAX))
        }
        e => panic!("unexpected error {e}"),
    }

    // the largest index found in a later block sets the rows
    let mut later = small;
    later[1777] = 5000;
    let later = DynTensor::new(&[2000], later).unwrap();
    let out = DynTensor::dynamic_stitch(&[(&first, &data), (&later, &data)]).unwrap();
    assert_eq!(out.dims().as_slice(), &[5001, 2]);
}

/// `DynTensor`'s stitched results of 1 MiB or more start on a cache line
/// (64 bytes) inside their buffer, allocated or kept, and read exactly as
/// a naive loop's output: `as_slice`, `into_vec`, `==` and `Debug` see the
/// elements only. A kept tensor goes from small to large and back, and an
/// element whose size does not divide 64 (3 bytes) is not offset.
#[test]
fn large_dyn_results_start_on_a_cache_line_and_read_the_same() {
    // rows 0..n named backwards except row 1 (left zero), by f32 rows of 16
    let stitched = |n: usize| {
        let idx: Vec<i32> = (0..n as i32).rev().filter(|&r| r != 1).collect();
        let data: Vec<f32> = (0..16 * idx.len()).map(|v| v as f32 + 0.5).collect();
        let mut want = vec![0.0f32; 16 * n];
        for (j, &r) in idx.iter().enumerate() {
            want[r as usize * 16..][..16].copy_from_slice(&data[j * 16..][..16]);
        }
        let idx = DynTensor::new(&[idx.len()], idx).unwrap();
        let data = DynTensor::new(&[idx.as_slice().len(), 16], data).unwrap();
        (idx, data, want)
    };
    let on_a_line = |t: &DynTensor<f32>| (t.as_slice().as_ptr() as usize).is_multiple_of(64);

    let (big_i, big_d, big_want) = stitched(1 << 15); // 2 MiB
    let (small_i, small_d, small_want) = stitched(100);
    let out = DynTensor::dynamic_stitch(&[(&big_i, &big_d)]).unwrap();
    assert!(on_a_line(&out), "a 2 MiB result starts on a line");
    assert_eq!(out.as_slice(), &big_want[..]);
    assert_eq!(
        out,
        DynTensor::new(&[1 << 15, 16], big_want.clone()).unwrap()
    );
    assert_eq!(
        format!(
            "{:?}",
            DynTensor::dynamic_stitch(&[(&small_i, &small_d)]).unwrap()
        ),
        format!(
            "{:?}",
            DynTensor::new(&[100, 16], small_want.clone()).unwrap()
        ),
    );

    // kept: small, then large (a new buffer), large again (its own), small
    let mut kept = DynTensor::dynamic_stitch(&[(&small_i, &small_d)]).unwrap();
    DynTensor::dynamic_stitch_into(&[(&big_i, &big_d)], &mut kept).unwrap();
    assert!(on_a_line(&kept));
    assert_eq!(kept.as_slice(), &big_want[..]);
    let at = kept.as_slice().as_ptr();
    let (big2_i, big2_d, big2_want) = stitched((1 << 15) - 3);
    DynTensor::dynamic_stitch_into(&[(&big2_i, &big2_d)], &mut kept).unwrap();
    assert_eq!(
        kept.as_slice().as_ptr(),
        at,
        "the kept buffer, the same line"
    );
    assert_eq!(kept.as_slice(), &big2_want[..]);
    DynTensor::dynamic_stitch_into(&[(&small_i, &small_d)], &mut kept).unwrap();
    assert_eq!(kept.as_slice(), &small_want[..]);
    assert_eq!(kept.dims().as_slice(), &[100, 16]);
    DynTensor::dynamic_stitch_into(&[(&big_i, &big_d)], &mut kept).unwrap();
    assert_eq!(
        kept.clone().into_vec(),
        big_want,
        "into_vec: the elements, from the front"
    );
    assert_eq!(
        kept.into_static::<shape![Dyn, 16]>().unwrap().as_slice(),
        &big_want[..]
    );

    // 3-byte elements: 64 is not a whole number of them, no offset
    let n = 1 << 19;
    let idx = DynTensor::new(&[n], (0..n as i32).rev().collect()).unwrap();
    let data = DynTensor::new(&[n], (0..n).map(|v| [v as u8, 1, 2]).collect()).unwrap();
    let out = DynTensor::dynamic_stitch(&[(&idx, &data)]).unwrap();
    let want: Vec<[u8; 3]> = (0..n).rev().map(|v| [v as u8, 1, 2]).collect();
    assert_eq!(out.as_slice(), &want[..]);
    assert_eq!(out.into_vec(), want);
}
