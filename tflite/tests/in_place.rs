//! Layers written over their own input (`stream::InPlaceLayer`, issue
//! 70): on random shapes, strides, paddings, dilations, bands and
//! quantizations, a depthwise convolution run group by group of four
//! channels and a 1×1 convolution run band by band, each over its input
//! with a scratch of [`InPlaceShape::scratch`]'s values, leave in the
//! buffer bit for bit the whole-tensor kernel's output (itself checked
//! against the plain reference), with and without their prepared set-up;
//! the layers `InPlaceShape::check` refuses are refused, the buffer
//! untouched.
//!
//! The DSP path (the Cortex-M4F's asm, which reads each group's prepared
//! set-up) runs the same cases under QEMU: `embedded/tests/band_kernels.rs`.

// closures returning the crate's TfliteError, as it is
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck_tflite::stream::{InPlaceKind, InPlaceLayer, InPlaceShape, Stage};
use shapecheck_tflite::*;

#[path = "common/band.rs"]
#[allow(dead_code)]
mod helpers;
use helpers::{out_size, stream};

fn multipliers(next: &mut impl FnMut() -> u64, n: usize) -> Vec<QuantizedMultiplier> {
    (0..n)
        .map(|_| quantize_multiplier(1e-3 + (next() % 1000) as f64 * 2e-4).unwrap())
        .collect()
}

/// Runs `layer` over a copy of `input` with a scratch full of `fill`, and
/// returns the buffer's output values.
fn in_place(layer: &InPlaceLayer<'_>, input: &[i8], fill: i8) -> Vec<i8> {
    let mut io = input.to_vec();
    let mut scratch = vec![fill; layer.scratch_len()];
    layer.run(&mut io, &mut scratch).unwrap();
    io.truncate(layer.output_len());
    io
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_depthwise_convolution_in_place_is_the_whole_layer(
        (h, w, groups) in (1usize..12, 1usize..7, 1usize..4),
        (kh, kw) in (1usize..5, 1usize..5),
        strides in (1usize..3, 1usize..3),
        dilations in (1usize..3, 1usize..3),
        pads in (0usize..3, 0usize..3, 0usize..3, 0usize..3),
        band in 1usize..6,
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
    ) {
        let c = 4 * groups;
        let (pt, pb, pl, pr) = pads;
        let (Some(oh), Some(ow)) = (
            out_size(h, pt + pb, kh, strides.0, dilations.0),
            out_size(w, pl + pr, kw, strides.1, dilations.1),
        ) else { return Ok(()) };
        let mut next = stream(seed);
        let input: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..kh * kw * c).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..c).map(|_| (next() % 20_001) as i32 - 10_000).collect();
        let ms = multipliers(&mut next, if per_channel { c } else { 1 });
        let dims = DepthwiseConvDims {
            batches: 1, input_height: h, input_width: w, input_depth: c,
            filter_height: kh, filter_width: kw, depth_multiplier: 1,
            output_height: oh, output_width: ow,
        };
        let params = DepthwiseConvParams {
            stride_height: strides.0, stride_width: strides.1,
            dilation_height: dilations.0, dilation_width: dilations.1,
            pad_top: pt, pad_left: pl,
            input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = vec![0i8; oh * ow * c];
        depthwise_conv_int8(&input, &filter[..], bias, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::depthwise_conv(&input, &filter, bias, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole layer is the reference");

        let shape = InPlaceShape {
            kind: InPlaceKind::Depthwise,
            input: [h, w, c],
            output: [oh, ow, c],
            filter: [kh, kw],
        };
        let stage = Stage::Depthwise { filter: &filter, bias, prepared: None, dims, params };
        if oh * ow > h * w {
            // more output pixels than input ones: refused
            prop_assert!(shape.check(band).is_err());
            prop_assert!(InPlaceLayer::new(stage, band).is_err());
            return Ok(());
        }
        let layer = InPlaceLayer::new(stage, band).unwrap();
        prop_assert_eq!(Some(layer.scratch_len()), shape.scratch(band));
        prop_assert_eq!(in_place(&layer, &input, next() as i8), whole.clone());

        let empty = DepthwiseGroup { bias: [0; 4], table: [0; 18], constants: [[[0; 4]; 3]; 3], requant: None };
        let mut prepared = vec![empty; groups];
        depthwise_prepare(&filter, bias, dims, &params, &mut prepared).unwrap();
        let stage = Stage::Depthwise { filter: &filter, bias, prepared: Some(&prepared), dims, params };
        let layer = InPlaceLayer::new(stage, band).unwrap();
        prop_assert_eq!(in_place(&layer, &input, next() as i8), whole);
    }

    #[test]
    fn a_1x1_convolution_in_place_is_the_whole_layer(
        (h, w, c) in (1usize..10, 1usize..7, 1usize..9),
        oc in 1usize..12,
        band in 1usize..6,
        seed in any::<u64>(),
        (zp, out_zp, per_channel, with_bias) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
        // mostly stride 1 and no padding (each pixel its own: the calls
        // by whole pixel pairs); else a stride of 2 or a padding, read by
        // rows (an output row from input rows at or after its own)
        (sh, sw, pt, pl) in prop_oneof![
            3 => Just((1usize, 1usize, 0usize, 0usize)),
            1 => (1usize..3, 1usize..3, 0usize..2, 0usize..2),
        ],
    ) {
        let mut next = stream(seed);
        let input: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
        let filter: Vec<i8> = (0..oc * c).map(|_| next() as i8).collect();
        let bias: Vec<i32> = (0..oc).map(|_| (next() % 20_001) as i32 - 10_000).collect();
        let ms = multipliers(&mut next, if per_channel { oc } else { 1 });
        let dims = Conv2dDims {
            batches: 1, input_height: h, input_width: w, input_depth: c,
            filter_height: 1, filter_width: 1,
            output_height: h, output_width: w, output_depth: oc,
        };
        let params = Conv2dParams {
            stride_height: sh, stride_width: sw, dilation_height: 1, dilation_width: 1,
            pad_top: pt, pad_left: pl,
            input_zero_point: zp, output_zero_point: out_zp,
            multipliers: &ms, output_min: -128, output_max: 127,
            rounding: Rounding::Double,
        };
        let bias = with_bias.then_some(&bias[..]);
        let mut whole = vec![0i8; h * w * oc];
        conv_2d_int8(&input, &filter[..], bias, dims, &params, &mut whole).unwrap();
        let mut want = vec![0i8; whole.len()];
        reference::conv_2d(&input, &filter, bias, dims, &params, &mut want);
        prop_assert_eq!(&whole, &want, "the whole layer is the reference");

        let stage = Stage::Conv { filter: &filter, bias, prepared: None, dims, params };
        if oc > c {
            // more output channels than input ones: refused, untouched
            let e = InPlaceLayer::new(stage, band).unwrap_err();
            prop_assert!(e.to_string().contains("at most its input's channels"), "{}", e);
            return Ok(());
        }
        if pt > 0 {
            // an output row reading the row above its own, which a band
            // before it wrote over: refused
            let e = InPlaceLayer::new(stage, band).unwrap_err();
            prop_assert!(e.to_string().contains("no padding above"), "{}", e);
            return Ok(());
        }
        let layer = InPlaceLayer::new(stage, band).unwrap();
        // the band's pixels, in whole pairs, at most the output's
        let pixels = band.min(h) * w;
        prop_assert_eq!(layer.scratch_len(), (pixels + pixels % 2).min(h * w) * oc);
        prop_assert_eq!(in_place(&layer, &input, next() as i8), whole.clone());

        if oc % 2 == 0 {
            let mut pairs = vec![ConvPairStage { constant: [0; 4], requant: [0; 11] }; oc / 2];
            conv_1x1_prepare(&filter, bias, dims, &params, &mut pairs).unwrap();
            let stage = Stage::Conv { filter: &filter, bias, prepared: Some(&pairs), dims, params };
            let layer = InPlaceLayer::new(stage, band).unwrap();
            prop_assert_eq!(in_place(&layer, &input, next() as i8), whole);
        }
    }
}

/// A layer of the wrong kind or shape is refused with the rule it breaks,
/// and a buffer of the wrong length leaves the input untouched.
#[test]
fn refused_layers_name_their_rule_and_touch_nothing() {
    let ms = [quantize_multiplier(0.5).unwrap()];
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: 3,
        input_width: 3,
        input_depth: 6,
        filter_height: 3,
        filter_width: 3,
        depth_multiplier: 1,
        output_height: 3,
        output_width: 3,
    };
    let params = DepthwiseConvParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 1,
        pad_left: 1,
        input_zero_point: 0,
        output_zero_point: 0,
        multipliers: &ms,
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    let filter = [1i8; 54];
    let six = Stage::Depthwise {
        filter: &filter,
        bias: None,
        prepared: None,
        dims,
        params,
    };
    let e = InPlaceLayer::new(six, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the layer in place is 1: a depthwise convolution in place has channels by fours"
    );
    let pool = Stage::MaxPool {
        dims: PoolDims {
            batches: 1,
            input_height: 2,
            input_width: 1,
            depth: 1,
            filter_height: 1,
            filter_width: 1,
            output_height: 2,
            output_width: 1,
        },
        params: PoolParams {
            stride_height: 1,
            stride_width: 1,
            pad_top: 0,
            pad_left: 0,
            output_min: -128,
            output_max: 127,
        },
    };
    assert!(InPlaceLayer::new(pool, 1)
        .unwrap_err()
        .to_string()
        .contains("a depthwise or 1×1 convolution"));
    let dims = DepthwiseConvDims {
        input_depth: 4,
        ..dims
    };
    let filter = [1i8; 36];
    let four = Stage::Depthwise {
        filter: &filter,
        bias: None,
        prepared: None,
        dims,
        params,
    };
    assert!(InPlaceLayer::new(four, 0)
        .unwrap_err()
        .to_string()
        .contains("a band has rows"));
    let layer = InPlaceLayer::new(four, 2).unwrap();
    let mut io = [7i8; 36];
    assert!(layer.run(&mut io, &mut [0; 8]).is_err());
    assert!(layer
        .run(&mut io[..35], &mut vec![0; layer.scratch_len()])
        .is_err());
    assert_eq!(io, [7; 36]);
}
