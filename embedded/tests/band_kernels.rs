//! The band kernels (issue 70) on target: a convolution's, depthwise
//! convolution's and pool's output rows computed band by band from a ring
//! of input rows (input row `r` at ring row `r % ring_rows`), each band's
//! ring the fewest rows it reads (or one to three more, holding values of
//! no input row), on random shapes, strides, paddings, dilations and
//! splits of the output rows, are bit for bit the whole-tensor kernel's
//! output. On the Cortex-M4F the shapes are mostly those the DSP loops
//! take (an even count of output channels, depthwise channels by fours or
//! one input channel, 3×3 windows), so that each band runs them on a run
//! of ring rows; on the Cortex-M0 the portable loops. The whole-tensor
//! output is checked first against the crate's one reference
//! (`shapecheck_tflite::reference`, the host's and dsp_kernels.rs's too).
//! The depthwise and 1×1 convolutions are also run over their own input
//! (`stream::InPlaceLayer`, group by group of four channels or band by
//! band of rows) and must leave the same output there.
#![no_std]
#![no_main]

use core::ops::Range;
use cortex_m_rt::entry;
use shapecheck_embedded::Checks;
use shapecheck_tflite::stream::{InPlaceLayer, Stage};
use shapecheck_tflite::{
    average_pool_int8, average_pool_int8_band, conv_1x1_prepare, conv_2d_int8, conv_2d_int8_band,
    conv_2d_int8_band_prepared, conv_prepare, depthwise_conv_int8, depthwise_conv_int8_band,
    depthwise_conv_int8_band_prepared, depthwise_prepare, max_pool_int8, max_pool_int8_band,
    reference, Conv2dDims, Conv2dParams, ConvPairStage, DepthwiseConvDims, DepthwiseConvParams,
    DepthwiseGroup, PoolDims, PoolParams, QuantizedMultiplier, Rounding, TfliteError,
};

/// Random cases per kernel.
const CASES: usize = 120;
const MAX_H: usize = 12;
const MAX_W: usize = 6;
const MAX_C: usize = 8;
/// The most values of an input, an output or a filter.
const MAX: usize = MAX_H * MAX_W * MAX_C;

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
    fn size(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as i32, hi as i32) as usize
    }
    fn fill(&mut self, xs: &mut [i8]) {
        for x in xs {
            *x = self.next() as i8;
        }
    }
    /// `mantissa` and `shift`, or one time in 16 a zero multiplier
    /// (TFLite's for a real one below 2^−31: a channel whose weights'
    /// scale is nearly 0), whose outputs are the zero point
    fn multiplier(&mut self, mantissa: i32, shift: i32) -> QuantizedMultiplier {
        let m = if self.next() % 16 == 0 { 0 } else { mantissa };
        QuantizedMultiplier::from_parts(m, shift)
    }
}

/// A layer's vertical window (stride, pad, dilation, filter rows, input
/// rows), its rows' sizes and the output's rows.
struct Rows {
    stride: usize,
    pad: usize,
    dilation: usize,
    filter: usize,
    height: usize,
    row_len: usize,
    out_rows: usize,
    out_row_len: usize,
}

impl Rows {
    /// The input rows output rows `rows` read, plainly: every tap inside
    /// the input, from the least to one past the largest.
    fn needed(&self, rows: Range<usize>) -> Range<usize> {
        let (mut lo, mut hi) = (usize::MAX, 0);
        for o in rows {
            for k in 0..self.filter {
                let at = (o * self.stride + k * self.dilation) as i64 - self.pad as i64;
                if (0..self.height as i64).contains(&at) {
                    lo = lo.min(at as usize);
                    hi = hi.max(at as usize + 1);
                }
            }
        }
        if lo == usize::MAX {
            0..0
        } else {
            lo..hi
        }
    }
}

/// The output of `band` over a random split of the output rows into
/// bands, into `out`; each band's ring built from `input` with `extra`
/// more rows of other values. `false` if a band was refused.
fn by_bands(
    r: &mut Rng,
    input: &[i8],
    rows: &Rows,
    out: &mut [i8],
    band: &mut dyn FnMut(&[i8], usize, Range<usize>, &mut [i8]) -> Result<(), TfliteError>,
) -> bool {
    let mut start = 0;
    while start < rows.out_rows {
        let end = r.size(start + 1, rows.out_rows);
        let need = rows.needed(start..end);
        let ring_rows = need.len() + if r.range(0, 3) == 0 { r.size(1, 3) } else { 0 };
        let mut ring = [0i8; MAX + 3 * MAX_W * MAX_C];
        let ring = &mut ring[..ring_rows * rows.row_len];
        for (i, v) in ring.iter_mut().enumerate() {
            *v = (i * 37 + 11) as i8;
        }
        for row in need {
            let at = row % ring_rows * rows.row_len;
            ring[at..at + rows.row_len]
                .copy_from_slice(&input[row * rows.row_len..(row + 1) * rows.row_len]);
        }
        let part = &mut out[start * rows.out_row_len..end * rows.out_row_len];
        if band(ring, ring_rows, start..end, part).is_err() {
            return false;
        }
        start = end;
    }
    true
}

/// A random geometry: input `h × w`, filter `kh × kw`, strides,
/// dilations, pads (top, bottom, left, right); `None` where the filter is
/// longer than the padded input. With `three`, a 3×3 filter undilated.
struct Geometry {
    h: usize,
    w: usize,
    kh: usize,
    kw: usize,
    sh: usize,
    sw: usize,
    dh: usize,
    dw: usize,
    pt: usize,
    pl: usize,
    oh: usize,
    ow: usize,
}

fn geometry(r: &mut Rng, three: bool, dilated: bool) -> Option<Geometry> {
    let (h, w) = (r.size(1, MAX_H), r.size(1, MAX_W));
    let (kh, kw) = if three {
        (3, 3)
    } else {
        (r.size(1, 3), r.size(1, 3))
    };
    let (sh, sw) = (r.size(1, 3), r.size(1, 2));
    let (dh, dw) = if dilated && !three {
        (r.size(1, 2), r.size(1, 2))
    } else {
        (1, 1)
    };
    let (pt, pb, pl, pr) = (r.size(0, 2), r.size(0, 2), r.size(0, 2), r.size(0, 2));
    let out = |size: usize, pads: usize, k: usize, s: usize, d: usize| {
        let span = (k - 1) * d + 1;
        (size + pads >= span).then(|| (size + pads - span) / s + 1)
    };
    let (oh, ow) = (out(h, pt + pb, kh, sh, dh)?, out(w, pl + pr, kw, sw, dw)?);
    // an output of at most the largest input's pixels (the buffers' size)
    if oh * ow > MAX_H * MAX_W {
        return None;
    }
    Some(Geometry {
        oh,
        ow,
        h,
        w,
        kh,
        kw,
        sh,
        sw,
        dh,
        dw,
        pt,
        pl,
    })
}

fn multipliers(r: &mut Rng) -> [QuantizedMultiplier; MAX_C] {
    let mut ms = [QuantizedMultiplier::ZERO; MAX_C];
    for m in &mut ms {
        let mantissa = (1 << 30) + (r.next() >> 2) as i32;
        let shift = r.range(-12, 1);
        *m = r.multiplier(mantissa, shift);
    }
    ms
}

/// [`by_bands`] of a convolution with its channel pairs set up once
/// (`conv_2d_int8_band_prepared`, as `model!`'s streamed stages run it).
#[allow(clippy::too_many_arguments)]
fn by_bands_prepared(
    r: &mut Rng,
    input: &[i8],
    rows: &Rows,
    out: &mut [i8],
    filter: &[i8],
    bias: Option<&[i32]>,
    stages: &[ConvPairStage],
    dims: Conv2dDims,
    params: &Conv2dParams<'_>,
) -> bool {
    by_bands(r, input, rows, out, &mut |ring, ring_rows, band, out| {
        conv_2d_int8_band_prepared(
            ring, ring_rows, band, filter, bias, stages, dims, params, out,
        )
    })
}

#[inline(never)]
fn conv_case(r: &mut Rng, c: &mut Checks) {
    let three = r.range(0, 1) == 0;
    let Some(g) = geometry(r, three, true) else {
        return;
    };
    let depth = r.size(1, MAX_C);
    // an even count of channels (the DSP loops') mostly
    let oc = if r.range(0, 3) == 0 {
        r.size(1, MAX_C)
    } else {
        2 * r.size(1, MAX_C / 2)
    };
    let (mut input, mut filter) = ([0i8; MAX], [0i8; 8 * 9 * MAX_C]);
    let input = &mut input[..g.h * g.w * depth];
    let filter = &mut filter[..oc * g.kh * g.kw * depth];
    r.fill(input);
    r.fill(filter);
    let mut bias = [0i32; MAX_C];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let ms = multipliers(r);
    let dims = Conv2dDims {
        batches: 1,
        input_height: g.h,
        input_width: g.w,
        input_depth: depth,
        filter_height: g.kh,
        filter_width: g.kw,
        output_height: g.oh,
        output_width: g.ow,
        output_depth: oc,
    };
    let params = Conv2dParams {
        stride_height: g.sh,
        stride_width: g.sw,
        dilation_height: g.dh,
        dilation_width: g.dw,
        pad_top: g.pt,
        pad_left: g.pl,
        input_zero_point: r.range(-128, 127),
        output_zero_point: r.range(-128, 127),
        multipliers: if r.range(0, 1) == 0 {
            &ms[..oc]
        } else {
            &ms[..1]
        },
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let bias = Some(&bias[..oc]);
    let n = g.oh * g.ow * oc;
    let (mut whole, mut banded) = ([0i8; MAX], [0i8; MAX]);
    let ok = conv_2d_int8(input, &filter[..], bias, dims, &params, &mut whole[..n]).is_ok();
    // the whole against the one reference, `banded` lent for its output
    reference::conv_2d(input, filter, bias, dims, &params, &mut banded[..n]);
    c.eq(&whole[..n], &banded[..n], "convolution: whole = reference");
    c.check(ok, "conv_2d_int8 accepted the case");
    let rows = Rows {
        stride: g.sh,
        pad: g.pt,
        dilation: g.dh,
        filter: g.kh,
        height: g.h,
        row_len: g.w * depth,
        out_rows: g.oh,
        out_row_len: g.ow * oc,
    };
    let ok = by_bands(
        r,
        input,
        &rows,
        &mut banded[..n],
        &mut |ring, ring_rows, band, out| {
            conv_2d_int8_band(ring, ring_rows, band, &filter[..], bias, dims, &params, out)
        },
    );
    c.check(ok, "conv_2d_int8_band accepted every band");
    c.eq(&banded[..n], &whole[..n], "convolution: bands = whole");
    // the same bands with the channel pairs set up once (`conv_prepare`,
    // as `model!`'s streamed stages run them: im2col reads them in place
    // of a group's made per call), where it takes the layer
    let empty = ConvPairStage {
        constant: [0; 4],
        requant: [0; 11],
    };
    let mut stages = [empty; MAX_C / 2];
    let stages = &mut stages[..oc / 2];
    if oc % 2 == 1 || conv_prepare(filter, bias, dims, &params, stages).is_err() {
        return;
    }
    banded[..n].fill(0);
    let ok = by_bands_prepared(
        r,
        input,
        &rows,
        &mut banded[..n],
        filter,
        bias,
        stages,
        dims,
        &params,
    );
    c.check(ok, "conv_2d_int8_band_prepared accepted every band");
    c.eq(
        &banded[..n],
        &whole[..n],
        "convolution, prepared: bands = whole",
    );
}

/// A 1×1 convolution of stride 1 over 8 channels (the DSP matrix
/// product's widened loop) with its channel pairs set up once
/// (`conv_1x1_prepare`), as `model!`'s streamed stages run it: its bands
/// against the reference's whole output.
#[inline(never)]
fn pointwise_prepared_case(r: &mut Rng, c: &mut Checks) {
    let (h, w, depth) = (r.size(1, MAX_H), r.size(1, MAX_W), MAX_C);
    let oc = 2 * r.size(1, MAX_C / 2);
    let (mut input, mut filter) = ([0i8; MAX], [0i8; MAX_C * MAX_C]);
    let input = &mut input[..h * w * depth];
    let filter = &mut filter[..oc * depth];
    r.fill(input);
    r.fill(filter);
    let mut bias = [0i32; MAX_C];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    // multipliers below 1/2 (a right shift), as every int8 layer's: the
    // stages the DSP loops take
    let mut ms = [QuantizedMultiplier::ZERO; MAX_C];
    for m in &mut ms {
        let mantissa = (1 << 30) + (r.next() >> 2) as i32;
        let shift = r.range(-12, -1);
        *m = r.multiplier(mantissa, shift);
    }
    let dims = Conv2dDims {
        batches: 1,
        input_height: h,
        input_width: w,
        input_depth: depth,
        filter_height: 1,
        filter_width: 1,
        output_height: h,
        output_width: w,
        output_depth: oc,
    };
    let lo = r.range(-128, 0);
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: r.range(-128, 127),
        output_zero_point: r.range(-128, 127),
        multipliers: if r.range(0, 1) == 0 {
            &ms[..oc]
        } else {
            &ms[..1]
        },
        output_min: lo,
        output_max: r.range(lo, 127),
        rounding: Rounding::Double,
    };
    let bias = if r.range(0, 3) == 0 {
        None
    } else {
        Some(&bias[..oc])
    };
    let n = h * w * oc;
    let mut want = [0i8; MAX];
    reference::conv_2d(input, filter, bias, dims, &params, &mut want[..n]);
    let empty = ConvPairStage {
        constant: [0; 4],
        requant: [0; 11],
    };
    let mut stages = [empty; MAX_C / 2];
    let stages = &mut stages[..oc / 2];
    let ok = conv_1x1_prepare(filter, bias, dims, &params, stages).is_ok();
    c.check(ok, "conv_1x1_prepare accepted the case");
    let rows = Rows {
        stride: 1,
        pad: 0,
        dilation: 1,
        filter: 1,
        height: h,
        row_len: w * depth,
        out_rows: h,
        out_row_len: w * oc,
    };
    let mut prepared = [0i8; MAX];
    let ok = by_bands_prepared(
        r,
        input,
        &rows,
        &mut prepared[..n],
        filter,
        bias,
        stages,
        dims,
        &params,
    );
    c.check(ok, "conv_2d_int8_band_prepared accepted every band");
    c.eq(
        &prepared[..n],
        &want[..n],
        "1×1, prepared: bands = reference",
    );
    // written over its input (at most its input's channels), band by
    // band, with its pairs prepared and without
    let band = r.size(1, 4);
    for pairs in [Some(&stages[..]), None] {
        let stage = Stage::Conv {
            filter,
            bias,
            prepared: pairs,
            dims,
            params,
        };
        let mut io = [0i8; MAX];
        io[..input.len()].copy_from_slice(input);
        let mut scratch = [0i8; MAX];
        let ok = InPlaceLayer::new(stage, band).is_ok_and(|layer| {
            let s = layer.scratch_len();
            layer.run(&mut io[..input.len()], &mut scratch[..s]).is_ok()
        });
        c.check(ok, "InPlaceLayer took the 1×1 convolution");
        c.eq(&io[..n], &want[..n], "1×1 in place = reference");
    }
}

#[inline(never)]
fn depthwise_case(r: &mut Rng, c: &mut Checks) {
    let three = r.range(0, 1) == 0;
    let Some(g) = geometry(r, three, true) else {
        return;
    };
    // channels by fours (depth multiplier 1), or one channel (a first layer)
    let (depth, m) = match r.range(0, 2) {
        0 => (4 * r.size(1, MAX_C / 4), 1),
        1 => (1, r.size(1, MAX_C)),
        _ => (r.size(1, MAX_C), 1),
    };
    let oc = depth * m;
    let (mut input, mut filter) = ([0i8; MAX], [0i8; 9 * MAX_C]);
    let input = &mut input[..g.h * g.w * depth];
    let filter = &mut filter[..g.kh * g.kw * oc];
    r.fill(input);
    r.fill(filter);
    let mut bias = [0i32; MAX_C];
    for b in &mut bias {
        *b = r.range(-100_000, 100_000);
    }
    let ms = multipliers(r);
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: g.h,
        input_width: g.w,
        input_depth: depth,
        filter_height: g.kh,
        filter_width: g.kw,
        depth_multiplier: m,
        output_height: g.oh,
        output_width: g.ow,
    };
    let params = DepthwiseConvParams {
        stride_height: g.sh,
        stride_width: g.sw,
        dilation_height: g.dh,
        dilation_width: g.dw,
        pad_top: g.pt,
        pad_left: g.pl,
        input_zero_point: r.range(-128, 127),
        output_zero_point: r.range(-128, 127),
        multipliers: if r.range(0, 1) == 0 {
            &ms[..oc]
        } else {
            &ms[..1]
        },
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let bias = Some(&bias[..oc]);
    let n = g.oh * g.ow * oc;
    let (mut whole, mut banded) = ([0i8; MAX], [0i8; MAX]);
    let ok = depthwise_conv_int8(input, &filter[..], bias, dims, &params, &mut whole[..n]).is_ok();
    reference::depthwise_conv(input, filter, bias, dims, &params, &mut banded[..n]);
    c.eq(&whole[..n], &banded[..n], "depthwise: whole = reference");
    c.check(ok, "depthwise_conv_int8 accepted the case");
    let rows = Rows {
        stride: g.sh,
        pad: g.pt,
        dilation: g.dh,
        filter: g.kh,
        height: g.h,
        row_len: g.w * depth,
        out_rows: g.oh,
        out_row_len: g.ow * oc,
    };
    let ok = by_bands(
        r,
        input,
        &rows,
        &mut banded[..n],
        &mut |ring, ring_rows, band, out| {
            depthwise_conv_int8_band(ring, ring_rows, band, &filter[..], bias, dims, &params, out)
        },
    );
    c.check(ok, "depthwise_conv_int8_band accepted every band");
    c.eq(&banded[..n], &whole[..n], "depthwise: bands = whole");
    // channels by fours: the same with each group of four channels set up
    // once (`depthwise_prepare`), as `model!`'s streamed stages run it
    if m == 1 && depth % 4 == 0 {
        let empty = DepthwiseGroup {
            bias: [0; 4],
            table: [0; 18],
            constants: [[[0; 4]; 3]; 3],
            requant: None,
        };
        let mut groups = [empty; MAX_C / 4];
        let groups = &mut groups[..depth / 4];
        let ok = depthwise_prepare(&filter[..], bias, dims, &params, groups).is_ok();
        c.check(ok, "depthwise_prepare accepted the case");
        let mut prepared = [0i8; MAX];
        let ok = by_bands(
            r,
            input,
            &rows,
            &mut prepared[..n],
            &mut |ring, ring_rows, band, out| {
                depthwise_conv_int8_band_prepared(
                    ring,
                    ring_rows,
                    band,
                    &filter[..],
                    bias,
                    groups,
                    dims,
                    &params,
                    out,
                )
            },
        );
        c.check(ok, "depthwise_conv_int8_band_prepared accepted every band");
        c.eq(
            &prepared[..n],
            &whole[..n],
            "depthwise, prepared: bands = whole",
        );
        // written over its input group by group of four channels, each
        // group's prepared set-up read by the DSP loops, and without it
        if g.oh * g.ow <= g.h * g.w {
            let band = r.size(1, 4);
            for prepared in [Some(&groups[..]), None] {
                let stage = Stage::Depthwise {
                    filter,
                    bias,
                    prepared,
                    dims,
                    params,
                };
                let mut io = [0i8; MAX];
                io[..input.len()].copy_from_slice(input);
                let mut scratch = [0i8; 9 * 4 + MAX_H * MAX_W * 4 + 4 * MAX_W * 4];
                let ok = InPlaceLayer::new(stage, band).is_ok_and(|layer| {
                    let s = layer.scratch_len();
                    s <= scratch.len()
                        && layer.run(&mut io[..input.len()], &mut scratch[..s]).is_ok()
                });
                c.check(ok, "InPlaceLayer took the depthwise convolution");
                c.eq(&io[..n], &whole[..n], "depthwise in place = whole");
            }
        }
    }
}

#[inline(never)]
fn pool_case(r: &mut Rng, c: &mut Checks) {
    let Some(g) = geometry(r, false, false) else {
        return;
    };
    let depth = r.size(1, MAX_C);
    let mut input = [0i8; MAX];
    let input = &mut input[..g.h * g.w * depth];
    r.fill(input);
    let dims = PoolDims {
        batches: 1,
        input_height: g.h,
        input_width: g.w,
        depth,
        filter_height: g.kh,
        filter_width: g.kw,
        output_height: g.oh,
        output_width: g.ow,
    };
    let params = PoolParams {
        stride_height: g.sh,
        stride_width: g.sw,
        pad_top: g.pt,
        pad_left: g.pl,
        output_min: r.range(-128, 0),
        output_max: r.range(0, 127),
    };
    let n = g.oh * g.ow * depth;
    let rows = Rows {
        stride: g.sh,
        pad: g.pt,
        dilation: 1,
        filter: g.kh,
        height: g.h,
        row_len: g.w * depth,
        out_rows: g.oh,
        out_row_len: g.ow * depth,
    };
    let (mut whole, mut banded) = ([0i8; MAX], [0i8; MAX]);
    let ok = max_pool_int8(input, dims, &params, &mut whole[..n]).is_ok();
    reference::max_pool(input, dims, &params, &mut banded[..n]);
    c.eq(&whole[..n], &banded[..n], "max pool: whole = reference");
    c.check(ok, "max_pool_int8 accepted the case");
    let ok = by_bands(
        r,
        input,
        &rows,
        &mut banded[..n],
        &mut |ring, ring_rows, band, out| {
            max_pool_int8_band(ring, ring_rows, band, dims, &params, out)
        },
    );
    c.check(ok, "max_pool_int8_band accepted every band");
    c.eq(&banded[..n], &whole[..n], "max pool: bands = whole");
    // an average pool with a window of no tap is refused whole: skipped
    if average_pool_int8(input, dims, &params, &mut whole[..n]).is_ok() {
        reference::average_pool(input, dims, &params, &mut banded[..n]);
        c.eq(&whole[..n], &banded[..n], "average pool: whole = reference");
        let ok = by_bands(
            r,
            input,
            &rows,
            &mut banded[..n],
            &mut |ring, ring_rows, band, out| {
                average_pool_int8_band(ring, ring_rows, band, dims, &params, out)
            },
        );
        c.check(ok, "average_pool_int8_band accepted every band");
        c.eq(&banded[..n], &whole[..n], "average pool: bands = whole");
    }
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("band_kernels");
    let mut r = Rng(0x7f4a_7c15);
    for _ in 0..CASES {
        conv_case(&mut r, &mut c);
        pointwise_prepared_case(&mut r, &mut c);
        depthwise_case(&mut r, &mut c);
        pool_case(&mut r, &mut c);
    }
    c.finish()
}
