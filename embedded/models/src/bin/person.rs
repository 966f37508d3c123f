//! shapecheck's `model!` on TFLite Micro's person detection
//! (`tflite/tests/models/person_detect.tflite`, int8): one inference of the
//! first recorded case of `tiny/person_detect.json` (TFLite Micro's int8
//! input, person.bmp's pixels, fed as it is) in `predict_once`, its stack
//! painted and measured, its int8 output checked against TFLite Micro's,
//! value for value (`tiny_firmware!`, embedded/models/src/lib.rs; the case
//! is read from `SHAPECHECK_MODELS` by build.rs).
#![no_std]
#![no_main]

shapecheck_models_compare::tiny_firmware!(Person, person, "person_detect");
