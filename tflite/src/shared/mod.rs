//! Layer 5, what several ops share: the generic element-wise and float
//! steps and the walk of the ops that move data. A module here serves
//! several ops; it is not one op that others import.

pub(crate) mod broadcast;
pub(crate) mod elementwise;
pub(crate) mod float_ops;
pub(crate) mod moves;
