//! Feature `matrixmultiply`: matmuls of at least 64³ multiply-adds in f32
//! and f64 go through matrixmultiply; each form (static, `try_`,
//! `DynTensor`, slices; transposes, vectors, broadcast batches) against a
//! reference summed in f64, within float rounding, and bit for bit where
//! every sum is exact (small integers).
#![cfg(feature = "matrixmultiply")]
// MatmulError carries its shapes inline (no heap), which clippy finds large.
#![allow(clippy::result_large_err)]

use shapecheck::ops::matmul::{matmul_output_dims, matmul_slices};
use shapecheck::prelude::*;
use shapecheck::{NoTrans, Trans};

/// The reference: one matrix product per batch, summed in f64 in k order.
fn reference(xd: &[usize], x: &[f64], yd: &[usize], y: &[f64], tx: bool, ty: bool) -> Vec<f64> {
    let od = matmul_output_dims(xd, yd, tx, ty).unwrap();
    let od = od.as_slice();
    // the batch dims of the output, and each operand's matrix index for
    // output batch `b` (a dim of 1, or a missing one, repeated)
    let ob = &od[..od.len() - (xd.len() > 1) as usize - (yd.len() > 1) as usize];
    let mat_of = |d: &[usize], b: usize| -> usize {
        let db = &d[..d.len().saturating_sub(2)];
        let (mut rem, mut idx, mut stride) = (b, 0, 1);
        for p in (0..ob.len()).rev() {
            let i = rem % ob[p];
            rem /= ob[p];
            if let Some(q) = (p + db.len()).checked_sub(ob.len()) {
                if db[q] != 1 {
                    idx += i * stride;
                }
                stride *= db[q];
            }
        }
        idx
    };
    let at = |d: &[usize], t: bool, v: &[f64], b: usize, i: usize, j: usize, is_x: bool| -> f64 {
        match d.len() {
            1 => v[if is_x { j } else { i }],
            r => {
                let (a, c) = (d[r - 2], d[r - 1]);
                let (ii, jj) = if t { (j, i) } else { (i, j) };
                v[mat_of(d, b) * a * c + ii * c + jj]
            }
        }
    };
    let (m, k) = match xd.len() {
        1 => (1, xd[0]),
        r if tx => (xd[r - 1], xd[r - 2]),
        r => (xd[r - 2], xd[r - 1]),
    };
    let n = match yd.len() {
        1 => 1,
        r if ty => yd[r - 2],
        r => yd[r - 1],
    };
    let total: usize = od.iter().product();
    let batches = total / (m * n);
    let mut out = Vec::with_capacity(total);
    for b in 0..batches {
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0.0;
                for p in 0..k {
                    acc += at(xd, tx, x, b, i, p, true) * at(yd, ty, y, b, p, j, false);
                }
                out.push(acc);
            }
        }
    }
    out
}

fn data(len: usize, seed: u64, ints: bool) -> Vec<f64> {
    (0..len as u64)
        .map(|i| {
            let v = (i + 1)
                .wrapping_mul(seed | 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                >> 40;
            if ints {
                (v % 9) as f64 - 4.0
            } else {
                (v % 20001) as f64 / 10000.0 - 1.0
            }
        })
        .collect()
}

const CASES: [(&[usize], &[usize], bool, bool); 6] = [
    (&[70, 64], &[64, 65], false, false),
    (&[64, 70], &[64, 65], true, false),
    (&[70, 64], &[65, 64], false, true),
    (&[64, 70], &[65, 64], true, true),
    // broadcast batch: [2, 1, 64, 64] x [3, 64, 64] -> [2, 3, 64, 64]
    (&[2, 1, 64, 64], &[3, 64, 64], false, false),
    // one row of x against a big y (M = 1): 1 · 512 · 600 >= 64³
    (&[512], &[512, 600], false, false),
];

#[test]
fn f32_and_f64_match_the_reference() {
    for (xd, yd, tx, ty) in CASES {
        for ints in [true, false] {
            let x = data(xd.iter().product(), 3, ints);
            let y = data(yd.iter().product(), 5, ints);
            let want = reference(xd, &x, yd, &y, tx, ty);
            let mut o64 = vec![0.0f64; want.len()];
            matmul_slices(xd, &x, yd, &y, tx, ty, &mut o64).unwrap();
            let (x32, y32): (Vec<f32>, Vec<f32>) = (
                x.iter().map(|&v| v as f32).collect(),
                y.iter().map(|&v| v as f32).collect(),
            );
            let mut o32 = vec![0.0f32; want.len()];
            matmul_slices(xd, &x32, yd, &y32, tx, ty, &mut o32).unwrap();
            for (i, &w) in want.iter().enumerate() {
                if ints {
                    // every product and partial sum is a small integer: exact in any order
                    assert_eq!((o64[i], o32[i] as f64), (w, w), "{xd:?} {yd:?} [{i}]");
                } else {
                    assert!(
                        (o64[i] - w).abs() <= 1e-12 * (1.0 + w.abs()) * 64.0,
                        "f64 {xd:?} {yd:?} [{i}]"
                    );
                    assert!(
                        (o32[i] as f64 - w).abs() <= 1e-5 * 64.0,
                        "f32 {xd:?} {yd:?} [{i}]: {} vs {w}",
                        o32[i]
                    );
                }
            }
            // the DynTensor form computes the same bits as the slices form
            let dx = DynTensor::new(xd, x32.clone()).unwrap();
            let dy = DynTensor::new(yd, y32.clone()).unwrap();
            assert_eq!(dx.matmul(&dy, tx, ty).unwrap().as_slice(), &o32[..]);
        }
    }
}

#[test]
fn the_static_forms_take_it_too() {
    let x = Tensor::<f32, shape![64, 70], Vec<f32>>::from_vec(
        Default::default(),
        data(64 * 70, 7, true).iter().map(|&v| v as f32).collect(),
    )
    .unwrap();
    let y = Tensor::<f32, shape![65, 64], Vec<f32>>::from_vec(
        Default::default(),
        data(65 * 64, 9, true).iter().map(|&v| v as f32).collect(),
    )
    .unwrap();
    let z = x.matmul_t(&y, Trans, Trans);
    let mut want = vec![0.0f32; 70 * 65];
    matmul_slices(
        &[64, 70],
        x.as_slice(),
        &[65, 64],
        y.as_slice(),
        true,
        true,
        &mut want,
    )
    .unwrap();
    assert_eq!(z.as_slice(), &want[..]);
    let w =
        Tensor::<f32, shape![70, 65], Vec<f32>>::from_vec(Default::default(), vec![1.0; 70 * 65])
            .unwrap();
    let _ = (w.matmul_t(&w, NoTrans, Trans), NoTrans);
}
