//! `shapecheck-tflite`'s f32 activations called directly, as the
//! `Interpreter` calls them (issue 79): `relu_f32`, `relu6_f32`,
//! `hard_swish_f32`, `leaky_relu_f32`, `logistic_f32`, `tanh_f32` (any f32
//! bits), `softmax_f32`, `log_softmax_f32` and `l2_normalization_f32`
//! (rows of any depth, 0 and depths that do not divide the input
//! included), and `prelu_f32` (numpy broadcasting of shapes up to rank 6
//! and past it, the slopes read in place through `Array`), with buffer
//! lengths that sometimes match and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here, output by output, bit for bit (NaN for NaN), but `tanh`, which is
//! held within two ulps of f64's `tanh` rounded once (glibc's `tanhf`,
//! whose bits it has, is fdlibm's).
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    exp_value, hard_swish_f32, l2_normalization_f32, leaky_relu_f32, log_softmax_f32,
    logistic_f32, prelu_f32, relu6_f32, relu_f32, softmax_f32, tanh_f32, Array, TfliteError,
};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

/// An f32: special values, any bits, or plain values around 0.
fn float(u: &mut Unstructured<'_>) -> f32 {
    const SPECIAL: [f32; 14] = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        1e-45,
        f32::MAX,
        f32::MIN,
        6.0,
        -3.0,
        -9.0,
        16.619_047,
        1e-7,
    ];
    match byte(u) % 8 {
        0 => SPECIAL[usize::from(byte(u)) % SPECIAL.len()],
        1 | 2 => f32::from_bits(u.arbitrary::<u32>().unwrap_or(0)),
        _ => f32::from(u.arbitrary::<i16>().unwrap_or(0)) / 256.0,
    }
}

/// `len`, or one less, or two more.
fn length(u: &mut Unstructured<'_>, len: usize) -> usize {
    match byte(u) % 8 {
        0 => len.saturating_sub(1),
        1 => len.saturating_add(2),
        _ => len,
    }
    .min(1 << 12)
}

fn floats(u: &mut Unstructured<'_>, len: usize) -> Vec<f32> {
    (0..len).map(|_| float(u)).collect()
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// An error's invariants: a message, the output untouched.
fn refused(e: TfliteError, out: &[f32], before: &[f32]) {
    assert!(!e.to_string().is_empty());
    assert!(out
        .iter()
        .zip(before)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
}

/// TFLite's `std::max(a, b)`: `a < b ? b : a`.
fn std_max(a: f32, b: f32) -> f32 {
    if a < b {
        b
    } else {
        a
    }
}

/// TFLite's `std::min(a, b)`: `b < a ? b : a`.
fn std_min(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

fn unary(u: &mut Unstructured<'_>) {
    let kind = byte(u) % 6;
    let n = usize::from(byte(u) % 64);
    let x = floats(u, n);
    let alpha = float(u);
    let mut out = vec![1.25f32; length(u, n)];
    let before = out.clone();
    let result = match kind {
        0 => relu_f32(&x, &mut out),
        1 => relu6_f32(&x, &mut out),
        2 => hard_swish_f32(&x, &mut out),
        3 => leaky_relu_f32(&x, alpha, &mut out),
        4 => logistic_f32(&x, &mut out),
        _ => tanh_f32(&x, &mut out),
    };
    let valid = out.len() == x.len();
    match result {
        Err(e) => {
            assert!(!valid);
            refused(e, &out, &before);
        }
        Ok(()) => {
            assert!(valid);
            for (&v, &y) in x.iter().zip(&out) {
                let want = match kind {
                    0 => {
                        if v < 0.0 {
                            0.0
                        } else {
                            v
                        }
                    }
                    1 => v.clamp(0.0, 6.0),
                    2 => v * std_min(6.0, std_max(0.0, v + 3.0)) / 6.0,
                    3 => {
                        if v > 0.0 {
                            v
                        } else {
                            v * alpha
                        }
                    }
                    4 => {
                        if v > 16.619_047 {
                            1.0
                        } else if v < -9.0 {
                            exp_value(v)
                        } else {
                            1.0 / (1.0 + exp_value(-v))
                        }
                    }
                    _ => f64::from(v).tanh() as f32,
                };
                let ok = if kind == 5 {
                    y.to_bits().abs_diff(want.to_bits()) <= 2 || (v.is_nan() && y.is_nan())
                } else {
                    same(y, want)
                };
                assert!(ok, "kernel {kind} of {v:e}: {y:e}, not {want:e}");
            }
        }
    }
}

fn rows(u: &mut Unstructured<'_>) {
    let kind = byte(u) % 3;
    let depth = usize::from(byte(u) % 12);
    let count = usize::from(byte(u) % 5);
    let n = length(u, depth * count);
    let x = floats(u, n);
    let beta = match byte(u) % 4 {
        0 => float(u),
        _ => 1.0,
    };
    let mut out = vec![1.25f32; length(u, n)];
    let before = out.clone();
    let result = match kind {
        0 => softmax_f32(&x, depth, beta, &mut out),
        1 => log_softmax_f32(&x, depth, &mut out),
        _ => l2_normalization_f32(&x, depth, &mut out),
    };
    let valid = out.len() == x.len() && (x.is_empty() || (depth > 0 && x.len() % depth == 0));
    match result {
        Err(e) => {
            assert!(!valid);
            refused(e, &out, &before);
        }
        Ok(()) => {
            assert!(valid);
            for (row, ys) in x.chunks(depth.max(1)).zip(out.chunks(depth.max(1))) {
                let max = row.iter().fold(f32::MIN, |m, &v| std_max(m, v));
                let want: Vec<f32> = match kind {
                    0 => {
                        let exps: Vec<f32> =
                            row.iter().map(|&v| exp_value((v - max) * beta)).collect();
                        let mut sum = 0.0f32;
                        for &e in &exps {
                            sum += e;
                        }
                        exps.iter().map(|&e| e / sum).collect()
                    }
                    1 => {
                        let mut sum = 0.0f32;
                        for &v in row {
                            sum += exp_value(v - max);
                        }
                        // the logarithm correctly rounded, as ours
                        let log_sum = f64::from(sum).ln() as f32;
                        row.iter().map(|&v| v - max - log_sum).collect()
                    }
                    _ => {
                        let mut squared = 0.0f32;
                        for &v in row {
                            squared += v * v;
                        }
                        let norm = std_max(squared.sqrt(), 1e-6);
                        row.iter().map(|&v| v / norm).collect()
                    }
                };
                for (&y, &w) in ys.iter().zip(&want) {
                    assert!(same(y, w), "kernel {kind}, row {row:?}: {y:e}, not {w:e}");
                }
            }
        }
    }
}

/// The shape two shapes broadcast to, or `None` (numpy's rule, at most 6
/// dims).
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    if rank > 6 {
        return None;
    }
    let at = |s: &[usize], k: usize| {
        if k + s.len() >= rank {
            s[k + s.len() - rank]
        } else {
            1
        }
    };
    (0..rank)
        .map(|k| match (at(a, k), at(b, k)) {
            (x, y) if x == y => Some(x),
            (x, 1) => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

fn index(shape: &[usize], out_shape: &[usize], flat_out: usize) -> usize {
    // the output's multi-index, innermost first, right-aligned into shape
    let mut rest = flat_out;
    let mut multi = vec![0usize; out_shape.len()];
    for (k, &d) in out_shape.iter().enumerate().rev() {
        multi[k] = rest % d;
        rest /= d;
    }
    let skip = out_shape.len() - shape.len();
    shape.iter().enumerate().fold(0, |flat, (k, &d)| {
        flat * d + if d == 1 { 0 } else { multi[skip + k] }
    })
}

fn prelu(u: &mut Unstructured<'_>) {
    let shape = |u: &mut Unstructured<'_>| -> Vec<usize> {
        let rank = usize::from(byte(u) % 8);
        (0..rank).map(|_| usize::from(byte(u) % 4)).collect()
    };
    let (a_shape, b_shape) = (shape(u), shape(u));
    let a_len: usize = a_shape.iter().product();
    let b_len: usize = b_shape.iter().product();
    let out_shape = broadcast(&a_shape, &b_shape);
    let out_len: usize = out_shape.as_deref().map_or(0, |s| s.iter().product());
    let (a_count, b_count) = (length(u, a_len), length(u, b_len));
    let a = floats(u, a_count);
    let b = floats(u, b_count);
    let b_bytes: Vec<u8> = b.iter().flat_map(|v| v.to_le_bytes()).collect();
    let b_array = Array::<f32>::new(&b_bytes).expect("whole f32s");
    let mut out = vec![1.25f32; length(u, out_len)];
    let before = out.clone();
    let result = if byte(u) & 1 == 1 {
        prelu_f32(&a[..], &a_shape, &b_array, &b_shape, &mut out)
    } else {
        prelu_f32(&a[..], &a_shape, &b[..], &b_shape, &mut out)
    };
    let valid = out_shape.is_some() && a.len() == a_len && b.len() == b_len && out.len() == out_len;
    match result {
        Err(e) => {
            assert!(!valid, "{a_shape:?} {b_shape:?}: {e}");
            refused(e, &out, &before);
        }
        Ok(()) => {
            assert!(valid);
            let out_shape = out_shape.unwrap_or_default();
            for (k, &y) in out.iter().enumerate() {
                let x = a[index(&a_shape, &out_shape, k)];
                let alpha = b[index(&b_shape, &out_shape, k)];
                // TFLite Micro's ternary, no clamp
                let want = if x >= 0.0 { x } else { x * alpha };
                assert!(same(y, want), "element {k}: {y:e}, not {want:e}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 3 {
        0 => unary(&mut u),
        1 => rows(&mut u),
        _ => prelu(&mut u),
    }
});
