//! The int8 kernels' DSP loops (tflite/src/{conv,depthwise_conv,
//! fully_connected}/dsp.rs and the shared dsp.rs: SMLAD / SXTB16, taken on
//! the Cortex-M4F) against the crate's one reference (`shapecheck_tflite::
//! reference`, the host's property tests' too), on random
//! shapes and parameters: 1×1 convolutions of stride 1 (the blocked 2
//! pixels × 2 channels product, odd pixel and channel counts, depths with
//! and without a tail past the last word) and fully connected layers of
//! one batch (1 × 2 rows, the offset added by SADD16) and of several (the
//! blocked product), per-tensor and per-channel multipliers, with and
//! without bias, any int8 zero points and clamps; and depthwise
//! convolutions of depth multiplier 1 (4 channels at a time, SMLABB /
//! SMLATT), with padding, strides and dilations; and k×k convolutions by
//! im2col (the pixels widened once, 2 pixels × 2 channels by SMLAD): a
//! first layer's few input channels, and deep filters of up to 594 values
//! (past the 576 the DSP path takes) over up to 70 output channels (past
//! one group of 32); deep 1×1 convolutions (depths 8 to 576, each of
//! the widened rows' stack size classes); and fully connected layers of
//! one batch of 4 to 23 units (odd counts, the last 1 to 3 past the
//! four-row passes) over 1 to 120 inputs (depths not a multiple of 4),
//! and of 3 or 4 units over 600 to 700 (past the 640 inputs the widened
//! path takes); and the int8 `ADD` over either input (issue 80: four
//! elements a word, SMMLAR and the shared output stage), on multipliers
//! built by hand (one half, or any the loop takes or not) and lengths with
//! and without a tail. The reference is TFLite
//! Micro's reference kernels read plainly: `Σ (x − x_zp) · w + bias` in wrapping
//! i32, `multiply_by_quantized_multiplier` with the double rounding, the
//! output zero point, the clamp. On the Cortex-M0 (no DSP extension) the
//! same test runs the portable loops against the same reference, so both
//! paths are held to one arithmetic on target. The host's unit tests run
//! the blocked loops' plain-Rust form against the same reference, and
//! fuzz/ the portable kernels.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck_embedded::Checks;
use shapecheck_tflite::{
    add_int8_in_place, conv_2d_int8, depthwise_conv_int8, fully_connected_int8, reference,
    AddOver, AddParams, Conv2dDims, Conv2dParams, DepthwiseConvDims, DepthwiseConvParams,
    FullyConnectedDims, FullyConnectedParams, QuantizedMultiplier, Rounding,
};

/// Random cases per kernel.
const CASES: usize = 150;
/// Random output stages (four outputs each).
const REQUANT_CASES: usize = 3000;
/// Random int8 `ADD`s, and their longest length.
const ADD_CASES: usize = 2000;
const MAX_ADD: usize = 41;
const MAX_ROWS: usize = 9;
const MAX_CHANNELS: usize = 9;
const MAX_DEPTH: usize = 70;

/// xorshift32
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    /// in `[lo, hi]`
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u32) as i32
    }
    fn fill(&mut self, xs: &mut [i8]) {
        for x in xs {
            *x = self.next() as i8;
        }
    }
    /// `mantissa` and `shift`, or one time in 16 a zero multiplier
    /// (TFLite's for a real one below 2^−31: a channel whose weights'
    /// scale is nearly 0), whose outputs are the zero point
    /// An output clamp: a third of the time int8's whole range (the loops
    /// without the clamp: a ReLU of zero point −128), else a random one
    /// around 0
    fn clamp(&mut self) -> (i32, i32) {
        if self.range(0, 2) == 0 {
            (-128, 127)
        } else {
            (self.range(-128, 0), self.range(0, 127))
        }
    }
    fn multiplier(&mut self, mantissa: i32, shift: i32) -> QuantizedMultiplier {
        let m = if self.next() % 16 == 0 { 0 } else { mantissa };
        QuantizedMultiplier::from_parts(m, shift)
    }
}

/// One random layer: `rows` input rows (pixels or batches) of `depth`,
/// `channels` weight rows of `depth`, its quantization.
struct Layer {
    rows: usize,
    channels: usize,
    depth: usize,
    x: [i8; MAX_ROWS * MAX_DEPTH],
    w: [i8; MAX_CHANNELS * MAX_DEPTH],
    bias: Option<[i32; MAX_CHANNELS]>,
    multipliers: [QuantizedMultiplier; MAX_CHANNELS],
    per_channel: bool,
    x_zp: i32,
    out_zp: i32,
    lo: i32,
    hi: i32,
}

impl Layer {
    fn random(r: &mut Rng, rows: usize) -> Layer {
        let channels = r.range(1, MAX_CHANNELS as i32) as usize;
        // mostly multiples of 4 and 8 (the models' depths), some not
        let depth = match r.range(0, 2) {
            0 => 8 * r.range(1, (MAX_DEPTH / 8) as i32) as usize,
            1 => 4 * r.range(1, (MAX_DEPTH / 4) as i32) as usize,
            _ => r.range(1, MAX_DEPTH as i32) as usize,
        };
        let mut layer = Layer {
            rows,
            channels,
            depth,
            x: [0; MAX_ROWS * MAX_DEPTH],
            w: [0; MAX_CHANNELS * MAX_DEPTH],
            bias: None,
            multipliers: [QuantizedMultiplier::ZERO; MAX_CHANNELS],
            per_channel: r.range(0, 1) == 1,
            x_zp: r.range(-128, 127),
            out_zp: r.range(-128, 127),
            lo: 0,
            hi: 0,
        };
        (layer.lo, layer.hi) = r.clamp();
        r.fill(&mut layer.x);
        r.fill(&mut layer.w);
        if r.range(0, 3) != 0 {
            let mut b = [0i32; MAX_CHANNELS];
            for v in &mut b {
                *v = r.range(-100_000, 100_000);
            }
            layer.bias = Some(b);
        }
        for m in &mut layer.multipliers {
            // a mantissa in [2^30, 2^31) and a shift that keeps outputs in
            // and out of the clamp
            let mantissa = (1 << 30) + (r.next() >> 2) as i32;
            let shift = r.range(-12, 1);
            *m = r.multiplier(mantissa, shift);
        }
        layer
    }

    fn x(&self) -> &[i8] {
        &self.x[..self.rows * self.depth]
    }
    fn w(&self) -> &[i8] {
        &self.w[..self.channels * self.depth]
    }
    fn bias(&self) -> Option<&[i32]> {
        self.bias.as_ref().map(|b| &b[..self.channels])
    }
    fn multipliers(&self) -> &[QuantizedMultiplier] {
        if self.per_channel {
            &self.multipliers[..self.channels]
        } else {
            &self.multipliers[..1]
        }
    }

}

/// The most inputs, weights and units of [`fc_case`].
const FC_MAX_X: usize = 700;
const FC_MAX_W: usize = 2800;
const FC_MAX_UNITS: usize = 23;

/// A random fully connected layer of one batch, wider than [`Layer`]'s:
/// 4 to 23 units over 1 to 120 inputs (mostly multiples of 4, some not),
/// or 3 or 4 units over 600 to 700 inputs; per-tensor or per-channel
/// multipliers, with or without bias, any int8 zero points and clamps.
/// The output against the reference.
#[inline(never)]
fn fc_case(r: &mut Rng, c: &mut Checks, case: usize) {
    let (units, depth) = if r.range(0, 7) == 0 {
        (r.range(3, 4) as usize, r.range(600, 700) as usize)
    } else {
        let depth = match r.range(0, 2) {
            0 => 4 * r.range(8, 30),
            1 => r.range(32, 120),
            _ => r.range(1, 40),
        };
        (r.range(4, FC_MAX_UNITS as i32) as usize, depth as usize)
    };
    let mut x = [0i8; FC_MAX_X];
    let x = &mut x[..depth];
    r.fill(x);
    let mut w = [0i8; FC_MAX_W];
    let w = &mut w[..units * depth];
    r.fill(w);
    let mut bias = [0i32; FC_MAX_UNITS];
    for b in bias.iter_mut() {
        *b = r.range(-100_000, 100_000);
    }
    let bias = if r.range(0, 3) != 0 { Some(&bias[..units]) } else { None };
    let mut multipliers = [QuantizedMultiplier::ZERO; FC_MAX_UNITS];
    for m in multipliers.iter_mut() {
        let mantissa = (1 << 30) + (r.next() >> 2) as i32;
        let shift = r.range(-12, 1);
        *m = r.multiplier(mantissa, shift);
    }
    let per_channel = r.range(0, 1) == 1;
    let multipliers = if per_channel { &multipliers[..units] } else { &multipliers[..1] };
    let (x_zp, out_zp) = (r.range(-128, 127), r.range(-128, 127));
    let (lo, hi) = (r.range(-128, 0), r.range(0, 127));
    let dims = FullyConnectedDims {
        batches: 1,
        input_dim: depth,
        units,
    };
    let params = FullyConnectedParams {
        input_zero_point: x_zp,
        weights_zero_point: 0,
        output_zero_point: out_zp,
        multipliers,
        output_min: lo,
        output_max: hi,
        rounding: Rounding::Double,
    };
    let mut want = [0i8; FC_MAX_UNITS];
    reference::fully_connected(x, w, bias, dims, &params, &mut want[..units]);
    let mut got = [0i8; FC_MAX_UNITS];
    let ok = fully_connected_int8(&*x, &*w, bias, dims, &params, &mut got[..units]).is_ok();
    c.check(ok, "fully_connected_int8 accepted the wide case");
    if got[..units] != want[..units] {
        cortex_m_semihosting::hprintln!(
            "wide fully connected case {}: {} units, depth {}, zero point {}",
            case,
            units,
            depth,
            x_zp
        );
    }
    c.eq(&got[..units], &want[..units], "wide fully connected");
}

/// A random depthwise convolution of depth multiplier 1 (4 to 16
/// channels, 1×1 to 3×3 filters, strides and dilations 1 or 2, padding 0
/// to 2, output sizes that run past the input, clamps and int8's whole
/// range): the DSP path's output against the reference. Returns (ok, what).
fn depthwise_case(r: &mut Rng, c: &mut Checks) {
    const MAX: usize = 8 * 8 * 16;
    let (h, w) = (r.range(1, 8) as usize, r.range(1, 8) as usize);
    // multiples of 4 (the DSP path) mostly, and some not (the portable one)
    let depth = if r.range(0, 3) == 0 {
        r.range(1, 16)
    } else {
        4 * r.range(1, 4)
    } as usize;
    // 3×3 (the unrolled blocks, interior and border) half the time
    let (kh, kw) = if r.range(0, 1) == 0 {
        (3, 3)
    } else {
        (r.range(1, 3) as usize, r.range(1, 3) as usize)
    };
    let (sh, sw, dh, dw) = (
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
    );
    let (pt, pl) = (r.range(0, 2) as usize, r.range(0, 2) as usize);
    let (oh, ow) = (r.range(1, 8) as usize, r.range(1, 8) as usize);
    let mut image = [0i8; MAX];
    let mut filter = [0i8; 9 * 16];
    r.fill(&mut image);
    r.fill(&mut filter);
    let image = &image[..h * w * depth];
    let filter = &filter[..kh * kw * depth];
    let mut bias = [0i32; 16];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let bias = &bias[..depth];
    let mut ms = [QuantizedMultiplier::ZERO; 16];
    for m in &mut ms {
        let (mantissa, shift) = ((1 << 30) + (r.next() >> 2) as i32, r.range(-12, 1));
        *m = r.multiplier(mantissa, shift);
    }
    let ms = if r.range(0, 1) == 0 {
        &ms[..1]
    } else {
        &ms[..depth]
    };
    let (x_zp, out_zp, mut lo, mut hi) = (
        r.range(-128, 127),
        r.range(-128, 127),
        r.range(-128, 0),
        r.range(0, 127),
    );
    // int8's whole range a third of the time: the DSP runs' loop without
    // the clamp (ReLU6 layers of scale 6/255 have it)
    if r.range(0, 2) == 0 {
        (lo, hi) = (-128, 127);
    }
    let n = oh * ow * depth;
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: h,
        input_width: w,
        input_depth: depth,
        filter_height: kh,
        filter_width: kw,
        depth_multiplier: 1,
        output_height: oh,
        output_width: ow,
    };
    let params = DepthwiseConvParams {
        stride_height: sh,
        stride_width: sw,
        dilation_height: dh,
        dilation_width: dw,
        pad_top: pt,
        pad_left: pl,
        input_zero_point: x_zp,
        output_zero_point: out_zp,
        multipliers: ms,
        output_min: lo,
        output_max: hi,
        rounding: Rounding::Double,
    };
    let mut want = [0i8; MAX];
    reference::depthwise_conv(image, filter, Some(bias), dims, &params, &mut want[..n]);
    let mut got = [0i8; MAX];
    let ok = depthwise_conv_int8(image, filter, Some(bias), dims, &params, &mut got[..n]).is_ok();
    c.check(ok, "depthwise_conv_int8 accepted the case");
    c.eq(&got[..n], &want[..n], "depthwise convolution");
}

/// A random depthwise convolution whose every window lies inside the
/// image (VALID, no padding) with a filter of one row or one column of 1
/// to 16 taps (the streaming wake word's k×1 over 30×1): the DSP path's
/// line loop (entered at its second tap for an odd count) against the
/// reference, with strides and dilations 1 or 2 and 4 to 12 channels
/// (multiples of 4; sized for the Cortex-M0's 16 KiB).
fn depthwise_line_case(r: &mut Rng, c: &mut Checks) {
    const MAX: usize = 35 * 2 * 12;
    let k = r.range(1, 16) as usize;
    let (sh, sw, dh, dw) = (
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
    );
    let depth = 4 * r.range(1, 3) as usize;
    // k×1 or 1×k; the other side 1 or 2 wide
    let column = r.range(0, 1) == 0;
    let (kh, kw) = if column { (k, 1) } else { (1, k) };
    let (long, short) = ((k - 1) * if column { dh } else { dw } + 1 + r.range(0, 4) as usize, r.range(1, 2) as usize);
    let (h, w) = if column { (long, short) } else { (short, long) };
    // VALID: every window whole
    let oh = (h - (kh - 1) * dh - 1) / sh + 1;
    let ow = (w - (kw - 1) * dw - 1) / sw + 1;
    let mut image = [0i8; MAX];
    let mut filter = [0i8; 16 * 12];
    r.fill(&mut image);
    r.fill(&mut filter);
    let image = &image[..h * w * depth];
    let filter = &filter[..k * depth];
    let mut bias = [0i32; 16];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let bias = &bias[..depth];
    let mut ms = [QuantizedMultiplier::ZERO; 16];
    for m in &mut ms {
        let (mantissa, shift) = ((1 << 30) + (r.next() >> 2) as i32, r.range(-12, 1));
        *m = r.multiplier(mantissa, shift);
    }
    let (x_zp, out_zp) = (r.range(-128, 127), r.range(-128, 127));
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: h,
        input_width: w,
        input_depth: depth,
        filter_height: kh,
        filter_width: kw,
        depth_multiplier: 1,
        output_height: oh,
        output_width: ow,
    };
    let params = DepthwiseConvParams {
        stride_height: sh,
        stride_width: sw,
        dilation_height: dh,
        dilation_width: dw,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: x_zp,
        output_zero_point: out_zp,
        multipliers: &ms[..depth],
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let n = oh * ow * depth;
    let mut want = [0i8; MAX];
    reference::depthwise_conv(image, filter, Some(bias), dims, &params, &mut want[..n]);
    let mut got = [0i8; MAX];
    let ok = depthwise_conv_int8(image, filter, Some(bias), dims, &params, &mut got[..n]).is_ok();
    c.check(ok, "depthwise_conv_int8 accepted the line case");
    c.eq(&got[..n], &want[..n], "depthwise convolution, a line of taps");
}

/// A random k×k convolution (the im2col path), against the
/// reference. Not `deep`: a first layer's few input channels (1 to
/// 3 channels, 1×1 to 4×4 filters, 1 to 9 output channels). `deep`: a
/// ResNet's many (4 to 66 input channels, 1×1 to 3×3 filters: up to 594
/// values, past the 576 the DSP path takes, and as many output channels
/// as 2,048 filter bytes hold, up to 70: past the 32 of one group). Both
/// with strides, dilations, padding, even channel counts the DSP path's
/// and odd ones the portable one's.
/// A first layer's shape for [`conv_case`]: a 3×10×10 image at most of one
/// or three channels, a filter of up to 3×3 (a shallow one: at most 27
/// values, padded to a multiple of 8 on the M4F), stride 1 or 2, SAME or
/// VALID padding, so that most pixels have all their taps inside and the
/// borders take the rest.
const FIRST: u8 = 2;

fn conv_case(r: &mut Rng, c: &mut Checks, deep: bool) {
    conv_case_of(r, c, u8::from(deep))
}

fn conv_case_of(r: &mut Rng, c: &mut Checks, kind: u8) {
    let deep = kind == 1;
    let first = kind == FIRST;
    // within the Cortex-M0's 16 KiB of RAM
    const MAX_IN: usize = 4 * 4 * 66;
    const MAX_OUT: usize = 4 * 4 * 70;
    const MAX_FILTER: usize = 2048;
    let (h, w, depth) = if first {
        (
            r.range(1, 10) as usize,
            r.range(1, 10) as usize,
            if r.range(0, 1) == 0 { 1 } else { 3 },
        )
    } else if deep {
        (
            r.range(1, 4) as usize,
            r.range(1, 4) as usize,
            r.range(4, 66) as usize,
        )
    } else {
        (
            r.range(1, 8) as usize,
            r.range(1, 8) as usize,
            r.range(1, 3) as usize,
        )
    };
    let (kh, kw) = if first {
        if r.range(0, 3) == 0 {
            (r.range(1, 3) as usize, r.range(1, 3) as usize)
        } else {
            (3, 3)
        }
    } else if deep {
        (r.range(1, 3) as usize, r.range(1, 3) as usize)
    } else {
        (r.range(1, 4) as usize, r.range(1, 4) as usize)
    };
    let k = kh * kw * depth;
    let channels = if deep {
        r.range(1, (MAX_FILTER / k).min(70) as i32) as usize
    } else if first {
        2 * r.range(1, 4) as usize
    } else {
        r.range(1, 9) as usize
    };
    let (sh, sw, dh, dw) = (
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
        r.range(1, 2) as usize,
    );
    let (mut pt, mut pl) = (r.range(0, 2) as usize, r.range(0, 2) as usize);
    let (oh, ow) = if first {
        // SAME (TFLite's padding: the output ⌈size / stride⌉, the padding's
        // smaller half before) or VALID
        let same = r.range(0, 1) == 0;
        let side = |size: usize, stride: usize, k: usize, pad: &mut usize| {
            if same {
                let o = size.div_ceil(stride);
                *pad = ((o - 1) * stride + k).saturating_sub(size) / 2;
                o
            } else {
                *pad = 0;
                (size.saturating_sub(k) / stride + 1).max(1)
            }
        };
        (
            side(h, sh, (kh - 1) * dh + 1, &mut pt),
            side(w, sw, (kw - 1) * dw + 1, &mut pl),
        )
    } else if deep {
        (r.range(1, 4) as usize, r.range(1, 4) as usize)
    } else {
        (r.range(1, 7) as usize, r.range(1, 7) as usize)
    };
    let mut image = [0i8; MAX_IN];
    let mut filter = [0i8; MAX_FILTER];
    r.fill(&mut image);
    r.fill(&mut filter);
    let image = &image[..h * w * depth];
    let filter = &filter[..channels * k];
    let mut bias = [0i32; 70];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let bias = &bias[..channels];
    let mut ms = [QuantizedMultiplier::ZERO; 70];
    for m in &mut ms {
        let (mantissa, shift) = ((1 << 30) + (r.next() >> 2) as i32, r.range(-12, -1));
        *m = r.multiplier(mantissa, shift);
    }
    let ms = if r.range(0, 1) == 0 {
        &ms[..1]
    } else {
        &ms[..channels]
    };
    let (x_zp, out_zp) = (r.range(-128, 127), r.range(-128, 127));
    let (lo, hi) = r.clamp();
    let n = oh * ow * channels;
    let dims = Conv2dDims {
        batches: 1,
        input_height: h,
        input_width: w,
        input_depth: depth,
        filter_height: kh,
        filter_width: kw,
        output_height: oh,
        output_width: ow,
        output_depth: channels,
    };
    let params = Conv2dParams {
        stride_height: sh,
        stride_width: sw,
        dilation_height: dh,
        dilation_width: dw,
        pad_top: pt,
        pad_left: pl,
        input_zero_point: x_zp,
        output_zero_point: out_zp,
        multipliers: ms,
        output_min: lo,
        output_max: hi,
        rounding: Rounding::Double,
    };
    let mut want = [0i8; MAX_OUT];
    reference::conv_2d(image, filter, Some(bias), dims, &params, &mut want[..n]);
    let mut got = [0i8; MAX_OUT];
    let ok = conv_2d_int8(image, filter, Some(bias), dims, &params, &mut got[..n]).is_ok();
    c.check(ok, "conv_2d_int8 accepted the k×k case");
    if got[..n] != want[..n] {
        cortex_m_semihosting::hprintln!(
            "k×k conv: {}×{}×{} image, {}×{} filter, {} channels",
            h,
            w,
            depth,
            kh,
            kw,
            channels
        );
    }
    c.eq(&got[..n], &want[..n], "k×k convolution");
    if depth == 1 && channels <= 9 {
        // the same layer as a depthwise convolution of depth multiplier
        // `channels` (its filter [kh, kw, channels]): one input channel,
        // the im2col path on the M4F
        let mut dw_filter = [0i8; 9 * 4 * 4];
        for oc in 0..channels {
            for t in 0..kh * kw {
                dw_filter[t * channels + oc] = filter[oc * k + t];
            }
        }
        let dims = DepthwiseConvDims {
            batches: 1,
            input_height: h,
            input_width: w,
            input_depth: 1,
            filter_height: kh,
            filter_width: kw,
            depth_multiplier: channels,
            output_height: oh,
            output_width: ow,
        };
        let params = DepthwiseConvParams {
            stride_height: sh,
            stride_width: sw,
            dilation_height: dh,
            dilation_width: dw,
            pad_top: pt,
            pad_left: pl,
            input_zero_point: x_zp,
            output_zero_point: out_zp,
            multipliers: ms,
            output_min: lo,
            output_max: hi,
            rounding: Rounding::Double,
        };
        got[..n].fill(0);
        let dw_filter = &dw_filter[..kh * kw * channels];
        let ok =
            depthwise_conv_int8(image, dw_filter, Some(bias), dims, &params, &mut got[..n]).is_ok();
        c.check(ok, "depthwise_conv_int8 accepted the multiplier case");
        c.eq(
            &got[..n],
            &want[..n],
            "depthwise convolution of one input channel",
        );
    }
}

/// The DSP output stage (SMMLAR, SSAT, the bytes' clamp) on random
/// accumulators over the whole `i32` range: a depthwise convolution of one
/// pixel, four channels and one tap, whose accumulator is `bias + (x −
/// zp) · w` with a random bias, against the reference's output stage
/// (`multiply_by_quantized_multiplier` with the double rounding, the zero
/// point, the clamp).
/// Multipliers in `[2^30, 2^31)` with shifts −31 … −1 (the stage's) and
/// some outside (the portable stage's).
fn requant_case(r: &mut Rng, c: &mut Checks) {
    let mut image = [0i8; 4];
    let mut filter = [0i8; 4];
    r.fill(&mut image);
    r.fill(&mut filter);
    let mut bias = [0i32; 4];
    for b in &mut bias {
        *b = match r.range(0, 2) {
            0 => r.next() as i32,
            1 => r.range(-70_000, 70_000),
            _ => r.range(-300, 300),
        };
    }
    let mut ms = [QuantizedMultiplier::ZERO; 4];
    for m in &mut ms {
        let shift = if r.range(0, 15) == 0 {
            r.range(0, 2)
        } else {
            r.range(-31, -1)
        };
        let mantissa = (1 << 30) + (r.next() >> 2) as i32;
        *m = r.multiplier(mantissa, shift);
    }
    let ms = if r.range(0, 1) == 0 {
        &ms[..1]
    } else {
        &ms[..]
    };
    let (x_zp, out_zp) = (r.range(-128, 127), r.range(-128, 127));
    let (lo, hi) = if r.range(0, 1) == 0 {
        (-128, 127)
    } else {
        let (a, b) = (r.range(-128, 127), r.range(-128, 127));
        (a.min(b), a.max(b))
    };
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: 1,
        input_width: 1,
        input_depth: 4,
        filter_height: 1,
        filter_width: 1,
        depth_multiplier: 1,
        output_height: 1,
        output_width: 1,
    };
    let params = DepthwiseConvParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: x_zp,
        output_zero_point: out_zp,
        multipliers: ms,
        output_min: lo,
        output_max: hi,
        rounding: Rounding::Double,
    };
    let mut want = [0i8; 4];
    reference::depthwise_conv(&image, &filter, Some(&bias), dims, &params, &mut want);
    let mut got = [0i8; 4];
    let ok = depthwise_conv_int8(
        &image,
        &filter[..],
        Some(&bias[..]),
        dims,
        &params,
        &mut got,
    )
    .is_ok();
    c.check(ok, "depthwise_conv_int8 accepted the case");
    c.eq(&got, &want, "output stage");
}

/// A random deep 1×1 convolution (the matrix product whose pixel pairs
/// are widened once, `matmul_wide`, in each of its stack buffers' size
/// classes: depths up to 64, 256 and 576, multiples of 8), 1 to 3 pixels
/// and as many even output channels as 1,536 filter bytes hold, up to 70
/// (past the 32 of one group), against the reference. Out
/// of line: its 4.5 KB of buffers beside the other cases' only while it
/// runs (the Cortex-M0 has 16 KiB of RAM).
#[inline(never)]
fn wide_case(r: &mut Rng, c: &mut Checks) {
    const MAX_PIXELS: usize = 3;
    const MAX_DEPTH_WIDE: usize = 576;
    const MAX_FILTER: usize = 1536;
    let pixels = r.range(1, MAX_PIXELS as i32) as usize;
    let depth = 8 * r.range(1, (MAX_DEPTH_WIDE / 8) as i32) as usize;
    let channels = 2 * r.range(1, (MAX_FILTER / depth / 2).min(35) as i32) as usize;
    let mut x = [0i8; MAX_PIXELS * MAX_DEPTH_WIDE];
    let mut filter = [0i8; MAX_FILTER];
    r.fill(&mut x);
    r.fill(&mut filter);
    let x = &x[..pixels * depth];
    let filter = &filter[..channels * depth];
    let mut bias = [0i32; 70];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let bias = &bias[..channels];
    let mut ms = [QuantizedMultiplier::ZERO; 70];
    for m in &mut ms {
        let mantissa = (1 << 30) + (r.next() >> 2) as i32;
        let shift = r.range(-14, -1);
        *m = r.multiplier(mantissa, shift);
    }
    let per_channel = r.range(0, 1) == 1;
    let ms = if per_channel {
        &ms[..channels]
    } else {
        &ms[..1]
    };
    let (x_zp, out_zp) = (r.range(-128, 127), r.range(-128, 127));
    let (lo, hi) = r.clamp();
    let mut want = [0i8; MAX_PIXELS * 70];
    let mut got = [0i8; MAX_PIXELS * 70];
    let n = pixels * channels;
    let dims = Conv2dDims {
        batches: 1,
        input_height: 1,
        input_width: pixels,
        input_depth: depth,
        filter_height: 1,
        filter_width: 1,
        output_height: 1,
        output_width: pixels,
        output_depth: channels,
    };
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: x_zp,
        output_zero_point: out_zp,
        multipliers: ms,
        output_min: lo,
        output_max: hi,
        rounding: Rounding::Double,
    };
    reference::conv_2d(x, filter, Some(bias), dims, &params, &mut want[..n]);
    let ok = conv_2d_int8(x, filter, Some(bias), dims, &params, &mut got[..n]).is_ok();
    c.check(ok, "conv_2d_int8 accepted the deep 1×1 case");
    if got[..n] != want[..n] {
        cortex_m_semihosting::hprintln!(
            "deep 1×1 conv: {} pixels, {} channels, depth {}",
            pixels,
            channels,
            depth
        );
    }
    c.eq(&got[..n], &want[..n], "deep 1×1 convolution");
    // the same layer as `model!` writes a 1×1 convolution: its input zero
    // point folded into its bias (bias − zp · Σ w, wrapping) and 0 in its
    // place, so that each call sums no weights
    let mut folded = [0i32; 70];
    for (ch, f) in folded[..channels].iter_mut().enumerate() {
        let mut sum = 0i32;
        for k in 0..depth {
            sum = sum.wrapping_add(i32::from(filter[ch * depth + k]));
        }
        *f = bias[ch].wrapping_sub(x_zp.wrapping_mul(sum));
    }
    let params = Conv2dParams {
        input_zero_point: 0,
        ..params
    };
    got = [0i8; MAX_PIXELS * 70];
    let folded = Some(&folded[..channels]);
    let ok = conv_2d_int8(x, filter, folded, dims, &params, &mut got[..n]).is_ok();
    c.check(ok, "conv_2d_int8 accepted the folded 1×1 case");
    let what = "deep 1×1 convolution, zero point folded into the bias";
    c.eq(&got[..n], &want[..n], what);
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("dsp_kernels");
    let mut r = Rng(0x2545_f491);
    let mut want = [0i8; MAX_ROWS * MAX_CHANNELS];
    let mut got = [0i8; MAX_ROWS * MAX_CHANNELS];
    for case in 0..CASES {
        // a 1×1 convolution over 1 × 1 × rows pixels (odd and even counts)
        let rows = r.range(1, MAX_ROWS as i32) as usize;
        let l = Layer::random(&mut r, rows);
        let n = l.rows * l.channels;
        // an image of rows pixels laid out as 1 × rows
        let dims = Conv2dDims {
            batches: 1,
            input_height: 1,
            input_width: l.rows,
            input_depth: l.depth,
            filter_height: 1,
            filter_width: 1,
            output_height: 1,
            output_width: l.rows,
            output_depth: l.channels,
        };
        let params = Conv2dParams {
            stride_height: 1,
            stride_width: 1,
            dilation_height: 1,
            dilation_width: 1,
            pad_top: 0,
            pad_left: 0,
            input_zero_point: l.x_zp,
            output_zero_point: l.out_zp,
            multipliers: l.multipliers(),
            output_min: l.lo,
            output_max: l.hi,
            rounding: Rounding::Double,
        };
        reference::conv_2d(l.x(), l.w(), l.bias(), dims, &params, &mut want[..n]);
        let ok = conv_2d_int8(l.x(), l.w(), l.bias(), dims, &params, &mut got[..n]).is_ok();
        c.check(ok, "conv_2d_int8 accepted the case");
        if &got[..n] != &want[..n] {
            cortex_m_semihosting::hprintln!(
                "1×1 conv case {}: {} pixels, {} channels, depth {}",
                case,
                l.rows,
                l.channels,
                l.depth
            );
        }
        c.eq(&got[..n], &want[..n], "1×1 convolution");

        // a fully connected layer: one batch half the time, else 2 to 9
        let rows = if r.range(0, 1) == 0 {
            1
        } else {
            r.range(2, MAX_ROWS as i32) as usize
        };
        let l = Layer::random(&mut r, rows);
        let n = l.rows * l.channels;
        let dims = FullyConnectedDims {
            batches: l.rows,
            input_dim: l.depth,
            units: l.channels,
        };
        let params = FullyConnectedParams {
            input_zero_point: l.x_zp,
            weights_zero_point: 0,
            output_zero_point: l.out_zp,
            multipliers: l.multipliers(),
            output_min: l.lo,
            output_max: l.hi,
            rounding: Rounding::Double,
        };
        reference::fully_connected(l.x(), l.w(), l.bias(), dims, &params, &mut want[..n]);
        let ok = fully_connected_int8(l.x(), l.w(), l.bias(), dims, &params, &mut got[..n]).is_ok();
        c.check(ok, "fully_connected_int8 accepted the case");
        if &got[..n] != &want[..n] {
            cortex_m_semihosting::hprintln!(
                "fully connected case {}: {} batches, {} units, depth {}",
                case,
                l.rows,
                l.channels,
                l.depth
            );
        }
        c.eq(&got[..n], &want[..n], "fully connected");

        fc_case(&mut r, &mut c, case);
        depthwise_case(&mut r, &mut c);
        depthwise_line_case(&mut r, &mut c);
        conv_case(&mut r, &mut c, false);
        conv_case(&mut r, &mut c, true);
        wide_case(&mut r, &mut c);
        conv_case_of(&mut r, &mut c, FIRST);
    }
    for _ in 0..REQUANT_CASES {
        requant_case(&mut r, &mut c);
    }
    for case in 0..ADD_CASES {
        add_case(&mut r, &mut c, case);
    }
    c.finish()
}

/// A multiplier an `ADD`'s parameters may hold: one half (the input of
/// the larger scale's), or in `[2^30, 2^31)` with a shift in `[−31, −1]`
/// (small shifts often), now and then of shift 0 (one the word loop does
/// not take).
fn add_multiplier(r: &mut Rng) -> QuantizedMultiplier {
    let shift = match r.range(0, 7) {
        0 => return QuantizedMultiplier::from_parts(1 << 30, 0),
        1 => 0,
        2 | 3 => r.range(-31, -1),
        _ => r.range(-3, -1),
    };
    QuantizedMultiplier::from_parts((1 << 30) + (r.next() >> 2) as i32, shift)
}

/// One int8 `ADD` over each input against the reference.
fn add_case(r: &mut Rng, c: &mut Checks, case: usize) {
    let n = r.range(0, MAX_ADD as i32) as usize;
    let (mut x1, mut x2) = ([0i8; MAX_ADD], [0i8; MAX_ADD]);
    r.fill(&mut x1[..n]);
    r.fill(&mut x2[..n]);
    let (a, b) = (r.range(-128, 127), r.range(-128, 127));
    let output_shift = if r.range(0, 1) == 0 {
        r.range(-3, -1)
    } else {
        r.range(-31, 0)
    };
    let params = AddParams {
        input1_zero_point: r.range(-128, 127),
        input1_multiplier: add_multiplier(r),
        input2_zero_point: r.range(-128, 127),
        input2_multiplier: add_multiplier(r),
        output_zero_point: r.range(-128, 127),
        output_multiplier: QuantizedMultiplier::from_parts(
            (1 << 30) + (r.next() >> 2) as i32,
            output_shift,
        ),
        output_min: a.min(b),
        output_max: a.max(b),
    };
    let mut want = [0i8; MAX_ADD];
    reference::add_int8(&x1[..n], &x2[..n], &params, &mut want[..n]);
    for over in [AddOver::Input1, AddOver::Input2] {
        let (mut got, other) = match over {
            AddOver::Input1 => (x1, &x2),
            _ => (x2, &x1),
        };
        let ok = add_int8_in_place(&mut got[..n], &other[..n], over, &params).is_ok();
        c.check(ok, "add_int8_in_place accepted the case");
        if got[..n] != want[..n] {
            cortex_m_semihosting::hprintln!("ADD case {}: {} elements, {:?}", case, n, params);
        }
        c.eq(&got[..n], &want[..n], "int8 ADD over an input");
    }
}
