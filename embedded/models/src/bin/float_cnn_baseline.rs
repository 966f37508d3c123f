//! The baseline of `float_cnn`: its data in flash, `predict` replaced by
//! a constant (compare.sh subtracts its sizes).
#![no_std]
#![no_main]

shapecheck_models_compare::float_baseline!("float_cnn");
