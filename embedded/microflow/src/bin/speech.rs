//! MicroFlow 0.1.3's `#[model]` on tflite/tests/models/speech.tflite (int8
//! TinyConv):
//! one inference of every feature 0.5 in `predict_once`, its stack painted and
//! measured, its output checked (see the crate's lib.rs for the protocol).
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use microflow::buffer::Buffer2D;
use microflow::model;
use microflow_compare::{finish, stack, SPEECH_EXPECTED, SPEECH_INPUT};
use nalgebra::ArrayStorage;

#[model("../../tflite/tests/models/speech.tflite")]
struct Speech;

#[no_mangle]
static INPUT: Buffer2D<f32, 1, 1960> =
    Buffer2D::from_array_storage(ArrayStorage([[SPEECH_INPUT]; 1960]));
#[no_mangle]
static mut OUTPUT: Buffer2D<f32, 1, 4> = Buffer2D::from_array_storage(ArrayStorage([[0.0]; 4]));

/// One inference: what the instruction counter runs, from its call to its return.
#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    let input = *black_box(&INPUT);
    let output = Speech::predict(input);
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = output };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, output.as_slice(), &SPEECH_EXPECTED)
}
