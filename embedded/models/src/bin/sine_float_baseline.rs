//! The baseline of `sine_float.rs`: the same firmware, with the expected output
//! written as a constant instead of the model (no model, no layers). The
//! model's flash and static RAM are the differences of `sine_float` against this.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use shapecheck_models_compare::{finish, stack, SINE_FLOAT_EXPECTED, SINE_FLOAT_INPUT};

#[no_mangle]
static INPUT: [f32; 1] = [SINE_FLOAT_INPUT];
#[no_mangle]
static mut OUTPUT: [f32; 1] = [0.0];

#[no_mangle]
#[inline(never)]
pub extern "C" fn predict_once() {
    black_box(&INPUT);
    // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
    unsafe { *addr_of_mut!(OUTPUT) = black_box(SINE_FLOAT_EXPECTED) };
}

#[entry]
fn main() -> ! {
    let ((), used) = stack::measure(|| predict_once());
    // SAFETY: as above
    let output = unsafe { *addr_of_mut!(OUTPUT) };
    finish(used, &output, &SINE_FLOAT_EXPECTED)
}
