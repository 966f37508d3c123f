//! shapecheck's `model!` on tflite/tests/models/speech.tflite (int8
//! TinyConv): one inference of every feature 0.5 in `predict_once`
//! (quantized with the model's input scale and zero point, the int8 scores
//! dequantized with its output's, as MicroFlow's firmware does), its stack
//! painted and measured, its output checked (the protocol:
//! embedded/microflow/src/lib.rs).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use shapecheck::Tensor;
use shapecheck_models_compare::{
    dequantize, finish, quantize, stack, SPEECH_EXPECTED, SPEECH_INPUT, SPEECH_INPUT_QUANT,
    SPEECH_OUTPUT_QUANT,
};

shapecheck::model!(Speech = "src/../../../tflite/tests/models/speech.tflite");

#[no_mangle]
static INPUT: [f32; 1960] = [SPEECH_INPUT; 1960];
#[no_mangle]
static mut OUTPUT: [f32; 4] = [0.0; 4];

/// One inference: what the instruction counter runs, from its call to its return.
#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    let input = black_box(&INPUT);
    let x: speech::Input = Tensor::from_array([core::array::from_fn(|i| {
        quantize(input[i], SPEECH_INPUT_QUANT)
    })]);
    let y = Speech::predict(&x);
    let y = y.as_slice();
    let output: [f32; 4] = core::array::from_fn(|i| dequantize(y[i], SPEECH_OUTPUT_QUANT));
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = output };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, &output, &SPEECH_EXPECTED)
}
