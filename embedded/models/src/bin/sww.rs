//! shapecheck's `model!` on MLPerf Tiny's streaming wake word
//! (`str_ww_ref_model.tflite`, int8): one inference of the first recorded
//! case of `tiny/str_ww_ref_model.json` (TFLite Micro's int8 input, fed as it
//! is) in `predict_once`, its stack painted and measured, its int8 output
//! checked against TFLite Micro's, value for value (`tiny_firmware!`,
//! embedded/models/src/lib.rs; the model and the case are read from
//! `SHAPECHECK_MODELS` by build.rs).
#![no_std]
#![no_main]

shapecheck_models_compare::tiny_firmware!(Sww, sww, "str_ww_ref_model");
