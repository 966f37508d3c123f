//! LoD tensors: property tests against naive references (Paddle's
//! `CheckLoD` and `ConvertToOffsetBasedLoD`, in tests/lod_support): the
//! constructors accept exactly what `CheckLoD` accepts and name the rule and
//! level they reject, lengths and offsets round-trip, and the sequences of
//! every level are the naive row spans.

mod lod_support;

use lod_support::*;
use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::{check_lod, DynLodTensor, Lengths, LodError, LodTensor, Offsets};

fn any_lod() -> impl Strategy<Value = (Vec<Vec<usize>>, usize)> {
    (
        nested_lengths(),
        0usize..8,
        any::<prop::sample::Index>(),
        0usize..6,
    )
        .prop_map(|((lengths, rows), how, at, value)| {
            let mut lod = naive_offsets(&lengths).unwrap();
            let mut rows = rows;
            if lod.is_empty() {
                return (lod, rows);
            }
            let k = at.index(lod.len());
            let i = at.index(lod[k].len());
            match how {
                0 => lod[k][i] = value,         // any offset changed
                1 => lod[k].truncate(i.min(1)), // a level of 0 or 1 offsets
                2 => rows = value,              // another row count
                3 => {
                    lod[k].remove(i); // one sequence fewer
                }
                4 => lod[k].insert(i, value), // one more offset
                _ => {}                       // unchanged
            }
            (lod, rows)
        })
}

/// Lengths, nested or not, some huge (their sum overflows).
fn any_lengths() -> impl Strategy<Value = (Vec<Vec<usize>>, usize)> {
    prop_oneof![
        3 => nested_lengths(),
        1 => (prop::collection::vec(prop::collection::vec(0usize..4, 0..4), 0..4), 0usize..10),
        1 => (
            prop::collection::vec(
                prop::collection::vec(prop_oneof![Just(usize::MAX / 2 + 1), 0usize..3], 1..4),
                1..3
            ),
            0usize..10
        ),
    ]
}

// ------------------------------------------------------------ properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn lengths_offsets_round_trip(lengths in prop::collection::vec(0usize..1000, 0..20)) {
        let l = Lengths::new(&lengths);
        let owned = l.to_offsets(0).unwrap();
        let mut buf = vec![7usize; lengths.len() + 3];
        let o = l.offsets_into(0, &mut buf).unwrap();
        prop_assert_eq!(o.as_slice(), owned.as_offsets().as_slice());
        prop_assert_eq!(o.as_slice(), &naive_offsets(std::slice::from_ref(&lengths)).unwrap()[0][..]);
        prop_assert_eq!(o.to_lengths().into_vec(), lengths.clone());
        let back: Vec<usize> = o.lengths().collect();
        prop_assert_eq!(&back, &lengths);
        let mut lbuf = vec![0usize; lengths.len()];
        prop_assert_eq!(o.lengths_into(&mut lbuf).unwrap().as_slice(), &lengths[..]);
        // too small a buffer: an error, nothing written
        if !lengths.is_empty() {
            let mut small = vec![7usize; lengths.len()];
            prop_assert!(l.offsets_into(0, &mut small).is_err());
            prop_assert!(small.iter().all(|&v| v == 7));
        }
    }

    #[test]
    fn offsets_lengths_round_trip((lod, _rows) in nested_lengths().prop_map(|(l, r)| (naive_offsets(&l).unwrap(), r))) {
        for level in &lod {
            let lengths = Offsets::new(level).to_lengths();
            prop_assert_eq!(lengths.as_lengths().to_offsets(0).unwrap().into_vec(), level.clone());
        }
    }

    /// `new` accepts exactly what CheckLoD accepts, and names the rule and
    /// the level it rejects.
    #[test]
    fn new_is_check_lod((lod, rows) in any_lod()) {
        let levels = to_offsets(&lod);
        let got = LodTensor::new(dense(rows), &levels[..]).map(|_| ()).map_err(|e| kind(&e));
        prop_assert_eq!(got, naive_check(&lod, rows));
        prop_assert_eq!(check_lod(&levels[..], rows).map_err(|e| kind(&e)), naive_check(&lod, rows));
        let dynamic = DynLodTensor::new(DynTensor::new(&[rows, 2], vec![0.0f32; rows * 2]).unwrap(), &levels[..]);
        prop_assert_eq!(dynamic.map(|_| ()).map_err(|e| kind(&e)), naive_check(&lod, rows));
    }

    /// The lengths constructors (heap and no heap) accept exactly what
    /// ConvertToOffsetBasedLoD + CheckLoD accept, with the right level; an
    /// accepted LoD passes the naive CheckLoD and holds the naive offsets.
    #[test]
    fn from_lengths_is_convert_then_check((lengths, rows) in any_lengths()) {
        let want = naive_offsets(&lengths).and_then(|o| naive_check(&o, rows).map(|_| o));
        let ls = to_lengths(&lengths);
        let owned = LodTensor::from_lengths(dense(rows), &ls);
        let mut offsets = vec![usize::MAX; 64];
        let mut levels = vec![Offsets::new(&[]); 8];
        let borrowed = LodTensor::from_lengths_in(dense(rows), &ls, &mut offsets, &mut levels);
        let dynamic = DynLodTensor::from_lengths(DynTensor::new(&[rows, 2], vec![0.0f32; rows * 2]).unwrap(), &ls);
        match &want {
            Ok(o) => {
                let owned = owned.unwrap();
                let borrowed = borrowed.unwrap();
                let got = owned.to_owned_lod().into_offsets();
                prop_assert_eq!(&got, o);
                prop_assert_eq!(naive_check(&got, rows), Ok(()));
                prop_assert_eq!(&borrowed.to_owned_lod().into_offsets(), o);
                prop_assert_eq!(&dynamic.unwrap().lod().as_offsets().to_vec(), o);
                let back: Vec<Vec<usize>> = owned.lengths().into_iter().map(|l| l.into_vec()).collect();
                prop_assert_eq!(back, lengths.clone());
            }
            Err(b) => {
                prop_assert_eq!(owned.map(|_| ()).map_err(|e| kind(&e)), Err(*b));
                prop_assert_eq!(borrowed.map(|_| ()).map_err(|e| kind(&e)), Err(*b));
                prop_assert_eq!(dynamic.map(|_| ()).map_err(|e| kind(&e)), Err(*b));
            }
        }
    }

    /// Every sequence of every level spans the rows the naive walk gives,
    /// and its view holds exactly those rows' elements.
    #[test]
    fn sequences_are_the_naive_row_spans((lengths, rows) in nested_lengths()) {
        let lod = naive_offsets(&lengths).unwrap();
        let levels = to_offsets(&lod);
        let x = LodTensor::new(dense(rows), &levels[..]).unwrap();
        let dx = DynLodTensor::new(DynTensor::new(&[rows, 2], dense(rows).to_vec()).unwrap(), &levels[..]).unwrap();
        for k in 0..lod.len() {
            let naive: Vec<(usize, usize)> = (0..lod[k].len() - 1)
                .map(|i| {
                    let (mut lo, mut hi) = (lod[k][i], lod[k][i + 1]);
                    for below in &lod[k + 1..] {
                        lo = below[lo];
                        hi = below[hi];
                    }
                    (lo, hi)
                })
                .collect();
            let got: Vec<(usize, usize)> = x.sequences(k).unwrap().map(|s| (s.rows().start, s.rows().end)).collect();
            prop_assert_eq!(&got, &naive);
            for (s, (lo, hi)) in x.sequences(k).unwrap().zip(&naive) {
                let t = s.tensor();
                prop_assert_eq!(t.dims().to_vec(), vec![hi - lo, 2]);
                prop_assert_eq!(t.as_slice(), &x.as_slice()[lo * 2..hi * 2]);
                // the sequences it holds cover the same rows, in order
                let inner: Vec<_> = s.sequences().map(|i| i.rows()).collect();
                if k + 1 < lod.len() {
                    prop_assert_eq!(inner.first().map_or(*lo, |r| r.start), *lo);
                    prop_assert_eq!(inner.last().map_or(*hi, |r| r.end), *hi);
                } else {
                    prop_assert!(inner.is_empty());
                }
            }
            let dgot: Vec<(usize, usize)> = dx.sequences(k).unwrap().map(|s| (s.rows().start, s.rows().end)).collect();
            prop_assert_eq!(&dgot, &naive);
        }
        prop_assert_eq!(
            x.sequences(lod.len()).err(),
            Some(LodError::NoSuchLevel { level: lod.len(), levels: lod.len() })
        );
    }
}
