//! The baseline of `speech.rs`: the same firmware, with the expected output
//! written as a constant instead of the `predict` call (no model, no
//! runtime). The model's flash and static RAM are the differences of
//! `speech` against this.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use microflow::buffer::Buffer2D;
use microflow_compare::{finish, stack, SPEECH_EXPECTED, SPEECH_INPUT};
use nalgebra::ArrayStorage;

#[no_mangle]
static INPUT: Buffer2D<f32, 1, 1960> =
    Buffer2D::from_array_storage(ArrayStorage([[SPEECH_INPUT]; 1960]));
#[no_mangle]
static mut OUTPUT: Buffer2D<f32, 1, 4> = Buffer2D::from_array_storage(ArrayStorage([[0.0]; 4]));

#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    black_box(&INPUT);
    let output = Buffer2D::from_array_storage(ArrayStorage(SPEECH_EXPECTED.map(|x| [x])));
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = black_box(output) };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, output.as_slice(), &SPEECH_EXPECTED)
}
