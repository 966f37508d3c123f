//! The baseline of `vww.rs`: the same firmware, with MicroFlow's recorded
//! output written as a constant instead of the model (no model, no
//! runtime). The model's flash and static RAM are the differences of `vww`
//! against this.
#![no_std]
#![no_main]

microflow_compare::microflow_tiny_baseline!("vww_96_int8", VWW_MICROFLOW);
