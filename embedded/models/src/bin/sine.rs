//! shapecheck's `model!` on tflite/tests/models/sine.tflite (int8): one
//! inference of x = 0.5 in `predict_once` (quantized with the model's input
//! scale and zero point, the int8 output dequantized with its output's, as
//! MicroFlow's firmware does), its stack painted and measured, its output
//! checked (the protocol: embedded/microflow/src/lib.rs).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use shapecheck::Tensor;
use shapecheck_models_compare::{
    dequantize, finish, quantize, stack, SINE_EXPECTED, SINE_INPUT, SINE_INPUT_QUANT,
    SINE_OUTPUT_QUANT,
};

shapecheck::model!(Sine = "src/../../../tflite/tests/models/sine.tflite");

#[no_mangle]
static INPUT: [f32; 1] = [SINE_INPUT];
#[no_mangle]
static mut OUTPUT: [f32; 1] = [0.0];

/// One inference: what the instruction counter runs, from its call to its return.
#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    let input = *black_box(&INPUT);
    let x: sine::Input = Tensor::from_array([[quantize(input[0], SINE_INPUT_QUANT)]]);
    let y = Sine::predict(&x);
    let output = [dequantize(y.as_slice()[0], SINE_OUTPUT_QUANT)];
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = output };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, &output, &SINE_EXPECTED)
}
