//! The check of person_ram32k's stack guard (issue 70: a stack overflow
//! must not pass silently): the same memory map (32 KiB of RAM, build.rs),
//! the same MPU guard below the stack (`stack_guarded`) and the same
//! `HardFault` (`fault_handler!`), and a recursion whose frames, every word
//! of each written, run past the region's end. It must end with `fault:
//! the stack's MPU guard at 0x...` and exit 1: compare.sh fails the run if
//! it exits 0, prints `guard missed`, or faults in any other way.
#![no_std]
#![no_main]

use core::hint::black_box;
use shapecheck_models_compare::{fault_handler, print, stack_guarded};

fault_handler!();

/// `depth` frames of 64 words below this one, each word written.
#[inline(never)]
fn descend(depth: u32) -> u32 {
    let mut frame = [0u32; 64];
    for (i, w) in frame.iter_mut().enumerate() {
        *w = black_box(i as u32 ^ depth);
    }
    let below = if depth == 0 { 0 } else { descend(depth - 1) };
    black_box(&frame)
        .iter()
        .fold(below, |a, &w| a.wrapping_add(w))
}

#[cortex_m_rt::entry]
fn main() -> ! {
    // 200 frames of more than 256 B: past 32 KiB
    black_box(stack_guarded(|| descend(black_box(200))));
    print(&[b"guard missed: 200 frames of 256 B fit 32 KiB\n"]);
    cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}
