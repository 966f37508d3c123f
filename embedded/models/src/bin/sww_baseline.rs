//! The baseline of `sww.rs`: the same firmware, with the expected output
//! written as a constant instead of the model (no model, no layers). The
//! model's flash and static RAM are the differences of `sww` against this.
#![no_std]
#![no_main]

shapecheck_models_compare::tiny_baseline!("str_ww_ref_model");
