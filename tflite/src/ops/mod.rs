//! Layer 6, the ops: one module each (a module may hold a family that
//! shares one kernel). An op imports only from the layers below it: never
//! from another op, the registry, the interpreter or the planner.

pub(crate) mod abs;
pub(crate) mod add;
pub(crate) mod arg_min_max;
pub(crate) mod batch_matmul;
pub(crate) mod concat;
pub(crate) mod conv;
pub(crate) mod depth_space;
pub(crate) mod div;
pub(crate) mod elu;
pub(crate) mod exp;
pub(crate) mod gather;
pub(crate) mod hard_swish;
pub(crate) mod l2_normalization;
pub(crate) mod leaky_relu;
pub(crate) mod logistic;
pub(crate) mod maximum_minimum;
pub(crate) mod mul;
pub(crate) mod neg;
pub(crate) mod pad;
pub(crate) mod pool;
pub(crate) mod prelu;
pub(crate) mod quantize;
pub(crate) mod reduce;
pub(crate) mod relu;
pub(crate) mod reshape;
pub(crate) mod resize;
pub(crate) mod rsqrt;
pub(crate) mod slice;
pub(crate) mod softmax;
pub(crate) mod split;
pub(crate) mod square;
pub(crate) mod squared_difference;
pub(crate) mod sub;
pub(crate) mod transpose;
pub(crate) mod transpose_conv;
// the band kernels' DSP path on the host, against the whole-tensor kernels
#[cfg(test)]
mod band_dsp_tests;
