//! `shapecheck-tflite`'s kernels of `tests/ops_reduce.rs` and
//! `tests/ops_spatial.rs` called directly, as the `Interpreter` calls
//! them: `mean_or_sum_int8` and `mean_or_sum_int16` (with `mean_params` /
//! `sum_params`),
//! `reduce_max`, `reduce_min`, `arg_max`, `arg_min`,
//! `resize_nearest_neighbor`, `resize_bilinear_int8`,
//! `transpose_conv_int8`, `batch_matmul_int8`, `log_softmax_int8` and
//! `l2_normalization_int8`, with dims, axes, flags, strides, paddings,
//! zero points, multipliers, clamps and buffer lengths from the input: the
//! buffers sometimes match the dims and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; a call is
//! accepted exactly when the naive model below says its arguments are
//! valid; an error leaves the output untouched and has a message that is
//! not empty; an accepted call equals a naive reference written plainly
//! here, output by output (log softmax and L2 normalization: within one
//! step of the real function, as their fixed point is TFLite's own). The
//! references share only `multiply_by_quantized_multiplier` with the
//! crate.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    arg_max, arg_min, arg_min_max_dims, batch_matmul_int8, batch_matmul_params,
    fully_connected_multiplier, l2_normalization_int8, l2_normalization_params, log_softmax_int8,
    log_softmax_params, mean_or_sum_int16, mean_or_sum_int8, mean_params,
    multiply_by_quantized_multiplier, reduce_axes, reduce_max, reduce_min, resize_bilinear_int8,
    resize_nearest_neighbor, sum_params, transpose_conv_int8, MeanParams, QuantizedMultiplier,
    ReduceAxes, ResizeDims, ResizeParams, Rounding, TfliteError, TransposeConvDims,
    TransposeConvParams,
};

// --- decoding ----------------------------------------------------------------

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn flag(u: &mut Unstructured<'_>) -> bool {
    byte(u) & 1 == 1
}

/// A small size: 0 to 5, mostly 1 to 4.
fn small(u: &mut Unstructured<'_>) -> usize {
    match byte(u) % 16 {
        0 => 0,
        15 => 5,
        b => usize::from(b % 4) + 1,
    }
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

/// A scale: 1/1024 to about 1, in steps that make ties.
fn scale(u: &mut Unstructured<'_>) -> f32 {
    f32::from(u16::from(byte(u)) + 1) / 256.0
}

/// The length a buffer of `len` elements gets: mostly `len`, sometimes
/// one less or two more.
fn length(u: &mut Unstructured<'_>, len: usize) -> usize {
    match byte(u) % 8 {
        0 => len.saturating_sub(1),
        1 => len + 2,
        _ => len,
    }
}

/// `len` int8 values (or a length off by a little): the input's bytes
/// while they last, then a pattern over every int8 value.
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

/// An output of `len` (or a length off by a little) filled with a pattern
/// an error must leave in place.
fn output<T: Clone>(u: &mut Unstructured<'_>, len: usize, fill: T) -> Vec<T> {
    vec![fill; length(u, len)]
}

/// 1 to 4 dims of [`small`] sizes.
fn dims(u: &mut Unstructured<'_>) -> Vec<usize> {
    let rank = usize::from(byte(u) % 4) + 1;
    (0..rank).map(|_| small(u)).collect()
}

fn product(dims: &[usize]) -> usize {
    dims.iter().product()
}

/// Checks a call's outcome: accepted exactly when `valid`; an error has a
/// message and leaves `out` as `before`.
fn outcome<T: PartialEq + core::fmt::Debug>(
    result: Result<(), TfliteError>,
    valid: bool,
    out: &[T],
    before: &[T],
) -> bool {
    match result {
        Ok(()) => {
            assert!(valid, "accepted arguments the model calls invalid");
            true
        }
        Err(e) => {
            assert!(!valid, "refused valid arguments: {e}");
            assert!(!e.to_string().is_empty());
            assert_eq!(out, before, "an error wrote the output");
            false
        }
    }
}

// --- naive references ----------------------------------------------------

/// Row-major coordinates of every element of `dims`.
fn coordinates(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &d in dims {
        let mut next = vec![];
        for prefix in &all {
            for c in 0..d {
                let mut p = prefix.clone();
                p.push(c);
                next.push(p);
            }
        }
        all = next;
    }
    all
}

fn offset(coordinate: &[usize], dims: &[usize]) -> usize {
    coordinate
        .iter()
        .zip(dims)
        .fold(0, |acc, (&c, &d)| acc * d + c)
}

/// The elements of `x` (of `dims`) each output of a reduction over
/// `reduced` folds, outputs in row-major order of the kept dims.
fn groups<T: Copy>(x: &[T], dims: &[usize], reduced: &[bool]) -> Vec<Vec<T>> {
    let kept: Vec<usize> = dims
        .iter()
        .zip(reduced)
        .map(|(&d, &r)| if r { 1 } else { d })
        .collect();
    let mut out = vec![vec![]; product(&kept)];
    for c in coordinates(dims) {
        let k: Vec<usize> = c
            .iter()
            .zip(reduced)
            .map(|(&v, &r)| if r { 0 } else { v })
            .collect();
        out[offset(&k, &kept)].push(x[offset(&c, dims)]);
    }
    out
}

fn requantize(acc: i32, m: QuantizedMultiplier, zero_point: i32, lo: i32, hi: i32) -> i8 {
    let y = multiply_by_quantized_multiplier(acc, m, Rounding::Double).saturating_add(zero_point);
    y.clamp(lo.max(-128), hi.min(127)) as i8
}

// --- the kernels -------------------------------------------------------------

fn reductions(u: &mut Unstructured<'_>) {
    let dims = dims(u);
    let rank = dims.len() as i32;
    let axes: Vec<i32> = (0..byte(u) % 4).map(|_| int(u, -rank - 1, rank)).collect();
    let valid_axes = axes.iter().all(|&a| (-rank..rank).contains(&a));
    let Ok(r) = reduce_axes(&dims, &axes) else {
        assert!(!valid_axes, "refused valid axes {axes:?} of {dims:?}");
        return;
    };
    assert!(valid_axes, "accepted axes {axes:?} of {dims:?}");
    let mut reduced = vec![false; dims.len()];
    for &a in &axes {
        reduced[(if a < 0 { a + rank } else { a }) as usize] = true;
    }
    assert_eq!(&r.reduced[..dims.len()], &reduced[..]);
    let count: usize = dims.iter().zip(&reduced).filter(|(_, &r)| r).map(|(&d, _)| d).product();
    let outputs: usize = dims.iter().zip(&reduced).filter(|(_, &r)| !r).map(|(&d, _)| d).product();
    let x = int8s(u, product(&dims));
    let lengths_ok = x.len() == product(&dims);
    let g = if lengths_ok { groups(&x, &dims, &reduced) } else { vec![] };
    match byte(u) % 3 {
        0 => {
            let (zi, zo) = (int(u, -128, 127), int(u, -128, 127));
            let given = if byte(u) % 8 == 0 { count + 1 } else { count };
            let Ok(params): Result<MeanParams, _> = (if flag(u) {
                mean_params(scale(u), zi, scale(u), zo, given)
            } else {
                sum_params(scale(u), zi, scale(u), zo, given)
            }) else {
                return;
            };
            if flag(u) {
                let shape = (&dims[..], &reduced[..], &r);
                mean_or_sum_wide(u, &x, shape, (count, given, outputs), (&params, zi, zo));
                return;
            }
            let mut y = output(u, outputs, 0x5Ai8);
            let before = y.clone();
            let valid = lengths_ok && y.len() == outputs && given == count;
            if outcome(mean_or_sum_int8(&x, &r, &params, &mut y), valid, &y, &before) {
                let want: Vec<i8> = if count == 0 {
                    vec![0; outputs]
                } else {
                    g.iter()
                        .map(|e| {
                            let sum: i32 = e.iter().map(|&v| i32::from(v) - zi).sum();
                            requantize(sum, params.multiplier, zo, -128, 127)
                        })
                        .collect()
                };
                assert_eq!(y, want);
            }
        }
        which => {
            let mut y = output(u, outputs, 0x5Ai8);
            let before = y.clone();
            let valid = lengths_ok && y.len() == outputs && (count > 0 || outputs == 0);
            let result = if which == 1 {
                reduce_max(&x, &r, &mut y)
            } else {
                reduce_min(&x, &r, &mut y)
            };
            if outcome(result, valid, &y, &before) {
                let want: Vec<i8> = g
                    .iter()
                    .map(|e| {
                        let best = if which == 1 { e.iter().max() } else { e.iter().min() };
                        *best.expect("count > 0")
                    })
                    .collect();
                assert_eq!(y, want);
            }
        }
    }
}

/// `mean_or_sum_int16` (16x8) on `x8`'s values as high bytes, a pattern
/// the low ones, over `dims` with the axes `reduced` (`r`): as
/// `mean_or_sum_int8`, the output clamped to int16.
fn mean_or_sum_wide(
    u: &mut Unstructured<'_>,
    x8: &[i8],
    (dims, reduced, r): (&[usize], &[bool], &ReduceAxes),
    (count, given, outputs): (usize, usize, usize),
    (params, zi, zo): (&MeanParams, i32, i32),
) {
    let x: Vec<i16> = x8
        .iter()
        .enumerate()
        .map(|(i, &v)| i16::from(v) * 256 + (i.wrapping_mul(97) % 256) as i16)
        .collect();
    let lengths_ok = x.len() == product(dims);
    let g = if lengths_ok { groups(&x, dims, reduced) } else { vec![] };
    let mut y = output(u, outputs, 0x5A5Ai16);
    let before = y.clone();
    let valid = lengths_ok && y.len() == outputs && given == count;
    if outcome(mean_or_sum_int16(&x, r, params, &mut y), valid, &y, &before) {
        let want: Vec<i16> = if count == 0 {
            vec![0; outputs]
        } else {
            g.iter()
                .map(|e| {
                    let sum: i32 = e.iter().map(|&v| i32::from(v) - zi).sum();
                    multiply_by_quantized_multiplier(sum, params.multiplier, Rounding::Double)
                        .saturating_add(zo)
                        .clamp(-32768, 32767) as i16
                })
                .collect()
        };
        assert_eq!(y, want);
    }
}

fn arg_min_max(u: &mut Unstructured<'_>) {
    let dims = dims(u);
    let rank = dims.len() as i32;
    let axis = int(u, -rank - 1, rank);
    let Ok(d) = arg_min_max_dims(&dims, axis) else {
        assert!(!(-rank..rank).contains(&axis));
        return;
    };
    let a = (if axis < 0 { axis + rank } else { axis }) as usize;
    let x = int8s(u, product(&dims));
    let outputs = d.outer * d.inner;
    let mut y = output(u, outputs, -7i32);
    let before = y.clone();
    let valid = x.len() == product(&dims) && y.len() == outputs && (dims[a] > 0 || outputs == 0);
    let max = flag(u);
    let result = if max {
        arg_max(&x, d, &mut y)
    } else {
        arg_min(&x, d, &mut y)
    };
    if outcome(result, valid, &y, &before) {
        let mut reduced = vec![false; dims.len()];
        reduced[a] = true;
        let want: Vec<i32> = groups(&x, &dims, &reduced)
            .iter()
            .map(|line| {
                let best = if max { line.iter().max() } else { line.iter().min() };
                let best = *best.expect("a non-empty axis");
                line.iter().position(|&v| v == best).expect("there") as i32
            })
            .collect();
        assert_eq!(y, want);
    }
}

/// TFLite's nearest source index, with std's f32 floor and round.
fn nearest(y: usize, input: usize, output: usize, p: ResizeParams) -> usize {
    let scale = if p.align_corners && output > 1 {
        (input - 1) as f32 / (output - 1) as f32
    } else {
        input as f32 / output as f32
    };
    let v = (y as f32 + if p.half_pixel_centers { 0.5 } else { 0.0 }) * scale;
    let i = if p.align_corners { v.round() } else { v.floor() } as usize;
    i.min(input - 1)
}

/// TFLite's `ResizeBilinearInteger` for one output element, written out.
fn bilinear(x: &[i8], d: &ResizeDims, p: ResizeParams, b: usize, y: usize, xx: usize, c: usize) -> i8 {
    let axis = |o: usize, input: usize, output: usize| -> (i64, usize, usize) {
        let (i, n) = (input as i64, output as i64);
        let s = if p.align_corners && n > 1 {
            (1024 * (i - 1) + (n - 1) / 2) / (n - 1)
        } else {
            (1024 * i + n / 2) / n
        };
        let o = o as i64;
        let src = if p.half_pixel_centers { o * s + s / 2 - 512 } else { o * s };
        // C's division toward zero
        let lo = (src / 1024).max(0);
        let hi = ((src + 1023) / 1024).min(i - 1);
        (src - 1024 * lo, lo as usize, hi as usize)
    };
    let (dy, y0, y1) = axis(y, d.input_height, d.output_height);
    let (dx, x0, x1) = axis(xx, d.input_width, d.output_width);
    let at = |r: usize, col: usize| {
        i64::from(x[((b * d.input_height + r) * d.input_width + col) * d.depth + c])
    };
    let sum = at(y0, x0) * (1024 - dy) * (1024 - dx)
        + at(y1, x0) * dy * (1024 - dx)
        + at(y0, x1) * (1024 - dy) * dx
        + at(y1, x1) * dy * dx;
    let round = if sum > 0 { 1 << 19 } else { -(1 << 19) };
    ((sum + round) / (1 << 20)) as i8
}

fn resizes(u: &mut Unstructured<'_>) {
    let d = ResizeDims {
        batches: small(u),
        input_height: small(u),
        input_width: small(u),
        depth: small(u),
        output_height: small(u) * 2,
        output_width: small(u) * 3,
    };
    let p = ResizeParams {
        align_corners: flag(u),
        half_pixel_centers: flag(u),
    };
    let in_len = d.batches * d.input_height * d.input_width * d.depth;
    let out_len = d.batches * d.output_height * d.output_width * d.depth;
    let x = int8s(u, in_len);
    let mut y = output(u, out_len, 0x5Ai8);
    let before = y.clone();
    let bilinear_op = flag(u);
    let empty_input = out_len > 0 && (d.input_height == 0 || d.input_width == 0);
    let both = p.align_corners && p.half_pixel_centers;
    let valid = x.len() == in_len && y.len() == out_len && !empty_input && !(bilinear_op && both);
    let result = if bilinear_op {
        resize_bilinear_int8(&x, d, p, &mut y)
    } else {
        resize_nearest_neighbor(&x, d, p, &mut y)
    };
    if !outcome(result, valid, &y, &before) {
        return;
    }
    let mut k = 0;
    for b in 0..d.batches {
        for oy in 0..d.output_height {
            for ox in 0..d.output_width {
                for c in 0..d.depth {
                    let want = if bilinear_op {
                        bilinear(&x, &d, p, b, oy, ox, c)
                    } else {
                        let sy = nearest(oy, d.input_height, d.output_height, p);
                        let sx = nearest(ox, d.input_width, d.output_width, p);
                        x[((b * d.input_height + sy) * d.input_width + sx) * d.depth + c]
                    };
                    assert_eq!(y[k], want, "output {k}");
                    k += 1;
                }
            }
        }
    }
}

fn transpose_conv(u: &mut Unstructured<'_>) {
    let d = TransposeConvDims {
        batches: small(u),
        input_height: small(u),
        input_width: small(u),
        input_depth: small(u),
        filter_height: small(u),
        filter_width: small(u),
        output_height: small(u) * 2,
        output_width: small(u) * 2,
        output_depth: small(u),
    };
    let channels = d.output_depth;
    let multipliers: Vec<QuantizedMultiplier> = match byte(u) % 4 {
        0 => vec![fully_connected_multiplier(scale(u), scale(u), scale(u)).expect("finite")],
        3 => vec![QuantizedMultiplier::from_parts(1 << 30, -2); channels + 1],
        _ => (0..channels)
            .map(|_| fully_connected_multiplier(scale(u), scale(u), scale(u)).expect("finite"))
            .collect(),
    };
    let p = TransposeConvParams {
        stride_height: small(u).min(3),
        stride_width: small(u).min(3),
        pad_top: small(u),
        pad_left: small(u),
        input_zero_point: int(u, -128, 127),
        output_zero_point: int(u, -128, 127),
        multipliers: &multipliers,
        output_min: int(u, -140, 20),
        output_max: int(u, -20, 140),
    };
    let in_len = d.batches * d.input_height * d.input_width * d.input_depth;
    let f_len = channels * d.filter_height * d.filter_width * d.input_depth;
    let out_len = d.batches * d.output_height * d.output_width * channels;
    let x = int8s(u, in_len);
    let f = int8s(u, f_len);
    let bias: Option<Vec<i32>> = flag(u).then(|| {
        let n = length(u, channels);
        (0..n).map(|k| (k as i32 - 2) * 1000).collect()
    });
    let mut y = output(u, out_len, 0x5Ai8);
    let before = y.clone();
    let valid = p.stride_height >= 1
        && p.stride_width >= 1
        && x.len() == in_len
        && f.len() == f_len
        && y.len() == out_len
        && bias.as_ref().is_none_or(|b| b.len() == channels)
        && (multipliers.len() == 1 || multipliers.len() == channels)
        && p.output_min <= p.output_max;
    let result = transpose_conv_int8(&x, &f[..], bias.as_deref(), d, &p, &mut y);
    if !outcome(result, valid, &y, &before) {
        return;
    }
    // the scatter: every input pixel adds to the outputs it reaches
    let mut acc = vec![0i32; out_len];
    for b in 0..d.batches {
        for iy in 0..d.input_height {
            for ix in 0..d.input_width {
                for ic in 0..d.input_depth {
                    let xv = i32::from(x[((b * d.input_height + iy) * d.input_width + ix) * d.input_depth + ic])
                        - p.input_zero_point;
                    for ky in 0..d.filter_height {
                        for kx in 0..d.filter_width {
                            let oy = (iy * p.stride_height + ky) as i64 - p.pad_top as i64;
                            let ox = (ix * p.stride_width + kx) as i64 - p.pad_left as i64;
                            if oy < 0 || ox < 0 || oy >= d.output_height as i64 || ox >= d.output_width as i64 {
                                continue;
                            }
                            for oc in 0..channels {
                                let fv = i32::from(f[((oc * d.filter_height + ky) * d.filter_width + kx) * d.input_depth + ic]);
                                let o = ((b * d.output_height + oy as usize) * d.output_width + ox as usize) * channels + oc;
                                acc[o] = acc[o].wrapping_add(xv * fv);
                            }
                        }
                    }
                }
            }
        }
    }
    for (o, (&a, &got)) in acc.iter().zip(&y).enumerate() {
        let oc = o % channels;
        let a = a.wrapping_add(bias.as_ref().map_or(0, |b| b[oc]));
        let m = multipliers[if multipliers.len() == 1 { 0 } else { oc }];
        assert_eq!(got, requantize(a, m, p.output_zero_point, p.output_min, p.output_max), "output {o}");
    }
}

fn batch_matmul(u: &mut Unstructured<'_>) {
    let (adj_x, adj_y) = (flag(u), flag(u));
    let (m, k, n) = (small(u), small(u), small(u));
    let batch = |u: &mut Unstructured<'_>| -> Vec<usize> {
        (0..byte(u) % 5).map(|_| if flag(u) { 1 } else { small(u) }).collect()
    };
    let (lb, rb) = (batch(u), batch(u));
    let rhs_k = if byte(u) % 8 == 0 { k + 1 } else { k };
    let mut ls = lb.clone();
    ls.extend(if adj_x { [k, m] } else { [m, k] });
    let mut rs = rb.clone();
    rs.extend(if adj_y { [n, rhs_k] } else { [rhs_k, n] });
    let Ok(params) = batch_matmul_params(scale(u), int(u, -128, 127), scale(u), int(u, -128, 127), scale(u), int(u, -128, 127), adj_x, adj_y) else {
        return;
    };
    // the broadcast batch, right-aligned; None where two dims differ and
    // neither is 1
    let r = lb.len().max(rb.len());
    let at = |b: &[usize], j: usize| (j + b.len()).checked_sub(r).map_or(1, |i| b[i]);
    let out_batch: Option<Vec<usize>> = (0..r)
        .map(|j| {
            let (p, q) = (at(&lb, j), at(&rb, j));
            (p == q || p == 1 || q == 1).then(|| if p == 1 { q } else { p })
        })
        .collect();
    let sizes_ok = lb.len() <= 3 && rb.len() <= 3 && rhs_k == k && out_batch.is_some();
    let out_batch = out_batch.unwrap_or_default();
    let out_len = product(&out_batch) * m * n;
    let a = int8s(u, product(&ls));
    let b = int8s(u, product(&rs));
    let mut y = output(u, out_len, 0x5Ai8);
    let before = y.clone();
    let valid = sizes_ok && a.len() == product(&ls) && b.len() == product(&rs) && y.len() == out_len;
    if !outcome(batch_matmul_int8(&a, &ls, &b, &rs, &params, &mut y), valid, &y, &before) {
        return;
    }
    let mut want = vec![];
    for c in coordinates(&out_batch) {
        let matrix = |dims: &[usize]| -> usize {
            let nb = dims.len() - 2;
            (0..nb).fold(0, |index, j| {
                let coordinate = c[r - nb + j];
                index * dims[j] + if dims[j] == 1 { 0 } else { coordinate }
            })
        };
        let (ai, bi) = (matrix(&ls) * m * k, matrix(&rs) * k * n);
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0i32;
                for t in 0..k {
                    let av = if adj_x { a[ai + t * m + i] } else { a[ai + i * k + t] };
                    let bv = if adj_y { b[bi + j * k + t] } else { b[bi + t * n + j] };
                    acc += (i32::from(av) - params.lhs_zero_point) * (i32::from(bv) - params.rhs_zero_point);
                }
                want.push(requantize(acc, params.multiplier, params.output_zero_point, -128, 127));
            }
        }
    }
    assert_eq!(y, want);
}

fn rows(u: &mut Unstructured<'_>) {
    let depth = small(u) * 3;
    let n_rows = small(u);
    let x = int8s(u, depth * n_rows);
    let mut y = output(u, x.len(), 0x5Ai8);
    let before = y.clone();
    let shape_ok = y.len() == x.len() && (depth > 0 && x.len() % depth == 0 || depth == 0 && x.is_empty());
    if flag(u) {
        let input_scale = scale(u) / 4.0;
        let Ok(params) = log_softmax_params(input_scale, 16.0 / 256.0, 127) else {
            return;
        };
        if !outcome(log_softmax_int8(&x, depth, &params, &mut y), shape_ok, &y, &before) {
            return;
        }
        for (row, outs) in x.chunks(depth.max(1)).zip(y.chunks(depth.max(1))) {
            let max_q = i32::from(*row.iter().max().expect("a row"));
            let real: Vec<f64> = row.iter().map(|&v| f64::from(v) * f64::from(input_scale)).collect();
            let max = real.iter().cloned().fold(f64::MIN, f64::max);
            let log_sum = real.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
            for ((&r, &got), &q) in real.iter().zip(outs).zip(row) {
                if i32::from(q) - max_q < params.diff_min {
                    assert_eq!(got, -128);
                    continue;
                }
                let want = ((r - max - log_sum) * 16.0 + 127.0).clamp(-128.0, 127.0);
                assert!((f64::from(got) - want).abs() <= 1.0, "{got} vs {want}");
            }
        }
    } else {
        let zp = int(u, -128, 127);
        let params = l2_normalization_params(zp).expect("an int8 zero point");
        if !outcome(l2_normalization_int8(&x, depth, &params, &mut y), shape_ok, &y, &before) {
            return;
        }
        for (row, outs) in x.chunks(depth.max(1)).zip(y.chunks(depth.max(1))) {
            let d: Vec<f64> = row.iter().map(|&v| f64::from(v) - f64::from(zp)).collect();
            let norm = d.iter().map(|v| v * v).sum::<f64>().max(1.0).sqrt();
            for (&v, &got) in d.iter().zip(outs) {
                let want = (v / norm * 128.0).clamp(-128.0, 127.0);
                assert!((f64::from(got) - want).abs() <= 1.0, "{got} vs {want}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 6 {
        0 => reductions(&mut u),
        1 => arg_min_max(&mut u),
        2 => resizes(&mut u),
        3 => transpose_conv(&mut u),
        4 => batch_matmul(&mut u),
        _ => rows(&mut u),
    }
});
