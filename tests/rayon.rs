//! Feature `rayon`: the split kernels give what the serial ones give, in
//! pools of 1 thread (the serial loops), 2 and 3, against naive references.
//! `cargo test -p shapecheck --features rayon --test rayon`.
#![cfg(feature = "rayon")]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
// the ops' errors are large on purpose (no heap); the reference loops index
#![allow(clippy::result_large_err, clippy::needless_range_loop)]

use shapecheck::ops::elementwise::elementwise_slices;
use shapecheck::ops::stitch::{stitch_slices, StitchError, StitchPair};
use shapecheck::prelude::*;
use shapecheck::{dynamic_stitch, ActivationKind, BinaryOpKind, ElementwiseError};

/// xorshift64 from a fixed seed.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// x [64, 33, 130] (274560 elements, above the threshold) times y [33] at
/// axis 1, then relu: every form, in every pool, equals the naive loop.
#[test]
fn elementwise_split_equals_naive() {
    const A: usize = 64;
    const B: usize = 33;
    const C: usize = 130;
    const { assert!(A * B * C >= shapecheck::PAR_MIN_ELEMS) };
    let mut r = rng(7);
    let xs: Vec<f32> = (0..A * B * C)
        .map(|_| (r() >> 40) as f32 / 65536.0 - 128.0)
        .collect();
    let ys: Vec<f32> = (0..B).map(|i| i as f32 * 0.25 - 4.0).collect();
    let mut want = vec![0f32; A * B * C];
    for a in 0..A {
        for b in 0..B {
            for c in 0..C {
                let i = (a * B + b) * C + c;
                want[i] = (xs[i] * ys[b]).max(0.0);
            }
        }
    }
    let x = Tensor::<f32, shape![64, 33, 130], Vec<f32>>::from_vec(Default::default(), xs.clone())
        .unwrap();
    let y = Tensor::<f32, shape![33], Vec<f32>>::from_vec(Default::default(), ys.clone()).unwrap();
    let (dx, dy) = (x.to_dyn(), y.to_dyn());
    for threads in [1, 2, 3] {
        let got = in_pool(threads, || x.elementwise_mul(&y, Axis::<1>, Relu));
        assert_eq!(
            got.as_slice(),
            &want[..],
            "static allocating, {threads} threads"
        );

        let mut out = Tensor::<f32, shape![64, 33, 130], Vec<f32>>::from_vec(
            Default::default(),
            vec![f32::NAN; A * B * C],
        )
        .unwrap();
        in_pool(threads, || {
            x.elementwise_mul_into(&y, Axis::<1>, Relu, &mut out)
        });
        assert_eq!(out.as_slice(), &want[..], "static into, {threads} threads");

        let got = in_pool(threads, || {
            dx.elementwise(BinaryOpKind::Mul, &dy, 1, ActivationKind::Relu)
        })
        .unwrap();
        assert_eq!(got.as_slice(), &want[..], "dynamic, {threads} threads");

        let mut buf = vec![f32::NAN; A * B * C];
        let dims = in_pool(threads, || {
            elementwise_slices(
                BinaryOpKind::Mul,
                ActivationKind::Relu,
                &[A, B, C],
                &xs,
                &[B],
                &ys,
                1,
                &mut buf,
            )
        })
        .unwrap();
        assert_eq!(dims.as_slice(), &[A, B, C]);
        assert_eq!(buf, want, "elementwise_slices, {threads} threads");
    }
}

/// Integer division by zero is reported before anything is written, split
/// or not: the caller's buffer is untouched.
#[test]
fn split_division_by_zero_writes_nothing() {
    let n = 1 << 19;
    let x: Vec<i32> = (0..n as i32).collect();
    let mut y: Vec<i32> = vec![3; 1024];
    y[1000] = 0;
    for threads in [1, 2] {
        let mut buf = vec![-7i32; n];
        let err = in_pool(threads, || {
            elementwise_slices(
                BinaryOpKind::Div,
                ActivationKind::Identity,
                &[n / 1024, 1024],
                &x,
                &[1024],
                &y,
                -1,
                &mut buf,
            )
        })
        .unwrap_err();
        assert_eq!(err, ElementwiseError::DivisionByZero { index: 1000 });
        assert!(buf.iter().all(|&v| v == -7), "{threads} threads");
    }
}

const ROWS: usize = 1 << 15;
const SLICE: usize = 16;
const PART: usize = 12000;

/// 4 pairs of 12000 random indices in 0..2^15 (many repeated, within and
/// across pairs; the largest forced to 2^15 - 1), data `[12000, 16]` each:
/// a 524288-element output, above the threshold.
fn stitch_inputs() -> (Vec<Vec<i32>>, Vec<Vec<f32>>) {
    let mut r = rng(99);
    let mut idx: Vec<Vec<i32>> = (0..4)
        .map(|_| (0..PART).map(|_| (r() % ROWS as u64) as i32).collect())
        .collect();
    idx[2][5] = ROWS as i32 - 1;
    let dat = (0..4)
        .map(|m| {
            (0..PART * SLICE)
                .map(|k| (m * 1_000_000 + k) as f32)
                .collect()
        })
        .collect();
    (idx, dat)
}

/// The naive dynamic_stitch: zeros, then every (m, j) in order.
fn stitch_naive(idx: &[Vec<i32>], dat: &[Vec<f32>]) -> Vec<f32> {
    let rows = idx.iter().flatten().map(|&v| v as usize + 1).max().unwrap();
    let mut out = vec![0f32; rows * SLICE];
    for (i, d) in idx.iter().zip(dat) {
        for (j, &v) in i.iter().enumerate() {
            let v = v as usize;
            out[v * SLICE..(v + 1) * SLICE].copy_from_slice(&d[j * SLICE..(j + 1) * SLICE]);
        }
    }
    out
}

/// Duplicates included, the later one wins in every form and pool (the
/// test data has about 1.5 writes per row, so most rows are written more
/// than once and by pairs far apart).
#[test]
fn stitch_split_equals_naive_with_duplicates() {
    let (idx, dat) = stitch_inputs();
    let want = stitch_naive(&idx, &dat);
    assert_eq!(want.len(), ROWS * SLICE);
    assert!(want.len() >= shapecheck::PAR_MIN_ELEMS);
    // rows written more than once: the test is about them
    let mut seen = vec![0u8; ROWS];
    idx.iter().flatten().for_each(|&v| seen[v as usize] += 1);
    assert!(seen.iter().filter(|&&c| c > 1).count() > 5000);
    assert!(seen.contains(&0), "some rows keep the zero");

    type I = Tensor<i32, shape![12000], Vec<i32>>;
    type D = Tensor<f32, shape![12000, 16], Vec<f32>>;
    let it: Vec<I> = idx
        .iter()
        .map(|v| Tensor::from_vec(Default::default(), v.clone()).unwrap())
        .collect();
    let dt: Vec<D> = dat
        .iter()
        .map(|v| Tensor::from_vec(Default::default(), v.clone()).unwrap())
        .collect();
    let st = dynamic_stitch(&it[0], &dt[0])
        .pair(&it[1], &dt[1])
        .pair(&it[2], &dt[2])
        .pair(&it[3], &dt[3]);
    let di: Vec<DynTensor<i32>> = it.iter().map(|t| t.to_dyn()).collect();
    let dd: Vec<DynTensor<f32>> = dt.iter().map(|t| t.to_dyn()).collect();
    let dyn_pairs: Vec<(&DynTensor<i32>, &DynTensor<f32>)> = di.iter().zip(&dd).collect();
    let slices: Vec<StitchPair<'_, f32>> = idx
        .iter()
        .zip(&dat)
        .map(|(i, d)| StitchPair::new(&[PART], i, &[PART, SLICE], d).unwrap())
        .collect();

    for threads in [1, 2, 3] {
        let got = in_pool(threads, || st.run()).unwrap();
        assert_eq!(got.dims().as_slice(), &[ROWS, SLICE]);
        assert_eq!(
            got.as_slice(),
            &want[..],
            "static allocating, {threads} threads"
        );

        let mut buf = vec![f32::NAN; ROWS * SLICE + 5];
        in_pool(threads, || st.run_into(&mut buf).map(|_| ())).unwrap();
        assert_eq!(
            &buf[..ROWS * SLICE],
            &want[..],
            "static into, {threads} threads"
        );
        assert!(buf[ROWS * SLICE..].iter().all(|v| v.is_nan()));

        let got = in_pool(threads, || DynTensor::dynamic_stitch(&dyn_pairs)).unwrap();
        assert_eq!(got.as_slice(), &want[..], "dynamic, {threads} threads");

        let mut buf = vec![f32::NAN; ROWS * SLICE];
        let dims = in_pool(threads, || stitch_slices(&slices, &mut buf)).unwrap();
        assert_eq!(dims.as_slice(), &[ROWS, SLICE]);
        assert_eq!(buf, want, "stitch_slices, {threads} threads");
    }
}

/// A negative index in the last pair: an error, and nothing written, in
/// every pool (the index scan runs before any split).
#[test]
fn stitch_split_validates_before_writing() {
    let (mut idx, dat) = stitch_inputs();
    idx[3][PART - 1] = -2;
    let slices: Vec<StitchPair<'_, f32>> = idx
        .iter()
        .zip(&dat)
        .map(|(i, d)| StitchPair::new(&[PART], i, &[PART, SLICE], d).unwrap())
        .collect();
    for threads in [1, 2] {
        let mut buf = vec![f32::NAN; ROWS * SLICE];
        let err = in_pool(threads, || stitch_slices(&slices, &mut buf)).unwrap_err();
        assert_eq!(
            err,
            StitchError::NegativeIndex {
                m: 3,
                j: PART - 1,
                value: -2
            }
        );
        assert!(buf.iter().all(|v| v.is_nan()), "{threads} threads");
    }
}

/// `got == want` bit for bit, or the first element that differs (a whole
/// output of 274560 values would bury the message).
#[track_caller]
fn same_values(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = (0..got.len()).find(|&i| got[i].to_bits() != want[i].to_bits()) {
        panic!(
            "{what}: element {i} is {} where {} is expected",
            got[i], want[i]
        );
    }
}

/// Fused expressions over x [64, 33, 130] (above the threshold), in pools
/// of 1, 2 and 3 threads, against naive loops: a tree whose every leaf
/// walks the rows, a static tree with a leaf repeated along them (c [33, 1]),
/// the same tree with a run-time dim (the piece-by-piece path, rows of 130
/// cut at 64), a `map`, and both in-place forms.
#[test]
fn expressions_split_equal_naive() {
    const A: usize = 64;
    const B: usize = 33;
    const C: usize = 130;
    const { assert!(A * B * C >= shapecheck::PAR_MIN_ELEMS) };
    let mut r = rng(11);
    let mut draw = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| (r() >> 40) as f32 / 65536.0 - 128.0)
            .collect()
    };
    let (xs, ys, bs, cs) = (draw(A * B * C), draw(C), draw(B * C), draw(B));
    let x = Tensor::<f32, shape![64, 33, 130], Vec<f32>>::from_vec(Default::default(), xs.clone())
        .unwrap();
    let y = Tensor::<f32, shape![130], Vec<f32>>::from_vec(Default::default(), ys.clone()).unwrap();
    let b =
        Tensor::<f32, shape![33, 130], Vec<f32>>::from_vec(Default::default(), bs.clone()).unwrap();
    let c =
        Tensor::<f32, shape![33, 1], Vec<f32>>::from_vec(Default::default(), cs.clone()).unwrap();
    let xd =
        Tensor::<f32, shape![Dyn, 33, 130], Vec<f32>>::from_vec((Dyn(A), Dim, Dim), xs.clone())
            .unwrap();
    let at = |a: usize, b: usize, c: usize| (a * B + b) * C + c;
    let mut walks = vec![0f32; A * B * C];
    let mut repeats = vec![0f32; A * B * C];
    for i in 0..A {
        for j in 0..B {
            for k in 0..C {
                let n = at(i, j, k);
                walks[n] = (xs[n] * ys[k] + bs[j * C + k]).max(0.0);
                repeats[n] = xs[n] * cs[j] + 1.0;
            }
        }
    }
    let mapped: Vec<f32> = repeats.iter().map(|v| v * 0.5 - 3.0).collect();
    for threads in [1, 2, 3] {
        let mut out = x.clone();
        in_pool(threads, || (x.lazy() * &y + &b).relu().eval_into(&mut out));
        same_values(
            out.as_slice(),
            &walks,
            &format!("every leaf walks, {threads} threads"),
        );
        in_pool(threads, || (x.lazy() * &c + 1.0).eval_into(&mut out));
        same_values(
            out.as_slice(),
            &repeats,
            &format!("c repeats, {threads} threads"),
        );
        let got = in_pool(threads, || (xd.lazy() * &c + 1.0).try_eval().unwrap());
        same_values(
            got.as_slice(),
            &repeats,
            &format!("run-time dim, {threads} threads"),
        );
        let got = in_pool(threads, || {
            (xd.lazy() * &c + 1.0)
                .map(|v| v * 0.5 - 3.0)
                .try_eval()
                .unwrap()
        });
        same_values(got.as_slice(), &mapped, &format!("map, {threads} threads"));
        let mut inplace = x.clone();
        in_pool(threads, || inplace.update(|v| v * &c + 1.0));
        same_values(
            inplace.as_slice(),
            &repeats,
            &format!("update, {threads} threads"),
        );
        let mut inplace = xd.clone();
        in_pool(threads, || inplace.try_update(|v| v * &c + 1.0).unwrap());
        same_values(
            inplace.as_slice(),
            &repeats,
            &format!("try_update, {threads} threads"),
        );
    }
}
