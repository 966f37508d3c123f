//! TFLite Micro's one-op models (tflite/tests/ops/) through
//! shapecheck-tflite's `Interpreter`, no heap, on the Cortex-M4F only
//! (the feature `interpreter`: the interpreter links every kernel, more
//! than the Cortex-M0's 256 KiB of flash; there the same models run
//! through `model!`, tests/model_one_op_<g>.rs): every model the host's
//! `tflite/tests/interpreter_ops.rs` runs (its `ops!` list, read by
//! build.rs: `one_op.rs`), each parsed from flash (`Model::parse`), an
//! interpreter prepared once (`Interpreter::prepared`, TFLite Micro's
//! arithmetic: its steps and multipliers in static buffers, no heap, and
//! `invoke` only runs) over static buffers sized by build.rs for the
//! largest model, all 8 recorded cases
//! fed (every input: int8, int16, int32 or f32), every output compared
//! with TFLite Micro's (int8, int16 and int32 exactly, f32 to the bit).
//! Case 0 of each model is a constant input (its zero
//! point); the other 7 are random, which a layout bug would not pass. One
//! line per model; a mismatch names the model, case, output, element and
//! both values, and fails the run.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck_embedded::one_op::{self, models, OneOpArena};
use shapecheck_embedded::Checks;

#[entry]
fn main() -> ! {
    // in .bss, not on the stack (cortex-m-rt hands it over as &'static mut)
    static mut ARENA: OneOpArena = OneOpArena::new();
    let mut c = Checks::new("tflite_ops");
    one_op::run(&mut c, models::MODELS, ARENA);
    c.finish()
}
