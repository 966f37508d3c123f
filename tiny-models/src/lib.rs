//! `shapecheck::model!` on TFLite Micro's person detection and the MLPerf
//! Tiny suite: visual wake words, keyword spotting, ResNet-8, the anomaly
//! detector, the streaming wake word and ResNet-large. The files are read
//! when this crate builds from the directory `SHAPECHECK_MODELS` names, by
//! default `shared/models` beside the repository (a user gets them from the
//! mlcommons/tiny repository, see the README), and the tests compare every
//! recorded case of `tiny/<model>.json` with TFLite Micro's outputs:
//!
//! ```text
//! cargo test -p tiny-models -- --ignored
//! ```
//!
//! Without the directory the crate builds empty and its tests fail.
#![no_std]

#[cfg(tiny_models)]
include!(concat!(env!("OUT_DIR"), "/models.rs"));
