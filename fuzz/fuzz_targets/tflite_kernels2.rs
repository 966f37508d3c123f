//! `shapecheck-tflite`'s TinyML kernels called directly, as the
//! `Interpreter` calls them: `conv_2d_int8`, `average_pool_int8`,
//! `max_pool_int8`, `mean_int8` (with `mean_params`), `add_int8` (with
//! `add_params`, numpy broadcasting of shapes up to rank 6 and past it, an
//! operand read in place through `Array`), `pad` (int8 and f32, up to rank 5
//! and past it), `logistic_int8` (with `logistic_params`), `quantize_int8`
//! and `dequantize_int8`, with dims, strides, dilations, paddings, zero
//! points, multipliers, scales (NaN, infinities, 0, subnormals included),
//! clamps and buffer lengths from the input: the buffers sometimes match the
//! dims and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here, output by output (f32 outputs bit for bit, `to_bits`). The
//! references share only `multiply_by_quantized_multiplier` with the crate
//! (TFLite's `MultiplyByQuantizedMultiplier`, as `tflite_kernels` does);
//! the logistic's fixed point is gemmlowp's `fixedpoint.h`, written out
//! again here.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    add_int8, add_params, average_pool_int8, conv_2d_int8, dequantize_int8, logistic_int8,
    logistic_params, max_pool_int8, mean_int8, mean_params, multiply_by_quantized_multiplier, pad,
    quantize_int8, AddParams, Array, Conv2dDims, Conv2dParams, LogisticParams, MeanParams,
    PoolDims, PoolParams, QuantizedMultiplier, Rounding, TfliteError, Values,
};

// --- decoding ----------------------------------------------------------------

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

/// A small number: mostly 0 to 5, sometimes up to 255.
fn small(u: &mut Unstructured<'_>) -> usize {
    let b = byte(u);
    if b < 240 {
        usize::from(b % 6)
    } else {
        usize::from(byte(u))
    }
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

/// A zero point: in int8's range, sometimes anything.
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

/// One multiplier, one per channel, or another count (a wrong one is an
/// error).
fn multipliers(u: &mut Unstructured<'_>, channels: usize) -> Vec<QuantizedMultiplier> {
    let n = match byte(u) % 4 {
        0 => 1,
        1 | 2 => channels,
        _ => small(u),
    };
    (0..n).map(|_| multiplier(u)).collect()
}

/// The length a buffer of `len` elements gets: mostly `len`, sometimes
/// one less or two more (capped: a huge count is a wrong length).
fn length(u: &mut Unstructured<'_>, len: usize) -> usize {
    let len = match byte(u) % 8 {
        0 => len.saturating_sub(1),
        1 => len.saturating_add(2),
        _ => len,
    };
    len.min(1 << 16)
}

/// `len` values (or a length off by a little).
fn buffer<T>(u: &mut Unstructured<'_>, len: usize, value: impl Fn(u8) -> T) -> Vec<T> {
    let len = length(u, len);
    (0..len).map(|_| value(byte(u))).collect()
}

/// `len` int8 values (or a length off by a little): the input's bytes
/// while they last, then a pattern that runs over every int8 value.
fn int8s(u: &mut Unstructured<'_>, len: usize) -> Vec<i8> {
    let len = length(u, len);
    let taken = u.bytes(len.min(u.len())).unwrap_or(&[]);
    let pattern = (taken.len()..len).map(|i| (i.wrapping_mul(37) + 11) as u8);
    taken
        .iter()
        .copied()
        .chain(pattern)
        .map(|b| b as i8)
        .collect()
}

/// `len` f32 values: the first ones from the input ([`float`]), then
/// plain values that step by 1/8 (halves among them).
fn floats(u: &mut Unstructured<'_>, len: usize) -> Vec<f32> {
    (0..len)
        .map(|i| {
            if i < 64 {
                float(u)
            } else {
                (i % 512) as f32 / 8.0 - 32.0
            }
        })
        .collect()
}

/// An output buffer of `len` (or a length off by a little), filled with a
/// pattern an error must leave in place.
fn output(u: &mut Unstructured<'_>, len: usize) -> Vec<i8> {
    vec![0x5A; length(u, len)]
}

/// An f32 that matters to rounding and to the special cases: NaN, ±∞, ±0,
/// subnormals, halves, the ends of i32 and of f32, or any bits at all.
fn float(u: &mut Unstructured<'_>) -> f32 {
    const SPECIAL: [f32; 16] = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        1e-45, // the smallest subnormal
        -1e-45,
        f32::MAX,
        f32::MIN,
        0.5,
        -0.5,
        2.5,
        -2.5,
        2147483648.0,
        -2147483904.0,
    ];
    match byte(u) % 8 {
        0 => SPECIAL[usize::from(byte(u)) % SPECIAL.len()],
        1 | 2 => f32::from_bits(u.arbitrary::<u32>().unwrap_or(0)),
        // a value a few quantization steps from a half
        3 => f32::from(u.arbitrary::<i16>().unwrap_or(0)) / 8.0 + 0.5,
        _ => f32::from(u.arbitrary::<i16>().unwrap_or(0)) / 256.0,
    }
}

/// A scale: mostly a plain positive one, sometimes anything (NaN, ±∞, 0,
/// negative, subnormal).
fn scale(u: &mut Unstructured<'_>) -> f32 {
    match byte(u) % 8 {
        0 => float(u),
        1 => 1.0 / 256.0,
        2 => (f32::from(byte(u)) - 64.0).exp2(),
        _ => f32::from(u.arbitrary::<u16>().unwrap_or(1).max(1)) / 4096.0,
    }
}

/// The clamp `[min, max]`: mostly int8's range or a RELU's, sometimes any
/// (reversed, or past int8).
fn clamp(u: &mut Unstructured<'_>) -> (i32, i32) {
    match byte(u) % 8 {
        0 => (int(u, -300, 300), int(u, -300, 300)),
        1 => (int(u, -128, 127), 127),
        2 => {
            let lo = int(u, -128, 127);
            (lo, int(u, lo, 127))
        }
        _ => (-128, 127),
    }
}

fn rounding(u: &mut Unstructured<'_>) -> Rounding {
    if byte(u) & 1 == 1 {
        Rounding::Double
    } else {
        Rounding::Single
    }
}

/// A tensor shape of `rank` dims, mostly 0 to 4 each (a rare larger one).
fn shape(u: &mut Unstructured<'_>, rank: usize) -> Vec<usize> {
    (0..rank)
        .map(|_| match byte(u) {
            0..=29 => 1,
            30..=249 => usize::from(byte(u) % 5),
            _ => small(u),
        })
        .collect()
}

/// The element count of `shape` as the crate's shape checks take it: the
/// product from the innermost dim outward, `None` if one of those partial
/// products overflows (even beside an outer 0).
fn count(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .rev()
        .try_fold(1usize, |c, &d| c.checked_mul(d))
}

/// The row-major multi-index of element `k` of `dims`.
/// (Up to 8 dims, the first `dims.len()` of the array; no allocation.)
fn unravel(mut k: usize, dims: &[usize]) -> [usize; 8] {
    let mut index = [0; 8];
    for (i, &d) in index.iter_mut().zip(dims).rev() {
        *i = k % d;
        k /= d;
    }
    index
}

/// The contract of every call: `valid` says whether it must be accepted;
/// an error has a message and leaves the output as it was (`untouched`).
/// Returns whether the call was accepted (then the caller compares the
/// output with its reference).
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

/// One requantized int8 output: TFLite's order (the multiplier, the zero
/// point, max then min, then int8's range).
fn requantize(acc: i32, m: QuantizedMultiplier, r: Rounding, zp: i32, lo: i32, hi: i32) -> i8 {
    let v = multiply_by_quantized_multiplier(acc, m, r).saturating_add(zp);
    v.max(lo).min(hi).clamp(-128, 127) as i8
}

// --- CONV_2D -------------------------------------------------------------------

fn conv(u: &mut Unstructured<'_>) {
    let d = Conv2dDims {
        batches: small(u).min(3),
        input_height: small(u),
        input_width: small(u),
        input_depth: small(u).min(4),
        filter_height: small(u).min(5),
        filter_width: small(u).min(5),
        output_height: small(u),
        output_width: small(u),
        output_depth: small(u).min(6),
    };
    let (lo, hi) = clamp(u);
    let ms = multipliers(u, d.output_depth);
    let p = Conv2dParams {
        stride_height: small(u).min(3),
        stride_width: small(u).min(3),
        dilation_height: small(u).min(3),
        dilation_width: small(u).min(3),
        pad_top: small(u),
        pad_left: small(u),
        input_zero_point: zero_point(u),
        output_zero_point: zero_point(u),
        multipliers: &ms,
        output_min: lo,
        output_max: hi,
        rounding: rounding(u),
    };
    let in_len = d.batches * d.input_height * d.input_width * d.input_depth;
    let filter_len = d.output_depth * d.filter_height * d.filter_width * d.input_depth;
    let out_len = d.batches * d.output_height * d.output_width * d.output_depth;
    let input = int8s(u, in_len);
    let filter = int8s(u, filter_len);
    let bias: Vec<i32> = buffer(u, d.output_depth, |b| i32::from(b as i8) * 1031);
    let with_bias = byte(u) & 1 == 1;
    let in_place = byte(u) & 1 == 1;
    let mut out = output(u, out_len);
    let before = out.clone();
    // the filter and bias as a model holds them: little-endian bytes
    let filter_bytes: Vec<u8> = filter.iter().map(|&v| v as u8).collect();
    let bias_bytes: Vec<u8> = bias.iter().flat_map(|v| v.to_le_bytes()).collect();
    let result = if in_place {
        let f = Array::<i8>::new(&filter_bytes).expect("bytes");
        let b = Array::<i32>::new(&bias_bytes).expect("whole i32s");
        conv_2d_int8(&input, &f, with_bias.then_some(&b), d, &p, &mut out)
    } else {
        conv_2d_int8(
            &input[..],
            &filter[..],
            with_bias.then_some(&bias[..]),
            d,
            &p,
            &mut out,
        )
    };
    let valid = p.stride_height >= 1
        && p.stride_width >= 1
        && p.dilation_height >= 1
        && p.dilation_width >= 1
        && lo <= hi
        && input.len() == in_len
        && filter.len() == filter_len
        && out.len() == out_len
        && (!with_bias || bias.len() == d.output_depth)
        && (ms.len() == 1 || ms.len() == d.output_depth);
    if !accepted("conv_2d_int8", result, valid, out == before) || out.is_empty() {
        return;
    }
    let mut k = 0;
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for oc in 0..d.output_depth {
                    let mut acc: i32 = 0;
                    for fy in 0..d.filter_height {
                        for fx in 0..d.filter_width {
                            let y = (oy * p.stride_height + fy * p.dilation_height)
                                .checked_sub(p.pad_top);
                            let x = (ox * p.stride_width + fx * p.dilation_width)
                                .checked_sub(p.pad_left);
                            let (Some(y), Some(x)) = (y, x) else { continue };
                            if y >= d.input_height || x >= d.input_width {
                                continue;
                            }
                            for ic in 0..d.input_depth {
                                let v = input[((b * d.input_height + y) * d.input_width + x)
                                    * d.input_depth
                                    + ic];
                                let w = filter[((oc * d.filter_height + fy) * d.filter_width + fx)
                                    * d.input_depth
                                    + ic];
                                let v = i32::from(v).wrapping_sub(p.input_zero_point);
                                acc = acc.wrapping_add(v.wrapping_mul(i32::from(w)));
                            }
                        }
                    }
                    if with_bias {
                        acc = acc.wrapping_add(bias[oc]);
                    }
                    let m = ms[if ms.len() == 1 { 0 } else { oc }];
                    let want = requantize(acc, m, p.rounding, p.output_zero_point, lo, hi);
                    assert_eq!(out[k], want, "conv output {k} of {d:?} {p:?}");
                    k += 1;
                }
            }
        }
    }
    assert_eq!(k, out.len());
}

// --- AVERAGE_POOL_2D, MAX_POOL_2D ------------------------------------------------

fn pool(u: &mut Unstructured<'_>, max: bool) {
    let d = PoolDims {
        batches: small(u).min(3),
        input_height: small(u),
        input_width: small(u),
        depth: small(u).min(4),
        filter_height: small(u).min(6),
        filter_width: small(u).min(6),
        output_height: small(u),
        output_width: small(u),
    };
    let (lo, hi) = clamp(u);
    let p = PoolParams {
        stride_height: small(u).min(3),
        stride_width: small(u).min(3),
        pad_top: small(u),
        pad_left: small(u),
        output_min: lo,
        output_max: hi,
    };
    let in_len = d.batches * d.input_height * d.input_width * d.depth;
    let out_len = d.batches * d.output_height * d.output_width * d.depth;
    let input = int8s(u, in_len);
    let mut out = output(u, out_len);
    let before = out.clone();
    // the input rows (columns) of each output row's (column's) window
    let window = |o: usize, stride: usize, pad: usize, filter: usize, size: usize| {
        (0..filter)
            .filter_map(|f| (o * stride + f).checked_sub(pad).filter(|&i| i < size))
            .collect::<Vec<usize>>()
    };
    let rows: Vec<Vec<usize>> = (0..d.output_height)
        .map(|o| {
            window(
                o,
                p.stride_height,
                p.pad_top,
                d.filter_height,
                d.input_height,
            )
        })
        .collect();
    let cols: Vec<Vec<usize>> = (0..d.output_width)
        .map(|o| window(o, p.stride_width, p.pad_left, d.filter_width, d.input_width))
        .collect();
    let mut valid = p.stride_height >= 1
        && p.stride_width >= 1
        && d.filter_height >= 1
        && d.filter_width >= 1
        && (-128..=127).contains(&lo)
        && (-128..=127).contains(&hi)
        && lo <= hi
        && input.len() == in_len
        && out.len() == out_len;
    if valid && !max && out_len > 0 {
        // an average of no taps is refused
        valid = rows.iter().chain(&cols).all(|taps| !taps.is_empty());
    }
    let (what, result) = if max {
        ("max_pool_int8", max_pool_int8(&input, d, &p, &mut out))
    } else {
        (
            "average_pool_int8",
            average_pool_int8(&input, d, &p, &mut out),
        )
    };
    if !accepted(what, result, valid, out == before) || out.is_empty() {
        return;
    }
    let mut k = 0;
    for b in 0..d.batches {
        for row in &rows {
            for col in &cols {
                for c in 0..d.depth {
                    let input = &input;
                    let xs = row.iter().flat_map(|&y| {
                        col.iter().map(move |&x| {
                            let at = ((b * d.input_height + y) * d.input_width + x) * d.depth + c;
                            i32::from(input[at])
                        })
                    });
                    let y = if max {
                        xs.fold(-128, i32::max)
                    } else {
                        let n = (row.len() * col.len()) as i32;
                        let sum: i32 = xs.sum();
                        // C's division truncates, as Rust's does
                        if sum > 0 {
                            (sum + n / 2) / n
                        } else {
                            (sum - n / 2) / n
                        }
                    };
                    let want = y.max(lo).min(hi) as i8;
                    assert_eq!(out[k], want, "{what} output {k} of {d:?} {p:?}");
                    k += 1;
                }
            }
        }
    }
    assert_eq!(k, out.len());
}

// --- MEAN ------------------------------------------------------------------------

fn mean(u: &mut Unstructured<'_>) {
    let (batches, height, width, depth) = (small(u).min(3), small(u), small(u), small(u).min(5));
    let pixels = height * width;
    let params = match byte(u) % 4 {
        // from scales, as the interpreter derives them (count sometimes wrong)
        0 | 1 => {
            let n = if byte(u) < 230 { pixels } else { small(u) };
            match mean_params(scale(u), zero_point(u), scale(u), zero_point(u), n) {
                Ok(p) => {
                    let m = p.multiplier;
                    assert!(m.multiplier() >= 0 && (-31..=30).contains(&m.shift()));
                    assert_eq!(p.count, n);
                    p
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    return;
                }
            }
        }
        // any multiplier
        _ => MeanParams {
            multiplier: multiplier(u),
            input_zero_point: zero_point(u),
            output_zero_point: zero_point(u),
            count: if byte(u) < 230 { pixels } else { small(u) },
        },
    };
    let in_len = batches * pixels * depth;
    let input = int8s(u, in_len);
    let mut out = output(u, batches * depth);
    let before = out.clone();
    let result = mean_int8(&input, batches, height, width, depth, &params, &mut out);
    let valid = input.len() == in_len && out.len() == batches * depth && params.count == pixels;
    if !accepted("mean_int8", result, valid, out == before) {
        return;
    }
    for b in 0..batches {
        for c in 0..depth {
            let want = if pixels == 0 {
                0
            } else {
                let mut sum: i32 = 0;
                for i in 0..pixels {
                    sum = sum.wrapping_add(i32::from(input[(b * pixels + i) * depth + c]));
                }
                let offset = params.input_zero_point.wrapping_mul(pixels as i32);
                requantize(
                    sum.wrapping_sub(offset),
                    params.multiplier,
                    Rounding::Double,
                    params.output_zero_point,
                    -128,
                    127,
                )
            };
            assert_eq!(out[b * depth + c], want, "mean ({b}, {c}) of {params:?}");
        }
    }
}

// --- ADD -------------------------------------------------------------------------

/// Calls `add_int8` with each operand a slice or an `Array` in place.
#[allow(clippy::result_large_err)]
fn call_add<A: Values<i8> + ?Sized, B: Values<i8> + ?Sized>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    p: &AddParams,
    out: &mut [i8],
) -> Result<(), TfliteError> {
    add_int8(a, a_shape, b, b_shape, p, out)
}

/// The naive broadcast of two shapes: `None` where they do not broadcast
/// or have more than 6 dims.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    if rank > 6 {
        return None;
    }
    let dim = |s: &[usize], k: usize| {
        let lead = rank - s.len();
        if k < lead {
            1
        } else {
            s[k - lead]
        }
    };
    (0..rank)
        .map(|k| {
            let (x, y) = (dim(a, k), dim(b, k));
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

fn add(u: &mut Unstructured<'_>) {
    // the output's shape, then each operand's: its trailing dims, each the
    // output's or 1, now and then another
    let rank = if byte(u) < 245 {
        usize::from(byte(u) % 7)
    } else {
        7
    };
    let full = shape(u, rank);
    let operand = |u: &mut Unstructured<'_>| -> Vec<usize> {
        let r = if byte(u) < 128 {
            rank
        } else {
            usize::from(byte(u)) % (rank + 1)
        };
        full[rank - r..]
            .iter()
            .map(|&d| match byte(u) % 16 {
                0..=8 => d,
                9..=14 => 1,
                _ => usize::from(byte(u) % 5),
            })
            .collect()
    };
    let a_shape = operand(u);
    let b_shape = operand(u);
    let params = if !byte(u).is_multiple_of(4) {
        let (lo, hi) = clamp(u);
        let r = add_params(
            scale(u),
            zero_point(u),
            scale(u),
            zero_point(u),
            scale(u),
            zero_point(u),
            lo,
            hi,
        );
        match r {
            Ok(p) => {
                for m in [
                    p.input1_multiplier,
                    p.input2_multiplier,
                    p.output_multiplier,
                ] {
                    assert!(m.multiplier() >= 0 && (-31..=0).contains(&m.shift()));
                }
                p
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return;
            }
        }
    } else {
        let (lo, hi) = clamp(u);
        AddParams {
            input1_zero_point: zero_point(u),
            input1_multiplier: multiplier(u),
            input2_zero_point: zero_point(u),
            input2_multiplier: multiplier(u),
            output_zero_point: zero_point(u),
            output_multiplier: multiplier(u),
            output_min: lo,
            output_max: hi,
        }
    };
    let out_shape = broadcast(&a_shape, &b_shape);
    let a_len = count(&a_shape).unwrap_or(0);
    let b_len = count(&b_shape).unwrap_or(0);
    let out_len = out_shape.as_deref().and_then(count).unwrap_or(0);
    let a = int8s(u, a_len);
    let b = int8s(u, b_len);
    let mut out = output(u, out_len);
    let before = out.clone();
    let a_bytes: Vec<u8> = a.iter().map(|&v| v as u8).collect();
    let b_bytes: Vec<u8> = b.iter().map(|&v| v as u8).collect();
    let (a_array, b_array) = (
        Array::<i8>::new(&a_bytes).expect("bytes"),
        Array::<i8>::new(&b_bytes).expect("bytes"),
    );
    let result = match byte(u) % 4 {
        0 => call_add(&a[..], &a_shape, &b[..], &b_shape, &params, &mut out),
        1 => call_add(&a_array, &a_shape, &b[..], &b_shape, &params, &mut out),
        2 => call_add(&a[..], &a_shape, &b_array, &b_shape, &params, &mut out),
        _ => call_add(&a_array, &a_shape, &b_array, &b_shape, &params, &mut out),
    };
    let p = &params;
    let int8 = |v: i32| (-128..=127).contains(&v);
    let valid = out_shape.is_some()
        && [
            p.input1_zero_point,
            p.input2_zero_point,
            p.output_zero_point,
            p.output_min,
            p.output_max,
        ]
        .into_iter()
        .all(int8)
        && p.output_min <= p.output_max
        && [
            p.input1_multiplier,
            p.input2_multiplier,
            p.output_multiplier,
        ]
        .iter()
        .all(|m| m.shift() <= 0)
        && count(&a_shape) == Some(a.len())
        && count(&b_shape) == Some(b.len())
        && out_shape.as_deref().and_then(count) == Some(out.len());
    if !accepted("add_int8", result, valid, out == before) {
        return;
    }
    let out_shape = out_shape.expect("valid");
    let rank = out_shape.len();
    // an operand's offset for an output index: its dims right-aligned, a
    // dim of 1 broadcast
    let offset = |s: &[usize], index: &[usize]| {
        s.iter()
            .zip(&index[rank - s.len()..rank])
            .fold(0, |at, (&d, &i)| at * d + if d == 1 { 0 } else { i })
    };
    for (k, &y) in out.iter().enumerate() {
        let index = unravel(k, &out_shape);
        let index = &index[..rank];
        let x1 = i32::from(a[offset(&a_shape, index)]);
        let x2 = i32::from(b[offset(&b_shape, index)]);
        let s1 = multiply_by_quantized_multiplier(
            (x1 - p.input1_zero_point) * (1 << 20),
            p.input1_multiplier,
            Rounding::Double,
        );
        let s2 = multiply_by_quantized_multiplier(
            (x2 - p.input2_zero_point) * (1 << 20),
            p.input2_multiplier,
            Rounding::Double,
        );
        let raw = multiply_by_quantized_multiplier(s1 + s2, p.output_multiplier, Rounding::Double)
            + p.output_zero_point;
        let want = raw.max(p.output_min).min(p.output_max) as i8;
        assert_eq!(
            y, want,
            "add output {k} {index:?}: {a_shape:?} + {b_shape:?}, {p:?}"
        );
    }
}

// --- PAD -------------------------------------------------------------------------

/// `pad` of `input` against the naive reference, for any element type
/// (`same` compares two elements, bit for bit for floats).
fn check_pad<T: Copy + PartialEq + std::fmt::Debug>(
    input: &[T],
    in_shape: &[usize],
    paddings: &[(usize, usize)],
    value: T,
    out: &mut [T],
    same: impl Fn(T, T) -> bool,
) {
    let before = out.to_vec();
    let result = pad(input, in_shape, paddings, value, out);
    let out_shape: Option<Vec<usize>> = (in_shape.len() <= 5 && paddings.len() == in_shape.len())
        .then(|| {
            in_shape
                .iter()
                .zip(paddings)
                .map(|(&d, &(b, a))| d.checked_add(b)?.checked_add(a))
                .collect::<Option<Vec<usize>>>()
        })
        .flatten();
    let valid = out_shape.is_some()
        && count(in_shape) == Some(input.len())
        && out_shape.as_deref().and_then(count) == Some(out.len());
    let untouched = out.len() == before.len() && out.iter().zip(&before).all(|(&a, &b)| same(a, b));
    if !accepted("pad", result, valid, untouched) {
        return;
    }
    let out_shape = out_shape.expect("valid");
    for (k, &y) in out.iter().enumerate() {
        let index = unravel(k, &out_shape);
        let index = &index[..out_shape.len()];
        // the input's offset, if every coordinate is inside the input
        let inside =
            index
                .iter()
                .zip(paddings)
                .zip(in_shape)
                .try_fold(0, |at, ((&i, &(b, _)), &d)| {
                    let i = i.checked_sub(b).filter(|&i| i < d)?;
                    Some(at * d + i)
                });
        let want = match inside {
            Some(at) => input[at],
            None => value,
        };
        assert!(
            same(y, want),
            "pad output {k} {index:?}: {y:?}, not {want:?}; {in_shape:?} {paddings:?}"
        );
    }
}

fn pad_op(u: &mut Unstructured<'_>) {
    let rank = if byte(u) < 245 {
        usize::from(byte(u) % 6)
    } else {
        6
    };
    let in_shape = shape(u, rank);
    let n = match byte(u) % 16 {
        0 => rank + 1,
        1 => rank.saturating_sub(1),
        _ => rank,
    };
    let side = |u: &mut Unstructured<'_>| match byte(u) {
        0..=249 => usize::from(byte(u) % 4),
        250..=252 => usize::MAX,
        253 => usize::MAX / 2,
        _ => small(u),
    };
    let paddings: Vec<(usize, usize)> = (0..n).map(|_| (side(u), side(u))).collect();
    let out_len = paddings
        .iter()
        .zip(&in_shape)
        .map(|(&(b, a), &d)| d.saturating_add(b).saturating_add(a))
        .try_fold(1usize, |c, d| c.checked_mul(d))
        .unwrap_or(usize::MAX);
    let in_len = count(&in_shape).unwrap_or(0);
    if byte(u) & 1 == 0 {
        let input = int8s(u, in_len);
        let value = byte(u) as i8;
        let mut out = output(u, out_len);
        check_pad(&input, &in_shape, &paddings, value, &mut out, |a, b| a == b);
    } else {
        let len = length(u, in_len);
        let input = floats(u, len);
        let value = float(u);
        let len = length(u, out_len);
        let mut out = vec![f32::from_bits(0x7FC0_5A5A); len];
        // compared by bits: the NaN the output starts as equals itself
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits();
        check_pad(&input, &in_shape, &paddings, value, &mut out, same);
    }
}

// --- LOGISTIC --------------------------------------------------------------------

/// gemmlowp's fixed point (`fixedpoint.h`) on raw `i32`s, written out
/// plainly: each function names its Q format.
mod gemmlowp {
    /// `SaturatingRoundingDoublingHighMul`: `a · b / 2^31`, nearest, ties
    /// toward +∞ (C's truncating division of the nudged product).
    pub fn mul(a: i32, b: i32) -> i32 {
        if a == i32::MIN && b == i32::MIN {
            return i32::MAX;
        }
        let ab = i64::from(a) * i64::from(b);
        let nudge = if ab >= 0 { 1 << 30 } else { 1 - (1 << 30) };
        ((ab + nudge) / (1i64 << 31)) as i32
    }

    /// `RoundingDivideByPOT`: `x / 2^e` to nearest, ties away from zero.
    pub fn divide_by_pot(x: i32, e: u32) -> i32 {
        let x = i64::from(x);
        let mask = (1i64 << e) - 1;
        let remainder = x & mask;
        let threshold = (mask >> 1) + i64::from(x < 0);
        ((x >> e) + i64::from(remainder > threshold)) as i32
    }

    /// `SaturatingRoundingMultiplyByPOT<e>` for `e ≥ 0`: `x · 2^e`, saturated.
    fn times_pot(x: i32, e: u32) -> i32 {
        (i64::from(x) << e).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// `RoundingHalfSum`.
    fn half_sum(a: i32, b: i32) -> i32 {
        let sum = i64::from(a) + i64::from(b);
        let sign = if sum >= 0 { 1 } else { -1 };
        ((sum + sign) / 2) as i32
    }

    /// `exp_on_interval_between_negative_one_quarter_and_0_excl`, Q0.31 in
    /// and out.
    fn exp_near_zero(a: i32) -> i32 {
        const CONSTANT_TERM: i32 = 1895147668; // exp(−1/8)
        const ONE_THIRD: i32 = 715827883;
        let x = a.wrapping_add(1 << 28); // a + 1/8
        let x2 = mul(x, x);
        let x3 = mul(x2, x);
        let x4 = mul(x2, x2);
        let x4_over_4 = divide_by_pot(x4, 2);
        let rest = divide_by_pot(
            mul(x4_over_4.wrapping_add(x3), ONE_THIRD).wrapping_add(x2),
            1,
        );
        CONSTANT_TERM.wrapping_add(mul(CONSTANT_TERM, x.wrapping_add(rest)))
    }

    /// `exp_on_negative_values` of a Q4.27 `a ≤ 0`, in Q0.31.
    fn exp_negative(a: i32) -> i32 {
        const FRACTIONAL: i32 = 27;
        let quarter = 1 << (FRACTIONAL - 2);
        let mod_quarter_minus_quarter = (a & (quarter - 1)).wrapping_sub(quarter);
        // Rescale<0> from 4 integer bits
        let mut result = exp_near_zero(times_pot(mod_quarter_minus_quarter, 4));
        let remainder = mod_quarter_minus_quarter.wrapping_sub(a);
        // exp(−2^e) for e = −2 .. 3 (the integer bits, 4, exceed each)
        for (e, factor) in [
            (-2, 1672461947),
            (-1, 1302514674),
            (0, 790015084),
            (1, 290630308),
            (2, 39332535),
            (3, 720401),
        ] {
            if remainder & (1 << (FRACTIONAL + e)) != 0 {
                result = mul(result, factor);
            }
        }
        if a == 0 {
            i32::MAX
        } else {
            result
        }
    }

    /// `one_over_one_plus_x_for_x_in_0_1`, Q0.31 in and out: three
    /// Newton–Raphson steps in Q2.29.
    fn one_over_one_plus(a: i32) -> i32 {
        let half_denominator = half_sum(a, i32::MAX);
        const C48_17: i32 = 1515870810;
        const NEG_C32_17: i32 = -1010580540;
        const ONE_Q2: i32 = 1 << 29;
        let mut x = C48_17.wrapping_add(mul(half_denominator, NEG_C32_17));
        for _ in 0..3 {
            let one_minus = ONE_Q2.wrapping_sub(mul(half_denominator, x));
            // Q2 · Q2 is Q4; Rescale<2> shifts it left by 2
            x = x.wrapping_add(times_pot(mul(x, one_minus), 2));
        }
        // ExactMulByPot<−1> keeps the raw value as Q1.30; Rescale<0> doubles it
        times_pot(x, 1)
    }

    /// gemmlowp's `logistic` of a Q4.27 input, in Q0.31.
    pub fn logistic(a: i32) -> i32 {
        if a == 0 {
            return 1 << 30;
        }
        let abs = if a > 0 { a } else { a.wrapping_neg() };
        let positive = one_over_one_plus(exp_negative(abs.wrapping_neg()));
        if a > 0 {
            positive
        } else {
            i32::MAX.wrapping_sub(positive)
        }
    }
}

fn logistic(u: &mut Unstructured<'_>) {
    let (params, real_scale) = if !byte(u).is_multiple_of(4) {
        let input_scale = scale(u);
        let zp = zero_point(u);
        let output_scale = if byte(u) < 230 { 1.0 / 256.0 } else { scale(u) };
        let output_zp = if byte(u) < 230 { -128 } else { zero_point(u) };
        match logistic_params(input_scale, zp, output_scale, output_zp) {
            Ok(p) => {
                assert!(p.input_range_radius >= 0);
                assert!((0..=30).contains(&p.input_multiplier.shift()));
                (p, Some(input_scale))
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return;
            }
        }
    } else {
        let p = LogisticParams {
            input_zero_point: zero_point(u),
            input_range_radius: if byte(u) < 200 {
                int(u, 0, 4096)
            } else {
                u.arbitrary().unwrap_or(0)
            },
            input_multiplier: multiplier(u),
        };
        (p, None)
    };
    let len = small(u) * small(u).max(1) + small(u);
    let input = if byte(u) < 16 {
        // every int8 value
        (-128..=127).collect()
    } else {
        int8s(u, len)
    };
    let mut out = output(u, input.len());
    let before = out.clone();
    let result = logistic_int8(&input, &params, &mut out);
    let p = &params;
    let valid = out.len() == input.len()
        && (-128..=127).contains(&p.input_zero_point)
        && p.input_range_radius >= 0
        && p.input_multiplier.shift() >= 0;
    if !accepted("logistic_int8", result, valid, out == before) {
        return;
    }
    for (&x, &y) in input.iter().zip(&out) {
        let d = i32::from(x) - p.input_zero_point;
        let want = if d <= -p.input_range_radius {
            -128
        } else if d >= p.input_range_radius {
            127
        } else {
            let q4 = multiply_by_quantized_multiplier(d, p.input_multiplier, Rounding::Double);
            let q0 = gemmlowp::logistic(q4);
            (gemmlowp::divide_by_pot(q0, 23) - 128).clamp(-128, 127) as i8
        };
        assert_eq!(y, want, "logistic of {x} with {p:?}");
        let saturated = d <= -p.input_range_radius || d >= p.input_range_radius;
        if let (Some(s), false) = (real_scale, saturated) {
            // and within one step of σ itself (gemmlowp's error is far below;
            // not where TFLite saturates: its radius is ⌊15 · 2^27 / 2^shift⌋,
            // as coarse as 1 step of d for a scale of 4, σ(4) being 0.98)
            let sigma = 1.0 / (1.0 + (-f64::from(s) * f64::from(d)).exp());
            let exact = (sigma * 256.0 - 128.0).clamp(-128.0, 127.0);
            assert!(
                (f64::from(y) - exact).abs() <= 1.0,
                "logistic of {x} with scale {s}: {y}, σ gives {exact}"
            );
        }
    }
}

// --- QUANTIZE, DEQUANTIZE ----------------------------------------------------------

fn quantize(u: &mut Unstructured<'_>) {
    let n = small(u) + small(u);
    let len = length(u, n);
    let mut input = floats(u, len);
    let (s, zp) = (scale(u), zero_point(u));
    // some inputs at a half step of the scale, where the quotient's last
    // bit decides the rounding (dividing by the scale, not multiplying by
    // its inverse, matters there)
    for x in input.iter_mut() {
        if byte(u) < 64 {
            *x = (f32::from(byte(u) as i8) + 0.5) * s;
        }
    }
    let mut out = output(u, input.len());
    let before = out.clone();
    let result = quantize_int8(&input, s, zp, &mut out);
    if !accepted(
        "quantize_int8",
        result,
        out.len() == input.len(),
        out == before,
    ) {
        return;
    }
    for (&x, &y) in input.iter().zip(&out) {
        // std's round: half away from zero; `as` saturates, NaN → 0
        let q = ((x / s).round() as i32).saturating_add(zp).clamp(-128, 127) as i8;
        assert_eq!(y, q, "quantize of {x} ({:#x}) by {s} at {zp}", x.to_bits());
    }
}

fn dequantize(u: &mut Unstructured<'_>) {
    let len = small(u) + small(u);
    let input = if byte(u) < 16 {
        (-128..=127).collect()
    } else {
        int8s(u, len)
    };
    let (s, zp) = (scale(u), zero_point(u));
    let len = length(u, input.len());
    let mut out = vec![f32::from_bits(0x7FC0_5A5A); len];
    let before: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
    let result = dequantize_int8(&input, s, zp, &mut out);
    let bits: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
    if !accepted(
        "dequantize_int8",
        result,
        out.len() == input.len(),
        bits == before,
    ) {
        return;
    }
    for (&q, &y) in input.iter().zip(&out) {
        // TFLite Micro: the scale widened, the product in double, then float
        let want = (f64::from(s) * f64::from(i32::from(q).wrapping_sub(zp))) as f32;
        assert_eq!(
            y.to_bits(),
            want.to_bits(),
            "dequantize of {q} by {s} ({:#x}) at {zp}: {y}, not {want}",
            s.to_bits()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 9 {
        0 => conv(&mut u),
        1 => pool(&mut u, false),
        2 => pool(&mut u, true),
        3 => mean(&mut u),
        4 => add(&mut u),
        5 => pad_op(&mut u),
        6 => logistic(&mut u),
        7 => quantize(&mut u),
        _ => dequantize(&mut u),
    }
});
