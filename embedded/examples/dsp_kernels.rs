//! The int8 kernels' instructions per multiply-accumulate (issue 64): one
//! call each of a person-detection-sized 1×1 convolution, a 3×3
//! depthwise convolution and a fully connected layer, each in an exported
//! function that `count_instructions.py --symbol NAME` runs alone:
//!
//! - `conv1x1_once`: 1×8×8×64 → 128 channels (524,288 MACs; person
//!   detection's 1×1 layers have 8 to 256 input channels, so each output
//!   costs its requantization once per 64 MACs here, as in its 64-channel
//!   layers);
//! - `dw3x3_once`: 1×16×16×64, 3×3, stride 1, SAME (147,456 MACs counted
//!   as 9 per output, the border's missing taps included);
//! - `dw3x3_small_once`: 1×6×6×128, 3×3, stride 1, SAME (41,472 MACs
//!   counted as 9 per output): person detection's five 6×6 depthwise
//!   layers, where a channel group has 36 pixels (20 of them borders), so
//!   the group's set-up weighs;
//! - `fc_once`: 1×256 → 128 (32,768 MACs);
//! - `conv3x3_once`: person detection's first layer, 96×96×1 → 48×48×8,
//!   3×3, stride 2 (165,888 MACs);
//! - `conv3x3_deep_once`: a ResNet-8-sized 3×3 convolution, 16×16×32 →
//!   32 channels, stride 1, SAME (2,359,296 MACs counted as 9 per output).
//!
//! Per-channel multipliers, biases, an input zero point of −128 (person
//! detection's), ReLU6-like clamps; the data is a fixed pseudo-random
//! sequence. Under QEMU `main` runs each once and prints a checksum of the
//! outputs (the kernels' correctness is tests/dsp_kernels.rs's).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use shapecheck_embedded as _;
use shapecheck_tflite::{
    conv_2d_int8, depthwise_conv_int8, fully_connected_int8, Conv2dDims, Conv2dParams,
    DepthwiseConvDims, DepthwiseConvParams, FullyConnectedDims, FullyConnectedParams,
    QuantizedMultiplier, Rounding,
};

/// `N` pseudo-random int8 values (xorshift32 from `seed`).
const fn bytes<const N: usize>(seed: u32) -> [i8; N] {
    let mut out = [0i8; N];
    let mut s = seed;
    let mut i = 0;
    while i < N {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        out[i] = (s >> 24) as i8;
        i += 1;
    }
    out
}

/// `N` biases in [−2048, 2047].
const fn biases<const N: usize>(seed: u32) -> [i32; N] {
    let b = bytes::<N>(seed);
    let mut out = [0i32; N];
    let mut i = 0;
    while i < N {
        out[i] = b[i] as i32 * 16;
        i += 1;
    }
    out
}

/// `N` per-channel multipliers: mantissas in [2^30, 2^31), shifts −8 … −10.
const fn multipliers<const N: usize>(seed: u32) -> [QuantizedMultiplier; N] {
    let b = bytes::<N>(seed);
    let mut out = [QuantizedMultiplier::ZERO; N];
    let mut i = 0;
    while i < N {
        let m = (1 << 30) + (b[i] as u8 as i32) * (1 << 22);
        out[i] = QuantizedMultiplier::from_parts(m, -8 - (i as i32 % 3));
        i += 1;
    }
    out
}

const C1_IN: usize = 64;
const C1_OUT: usize = 128;
const C1_PIXELS: usize = 8 * 8;
static C1_INPUT: [i8; C1_PIXELS * C1_IN] = bytes(1);
static C1_FILTER: [i8; C1_OUT * C1_IN] = bytes(2);
static C1_BIAS: [i32; C1_OUT] = biases(3);
static C1_MULT: [QuantizedMultiplier; C1_OUT] = multipliers(4);
static mut C1_OUTPUT: [i8; C1_PIXELS * C1_OUT] = [0; C1_PIXELS * C1_OUT];

const DW_SIDE: usize = 16;
const DW_C: usize = 64;
static DW_INPUT: [i8; DW_SIDE * DW_SIDE * DW_C] = bytes(5);
static DW_FILTER: [i8; 9 * DW_C] = bytes(6);
static DW_BIAS: [i32; DW_C] = biases(7);
static DW_MULT: [QuantizedMultiplier; DW_C] = multipliers(8);
static mut DW_OUTPUT: [i8; DW_SIDE * DW_SIDE * DW_C] = [0; DW_SIDE * DW_SIDE * DW_C];

const DWS_SIDE: usize = 6;
const DWS_C: usize = 128;
static DWS_INPUT: [i8; DWS_SIDE * DWS_SIDE * DWS_C] = bytes(15);
static DWS_FILTER: [i8; 9 * DWS_C] = bytes(16);
static DWS_BIAS: [i32; DWS_C] = biases(17);
static DWS_MULT: [QuantizedMultiplier; DWS_C] = multipliers(18);
static mut DWS_OUTPUT: [i8; DWS_SIDE * DWS_SIDE * DWS_C] = [0; DWS_SIDE * DWS_SIDE * DWS_C];

const FC_IN: usize = 256;
const FC_OUT: usize = 128;
static FC_INPUT: [i8; FC_IN] = bytes(9);
static FC_WEIGHTS: [i8; FC_OUT * FC_IN] = bytes(10);
static FC_BIAS: [i32; FC_OUT] = biases(11);
static FC_MULT: [QuantizedMultiplier; 1] = multipliers(12);
static mut FC_OUTPUT: [i8; FC_OUT] = [0; FC_OUT];

/// The 1×1 convolution, once.
#[no_mangle]
#[inline(never)]
pub extern "C" fn conv1x1_once() {
    let dims = Conv2dDims {
        batches: 1,
        input_height: 8,
        input_width: 8,
        input_depth: C1_IN,
        filter_height: 1,
        filter_width: 1,
        output_height: 8,
        output_width: 8,
        output_depth: C1_OUT,
    };
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: -128,
        output_zero_point: -128,
        multipliers: black_box(&C1_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: single-threaded firmware, no other reference to the output lives
    let out = unsafe { &mut *addr_of_mut!(C1_OUTPUT) };
    let r = conv_2d_int8(
        black_box(&C1_INPUT),
        black_box(&C1_FILTER),
        Some(black_box(&C1_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("conv1x1");
    }
}

/// The 3×3 depthwise convolution, once.
#[no_mangle]
#[inline(never)]
pub extern "C" fn dw3x3_once() {
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: DW_SIDE,
        input_width: DW_SIDE,
        input_depth: DW_C,
        filter_height: 3,
        filter_width: 3,
        depth_multiplier: 1,
        output_height: DW_SIDE,
        output_width: DW_SIDE,
    };
    let params = DepthwiseConvParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 1,
        pad_left: 1,
        input_zero_point: -128,
        output_zero_point: -128,
        multipliers: black_box(&DW_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: as above
    let out = unsafe { &mut *addr_of_mut!(DW_OUTPUT) };
    let r = depthwise_conv_int8(
        black_box(&DW_INPUT),
        black_box(&DW_FILTER),
        Some(black_box(&DW_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("dw3x3");
    }
}

/// The small (person detection's 6×6) depthwise convolution, once.
#[no_mangle]
#[inline(never)]
pub extern "C" fn dw3x3_small_once() {
    let dims = DepthwiseConvDims {
        batches: 1,
        input_height: DWS_SIDE,
        input_width: DWS_SIDE,
        input_depth: DWS_C,
        filter_height: 3,
        filter_width: 3,
        depth_multiplier: 1,
        output_height: DWS_SIDE,
        output_width: DWS_SIDE,
    };
    let params = DepthwiseConvParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 1,
        pad_left: 1,
        input_zero_point: -128,
        output_zero_point: -128,
        multipliers: black_box(&DWS_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: as above
    let out = unsafe { &mut *addr_of_mut!(DWS_OUTPUT) };
    let r = depthwise_conv_int8(
        black_box(&DWS_INPUT),
        black_box(&DWS_FILTER),
        Some(black_box(&DWS_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("dw3x3 small");
    }
}

/// The fully connected layer, once.
#[no_mangle]
#[inline(never)]
pub extern "C" fn fc_once() {
    let dims = FullyConnectedDims {
        batches: 1,
        input_dim: FC_IN,
        units: FC_OUT,
    };
    let params = FullyConnectedParams {
        input_zero_point: -128,
        weights_zero_point: 0,
        output_zero_point: -128,
        multipliers: black_box(&FC_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: as above
    let out = unsafe { &mut *addr_of_mut!(FC_OUTPUT) };
    let r = fully_connected_int8(
        black_box(&FC_INPUT),
        black_box(&FC_WEIGHTS),
        Some(black_box(&FC_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("fc");
    }
}

const K3_SIDE: usize = 96;
const K3_OUT: usize = 8;
static K3_INPUT: [i8; K3_SIDE * K3_SIDE] = bytes(13);
static K3_FILTER: [i8; K3_OUT * 9] = bytes(14);
static K3_BIAS: [i32; K3_OUT] = biases(15);
static K3_MULT: [QuantizedMultiplier; K3_OUT] = multipliers(16);
static mut K3_OUTPUT: [i8; 48 * 48 * K3_OUT] = [0; 48 * 48 * K3_OUT];

/// Person detection's first layer, once: a 3×3 convolution of stride 2,
/// SAME (padding 0 before, 1 after), 96×96×1 → 48×48×8 (165,888 MACs).
#[no_mangle]
#[inline(never)]
pub extern "C" fn conv3x3_once() {
    let dims = Conv2dDims {
        batches: 1,
        input_height: K3_SIDE,
        input_width: K3_SIDE,
        input_depth: 1,
        filter_height: 3,
        filter_width: 3,
        output_height: 48,
        output_width: 48,
        output_depth: K3_OUT,
    };
    let params = Conv2dParams {
        stride_height: 2,
        stride_width: 2,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 0,
        pad_left: 0,
        input_zero_point: -128,
        output_zero_point: -128,
        multipliers: black_box(&K3_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: as above
    let out = unsafe { &mut *addr_of_mut!(K3_OUTPUT) };
    let r = conv_2d_int8(
        black_box(&K3_INPUT),
        black_box(&K3_FILTER),
        Some(black_box(&K3_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("conv3x3");
    }
}

const R_SIDE: usize = 16;
const R_C: usize = 32;
static R_INPUT: [i8; R_SIDE * R_SIDE * R_C] = bytes(17);
static R_FILTER: [i8; R_C * 9 * R_C] = bytes(18);
static R_BIAS: [i32; R_C] = biases(19);
static R_MULT: [QuantizedMultiplier; R_C] = multipliers(20);
static mut R_OUTPUT: [i8; R_SIDE * R_SIDE * R_C] = [0; R_SIDE * R_SIDE * R_C];

/// A ResNet-8-sized 3×3 convolution, once: 16×16×32 → 16×16×32, stride 1,
/// SAME (2,359,296 MACs counted as 9 taps per output, the border's missing
/// taps included), the im2col path of filters over many channels.
#[no_mangle]
#[inline(never)]
pub extern "C" fn conv3x3_deep_once() {
    let dims = Conv2dDims {
        batches: 1,
        input_height: R_SIDE,
        input_width: R_SIDE,
        input_depth: R_C,
        filter_height: 3,
        filter_width: 3,
        output_height: R_SIDE,
        output_width: R_SIDE,
        output_depth: R_C,
    };
    let params = Conv2dParams {
        stride_height: 1,
        stride_width: 1,
        dilation_height: 1,
        dilation_width: 1,
        pad_top: 1,
        pad_left: 1,
        input_zero_point: -128,
        output_zero_point: -128,
        multipliers: black_box(&R_MULT),
        output_min: -128,
        output_max: 127,
        rounding: Rounding::Double,
    };
    // SAFETY: as above
    let out = unsafe { &mut *addr_of_mut!(R_OUTPUT) };
    let r = conv_2d_int8(
        black_box(&R_INPUT),
        black_box(&R_FILTER),
        Some(black_box(&R_BIAS)),
        dims,
        &params,
        out,
    );
    if r.is_err() {
        panic!("conv3x3 deep");
    }
}

/// A checksum of the outputs (FNV-1a).
fn checksum(data: &[i8]) -> u32 {
    data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b as u8)).wrapping_mul(0x0100_0193)
    })
}

#[entry]
fn main() -> ! {
    conv1x1_once();
    dw3x3_once();
    dw3x3_small_once();
    fc_once();
    conv3x3_once();
    conv3x3_deep_once();
    // SAFETY: as above, the calls are over
    let (c1, dw, dws, fc, k3, r3) = unsafe {
        (
            checksum(&*addr_of_mut!(C1_OUTPUT)),
            checksum(&*addr_of_mut!(DW_OUTPUT)),
            checksum(&*addr_of_mut!(DWS_OUTPUT)),
            checksum(&*addr_of_mut!(FC_OUTPUT)),
            checksum(&*addr_of_mut!(K3_OUTPUT)),
            checksum(&*addr_of_mut!(R_OUTPUT)),
        )
    };
    hprintln!(
        "conv1x1 {:08x} dw3x3 {:08x} dw3x3 small {:08x} fc {:08x} conv3x3 {:08x} conv3x3 deep {:08x}",
        c1,
        dw,
        dws,
        fc,
        k3,
        r3
    );
    debug::exit(debug::EXIT_SUCCESS);
    #[allow(clippy::empty_loop)]
    loop {}
}
