//! shapecheck's `model!` on tflite/tests/models/sine_float.tflite (float32,
//! no MicroFlow counterpart): one inference of a recorded TFLite case in
//! `predict_once` (f32 in, f32 out, no quantization), its stack painted and
//! measured, its output checked against TFLite's (the protocol:
//! embedded/microflow/src/lib.rs).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use shapecheck::Tensor;
use shapecheck_models_compare::{finish, stack, SINE_FLOAT_EXPECTED, SINE_FLOAT_INPUT};

shapecheck::model!(SineFloat = "src/../../../tflite/tests/models/sine_float.tflite");

#[no_mangle]
static INPUT: [f32; 1] = [SINE_FLOAT_INPUT];
#[no_mangle]
static mut OUTPUT: [f32; 1] = [0.0];

/// One inference: what the instruction counter runs, from its call to its return.
#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    let input = *black_box(&INPUT);
    let x: sine_float::Input = Tensor::from_array([[input[0]]]);
    let y = SineFloat::predict(&x);
    let output = [y.as_slice()[0]];
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = output };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, &output, &SINE_FLOAT_EXPECTED)
}
