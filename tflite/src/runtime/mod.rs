//! Layer 8, on top of the registry: the interpreter, the planner (`plan`,
//! `schedule`, `stream`) and the support of `model!`'s generated code
//! (`compiled`).

pub mod compiled;
pub(crate) mod interpreter;
pub mod plan;
#[cfg(feature = "alloc")]
pub mod schedule;
pub mod stream;
