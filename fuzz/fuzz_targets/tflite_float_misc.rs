//! `shapecheck-tflite`'s f32 kernels of issue 79's misc ops called
//! directly, as the `Interpreter` calls them: `maximum` and `minimum` on
//! f32, `div_f32` (with a clamp from the input, reversed or NaN now and
//! then), broadcast over shapes up to rank 4; `reduce_max_f32` over any
//! axes; `resize_bilinear_f32` with either flag, or both (refused); and
//! `batch_matmul_f32` with broadcast batches, `adj_x` / `adj_y` and an
//! inner size that sometimes disagrees; with buffer lengths that
//! sometimes match the shapes and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here from TFLite's formulas, output by output, bit for bit (NaN for
//! NaN; `maximum` and `minimum` to the NaN's bits).
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    batch_matmul_f32, div_f32, maximum, minimum, reduce_axes, reduce_max_f32, resize_bilinear_f32,
    ResizeDims, ResizeParams, TfliteError,
};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

/// An f32: special values, any bits, or plain values around 0.
fn float(u: &mut Unstructured<'_>) -> f32 {
    const SPECIAL: [f32; 9] = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        1e-45,
        f32::MAX,
        f32::MIN,
    ];
    match byte(u) % 8 {
        0 => SPECIAL[usize::from(byte(u)) % SPECIAL.len()],
        1 | 2 => f32::from_bits(u.arbitrary::<u32>().unwrap_or(0)),
        _ => f32::from(u.arbitrary::<i16>().unwrap_or(0)) / 256.0,
    }
}

fn floats(u: &mut Unstructured<'_>, len: usize) -> Vec<f32> {
    (0..len).map(|_| float(u)).collect()
}

/// `len`, or one less, or two more.
fn length(u: &mut Unstructured<'_>, len: usize) -> usize {
    match byte(u) % 8 {
        0 => len.saturating_sub(1),
        1 => len + 2,
        _ => len,
    }
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// An error's invariants: a message, the output untouched.
fn refused(e: TfliteError, out: &[f32], before: &[f32]) {
    assert!(!e.to_string().is_empty());
    assert!(out.iter().zip(before).all(|(a, b)| a.to_bits() == b.to_bits()));
}

/// Every index of `shape`, row-major.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in shape {
        all = all
            .into_iter()
            .flat_map(|p| {
                (0..d).map(move |i| {
                    let mut v = p.clone();
                    v.push(i);
                    v
                })
            })
            .collect();
    }
    all
}

/// A shape of rank 0 to 4, dims 1 to 3.
fn shape(u: &mut Unstructured<'_>) -> Vec<usize> {
    let rank = usize::from(byte(u) % 5);
    (0..rank).map(|_| 1 + usize::from(byte(u) % 3)).collect()
}

/// Numpy's broadcast of two shapes, or `None`.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let at = |v: &[usize], k: usize| (k + v.len()).checked_sub(rank).map_or(1, |i| v[i]);
    (0..rank)
        .map(|k| match (at(a, k), at(b, k)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

fn flat(shape: &[usize], out: &[usize], index: &[usize]) -> usize {
    let skip = out.len() - shape.len();
    shape
        .iter()
        .enumerate()
        .fold(0, |f, (axis, &d)| f * d + if d == 1 { 0 } else { index[skip + axis] })
}

fn binary(u: &mut Unstructured<'_>) {
    let (sa, sb) = (shape(u), shape(u));
    let a = floats(u, sa.iter().product());
    let b = floats(u, sb.iter().product());
    let out_shape = broadcast(&sa, &sb);
    let n = out_shape.as_ref().map_or(4, |s| s.iter().product());
    let len = length(u, n);
    let valid = out_shape.is_some() && len == n;
    let (lo, hi) = match byte(u) % 4 {
        0 => (f32::MIN, f32::MAX),
        1 => (0.0, 6.0),
        2 => (float(u), float(u)),
        _ => (f32::NEG_INFINITY, f32::INFINITY),
    };
    for kind in 0..3 {
        let mut out = vec![7.5f32; len];
        let before = out.clone();
        let r = match kind {
            0 => maximum(&a[..], &sa, &b[..], &sb, &mut out),
            1 => minimum(&a[..], &sa, &b[..], &sb, &mut out),
            _ => div_f32(&a[..], &sa, &b[..], &sb, lo, hi, &mut out),
        };
        match (r, &out_shape) {
            (Ok(()), Some(os)) if valid => {
                for (k, i) in indices(os).iter().enumerate() {
                    let (x, y) = (a[flat(&sa, os, i)], b[flat(&sb, os, i)]);
                    let want = match kind {
                        0 => if x > y { x } else { y },
                        1 => if x < y { x } else { y },
                        _ => {
                            let q = x / y;
                            let q = if q < lo { lo } else { q };
                            if hi < q { hi } else { q }
                        }
                    };
                    if kind < 2 {
                        assert_eq!(out[k].to_bits(), want.to_bits(), "{kind}: {x} {y}");
                    } else {
                        assert!(same(out[k], want), "div: {x} / {y} in [{lo}, {hi}]");
                    }
                }
            }
            (Err(e), _) if !valid => refused(e, &out, &before),
            (r, _) => panic!("{kind}: {sa:?} {sb:?} out {len}: valid {valid}, got {r:?}"),
        }
    }
}

fn reduce(u: &mut Unstructured<'_>) {
    let rank = 1 + usize::from(byte(u) % 4);
    let dims: Vec<usize> = (0..rank).map(|_| 1 + usize::from(byte(u) % 4)).collect();
    let reduced: Vec<bool> = (0..rank).map(|_| byte(u) % 2 == 0).collect();
    let axes_list: Vec<i32> = (0..rank).filter(|&k| reduced[k]).map(|k| k as i32).collect();
    let Ok(axes) = reduce_axes(&dims, &axes_list) else {
        panic!("{dims:?} {axes_list:?}")
    };
    let n: usize = dims.iter().product();
    let outputs: usize = (0..rank).filter(|&k| !reduced[k]).map(|k| dims[k]).product();
    let x_len = length(u, n);
    let x = floats(u, x_len);
    let len = length(u, outputs);
    let valid = x.len() == n && len == outputs;
    let mut out = vec![7.5f32; len];
    let before = out.clone();
    match reduce_max_f32(&x, &axes, &mut out) {
        Ok(()) if valid => {
            let mut want = vec![f32::MIN; outputs];
            for (k, index) in indices(&dims).iter().enumerate() {
                let o = (0..rank)
                    .filter(|&a| !reduced[a])
                    .fold(0, |o, a| o * dims[a] + index[a]);
                want[o] = if x[k] > want[o] { x[k] } else { want[o] };
            }
            assert!(out.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()));
        }
        Err(e) if !valid => refused(e, &out, &before),
        r => panic!("reduce_max {dims:?} {reduced:?}: valid {valid}, got {r:?}"),
    }
}

fn interpolation(y: usize, scale: f32, half: bool, size: usize) -> (f32, usize, usize) {
    let v = y as f32;
    let s = if half { (v + 0.5) * scale - 0.5 } else { v * scale };
    let lo = (s.floor() as i32).max(0) as usize;
    let hi = (s.ceil() as i32).min(size as i32 - 1) as usize;
    (s, lo, hi)
}

fn bilinear(u: &mut Unstructured<'_>) {
    let mut size = || 1 + usize::from(byte(u) % 7);
    let (n, h, w, c, oh, ow) = (size(), size(), size(), size(), size(), size());
    let n = n.min(2);
    let (align, half) = (byte(u) % 3 == 0, byte(u) % 2 == 0);
    let x_len = length(u, n * h * w * c);
    let x = floats(u, x_len);
    let len = length(u, n * oh * ow * c);
    let valid = !(align && half) && x.len() == n * h * w * c && len == n * oh * ow * c;
    let dims = ResizeDims {
        batches: n,
        input_height: h,
        input_width: w,
        depth: c,
        output_height: oh,
        output_width: ow,
    };
    let params = ResizeParams {
        align_corners: align,
        half_pixel_centers: half,
    };
    let mut out = vec![7.5f32; len];
    let before = out.clone();
    match resize_bilinear_f32(&x, dims, params, &mut out) {
        Ok(()) if valid => {
            let scale = |i: usize, o: usize| {
                if align && o > 1 {
                    (i - 1) as f32 / (o - 1) as f32
                } else {
                    i as f32 / o as f32
                }
            };
            let at = |b: usize, y: usize, xx: usize, k: usize| x[((b * h + y) * w + xx) * c + k];
            let mut k_out = 0;
            for b in 0..n {
                for y in 0..oh {
                    let (iy, y0, y1) = interpolation(y, scale(h, oh), half, h);
                    for xx in 0..ow {
                        let (ix, x0, x1) = interpolation(xx, scale(w, ow), half, w);
                        for k in 0..c {
                            let (dy, dx) = (iy - y0 as f32, ix - x0 as f32);
                            let want = at(b, y0, x0, k) * (1.0 - dy) * (1.0 - dx)
                                + at(b, y1, x0, k) * dy * (1.0 - dx)
                                + at(b, y0, x1, k) * (1.0 - dy) * dx
                                + at(b, y1, x1, k) * dy * dx
                                + 0.0;
                            assert!(same(out[k_out], want), "bilinear at {k_out}");
                            k_out += 1;
                        }
                    }
                }
            }
        }
        Err(e) if !valid => refused(e, &out, &before),
        r => panic!("bilinear {dims:?} {params:?}: valid {valid}, got {r:?}"),
    }
}

fn matmul(u: &mut Unstructured<'_>) {
    let batches: [(&[usize], &[usize]); 5] = [
        (&[], &[]),
        (&[2], &[2]),
        (&[3], &[1]),
        (&[1, 2], &[3, 1]),
        (&[2], &[3]),
    ];
    let (bl, br) = batches[usize::from(byte(u)) % batches.len()];
    let (m, k, n) = (
        1 + usize::from(byte(u) % 4),
        usize::from(byte(u) % 5),
        1 + usize::from(byte(u) % 4),
    );
    let k2 = if byte(u) % 8 == 0 { k + 1 } else { k };
    let (adj_x, adj_y) = (byte(u) % 2 == 0, byte(u) % 2 == 0);
    let ls: Vec<usize> = bl.iter().copied().chain(if adj_x { [k, m] } else { [m, k] }).collect();
    let rs: Vec<usize> = br.iter().copied().chain(if adj_y { [n, k2] } else { [k2, n] }).collect();
    let a = floats(u, ls.iter().product());
    let b = floats(u, rs.iter().product());
    let batch = broadcast(bl, br);
    let count = batch.as_ref().map_or(1, |s| s.iter().product::<usize>());
    let len = length(u, count * m * n);
    let valid = batch.is_some() && k == k2 && len == count * m * n;
    let mut out = vec![7.5f32; len];
    let before = out.clone();
    match batch_matmul_f32(&a, &ls, &b, &rs, adj_x, adj_y, &mut out) {
        Ok(()) if valid => {
            let batch = batch.unwrap_or_default();
            let mut at = 0;
            for index in indices(&batch) {
                let (ao, bo) = (flat(bl, &batch, &index), flat(br, &batch, &index));
                for i in 0..m {
                    for j in 0..n {
                        let mut total = 0.0f32;
                        for t in 0..k {
                            let x = a[ao * m * k + if adj_x { t * m + i } else { i * k + t }];
                            let y = b[bo * k * n + if adj_y { j * k + t } else { t * n + j }];
                            total += x * y;
                        }
                        assert!(same(out[at], total), "matmul at {at}");
                        at += 1;
                    }
                }
            }
        }
        Err(e) if !valid => refused(e, &out, &before),
        r => panic!("batch_matmul {ls:?} {rs:?}: valid {valid}, got {r:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 4 {
        0 => binary(&mut u),
        1 => reduce(&mut u),
        2 => bilinear(&mut u),
        _ => matmul(&mut u),
    }
});
