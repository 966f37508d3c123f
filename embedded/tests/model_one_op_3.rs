//! TFLite Micro's one-op models through `model!`, group 3 of 4 (the
//! models of `tflite/tests/interpreter_ops.rs`'s `ops!` list, cut by
//! build.rs, `one_op.rs`, into firmwares that fit the Cortex-M0's 256 KiB
//! of flash): one `model!` per model, linking its own ops' kernels only,
//! all 8 recorded cases fed to its `predict` (int8, int16, int32 or f32
//! inputs) and every output compared with TFLite Micro's (integers
//! exactly, f32 to the bit), and a wrong value planted in each output
//! caught by the same comparison. One line per model; a mismatch names
//! the model, case, output, element and both values, and fails the run.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck_embedded::one_op;
use shapecheck_embedded::Checks;

include!(concat!(env!("OUT_DIR"), "/model_one_op_3.rs"));

#[entry]
fn main() -> ! {
    let mut c = Checks::new("model_one_op_3");
    one_op::run_models(&mut c, MODELS);
    c.finish()
}
