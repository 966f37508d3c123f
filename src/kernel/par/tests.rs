//! The split loops against the serial ones: every piece boundary, every
//! stride case, walks of rank 1 to 5 after merging.

use super::super::binary as serial;
use super::*;
use crate::shape::Dims;

fn dims(d: &[usize]) -> Dims {
    Dims::new(d).unwrap()
}

/// `d` with the dims in `mask` set to 1 (broadcast).
fn placed(d: &[usize], mask: usize) -> Dims {
    let v: std::vec::Vec<usize> = d
        .iter()
        .enumerate()
        .map(|(i, &n)| if mask >> i & 1 == 1 { 1 } else { n })
        .collect();
    dims(&v)
}

/// Every broadcast pattern of x and y over a few output shapes, each
/// output cut into pieces of every length from 1 to 7 (so pieces start and
/// end inside rows, across rows, and across outer dims): the pieces
/// together equal the serial loop's output.
#[test]
fn pieces_equal_the_serial_loop() {
    let shapes: [&[usize]; 5] = [&[7], &[3, 5], &[2, 3, 4], &[2, 3, 2, 3], &[2, 3, 2, 3, 2]];
    let mut cases = 0;
    for out in shapes {
        let rank = out.len();
        for mx in 0..1usize << rank {
            for my in 0..1usize << rank {
                let (dx, dy) = (placed(out, mx), placed(out, my));
                let w = Walk::new(&dims(out), [&dx, &dy]);
                let x: std::vec::Vec<i64> = (0..dx.numel().unwrap() as i64).collect();
                let y: std::vec::Vec<i64> =
                    (0..dy.numel().unwrap() as i64).map(|v| v * 1000).collect();
                let numel = w.numel();
                let mut want = std::vec![0i64; numel];
                serial(&w, &x, &y, &mut want, |a, b| a + b);
                for piece in 1..=7 {
                    let mut got = std::vec![-1i64; numel];
                    for (i, chunk) in got.chunks_mut(piece).enumerate() {
                        binary_range(&w, &x, &y, chunk, i * piece, &|a, b| a + b);
                    }
                    assert_eq!(
                        got, want,
                        "out {out:?}, x {dx:?}, y {dy:?}, pieces of {piece}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 5000, "{cases}");
}

/// `cursor(row)` then `advance` visits the same row offsets as
/// `for_each_row`, for a walk of rank 4 (the odometer).
#[test]
fn cursor_matches_for_each_row() {
    let out = [2usize, 3, 2, 3];
    let w = Walk::new(&dims(&out), [&placed(&out, 0b0101), &placed(&out, 0b1010)]);
    let mut rows = std::vec::Vec::new();
    w.for_each_row(|o| rows.push(o));
    assert_eq!(rows.len(), w.numel() / w.inner());
    for start in 0..rows.len() {
        let mut c = w.cursor(start);
        for want in &rows[start..] {
            assert_eq!(&c.offsets, want, "from row {start}");
            w.advance(&mut c);
        }
    }
}

/// Above the threshold, in pools of 2 and 3 threads: `par::binary` with
/// an activation-like `after` equals the serial loop then `after`.
#[test]
fn pool_split_equals_serial() {
    // [64, 33, 130] x [33, 1] at axis 1: rows of 130 repeated y, 274560 elements
    let out = [64usize, 33, 130];
    let dy = placed(&out, 0b101);
    let w = Walk::new(&dims(&out), [&dims(&out), &dy]);
    assert!(w.numel() >= PAR_MIN_ELEMS);
    let x: std::vec::Vec<f32> = (0..w.numel()).map(|i| (i % 977) as f32 - 400.0).collect();
    let y: std::vec::Vec<f32> = (0..33).map(|i| i as f32 * 0.5 - 7.0).collect();
    let mut want = std::vec![0f32; w.numel()];
    serial(&w, &x, &y, &mut want, |a, b| a * b);
    want.iter_mut().for_each(|v| *v = v.max(0.0));
    for threads in [2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut got = std::vec![f32::NAN; w.numel()];
        pool.install(|| {
            assert!(splits(w.numel()));
            binary(
                &w,
                &x,
                &y,
                &mut got,
                |a, b| a * b,
                |p: &mut [f32]| p.iter_mut().for_each(|v| *v = v.max(0.0)),
            )
        });
        assert_eq!(got, want, "{threads} threads");
    }
}

#[test]
fn threshold_and_single_thread_pool_do_not_split() {
    assert!(!splits(PAR_MIN_ELEMS - 1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert!(!pool.install(|| splits(PAR_MIN_ELEMS * 4)));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    assert!(pool.install(|| splits(PAR_MIN_ELEMS)));
}

/// `for_row_pieces` hands out whole rows, disjoint, covering the output,
/// with the right first row, for row counts that do not divide evenly.
#[test]
fn row_pieces_cover_the_output() {
    for (rows, row_len, pieces) in [(10, 3, 4), (1, 5, 8), (7, 1, 7), (100, 16, 3)] {
        let mut out = std::vec![usize::MAX; rows * row_len];
        for_row_pieces(&mut out, row_len, pieces, |piece, first_row| {
            assert_eq!(piece.len() % row_len, 0);
            for (i, v) in piece.iter_mut().enumerate() {
                *v = first_row * row_len + i;
            }
        });
        let want: std::vec::Vec<usize> = (0..rows * row_len).collect();
        assert_eq!(out, want, "{rows} rows of {row_len}, {pieces} pieces");
    }
}
