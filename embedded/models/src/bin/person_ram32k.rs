//! shapecheck's `model!` on TFLite Micro's person detection in a RAM region
//! of 32 KiB (issue 70): the firmware of `person.rs` (the first recorded
//! case of `tiny/person_detect.json`, its output checked against TFLite
//! Micro's, value for value), linked with a memory map whose RAM is 32 KiB
//! (build.rs: mps2-an386 has 4 MiB). Its model's default plan keeps
//! 19,200 B of activations (14,208 B at its smallest plan); the 9,216 B
//! input and the frames are on the stack. It prints `ram: stack N B + static M B = T B of 32768 B` (the
//! stack painted since reset, `.data` + `.bss`), and a stack that grows
//! past the region's end does not pass: the lowest 32 aligned bytes above
//! `.bss` are an MPU guard while `predict_once` runs (a fault: no output
//! line), and the run fails if the painting finds the stack reached the
//! bottom (`check_ram`, embedded/models/src/lib.rs).
#![no_std]
#![no_main]

shapecheck_models_compare::tiny_firmware!(Person, person, "person_detect", stack_guard);
