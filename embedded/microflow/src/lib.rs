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

/// `round(y / scale) + zero_point`: MicroFlow's f32 output (its
/// `predict_quantized` dequantizes the int8 output tensor,
/// `scale · (q - zero_point)`) back to the int8 value it came from, so that
/// MicroFlow's TinyML rows print and compare int8 as shapecheck's do.
#[inline]
pub fn requantize(y: f32, (scale, zero): (f32, i8)) -> i8 {
    let t = y / scale;
    let r = if t >= 0.0 { t + 0.5 } else { t - 0.5 } as i32 + i32::from(zero);
    r.clamp(-128, 127) as i8
}

/// The firmware of one TinyML model for MicroFlow (the protocol above, int8
/// in and out): `microflow_tiny!(Person, "person_detect",
/// "../../tflite/tests/models/person_detect.tflite", PERSON_MICROFLOW)`
/// expands MicroFlow's `#[model]` on the file (a literal path, relative to
/// embedded/microflow/), the first recorded case of
/// `tiny/person_detect.json` (build.rs: `INPUT` in flash, `OUTPUT_QUANT`,
/// `TFLM_EXPECTED`), and `predict_once`: the input copied from flash (its
/// `predict_quantized` takes the buffer by value), one inference, its
/// output written into the exported static `OUTPUT` as int8. `main`
/// measures its stack and ends with `finish_i8` against MicroFlow's own
/// output, recorded once (the last argument: MicroFlow's output is not
/// TFLite Micro's on the MobileNets; compare.sh prints TFLite Micro's
/// beside it).
#[macro_export]
macro_rules! microflow_tiny {
    ($net:ident, $stem:literal, $path:tt, $own:ident) => {
        #[microflow::model($path)]
        struct $net;

        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".input.rs"));

        const _: () = assert!($crate::$own.len() == TFLM_EXPECTED.len());

        #[no_mangle]
        static mut OUTPUT: [i8; TFLM_EXPECTED.len()] = [0; TFLM_EXPECTED.len()];

        /// One inference: what the instruction counter runs, from its call to its return.
        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            let input = *core::hint::black_box(&INPUT);
            let y = $net::predict_quantized(input);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            let out = unsafe { &mut *core::ptr::addr_of_mut!(OUTPUT) };
            for (o, v) in out.iter_mut().zip(y.iter()) {
                *o = $crate::requantize(*v, OUTPUT_QUANT);
            }
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let ((), used) = $crate::stack::measure(|| predict_once());
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::finish_i8(used, &output, &$crate::$own)
        }
    };
}

/// The baseline of [`microflow_tiny!`]: the same firmware (the case's input
/// in flash, read through `black_box`), `predict_once` writing MicroFlow's
/// recorded output as a constant instead of running the model.
#[macro_export]
macro_rules! microflow_tiny_baseline {
    ($stem:literal, $own:ident) => {
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".input.rs"));

        #[no_mangle]
        static mut OUTPUT: [i8; TFLM_EXPECTED.len()] = [0; TFLM_EXPECTED.len()];

        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            core::hint::black_box(&INPUT);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { *core::ptr::addr_of_mut!(OUTPUT) = core::hint::black_box($crate::$own) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let ((), used) = $crate::stack::measure(|| predict_once());
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::finish_i8(used, &output, &$crate::$own)
        }
    };
}

// MicroFlow 0.1.3's int8 outputs on the first recorded case of each TinyML
// model (`tiny/<stem>.json`), recorded once from its own firmware under
// QEMU (src/bin/<model>.rs); compare.sh reads these lines
// (`expected mf:NAME`) and prints TFLite Micro's output beside them.
/// MicroFlow's output on person detection's first case.
pub const PERSON_MICROFLOW: [i8; 2] = [-59, 59];
/// MicroFlow's output on visual wake words' first case.
pub const VWW_MICROFLOW: [i8; 2] = [110, -110];
/// MicroFlow's output on keyword spotting's first case.
pub const KWS_MICROFLOW: [i8; 12] = [
    -112, -112, -124, -121, -114, -112, -125, -107, -110, -124, -128, 10,
];
/// MicroFlow's output on the anomaly detector's first case.
pub const AD_MICROFLOW: [i8; 640] = [
    -3, 41, 64, 78, 84, 95, 90, 89, 82, 81, 74, 72, 73, 80, 75, 70, 62, 67, 71, 76, 73, 71, 57, 58,
    60, 53, 40, 41, 45, 53, 55, 57, 53, 54, 48, 47, 51, 60, 57, 54, 53, 53, 51, 58, 57, 55, 58, 51,
    49, 53, 51, 52, 58, 59, 53, 51, 49, 48, 48, 51, 49, 49, 48, 48, 42, 36, 35, 34, 33, 35, 33, 32,
    37, 39, 35, 33, 39, 39, 41, 33, 28, 29, 25, 24, 25, 26, 33, 33, 34, 35, 44, 39, 36, 33, 35, 29,
    26, 30, 29, 31, 32, 26, 27, 25, 24, 27, 26, 22, 21, 28, 31, 31, 29, 23, 26, 25, 34, 25, 22, 31,
    35, 41, 40, 36, 40, 36, 12, -24, -1, 48, 72, 83, 89, 100, 95, 93, 87, 84, 75, 74, 77, 81, 76,
    71, 63, 68, 70, 75, 74, 73, 60, 63, 63, 55, 42, 43, 48, 58, 59, 61, 57, 57, 52, 50, 53, 62, 58,
    57, 54, 55, 53, 62, 60, 59, 63, 56, 52, 54, 53, 55, 60, 61, 54, 53, 56, 54, 51, 55, 55, 53, 51,
    50, 45, 39, 40, 40, 37, 39, 38, 37, 42, 46, 42, 37, 43, 44, 48, 42, 34, 36, 32, 29, 30, 29, 38,
    38, 43, 48, 52, 44, 45, 43, 43, 39, 33, 39, 38, 39, 42, 38, 39, 36, 34, 37, 36, 30, 28, 36, 42,
    42, 40, 32, 37, 37, 45, 36, 31, 42, 50, 55, 54, 55, 58, 53, 29, -6, -1, 51, 77, 87, 90, 101,
    94, 96, 92, 87, 77, 77, 80, 82, 76, 71, 64, 69, 68, 72, 73, 72, 62, 67, 64, 55, 41, 44, 51, 59,
    59, 61, 58, 60, 56, 52, 53, 59, 58, 57, 54, 56, 55, 63, 61, 62, 66, 58, 54, 54, 55, 56, 60, 61,
    55, 56, 59, 57, 54, 57, 58, 54, 50, 50, 48, 44, 44, 44, 41, 39, 40, 42, 48, 52, 47, 41, 47, 50,
    56, 49, 39, 41, 39, 34, 36, 34, 43, 46, 51, 56, 57, 50, 53, 51, 52, 46, 39, 48, 48, 47, 51, 47,
    49, 47, 44, 45, 46, 39, 35, 44, 52, 52, 49, 41, 46, 45, 52, 43, 37, 49, 60, 65, 63, 70, 71, 64,
    39, 6, -1, 48, 73, 84, 87, 97, 89, 95, 92, 85, 77, 78, 78, 80, 74, 70, 61, 63, 62, 65, 66, 67,
    61, 66, 60, 50, 34, 39, 49, 56, 56, 59, 56, 56, 51, 48, 49, 54, 55, 55, 53, 54, 52, 59, 57, 58,
    59, 52, 49, 50, 51, 49, 51, 55, 53, 52, 53, 52, 48, 51, 50, 48, 45, 47, 45, 43, 42, 42, 39, 36,
    38, 43, 48, 52, 46, 40, 46, 50, 55, 48, 37, 38, 39, 32, 34, 34, 44, 49, 50, 51, 51, 47, 50, 48,
    49, 42, 37, 45, 46, 45, 47, 46, 45, 44, 44, 43, 43, 38, 33, 41, 49, 49, 45, 37, 41, 38, 45, 38,
    33, 44, 54, 56, 54, 62, 61, 56, 31, -5, -4, 42, 68, 82, 86, 93, 85, 92, 88, 83, 75, 76, 77, 77,
    71, 67, 57, 59, 57, 61, 63, 65, 58, 62, 57, 48, 33, 37, 45, 52, 52, 55, 52, 52, 48, 45, 45, 51,
    51, 51, 52, 53, 49, 53, 50, 50, 51, 45, 43, 46, 48, 44, 45, 49, 48, 46, 46, 45, 42, 46, 45, 44,
    42, 42, 41, 39, 39, 38, 36, 35, 37, 40, 45, 48, 43, 37, 42, 47, 52, 44, 34, 36, 35, 28, 30, 29,
    40, 45, 46, 46, 45, 43, 46, 43, 44, 37, 32, 41, 39, 39, 41, 41, 38, 37, 38, 37, 36, 31, 26, 34,
    41, 40, 35, 29, 31, 30, 36, 28, 26, 35, 41, 43, 42, 48, 46, 42, 18, -18,
];
/// MicroFlow's output on the streaming wake word's first case.
pub const SWW_MICROFLOW: [i8; 3] = [-119, -128, 119];
