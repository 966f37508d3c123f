//! Support for the comparison firmware (src/bin/*.rs): a panic handler that
//! fails the run, the stack painting of the firmware tests
//! (`embedded/src/stack.rs`, the same file), and [`finish`], which prints a
//! firmware's output and stack through semihosting in the lines that
//! `embedded/compare.sh` reads, and exits with success only if the output
//! is the expected one.
//!
//! The protocol of a comparison firmware (MicroFlow's here; shapecheck's
//! own model firmware follows the same to get its row in compare.sh):
//! - an exported `#[no_mangle] #[inline(never)] extern "C" fn predict_once()`
//!   that reads the input from a static (through `black_box`, so the
//!   inference is not folded at compile time), runs one inference and writes
//!   the result into the exported static `OUTPUT`; the instruction counter
//!   (`embedded/count_instructions.py`) calls exactly this function;
//! - `main` calls it once under [`stack::measure`] and ends with
//!   [`finish`]: the lines `output: <hex f32 bits> ...` and
//!   `predict stack: N B`; a firmware whose output is int8 (shapecheck's
//!   TinyML rows, `OUTPUT` a static of i8) ends with [`finish_i8`]
//!   instead: `output: i8 <two hex digits per value> ...`, compared
//!   exactly;
//! - a baseline firmware, the same but `predict_once` writes the expected
//!   output as a constant: the model's flash and static RAM are the
//!   differences against it.
//!
//! Nothing here uses `core::fmt`, so the firmware holds little besides the
//! model and the runtime.
#![no_std]

use core::panic::PanicInfo;
use cortex_m_semihosting::{debug, hio};

#[path = "../../src/stack.rs"]
pub mod stack;

/// A panic fails the run (no message: `core::fmt` would dwarf the model).
#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(b"panic\n");
    }
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Prints `output: <bits> ...` (each f32 as 8 hex digits) and
/// `predict stack: N B`, then exits: success if every output is within
/// 1e-6 of the expected one.
pub fn finish(stack_used: usize, output: &[f32], expected: &[f32]) -> ! {
    let mut ok = output.len() == expected.len();
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(b"output:");
        for (i, x) in output.iter().enumerate() {
            let bits = x.to_bits();
            let mut word = *b" 00000000";
            for (k, c) in word[1..].iter_mut().enumerate() {
                let nib = (bits >> (28 - 4 * k)) & 0xf;
                *c = if nib < 10 {
                    b'0' + nib as u8
                } else {
                    b'a' + nib as u8 - 10
                };
            }
            let _ = out.write_all(&word);
            if let Some(e) = expected.get(i) {
                ok &= (x - e).abs() <= 1e-6;
            }
        }
        let mut line = *b"\npredict stack:            B\n";
        let mut n = stack_used;
        let mut at = 25;
        loop {
            line[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 || at == 16 {
                break;
            }
            at -= 1;
        }
        let _ = out.write_all(&line);
        if !ok {
            let _ = out.write_all(b"output differs from the expected one\n");
        }
    } else {
        ok = false;
    }
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)]
    loop {}
}

/// As [`finish`], for an int8 output compared exactly: prints
/// `output: i8 <byte> ...` (each value as the two hex digits of its two's
/// complement byte: -113 is `8f`) and `predict stack: N B`, then exits:
/// success only if the output is the expected one, value for value.
pub fn finish_i8(stack_used: usize, output: &[i8], expected: &[i8]) -> ! {
    let mut ok = output == expected;
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(b"output: i8");
        for &x in output {
            let byte = x as u8;
            let mut word = *b" 00";
            for (k, c) in word[1..].iter_mut().enumerate() {
                let nib = (byte >> (4 - 4 * k)) & 0xf;
                *c = if nib < 10 {
                    b'0' + nib
                } else {
                    b'a' + nib - 10
                };
            }
            let _ = out.write_all(&word);
        }
        let mut line = *b"\npredict stack:            B\n";
        let mut n = stack_used;
        let mut at = 25;
        loop {
            line[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 || at == 16 {
                break;
            }
            at -= 1;
        }
        let _ = out.write_all(&line);
        if !ok {
            let _ = out.write_all(b"output differs from the expected one\n");
        }
    } else {
        ok = false;
    }
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Sine (int8): the input x = 0.5 and the expected output, sin-like 57 at
/// scale 0.00826966856, zero point 7 (`/work/shared/models/README.md`,
/// microflow's own tests).
pub const SINE_INPUT: f32 = 0.5;
pub const SINE_EXPECTED: [f32; 1] = [0.413_483_44];

/// Speech (int8 TinyConv): every one of the 49 x 40 features 0.5; the
/// expected scores of the 4 labels ([-88, -58, -58, -52] at 1/256, -128).
pub const SPEECH_INPUT: f32 = 0.5;
pub const SPEECH_EXPECTED: [f32; 4] = [0.15625, 0.273_437_5, 0.273_437_5, 0.296_875];
