//! `shapecheck-tflite`'s element-wise kernels called directly, as the
//! `Interpreter` calls them: the binary ones broadcast as `ADD`
//! (`mul_int8`, `sub_int8`, `div_int8`, `maximum`, `minimum`,
//! `squared_difference_int8`, `prelu_int8`; shapes up to rank 6 and past
//! it, the second operand sometimes read in place through `Array`) and the
//! one-input ones (`relu_int8`, `relu6_int8`, `leaky_relu_int8`,
//! `hard_swish_int8`, `tanh_int8`, `rsqrt_int8`, `requantize_int8`), and
//! the int16 ones of TFLite's 16x8 mode (`mul_int16`, `tanh_int16`,
//! `requantize_int16`), with their parameters either derived by the op's
//! `_params` from scales and zero points from the input (NaN, infinities,
//! 0, subnormals included) or written field by field (anything at all),
//! and buffer lengths that sometimes match and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here, output by output (exactly where the kernel is plain fixed point;
//! within one output step of the real function for `DIV`, and for
//! `HARD_SWISH`, `TANH` and `RSQRT` with their `_params`' constants; the
//! int16 `TANH` within 3 steps of 2^−15). The references share only
//! `multiply_by_quantized_multiplier` with the crate.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    div_int8, div_params, hard_swish_int8, hard_swish_params, leaky_relu_int8, leaky_relu_params,
    maximum, minimum, mul_int16, mul_int8, mul_params, mul_params_int16,
    multiply_by_quantized_multiplier, prelu_int8, prelu_params, relu6_int8, relu6_params,
    relu_int8, relu_params, requantize_int16, requantize_int8, requantize_params,
    requantize_params_int16, rsqrt_int8, rsqrt_params, squared_difference_int8,
    squared_difference_params, sub_int8, sub_params, tanh_int16, tanh_int8, tanh_params,
    tanh_params_int16, Array, DivParams, HardSwishParams, LeakyReluParams, MulParams, PreluParams,
    QuantizedMultiplier, Relu6Params, ReluParams, RequantizeParams, Rounding, RsqrtParams,
    SquaredDifferenceParams, SubParams, TanhInt16Params, TanhParams, TfliteError,
};

// --- decoding ----------------------------------------------------------------

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

/// A zero point or clamp end: in int8's range, sometimes anything.
fn zero_point(u: &mut Unstructured<'_>) -> i32 {
    if byte(u) < 230 {
        int(u, -128, 127)
    } else {
        u.arbitrary::<i32>().unwrap_or(0)
    }
}

fn multiplier(u: &mut Unstructured<'_>) -> QuantizedMultiplier {
    QuantizedMultiplier::from_parts(u.arbitrary().unwrap_or(0), int(u, -40, 40))
}

/// A scale: mostly a plain positive one, sometimes anything (NaN, ±∞, 0,
/// negative, subnormal, any bits).
fn scale(u: &mut Unstructured<'_>) -> f32 {
    match byte(u) % 10 {
        0 => f32::from_bits(u.arbitrary::<u32>().unwrap_or(0)),
        1 => [0.0, -1.0, f32::NAN, f32::INFINITY, 1e-45, f32::MAX][usize::from(byte(u)) % 6],
        2 => 1.0 / 128.0,
        3 => (f32::from(byte(u)) - 64.0).exp2(),
        _ => f32::from(u.arbitrary::<u16>().unwrap_or(1).max(1)) / 4096.0,
    }
}

/// The length a buffer of `len` elements gets: mostly `len`, sometimes
/// one less or two more (capped: a huge count is a wrong length).
fn length(u: &mut Unstructured<'_>, len: Option<usize>) -> usize {
    let Some(len) = len else {
        return usize::from(byte(u) % 8);
    };
    let len = match byte(u) % 8 {
        0 => len.saturating_sub(1),
        1 => len.saturating_add(2),
        _ => len,
    };
    len.min(1 << 14)
}

/// `len` int8 values: the input's bytes while they last, then a pattern
/// that runs over every int8 value.
fn int8s(u: &mut Unstructured<'_>, len: usize) -> Vec<i8> {
    let taken = u.bytes(len.min(u.len())).unwrap_or(&[]);
    let pattern = (taken.len()..len).map(|i| (i.wrapping_mul(37) + 11) as u8);
    taken
        .iter()
        .copied()
        .chain(pattern)
        .map(|b| b as i8)
        .collect()
}

/// A shape of 0 to 7 dims, mostly 1 to 4 each (a rare 0 or larger one).
fn shape(u: &mut Unstructured<'_>) -> Vec<usize> {
    let rank = match byte(u) % 16 {
        0 => 7,
        r => usize::from(r % 5),
    };
    (0..rank)
        .map(|_| match byte(u) {
            0..=79 => 1,
            80..=249 => usize::from(byte(u) % 4) + 1,
            250..=252 => 0,
            _ => usize::from(byte(u) % 12),
        })
        .collect()
}

/// A shape that often broadcasts with `other`: a suffix of it with some
/// dims made 1, or any shape.
fn shape_against(u: &mut Unstructured<'_>, other: &[usize]) -> Vec<usize> {
    if byte(u) % 4 == 0 {
        return shape(u);
    }
    let rank = usize::from(byte(u)) % (other.len() + 1);
    other[other.len() - rank..]
        .iter()
        .map(|&d| if byte(u) % 3 == 0 { 1 } else { d })
        .collect()
}

// --- the naive model ---------------------------------------------------------

/// The element count of `shape` as the crate's checks take it: the
/// product from the innermost dim outward, `None` if one of those partial
/// products overflows.
fn count(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .rev()
        .try_fold(1usize, |c, &d| c.checked_mul(d))
}

/// Dim `k` of `shape` right-aligned in `rank` dims (1 where it has none).
fn aligned(shape: &[usize], rank: usize, k: usize) -> usize {
    let skip = rank - shape.len();
    if k < skip {
        1
    } else {
        shape[k - skip]
    }
}

/// The numpy broadcast of two shapes of at most 6 dims, or `None`.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    if rank > 6 {
        return None;
    }
    (0..rank)
        .map(|k| {
            let (x, y) = (aligned(a, rank, k), aligned(b, rank, k));
            if x == y || y == 1 {
                Some(x)
            } else if x == 1 {
                Some(y)
            } else {
                None
            }
        })
        .collect()
}

/// The flat offset in a tensor of `shape` of output element `k` of
/// `out` (dims of 1 broadcast).
fn offset(mut k: usize, out: &[usize], shape: &[usize]) -> usize {
    let mut index = vec![0; out.len()];
    for (i, &d) in index.iter_mut().zip(out).rev() {
        *i = k % d;
        k /= d;
    }
    let skip = out.len() - shape.len();
    let mut at = 0;
    for (&i, &d) in index[skip..].iter().zip(shape) {
        at = at * d + if d == 1 { 0 } else { i };
    }
    at
}

/// The contract of every call: `valid` says whether it must be accepted;
/// an error has a message and leaves the output as it was (`untouched`).
fn accepted(what: &str, result: Result<(), TfliteError>, valid: bool, untouched: bool) -> bool {
    match result {
        Ok(()) => {
            assert!(
                valid,
                "{what}: accepted arguments the model says are invalid"
            );
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert!(!valid, "{what}: refused valid arguments: {e}");
            assert!(untouched, "{what}: an error wrote the output ({e})");
            false
        }
    }
}

fn in_int8(v: i32) -> bool {
    (-128..=127).contains(&v)
}

/// TFLite Micro's `MultiplyByQuantizedMultiplier` (double rounding).
fn mul_q(x: i32, m: QuantizedMultiplier) -> i32 {
    multiply_by_quantized_multiplier(x, m, Rounding::Double)
}

fn out8(v: i32, lo: i32, hi: i32) -> i8 {
    v.max(lo).min(hi) as i8
}

// --- the binary ops ----------------------------------------------------------

/// A binary op with its parameters, and the per-element reference where
/// it is exact (`None`: DIV, checked against the real quotient).
enum Binary {
    Mul(MulParams),
    Sub(SubParams),
    Div(DivParams),
    Maximum,
    Minimum,
    SquaredDifference(SquaredDifferenceParams),
    Prelu(PreluParams),
}

fn binary_params(u: &mut Unstructured<'_>) -> Option<Binary> {
    let derive = byte(u) % 2 == 0;
    let (s1, s2, so) = (scale(u), scale(u), scale(u));
    let (z1, z2, zo) = (zero_point(u), zero_point(u), zero_point(u));
    let (lo, hi) = match byte(u) % 4 {
        0 => (zero_point(u), zero_point(u)),
        1 => (zo.clamp(-128, 127), 127),
        _ => (-128, 127),
    };
    let op = match byte(u) % 7 {
        0 if derive => Binary::Mul(mul_params(s1, z1, s2, z2, so, zo, lo, hi).ok()?),
        0 => Binary::Mul(MulParams {
            input1_zero_point: z1,
            input2_zero_point: z2,
            output_zero_point: zo,
            output_multiplier: multiplier(u),
            output_min: lo,
            output_max: hi,
        }),
        1 if derive => Binary::Sub(sub_params(s1, z1, s2, z2, so, zo, lo, hi).ok()?),
        1 => Binary::Sub(SubParams {
            input1_zero_point: z1,
            input1_multiplier: multiplier(u),
            input2_zero_point: z2,
            input2_multiplier: multiplier(u),
            output_zero_point: zo,
            output_multiplier: multiplier(u),
            output_min: lo,
            output_max: hi,
        }),
        2 if derive => Binary::Div(div_params(s1, z1, s2, z2, so, zo, lo, hi).ok()?),
        2 => Binary::Div(DivParams {
            input1_zero_point: z1,
            input2_zero_point: z2,
            output_zero_point: zo,
            output_multiplier: multiplier(u),
            output_min: lo,
            output_max: hi,
        }),
        3 => Binary::Maximum,
        4 => Binary::Minimum,
        5 if derive => {
            Binary::SquaredDifference(squared_difference_params(s1, z1, s2, z2, so, zo).ok()?)
        }
        5 => Binary::SquaredDifference(SquaredDifferenceParams {
            input1_zero_point: z1,
            input1_multiplier: multiplier(u),
            input2_zero_point: z2,
            input2_multiplier: multiplier(u),
            output_zero_point: zo,
            output_multiplier: multiplier(u),
        }),
        _ if derive => Binary::Prelu(prelu_params(s1, z1, s2, z2, so, zo).ok()?),
        _ => Binary::Prelu(PreluParams {
            input_zero_point: z1,
            alpha_zero_point: z2,
            output_zero_point: zo,
            identity_multiplier: multiplier(u),
            alpha_multiplier: multiplier(u),
        }),
    };
    Some(op)
}

/// Whether `op`'s parameters are valid, as the model says.
fn binary_params_valid(op: &Binary) -> bool {
    let clamp = |lo: i32, hi: i32| in_int8(lo) && in_int8(hi) && lo <= hi;
    match op {
        Binary::Mul(p) => {
            in_int8(p.input1_zero_point)
                && in_int8(p.input2_zero_point)
                && in_int8(p.output_zero_point)
                && clamp(p.output_min, p.output_max)
        }
        Binary::Sub(p) => {
            in_int8(p.input1_zero_point)
                && in_int8(p.input2_zero_point)
                && in_int8(p.output_zero_point)
                && clamp(p.output_min, p.output_max)
                && p.input1_multiplier.shift() <= 0
                && p.input2_multiplier.shift() <= 0
                && p.output_multiplier.shift() <= 0
        }
        Binary::Div(p) => {
            in_int8(p.input1_zero_point)
                && in_int8(p.input2_zero_point)
                && in_int8(p.output_zero_point)
                && clamp(p.output_min, p.output_max)
                && p.output_multiplier.shift() <= 22
        }
        Binary::Maximum | Binary::Minimum => true,
        Binary::SquaredDifference(p) => {
            in_int8(p.input1_zero_point)
                && in_int8(p.input2_zero_point)
                && in_int8(p.output_zero_point)
                && p.input1_multiplier.shift() <= 0
                && p.input2_multiplier.shift() <= 0
        }
        Binary::Prelu(p) => {
            in_int8(p.input_zero_point)
                && in_int8(p.alpha_zero_point)
                && in_int8(p.output_zero_point)
        }
    }
}

/// The reference of one output element (DIV: the real quotient, rounded).
fn binary_one(op: &Binary, x1: i8, x2: i8) -> f64 {
    let (x1, x2) = (i32::from(x1), i32::from(x2));
    let exact = |v: i8| f64::from(v);
    match op {
        Binary::Mul(p) => exact(out8(
            mul_q(
                (x1 - p.input1_zero_point) * (x2 - p.input2_zero_point),
                p.output_multiplier,
            )
            .saturating_add(p.output_zero_point),
            p.output_min,
            p.output_max,
        )),
        Binary::Sub(p) => {
            let s1 = mul_q((x1 - p.input1_zero_point) << 20, p.input1_multiplier);
            let s2 = mul_q((x2 - p.input2_zero_point) << 20, p.input2_multiplier);
            exact(out8(
                mul_q(s1 - s2, p.output_multiplier).saturating_add(p.output_zero_point),
                p.output_min,
                p.output_max,
            ))
        }
        Binary::Div(p) => {
            let n = f64::from(x1 - p.input1_zero_point);
            let d = f64::from(x2 - p.input2_zero_point);
            let m = f64::from(p.output_multiplier.multiplier())
                * f64::from(p.output_multiplier.shift() - 31).exp2();
            ((n / d * m).round() + f64::from(p.output_zero_point))
                .clamp(f64::from(p.output_min), f64::from(p.output_max))
        }
        Binary::Maximum => exact(if x1 > x2 { x1 as i8 } else { x2 as i8 }),
        Binary::Minimum => exact(if x1 < x2 { x1 as i8 } else { x2 as i8 }),
        Binary::SquaredDifference(p) => {
            let s1 = mul_q((x1 - p.input1_zero_point) << 7, p.input1_multiplier);
            let s2 = mul_q((x2 - p.input2_zero_point) << 7, p.input2_multiplier);
            let d = s1 - s2;
            exact(out8(
                mul_q(d.wrapping_mul(d), p.output_multiplier).saturating_add(p.output_zero_point),
                -128,
                127,
            ))
        }
        Binary::Prelu(p) => {
            let v = x1 - p.input_zero_point;
            let y = if v >= 0 {
                mul_q(v, p.identity_multiplier)
            } else {
                mul_q(v * (x2 - p.alpha_zero_point), p.alpha_multiplier)
            };
            exact(out8(y.saturating_add(p.output_zero_point), -128, 127))
        }
    }
}

fn run_binary<B: shapecheck_tflite::Values<i8> + ?Sized>(
    op: &Binary,
    a: &[i8],
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    out: &mut [i8],
) -> Result<(), TfliteError> {
    match op {
        Binary::Mul(p) => mul_int8(a, a_shape, b, b_shape, p, out),
        Binary::Sub(p) => sub_int8(a, a_shape, b, b_shape, p, out),
        Binary::Div(p) => div_int8(a, a_shape, b, b_shape, p, out),
        Binary::Maximum => maximum(a, a_shape, b, b_shape, out),
        Binary::Minimum => minimum(a, a_shape, b, b_shape, out),
        Binary::SquaredDifference(p) => squared_difference_int8(a, a_shape, b, b_shape, p, out),
        Binary::Prelu(p) => prelu_int8(a, a_shape, b, b_shape, p, out),
    }
}

fn binary(u: &mut Unstructured<'_>) {
    let Some(op) = binary_params(u) else {
        return; // the op's _params refused its scales: no panic is the check
    };
    let a_shape = shape(u);
    let b_shape = shape_against(u, &a_shape);
    let (a_shape, b_shape) = if byte(u) % 2 == 0 {
        (a_shape, b_shape)
    } else {
        (b_shape, a_shape)
    };
    let out_shape = broadcast(&a_shape, &b_shape);
    let a_len = length(u, count(&a_shape));
    let b_len = length(u, count(&b_shape));
    let out_len = length(u, out_shape.as_deref().and_then(count));
    let a = int8s(u, a_len);
    let b = int8s(u, b_len);
    let in_place = byte(u) % 2 == 0;
    let mut out = vec![0x5A; out_len];
    let result = if in_place {
        let bytes: Vec<u8> = b.iter().map(|&v| v as u8).collect();
        let array = Array::<i8>::new(&bytes).expect("bytes");
        run_binary(&op, &a, &a_shape, &array, &b_shape, &mut out)
    } else {
        run_binary(&op, &a, &a_shape, &b[..], &b_shape, &mut out)
    };
    let divisor_zero = match &op {
        Binary::Div(p) => b.iter().any(|&x| i32::from(x) == p.input2_zero_point),
        _ => false,
    };
    let valid = binary_params_valid(&op)
        && out_shape.is_some()
        && Some(a.len()) == count(&a_shape)
        && Some(b.len()) == count(&b_shape)
        && Some(out.len()) == out_shape.as_deref().and_then(count)
        && !divisor_zero;
    let untouched = out.iter().all(|&y| y == 0x5A);
    if !accepted("binary", result, valid, untouched) {
        return;
    }
    let out_shape = out_shape.unwrap_or_default();
    for (k, &y) in out.iter().enumerate() {
        let x1 = a[offset(k, &out_shape, &a_shape)];
        let x2 = b[offset(k, &out_shape, &b_shape)];
        let want = binary_one(&op, x1, x2);
        let tolerance = if matches!(op, Binary::Div(_)) {
            1.0
        } else {
            0.0
        };
        assert!(
            (f64::from(y) - want).abs() <= tolerance,
            "element {k}: {x1}, {x2} gave {y}, the reference {want}"
        );
    }
}

// --- the one-input ops -------------------------------------------------------

enum Unary {
    Relu(ReluParams),
    Relu6(Relu6Params),
    LeakyRelu(LeakyReluParams),
    HardSwish(HardSwishParams, Option<[(f32, i32); 2]>),
    Tanh(TanhParams, Option<(f32, i32)>),
    Rsqrt(RsqrtParams, Option<[(f32, i32); 2]>),
    Requantize(RequantizeParams),
}

fn unary_params(u: &mut Unstructured<'_>) -> Option<Unary> {
    let derive = byte(u) % 2 == 0;
    let (si, so) = (scale(u), scale(u));
    let (zi, zo) = (zero_point(u), zero_point(u));
    let op = match byte(u) % 7 {
        0 if derive => Unary::Relu(relu_params(si, zi, so, zo).ok()?),
        0 => Unary::Relu(ReluParams {
            input_zero_point: zi,
            output_zero_point: zo,
            output_multiplier: multiplier(u),
            output_min: zero_point(u),
            output_max: zero_point(u),
        }),
        1 if derive => Unary::Relu6(relu6_params(si, zi).ok()?),
        1 => Unary::Relu6(Relu6Params {
            lower: zi,
            upper: zo,
        }),
        2 if derive => {
            let alpha = f32::from(u.arbitrary::<i8>().unwrap_or(0)) / 32.0;
            Unary::LeakyRelu(leaky_relu_params(si, zi, so, zo, alpha).ok()?)
        }
        2 => Unary::LeakyRelu(LeakyReluParams {
            input_zero_point: zi,
            output_zero_point: zo,
            identity_multiplier: multiplier(u),
            alpha_multiplier: multiplier(u),
            alpha_negative: byte(u) % 2 == 0,
        }),
        3 if derive => Unary::HardSwish(
            hard_swish_params(si, zi, so, zo).ok()?,
            Some([(si, zi), (so, zo)]),
        ),
        3 => Unary::HardSwish(
            HardSwishParams {
                input_zero_point: zi,
                output_zero_point: zo,
                output_multiplier: u.arbitrary().unwrap_or(0),
                output_exponent: int(u, -20, 3),
                reluish_multiplier: u.arbitrary().unwrap_or(0),
                reluish_exponent: int(u, -20, 20),
            },
            None,
        ),
        4 if derive => {
            let so = if byte(u) % 8 == 0 { so } else { 1.0 / 128.0 };
            let zo = if byte(u) % 8 == 0 { zo } else { 0 };
            Unary::Tanh(tanh_params(si, zi, so, zo).ok()?, Some((si, zi)))
        }
        4 => Unary::Tanh(
            TanhParams {
                input_zero_point: zi,
                input_range_radius: u.arbitrary().unwrap_or(0),
                input_multiplier: multiplier(u),
            },
            None,
        ),
        5 if derive => Unary::Rsqrt(
            rsqrt_params(si, zi, so, zo).ok()?,
            Some([(si, zi), (so, zo)]),
        ),
        5 => Unary::Rsqrt(
            RsqrtParams {
                input_zero_point: zi,
                output_zero_point: zo,
                output_multiplier: multiplier(u),
            },
            None,
        ),
        _ if derive => Unary::Requantize(requantize_params(si, zi, so, zo).ok()?),
        _ => Unary::Requantize(RequantizeParams {
            input_zero_point: zi,
            output_zero_point: zo,
            multiplier: multiplier(u),
        }),
    };
    Some(op)
}

fn unary_params_valid(op: &Unary) -> bool {
    match op {
        Unary::Relu(p) => {
            in_int8(p.input_zero_point)
                && in_int8(p.output_zero_point)
                && in_int8(p.output_min)
                && in_int8(p.output_max)
                && p.output_min <= p.output_max
        }
        Unary::Relu6(p) => in_int8(p.lower) && in_int8(p.upper) && p.lower <= p.upper,
        Unary::LeakyRelu(p) => in_int8(p.input_zero_point) && in_int8(p.output_zero_point),
        Unary::HardSwish(p, _) => {
            in_int8(p.input_zero_point)
                && in_int8(p.output_zero_point)
                && (-15..=0).contains(&p.output_exponent)
                && (-15..=15).contains(&p.reluish_exponent)
        }
        Unary::Tanh(p, _) => {
            in_int8(p.input_zero_point)
                && p.input_range_radius >= 0
                && p.input_multiplier.shift() >= 0
        }
        Unary::Rsqrt(p, _) => {
            in_int8(p.input_zero_point)
                && in_int8(p.output_zero_point)
                && p.output_multiplier.shift() >= -11
        }
        Unary::Requantize(p) => in_int8(p.input_zero_point) && in_int8(p.output_zero_point),
    }
}

/// The reference of one output, and the tolerance (`None`: only no panic
/// is checked, for hand-written constants of the approximated functions).
fn unary_one(op: &Unary, x: i8) -> Option<(f64, f64)> {
    let xi = i32::from(x);
    let exact = |v: i8| Some((f64::from(v), 0.0));
    match op {
        Unary::Relu(p) => exact(out8(
            mul_q(xi - p.input_zero_point, p.output_multiplier).saturating_add(p.output_zero_point),
            p.output_min,
            p.output_max,
        )),
        Unary::Relu6(p) => exact(out8(xi, p.lower, p.upper)),
        Unary::LeakyRelu(p) => {
            let v = xi - p.input_zero_point;
            let y = if v >= 0 {
                mul_q(v, p.identity_multiplier)
            } else if p.alpha_negative {
                mul_q(v, p.alpha_multiplier).wrapping_neg()
            } else {
                mul_q(v, p.alpha_multiplier)
            };
            exact(out8(y.saturating_add(p.output_zero_point), -128, 127))
        }
        Unary::Requantize(p) => exact(out8(
            mul_q(xi - p.input_zero_point, p.multiplier).saturating_add(p.output_zero_point),
            -128,
            127,
        )),
        Unary::HardSwish(_, Some([(si, zi), (so, zo)])) => {
            let r = f64::from(*si) * f64::from(xi - zi);
            let y = r * (r + 3.0).clamp(0.0, 6.0) / 6.0 / f64::from(*so) + f64::from(*zo);
            // the 16-bit fixed point: within two steps where the ReLU-ish
            // multiplier keeps its precision
            Some((y.clamp(-128.0, 127.0), 2.0))
        }
        Unary::Tanh(p, Some((si, zi))) if p.input_range_radius > 0 => {
            let t = (f64::from(*si) * f64::from(xi - zi)).tanh() * 128.0;
            Some((t.clamp(-128.0, 127.0), 1.0))
        }
        Unary::Rsqrt(_, Some([(si, zi), (so, zo)])) => {
            let v = xi - zi;
            if v == 0 {
                return exact(127);
            }
            let y = 1.0 / (f64::from(*si) * f64::from(v)).sqrt() / f64::from(*so) + f64::from(*zo);
            Some((y.clamp(-128.0, 127.0), 1.0))
        }
        _ => None,
    }
}

fn run_unary(op: &Unary, x: &[i8], out: &mut [i8]) -> Result<(), TfliteError> {
    match op {
        Unary::Relu(p) => relu_int8(x, p, out),
        Unary::Relu6(p) => relu6_int8(x, p, out),
        Unary::LeakyRelu(p) => leaky_relu_int8(x, p, out),
        Unary::HardSwish(p, _) => hard_swish_int8(x, p, out),
        Unary::Tanh(p, _) => tanh_int8(x, p, out),
        Unary::Rsqrt(p, _) => rsqrt_int8(x, p, out),
        Unary::Requantize(p) => requantize_int8(x, p, out),
    }
}

fn unary(u: &mut Unstructured<'_>) {
    let Some(op) = unary_params(u) else {
        return;
    };
    let n = usize::from(byte(u));
    let x = int8s(u, n);
    let mut out = vec![0x5A; length(u, Some(n))];
    let result = run_unary(&op, &x, &mut out);
    let negative = match &op {
        Unary::Rsqrt(p, _) => x.iter().any(|&v| i32::from(v) < p.input_zero_point),
        _ => false,
    };
    let valid = unary_params_valid(&op) && out.len() == x.len() && !negative;
    let untouched = out.iter().all(|&y| y == 0x5A);
    if !accepted("unary", result, valid, untouched) {
        return;
    }
    for (&x, &y) in x.iter().zip(&out) {
        if let Some((want, tolerance)) = unary_one(&op, x) {
            assert!(
                (f64::from(y) - want).abs() <= tolerance,
                "{x} gave {y}, the reference {want}"
            );
        }
    }
}

// --- the int16 ops (16x8) ----------------------------------------------------

/// `len` int16 values: the input's bytes in pairs while they last, then a
/// pattern that runs over the int16 range.
fn int16s(u: &mut Unstructured<'_>, len: usize) -> Vec<i16> {
    let taken = u.bytes((2 * len).min(u.len()) & !1).unwrap_or(&[]);
    let from_input = taken
        .chunks_exact(2)
        .map(|p| i16::from_le_bytes([p[0], p[1]]));
    let pattern = (taken.len() / 2..len).map(|i| (i.wrapping_mul(7919) + 13) as u16 as i16);
    from_input.chain(pattern).collect()
}

fn in_int16(v: i32) -> bool {
    (-32768..=32767).contains(&v)
}

/// An int16 op with its parameters (the input's scale for `TANH`'s
/// reference where `_params` derived them).
enum Wide {
    Mul(MulParams),
    Tanh(TanhInt16Params, Option<f32>),
    Requantize(RequantizeParams),
}

fn wide_params(u: &mut Unstructured<'_>) -> Option<Wide> {
    let derive = byte(u) % 2 == 0;
    let (s1, s2, so) = (scale(u), scale(u), scale(u));
    let (z1, z2, zo) = (zero_point(u), zero_point(u), zero_point(u));
    let (lo, hi) = match byte(u) % 4 {
        0 => (u.arbitrary().unwrap_or(0), u.arbitrary().unwrap_or(0)),
        1 => (0, 32767),
        _ => (-32768, 32767),
    };
    let op = match byte(u) % 3 {
        0 if derive => Wide::Mul(mul_params_int16(s1, s2, so, lo, hi).ok()?),
        0 => Wide::Mul(MulParams {
            // mostly 0, as TFLite's int16 zero points are
            input1_zero_point: if byte(u) % 4 == 0 { z1 } else { 0 },
            input2_zero_point: if byte(u) % 4 == 0 { z2 } else { 0 },
            output_zero_point: if byte(u) % 4 == 0 { zo } else { 0 },
            output_multiplier: multiplier(u),
            output_min: lo,
            output_max: hi,
        }),
        1 if derive => {
            let so = if byte(u) % 8 == 0 { so } else { 1.0 / 32768.0 };
            let (zi, zo) = if byte(u) % 8 == 0 { (z1, zo) } else { (0, 0) };
            Wide::Tanh(tanh_params_int16(s1, zi, so, zo).ok()?, Some(s1))
        }
        1 => Wide::Tanh(
            TanhInt16Params {
                input_multiplier: int(u, -2, 40000),
                input_left_shift: u32::from(byte(u) % 40),
            },
            None,
        ),
        _ if derive => Wide::Requantize(requantize_params_int16(s1, z1, so, zo).ok()?),
        _ => Wide::Requantize(RequantizeParams {
            input_zero_point: if byte(u) % 8 == 0 {
                u.arbitrary().unwrap_or(0)
            } else {
                z1
            },
            output_zero_point: zo,
            multiplier: multiplier(u),
        }),
    };
    Some(op)
}

fn wide_params_valid(op: &Wide) -> bool {
    match op {
        Wide::Mul(p) => {
            p.input1_zero_point == 0
                && p.input2_zero_point == 0
                && p.output_zero_point == 0
                && in_int16(p.output_min)
                && in_int16(p.output_max)
                && p.output_min <= p.output_max
        }
        Wide::Tanh(p, _) => (0..=32767).contains(&p.input_multiplier) && p.input_left_shift <= 31,
        Wide::Requantize(p) => in_int16(p.input_zero_point) && in_int16(p.output_zero_point),
    }
}

fn wide(u: &mut Unstructured<'_>) {
    let Some(op) = wide_params(u) else {
        return;
    };
    let a_shape = shape(u);
    let b_shape = match op {
        Wide::Mul(_) => shape_against(u, &a_shape),
        _ => a_shape.clone(),
    };
    let out_shape = broadcast(&a_shape, &b_shape);
    let a_len = length(u, count(&a_shape));
    let b_len = length(u, count(&b_shape));
    let out_len = length(u, out_shape.as_deref().and_then(count));
    let a = int16s(u, a_len);
    let b = int16s(u, b_len);
    let mut out = vec![0x5A5A_i16; out_len];
    let (result, lengths_ok) = match &op {
        Wide::Mul(p) => (
            mul_int16(&a[..], &a_shape, &b[..], &b_shape, p, &mut out),
            out_shape.is_some()
                && Some(a.len()) == count(&a_shape)
                && Some(b.len()) == count(&b_shape)
                && Some(out.len()) == out_shape.as_deref().and_then(count),
        ),
        Wide::Tanh(p, _) => (tanh_int16(&a, p, &mut out), a.len() == out.len()),
        Wide::Requantize(p) => (requantize_int16(&a, p, &mut out), a.len() == out.len()),
    };
    let valid = wide_params_valid(&op) && lengths_ok;
    let untouched = out.iter().all(|&y| y == 0x5A5A);
    if !accepted("int16", result, valid, untouched) {
        return;
    }
    let out_shape = out_shape.unwrap_or_default();
    for (k, &y) in out.iter().enumerate() {
        match &op {
            Wide::Mul(p) => {
                let x1 = i32::from(a[offset(k, &out_shape, &a_shape)]);
                let x2 = i32::from(b[offset(k, &out_shape, &b_shape)]);
                let want = mul_q(x1 * x2, p.output_multiplier).clamp(p.output_min, p.output_max);
                assert_eq!(i32::from(y), want, "element {k}: {x1} · {x2}");
            }
            Wide::Tanh(_, Some(si)) => {
                let want = (f64::from(*si) * f64::from(a[k])).tanh() * 32768.0;
                assert!(
                    (f64::from(y) - want).abs() <= 3.0,
                    "tanh of {} gave {y}, the reference {want}",
                    a[k]
                );
            }
            Wide::Tanh(_, None) => {}
            Wide::Requantize(p) => {
                let want = mul_q(i32::from(a[k]) - p.input_zero_point, p.multiplier)
                    .saturating_add(p.output_zero_point)
                    .clamp(-32768, 32767);
                assert_eq!(i32::from(y), want, "element {k}: {}", a[k]);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 3 {
        0 => binary(&mut u),
        1 => unary(&mut u),
        _ => wide(&mut u),
    }
});
