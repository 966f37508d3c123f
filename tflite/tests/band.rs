//! The band kernels (issue 70): output rows `rows` of a convolution,
//! depthwise convolution or pool computed from a ring of input rows (input
//! row `r` at ring row `r % ring_rows`). On random shapes, strides,
//! paddings and dilations, every split of the output rows into bands, each
//! band's ring the fewest rows it needs (or a few more, filled with other
//! values), gives bit for bit the whole-tensor kernel's output; a ring one
//! row short is refused with the rows it needs, the output untouched.
//!
//! The DSP path of the same kernels (the Cortex-M4F's) is tested by the
//! unit tests of `src/band_dsp_tests.rs`, which reach the plain-Rust twins
//! of the kernels' `dsp.rs` on the host (an integration test does not see it).

// closures returning the crate's TfliteError, as it is
#![allow(clippy::result_large_err)]

use core::ops::Range;
use proptest::prelude::*;
use shapecheck_tflite::*;

#[path = "common/band.rs"]
mod helpers;
use helpers::{by_bands, out_size, stream, Rows};

/// A layer's random geometry: input `h × w × c`, filter `kh × kw`, strides,
/// dilations, paddings (top, bottom, left, right).
#[derive(Debug, Clone)]
struct Geometry {
    h: usize,
    w: usize,
    c: usize,
    kh: usize,
    kw: usize,
    strides: (usize, usize),
    dilations: (usize, usize),
    pads: (usize, usize, usize, usize),
}

impl Geometry {
    /// The output's rows and columns, `None` where the filter is longer
    /// than the padded input.
    fn output(&self) -> Option<(usize, usize)> {
        let (pt, pb, pl, pr) = self.pads;
        Some((
            out_size(self.h, pt + pb, self.kh, self.strides.0, self.dilations.0)?,
            out_size(self.w, pl + pr, self.kw, self.strides.1, self.dilations.1)?,
        ))
    }
}

fn geometry(dilated: bool) -> impl Strategy<Value = Geometry> {
    let dilation = if dilated { 1usize..4 } else { 1usize..2 };
    (
        (1usize..12, 1usize..6, 1usize..5),
        (1usize..5, 1usize..4),
        (1usize..4, 1usize..3),
        (dilation.clone(), dilation),
        (0usize..3, 0usize..3, 0usize..3, 0usize..3),
    )
        .prop_map(|((h, w, c), (kh, kw), strides, dilations, pads)| Geometry {
            h,
            w,
            c,
            kh,
            kw,
            strides,
            dilations,
            pads,
        })
}

/// A split of up to 16 output rows into bands, and the ring's extra rows.
fn split() -> impl Strategy<Value = (Vec<bool>, usize)> {
    (
        proptest::collection::vec(any::<bool>(), 16),
        prop_oneof![3 => Just(0usize), 1 => 1usize..4],
    )
}

fn multipliers(next: &mut impl FnMut() -> u64, n: usize) -> Vec<QuantizedMultiplier> {
    (0..n)
        .map(|_| quantize_multiplier(1e-4 + (next() % 1000) as f64 * 4e-4).unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn conv_bands_are_the_whole_convolution(
        g in geometry(true),
        oc in 1usize..5,
        (cuts, extra) in split(),
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let Some((oh, ow)) = g.output() else { return Ok(()) };
        let mut next = stream(seed);
        let input: Vec<i8> = (0..g.h * g.w * g.c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..oc * g.kh * g.kw * g.c).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = Conv2dDims {
            batches: 1, input_height: g.h, input_width: g.w, input_depth: g.c,
            filter_height: g.kh, filter_width: g.kw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let params = Conv2dParams {
            stride_height: g.strides.0, stride_width: g.strides.1,
            dilation_height: g.dilations.0, dilation_width: g.dilations.1,
            pad_top: g.pads.0, pad_left: g.pads.2,
            input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = vec![0i8; oh * ow * oc];
        conv_2d_int8(&input, &filter[..], bias, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::conv_2d(&input, &filter, bias, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole convolution is the reference");
        let layout = Rows {
            axis: (g.strides.0, g.pads.0, g.dilations.0, g.kh, g.h),
            row_len: g.w * g.c,
            out_rows: oh,
            out_row_len: ow * oc,
        };
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
            conv_2d_int8_band(ring, ring_rows, rows, &filter[..], bias, dims, &params, out)
        })?;
        prop_assert_eq!(&banded, &whole);
        // a 1×1 filter on output channels by twos: with its channel pairs
        // set up once
        if (g.kh, g.kw) == (1, 1) && oc % 2 == 0 {
            let mut stages = vec![ConvPairStage { constant: [0; 4], requant: [0; 11] }; oc / 2];
            conv_1x1_prepare(&filter, bias, dims, &params, &mut stages).unwrap();
            let prepared = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
                conv_2d_int8_band_prepared(ring, ring_rows, rows, &filter[..], bias, &stages, dims, &params, out)
            })?;
            prop_assert_eq!(prepared, whole);
        }
    }

    #[test]
    fn depthwise_bands_are_the_whole_depthwise_convolution(
        g in geometry(true),
        m in 1usize..4,
        (cuts, extra) in split(),
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let Some((oh, ow)) = g.output() else { return Ok(()) };
        let oc = g.c * m;
        let mut next = stream(seed);
        let input: Vec<i8> = (0..g.h * g.w * g.c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..g.kh * g.kw * oc).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = DepthwiseConvDims {
            batches: 1, input_height: g.h, input_width: g.w, input_depth: g.c,
            filter_height: g.kh, filter_width: g.kw, depth_multiplier: m,
            output_height: oh, output_width: ow,
        };
        let params = DepthwiseConvParams {
            stride_height: g.strides.0, stride_width: g.strides.1,
            dilation_height: g.dilations.0, dilation_width: g.dilations.1,
            pad_top: g.pads.0, pad_left: g.pads.2,
            input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = vec![0i8; oh * ow * oc];
        depthwise_conv_int8(&input, &filter[..], bias, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::depthwise_conv(&input, &filter, bias, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole depthwise convolution is the reference");
        let layout = Rows {
            axis: (g.strides.0, g.pads.0, g.dilations.0, g.kh, g.h),
            row_len: g.w * g.c,
            out_rows: oh,
            out_row_len: ow * oc,
        };
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
            depthwise_conv_int8_band(ring, ring_rows, rows, &filter[..], bias, dims, &params, out)
        })?;
        prop_assert_eq!(&banded, &whole);
        // depth multiplier 1, channels by fours: with the groups set up once
        if m == 1 && g.c % 4 == 0 {
            let empty = DepthwiseGroup { bias: [0; 4], table: [0; 18], constants: [[[0; 4]; 3]; 3], requant: None };
            let mut groups = vec![empty; g.c / 4];
            depthwise_prepare(&filter, bias, dims, &params, &mut groups).unwrap();
            let prepared = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
                depthwise_conv_int8_band_prepared(ring, ring_rows, rows, &filter[..], bias, &groups, dims, &params, out)
            })?;
            prop_assert_eq!(prepared, whole);
        }
    }

    #[test]
    fn pool_bands_are_the_whole_pools(
        g in geometry(false),
        (cuts, extra) in split(),
        seed in any::<u64>(),
        (lo, hi) in (-128i32..=0, 0i32..=127),
    ) {
        let Some((oh, ow)) = g.output() else { return Ok(()) };
        let mut next = stream(seed);
        let input: Vec<i8> = (0..g.h * g.w * g.c).map(|_| next() as i8).collect();
        let dims = PoolDims {
            batches: 1, input_height: g.h, input_width: g.w, depth: g.c,
            filter_height: g.kh, filter_width: g.kw,
            output_height: oh, output_width: ow,
        };
        let params = PoolParams {
            stride_height: g.strides.0, stride_width: g.strides.1,
            pad_top: g.pads.0, pad_left: g.pads.2,
            output_min: lo, output_max: hi,
        };
        let layout = Rows {
            axis: (g.strides.0, g.pads.0, 1, g.kh, g.h),
            row_len: g.w * g.c,
            out_rows: oh,
            out_row_len: ow * g.c,
        };
        let mut whole = vec![0i8; oh * ow * g.c];
        max_pool_int8(&input, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::max_pool(&input, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole max pool is the reference");
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
            max_pool_int8_band(ring, ring_rows, rows, dims, &params, out)
        })?;
        prop_assert_eq!(banded, whole);
        // an average pool with a window of no tap is refused, band or whole
        let mut whole = vec![0i8; oh * ow * g.c];
        match average_pool_int8(&input, dims, &params, &mut whole) {
            Ok(()) => {
                let mut want = vec![0i8; whole.len()];
                reference::average_pool(&input, dims, &params, &mut want);
                prop_assert_eq!(&whole, &want, "the whole average pool is the reference");
                let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| {
                    average_pool_int8_band(ring, ring_rows, rows, dims, &params, out)
                })?;
                prop_assert_eq!(banded, whole);
            }
            Err(e) => {
                let mut out = vec![0i8; ow * g.c];
                let r = average_pool_int8_band(&input, g.h, 0..1, dims, &params, &mut out);
                prop_assert_eq!(r, Err(e));
            }
        }
    }
}

proptest! {
    /// A fully connected layer's sums over bands of its input depth, the
    /// bands in any order, then the finish: the whole layer's output.
    #[test]
    fn fully_connected_bands_are_the_whole_layer(
        (batches, input_dim, units) in (1usize..4, 1usize..40, 1usize..10),
        (cuts, reversed) in (proptest::collection::vec(any::<bool>(), 40), any::<bool>()),
        seed in any::<u64>(),
        (x_zp, w_zp, out_zp, per_channel, with_bias) in (-128i32..=127, prop_oneof![Just(0i32), -128i32..=127], -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let mut next = stream(seed);
        let input: Vec<i8> = (0..batches * input_dim).map(|_| next() as i8).collect();
        let weights: Vec<i8> = (0..units * input_dim).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..units).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { units } else { 1 });
        let dims = FullyConnectedDims { batches, input_dim, units };
        let params = FullyConnectedParams {
            input_zero_point: x_zp, weights_zero_point: w_zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = vec![0i8; batches * units];
        fully_connected_int8(&input, &weights[..], bias, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::fully_connected(&input, &weights, bias, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole layer is the reference");
        let mut parts = helpers::bands(input_dim, &cuts);
        if reversed {
            parts.reverse();
        }
        let mut acc = vec![0i32; batches * units];
        for depth in parts {
            // each row's inputs of the band
            let band: Vec<i8> = input
                .chunks(input_dim)
                .flat_map(|row| row[depth.clone()].iter().copied())
                .collect();
            fully_connected_int8_accumulate(&band, depth, &weights[..], dims, &params, &mut acc).unwrap();
        }
        let mut out = vec![0i8; batches * units];
        fully_connected_int8_finish(&acc, bias, dims, &params, &mut out).unwrap();
        prop_assert_eq!(out, whole);
    }
}

/// The band checks beyond the layer's: one image, rows inside the output,
/// the ring's and the output's lengths; nothing written on any of them.
#[test]
fn bands_are_checked_before_anything_is_written() {
    // a 4×1 image, a 2×1 filter [1, 1], VALID: 3 output rows
    let dims = Conv2dDims {
        batches: 1,
        input_height: 4,
        input_width: 1,
        input_depth: 1,
        filter_height: 2,
        filter_width: 1,
        output_height: 3,
        output_width: 1,
        output_depth: 1,
    };
    let ms = [quantize_multiplier(1.0).unwrap()];
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: &ms,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let filter = [1i8, 1];
    let run = |ring: &[i8], ring_rows, rows: Range<usize>, dims, out: &mut [i8]| {
        conv_2d_int8_band(
            ring,
            ring_rows,
            rows,
            &filter[..],
            None::<&[i32]>,
            dims,
            &params,
            out,
        )
    };
    let mut out = [7i8; 2];
    // two images
    let two = Conv2dDims { batches: 2, ..dims };
    assert!(matches!(
        run(&[1, 2, 3], 3, 0..2, two, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    // rows past the output's, or descending
    assert!(matches!(
        run(&[1, 2, 3, 4], 4, 2..4, dims, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    #[allow(clippy::reversed_empty_ranges)]
    let descending = 2..1;
    assert!(matches!(
        run(&[1, 2, 3, 4], 4, descending, dims, &mut out),
        Err(TfliteError::KernelParam { .. })
    ));
    // a ring whose length is not its rows'
    assert_eq!(
        run(&[1, 2, 3], 2, 0..2, dims, &mut out),
        Err(TfliteError::Length {
            what: "ring",
            expected: 2,
            actual: 3
        })
    );
    // an output that is not the band's
    assert_eq!(
        run(&[1, 2, 3], 3, 0..1, dims, &mut out),
        Err(TfliteError::Length {
            what: "output",
            expected: 1,
            actual: 2
        })
    );
    // rows 0 and 1 read input rows 0..3
    assert_eq!(
        run(&[1, 2], 2, 0..2, dims, &mut out),
        Err(TfliteError::RingTooSmall {
            first_row: 0,
            rows: 3,
            ring_rows: 2
        })
    );
    assert_eq!(out, [7, 7]);
    // and with a ring of 3 rows: input rows 1..3 at ring rows 1, 2, and 3 at 0
    run(&[4, 2, 3], 3, 1..3, dims, &mut out).unwrap();
    assert_eq!(out, [5, 7]);
}

/// The partial sums' checks: the input range inside the layer's inputs,
/// the lengths; the accumulators untouched on any of them.
#[test]
fn fully_connected_sums_are_checked_before_anything_is_written() {
    let ms = [quantize_multiplier(0.5).unwrap()];
    let params = FullyConnectedParams {
        input_zero_point: 0,
        weights_zero_point: 0,
        output_zero_point: 0,
        multipliers: &ms,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let dims = FullyConnectedDims {
        batches: 1,
        input_dim: 4,
        units: 2,
    };
    let weights = [1i8; 8];
    let mut acc = [5i32; 2];
    let sums = |input: &[i8], depth: Range<usize>, acc: &mut [i32]| {
        fully_connected_int8_accumulate(input, depth, &weights[..], dims, &params, acc)
    };
    assert!(matches!(
        sums(&[1, 2], 3..5, &mut acc),
        Err(TfliteError::KernelParam { .. })
    ));
    assert!(matches!(
        sums(&[1, 2, 3], 0..2, &mut acc),
        Err(TfliteError::Length { what: "input", .. })
    ));
    assert!(matches!(
        sums(&[1, 2], 0..2, &mut acc[..1]),
        Err(TfliteError::Length {
            what: "accumulators",
            ..
        })
    ));
    assert_eq!(acc, [5, 5]);
    sums(&[1, 2], 1..3, &mut acc).unwrap();
    assert_eq!(acc, [8, 8]);
    let mut out = [0i8; 2];
    assert!(matches!(
        fully_connected_int8_finish(&acc[..1], None::<&[i32]>, dims, &params, &mut out),
        Err(TfliteError::Length { .. })
    ));
    assert_eq!(out, [0, 0]);
}
