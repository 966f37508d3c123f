//! `shapecheck-tflite`'s `_prechecked` kernels (the kernels without their
//! checks, which the typed layers and `model!` call): `concatenation`,
//! `slice`, `split`, `resize_nearest_neighbor`, `resize_bilinear_int8`,
//! `mul_int8` (broadcast), `add_int8_in_place` and `transpose_conv_int8`,
//! each on arbitrary shapes and parameters, mostly within what its checked
//! form accepts, sometimes not (a length one off, a box past the input);
//! and the typed layers' `_into` paths over them (`shapecheck::ops::layers`:
//! `concatenation_int8_into`, `mul_int8_into`, both resizes'
//! `_into`, `slice_int8_into`, `split_int8_into`), on fixed shapes (their
//! types) with arbitrary values and parameters.
//!
//! Also a depthwise or 1×1 convolution written over its own input
//! (`stream::InPlaceLayer`): `InPlaceLayer::prechecked`'s `run_prechecked`
//! never panics on any layer, buffer or scratch; where `InPlaceLayer::new`
//! accepts the layer and the lengths are right, the buffer holds the
//! whole-tensor kernel's output (`depthwise_conv_int8`, `conv_2d_int8`,
//! each itself checked against the plain reference by the kernel tests).
//!
//! Invariants: the `_prechecked` form never panics, whatever it is given;
//! where the checked form accepts the operands, both write the same
//! output, and it equals a naive reference written plainly here (each
//! output element computed from the input elements it reads, one by one).
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck::ops::layers::{
    concatenation_int8_into, mul_int8_into, resize_bilinear_int8_into, resize_nearest_int8_into,
    slice_int8_into, split_int8_into, Begin, MulInt8, Resize,
};
use shapecheck::prelude::*;
use shapecheck_tflite::stream::{InPlaceLayer, Stage};
use shapecheck_tflite::{
    add_int8, add_int8_in_place, conv_2d_int8, depthwise_conv_int8, Conv2dDims, Conv2dParams,
    DepthwiseConvDims, DepthwiseConvParams, add_int8_in_place_prechecked, add_params, concatenation,
    concatenation_prechecked, mul_int8, mul_int8_prechecked, mul_params, quantize_multiplier,
    resize_bilinear_int8, resize_bilinear_int8_prechecked, resize_nearest_neighbor,
    resize_nearest_neighbor_prechecked, slice, slice_prechecked, split, split_prechecked,
    transpose_conv_int8, transpose_conv_int8_prechecked, AddOver, ConcatenationParams, MulParams,
    QuantizedMultiplier, ResizeDims, ResizeParams, Rounding, SliceParams, SplitParams,
    TransposeConvDims, TransposeConvParams,
};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

fn size(u: &mut Unstructured<'_>, lo: usize, hi: usize) -> usize {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

fn shape(u: &mut Unstructured<'_>, rank: usize) -> Vec<usize> {
    (0..rank).map(|_| size(u, 0, 4)).collect()
}

/// Arbitrary int8 values.
fn values(u: &mut Unstructured<'_>, n: usize) -> Vec<i8> {
    (0..n).map(|_| byte(u) as i8).collect()
}

/// A buffer's length: mostly `n`, sometimes one off.
fn length(u: &mut Unstructured<'_>, n: usize) -> usize {
    match byte(u) % 8 {
        0 => n.saturating_sub(1),
        1 => n + 1,
        _ => n,
    }
}

fn count(shape: &[usize]) -> usize {
    shape.iter().product()
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

/// The checked form's output (`None` when it refuses), the prechecked
/// form's, and their agreement with `want` where the checked one accepts.
fn agree<T: PartialEq + std::fmt::Debug>(
    checked: Option<Vec<T>>,
    prechecked: Vec<T>,
    want: Vec<T>,
) {
    if let Some(checked) = checked {
        assert_eq!(checked, want, "the checked form against the reference");
        assert_eq!(
            prechecked, want,
            "the prechecked form against the reference"
        );
    }
}

/// Concatenation's reference: each output element is read from the input
/// whose span along the axis holds its coordinate there, at the
/// coordinate less the spans before.
fn concat_reference(inputs: &[&[i8]], shapes: &[Vec<usize>], axis: usize) -> Vec<i8> {
    let mut out_shape = shapes[0].clone();
    out_shape[axis] = shapes.iter().map(|s| s[axis]).sum();
    (0..count(&out_shape))
        .map(|flat| {
            let mut index = unravel(flat, &out_shape);
            let mut k = 0;
            while index[axis] >= shapes[k][axis] {
                index[axis] -= shapes[k][axis];
                k += 1;
            }
            inputs[k][ravel(&index, &shapes[k])]
        })
        .collect()
}

fn concatenation_case(u: &mut Unstructured<'_>) {
    let rank = size(u, 1, 4);
    let axis = size(u, 0, rank - 1);
    let base = shape(u, rank);
    let n = size(u, 1, 4);
    let shapes: Vec<Vec<usize>> = (0..n)
        .map(|_| {
            let mut s = base.clone();
            s[axis] = size(u, 0, 4);
            // sometimes another dim differs too: the checked form refuses
            if byte(u) % 16 == 0 {
                let k = size(u, 0, rank - 1);
                s[k] += 1;
            }
            s
        })
        .collect();
    let inputs: Vec<Vec<i8>> = shapes
        .iter()
        .map(|s| {
            let len = length(u, count(s));
            values(u, len)
        })
        .collect();
    let mut out_shape = base.clone();
    out_shape[axis] = shapes.iter().map(|s| s[axis]).sum();
    let out_len = count(&out_shape);
    let input_refs: Vec<&[i8]> = inputs.iter().map(Vec::as_slice).collect();
    let shape_refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
    let params = ConcatenationParams { axis };
    let mut prechecked = vec![0x55i8; out_len];
    concatenation_prechecked(&input_refs, &shape_refs, &params, &mut prechecked);
    let mut checked = vec![0x55i8; out_len];
    let accepted = concatenation(&input_refs, &shape_refs, &params, &mut checked).is_ok();
    if !accepted {
        return;
    }
    let want = concat_reference(&input_refs, &shapes, axis);
    agree(Some(checked), prechecked, want);
}

/// Slice's reference: output index `i` reads the input at `begin + i`.
fn slice_reference(
    input: &[i8],
    input_shape: &[usize],
    begin: &[usize],
    size: &[usize],
) -> Vec<i8> {
    (0..count(size))
        .map(|flat| {
            let index: Vec<usize> = unravel(flat, size)
                .iter()
                .zip(begin)
                .map(|(&i, &b)| i + b)
                .collect();
            input[ravel(&index, input_shape)]
        })
        .collect()
}

fn slice_case(u: &mut Unstructured<'_>) {
    let rank = size(u, 0, 5);
    let input_shape = shape(u, rank);
    let mut params = SliceParams {
        rank,
        begin: [0; 5],
        size: [0; 5],
    };
    for k in 0..rank {
        let dim = input_shape[k];
        params.begin[k] = size(u, 0, dim);
        params.size[k] = size(u, 0, dim - params.begin[k]);
        // sometimes past the input: the checked form refuses
        if byte(u) % 16 == 0 {
            params.size[k] += 1;
        }
    }
    let size_shape: Vec<usize> = params.size[..rank].to_vec();
    let input_len = length(u, count(&input_shape));
    let input = values(u, input_len);
    let out_len = length(u, count(&size_shape));
    let mut prechecked = vec![0x55i8; out_len];
    slice_prechecked(&input, &input_shape, &params, &mut prechecked);
    let mut checked = vec![0x55i8; out_len];
    if slice(&input, &input_shape, &params, &mut checked).is_err() {
        return;
    }
    let want = slice_reference(&input, &input_shape, &params.begin[..rank], &size_shape);
    agree(Some(checked), prechecked, want);
}

/// Split's reference: the pieces one after the other, piece `k`'s index
/// `i` reading the input at `i` moved along the axis by the pieces before.
fn split_reference(input: &[i8], input_shape: &[usize], axis: usize, sizes: &[usize]) -> Vec<i8> {
    let mut want = Vec::new();
    let mut offset = 0;
    for &size in sizes {
        let mut s = input_shape.to_vec();
        s[axis] = size;
        for flat in 0..count(&s) {
            let mut index = unravel(flat, &s);
            index[axis] += offset;
            want.push(input[ravel(&index, input_shape)]);
        }
        offset += size;
    }
    want
}

fn split_case(u: &mut Unstructured<'_>) {
    let rank = size(u, 1, 4);
    let axis = size(u, 0, rank - 1);
    let mut input_shape = shape(u, rank);
    let n = size(u, 1, 4);
    let mut sizes = [0usize; 16];
    for s in sizes.iter_mut().take(n) {
        *s = size(u, 0, 3);
    }
    input_shape[axis] = sizes[..n].iter().sum();
    // sometimes the sizes do not add up: the checked form refuses
    if byte(u) % 16 == 0 {
        input_shape[axis] += 1;
    }
    let params = SplitParams {
        axis,
        count: n,
        sizes,
    };
    let input_len = length(u, count(&input_shape));
    let input = values(u, input_len);
    let piece_shapes: Vec<Vec<usize>> = (0..n)
        .map(|k| {
            let mut s = input_shape.clone();
            s[axis] = sizes[k];
            s
        })
        .collect();
    let lens: Vec<usize> = piece_shapes.iter().map(|s| length(u, count(s))).collect();
    let run = |f: &dyn Fn(&mut [&mut [i8]]) -> bool| {
        let mut pieces: Vec<Vec<i8>> = lens.iter().map(|&l| vec![0x55i8; l]).collect();
        let mut refs: Vec<&mut [i8]> = pieces.iter_mut().map(Vec::as_mut_slice).collect();
        let ok = f(&mut refs);
        (ok, pieces.concat())
    };
    let (_, prechecked) = run(&|outs| {
        split_prechecked(&input, &input_shape, &params, outs);
        true
    });
    let (accepted, checked) = run(&|outs| split(&input, &input_shape, &params, outs).is_ok());
    if !accepted {
        return;
    }
    let want = split_reference(&input, &input_shape, axis, &sizes[..n]);
    agree(Some(checked), prechecked, want);
}

/// Resize's operands: dims of a few pixels, the flags (both set
/// sometimes: bilinear refuses them), the input.
fn resize_operands(u: &mut Unstructured<'_>) -> (ResizeDims, ResizeParams, Vec<i8>, usize) {
    let dims = ResizeDims {
        batches: size(u, 0, 2),
        input_height: size(u, 0, 5),
        input_width: size(u, 0, 5),
        depth: size(u, 0, 3),
        output_height: size(u, 0, 9),
        output_width: size(u, 0, 9),
    };
    let params = ResizeParams {
        align_corners: byte(u) % 2 == 0,
        half_pixel_centers: byte(u) % 2 == 0,
    };
    let in_len = length(
        u,
        dims.batches * dims.input_height * dims.input_width * dims.depth,
    );
    let input = values(u, in_len);
    let out_len = length(
        u,
        dims.batches * dims.output_height * dims.output_width * dims.depth,
    );
    (dims, params, input, out_len)
}

/// TFLite's `GetNearestNeighbor`, in f32 as TFLite computes it.
fn nearest_source(y: usize, input_size: usize, output_size: usize, p: ResizeParams) -> usize {
    let scale = if p.align_corners && output_size > 1 {
        (input_size - 1) as f32 / (output_size - 1) as f32
    } else {
        input_size as f32 / output_size as f32
    };
    let offset = if p.half_pixel_centers { 0.5f32 } else { 0.0 };
    let source = (y as f32 + offset) * scale;
    let index = if p.align_corners {
        source.round()
    } else {
        source.floor()
    };
    (index as usize).min(input_size - 1)
}

/// Nearest-neighbour resize's reference: each output pixel copies the
/// input pixel at [`nearest_source`]'s row and column.
fn nearest_reference(input: &[i8], d: ResizeDims, p: ResizeParams) -> Vec<i8> {
    let out_shape = [d.batches, d.output_height, d.output_width, d.depth];
    let in_shape = [d.batches, d.input_height, d.input_width, d.depth];
    (0..count(&out_shape))
        .map(|flat| {
            let [b, y, x, c] = unravel(flat, &out_shape)[..] else {
                unreachable!()
            };
            let sy = nearest_source(y, d.input_height, d.output_height, p);
            let sx = nearest_source(x, d.input_width, d.output_width, p);
            input[ravel(&[b, sy, sx, c], &in_shape)]
        })
        .collect()
}

fn resize_nearest_case(u: &mut Unstructured<'_>) {
    let (d, p, input, out_len) = resize_operands(u);
    let mut prechecked = vec![0x55i8; out_len];
    resize_nearest_neighbor_prechecked(&input, d, p, &mut prechecked);
    let mut checked = vec![0x55i8; out_len];
    if resize_nearest_neighbor(&input, d, p, &mut checked).is_err() {
        return;
    }
    let want = nearest_reference(&input, d, p);
    agree(Some(checked), prechecked, want);
}

/// TFLite's integer bilinear sampling along one axis
/// (`ComputeInterpolationValuesInteger`): the scale in 1/1024 steps,
/// rounded; the source position in 1/1024 steps; the rows below and
/// above it, within the input.
fn bilinear_source(
    y: usize,
    input_size: usize,
    output_size: usize,
    p: ResizeParams,
) -> (i64, i64, i64) {
    let (i, o) = (input_size as i64, output_size as i64);
    let scale = if p.align_corners && o > 1 {
        (1024 * (i - 1) + (o - 1) / 2) / (o - 1)
    } else {
        (1024 * i + o / 2) / o
    };
    let mut source = y as i64 * scale;
    if p.half_pixel_centers {
        source += scale / 2 - 512;
    }
    // C's division, toward zero
    let below = (source / 1024).max(0);
    let above = ((source + 1023) / 1024).min(i - 1);
    (source, below, above)
}

/// Bilinear resize's reference: the four input pixels around
/// [`bilinear_source`]'s position, weighted in 1/1024 steps per axis.
fn bilinear_reference(input: &[i8], d: ResizeDims, p: ResizeParams) -> Vec<i8> {
    let out_shape = [d.batches, d.output_height, d.output_width, d.depth];
    let in_shape = [d.batches, d.input_height, d.input_width, d.depth];
    (0..count(&out_shape))
        .map(|flat| {
            let [b, y, x, c] = unravel(flat, &out_shape)[..] else {
                unreachable!()
            };
            let (sy, y0, y1) = bilinear_source(y, d.input_height, d.output_height, p);
            let (sx, x0, x1) = bilinear_source(x, d.input_width, d.output_width, p);
            let (dy, dx) = (sy - 1024 * y0, sx - 1024 * x0);
            let at = |yy: i64, xx: i64| {
                i64::from(input[ravel(&[b, yy as usize, xx as usize, c], &in_shape)])
            };
            let sum = at(y0, x0) * (1024 - dy) * (1024 - dx)
                + at(y1, x0) * dy * (1024 - dx)
                + at(y0, x1) * (1024 - dy) * dx
                + at(y1, x1) * dy * dx;
            // 1/2^20 steps, rounded half away from zero
            let rounded = if sum >= 0 {
                (sum + (1 << 19)) / (1 << 20)
            } else {
                (sum - (1 << 19)) / (1 << 20)
            };
            rounded as i8
        })
        .collect()
}

fn resize_bilinear_case(u: &mut Unstructured<'_>) {
    let (d, p, input, out_len) = resize_operands(u);
    let mut prechecked = vec![0x55i8; out_len];
    resize_bilinear_int8_prechecked(&input, d, p, &mut prechecked);
    let mut checked = vec![0x55i8; out_len];
    if resize_bilinear_int8(&input, d, p, &mut checked).is_err() {
        return;
    }
    let want = bilinear_reference(&input, d, p);
    agree(Some(checked), prechecked, want);
}

/// A scale of 1/16 to 2, in 1/16 steps.
fn scale(u: &mut Unstructured<'_>) -> f32 {
    f32::from(byte(u) % 32 + 1) / 16.0
}

/// numpy's broadcast of two shapes that broadcast: the longer rank, the
/// shorter shape padded with 1s in front, each dim the one that is not 1
/// (0 against 1 is 0).
fn broadcast_of(a_shape: &[usize], b_shape: &[usize]) -> Vec<usize> {
    let full = a_shape.len().max(b_shape.len());
    let dim = |s: &[usize], k: usize| {
        let pad = full - s.len();
        if k < pad {
            1
        } else {
            s[k - pad]
        }
    };
    (0..full)
        .map(|k| {
            let (da, db) = (dim(a_shape, k), dim(b_shape, k));
            if da == 1 {
                db
            } else {
                da
            }
        })
        .collect()
}

/// Broadcast `MUL`'s reference: each output element from the two
/// elements it reads (a dim of 1 read at 0, the shorter shape padded with
/// 1s in front), multiplied as one-element tensors by the checked kernel.
fn mul_reference(
    a: &[i8],
    a_shape: &[usize],
    b: &[i8],
    b_shape: &[usize],
    params: &MulParams,
) -> Vec<i8> {
    let full = a_shape.len().max(b_shape.len());
    let o_shape = broadcast_of(a_shape, b_shape);
    // each output element: the two elements it reads (a dim of 1 read at
    // 0), multiplied as one-element tensors
    (0..count(&o_shape))
        .map(|flat| {
            let index = unravel(flat, &o_shape);
            let at = |s: &[usize]| {
                let pad = full - s.len();
                let i: Vec<usize> = s
                    .iter()
                    .enumerate()
                    .map(|(k, &d)| if d == 1 { 0 } else { index[k + pad] })
                    .collect();
                ravel(&i, s)
            };
            let mut one = [0i8];
            mul_int8(
                &[a[at(a_shape)]][..],
                &[1],
                &[b[at(b_shape)]][..],
                &[1],
                params,
                &mut one,
            )
            .expect("one element");
            one[0]
        })
        .collect()
}

fn mul_case(u: &mut Unstructured<'_>) {
    let rank = size(u, 0, 4);
    let out_shape = shape(u, rank);
    // each input: the output's trailing dims, each kept or made 1
    let broadcast = |u: &mut Unstructured<'_>| -> Vec<usize> {
        let drop = size(u, 0, rank);
        let mut s: Vec<usize> = out_shape[drop..]
            .iter()
            .map(|&d| if byte(u) % 3 == 0 { 1 } else { d })
            .collect();
        // sometimes a dim that does not broadcast: the checked form refuses
        if !s.is_empty() && byte(u) % 16 == 0 {
            s[0] += 2;
        }
        s
    };
    let (a_shape, b_shape) = (broadcast(u), broadcast(u));
    let a_len = length(u, count(&a_shape));
    let a = values(u, a_len);
    let b_len = length(u, count(&b_shape));
    let b = values(u, b_len);
    let (lo, hi) = (int(u, -128, 0), int(u, 0, 127));
    let Ok(params) = mul_params(
        scale(u),
        int(u, -128, 127),
        scale(u),
        int(u, -128, 127),
        scale(u),
        int(u, -128, 127),
        lo,
        hi,
    ) else {
        return;
    };
    let o_shape = broadcast_of(&a_shape, &b_shape);
    let out_len = length(u, count(&o_shape));
    let mut prechecked = vec![0x55i8; out_len];
    mul_int8_prechecked(&a[..], &a_shape, &b[..], &b_shape, &params, &mut prechecked);
    let mut checked = vec![0x55i8; out_len];
    if mul_int8(&a[..], &a_shape, &b[..], &b_shape, &params, &mut checked).is_err() {
        return;
    }
    let want = mul_reference(&a, &a_shape, &b, &b_shape, &params);
    agree(Some(checked), prechecked, want);
}

fn add_in_place_case(u: &mut Unstructured<'_>) {
    let n = size(u, 0, 40);
    let target = values(u, n);
    let other_len = length(u, n);
    let other = values(u, other_len);
    let over = if byte(u) % 2 == 0 {
        AddOver::Input1
    } else {
        AddOver::Input2
    };
    let (lo, hi) = (int(u, -128, 0), int(u, 0, 127));
    let Ok(params) = add_params(
        scale(u),
        int(u, -128, 127),
        scale(u),
        int(u, -128, 127),
        scale(u),
        int(u, -128, 127),
        lo,
        hi,
    ) else {
        return;
    };
    let mut prechecked = target.clone();
    add_int8_in_place_prechecked(&mut prechecked, &other, over, &params);
    let mut checked = target.clone();
    if add_int8_in_place(&mut checked, &other, over, &params).is_err() {
        assert_eq!(
            checked, target,
            "a refused call leaves the target untouched"
        );
        return;
    }
    // the reference: ADD into a separate output, the inputs in their order
    let (x1, x2) = if over == AddOver::Input1 {
        (&target, &other)
    } else {
        (&other, &target)
    };
    let mut want = vec![0i8; n];
    add_int8(&x1[..], &[n], &x2[..], &[n], &params, &mut want).expect("the same operands");
    agree(Some(checked), prechecked, want);
}

fn in_place_case(u: &mut Unstructured<'_>) {
    let depthwise = byte(u) % 2 == 0;
    let (h, w) = (size(u, 0, 6), size(u, 0, 5));
    let c = if depthwise { 4 * size(u, 0, 3) } else { size(u, 0, 8) };
    let oc = if depthwise { c } else { size(u, 0, 8) };
    let (kh, kw) = if depthwise { (size(u, 1, 3), size(u, 1, 3)) } else { (1, 1) };
    let (sh, sw) = (size(u, 1, 2), size(u, 1, 2));
    let (pt, pl) = (size(u, 0, 2), size(u, 0, 2));
    let out = |n: usize, k: usize, s: usize, p: usize| (n + 2 * p).checked_sub(k).map(|v| v / s + 1);
    // mostly the layer's own output size, sometimes one off
    let (Some(oh), Some(ow)) = (out(h, kh, sh, pt), out(w, kw, sw, pl)) else {
        return;
    };
    let (oh, ow) = if byte(u) % 8 == 0 { (oh + 1, ow) } else { (oh, ow) };
    let filter = values(u, kh * kw * c.max(1) * if depthwise { 1 } else { oc });
    let bias: Vec<i32> = (0..oc).map(|_| int(u, -5000, 5000)).collect();
    let multipliers: Vec<QuantizedMultiplier> = (0..if byte(u) % 2 == 0 { 1 } else { oc })
        .map(|_| quantize_multiplier(f64::from(byte(u)) / 256.0 + 1e-3).unwrap_or(QuantizedMultiplier::ZERO))
        .collect();
    let bias = (byte(u) % 2 == 0).then_some(&bias[..]);
    let (zi, zo) = (int(u, -128, 127), int(u, -128, 127));
    let stage = if depthwise {
        Stage::Depthwise {
            filter: &filter,
            bias,
            prepared: None,
            dims: DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: c,
                filter_height: kh, filter_width: kw, depth_multiplier: 1,
                output_height: oh, output_width: ow,
            },
            params: DepthwiseConvParams {
                stride_height: sh, stride_width: sw, dilation_height: 1, dilation_width: 1,
                pad_top: pt, pad_left: pl, input_zero_point: zi, output_zero_point: zo,
                multipliers: &multipliers, output_min: -128, output_max: 127,
                rounding: Rounding::Double,
            },
        }
    } else {
        Stage::Conv {
            filter: &filter,
            bias,
            prepared: None,
            dims: Conv2dDims {
                batches: 1, input_height: h, input_width: w, input_depth: c,
                filter_height: 1, filter_width: 1,
                output_height: oh, output_width: ow, output_depth: oc,
            },
            params: Conv2dParams {
                stride_height: sh, stride_width: sw, dilation_height: 1, dilation_width: 1,
                pad_top: 0, pad_left: 0, input_zero_point: zi, output_zero_point: zo,
                multipliers: &multipliers, output_min: -128, output_max: 127,
                rounding: Rounding::Double,
            },
        }
    };
    let band = size(u, 0, 7);
    let input = values(u, h * w * c);
    // unchecked: any layer, any lengths, never a panic
    let io_len = length(u, input.len());
    let mut io = values(u, io_len);
    let scratch_len = size(u, 0, 600);
    InPlaceLayer::prechecked(stage, band).run_prechecked(&mut io, &mut vec![0; scratch_len]);
    let Ok(layer) = InPlaceLayer::new(stage, band) else {
        return;
    };
    let mut io = input.clone();
    let mut scratch = vec![0x55u8 as i8; layer.scratch_len()];
    layer.run(&mut io, &mut scratch).expect("the lengths are the layer's");
    let mut want = vec![0i8; layer.output_len()];
    let whole = match stage {
        Stage::Depthwise { filter, bias, dims, params, .. } => {
            depthwise_conv_int8(&input, filter, bias, dims, &params, &mut want)
        }
        Stage::Conv { filter, bias, dims, params, .. } => {
            conv_2d_int8(&input, filter, bias, dims, &params, &mut want)
        }
        _ => return,
    };
    whole.expect("InPlaceLayer::new accepted the layer: its kernel does too");
    assert_eq!(&io[..want.len()], &want[..], "written over its input = the whole layer");
}

fn transpose_conv_case(u: &mut Unstructured<'_>) {
    let dims = TransposeConvDims {
        batches: size(u, 0, 2),
        input_height: size(u, 0, 4),
        input_width: size(u, 0, 4),
        input_depth: size(u, 0, 3),
        filter_height: size(u, 0, 3),
        filter_width: size(u, 0, 3),
        output_height: size(u, 0, 8),
        output_width: size(u, 0, 8),
        output_depth: size(u, 0, 3),
    };
    let d = dims;
    let in_len = length(
        u,
        d.batches * d.input_height * d.input_width * d.input_depth,
    );
    let input = values(u, in_len);
    let f_len = length(
        u,
        d.output_depth * d.filter_height * d.filter_width * d.input_depth,
    );
    let filter = values(u, f_len);
    let bias: Option<Vec<i32>> = (byte(u) % 2 == 0).then(|| {
        let n = length(u, d.output_depth);
        (0..n).map(|_| int(u, -5000, 5000)).collect()
    });
    let per_channel = byte(u) % 2 == 0;
    let m_count = if per_channel { d.output_depth } else { 1 };
    let m_count = length(u, m_count);
    let multipliers: Vec<QuantizedMultiplier> = (0..m_count)
        .map(|_| quantize_multiplier(f64::from(byte(u) % 64 + 1) / 256.0).expect("a multiplier"))
        .collect();
    let (lo, hi) = (int(u, -128, 10), int(u, -10, 127));
    let params = TransposeConvParams {
        stride_height: size(u, 0, 3),
        stride_width: size(u, 0, 3),
        pad_top: size(u, 0, 2),
        pad_left: size(u, 0, 2),
        input_zero_point: int(u, -128, 127),
        output_zero_point: int(u, -128, 127),
        multipliers: &multipliers,
        output_min: lo,
        output_max: hi,
    };
    let out_len = length(
        u,
        d.batches * d.output_height * d.output_width * d.output_depth,
    );
    let mut prechecked = vec![0x55i8; out_len];
    transpose_conv_int8_prechecked(
        &input,
        &filter[..],
        bias.as_deref(),
        dims,
        &params,
        &mut prechecked,
    );
    let mut checked = vec![0x55i8; out_len];
    if transpose_conv_int8(
        &input,
        &filter[..],
        bias.as_deref(),
        dims,
        &params,
        &mut checked,
    )
    .is_err()
    {
        return;
    }
    // the scatter form: each input pixel times each filter tap, added at
    // the output position it lands on, the padding cut off
    let out_shape = [d.batches, d.output_height, d.output_width, d.output_depth];
    let mut acc = vec![0i32; out_len];
    for b in 0..d.batches {
        for iy in 0..d.input_height {
            for ix in 0..d.input_width {
                for ky in 0..d.filter_height {
                    for kx in 0..d.filter_width {
                        let oy = (iy * params.stride_height + ky).checked_sub(params.pad_top);
                        let ox = (ix * params.stride_width + kx).checked_sub(params.pad_left);
                        let (Some(oy), Some(ox)) = (oy, ox) else {
                            continue;
                        };
                        if oy >= d.output_height || ox >= d.output_width {
                            continue;
                        }
                        for oc in 0..d.output_depth {
                            for ic in 0..d.input_depth {
                                let x = i32::from(
                                    input[ravel(
                                        &[b, iy, ix, ic],
                                        &[d.batches, d.input_height, d.input_width, d.input_depth],
                                    )],
                                ) - params.input_zero_point;
                                let f = i32::from(
                                    filter[ravel(
                                        &[oc, ky, kx, ic],
                                        &[
                                            d.output_depth,
                                            d.filter_height,
                                            d.filter_width,
                                            d.input_depth,
                                        ],
                                    )],
                                );
                                acc[ravel(&[b, oy, ox, oc], &out_shape)] += x * f;
                            }
                        }
                    }
                }
            }
        }
    }
    let want: Vec<i8> = acc
        .iter()
        .enumerate()
        .map(|(flat, &a)| {
            let oc = flat % d.output_depth;
            let a = a + bias.as_ref().map_or(0, |b| b[oc]);
            // the checked form took one multiplier, or one per channel
            let m = multipliers[if multipliers.len() == 1 { 0 } else { oc }];
            let scaled =
                shapecheck_tflite::multiply_by_quantized_multiplier(a, m, Rounding::Double)
                    + params.output_zero_point;
            scaled.clamp(params.output_min, params.output_max) as i8
        })
        .collect();
    agree(Some(checked), prechecked, want);
}

/// A typed tensor of shape `S` holding `data`, which has its elements.
fn typed<S: FixedShape>(data: &[i8]) -> Tensor<i8, S> {
    Tensor::from_slice(data).expect("the shape's elements")
}

/// The typed layers' `_into` paths (`shapecheck::ops::layers`), which
/// call the `_prechecked` kernels once their shapes are types: a few
/// fixed shapes each, arbitrary values and parameters, every output
/// element written (the output starts as 0x55) and equal to the
/// reference.
fn typed_layers_case(u: &mut Unstructured<'_>) {
    match byte(u) % 6 {
        0 => {
            let (a, b) = (values(u, 6), values(u, 12));
            let mut y = Tensor::<i8, shape![2, 3, 3]>::full(0x55);
            concatenation_int8_into(
                &typed::<shape![2, 3, 1]>(&a),
                &typed::<shape![2, 3, 2]>(&b),
                Axis::<-1>,
                &mut y,
            );
            let want = concat_reference(&[&a, &b], &[vec![2, 3, 1], vec![2, 3, 2]], 2);
            assert_eq!(y.as_slice(), &want[..]);
        }
        1 => {
            let (a, b) = (values(u, 24), values(u, 3));
            let (lo, hi) = (int(u, -128, 0), int(u, 0, 127));
            let Ok(params) = mul_params(
                scale(u),
                int(u, -128, 127),
                scale(u),
                int(u, -128, 127),
                scale(u),
                int(u, -128, 127),
                lo,
                hi,
            ) else {
                return;
            };
            let Ok(mul) = MulInt8::new(params) else {
                return;
            };
            let mut y = Tensor::<i8, shape![2, 3, 4]>::full(0x55);
            mul_int8_into(
                &typed::<shape![2, 3, 4]>(&a),
                &typed::<shape![3, 1]>(&b),
                &mul,
                &mut y,
            );
            let want = mul_reference(&a, &[2, 3, 4], &b, &[3, 1], &params);
            assert_eq!(y.as_slice(), &want[..]);
        }
        2 | 3 => {
            let input = values(u, 12);
            let p = ResizeParams {
                align_corners: byte(u) % 2 == 0,
                half_pixel_centers: byte(u) % 2 == 0,
            };
            let Ok(resize) = Resize::new(p.align_corners, p.half_pixel_centers) else {
                return;
            };
            let d = ResizeDims {
                batches: 1,
                input_height: 3,
                input_width: 2,
                depth: 2,
                output_height: 5,
                output_width: 7,
            };
            let x = typed::<shape![1, 3, 2, 2]>(&input);
            let mut y = Tensor::<i8, shape![1, 5, 7, 2]>::full(0x55);
            let want = if byte(u) % 2 == 0 {
                resize_nearest_int8_into(&x, &resize, &mut y);
                nearest_reference(&input, d, p)
            } else {
                resize_bilinear_int8_into(&x, &resize, &mut y);
                bilinear_reference(&input, d, p)
            };
            assert_eq!(y.as_slice(), &want[..]);
        }
        4 => {
            let input = values(u, 24);
            let mut y = Tensor::<i8, shape![2, 2, 2]>::full(0x55);
            slice_int8_into(&typed::<shape![3, 4, 2]>(&input), Begin::<1, 2, 0>, &mut y);
            let want = slice_reference(&input, &[3, 4, 2], &[1, 2, 0], &[2, 2, 2]);
            assert_eq!(y.as_slice(), &want[..]);
        }
        _ => {
            let input = values(u, 12);
            let mut pieces = [
                Tensor::<i8, shape![2, 2]>::full(0x55),
                Tensor::full(0x55),
                Tensor::full(0x55),
            ];
            split_int8_into(&typed::<shape![2, 6]>(&input), Axis::<1>, &mut pieces);
            let got: Vec<i8> = pieces.iter().flat_map(|t| t.as_slice().to_vec()).collect();
            assert_eq!(got, split_reference(&input, &[2, 6], 1, &[2, 2, 2]));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match byte(&mut u) % 10 {
        0 => concatenation_case(&mut u),
        1 => slice_case(&mut u),
        2 => split_case(&mut u),
        3 => resize_nearest_case(&mut u),
        4 => resize_bilinear_case(&mut u),
        5 => mul_case(&mut u),
        6 => add_in_place_case(&mut u),
        7 => transpose_conv_case(&mut u),
        8 => in_place_case(&mut u),
        _ => typed_layers_case(&mut u),
    }
});
