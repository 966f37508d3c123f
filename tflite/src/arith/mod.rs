//! Layer 3, the arithmetic: TFLite's requantization, dims, windows and
//! padding, the float routines and what the kernels' DSP loops share.
//! Imports `base` and `format`.

pub(crate) mod activation;
pub(crate) mod dims;
// what the kernels' SMLAD loops share (each kernel's own loops are its
// `dsp` module, beside its portable loop): used on the target with the
// DSP extension (`cfg(shapecheck_dsp)`, set by build.rs) and by the unit
// tests, which run the loops' plain-Rust twins on the host against
// `reference`; elsewhere only the depthwise layers' set-up
// (`depthwise_prepare`, which `model!` runs on the host) is used
#[cfg_attr(not(any(shapecheck_dsp, test)), allow(dead_code))]
#[allow(unsafe_code)]
pub(crate) mod dsp;
pub(crate) mod float_math;
pub(crate) mod quant;
pub(crate) mod window;
