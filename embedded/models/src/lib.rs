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
/// written into the exported static `OUTPUT`. `main` measures its stack and
/// ends with `finish_i8` (exit 0 only if the output is TFLite Micro's, value
/// for value).
#[macro_export]
macro_rules! tiny_firmware {
    ($net:ident, $module:ident, $stem:literal) => {
        $crate::tiny_firmware!(@ $net, $module, $stem, |x: &$module::Input| $net::predict(x));
    };
    (@ $net:ident, $module:ident, $stem:literal, $predict:expr) => {
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
            let ((), used) = $crate::stack::measure(|| predict_once());
            // SAFETY: as above
            let output = unsafe { *core::ptr::addr_of_mut!(OUTPUT) };
            $crate::finish_i8(used, &output, &EXPECTED)
        }
    };
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
