//! No half-written outputs: every caller-buffer form of every op, called with
//! inputs that make it fail, leaves the caller's buffer exactly as it was.
//! The buffer is filled with a sentinel before the call and compared after.
//!
//! Properties over random shapes, axes, modes, data and buffer lengths (a good
//! share of them invalid), plus one fixed case per error kind, so that every
//! kind of error is known to be exercised. `select_into` and the static
//! `elementwise_<op>_into` forms other than div cannot fail (their shapes are
//! checked by the compiler), so they have nothing to test here.
#![allow(clippy::result_large_err)] // errors carry their dims inline (no heap)

use proptest::prelude::*;
use shapecheck::ops::elementwise::elementwise_slices;
use shapecheck::ops::Div;
use shapecheck::prelude::*;
use shapecheck::{
    multiplex_into, multiplex_slices, select_slices, try_select_into, ActivationKind,
    AutoBroadcast, BinaryOpKind, ElementwiseError,
};

const SENTINEL: i32 = -7777;

/// x dims, y dims, axis, op, data/data/output length skews.
type ElementwiseCase = (Vec<usize>, Vec<usize>, isize, u8, [u8; 3]);
/// candidate dims, index dims, index values, data/output length skews.
type MultiplexCase = (Vec<Vec<usize>>, Vec<usize>, Vec<i64>, (u8, u8));

/// Small dims, 1s and 0s frequent.
fn dims() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![3 => 1usize..4, 1 => Just(0usize), 1 => Just(1usize)],
        0..4,
    )
}

/// Dims that overflow or exceed the rank limit, now and then.
fn any_dims() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        8 => dims(),
        1 => prop::collection::vec(
            prop_oneof![Just(usize::MAX), Just(1usize << 40), Just(2usize), Just(0usize)],
            1..4
        ),
        1 => prop::collection::vec(1usize..3, 9..11),
    ]
}

fn numel(d: &[usize]) -> usize {
    d.iter()
        .try_fold(1usize, |a, &n| a.checked_mul(n))
        .unwrap_or(3)
        .min(64)
}

/// A data length for `d`: usually right, sometimes off by one.
fn data(d: &[usize], skew: u8) -> Vec<i32> {
    let n = numel(d);
    let len = match skew {
        0 => n + 1,
        1 => n.saturating_sub(1),
        _ => n,
    };
    (0..len).map(|i| (i as i32 % 5) - 2).collect()
}

fn op(k: u8) -> BinaryOpKind {
    [
        BinaryOpKind::Mul,
        BinaryOpKind::Add,
        BinaryOpKind::Sub,
        BinaryOpKind::Div,
        BinaryOpKind::Max,
        BinaryOpKind::Min,
    ][usize::from(k % 6)]
}

/// The output buffer: the right length (from the library) or a wrong one.
fn out_buf(right: Option<usize>, skew: u8) -> Vec<i32> {
    let n = right.unwrap_or(4).min(256);
    vec![SENTINEL; if skew == 0 { n + 1 } else { n }]
}

fn untouched(out: &[i32]) -> bool {
    out.iter().all(|&v| v == SENTINEL)
}

fn elementwise_case(
    xd: &[usize],
    yd: &[usize],
    axis: isize,
    k: u8,
    skews: [u8; 3],
) -> (Result<(), ElementwiseError>, Vec<i32>) {
    let (x, y) = (data(xd, skews[0]), data(yd, skews[1]));
    let right = shapecheck::ops::elementwise::elementwise_output_dims(xd, yd, axis)
        .ok()
        .and_then(|d| d.numel());
    let mut out = out_buf(right, skews[2]);
    let r = elementwise_slices(op(k), ActivationKind::Relu, xd, &x, yd, &y, axis, &mut out);
    (r.map(|_| ()), out)
}

fn select_case(mode: AutoBroadcast, dims: [&[usize]; 3], skews: [u8; 4]) -> (bool, Vec<i32>) {
    let [cd, td, ed] = dims;
    let c: Vec<bool> = data(cd, skews[0]).iter().map(|&v| v > 0).collect();
    let (t, e) = (data(td, skews[1]), data(ed, skews[2]));
    let right = shapecheck::select_output_dims(mode, cd, td, ed)
        .ok()
        .and_then(|d| d.numel());
    let mut out = out_buf(right, skews[3]);
    let r = select_slices(mode, cd, &c, td, &t, ed, &e, &mut out);
    (r.is_err(), out)
}

fn multiplex_case(
    cands: &[Vec<usize>],
    index_dims: &[usize],
    index: &[i64],
    skews: (u8, u8),
) -> (bool, Vec<i32>) {
    let data: Vec<Vec<i32>> = cands.iter().map(|d| data(d, skews.0)).collect();
    let inputs: Vec<(&[usize], &[i32])> = cands
        .iter()
        .zip(&data)
        .map(|(d, v)| (&d[..], &v[..]))
        .collect();
    let right = cands.first().map(|d| {
        let mut o = d.clone();
        if let (Some(r), Some(&ir)) = (o.first_mut(), index_dims.first()) {
            *r = ir;
        }
        numel(&o)
    });
    let mut out = out_buf(right, skews.1);
    let r = multiplex_slices(&inputs, index_dims, index, &mut out);
    (r.is_err(), out)
}

fn mode(k: u8, axis: isize) -> AutoBroadcast {
    match k % 3 {
        0 => AutoBroadcast::None,
        1 => AutoBroadcast::Numpy,
        _ => AutoBroadcast::Pdpd { axis },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn elementwise_slices_never_half_writes(
        xd in any_dims(), yd in any_dims(), axis in -5isize..5, k in 0u8..6,
        skews in prop::array::uniform3(0u8..6),
    ) {
        let (r, out) = elementwise_case(&xd, &yd, axis, k, skews);
        if let Err(e) = r {
            prop_assert!(untouched(&out), "{xd:?} {yd:?} axis {axis}: {e}, out {out:?}");
        }
    }

    #[test]
    fn select_slices_never_half_writes(
        cd in any_dims(), td in any_dims(), ed in any_dims(), m in 0u8..3, axis in -2isize..4,
        skews in prop::array::uniform4(0u8..8),
    ) {
        let (err, out) = select_case(mode(m, axis), [&cd, &td, &ed], skews);
        if err {
            prop_assert!(untouched(&out), "{cd:?} {td:?} {ed:?} {m} {axis}: {out:?}");
        }
    }

    #[test]
    fn multiplex_slices_never_half_writes(
        cands in prop::collection::vec(any_dims(), 0..4),
        rows in 0usize..5, other_index in prop::option::weighted(0.1, dims()),
        index in prop::collection::vec(-1i64..4, 0..6),
        skews in (0u8..8, 0u8..8),
    ) {
        // mostly one shape for all candidates, the index [rows, 1]
        let cands: Vec<Vec<usize>> = match cands.first() {
            Some(f) if skews.0 > 1 => vec![f.clone(); cands.len()],
            _ => cands,
        };
        let index_dims = other_index.unwrap_or_else(|| vec![rows, 1]);
        let (err, out) = multiplex_case(&cands, &index_dims, &index, skews);
        if err {
            prop_assert!(untouched(&out), "{cands:?} {index_dims:?} {index:?}: {out:?}");
        }
    }

    /// The typed `_into` forms with run-time dims.
    #[test]
    fn try_into_forms_never_half_write(
        rows in 0usize..4, y_len in 0usize..5, out_rows in 0usize..4, zero in any::<bool>(),
        index in prop::collection::vec(-1i32..3, 0..4),
    ) {
        let x = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::from_vec(
            (Dyn(rows), Dim), (0..rows as i32 * 3).collect()).unwrap();
        let yv: Vec<i32> = (0..y_len as i32).map(|v| if zero { v } else { v + 1 }).collect();
        let y = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(y_len),), yv).unwrap();
        let mut out = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::from_vec(
            (Dyn(out_rows), Dim), vec![SENTINEL; out_rows * 3]).unwrap();
        if x.try_elementwise_into(Div, &y, Axis::<-1>, Identity, &mut out).is_err() {
            prop_assert!(untouched(out.as_slice()));
        }

        let c = Tensor::<bool, shape![Dyn, 3], Vec<bool>>::from_vec(
            (Dyn(out_rows), Dim), vec![true; out_rows * 3]).unwrap();
        let mut sel = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::from_vec(
            (Dyn(rows), Dim), vec![SENTINEL; rows * 3]).unwrap();
        if try_select_into(&c, &x, &x, NoBroadcast, &mut sel).is_err() {
            prop_assert!(untouched(sel.as_slice()));
        }

        let idx = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec(
            (Dyn(index.len()), One), index.clone()).unwrap();
        let mut mux = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::from_vec(
            (Dyn(rows), Dim), vec![SENTINEL; rows * 3]).unwrap();
        if multiplex_into(&[x.clone(), x.clone()], &idx, &mut mux).is_err() {
            prop_assert!(untouched(mux.as_slice()));
        }
    }
}

/// One case per kind of error, each checked to fail and to leave the buffer
/// as it was (so that the properties above are known to meet every kind).
#[test]
fn every_kind_of_error_leaves_the_buffer_untouched() {
    let d = |v: &[usize]| v.to_vec();
    // elementwise: mismatch, equal-rank axis, axis range, runs past, data
    // length, output length, overflow, rank, integer division by zero
    let cases: [ElementwiseCase; 9] = [
        (d(&[2, 3]), d(&[2]), -1, 0, [2, 2, 2]),
        (d(&[2, 3]), d(&[2, 1]), 1, 0, [2, 2, 2]),
        (d(&[2, 3]), d(&[3]), 2, 0, [2, 2, 2]),
        (d(&[2, 3, 4]), d(&[4, 2]), 2, 0, [2, 2, 2]),
        (d(&[2, 3]), d(&[3]), -1, 0, [0, 2, 2]),
        (d(&[2, 3]), d(&[3]), -1, 0, [2, 2, 0]),
        (d(&[usize::MAX, 2]), d(&[2]), -1, 0, [2, 2, 2]),
        (vec![1; 9], d(&[1]), -1, 0, [2, 2, 2]),
        (d(&[2, 3]), d(&[3]), -1, 3, [2, 2, 2]),
    ];
    for (xd, yd, axis, k, skews) in cases {
        let (r, out) = elementwise_case(&xd, &yd, axis, k, skews);
        assert!(r.is_err(), "{xd:?} {yd:?} {axis}");
        assert!(untouched(&out), "{xd:?} {yd:?} {axis}: {out:?}");
    }
    // the division by zero is found even when the zero comes last
    let (x, y) = ([1, 2, 3, 4, 5, 6], [1, 2, 0]);
    let mut out = [SENTINEL; 6];
    let r = elementwise_slices(
        BinaryOpKind::Div,
        ActivationKind::Identity,
        &[2, 3],
        &x,
        &[3],
        &y,
        -1,
        &mut out,
    );
    assert!(matches!(
        r,
        Err(ElementwiseError::DivisionByZero { index: 2 })
    ));
    assert!(untouched(&out));
    // the static div form
    let xs = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    let ys = Tensor::<i32, shape![3]>::from_array([1, 0, 1]);
    let mut outs = Tensor::<i32, shape![2, 3]>::full(SENTINEL);
    assert!(xs
        .elementwise_div_into(&ys, Axis::<-1>, Identity, &mut outs)
        .is_err());
    assert!(untouched(outs.as_slice()));

    // select: none, numpy, pdpd axis, pdpd rank, pdpd one-way, data and
    // output lengths, overflow
    let pd = AutoBroadcast::Pdpd { axis: 0 };
    let cases: [(AutoBroadcast, [Vec<usize>; 3], [u8; 4]); 8] = [
        (
            AutoBroadcast::None,
            [d(&[2, 3]), d(&[2, 3]), d(&[3])],
            [2; 4],
        ),
        (
            AutoBroadcast::Numpy,
            [d(&[2, 3]), d(&[4, 3]), d(&[3])],
            [2; 4],
        ),
        (
            AutoBroadcast::Pdpd { axis: 5 },
            [d(&[2]), d(&[2, 3]), d(&[2])],
            [2; 4],
        ),
        (pd, [d(&[2]), d(&[2, 3]), d(&[1, 2, 3])], [2; 4]),
        (pd, [d(&[2]), d(&[1, 3]), d(&[2, 3])], [2; 4]),
        (
            AutoBroadcast::Numpy,
            [d(&[2, 3]), d(&[2, 3]), d(&[3])],
            [2, 0, 2, 2],
        ),
        (
            AutoBroadcast::Numpy,
            [d(&[2, 3]), d(&[2, 3]), d(&[3])],
            [2, 2, 2, 0],
        ),
        (
            AutoBroadcast::Numpy,
            [d(&[usize::MAX, 1]), d(&[1, 3]), d(&[1])],
            [2; 4],
        ),
    ];
    for (mode, [cd, td, ed], skews) in cases {
        let (err, out) = select_case(mode, [&cd, &td, &ed], skews);
        assert!(err, "{mode} {cd:?} {td:?} {ed:?}");
        assert!(untouched(&out), "{mode} {cd:?} {td:?} {ed:?}: {out:?}");
    }

    // multiplex: too few, rank, shapes differ, index shape, data length,
    // output length, index negative, index past the candidates, overflow
    let two = |v: &[usize]| vec![v.to_vec(), v.to_vec()];
    let cases: [MultiplexCase; 9] = [
        (vec![d(&[2, 3])], d(&[2, 1]), vec![0, 0], (2, 2)),
        (two(&[3]), d(&[3, 1]), vec![0, 0, 0], (2, 2)),
        (vec![d(&[2, 3]), d(&[2, 4])], d(&[2, 1]), vec![0, 0], (2, 2)),
        (two(&[2, 3]), d(&[2]), vec![0, 0], (2, 2)),
        (two(&[2, 3]), d(&[2, 1]), vec![0, 1], (0, 2)),
        (two(&[2, 3]), d(&[2, 1]), vec![0, 1], (2, 0)),
        (two(&[2, 3]), d(&[2, 1]), vec![0, -1], (2, 2)),
        (two(&[2, 3]), d(&[2, 1]), vec![1, 2], (2, 2)),
        (two(&[2, usize::MAX]), d(&[2, 1]), vec![0, 1], (2, 2)),
    ];
    for (cands, index_dims, index, skews) in cases {
        let (err, out) = multiplex_case(&cands, &index_dims, &index, skews);
        assert!(err, "{cands:?} {index_dims:?} {index:?}");
        assert!(
            untouched(&out),
            "{cands:?} {index_dims:?} {index:?}: {out:?}"
        );
    }
    // an index value past the candidates in the last row: nothing written
    let a = Tensor::<i32, shape![3, 2]>::full(1);
    let idx = Tensor::<i32, shape![3, 1]>::from_array([[0], [1], [2]]);
    let mut out = Tensor::<i32, shape![3, 2]>::full(SENTINEL);
    assert!(multiplex_into(&[a, a], &idx, &mut out).is_err());
    assert!(untouched(out.as_slice()));
}

// ---- LoD: lod_reset into a caller's level buffer, offsets from lengths ----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `lod_reset_by_data` writes y's int32 data as the new level into the
    /// caller's buffer: on any error (start, end, order, a value past the
    /// rows, a buffer too short) the buffer is as it was; on success it holds
    /// the offsets and nothing past them is written.
    #[test]
    fn lod_reset_by_data_never_half_writes(
        rows in 0usize..6,
        y in prop::collection::vec(-2i32..8, 0..6),
        buf_len in 0usize..8,
        append in any::<bool>(),
    ) {
        use shapecheck::{LodTensor, Offsets};
        let data: Vec<f32> = (0..rows).map(|r| r as f32).collect();
        let dense = Tensor::<f32, shape![Dyn], &[f32]>::with_dims(&[rows], &data[..]).unwrap();
        let top = [0, rows];
        let levels = [Offsets::new(&top)];
        let x = LodTensor::new(dense, &levels[..]).unwrap();
        let yt = Tensor::<i32, shape![Dyn], &[i32]>::with_dims(&[y.len()], &y[..]).unwrap();
        const MARK: usize = 0xDEAD;
        let mut buf = vec![MARK; buf_len];
        let ok = x.lod_reset_by_data(&yt, append, &mut buf[..]).is_ok();
        if ok {
            let want: Vec<usize> = y.iter().map(|&v| v as usize).collect();
            prop_assert_eq!(&buf[..y.len()], &want[..]);
            prop_assert!(buf[y.len()..].iter().all(|&v| v == MARK));
        } else {
            prop_assert!(buf.iter().all(|&v| v == MARK), "half-written: {:?}", buf);
        }
    }

    /// `Lengths::offsets_into` writes the prefix sums into the caller's
    /// buffer, or nothing (a buffer too short, a sum that overflows).
    #[test]
    fn offsets_into_never_half_writes(
        lengths in prop::collection::vec(prop_oneof![0usize..5, Just(usize::MAX / 2)], 0..5),
        buf_len in 0usize..7,
    ) {
        use shapecheck::Lengths;
        const MARK: usize = 0xBEEF;
        let mut buf = vec![MARK; buf_len];
        let ok = Lengths::new(&lengths).offsets_into(0, &mut buf[..]).is_ok();
        if ok {
            let mut acc = 0usize;
            let mut want = vec![0usize];
            for l in &lengths {
                acc += l;
                want.push(acc);
            }
            prop_assert_eq!(&buf[..want.len()], &want[..]);
        } else {
            prop_assert!(buf.iter().all(|&v| v == MARK), "half-written: {:?}", buf);
        }
    }
}
