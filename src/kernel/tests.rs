//! Unit tests of the shared loops: walks, merging and every stride case.

use super::*;
use crate::dims::MAX_RANK;
#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};

fn dims(d: &[usize]) -> Dims {
    Dims::new(d).unwrap()
}

#[test]
fn merges_contiguous_dims() {
    let out = dims(&[256, 128, 256]);
    let y = Dims::from_frame(3, &crate::broadcast::place(&[128, 256], 1, 3));
    let w = Walk::new(&out, [&out, &y]);
    assert_eq!(w.rank, 2);
    assert_eq!(w.inner(), 128 * 256);
    assert_eq!(w.inner_strides(), [1, 1]);
}

#[test]
fn broadcast_along_inner_dim() {
    let out = dims(&[2, 3]);
    let x = dims(&[2, 1]);
    let w = Walk::new(&out, [&out, &x]);
    let a = [1, 2, 3, 4, 5, 6];
    let b = [10, 20];
    let mut o = [0; 6];
    binary(&w, &a, &b, &mut o, |p, q| p + q);
    assert_eq!(o, [11, 12, 13, 24, 25, 26]);
}

#[test]
fn odometer_walks_outer_dims() {
    let out = dims(&[2, 3, 2]);
    let x = dims(&[2, 1, 2]);
    let w = Walk::new(&out, [&out, &x]);
    let a: [i32; 12] = core::array::from_fn(|i| i as i32);
    let b = [100, 200, 300, 400];
    let mut o = [0; 12];
    binary(&w, &a, &b, &mut o, |p, q| p + q);
    assert_eq!(
        o,
        [100, 201, 102, 203, 104, 205, 306, 407, 308, 409, 310, 411]
    );
}

/// Every stride case of `select`: out [2, 3, 4] with each operand
/// broadcast along any subset of its dims (512 combinations), against a
/// naive reference indexing each operand by the output's multi-index.
#[test]
fn select_every_broadcast_pattern() {
    let out_dims = [2usize, 3, 4];
    let placed = |mask: usize| -> [usize; 3] {
        core::array::from_fn(|i| if mask >> i & 1 == 1 { 1 } else { out_dims[i] })
    };
    let flat = |d: &[usize; 3], i: [usize; 3]| {
        let j: [usize; 3] = core::array::from_fn(|k| if d[k] == 1 { 0 } else { i[k] });
        (j[0] * d[1] + j[1]) * d[2] + j[2]
    };
    for mc in 0..8 {
        for mt in 0..8 {
            for me in 0..8 {
                let (dc, dt, de) = (placed(mc), placed(mt), placed(me));
                let nc: usize = dc.iter().product();
                let nt: usize = dt.iter().product();
                let ne: usize = de.iter().product();
                let c: [bool; 24] = core::array::from_fn(|i| (i * 7 + mc) % 3 != 0);
                let t: [i32; 24] = core::array::from_fn(|i| i as i32 + 1);
                let e: [i32; 24] = core::array::from_fn(|i| -(i as i32) - 1);
                let (c, t, e) = (&c[..nc], &t[..nt], &e[..ne]);
                let w = Walk::new(&dims(&out_dims), [&dims(&dc), &dims(&dt), &dims(&de)]);
                let mut o = [0; 24];
                select(&w, c, t, e, &mut o);
                let mut want = [0; 24];
                for (n, slot) in want.iter_mut().enumerate() {
                    let i = [n / 12, n / 4 % 3, n % 4];
                    *slot = if c[flat(&dc, i)] {
                        t[flat(&dt, i)]
                    } else {
                        e[flat(&de, i)]
                    };
                }
                assert_eq!(o, want, "cond {dc:?}, then {dt:?}, else {de:?}");
            }
        }
    }
}

/// `binary_streaming` against `binary` on every broadcast of `y` over an
/// output `[3, r, c]` with rows short (streamed by `binary`'s loops) and
/// of `stream::MIN_ROW` and a little more (streamed: whole pieces and a
/// remainder), `x` at offsets 0 to 3 of
/// its buffer and the output at offsets 0 to 5 of its own (every 16-byte
/// alignment of an f32 row), and for 1- and 8-byte elements.
#[test]
#[cfg(feature = "alloc")]
fn binary_streaming_writes_what_binary_writes() {
    let long = stream::MIN_ROW;
    for &(r, c) in &[
        (1, 1),
        (2, 3),
        (1, long),
        (2, long + 1),
        (1, long + 65),
        (3, 150),
    ] {
        let out_dims = dims(&[3, r, c]);
        for ybits in 0..8u32 {
            let yd: Vec<usize> = [3, r, c]
                .iter()
                .enumerate()
                .map(|(k, &d)| if ybits >> k & 1 == 1 { 1 } else { d })
                .collect();
            let w = Walk::new(&out_dims, [&out_dims, &dims(&yd)]);
            let numel = 3 * r * c;
            let ylen: usize = yd.iter().product();
            for (xoff, ooff) in [(0, 0), (1, 3), (3, 5), (2, 1)] {
                let xs: Vec<f32> = (0..numel + xoff).map(|v| v as f32 * 0.5 - 7.0).collect();
                let ys: Vec<f32> = (0..ylen).map(|v| 1.0 + v as f32).collect();
                let mut want = vec![-1.0f32; numel + ooff + 4];
                let mut got = want.clone();
                binary(
                    &w,
                    &xs[xoff..],
                    &ys,
                    &mut want[ooff..ooff + numel],
                    |a, b| a * b,
                );
                binary_streaming(
                    &w,
                    &xs[xoff..],
                    &ys,
                    &mut got[ooff..ooff + numel],
                    |a, b| a * b,
                );
                assert_eq!(got, want, "[3, {r}, {c}] y {yd:?} offsets {xoff} {ooff}");

                let xb: Vec<u8> = (0..numel + xoff).map(|v| v as u8).collect();
                let yb: Vec<u8> = (0..ylen).map(|v| (v * 3) as u8).collect();
                let mut want = vec![9u8; numel + ooff + 4];
                let mut got = want.clone();
                binary(
                    &w,
                    &xb[xoff..],
                    &yb,
                    &mut want[ooff..ooff + numel],
                    u8::wrapping_add,
                );
                binary_streaming(
                    &w,
                    &xb[xoff..],
                    &yb,
                    &mut got[ooff..ooff + numel],
                    u8::wrapping_add,
                );
                assert_eq!(got, want, "u8 [3, {r}, {c}] y {yd:?} offsets {xoff} {ooff}");
            }
        }
    }
}

/// `select` against a naive loop for every broadcast of cond, then and
/// else over an output `[3, r, c]` (each dim of each operand 1 or full),
/// with rows from 1 to past `SHORT_ROW` (a cond that repeats along a short
/// row is blended from both sides, along a long one copied from one), and
/// a cond that changes from row to row.
#[test]
#[cfg(feature = "alloc")]
fn select_writes_what_a_naive_loop_writes() {
    for &(r, c) in &[
        (1, 1),
        (2, 3),
        (3, 4),
        (2, SHORT_ROW),
        (2, SHORT_ROW + 1),
        (1, 40),
    ] {
        let full = [3, r, c];
        let out_dims = dims(&full);
        let numel = 3 * r * c;
        let shape_of = |bits: u32| -> Vec<usize> {
            full.iter()
                .enumerate()
                .map(|(k, &d)| if bits >> k & 1 == 1 { 1 } else { d })
                .collect()
        };
        // the element of an operand of shape `s` at output index (i, j, k)
        let at = |s: &[usize], i: usize, j: usize, k: usize| {
            let (i, j, k) = (i % s[0], j % s[1], k % s[2]);
            (i * s[1] + j) * s[2] + k
        };
        for cbits in 0..8u32 {
            for tbits in 0..8u32 {
                for ebits in 0..8u32 {
                    let (cs, ts, es) = (shape_of(cbits), shape_of(tbits), shape_of(ebits));
                    let cn: usize = cs.iter().product();
                    let tn: usize = ts.iter().product();
                    let en: usize = es.iter().product();
                    let cv: Vec<bool> = (0..cn).map(|v| (v * 7 + 3) % 5 < 2).collect();
                    let tv: Vec<i32> = (0..tn).map(|v| v as i32 + 1).collect();
                    let ev: Vec<i32> = (0..en).map(|v| -(v as i32) - 1).collect();
                    let w = Walk::new(&out_dims, [&dims(&cs), &dims(&ts), &dims(&es)]);
                    let mut got = vec![0i32; numel];
                    select(&w, &cv, &tv, &ev, &mut got);
                    let mut want = Vec::with_capacity(numel);
                    for i in 0..3 {
                        for j in 0..r {
                            for k in 0..c {
                                want.push(if cv[at(&cs, i, j, k)] {
                                    tv[at(&ts, i, j, k)]
                                } else {
                                    ev[at(&es, i, j, k)]
                                });
                            }
                        }
                    }
                    assert_eq!(
                        got, want,
                        "[3, {r}, {c}]: cond {cs:?} then {ts:?} else {es:?}"
                    );
                }
            }
        }
    }
}

/// A fused expression's walk (`nested_from_frame`, the outer dims kept one
/// loop each) reads what the merged walk reads: for out `[2, 1, 3, 4, 5]`
/// and each of two operands broadcast along any subset of its dims, every
/// output element's operand offsets, from the walk's rows, against the
/// element's multi-index. Also the loop counts: as many as the outer dims
/// (up to 4), or the merged walk's.
#[cfg(feature = "alloc")]
#[test]
fn nested_walk_reads_what_the_merged_walk_reads() {
    let out = [2usize, 1, 3, 4, 5];
    let frame = |d: &[usize; 5]| -> [usize; MAX_RANK] {
        core::array::from_fn(|i| d.get(i).copied().unwrap_or(1))
    };
    let placed = |mask: usize| -> [usize; 5] {
        core::array::from_fn(|i| if mask >> i & 1 == 1 { 1 } else { out[i] })
    };
    let flat = |d: &[usize; 5], i: [usize; 5]| {
        (0..5).fold(0, |acc, k| acc * d[k] + if d[k] == 1 { 0 } else { i[k] })
    };
    // every element's offsets, from `for_each_row` and from
    // `for_each_numbered_row` (which must agree)
    let reads = |w: &Walk<2>| {
        let (mut seen, mut numbered) = (Vec::new(), Vec::new());
        let strides = w.inner_strides();
        let row = |off: [usize; 2], to: &mut Vec<[usize; 2]>| {
            for j in 0..w.inner() {
                to.push([off[0] + j * strides[0], off[1] + j * strides[1]]);
            }
        };
        w.for_each_row(|off| row(off, &mut seen));
        w.for_each_numbered_row(|off, _| row(off, &mut numbered));
        assert_eq!(seen, numbered);
        seen
    };
    let mut expected = Vec::new();
    for a in 0..32 {
        for b in 0..32 {
            let (da, db) = (placed(a), placed(b));
            expected.clear();
            for i in 0..120 {
                let ix = [i / 60, 0, i / 20 % 3, i / 5 % 4, i % 5];
                expected.push([flat(&da, ix), flat(&db, ix)]);
            }
            let ops = [frame(&da), frame(&db)];
            let merged = Walk::from_frame(5, frame(&out), ops);
            let nested = Walk::nested_from_frame(5, frame(&out), ops);
            assert_eq!(reads(&merged), expected, "merged, masks {a} {b}");
            assert_eq!(reads(&nested), expected, "nested, masks {a} {b}");
            assert_eq!(nested.inner(), merged.inner());
            for w in [&merged, &nested] {
                let mut numbers = Vec::new();
                w.for_each_numbered_row(|_, r| numbers.push(r));
                let rows: Vec<usize> = (0..120 / w.inner()).collect();
                assert_eq!(numbers, rows, "row numbers, masks {a} {b}");
            }
            assert!(nested.rank >= merged.rank && nested.rank <= 4.max(merged.rank));
        }
    }
}

/// F3's walk: `[2,3,4,5] x [3,4,1] + [5]` keeps the loops of 2, 3 and 4
/// around its rows of 5, where the merged walk makes one loop of 12.
#[test]
fn nested_walk_of_f3() {
    let f = |d: &[usize]| -> [usize; MAX_RANK] {
        core::array::from_fn(|i| d.get(i).copied().unwrap_or(1))
    };
    let ops = [f(&[2, 3, 4, 5]), f(&[1, 3, 4, 1]), f(&[1, 1, 1, 5])];
    let merged = Walk::from_frame(4, f(&[2, 3, 4, 5]), ops);
    let nested = Walk::nested_from_frame(4, f(&[2, 3, 4, 5]), ops);
    assert_eq!((merged.rank, merged.dim(1)), (3, 12));
    assert_eq!(nested.rank, 4);
    assert_eq!(
        [nested.dim(0), nested.dim(1), nested.dim(2), nested.dim(3)],
        [2, 3, 4, 5]
    );
    assert_eq!(nested.inner_strides(), [1, 0, 1]);
}

/// Row numbers and offsets on a walk of rank 5 (no dims merge: the second
/// operand broadcasts along every other dim), which runs on the odometer.
#[cfg(feature = "alloc")]
#[test]
fn numbered_rows_on_the_odometer() {
    let f = |d: &[usize]| -> [usize; MAX_RANK] {
        core::array::from_fn(|i| d.get(i).copied().unwrap_or(1))
    };
    let out = f(&[2, 3, 2, 3, 2]);
    let w = Walk::from_frame(5, out, [out, f(&[2, 1, 2, 1, 2])]);
    assert_eq!(w.rank, 5);
    let mut seen = Vec::new();
    w.for_each_numbered_row(|off, r| seen.push((r, off)));
    let expected: Vec<(usize, [usize; 2])> = (0..36)
        .map(|r| {
            let ix = [r / 18, r / 6 % 3, r / 3 % 2, r % 3];
            (r, [r * 2, (ix[0] * 2 + ix[2]) * 2])
        })
        .collect();
    assert_eq!(seen, expected);
}
