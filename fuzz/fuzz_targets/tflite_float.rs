//! `shapecheck-tflite`'s f32 kernels called directly, as the
//! `Interpreter` calls them: `elu_f32`, `exp_f32`, `neg_f32`, `rsqrt_f32`
//! (any f32 bits), `add_f32`, `sub_f32`, `mul_f32` (with a clamp from the
//! input, reversed or NaN now and then) and `squared_difference_f32` (numpy
//! broadcasting of shapes up to rank 6 and past it, an operand read in
//! place through `Array`), and `mean_f32`, with buffer lengths that
//! sometimes match the shapes and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here, output by output, bit for bit (NaN for NaN). The references of
//! `exp` and `expm1` are f64's, rounded once to f32.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    add_f32, elu_f32, exp_f32, mean_f32, mul_f32, neg_f32, rsqrt_f32, squared_difference_f32,
    sub_f32, Array, TfliteError,
};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

/// An f32: special values, any bits, or plain values around 0.
fn float(u: &mut Unstructured<'_>) -> f32 {
    const SPECIAL: [f32; 12] = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        f32::MAX,
        f32::MIN,
        88.72,
        -103.9,
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

fn unary(u: &mut Unstructured<'_>) {
    let kind = byte(u) % 4;
    let n = usize::from(byte(u) % 64);
    let x = floats(u, n);
    let mut out = vec![1.25f32; length(u, n)];
    let before = out.clone();
    let result = match kind {
        0 => elu_f32(&x, &mut out),
        1 => exp_f32(&x, &mut out),
        2 => neg_f32(&x, &mut out),
        _ => rsqrt_f32(&x, &mut out),
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
                    0 if v < 0.0 => f64::from(v).exp_m1() as f32,
                    0 => v,
                    1 => f64::from(v).exp() as f32,
                    2 => -v,
                    _ => 1.0 / v.sqrt(),
                };
                // ELU is glibc's expm1f (fdlibm's, within one ulp of the
                // correctly rounded value), the others correctly rounded
                let ok = if kind == 0 && v < 0.0 {
                    y.to_bits().abs_diff(want.to_bits()) <= 1 && y.is_sign_negative()
                } else {
                    same(y, want)
                };
                assert!(ok, "kernel {kind} of {v:e}: {y:e}, not {want:e}");
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

fn binary(u: &mut Unstructured<'_>) {
    let kind = byte(u) % 4;
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
    let (lo, hi) = match byte(u) % 4 {
        0 => (float(u), float(u)),
        1 => (0.0, 6.0),
        _ => (f32::MIN, f32::MAX),
    };
    let mut out = vec![1.25f32; length(u, out_len)];
    let before = out.clone();
    let in_place = byte(u) & 1 == 1;
    let result = match (kind, in_place) {
        (0, false) => add_f32(&a[..], &a_shape, &b[..], &b_shape, lo, hi, &mut out),
        (0, true) => add_f32(&a[..], &a_shape, &b_array, &b_shape, lo, hi, &mut out),
        (1, false) => sub_f32(&a[..], &a_shape, &b[..], &b_shape, lo, hi, &mut out),
        (1, true) => sub_f32(&a[..], &a_shape, &b_array, &b_shape, lo, hi, &mut out),
        (2, false) => mul_f32(&a[..], &a_shape, &b[..], &b_shape, lo, hi, &mut out),
        (2, true) => mul_f32(&a[..], &a_shape, &b_array, &b_shape, lo, hi, &mut out),
        (_, false) => squared_difference_f32(&a[..], &a_shape, &b[..], &b_shape, &mut out),
        (_, true) => squared_difference_f32(&a[..], &a_shape, &b_array, &b_shape, &mut out),
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
                let x1 = a[index(&a_shape, &out_shape, k)];
                let x2 = b[index(&b_shape, &out_shape, k)];
                let want = match kind {
                    0 => x1 + x2,
                    1 => x1 - x2,
                    2 => x1 * x2,
                    _ => (x1 - x2) * (x1 - x2),
                };
                // TFLite's std::min(std::max(v, lo), hi); none for
                // SQUARED_DIFFERENCE
                let want = if kind == 3 {
                    want
                } else {
                    let v = if want < lo { lo } else { want };
                    if hi < v {
                        hi
                    } else {
                        v
                    }
                };
                assert!(same(y, want), "element {k}: {y:e}, not {want:e}");
            }
        }
    }
}

fn mean(u: &mut Unstructured<'_>) {
    let (outer, reduced, inner) = (
        usize::from(byte(u) % 5),
        usize::from(byte(u) % 9),
        usize::from(byte(u) % 5),
    );
    let n = length(u, outer * reduced * inner);
    let x = floats(u, n);
    let mut out = vec![1.25f32; length(u, outer * inner)];
    let before = out.clone();
    let valid = x.len() == outer * reduced * inner && out.len() == outer * inner;
    match mean_f32(&x, (outer, reduced, inner), &mut out) {
        Err(e) => {
            assert!(!valid);
            refused(e, &out, &before);
        }
        Ok(()) => {
            assert!(valid);
            for o in 0..outer {
                for i in 0..inner {
                    let mut sum = 0.0f32;
                    for r in 0..reduced {
                        sum += x[(o * reduced + r) * inner + i];
                    }
                    let want = if reduced == 0 {
                        0.0
                    } else {
                        sum / reduced as f32
                    };
                    assert!(same(out[o * inner + i], want));
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 3 {
        0 => unary(&mut u),
        1 => binary(&mut u),
        _ => mean(&mut u),
    }
});
