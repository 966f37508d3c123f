//! The layers against `shapecheck_tflite`'s slice kernels on non-trivial
//! cases, and the arena's views against plain slices.

use super::*;
use crate::dim::{Dim, One};
use crate::tensor::Tensor;

#[test]
fn arena_views_are_the_elements_at_their_offsets() {
    let mut arena = Arena::<i32, 12>::filled(-1);
    arena
        .write::<(Dim<2>, Dim<3>), 2>()
        .as_mut_slice()
        .copy_from_slice(&[1, 2, 3, 4, 5, 6]);
    assert_eq!(
        arena.read::<(Dim<12>,), 0>().as_slice(),
        &[-1, -1, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1]
    );
    // a write after the read, then before it
    let (x, mut y) = arena.read_write::<(Dim<6>,), 2, (Dim<4>,), 8>();
    y.as_mut_slice().copy_from_slice(x.as_slice().split_at(4).0);
    assert_eq!(x.as_slice(), &[1, 2, 3, 4, 5, 6]);
    let (x, mut y) = arena.read_write::<(Dim<4>,), 8, (One, Dim<2>), 0>();
    y.as_mut_slice().copy_from_slice(x.as_slice().split_at(2).1);
    assert_eq!(
        arena.read::<(Dim<12>,), 0>().as_slice(),
        &[3, 4, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4]
    );
    // reads on both sides of the write, overlapping each other
    let (a, b, mut y) = arena.read2_write::<(Dim<3>,), 1, (Dim<4>,), 0, (Dim<2>,), 4>();
    assert_eq!(a.as_slice(), &[4, 1, 2]);
    assert_eq!(b.as_slice(), &[3, 4, 1, 2]);
    y.as_mut_slice().copy_from_slice(&[0, 0]);
    let (a, b, y) = arena.read2_write::<(Dim<2>,), 10, (Dim<6>,), 0, (Dim<4>,), 6>();
    assert_eq!(a.as_slice(), &[3, 4]);
    assert_eq!(b.as_slice(), &[3, 4, 1, 2, 0, 0]);
    assert_eq!(y.as_slice(), &[5, 6, 1, 2]);
    // empty views: a write of nothing cuts no read in two
    let (x, y) = arena.read_write::<(Dim<12>,), 0, (Dim<0>,), 5>();
    assert_eq!(x.as_slice().len(), 12);
    assert!(y.as_slice().is_empty());
    let (x, y) = arena.read_write::<(Dim<0>,), 5, (Dim<4>,), 4>();
    assert!(x.as_slice().is_empty());
    assert_eq!(y.as_slice(), &[0, 0, 5, 6]);
}

#[test]
fn arena_is_its_buffer() {
    assert_eq!(Arena::<i8, 100>::BYTES, 100);
    assert_eq!(Arena::<i32, 3>::BYTES, 12);
    let _: Tensor<i8, (Dim<100>,), &[i8]> = Arena::<i8, 100>::new().read::<(Dim<100>,), 0>();
}

use crate::shape::FixedShape;
use shapecheck_tflite as k;

/// `N` pseudo-random int8s (a fixed LCG: the same every run).
fn data<const N: usize>(seed: u32) -> [i8; N] {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    core::array::from_fn(|_| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (x >> 24) as u8 as i8
    })
}

/// A tensor of shape `S` holding `data(seed)`.
fn tensor<S: FixedShape, const N: usize>(seed: u32) -> Tensor<i8, S> {
    Tensor::from_slice(&data::<N>(seed)).unwrap()
}

fn multipliers<const N: usize>() -> [QuantizedMultiplier; N] {
    core::array::from_fn(|i| k::quantize_multiplier(0.003 + 0.0011 * i as f64).unwrap())
}

fn axis(same: bool, input: usize, filter: usize, stride: usize, dilation: usize) -> k::ConvAxis {
    let padding = if same {
        k::Padding::Same
    } else {
        k::Padding::Valid
    };
    k::conv_axis(padding, input, filter, stride, dilation).unwrap()
}

#[test]
fn conv_2d_is_the_kernel_with_dilation_and_per_channel_multipliers() {
    type X = (Dim<2>, Dim<5>, Dim<6>, Dim<3>);
    let x = tensor::<X, 180>(1);
    let filter: [[[[i8; 3]; 2]; 3]; 4] = nested::<4, 3, 2, 3>(&data::<72>(2));
    let bias = [100, -2000, 37, 0];
    let ms = multipliers::<4>();
    let layer: Conv2dInt8<'_, Dim<4>, Dim<3>, Dim<2>, Dim<3>, Same<2, 1, 1, 2>> = Conv2dInt8 {
        filter: &filter,
        bias: Some(&bias),
        padding: Same,
        input_zero_point: -3,
        output_zero_point: 5,
        multipliers: Multipliers::PerChannel(&ms),
        clamp: ClampInt8::new(-100, 120).unwrap(),
    };
    // rows: SAME, stride 2 → 3; columns: SAME, dilation 2 → 6
    let y: Tensor<i8, (Dim<2>, Dim<3>, Dim<6>, Dim<4>)> = conv_2d_int8(&x, &layer);
    let (rows, cols) = (axis(true, 5, 3, 2, 1), axis(true, 6, 2, 1, 2));
    let mut expected = [0i8; 2 * 3 * 6 * 4];
    k::conv_2d_int8(
        x.as_slice(),
        filter.as_flattened().as_flattened().as_flattened(),
        Some(&bias[..]),
        k::Conv2dDims {
            batches: 2,
            input_height: 5,
            input_width: 6,
            input_depth: 3,
            filter_height: 3,
            filter_width: 2,
            output_height: rows.output,
            output_width: cols.output,
            output_depth: 4,
        },
        &k::Conv2dParams {
            stride_height: 2,
            stride_width: 1,
            dilation_height: 1,
            dilation_width: 2,
            pad_top: rows.pad_before,
            pad_left: cols.pad_before,
            input_zero_point: -3,
            output_zero_point: 5,
            multipliers: &ms,
            output_min: -100,
            output_max: 120,
            rounding: Rounding::Double,
        },
        &mut expected,
    )
    .unwrap();
    assert_eq!(y.as_slice(), &expected);
    assert!(expected.iter().any(|&v| v != expected[0]));
}

/// A flat run as a `[[[[i8; D]; C]; B]; A]` array.
fn nested<const A: usize, const B: usize, const C: usize, const D: usize>(
    flat: &[i8],
) -> [[[[i8; D]; C]; B]; A] {
    let mut it = flat.iter().copied();
    core::array::from_fn(|_| {
        core::array::from_fn(|_| {
            core::array::from_fn(|_| core::array::from_fn(|_| it.next().unwrap()))
        })
    })
}

#[test]
fn depthwise_conv_honours_dilation_and_a_depth_multiplier() {
    type X = (One, Dim<6>, Dim<7>, Dim<2>);
    let x = tensor::<X, 84>(3);
    let flat = data::<36>(4);
    let mut filter = [[[0i8; 4]; 3]; 3];
    for (f, v) in filter
        .as_flattened_mut()
        .as_flattened_mut()
        .iter_mut()
        .zip(flat)
    {
        *f = v;
    }
    let ms = multipliers::<4>();
    let layer: DepthwiseConvInt8<'_, Dim<3>, Dim<3>, Dim<4>, Valid<1, 2, 2, 2>, Dim<2>> =
        DepthwiseConvInt8 {
            filter: &filter,
            depth_multiplier: Dim,
            bias: Some(&[1, 2, -300, 4000]),
            padding: Valid,
            input_zero_point: 7,
            output_zero_point: -1,
            multipliers: Multipliers::PerChannel(&ms),
            clamp: ClampInt8::FULL,
        };
    // rows: (6 − 5) / 1 + 1 = 2; columns: (7 − 5) / 2 + 1 = 2
    let y: Tensor<i8, (One, Dim<2>, Dim<2>, Dim<4>)> = depthwise_conv_int8(&x, &layer);
    let mut expected = [0i8; 16];
    k::depthwise_conv_int8(
        x.as_slice(),
        &flat[..],
        Some(&[1, 2, -300, 4000][..]),
        k::DepthwiseConvDims {
            batches: 1,
            input_height: 6,
            input_width: 7,
            input_depth: 2,
            filter_height: 3,
            filter_width: 3,
            depth_multiplier: 2,
            output_height: 2,
            output_width: 2,
        },
        &k::DepthwiseConvParams {
            stride_height: 1,
            stride_width: 2,
            dilation_height: 2,
            dilation_width: 2,
            pad_top: 0,
            pad_left: 0,
            input_zero_point: 7,
            output_zero_point: -1,
            multipliers: &ms,
            output_min: -128,
            output_max: 127,
            rounding: Rounding::Double,
        },
        &mut expected,
    )
    .unwrap();
    assert_eq!(y.as_slice(), &expected);
}

#[test]
fn pools_are_the_kernels() {
    type X = (One, Dim<5>, Dim<7>, Dim<3>);
    let x = tensor::<X, 105>(5);
    let pool = Pool2d::<Dim<3>, Dim<2>, Same<2, 2>>::new(Same, ClampInt8::new(-50, 90).unwrap());
    let (rows, cols) = (axis(true, 5, 3, 2, 1), axis(true, 7, 2, 2, 1));
    let dims = k::PoolDims {
        batches: 1,
        input_height: 5,
        input_width: 7,
        depth: 3,
        filter_height: 3,
        filter_width: 2,
        output_height: rows.output,
        output_width: cols.output,
    };
    let params = k::PoolParams {
        stride_height: 2,
        stride_width: 2,
        pad_top: rows.pad_before,
        pad_left: cols.pad_before,
        output_min: -50,
        output_max: 90,
    };
    type Y = (One, Dim<3>, Dim<4>, Dim<3>);
    let avg: Tensor<i8, Y> = average_pool_int8(&x, &pool);
    let mut expected = [0i8; 36];
    k::average_pool_int8(x.as_slice(), dims, &params, &mut expected).unwrap();
    assert_eq!(avg.as_slice(), &expected);
    let mut max = Tensor::<i8, Y>::zeros();
    max_pool_int8_into(&x, &pool, &mut max);
    k::max_pool_int8(x.as_slice(), dims, &params, &mut expected).unwrap();
    assert_eq!(max.as_slice(), &expected);
    assert_ne!(avg.as_slice(), max.as_slice());
}

#[test]
fn mean_is_the_kernel_either_way_kept() {
    type X = (Dim<2>, Dim<3>, Dim<4>, Dim<5>);
    let x = tensor::<X, 120>(6);
    let params = k::mean_params(0.05, 3, 0.02, -4, 12).unwrap();
    let mean = MeanInt8::<Dim<3>, Dim<4>>::new(params).unwrap();
    let y: Tensor<i8, (Dim<2>, Dim<5>)> = mean_int8(&x, &mean);
    let mut kept = Tensor::<i8, (Dim<2>, One, One, Dim<5>)>::zeros();
    mean_int8_into(&x, &mean, &mut kept);
    let mut expected = [0i8; 10];
    k::mean_int8(x.as_slice(), 2, 3, 4, 5, &params, &mut expected).unwrap();
    assert_eq!(y.as_slice(), &expected);
    assert_eq!(kept.as_slice(), &expected);
    // a count other than h · w is refused when the layer is built, with
    // the kernel's error
    let wrong = k::mean_params(0.05, 3, 0.02, -4, 11).unwrap();
    let mut untouched = [9i8; 10];
    let kernel = k::mean_int8(x.as_slice(), 2, 3, 4, 5, &wrong, &mut untouched);
    assert_eq!(
        MeanInt8::<Dim<3>, Dim<4>>::new(wrong),
        Err(kernel.unwrap_err())
    );
}

#[test]
fn a_layer_refuses_the_parameters_its_kernel_refuses() {
    // an empty clamp: the convolution's kernel refuses it with this error
    let mut out = [0i8; 1];
    let kernel = k::conv_2d_int8(
        &[0],
        &[1][..],
        None::<&[i32]>,
        k::Conv2dDims {
            batches: 1,
            input_height: 1,
            input_width: 1,
            input_depth: 1,
            filter_height: 1,
            filter_width: 1,
            output_height: 1,
            output_width: 1,
            output_depth: 1,
        },
        &k::Conv2dParams {
            stride_height: 1,
            stride_width: 1,
            dilation_height: 1,
            dilation_width: 1,
            pad_top: 0,
            pad_left: 0,
            input_zero_point: 0,
            output_zero_point: 0,
            multipliers: &[QuantizedMultiplier::ZERO],
            output_min: 3,
            output_max: 2,
            rounding: Rounding::Double,
        },
        &mut out,
    );
    assert_eq!(ClampInt8::new(3, 2), Err(kernel.unwrap_err()));
    assert_eq!(ClampInt8::new(2, 2).map(|c| (c.min(), c.max())), Ok((2, 2)));
    // ADD's and LOGISTIC's parameters: the kernels' own checks
    let add = k::add_params(0.1, 2, 0.07, -5, 0.15, 1, -128, 100).unwrap();
    for bad in [
        AddParams {
            input1_zero_point: 128,
            ..add
        },
        AddParams {
            output_min: 101,
            ..add
        },
        AddParams {
            output_multiplier: QuantizedMultiplier::from_parts(1 << 30, 1),
            ..add
        },
    ] {
        let kernel = k::add_int8(&[0], &[1], &[0], &[1], &bad, &mut out);
        assert_eq!(AddInt8::new(bad), Err(kernel.unwrap_err()));
    }
    assert!(AddInt8::new(add).is_ok());
    let logistic = k::logistic_params(0.08, -3, 1.0 / 256.0, -128).unwrap();
    for bad in [
        LogisticParams {
            input_zero_point: -129,
            ..logistic
        },
        LogisticParams {
            input_range_radius: -1,
            ..logistic
        },
    ] {
        let kernel = k::logistic_int8(&[0], &bad, &mut out);
        assert_eq!(LogisticInt8::new(bad), Err(kernel.unwrap_err()));
    }
    assert!(LogisticInt8::new(logistic).is_ok());
}

#[test]
fn add_broadcasts_as_the_kernel() {
    let a = tensor::<(Dim<2>, Dim<3>, Dim<4>), 24>(7);
    let b = tensor::<(Dim<3>, One), 3>(8);
    let params = k::add_params(0.1, 2, 0.07, -5, 0.15, 1, -128, 100).unwrap();
    let add = AddInt8::new(params).unwrap();
    let y: Tensor<i8, (Dim<2>, Dim<3>, Dim<4>)> = add_int8(&a, &b, &add);
    let mut expected = [0i8; 24];
    k::add_int8(
        a.as_slice(),
        &[2, 3, 4],
        b.as_slice(),
        &[3, 1],
        &params,
        &mut expected,
    )
    .unwrap();
    assert_eq!(y.as_slice(), &expected);
    // the other way round: the same shape out
    let mut z = Tensor::<i8, (Dim<2>, Dim<3>, Dim<4>)>::zeros();
    add_int8_into(&b, &a, &add, &mut z);
    k::add_int8(
        b.as_slice(),
        &[3, 1],
        a.as_slice(),
        &[2, 3, 4],
        &params,
        &mut expected,
    )
    .unwrap();
    assert_eq!(z.as_slice(), &expected);
}

#[test]
fn pad_is_the_kernel() {
    let x = tensor::<(One, Dim<2>, Dim<3>, Dim<2>), 12>(9);
    let y: Tensor<i8, (Dim<2>, Dim<3>, Dim<6>, Dim<3>)> =
        pad_int8(&x, Paddings::<0, 1, 1, 0, 2, 1, 0, 1>, -7);
    let mut expected = [0i8; 108];
    k::pad(
        x.as_slice(),
        &[1, 2, 3, 2],
        &[(0, 1), (1, 0), (2, 1), (0, 1)],
        -7,
        &mut expected,
    )
    .unwrap();
    assert_eq!(y.as_slice(), &expected);
}

#[test]
fn logistic_and_quantization_are_the_kernels() {
    let x = tensor::<(Dim<4>, Dim<8>), 32>(10);
    let params = k::logistic_params(0.08, -3, 1.0 / 256.0, -128).unwrap();
    let y = logistic_int8(&x, &LogisticInt8::new(params).unwrap());
    let mut expected = [0i8; 32];
    k::logistic_int8(x.as_slice(), &params, &mut expected).unwrap();
    assert_eq!(y.as_slice(), &expected);

    let f = dequantize_int8(&x, 0.125, 3);
    let mut floats = [0f32; 32];
    k::dequantize_int8(x.as_slice(), 0.125, 3, &mut floats).unwrap();
    assert_eq!(f.as_slice(), &floats);
    let mut q = Tensor::<i8, (Dim<4>, Dim<8>)>::zeros();
    quantize_int8_into(&f, 0.125, 3, &mut q);
    let mut quantized = [0i8; 32];
    k::quantize_int8(f.as_slice(), 0.125, 3, &mut quantized).unwrap();
    assert_eq!(q.as_slice(), &quantized);
    assert_eq!(q.as_slice(), x.as_slice()); // back where it came from
}
