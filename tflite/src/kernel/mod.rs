//! Layer 4, the kernel interface: what an op's preparation and its step
//! see. The operator's operands and their checks (`checker`), the buffers
//! a step runs over and the trait it runs by (`step`), and the shape a
//! shape rule returns (`shape`).

pub(crate) mod checker;
pub(crate) mod shape;
pub(crate) mod step;
