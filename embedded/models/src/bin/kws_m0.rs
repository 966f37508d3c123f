//! shapecheck's `model!` on MLPerf Tiny's keyword spotting in the 16 KiB of
//! RAM of QEMU's micro:bit (Cortex-M0, issue 70), at its streamed plan
//! (`model!` with build.rs's `ram = N` budget): every recorded case of
//! `tiny/kws_ref_model.json`, each output checked against TFLite Micro's,
//! value for value (`ram_firmware!`, embedded/models/src/lib.rs). The arena,
//! the 490 B input and the frames are on the stack. It prints `ram: stack N
//! B + static M B = T B of 16384 B` and fails if the painting finds the
//! stack reached the RAM's end (`check_ram`; the Cortex-M0 has no MPU, and a
//! stack below the RAM's start locks the core up: QEMU stops, a failure).
#![no_std]
#![no_main]

shapecheck_models_compare::ram_firmware!(Kws, kws, "kws_ref_model");
