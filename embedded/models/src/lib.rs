//! Support for shapecheck's comparison firmware (src/bin/*.rs): the panic
//! handler, stack painting and `finish` of embedded/microflow/src/lib.rs
//! (the same file, so both runtimes' firmware print and check alike; its
//! doc describes the protocol), the inputs and expected outputs defined
//! there, and each model's quantization (read by build.rs from the
//! .tflite file) with MicroFlow's arithmetic to quantize the f32 input and
//! dequantize the int8 output; and the firmware of the TinyML models
//! ([`tiny_firmware!`], [`tiny_baseline!`]): int8 in, int8 out, on the
//! first recorded case of each (build.rs).
#![no_std]
// microflow/src/lib.rs is a crate root of its own; here a module
#![allow(unused_attributes)]

#[path = "../../microflow/src/lib.rs"]
mod support;
pub use support::*;

use core::ptr::addr_of;
use cortex_m_semihosting::{debug, hio};

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

/// The firmware of one TinyML model (the protocol of
/// `embedded/microflow/src/lib.rs`, int8 in and out):
/// `tiny_firmware!(Person, person, "person_detect")` expands the model
/// (`shapecheck::model!`, from the file build.rs found) and the first
/// recorded case of `tiny/person_detect.json` (`INPUT` in flash,
/// `EXPECTED`), and writes `predict_once`: the input copied from flash into
/// the model's `Input` tensor on the stack (as a firmware holds a sensor's
/// reading), one `predict` (its arena on the stack too) and the int8 output
/// written into the exported static `OUTPUT`. `main` measures its stack,
/// prints the RAM used and fails if the stack reached the RAM region's end
/// ([`check_ram`]), and ends with `finish_i8` (exit 0 only if the output is
/// TFLite Micro's, value for value). `tiny_firmware!(Person, person,
/// "person_detect", stack_guard)` runs `predict_once` under
/// [`stack_guarded`] (the MPU's guard below the stack).
#[macro_export]
macro_rules! tiny_firmware {
    ($net:ident, $module:ident, $stem:literal) => {
        $crate::tiny_firmware!(@ $net, $module, $stem, |x: &$module::Input| $net::predict(x),
            |f: extern "C" fn()| f());
    };
    ($net:ident, $module:ident, $stem:literal, stack_guard) => {
        $crate::tiny_firmware!(@ $net, $module, $stem, |x: &$module::Input| $net::predict(x),
            |f: extern "C" fn()| $crate::stack_guarded(|| f()));
    };
    (@ $net:ident, $module:ident, $stem:literal, $predict:expr, $wrap:expr) => {
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".model.rs"));
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".case.rs"));

        const _: () = assert!(INPUT.len() == core::mem::size_of::<$module::Input>());
        const _: () = assert!(EXPECTED.len() == core::mem::size_of::<$module::Output>());

        #[no_mangle]
        static mut OUTPUT: [i8; EXPECTED.len()] = [0; EXPECTED.len()];

        /// One inference: what the instruction counter runs, from its call to its return.
        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            let Ok(x) = $module::Input::from_slice(core::hint::black_box(&INPUT)) else {
                panic!()
            };
            let run = $predict;
            let y: $module::Output = run(&x);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { (*core::ptr::addr_of_mut!(OUTPUT)).copy_from_slice(y.as_slice()) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let wrap = $wrap;
            let ((), used) = $crate::stack::measure(|| wrap(predict_once));
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::check_ram();
            $crate::finish_i8(used, &output, &EXPECTED)
        }
    };
}

/// The firmware of one of issue 70's RAM goals (the protocol of
/// [`tiny_firmware!`], int8 in and out): `ram_firmware!(Person, person,
/// "person_detect")` expands the model at its streamed plan (`model!` with
/// the `ram = N` budget of tiny-models/budgets.rs, `tiny/<stem>.streamed.rs`)
/// and every recorded case of `tiny/person_detect.json` (`INPUTS` in flash,
/// `EXPECTEDS`), and writes `predict_once`: the input of case `CASE` copied
/// from flash into the model's `Input` tensor on the stack (as a firmware
/// holds a sensor's reading), one `predict` (its arena on the stack too) and
/// the int8 output written into the exported static `OUTPUT`. `main` runs
/// every case, each under [`stack::measure`]; prints `case <name>: output
/// differs` for each whose output is not TFLite Micro's, value for value,
/// and `cases: N of N TFLite Micro's, bit for bit`; prints the RAM used
/// and fails if the stack reached the RAM region's end ([`check_ram`]);
/// and ends with `finish_i8` on the first case (exit 0 only if every case
/// was TFLite Micro's). `ram_firmware!(Person, person, "person_detect",
/// stack_guard)` runs each `predict_once` under [`stack_guarded`] (the
/// MPU's guard below the stack, on the Cortex-M4F) with
/// [`fault_handler!`]'s `HardFault`.
#[macro_export]
macro_rules! ram_firmware {
    ($net:ident, $module:ident, $stem:literal) => {
        $crate::ram_firmware!(@ $net, $module, $stem, |f: extern "C" fn()| f());
    };
    ($net:ident, $module:ident, $stem:literal, stack_guard) => {
        $crate::ram_firmware!(@ $net, $module, $stem,
            |f: extern "C" fn()| $crate::stack_guarded(|| f()));

        $crate::fault_handler!();
    };
    (@ $net:ident, $module:ident, $stem:literal, $wrap:expr) => {
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".streamed.rs"));
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".cases.rs"));

        const N_OUT: usize = core::mem::size_of::<$module::Output>();
        const _: () = assert!(INPUTS[0].len() == core::mem::size_of::<$module::Input>());
        const _: () = assert!(EXPECTEDS[0].len() == N_OUT);

        #[no_mangle]
        static mut OUTPUT: [i8; N_OUT] = [0; N_OUT];
        /// The case `predict_once` runs (an index into `INPUTS`).
        static CASE: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

        /// One inference, of case `CASE`.
        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            let case = CASE.load(core::sync::atomic::Ordering::Relaxed);
            let Some(input) = INPUTS.get(case) else { panic!() };
            let Ok(x) = $module::Input::from_slice(core::hint::black_box(input)) else {
                panic!()
            };
            let y: $module::Output = $net::predict(&x);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { (*core::ptr::addr_of_mut!(OUTPUT)).copy_from_slice(y.as_slice()) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let wrap = $wrap;
            let (mut peak, mut wrong) = (0, 0);
            let mut first = [0i8; N_OUT];
            for (k, (expected, name)) in EXPECTEDS.iter().zip(CASE_NAMES).enumerate() {
                CASE.store(k, core::sync::atomic::Ordering::Relaxed);
                let ((), used) = $crate::stack::measure(|| wrap(predict_once));
                peak = peak.max(used);
                // SAFETY: as above
                let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
                if k == 0 {
                    first = output;
                }
                if output != *expected {
                    $crate::print(&[b"case ", name.as_bytes(), b": output differs\n"]);
                    wrong += 1;
                }
            }
            $crate::print_cases(CASES - wrong, CASES);
            $crate::check_ram();
            if wrong != 0 {
                cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
            }
            $crate::finish_i8(peak, &first, &EXPECTEDS[0])
        }
    };
}

/// The firmware of a float32 model (the protocol of [`tiny_firmware!`],
/// f32 in and out): `float_firmware!(FloatCnn, float_cnn, "float_cnn")`
/// expands the model (`float/<stem>.model.rs`, build.rs) with every
/// recorded case of its recording (`INPUTS` in flash, `EXPECTEDS`), and
/// writes `predict_once`: case `CASE`'s input copied from flash into the
/// model's `Input`, one `predict` (its arena on the stack) and the f32
/// output written into the exported static `OUTPUT`. `main` runs every
/// case under [`stack::measure`]; prints `case <name>: output differs` for
/// each whose output is not TFLite Micro's to the bit (every f32's bit
/// pattern, the sign of zero included) and `cases: N of N TFLite Micro's,
/// bit for bit`; prints the model's `RAM_BYTES` (`RAM_BYTES: N B`); exits
/// with failure if a case differed, else ends with [`finish`] on the first
/// case (its output printed by its bits, for compare.sh).
#[macro_export]
macro_rules! float_firmware {
    ($net:ident, $module:ident, $stem:literal) => {
        include!(concat!(env!("OUT_DIR"), "/float/", $stem, ".model.rs"));
        include!(concat!(env!("OUT_DIR"), "/float/", $stem, ".cases.rs"));

        const N_OUT: usize = EXPECTEDS[0].len();
        const _: () = assert!(INPUTS[0].len() * 4 == core::mem::size_of::<$module::Input>());
        const _: () = assert!(N_OUT * 4 == core::mem::size_of::<$module::Output>());

        #[no_mangle]
        static mut OUTPUT: [f32; N_OUT] = [0.0; N_OUT];
        /// The case `predict_once` runs (an index into `INPUTS`).
        static CASE: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

        /// One inference, of case `CASE`.
        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            let case = CASE.load(core::sync::atomic::Ordering::Relaxed);
            let Some(input) = INPUTS.get(case) else { panic!() };
            let Ok(x) = $module::Input::from_slice(core::hint::black_box(input)) else {
                panic!()
            };
            let y: $module::Output = $net::predict(&x);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { (*core::ptr::addr_of_mut!(OUTPUT)).copy_from_slice(y.as_slice()) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let (mut peak, mut wrong) = (0, 0);
            let mut first = [0f32; N_OUT];
            for (k, (expected, name)) in EXPECTEDS.iter().zip(CASE_NAMES).enumerate() {
                CASE.store(k, core::sync::atomic::Ordering::Relaxed);
                let ((), used) = $crate::stack::measure(|| predict_once());
                peak = peak.max(used);
                // SAFETY: as above
                let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
                if k == 0 {
                    first = output;
                }
                if output.iter().zip(expected).any(|(o, e)| o.to_bits() != e.to_bits()) {
                    $crate::print(&[b"case ", name.as_bytes(), b": output differs\n"]);
                    wrong += 1;
                }
            }
            $crate::print_cases(CASES - wrong, CASES);
            $crate::print_number_line(b"RAM_BYTES: ", $module::RAM_BYTES, b" B\n");
            if wrong != 0 {
                cortex_m_semihosting::debug::exit(cortex_m_semihosting::debug::EXIT_FAILURE);
            }
            $crate::finish(peak, &first, &EXPECTEDS[0])
        }
    };
}

/// The baseline of a [`float_firmware!`]: the same data in flash, `predict`
/// replaced by a copy of the first expected output (compare.sh subtracts
/// its sizes from the firmware's).
#[macro_export]
macro_rules! float_baseline {
    ($stem:literal) => {
        include!(concat!(env!("OUT_DIR"), "/float/", $stem, ".cases.rs"));

        const N_OUT: usize = EXPECTEDS[0].len();

        #[no_mangle]
        static mut OUTPUT: [f32; N_OUT] = [0.0; N_OUT];

        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            core::hint::black_box(&INPUTS);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { *core::ptr::addr_of_mut!(OUTPUT) = core::hint::black_box(EXPECTEDS[0]) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let ((), used) = $crate::stack::measure(|| predict_once());
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::finish(used, &output, &EXPECTEDS[0])
        }
    };
}

/// The `HardFault` handler of a Cortex-M4F firmware whose stack has the
/// MPU's guard ([`stack_guarded`]; [`ram_firmware!`] with `stack_guard`):
/// a fault (a stack that ran into the guard, or past the RAM's start)
/// fails the run at once, rather than spinning until compare.sh's
/// timeout. It replaces cortex-m-rt's `HardFault` with one that moves the
/// stack pointer back to the stack's top (where it faulted, a push would
/// fault again and lock the core up) and calls [`fault`].
#[macro_export]
macro_rules! fault_handler {
    () => {
        core::arch::global_asm!(
            ".section .text.HardFault, \"ax\"",
            ".global HardFault",
            ".type HardFault, %function",
            ".thumb_func",
            "HardFault:",
            "ldr r0, ={top}",
            "mov sp, r0",
            "bl {fault}",
            ".ltorg",
            top = sym _stack_start,
            fault = sym $crate::fault,
        );
        extern "C" {
            static _stack_start: u32;
        }
    };
}

/// A fault's end ([`fault_handler!`]'s, on a stack moved back to its top;
/// the Cortex-M4F's fault status registers): prints `fault: the stack's
/// MPU guard at 0x<address>` when the MPU stopped a write (a MemManage
/// fault, escalated), else `fault: CFSR 0x<status>`, and exits with
/// failure.
pub extern "C" fn fault() -> ! {
    // SAFETY: the System Control Block's CFSR and MMFAR, read-only here
    let (cfsr, mmfar) = unsafe {
        (
            core::ptr::read_volatile(0xE000_ED28 as *const u32),
            core::ptr::read_volatile(0xE000_ED34 as *const u32),
        )
    };
    let mut line = [0u8; 64];
    let n = if cfsr & 0xFF != 0 {
        let n = push(&mut line, 0, b"fault: the stack's MPU guard at 0x");
        push_hex(&mut line, n, mmfar)
    } else {
        let n = push(&mut line, 0, b"fault: CFSR 0x");
        push_hex(&mut line, n, cfsr)
    };
    let n = push(&mut line, n, b"\n");
    print(&[&line[..n]]);
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Writes `parts` one after another to the host's stdout (semihosting).
pub fn print(parts: &[&[u8]]) {
    if let Ok(mut out) = hio::hstdout() {
        for part in parts {
            let _ = out.write_all(part);
        }
    }
}

/// Prints `before`, `value` in decimal and `after` as one line.
pub fn print_number_line(before: &[u8], value: usize, after: &[u8]) {
    let mut line = [0u8; 96];
    let mut n = push(&mut line, 0, before);
    n = push_number(&mut line, n, value);
    n = push(&mut line, n, after);
    print(&[&line[..n]]);
}

/// Prints `cases: R of N TFLite Micro's, bit for bit` (compare.sh reads it).
pub fn print_cases(right: usize, all: usize) {
    let mut line = [0u8; 64];
    let mut n = push(&mut line, 0, b"cases: ");
    n = push_number(&mut line, n, right);
    n = push(&mut line, n, b" of ");
    n = push_number(&mut line, n, all);
    n = push(&mut line, n, b" TFLite Micro's, bit for bit\n");
    print(&[&line[..n]]);
}

/// Prints one line of text and numbers: each part's text, then its
/// number in decimal if it has one (`print_line(&[("steps ", Some(31)),
/// (" B\n", None)])`), without `core::fmt`. A line past 256 bytes is cut.
pub fn print_line(parts: &[(&str, Option<usize>)]) {
    let mut line = [0u8; 256];
    let mut n = 0;
    for (text, value) in parts {
        n = push(&mut line, n, text.as_bytes());
        if let Some(v) = value {
            n = push_number(&mut line, n, *v);
        }
    }
    print(&[&line[..n]]);
}

extern "C" {
    // cortex-m-rt's link.x: the RAM region of memory.x, and the stack's
    // free part (from the end of .bss up to the stack's top)
    static _ram_start: u32;
    static _ram_end: u32;
    static _stack_start: u32;
    static _stack_end: u32;
}

/// The RAM region's bytes: from `_ram_start` to `_ram_end`.
pub fn ram_region() -> usize {
    let (start, end) = (addr_of!(_ram_start) as usize, addr_of!(_ram_end) as usize);
    end - start
}

/// The static RAM (`.data`, `.bss` and `.uninit`: from the region's start to
/// cortex-m-rt's `_stack_end`), in bytes.
pub fn static_ram() -> usize {
    let (start, end) = (addr_of!(_ram_start) as usize, addr_of!(_stack_end) as usize);
    end - start
}

/// The bytes between the stack's bottom (`_stack_end`, rounded up to a
/// word as the painting does) and its top: the most the painted stack can
/// read.
fn stack_room() -> usize {
    let bottom = (addr_of!(_stack_end) as usize + 3) & !3;
    let top = addr_of!(_stack_start) as usize;
    top - bottom
}

/// Prints `ram: stack N B + static M B = T B of R B` (the painted stack
/// since reset, [`stack::peak`], and [`static_ram`], against the region of
/// memory.x) and fails the run (`stack reached the RAM region's end`) if
/// the stack reached the lowest painted word: what was below it, `.bss`,
/// may have been overwritten, and the output cannot be trusted.
pub fn check_ram() {
    let stack = stack::peak();
    let statics = static_ram();
    let mut line = [0u8; 80];
    let mut n = 0;
    for (text, value) in [
        ("ram: stack ", Some(stack)),
        (" B + static ", Some(statics)),
        (" B = ", Some(stack + statics)),
        (" B of ", Some(ram_region())),
        (" B\n", None),
    ] {
        n = push(&mut line, n, text.as_bytes());
        if let Some(v) = value {
            n = push_number(&mut line, n, v);
        }
    }
    let reached = stack >= stack_room();
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(&line[..n]);
        if reached {
            let _ = out.write_all(b"stack reached the RAM region's end\n");
        }
    }
    if reached {
        debug::exit(debug::EXIT_FAILURE);
    }
}

fn push(line: &mut [u8], at: usize, bytes: &[u8]) -> usize {
    let end = (at + bytes.len()).min(line.len());
    line[at..end].copy_from_slice(&bytes[..end - at]);
    end
}

/// `v` in eight hex digits into `line` at `at`; returns the end.
fn push_hex(line: &mut [u8], at: usize, v: u32) -> usize {
    let mut digits = [0u8; 8];
    for (k, d) in digits.iter_mut().enumerate() {
        let nib = (v >> (28 - 4 * k)) & 0xf;
        *d = if nib < 10 {
            b'0' + nib as u8
        } else {
            b'a' + nib as u8 - 10
        };
    }
    push(line, at, &digits)
}

/// `v` in decimal into `line` at `at`; returns the end.
fn push_number(line: &mut [u8], at: usize, mut v: usize) -> usize {
    let mut digits = [0u8; 20];
    let mut from = digits.len();
    loop {
        from -= 1;
        digits[from] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    push(line, at, &digits[from..])
}

/// Runs `f` with the lowest 32 bytes of the stack's room that are aligned
/// to 32 (just above cortex-m-rt's `_stack_end`) made inaccessible by the
/// Cortex-M4's MPU: a stack that grows into them faults (the run then stops
/// without its `output:` line, which compare.sh counts as a failure) before
/// it can write over `.bss`. For the firmware of a small RAM region
/// (person_ram32k); the MPU is off again when `f` returns.
#[cfg(target_arch = "arm")]
pub fn stack_guarded<R>(f: impl FnOnce() -> R) -> R {
    // SAFETY: single-threaded firmware; nothing else programs the MPU
    let mpu = unsafe { &*cortex_m::peripheral::MPU::PTR };
    let bottom = addr_of!(_stack_end) as usize;
    let guard = (bottom + 31) & !31;
    // SAFETY: region 0, 32 bytes (SIZE 4: 2^(4+1)), no access (AP 0),
    // execute never; the default map stays for everything else
    // (PRIVDEFENA), as before
    unsafe {
        mpu.rnr.write(0);
        mpu.rbar.write(guard as u32);
        mpu.rasr.write((1 << 28) | (4 << 1) | 1);
        mpu.ctrl.write(0b101);
    }
    cortex_m::asm::dsb();
    cortex_m::asm::isb();
    let r = f();
    // SAFETY: as above: the MPU off, region 0 disabled
    unsafe {
        mpu.ctrl.write(0);
        mpu.rasr.write(0);
    }
    cortex_m::asm::dsb();
    cortex_m::asm::isb();
    r
}

/// The baseline of [`tiny_firmware!`]: the same firmware (the case's input
/// in flash, read through `black_box`), with `predict_once` writing the
/// expected output as a constant instead of running the model. The model's
/// flash and static RAM are the firmware's differences against it.
#[macro_export]
macro_rules! tiny_baseline {
    ($stem:literal) => {
        include!(concat!(env!("OUT_DIR"), "/tiny/", $stem, ".case.rs"));

        #[no_mangle]
        static mut OUTPUT: [i8; EXPECTED.len()] = [0; EXPECTED.len()];

        #[no_mangle]
        #[inline(never)]
        pub extern "C" fn predict_once() {
            core::hint::black_box(&INPUT);
            // SAFETY: single-threaded firmware, no other reference to OUTPUT lives
            unsafe { *core::ptr::addr_of_mut!(OUTPUT) = core::hint::black_box(EXPECTED) };
        }

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let ((), used) = $crate::stack::measure(|| predict_once());
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::finish_i8(used, &output, &EXPECTED)
        }
    };
}
