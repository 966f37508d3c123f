//! Streamed runs (`stream::StreamRun`) against their stages run whole one
//! after another (the whole-tensor kernels, each bit for bit TFLite
//! Micro's): random chains of convolutions, depthwise convolutions and
//! pools, random bands, rings of the rows `ring_rows` gives and more; and
//! runs ending in an `ADD` written over its skip (a tensor beside the run,
//! or the run's own input) against the whole-tensor `add_int8`.

use proptest::prelude::*;
use shapecheck_tflite::stream::{ring_rows, RowGeometry, Stage, StreamRun};
use shapecheck_tflite::{
    add_int8, add_params, average_pool_int8, conv_1x1_prepare, conv_2d_int8, conv_axis,
    conv_prepare, depthwise_conv_int8, depthwise_prepare, max_pool_int8, quantize_multiplier,
    AddOver, AddParams, Conv2dDims, Conv2dParams, ConvPairStage, DepthwiseConvDims,
    DepthwiseConvParams, DepthwiseGroup, Padding, PoolDims, PoolParams, QuantizedMultiplier,
    Rounding, TfliteError,
};

/// One stage as the test draws it: its kind (0 convolution, 1 depthwise,
/// 2 average pool, 3 max pool), filter rows and columns, stride down the
/// rows, SAME or VALID, output channels of a convolution.
#[derive(Clone, Debug)]
struct Draw {
    kind: u8,
    fh: usize,
    fw: usize,
    stride: usize,
    same: bool,
    channels: usize,
}

fn draw() -> impl Strategy<Value = Draw> {
    (
        0u8..4,
        1usize..4,
        1usize..3,
        1usize..3,
        any::<bool>(),
        1usize..4,
    )
        .prop_map(|(kind, fh, fw, stride, same, channels)| Draw {
            kind,
            fh,
            fw,
            stride,
            same,
            channels,
        })
}

/// A stage's operands, owned.
struct Owned {
    kind: u8,
    filter: Vec<i8>,
    bias: Vec<i32>,
    multipliers: Vec<QuantizedMultiplier>,
    /// input rows, columns, channels; output rows, columns, channels
    shape: [usize; 6],
    fh: usize,
    fw: usize,
    stride: usize,
    pads: (usize, usize),
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The stages drawn, from an input of `h × w × c`: `None` where a VALID
/// window does not fit.
fn build(draws: &[Draw], (h, w, c): (usize, usize, usize), seed: u64) -> Option<Vec<Owned>> {
    let mut next = xorshift(seed);
    let mut shape = (h, w, c);
    let mut all = Vec::new();
    for d in draws {
        let padding = if d.same {
            Padding::Same
        } else {
            Padding::Valid
        };
        let rows = conv_axis(padding, shape.0, d.fh, d.stride, 1).ok()?;
        let cols = conv_axis(padding, shape.1, d.fw, 1, 1).ok()?;
        let out_c = if d.kind == 0 { d.channels } else { shape.2 };
        let taps = if d.kind == 0 {
            d.fh * d.fw * shape.2
        } else {
            d.fh * d.fw
        };
        let filter_len = match d.kind {
            0 => out_c * taps,
            1 => d.fh * d.fw * out_c,
            _ => 0,
        };
        all.push(Owned {
            kind: d.kind,
            filter: (0..filter_len).map(|_| next() as i8).collect(),
            bias: (0..out_c).map(|_| (next() % 2000) as i32 - 1000).collect(),
            multipliers: (0..out_c)
                .map(|_| quantize_multiplier(0.002 + (next() % 100) as f64 * 1e-3).unwrap())
                .collect(),
            shape: [shape.0, shape.1, shape.2, rows.output, cols.output, out_c],
            fh: d.fh,
            fw: d.fw,
            stride: d.stride,
            pads: (rows.pad_before, cols.pad_before),
        });
        shape = (rows.output, cols.output, out_c);
    }
    Some(all)
}

fn stage(o: &Owned) -> Stage<'_> {
    let [h, w, c, oh, ow, oc] = o.shape;
    match o.kind {
        0 => Stage::Conv {
            filter: &o.filter,
            bias: Some(&o.bias),
            prepared: None,
            dims: Conv2dDims {
                batches: 1,
                input_height: h,
                input_width: w,
                input_depth: c,
                filter_height: o.fh,
                filter_width: o.fw,
                output_height: oh,
                output_width: ow,
                output_depth: oc,
            },
            params: Conv2dParams {
                stride_height: o.stride,
                stride_width: 1,
                dilation_height: 1,
                dilation_width: 1,
                pad_top: o.pads.0,
                pad_left: o.pads.1,
                input_zero_point: -3,
                output_zero_point: 5,
                multipliers: &o.multipliers,
                output_min: -128,
                output_max: 127,
                rounding: Rounding::Double,
            },
        },
        1 => Stage::Depthwise {
            filter: &o.filter,
            bias: Some(&o.bias),
            prepared: None,
            dims: DepthwiseConvDims {
                batches: 1,
                input_height: h,
                input_width: w,
                input_depth: c,
                filter_height: o.fh,
                filter_width: o.fw,
                depth_multiplier: 1,
                output_height: oh,
                output_width: ow,
            },
            params: DepthwiseConvParams {
                stride_height: o.stride,
                stride_width: 1,
                dilation_height: 1,
                dilation_width: 1,
                pad_top: o.pads.0,
                pad_left: o.pads.1,
                input_zero_point: 2,
                output_zero_point: -7,
                multipliers: &o.multipliers,
                output_min: -100,
                output_max: 120,
                rounding: Rounding::Double,
            },
        },
        kind => {
            let dims = PoolDims {
                batches: 1,
                input_height: h,
                input_width: w,
                depth: c,
                filter_height: o.fh,
                filter_width: o.fw,
                output_height: oh,
                output_width: ow,
            };
            let params = PoolParams {
                stride_height: o.stride,
                stride_width: 1,
                pad_top: o.pads.0,
                pad_left: o.pads.1,
                output_min: -128,
                output_max: 127,
            };
            if kind == 2 {
                Stage::AveragePool { dims, params }
            } else {
                Stage::MaxPool { dims, params }
            }
        }
    }
}

/// The geometries a run walks: each stage's own, but a last average pool
/// whose window spans the rows accumulates, walked a row at a time.
fn walked(stages: &[Stage<'_>]) -> Vec<RowGeometry> {
    let mut geometry: Vec<RowGeometry> = stages.iter().map(|s| s.geometry()).collect();
    if let (Some(Stage::AveragePool { .. }), Some(g)) = (stages.last(), geometry.last_mut()) {
        *g = g.accumulated().unwrap_or(*g);
    }
    geometry
}

/// The stages run whole, one after another, plainly.
fn whole(stages: &[Owned], input: &[i8]) -> Vec<i8> {
    let mut x = input.to_vec();
    for o in stages {
        let [_, _, _, oh, ow, oc] = o.shape;
        let mut y = vec![0i8; oh * ow * oc];
        match stage(o) {
            Stage::Conv {
                filter,
                bias,
                dims,
                params,
                ..
            } => conv_2d_int8(&x, filter, bias, dims, &params, &mut y).unwrap(),
            Stage::Depthwise {
                filter,
                bias,
                dims,
                params,
                ..
            } => depthwise_conv_int8(&x, filter, bias, dims, &params, &mut y).unwrap(),
            Stage::AveragePool { dims, params } => {
                average_pool_int8(&x, dims, &params, &mut y).unwrap()
            }
            Stage::MaxPool { dims, params } => max_pool_int8(&x, dims, &params, &mut y).unwrap(),
            _ => unreachable!(),
        }
        x = y;
    }
    x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_streamed_run_is_its_stages_run_whole(
        draws in prop::collection::vec(draw(), 1..5),
        h in 4usize..15,
        w in 1usize..5,
        c in 1usize..4,
        band in 1usize..5,
        extra in prop::collection::vec(0usize..3, 4),
        seed in any::<u64>(),
    ) {
        let Some(owned) = build(&draws, (h, w, c), seed) else {
            return Ok(());
        };
        let stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
        let mut rings = vec![0; stages.len() - 1];
        prop_assert!(ring_rows(&walked(&stages), band, &mut rings));
        // rings of the rows the walk needs, or a few more
        for (r, e) in rings.iter_mut().zip(&extra) {
            *r += e;
        }
        let run = StreamRun::new(&stages, &rings, band).unwrap();
        let mut next = xorshift(seed ^ 0x9e37_79b9);
        let input: Vec<i8> = (0..run.input_len()).map(|_| next() as i8).collect();
        let expected = whole(&owned, &input);
        let mut scratch = vec![0i8; run.scratch_len()];
        let mut out = vec![0i8; run.output_len()];
        run.run(&input, &mut scratch, &mut out).unwrap();
        prop_assert_eq!(out, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A run ending in an average pool whose window spans every row (a
    /// global pool, SAME windows of up to two rows more than the image
    /// included): it accumulates its sums a band at a time, and its ring
    /// holds a band, not the image.
    #[test]
    fn a_run_ending_in_a_global_average_pool_is_its_stages_run_whole(
        draws in prop::collection::vec(draw(), 0..4),
        h in 1usize..15,
        w in 1usize..5,
        c in 1usize..4,
        more in 0usize..3,
        fw in 1usize..4,
        same in any::<bool>(),
        band in 1usize..5,
        seed in any::<u64>(),
    ) {
        let Some(before) = build(&draws, (h, w, c), seed) else {
            return Ok(());
        };
        let rows = before.last().map_or(h, |o| o.shape[3]);
        // VALID spans with a window of the rows; SAME with a stride past them
        let fh = if same { rows + more } else { rows };
        let global = Draw { kind: 2, fh, fw, stride: fh, same, channels: 1 };
        let mut all = draws.clone();
        all.push(global);
        let Some(owned) = build(&all, (h, w, c), seed) else {
            return Ok(());
        };
        prop_assert_eq!(owned.last().map(|o| o.shape[3]), Some(1));
        let stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
        let geometry = walked(&stages);
        prop_assert_eq!(geometry.last().map(|g| g.output_rows), Some(rows));
        let mut rings = vec![0; stages.len() - 1];
        prop_assert!(ring_rows(&geometry, band, &mut rings));
        let run = StreamRun::new(&stages, &rings, band).unwrap();
        // the sums, 4 bytes per output value, after the rings
        prop_assert!(run.scratch_len() >= 4 * run.output_len());
        let mut next = xorshift(seed ^ 0x51_7cc1);
        let input: Vec<i8> = (0..run.input_len()).map(|_| next() as i8).collect();
        let expected = whole(&owned, &input);
        // the scratch starts dirty: the sums are zeroed by the run
        let mut scratch: Vec<i8> = (0..run.scratch_len()).map(|_| next() as i8).collect();
        let mut out = vec![0i8; run.output_len()];
        run.run(&input, &mut scratch, &mut out).unwrap();
        prop_assert_eq!(&out, &expected);
        // and a second run over the same scratch gives the same
        run.run(&input, &mut scratch, &mut out).unwrap();
        prop_assert_eq!(out, expected);
    }
}

#[test]
fn a_global_average_pool_rounds_half_away_from_zero_over_every_row() {
    // 4 rows of 1 pixel: sums 5 and -5 over 4 taps, 1.25 → 1 and -1.25 → -1;
    // sums 6 and -6, 1.5 → 2 and -1.5 → -2; a band of 1 row, no ring
    let dims = PoolDims {
        batches: 1,
        input_height: 4,
        input_width: 1,
        depth: 4,
        filter_height: 4,
        filter_width: 1,
        output_height: 1,
        output_width: 1,
    };
    let params = PoolParams {
        stride_height: 4,
        stride_width: 1,
        pad_top: 0,
        pad_left: 0,
        output_min: -128,
        output_max: 127,
    };
    let stages = [Stage::AveragePool { dims, params }];
    let run = StreamRun::new(&stages, &[], 1).unwrap();
    assert_eq!(run.scratch_len(), 16);
    let input = [
        5, -5, 6, -6, //
        0, 0, 0, 0, //
        0, 0, 0, 0, //
        0, 0, 0, 0,
    ];
    let mut scratch = [0i8; 16];
    let mut out = [0i8; 4];
    run.run(&input, &mut scratch, &mut out).unwrap();
    assert_eq!(out, [1, -1, 2, -2]);
}

#[test]
fn a_ring_a_row_short_is_refused() {
    // a 3-row SAME depthwise after a 1×1 pool: the ring needs 3 rows
    let draws = [
        Draw {
            kind: 3,
            fh: 1,
            fw: 1,
            stride: 1,
            same: true,
            channels: 1,
        },
        Draw {
            kind: 1,
            fh: 3,
            fw: 1,
            stride: 1,
            same: true,
            channels: 1,
        },
    ];
    let owned = build(&draws, (8, 2, 2), 7).unwrap();
    let stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
    let geometry: Vec<RowGeometry> = stages.iter().map(|s| s.geometry()).collect();
    let mut rings = [0];
    assert!(ring_rows(&geometry, 1, &mut rings));
    assert_eq!(rings, [3]);
    assert!(StreamRun::new(&stages, &[2], 1).is_err());
    assert!(StreamRun::new(&stages, &[3], 1).is_ok());
}

/// An `ADD`'s parameters from drawn scales, zero points and clamp (`None`
/// where TFLite would refuse them).
fn add_of(draw: (u8, u8, u8, i8, i8, i8, bool)) -> Option<AddParams> {
    let (s1, s2, so, z1, z2, zo, relu) = draw;
    let scale = |v: u8| 0.004 + f32::from(v) * 1e-3;
    let lo = if relu { i32::from(zo) } else { -128 };
    add_params(
        scale(s1),
        i32::from(z1),
        scale(s2),
        i32::from(z2),
        scale(so),
        i32::from(zo),
        lo,
        127,
    )
    .ok()
}

/// The plain whole-tensor `ADD` of the chain's output and the skip, each
/// the input `over` says.
fn add_whole(chain: &[i8], skip: &[i8], over: AddOver, params: &AddParams) -> Vec<i8> {
    let n = [chain.len()];
    let (x1, x2) = match over {
        AddOver::Input1 => (skip, chain),
        _ => (chain, skip),
    };
    let mut y = vec![0i8; chain.len()];
    add_int8(x1, &n, x2, &n, params, &mut y).unwrap();
    y
}

fn add_geometries(stages: &[Stage<'_>]) -> Vec<RowGeometry> {
    stages.iter().map(|s| s.geometry()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A run ending in an `ADD` of its last layer's rows and a skip
    /// tensor held in the output, written over it a band at a time.
    #[test]
    fn a_run_ending_in_an_add_over_its_skip_is_the_whole_add(
        draws in prop::collection::vec(draw(), 1..4),
        h in 4usize..15,
        w in 1usize..5,
        c in 1usize..4,
        band in 1usize..5,
        add in (any::<u8>(), any::<u8>(), any::<u8>(), any::<i8>(), any::<i8>(), any::<i8>(), any::<bool>()),
        input1 in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let (Some(owned), Some(params)) = (build(&draws, (h, w, c), seed), add_of(add)) else {
            return Ok(());
        };
        let [_, _, _, oh, ow, oc] = owned.last().unwrap().shape;
        let over = if input1 { AddOver::Input1 } else { AddOver::Input2 };
        let mut stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
        stages.push(Stage::Add { params, over, rows: oh, row_len: ow * oc });
        let mut rings = vec![0; stages.len() - 1];
        prop_assert!(ring_rows(&add_geometries(&stages), band, &mut rings));
        let run = StreamRun::new(&stages, &rings, band).unwrap();
        let mut next = xorshift(seed ^ 0xadd);
        let input: Vec<i8> = (0..run.input_len()).map(|_| next() as i8).collect();
        let skip: Vec<i8> = (0..run.output_len()).map(|_| next() as i8).collect();
        let expected = add_whole(&whole(&owned, &input), &skip, over, &params);
        let mut scratch = vec![0i8; run.scratch_len()];
        let mut out = skip.clone();
        run.run(&input, &mut scratch, &mut out).unwrap();
        prop_assert_eq!(out, expected);
    }

    /// A run of stride-1 SAME layers of one shape ending in an `ADD`
    /// whose skip is the run's input, written over it: bit for bit the
    /// whole `ADD` where `check_over_input` accepts the walk, refused
    /// with the input untouched where a band would overwrite rows the
    /// first layer still reads.
    #[test]
    fn a_run_ending_in_an_add_over_its_input_is_the_whole_add(
        kinds in prop::collection::vec((0u8..4, 1usize..4, 1usize..3), 1..4),
        h in 2usize..15,
        w in 1usize..5,
        c in 1usize..4,
        band in 1usize..5,
        add in (any::<u8>(), any::<u8>(), any::<u8>(), any::<i8>(), any::<i8>(), any::<i8>(), any::<bool>()),
        input1 in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let draws: Vec<Draw> = kinds
            .iter()
            .map(|&(kind, fh, fw)| Draw { kind, fh, fw, stride: 1, same: true, channels: c })
            .collect();
        let (Some(owned), Some(params)) = (build(&draws, (h, w, c), seed), add_of(add)) else {
            return Ok(());
        };
        prop_assert_eq!(&owned.last().unwrap().shape[3..], &[h, w, c][..]);
        let over = if input1 { AddOver::Input1 } else { AddOver::Input2 };
        let mut stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
        stages.push(Stage::Add { params, over, rows: h, row_len: w * c });
        let mut rings = vec![0; stages.len() - 1];
        prop_assert!(ring_rows(&add_geometries(&stages), band, &mut rings));
        let run = StreamRun::new(&stages, &rings, band).unwrap();
        let mut next = xorshift(seed ^ 0x07e7);
        let input: Vec<i8> = (0..run.input_len()).map(|_| next() as i8).collect();
        let mut scratch = vec![0i8; run.scratch_len()];
        let mut io = input.clone();
        if run.check_over_input().is_ok() {
            let expected = add_whole(&whole(&owned, &input), &input, over, &params);
            run.run_over_input(&mut io, &mut scratch).unwrap();
            prop_assert_eq!(io, expected);
        } else {
            prop_assert!(run.run_over_input(&mut io, &mut scratch).is_err());
            prop_assert_eq!(io, input);
        }
    }
}

/// A residual block's two 3×3 SAME convolutions and its `ADD` over the
/// block's input, as ResNet-8's first block streams: accepted at every
/// band, bit for bit; one convolution and the `ADD` are refused (output
/// row r is due before the convolution's last read of input row r).
#[test]
fn a_residual_block_streams_over_its_input() {
    let conv = Draw {
        kind: 0,
        fh: 3,
        fw: 3,
        stride: 1,
        same: true,
        channels: 3,
    };
    let params = add_of((40, 60, 80, -3, 5, 2, true)).unwrap();
    for (convs, accepted) in [(2, true), (1, false)] {
        let owned = build(&vec![conv.clone(); convs], (9, 4, 3), 11).unwrap();
        let mut stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
        stages.push(Stage::Add {
            params,
            over: AddOver::Input1,
            rows: 9,
            row_len: 12,
        });
        for band in 1..5 {
            let mut rings = vec![0; stages.len() - 1];
            assert!(ring_rows(&add_geometries(&stages), band, &mut rings));
            let run = StreamRun::new(&stages, &rings, band).unwrap();
            assert_eq!(run.check_over_input().is_ok(), accepted, "{convs} {band}");
            if accepted {
                let mut next = xorshift(band as u64);
                let input: Vec<i8> = (0..run.input_len()).map(|_| next() as i8).collect();
                let expected = add_whole(&whole(&owned, &input), &input, AddOver::Input1, &params);
                let mut io = input.clone();
                let mut scratch = vec![0i8; run.scratch_len()];
                run.run_over_input(&mut io, &mut scratch).unwrap();
                assert_eq!(io, expected, "band {band}");
            }
        }
    }
}

#[test]
fn an_add_stage_is_a_runs_last_of_two_or_more() {
    let params = add_of((1, 2, 3, 0, 0, 0, false)).unwrap();
    let add = Stage::Add {
        params,
        over: AddOver::Input2,
        rows: 4,
        row_len: 2,
    };
    assert!(StreamRun::new(&[add], &[], 1).is_err());
    assert!(StreamRun::new(&[add, add], &[1], 1).is_err());
}

#[test]
fn a_depthwise_stages_prepared_groups_are_checked_against_its_operands() {
    // a 3×3 SAME depthwise over 8 channels after a 1×1 pool: two groups of
    // four channels, set up once by `depthwise_prepare`
    let draws = [
        Draw {
            kind: 3,
            fh: 1,
            fw: 1,
            stride: 1,
            same: true,
            channels: 8,
        },
        Draw {
            kind: 1,
            fh: 3,
            fw: 3,
            stride: 1,
            same: true,
            channels: 8,
        },
    ];
    let owned = build(&draws, (6, 3, 8), 11).unwrap();
    let stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
    let Stage::Depthwise {
        filter,
        bias,
        dims,
        params,
        ..
    } = stages[1]
    else {
        panic!("stage 1 is the depthwise convolution");
    };
    let empty = DepthwiseGroup {
        bias: [0; 4],
        table: [0; 18],
        constants: [[[0; 4]; 3]; 3],
        requant: None,
    };
    let mut groups = [empty; 2];
    depthwise_prepare(filter, bias, dims, &params, &mut groups).unwrap();
    let with = |prepared: &[DepthwiseGroup]| {
        let mut stages = stages.clone();
        stages[1] = Stage::Depthwise {
            filter,
            bias,
            prepared: Some(prepared),
            dims,
            params,
        };
        StreamRun::new(&stages, &[3], 1).is_ok()
    };
    assert!(with(&groups));
    // one group: not one per four channels
    assert!(!with(&groups[..1]));
    // a constant off by one: not the operands' set-up
    let mut wrong = groups;
    wrong[1].constants[0][0][2] += 1;
    assert!(!with(&wrong));
    // and the whole layer run streamed with them is the layer run whole
    let input: Vec<i8> = (0..6 * 3 * 8).map(|v| (v * 37 % 251) as i8).collect();
    let mut stages_prepared = stages.clone();
    stages_prepared[1] = Stage::Depthwise {
        filter,
        bias,
        prepared: Some(&groups),
        dims,
        params,
    };
    let (mut plain, mut prepared) = (vec![0i8; 6 * 3 * 8], vec![0i8; 6 * 3 * 8]);
    let run = StreamRun::new(&stages, &[3], 1).unwrap();
    let mut scratch = vec![0i8; run.scratch_len()];
    run.run(&input, &mut scratch, &mut plain).unwrap();
    let run = StreamRun::new(&stages_prepared, &[3], 1).unwrap();
    run.run(&input, &mut scratch, &mut prepared).unwrap();
    assert_eq!(plain, prepared);
}

#[test]
fn a_1x1_convolution_stages_prepared_pairs_are_checked_against_its_operands() {
    prepared_pairs_are_checked_against_the_operands(1, 1);
}

#[test]
fn a_3x3_convolution_stages_prepared_pairs_are_checked_against_its_operands() {
    prepared_pairs_are_checked_against_the_operands(3, 3);
}

/// An `fh × fw` convolution to 6 channels (SAME) after a 1×1 pool over 8:
/// three channel pairs, set up once by `conv_prepare` (for a 1×1 filter
/// also `conv_1x1_prepare`'s), checked by `StreamRun::new` and streamed
/// bit for bit as without them.
fn prepared_pairs_are_checked_against_the_operands(fh: usize, fw: usize) {
    let draws = [
        Draw {
            kind: 3,
            fh: 1,
            fw: 1,
            stride: 1,
            same: true,
            channels: 8,
        },
        Draw {
            kind: 0,
            fh,
            fw,
            stride: 1,
            same: true,
            channels: 6,
        },
    ];
    let owned = build(&draws, (6, 3, 8), 5).unwrap();
    let stages: Vec<Stage<'_>> = owned.iter().map(stage).collect();
    let Stage::Conv {
        filter,
        bias,
        dims,
        params,
        ..
    } = stages[1]
    else {
        panic!("stage 1 is the convolution");
    };
    assert_eq!(
        (dims.filter_height, dims.filter_width, dims.output_depth),
        (fh, fw, 6)
    );
    // the ring between the stages: the filter's rows
    let ring = [fh];
    let empty = ConvPairStage {
        constant: [0; 4],
        requant: [0; 11],
    };
    let mut pairs = [empty; 3];
    conv_prepare(filter, bias, dims, &params, &mut pairs).unwrap();
    let mut pairs_1x1 = [empty; 3];
    let made_1x1 = conv_1x1_prepare(filter, bias, dims, &params, &mut pairs_1x1);
    if (fh, fw) == (1, 1) {
        assert_eq!((made_1x1, pairs_1x1), (Ok(()), pairs));
    } else {
        assert!(matches!(made_1x1, Err(TfliteError::KernelParam { .. })));
    }
    let with = |prepared: &[ConvPairStage]| {
        let mut stages = stages.clone();
        stages[1] = Stage::Conv {
            filter,
            bias,
            prepared: Some(prepared),
            dims,
            params,
        };
        StreamRun::new(&stages, &ring, 1).err()
    };
    assert_eq!(with(&pairs), None);
    let mismatch = |e: Option<TfliteError>| matches!(e, Some(TfliteError::KernelParam { what, .. }) if what.contains("prepared channel pairs"));
    // two pairs: not one per two channels
    assert!(mismatch(with(&pairs[..2])));
    // a constant off by one: not the operands' set-up
    let mut wrong = pairs;
    wrong[2].constant[1] += 1;
    assert!(mismatch(with(&wrong)));
    // a shift off by one
    let mut wrong = pairs;
    wrong[0].requant[3] += 1;
    assert!(mismatch(with(&wrong)));
    // and the run streamed with them is the run without them
    let input: Vec<i8> = (0..6 * 3 * 8).map(|v| (v * 37 % 251) as i8).collect();
    let mut stages_prepared = stages.clone();
    stages_prepared[1] = Stage::Conv {
        filter,
        bias,
        prepared: Some(&pairs),
        dims,
        params,
    };
    let (mut plain, mut prepared) = (vec![0i8; 6 * 3 * 6], vec![0i8; 6 * 3 * 6]);
    let run = StreamRun::new(&stages, &ring, 1).unwrap();
    let mut scratch = vec![0i8; run.scratch_len()];
    run.run(&input, &mut scratch, &mut plain).unwrap();
    let run = StreamRun::new(&stages_prepared, &ring, 1).unwrap();
    run.run(&input, &mut scratch, &mut prepared).unwrap();
    assert_eq!(plain, prepared);
    assert_eq!(plain, whole(&owned, &input));
}
