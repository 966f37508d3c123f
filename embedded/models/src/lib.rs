//! Support for shapecheck's comparison firmware (src/bin/*.rs): the panic
//! handler, stack painting and `finish` of embedded/microflow/src/lib.rs
//! (the same file, so both runtimes' firmware print and check alike; its
//! doc describes the protocol), the inputs and expected outputs defined
//! there, and each model's quantization (read by build.rs from the
//! .tflite file) with MicroFlow's arithmetic to quantize the f32 input and
//! dequantize the int8 output.
#![no_std]
// microflow/src/lib.rs is a crate root of its own; here a module
#![allow(unused_attributes)]

#[path = "../../microflow/src/lib.rs"]
mod support;
pub use support::*;

include!(concat!(env!("OUT_DIR"), "/quant.rs"));

/// `round(x / scale + zero_point)`, as MicroFlow 0.1.3's `quantize`
/// (here clamped to i8's range).
#[inline]
pub fn quantize(x: f32, (scale, zero): (f32, i8)) -> i8 {
    libm::roundf(x / scale + f32::from(zero)).clamp(-128.0, 127.0) as i8
}

/// `scale · (q - zero_point)`, as MicroFlow 0.1.3's `dequantize`.
#[inline]
pub fn dequantize(q: i8, (scale, zero): (f32, i8)) -> f32 {
    scale * (f32::from(q) - f32::from(zero))
}

/// Sine (float32, sine_float.tflite, which MicroFlow does not run): the
/// input of one of TFLite's recorded cases (tflite/tests/outputs/
/// sine_outputs.json, x = 0.49866550056980846 as f32) and TFLite's output
/// for it there.
pub const SINE_FLOAT_INPUT: f32 = 0.498_665_5;
pub const SINE_FLOAT_EXPECTED: [f32; 1] = [0.452_818_87];
