//! `shapecheck-tflite`'s kernels called directly, as `ops::layers` and the
//! `Interpreter` call them, with dims, strides, dilations, paddings, zero
//! points, multipliers, clamps and buffer lengths from the input: the
//! buffers sometimes match the dims and sometimes not.
//!
//! Invariants: no panic, no overflow, no read out of bounds; an error
//! leaves the output untouched and has a message that is not empty; an
//! accepted call writes every output element inside its clamp (int8), and
//! equals a naive reference (the same arithmetic, one output at a time,
//! `multiply_by_quantized_multiplier` from the crate's shared quant.rs).
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use shapecheck_tflite::{
    depthwise_conv_int8, fully_connected_int8, multiply_by_quantized_multiplier, softmax_int8,
    softmax_params, DepthwiseConvDims, DepthwiseConvParams, FullyConnectedDims,
    FullyConnectedParams, QuantizedMultiplier, Rounding,
};

/// A small number: mostly 0 to 5, sometimes up to 255.
fn small(u: &mut Unstructured<'_>) -> usize {
    let b = u.arbitrary::<u8>().unwrap_or(0);
    if b < 240 {
        usize::from(b % 6)
    } else {
        usize::from(u.arbitrary::<u8>().unwrap_or(0))
    }
}

fn int(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> i32 {
    u.int_in_range(lo..=hi).unwrap_or(lo)
}

/// A zero point: in int8's range, sometimes anything.
fn zero_point(u: &mut Unstructured<'_>) -> i32 {
    if u.arbitrary::<u8>().unwrap_or(0) < 230 {
        int(u, -128, 127)
    } else {
        u.arbitrary::<i32>().unwrap_or(0)
    }
}

fn multiplier(u: &mut Unstructured<'_>) -> QuantizedMultiplier {
    QuantizedMultiplier::from_parts(u.arbitrary().unwrap_or(0), int(u, -40, 40))
}

/// `count` multipliers, or another count (a wrong one is an error).
fn multipliers(u: &mut Unstructured<'_>, channels: usize) -> Vec<QuantizedMultiplier> {
    let n = match u.arbitrary::<u8>().unwrap_or(0) % 4 {
        0 => 1,
        1 | 2 => channels,
        _ => small(u),
    };
    (0..n).map(|_| multiplier(u)).collect()
}

/// `len` values, or a length off by up to two either way.
fn buffer<T: Copy + Default>(u: &mut Unstructured<'_>, len: usize, value: impl Fn(u8) -> T) -> Vec<T> {
    let len = match u.arbitrary::<u8>().unwrap_or(0) % 8 {
        0 => len.saturating_sub(1),
        1 => len + 2,
        _ => len,
    };
    (0..len.min(1 << 16)).map(|_| value(u.arbitrary::<u8>().unwrap_or(0))).collect()
}

/// The clamp `[min, max]`: inside int8's range (sometimes reversed or wide).
fn clamp(u: &mut Unstructured<'_>) -> (i32, i32) {
    match u.arbitrary::<u8>().unwrap_or(0) % 8 {
        0 => (int(u, -300, 300), int(u, -300, 300)),
        1 => (0, 127),
        _ => (-128, 127),
    }
}

fn rounding(u: &mut Unstructured<'_>) -> Rounding {
    if u.arbitrary::<bool>().unwrap_or(false) {
        Rounding::Double
    } else {
        Rounding::Single
    }
}

/// One requantized output, as both kernels compute it.
fn requantize(acc: i32, m: QuantizedMultiplier, r: Rounding, zp: i32, lo: i32, hi: i32) -> i8 {
    let v = multiply_by_quantized_multiplier(acc, m, r).saturating_add(zp);
    // TFLite's order: max then min, then int8's range
    v.max(lo).min(hi).clamp(-128, 127) as i8
}

fn depthwise(u: &mut Unstructured<'_>) {
    let dims = DepthwiseConvDims {
        batches: small(u).min(3),
        input_height: small(u),
        input_width: small(u),
        input_depth: small(u).min(4),
        filter_height: small(u).min(4),
        filter_width: small(u).min(4),
        depth_multiplier: small(u).min(9),
        output_height: small(u),
        output_width: small(u),
    };
    let out_depth = dims.input_depth * dims.depth_multiplier;
    let (lo, hi) = clamp(u);
    let ms = multipliers(u, out_depth);
    let params = DepthwiseConvParams {
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
    let d = &dims;
    let input = buffer(u, d.batches * d.input_height * d.input_width * d.input_depth, |b| b as i8);
    let filter = buffer(u, d.filter_height * d.filter_width * out_depth, |b| b as i8);
    let bias: Vec<i32> = buffer(u, out_depth, |b| i32::from(b as i8) * 97);
    let with_bias = u.arbitrary::<bool>().unwrap_or(true);
    let out_len = d.batches * d.output_height * d.output_width * out_depth;
    let mut output = buffer(u, out_len, |_| 0x5Ai8);
    let before = output.clone();
    let bias_ref = with_bias.then_some(bias.as_slice());
    match depthwise_conv_int8(&input[..], &filter[..], bias_ref, dims, &params, &mut output) {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(output, before, "an error wrote the output");
        }
        Ok(()) => {
            // the naive reference, one output at a time
            let at = |b: usize, y: usize, x: usize, c: usize| {
                ((b * d.input_height + y) * d.input_width + x) * d.input_depth + c
            };
            let mut k = 0;
            for b in 0..d.batches {
                for oy in 0..d.output_height {
                    for ox in 0..d.output_width {
                        for ic in 0..d.input_depth {
                            for m in 0..d.depth_multiplier {
                                let oc = ic * d.depth_multiplier + m;
                                let mut acc: i32 = 0;
                                for fy in 0..d.filter_height {
                                    for fx in 0..d.filter_width {
                                        let y = (oy * params.stride_height + fy * params.dilation_height)
                                            .checked_sub(params.pad_top);
                                        let x = (ox * params.stride_width + fx * params.dilation_width)
                                            .checked_sub(params.pad_left);
                                        if let (Some(y), Some(x)) = (y, x) {
                                            if y < d.input_height && x < d.input_width {
                                                let v = i32::from(input[at(b, y, x, ic)]);
                                                let w = i32::from(filter[(fy * d.filter_width + fx) * out_depth + oc]);
                                                let v = v.wrapping_sub(params.input_zero_point);
                                                acc = acc.wrapping_add(v.wrapping_mul(w));
                                            }
                                        }
                                    }
                                }
                                if let Some(bias) = bias_ref {
                                    acc = acc.wrapping_add(bias[oc]);
                                }
                                let m = ms[if ms.len() == 1 { 0 } else { oc }];
                                let want = requantize(acc, m, params.rounding, params.output_zero_point, lo, hi);
                                assert_eq!(output[k], want, "depthwise output {k} of {dims:?} {params:?}");
                                k += 1;
                            }
                        }
                    }
                }
            }
            assert_eq!(k, output.len());
        }
    }
}

fn fully_connected(u: &mut Unstructured<'_>) {
    let dims = FullyConnectedDims {
        batches: small(u).min(4),
        input_dim: small(u),
        units: small(u),
    };
    let (lo, hi) = clamp(u);
    let ms = multipliers(u, dims.units);
    let params = FullyConnectedParams {
        input_zero_point: zero_point(u),
        weights_zero_point: if u.arbitrary::<u8>().unwrap_or(0) < 240 { 0 } else { zero_point(u) },
        output_zero_point: zero_point(u),
        multipliers: &ms,
        output_min: lo,
        output_max: hi,
        rounding: rounding(u),
    };
    let input = buffer(u, dims.batches * dims.input_dim, |b| b as i8);
    let weights = buffer(u, dims.units * dims.input_dim, |b| b as i8);
    let bias: Vec<i32> = buffer(u, dims.units, |b| i32::from(b as i8) * 131);
    let with_bias = u.arbitrary::<bool>().unwrap_or(true);
    let mut output = buffer(u, dims.batches * dims.units, |_| 0x5Ai8);
    let before = output.clone();
    let bias_ref = with_bias.then_some(bias.as_slice());
    match fully_connected_int8(&input[..], &weights[..], bias_ref, dims, &params, &mut output) {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert_eq!(output, before, "an error wrote the output");
        }
        Ok(()) => {
            for b in 0..dims.batches {
                for o in 0..dims.units {
                    let mut acc: i32 = 0;
                    for i in 0..dims.input_dim {
                        let v = i32::from(input[b * dims.input_dim + i]).wrapping_sub(params.input_zero_point);
                        let w = i32::from(weights[o * dims.input_dim + i]).wrapping_sub(params.weights_zero_point);
                        acc = acc.wrapping_add(v.wrapping_mul(w));
                    }
                    if let Some(bias) = bias_ref {
                        acc = acc.wrapping_add(bias[o]);
                    }
                    let m = ms[if ms.len() == 1 { 0 } else { o }];
                    let want = requantize(acc, m, params.rounding, params.output_zero_point, lo, hi);
                    assert_eq!(output[b * dims.units + o], want, "fully connected ({b}, {o}) of {dims:?} {params:?}");
                }
            }
        }
    }
}

fn softmax(u: &mut Unstructured<'_>) {
    let depth = small(u);
    let rows = small(u);
    let beta = f32::from(u.arbitrary::<u16>().unwrap_or(1)) / 256.0;
    let scale = f32::from(u.arbitrary::<u16>().unwrap_or(1)) / 4096.0;
    let input = buffer(u, depth * rows, |b| b as i8);
    let mut output = buffer(u, depth * rows, |_| 0x5Ai8);
    let before = output.clone();
    let params = match softmax_params(beta, scale) {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if let Err(e) = softmax_int8(&input, depth, &params, &mut output) {
        assert!(!e.to_string().is_empty());
        assert_eq!(output, before, "an error wrote the output");
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    match u.arbitrary::<u8>().unwrap_or(0) % 3 {
        0 => depthwise(&mut u),
        1 => fully_connected(&mut u),
        _ => softmax(&mut u),
    }
});
