//! MicroFlow 0.1.3's `#[model]` on `kws_ref_model.tflite` (int8), the file
//! shapecheck's `kws` row runs: one inference of the first recorded case of
//! `tiny/kws_ref_model.json` (TFLite Micro's int8 input, fed through
//! `predict_quantized`) in `predict_once`, its stack painted and measured,
//! its int8 output checked against MicroFlow's own, recorded once
//! (`KWS_MICROFLOW`, src/lib.rs; compare.sh prints TFLite Micro's beside
//! it). The path is relative to embedded/microflow/, where cargo runs rustc;
//! the MLPerf Tiny files are not in the repository but in
//! `../shared/models` beside it, as CI has them.
#![no_std]
#![no_main]

microflow_compare::microflow_tiny!(
    Kws,
    "kws_ref_model",
    "../../../shared/models/kws_ref_model.tflite",
    KWS_MICROFLOW
);
