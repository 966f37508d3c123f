//! Layer 1, what everything uses: a constant's bytes, a forward byte copy and the Rust writer `model!`'s generated
//! code is made with. Imports nothing of the crate.

pub(crate) mod bytes;
pub(crate) mod write_rust;
