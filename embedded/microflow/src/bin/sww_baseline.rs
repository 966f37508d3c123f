//! The baseline of `sww.rs`: the same firmware, with MicroFlow's recorded
//! output written as a constant instead of the model (no model, no
//! runtime). The model's flash and static RAM are the differences of `sww`
//! against this.
#![no_std]
#![no_main]

microflow_compare::microflow_tiny_baseline!("str_ww_ref_model", SWW_MICROFLOW);
