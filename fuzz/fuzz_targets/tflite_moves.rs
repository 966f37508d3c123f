//! `shapecheck-tflite`'s kernels that move data, called directly with
//! their parameters from their `_params` functions: `strided_slice`
//! (begin, end, strides and masks of any value), `slice`, `transpose`,
//! `concatenation`, `split` (`SPLIT_V`'s sizes with a −1), `gather`
//! (indices of any value), `mirror_pad` (paddings past the mirror's
//! limits) and `depth_to_space` / `space_to_depth`, on shapes of 0 to 6
//! dims of 0 to 4, int8 buffers sometimes of the wrong length.
//!
//! Invariants: no panic, no overflow; an error leaves the output
//! untouched and has a message; an accepted call equals a naive
//! reference written plainly here (each output index mapped to the input
//! index it reads).
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    concatenation, concatenation_params, depth_space_params, depth_to_space, gather, gather_params,
    mirror_pad, mirror_pad_params, slice, slice_params, space_to_depth, split, split_v_params,
    strided_slice, strided_slice_params, transpose, transpose_params, Activation, MirrorPadMode,
    StridedSliceOptions, TfliteError,
};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

fn shape(u: &mut Unstructured<'_>) -> Vec<usize> {
    let rank = usize::from(byte(u) % 7);
    (0..rank).map(|_| usize::from(byte(u) % 5)).collect()
}

/// Distinct values, so a wrong read shows.
fn values(n: usize) -> Vec<i8> {
    (0..n).map(|i| (i % 251) as i8).collect()
}

/// A buffer's length: mostly `n`, sometimes one off.
fn length(u: &mut Unstructured<'_>, n: usize) -> usize {
    match byte(u) % 8 {
        0 => n.saturating_sub(1),
        1 => n + 1,
        _ => n,
    }
}

fn ravel(index: &[usize], shape: &[usize]) -> usize {
    index
        .iter()
        .zip(shape)
        .fold(0, |flat, (&i, &d)| flat * d + i)
}

fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &d) in index.iter_mut().zip(shape).rev() {
        *i = flat % d;
        flat /= d;
    }
    index
}

/// Runs `f` into an output of `len` elements: an error leaves it
/// untouched; an accepted call gives `want` (when known).
fn check(len: usize, want: Option<Vec<i8>>, f: impl FnOnce(&mut [i8]) -> Result<(), TfliteError>) {
    let mut out = vec![0x55i8; len];
    match f(&mut out) {
        Err(e) => {
            assert!(out.iter().all(|&y| y == 0x55), "{e}");
            assert!(!e.to_string().is_empty());
        }
        Ok(()) => {
            if let Some(want) = want {
                assert_eq!(out, want);
            }
        }
    }
}

/// The indices one axis of a strided slice visits, as TFLite's loop.
fn axis_indices(dim: i64, b: i64, e: i64, s: i64, masks: (bool, bool, bool)) -> Vec<i64> {
    let clamp = |v: i64| {
        let v = if v < 0 { v + dim } else { v };
        if s > 0 {
            v.clamp(0, dim)
        } else {
            v.clamp(-1, dim - 1)
        }
    };
    let start = match (masks.0, s > 0) {
        (true, true) => 0,
        (true, false) => dim - 1,
        _ => clamp(b),
    };
    if masks.2 {
        return vec![start];
    }
    let stop = match (masks.1, s > 0) {
        (true, true) => dim,
        (true, false) => -1,
        _ => clamp(e),
    };
    let mut out = Vec::new();
    let mut i = start;
    while (s > 0 && i < stop) || (s < 0 && i > stop) {
        out.push(i);
        i += s;
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let a = shape(&mut u);
    let rank = a.len();
    let n: usize = a.iter().product();
    let x = values(n);
    let xs = &x[..length(&mut u, n).min(n)];

    match byte(&mut u) % 8 {
        0 => {
            let begin: Vec<i32> = (0..rank).map(|_| int(&mut u, -6, 6)).collect();
            let end: Vec<i32> = (0..rank).map(|_| int(&mut u, -6, 6)).collect();
            let strides: Vec<i32> = (0..rank).map(|_| int(&mut u, -3, 3)).collect();
            let masks = [0; 3].map(|_| i32::from(byte(&mut u) % 64));
            let o = StridedSliceOptions::new(masks[0], masks[1], masks[2]);
            if let Ok(p) = strided_slice_params(&a, &begin, &end, &strides, &o) {
                let axes: Vec<Vec<i64>> = (0..rank)
                    .map(|k| {
                        let bit = |m: i32| (m >> k) & 1 == 1;
                        axis_indices(
                            a[k] as i64,
                            i64::from(begin[k]),
                            i64::from(end[k]),
                            i64::from(strides[k]),
                            (bit(masks[0]), bit(masks[1]), bit(masks[2])),
                        )
                    })
                    .collect();
                let counts: Vec<usize> = axes.iter().map(Vec::len).collect();
                let total: usize = counts.iter().product();
                let want = (0..total)
                    .map(|flat| {
                        let pick = unravel(flat, &counts);
                        let index: Vec<usize> = pick
                            .iter()
                            .zip(&axes)
                            .map(|(&p, ax)| ax[p] as usize)
                            .collect();
                        x[ravel(&index, &a)]
                    })
                    .collect::<Vec<_>>();
                let len = length(&mut u, total);
                let want = (len == total && xs.len() == n).then_some(want);
                check(len, want, |y| strided_slice(xs, &a, &p, y));
            }
        }
        1 => {
            let begin: Vec<i32> = (0..rank).map(|_| int(&mut u, -1, 5)).collect();
            let size: Vec<i32> = (0..rank).map(|_| int(&mut u, -2, 5)).collect();
            if let Ok(p) = slice_params(&a, &begin, &size) {
                let counts = &p.size[..rank];
                let total: usize = counts.iter().product();
                let want = (0..total)
                    .map(|flat| {
                        let index: Vec<usize> = unravel(flat, counts)
                            .iter()
                            .zip(&p.begin)
                            .map(|(i, b)| i + b)
                            .collect();
                        x[ravel(&index, &a)]
                    })
                    .collect::<Vec<_>>();
                let len = length(&mut u, total);
                let want = (len == total && xs.len() == n).then_some(want);
                check(len, want, |y| slice(xs, &a, &p, y));
            }
        }
        2 => {
            let perm: Vec<i32> = (0..rank).map(|_| int(&mut u, -1, 6)).collect();
            if let Ok(p) = transpose_params(rank, &perm) {
                let out_shape: Vec<usize> = p.perm().iter().map(|&q| a[q]).collect();
                let want = (0..n)
                    .map(|flat| {
                        let o = unravel(flat, &out_shape);
                        let mut i = vec![0; rank];
                        for (k, &q) in p.perm().iter().enumerate() {
                            i[q] = o[k];
                        }
                        x[ravel(&i, &a)]
                    })
                    .collect::<Vec<_>>();
                let len = length(&mut u, n);
                let want = (len == n && xs.len() == n).then_some(want);
                check(len, want, |y| transpose(xs, &a, &p, y));
            }
        }
        3 if rank > 0 => {
            let axis = int(&mut u, -7, 7);
            let mut b = a.clone();
            let k = usize::try_from(axis.rem_euclid(rank as i32)).unwrap_or(0);
            b[k] = usize::from(byte(&mut u) % 4);
            let nb: usize = b.iter().product();
            let xb: Vec<i8> = values(nb).iter().map(|v| v.wrapping_add(100)).collect();
            let q = (0.5, 1);
            if let Ok(p) = concatenation_params(&[q, q], q, axis, rank, Activation::None) {
                let mut out_shape = a.clone();
                out_shape[p.axis] = a[p.axis] + b[p.axis];
                let total: usize = out_shape.iter().product();
                let want = (0..total)
                    .map(|flat| {
                        let mut i = unravel(flat, &out_shape);
                        if i[p.axis] < a[p.axis] {
                            x[ravel(&i, &a)]
                        } else {
                            i[p.axis] -= a[p.axis];
                            xb[ravel(&i, &b)]
                        }
                    })
                    .collect::<Vec<_>>();
                let len = length(&mut u, total);
                let want = (len == total && xs.len() == n).then_some(want);
                check(len, want, |y| concatenation(&[xs, &xb], &[&a, &b], &p, y));
            }
        }
        4 => {
            let axis = int(&mut u, -7, 7);
            let count = usize::from(byte(&mut u) % 5);
            let sizes: Vec<i32> = (0..count).map(|_| int(&mut u, -2, 4)).collect();
            if let Ok(p) = split_v_params(&a, axis, &sizes) {
                let mut outs: Vec<Vec<i8>> = (0..p.count)
                    .map(|k| {
                        let mut s = a.clone();
                        s[p.axis] = p.sizes()[k];
                        vec![0x55i8; s.iter().product()]
                    })
                    .collect();
                let before = outs.clone();
                let mut refs: Vec<&mut [i8]> = outs.iter_mut().map(Vec::as_mut_slice).collect();
                match split(xs, &a, &p, &mut refs) {
                    Err(_) => assert_eq!(outs, before),
                    Ok(()) => {
                        let mut start = 0;
                        for (k, out) in outs.iter().enumerate() {
                            let mut s = a.clone();
                            s[p.axis] = p.sizes()[k];
                            for (flat, &y) in out.iter().enumerate() {
                                let mut i = unravel(flat, &s);
                                i[p.axis] += start;
                                assert_eq!(y, x[ravel(&i, &a)]);
                            }
                            start += p.sizes()[k];
                        }
                    }
                }
            }
        }
        5 if rank > 0 => {
            let axis = int(&mut u, -7, 7);
            let picks = usize::from(byte(&mut u) % 5);
            let indices: Vec<i32> = (0..picks).map(|_| int(&mut u, -1, 5)).collect();
            if let Ok(p) = gather_params(&a, &[picks], axis, 0) {
                let mut out_shape = a.clone();
                out_shape[p.axis] = picks;
                let total: usize = out_shape.iter().product();
                let valid = indices.iter().all(|&i| i >= 0 && (i as usize) < a[p.axis]);
                let want = valid.then(|| {
                    (0..total)
                        .map(|flat| {
                            let mut i = unravel(flat, &out_shape);
                            i[p.axis] = indices[i[p.axis]] as usize;
                            x[ravel(&i, &a)]
                        })
                        .collect::<Vec<_>>()
                });
                let len = length(&mut u, total);
                let want = want.filter(|_| len == total && xs.len() == n);
                check(len, want, |y| gather(xs, &a, &indices[..], &[picks], &p, y));
            }
        }
        6 => {
            let pads: Vec<(usize, usize)> = (0..rank)
                .map(|_| (usize::from(byte(&mut u) % 6), usize::from(byte(&mut u) % 6)))
                .collect();
            let symmetric = byte(&mut u) % 2 == 0;
            let mode = if symmetric {
                MirrorPadMode::Symmetric
            } else {
                MirrorPadMode::Reflect
            };
            if let Ok(p) = mirror_pad_params(mode, &a, &pads) {
                let out_shape: Vec<usize> =
                    (0..rank).map(|k| a[k] + pads[k].0 + pads[k].1).collect();
                let total: usize = out_shape.iter().product();
                let want = (0..total)
                    .map(|flat| {
                        let i: Vec<usize> = unravel(flat, &out_shape)
                            .iter()
                            .enumerate()
                            .map(|(k, &o)| {
                                let (j, d) = (o as i64 - pads[k].0 as i64, a[k] as i64);
                                let r = match (j < 0, j >= d, symmetric) {
                                    (true, _, false) => -j,
                                    (true, _, true) => -j - 1,
                                    (_, true, false) => 2 * (d - 1) - j,
                                    (_, true, true) => 2 * d - 1 - j,
                                    _ => j,
                                };
                                r as usize
                            })
                            .collect();
                        x[ravel(&i, &a)]
                    })
                    .collect::<Vec<_>>();
                let len = length(&mut u, total);
                let want = (len == total && xs.len() == n).then_some(want);
                check(len, want, |y| mirror_pad(xs, &a, &pads, &p, y));
            }
        }
        _ => {
            if let Ok(p) = depth_space_params(int(&mut u, -1, 3)) {
                let len = length(&mut u, n);
                let mut there = vec![0x55i8; len];
                match depth_to_space(xs, &a, &p, &mut there) {
                    Err(_) => assert!(there.iter().all(|&y| y == 0x55)),
                    Ok(()) => {
                        // SPACE_TO_DEPTH undoes it
                        let b = p.block_size;
                        let image = [a[0], a[1] * b, a[2] * b, a[3] / (b * b)];
                        let mut back = vec![0i8; n];
                        space_to_depth(&there, &image, &p, &mut back).unwrap();
                        assert_eq!(&back[..], xs);
                    }
                }
            }
        }
    }
});
