//! The band kernels' DSP path (the one the Cortex-M4F takes) on the host:
//! `conv_rows_dsp` and `depthwise_rows_dsp` run the kernels' `dsp.rs` plain-Rust
//! twins of its `asm!` loops over runs of a ring's rows. On random shapes
//! the loops take, every split of the output rows into bands with minimal
//! rings gives bit for bit the reference's whole-tensor output
//! (`crate::reference`, the one every kernel test checks against)
//! (`tests/band.rs` has the portable path, with the same helpers).

extern crate std;

use crate::ops::conv::conv_rows_dsp;
use crate::ops::conv::depthwise_conv::depthwise_rows_dsp;
use crate::{
    conv_1x1_prepare, conv_2d_int8_band, conv_2d_int8_band_prepared, depthwise_conv_int8_band,
    depthwise_conv_int8_band_prepared, depthwise_prepare, quantize_multiplier, Conv2dDims,
    Conv2dParams, ConvPairStage, DepthwiseConvDims, DepthwiseConvParams, DepthwiseGroup,
    QuantizedMultiplier, Rounding, TfliteError,
};
use proptest::prelude::*;
use std::vec::Vec;

#[path = "../../tests/common/band.rs"]
mod helpers;
use helpers::{by_bands, out_size, stream, Rows};

fn multipliers(next: &mut impl FnMut() -> u64, n: usize) -> Vec<QuantizedMultiplier> {
    (0..n)
        .map(|_| {
            quantize_multiplier(1e-4 + (next() % 1000) as f64 * 4e-4)
                .unwrap_or(QuantizedMultiplier::ZERO)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// im2col (any filter) and the matrix product (1×1, stride 1, no
    /// padding), an even count of output channels as they take.
    #[test]
    fn conv_dsp_bands_are_the_whole_convolution(
        (h, w, c, pairs, pointwise) in (1usize..12, 1usize..6, 1usize..9, 1usize..4, any::<bool>()),
        (kh, kw, sh, sw, dh, dw) in (1usize..4, 1usize..4, 1usize..4, 1usize..3, 1usize..3, 1usize..3),
        (pt, pb, pl, pr) in (0usize..3, 0usize..3, 0usize..3, 0usize..3),
        (cuts, extra) in (proptest::collection::vec(any::<bool>(), 16), prop_oneof![3 => Just(0usize), 1 => 1usize..4]),
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let ((kh, kw), (sh, sw), (dh, dw), (pt, pb, pl, pr)) = if pointwise {
            ((1, 1), (1, 1), (1, 1), (0, 0, 0, 0))
        } else {
            ((kh, kw), (sh, sw), (dh, dw), (pt, pb, pl, pr))
        };
        let (Some(oh), Some(ow)) = (out_size(h, pt + pb, kh, sh, dh), out_size(w, pl + pr, kw, sw, dw)) else {
            return Ok(());
        };
        let oc = 2 * pairs;
        let mut next = stream(seed);
        let input: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..oc * kh * kw * c).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = Conv2dDims {
            batches: 1, input_height: h, input_width: w, input_depth: c,
            filter_height: kh, filter_width: kw,
            output_height: oh, output_width: ow, output_depth: oc,
        };
        let params = Conv2dParams {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl, input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = std::vec![0i8; oh * ow * oc];
        crate::reference::conv_2d(&input, &filter, bias, dims, &params, &mut whole);
        let layout = Rows { axis: (sh, pt, dh, kh, h), row_len: w * c, out_rows: oh, out_row_len: ow * oc };
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| -> Result<(), TfliteError> {
            // the band's checks (the portable band kernel's), then the DSP path
            let mut checked = std::vec![0i8; out.len()];
            conv_2d_int8_band(ring, ring_rows, rows.clone(), &filter[..], bias, dims, &params, &mut checked)?;
            conv_rows_dsp(&filter, ring, ring_rows, rows, bias, None, dims, &params, out);
            Ok(())
        })?;
        prop_assert_eq!(&banded, &whole);
        // a 1×1 filter over no padding as `model!` writes it: its input
        // zero point folded into its bias (bias − zp · Σ w, wrapping) and 0
        // in its place, so each call sums no weights; the same bands
        if (kh, kw, pt + pb + pl + pr) == (1, 1, 0) {
            let folded: Vec<i32> = (0..oc)
                .map(|o| {
                    let sum = filter[o * c..(o + 1) * c]
                        .iter()
                        .fold(0i32, |s, &v| s.wrapping_add(i32::from(v)));
                    let b = bias.map_or(0, |b| b[o]);
                    b.wrapping_sub(zp.wrapping_mul(sum))
                })
                .collect();
            let params = Conv2dParams { input_zero_point: 0, ..params };
            let folded_bands = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| -> Result<(), TfliteError> {
                let mut checked = std::vec![0i8; out.len()];
                conv_2d_int8_band(ring, ring_rows, rows.clone(), &filter[..], Some(&folded[..]), dims, &params, &mut checked)?;
                conv_rows_dsp(&filter, ring, ring_rows, rows, Some(&folded[..]), None, dims, &params, out);
                Ok(())
            })?;
            prop_assert_eq!(folded_bands, whole);
        }
    }

    /// A 1×1 convolution's channel pairs set up once (`conv_1x1_prepare`,
    /// as `model!`'s streamed stages run it) on the matrix product's
    /// widened loop (depths by eights; more than one group of channels
    /// without them): every split into bands is the reference's whole
    /// output, through the public entry and the DSP path.
    #[test]
    fn prepared_1x1_dsp_bands_are_the_whole_convolution(
        (h, w, eights, pairs) in (1usize..10, 1usize..6, 1usize..5, prop_oneof![3 => 1usize..6, 1 => 30usize..40]),
        (cuts, extra) in (proptest::collection::vec(any::<bool>(), 16), prop_oneof![3 => Just(0usize), 1 => 1usize..4]),
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
        (lo, span) in (-128i32..=0, 0i32..=255),
    ) {
        let (c, oc) = (8 * eights, 2 * pairs);
        let hi = (lo + span).min(127);
        let mut next = stream(seed);
        let input: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..oc * c).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = Conv2dDims {
            batches: 1, input_height: h, input_width: w, input_depth: c,
            filter_height: 1, filter_width: 1,
            output_height: h, output_width: w, output_depth: oc,
        };
        let params = Conv2dParams {
            stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
            pad_top: 0, pad_left: 0, input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: lo, output_max: hi,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut stages = std::vec![ConvPairStage { constant: [0; 4], requant: [0; 11] }; pairs];
        conv_1x1_prepare(&filter, bias, dims, &params, &mut stages).unwrap();
        let mut whole = std::vec![0i8; h * w * oc];
        crate::reference::conv_2d(&input, &filter, bias, dims, &params, &mut whole);
        let layout = Rows { axis: (1, 0, 1, 1, h), row_len: w * c, out_rows: h, out_row_len: w * oc };
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| -> Result<(), TfliteError> {
            let mut checked = std::vec![0i8; out.len()];
            conv_2d_int8_band_prepared(ring, ring_rows, rows.clone(), &filter[..], bias, &stages, dims, &params, &mut checked)?;
            conv_rows_dsp(&filter, ring, ring_rows, rows, bias, Some(&stages), dims, &params, out);
            Ok(())
        })?;
        prop_assert_eq!(&banded, &whole);
    }

    /// One input channel (the convolution it is) and depth multiplier 1 on
    /// channels by fours (3×3 windows and others).
    #[test]
    fn depthwise_dsp_bands_are_the_whole_depthwise_convolution(
        (h, w, one_channel, groups, m_pairs) in (1usize..12, 1usize..7, any::<bool>(), 1usize..3, 1usize..5),
        (kh, kw, sh, sw, dh, dw) in (1usize..4, 1usize..4, 1usize..3, 1usize..3, 1usize..3, 1usize..3),
        (pt, pb, pl, pr) in (0usize..3, 0usize..3, 0usize..3, 0usize..3),
        (cuts, extra) in (proptest::collection::vec(any::<bool>(), 16), prop_oneof![3 => Just(0usize), 1 => 1usize..4]),
        seed in any::<u64>(),
        (zp, out_zp, per_channel, three) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let (c, m) = if one_channel { (1, 2 * m_pairs) } else { (4 * groups, 1) };
        // the 3×3 loops half the time
        let (kh, kw, dh, dw) = if three { (3, 3, 1, 1) } else { (kh, kw, dh, dw) };
        let (Some(oh), Some(ow)) = (out_size(h, pt + pb, kh, sh, dh), out_size(w, pl + pr, kw, sw, dw)) else {
            return Ok(());
        };
        let oc = c * m;
        let mut next = stream(seed);
        let input: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..kh * kw * oc).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 200_001) as i32 - 100_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = DepthwiseConvDims {
            batches: 1, input_height: h, input_width: w, input_depth: c,
            filter_height: kh, filter_width: kw, depth_multiplier: m,
            output_height: oh, output_width: ow,
        };
        let params = DepthwiseConvParams {
            stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
            pad_top: pt, pad_left: pl, input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let mut whole = std::vec![0i8; oh * ow * oc];
        crate::reference::depthwise_conv(&input, &filter, Some(&bias), dims, &params, &mut whole);
        let layout = Rows { axis: (sh, pt, dh, kh, h), row_len: w * c, out_rows: oh, out_row_len: ow * oc };
        let banded = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| -> Result<(), TfliteError> {
            let mut checked = std::vec![0i8; out.len()];
            depthwise_conv_int8_band(ring, ring_rows, rows.clone(), &filter[..], Some(&bias[..]), dims, &params, &mut checked)?;
            depthwise_rows_dsp(&filter, ring, ring_rows, rows, Some(&bias[..]), None, dims, &params, out);
            Ok(())
        })?;
        prop_assert_eq!(&banded, &whole);
        // channels by fours: the same bands with the groups set up once
        // (`depthwise_prepare`), through the public entry and the DSP loops
        if !one_channel {
            let empty = DepthwiseGroup { bias: [0; 4], table: [0; 18], constants: [[[0; 4]; 3]; 3], requant: None };
            let mut groups = std::vec![empty; c / 4];
            depthwise_prepare(&filter, Some(&bias[..]), dims, &params, &mut groups).unwrap();
            let prepared = by_bands(&input, &layout, &cuts, extra, |ring, ring_rows, rows, out| -> Result<(), TfliteError> {
                let mut checked = std::vec![0i8; out.len()];
                depthwise_conv_int8_band_prepared(ring, ring_rows, rows.clone(), &filter[..], Some(&bias[..]), &groups, dims, &params, &mut checked)?;
                depthwise_rows_dsp(&filter, ring, ring_rows, rows, Some(&bias[..]), Some(&groups), dims, &params, out);
                Ok(())
            })?;
            prop_assert_eq!(prepared, whole);
        }
    }
}
