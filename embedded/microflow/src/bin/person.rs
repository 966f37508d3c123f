//! MicroFlow 0.1.3's `#[model]` on `person_detect.tflite` (int8), the file
//! shapecheck's `person` row runs: one inference of the first recorded case of
//! `tiny/person_detect.json` (TFLite Micro's int8 input, fed through
//! `predict_quantized`) in `predict_once`, its stack painted and measured,
//! its int8 output checked against MicroFlow's own, recorded once
//! (`PERSON_MICROFLOW`, src/lib.rs; compare.sh prints TFLite Micro's beside
//! it). The path is relative to embedded/microflow/, where cargo runs rustc;
//! the MLPerf Tiny files are not in the repository but in
//! `../shared/models` beside it, as CI has them.
#![no_std]
#![no_main]

microflow_compare::microflow_tiny!(
    Person,
    "person_detect",
    "../../tflite/tests/models/person_detect.tflite",
    PERSON_MICROFLOW
);
