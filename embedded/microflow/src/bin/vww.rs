//! MicroFlow 0.1.3's `#[model]` on `vww_96_int8.tflite` (int8), the file
//! shapecheck's `vww` row runs: one inference of the first recorded case of
//! `tiny/vww_96_int8.json` (TFLite Micro's int8 input, fed through
//! `predict_quantized`) in `predict_once`, its stack painted and measured,
//! its int8 output checked against MicroFlow's own, recorded once
//! (`VWW_MICROFLOW`, src/lib.rs; compare.sh prints TFLite Micro's beside
//! it). The path is relative to embedded/microflow/, where cargo runs rustc;
//! the MLPerf Tiny files are not in the repository but in
//! `../shared/models` beside it, as CI has them.
#![no_std]
#![no_main]

microflow_compare::microflow_tiny!(
    Vww,
    "vww_96_int8",
    "../../../shared/models/vww_96_int8.tflite",
    VWW_MICROFLOW
);
